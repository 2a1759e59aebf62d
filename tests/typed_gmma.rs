//! The typed GMMA layer (`layout_types::cute::atom::gmma`) against C++ CuTe and the value algebra:
//! every GMMA layout atom (major × swizzle × element width) against `tests/data/cute-gmma_smem_atom.jsonl`
//! and `layout_types::value::gmma::gmma_smem_atom`; 31 cases of `tests/data/cute-tile_to_shape.jsonl`
//! (plain and swizzled blocks, static and dynamic targets, every order) against CuTe's text and
//! `layout_types::value::gmma::tile_to_shape`; `make_gmma_desc` and the descriptor tensor against the 64-bit
//! descriptors C++ CuTe computes (`tests/data/gmma/cute-gmma_desc.jsonl`, `tools/oracle/gen_gmma_desc.py`);
//! and property tests of run-time indexing (swizzled offsets and descriptors at random coordinates).

use cute_rs::layout_types::cute::atom::gmma::*;
use cute_rs::layout_types::cute::prelude::*;
use cute_rs::layout_types::cute::swizzle::SmemPtrFlag;
use cute_rs::layout_types::value::algebra::Tiler;
use cute_rs::layout_types::value::divide as value_divide;
use cute_rs::layout_types::value::gmma::{self as value, GmmaSwizzle, Order};
use cute_rs::layout_types::value::mma::Major;
use cute_rs::layout_types::value::swizzle::{ComposedLayout, DynSwizzle, Swizzle};
use cute_rs::layout_types::{value::int_tuple::IntTuple as Value, value::layout::DynLayout};
use device::wgmma::{MajorK, MajorMN};
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Display;

fn data(name: &str) -> Vec<serde_json::Value> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The text of a typed value (the formatting itself through `dyn Display`: one copy of it for
/// the whole file instead of one per layout type).
fn tl<L: Display>(l: L) -> String {
    text_of(&l)
}
fn text_of(l: &dyn Display) -> String {
    l.to_string()
}

// ---------------------------------------------------------------------------------------------
// layout atoms
// ---------------------------------------------------------------------------------------------

/// Every `GMMA::Layout_<major>_<swizzle>_Atom<T>` of the corpus prints as C++ CuTe and as the
/// value algebra's `gmma_smem_atom`.
#[test]
fn atoms_match_cute_and_the_value_algebra() {
    let mut typed: HashMap<(String, String, i64), String> = HashMap::new();
    macro_rules! atoms {
        ($($major:literal $sw:literal: $k:ident, $mn:ident;)*) => {$(
            typed.insert(("K".into(), $sw.into(), 8), tl($k::<u8>::new()));
            typed.insert(("K".into(), $sw.into(), 16), tl($k::<u16>::new()));
            typed.insert(("K".into(), $sw.into(), 32), tl($k::<f32>::new()));
            typed.insert(("K".into(), $sw.into(), 64), tl($k::<f64>::new()));
            typed.insert(("MN".into(), $sw.into(), 8), tl($mn::<i8>::new()));
            typed.insert(("MN".into(), $sw.into(), 16), tl($mn::<i16>::new()));
            typed.insert(("MN".into(), $sw.into(), 32), tl($mn::<u32>::new()));
            typed.insert(("MN".into(), $sw.into(), 64), tl($mn::<u64>::new()));
        )*};
    }
    atoms! {
        "" "INTER": Layout_K_INTER_Atom, Layout_MN_INTER_Atom;
        "" "SW32": Layout_K_SW32_Atom, Layout_MN_SW32_Atom;
        "" "SW64": Layout_K_SW64_Atom, Layout_MN_SW64_Atom;
        "" "SW128": Layout_K_SW128_Atom, Layout_MN_SW128_Atom;
    }
    let rows = data("cute-gmma_smem_atom.jsonl");
    assert_eq!(rows.len(), 32);
    for r in &rows {
        let a: Vec<&str> = r["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let bits: i64 = a[2].parse().unwrap();
        let expected = r["expected"].as_str().unwrap();
        let got = &typed[&(a[0].to_string(), a[1].to_string(), bits)];
        assert_eq!(got, expected, "{}", r["id"]);
        let major = if a[0] == "K" { Major::K } else { Major::MN };
        let v = value::gmma_smem_atom(major, GmmaSwizzle::parse(a[1]).unwrap(), bits).unwrap();
        assert_eq!(&v.to_string(), got, "{} (value algebra)", r["id"]);
    }
    // 128-bit elements: one column (not in the corpus; the value algebra is the reference)
    let v = value::gmma_smem_atom(Major::K, GmmaSwizzle::INTER, 128).unwrap();
    assert_eq!(tl(Layout_K_INTER_Atom::<u128>::new()), v.to_string());
    assert_eq!(core::mem::size_of::<Layout_MN_SW128_Atom<u16>>(), 0);
}

// ---------------------------------------------------------------------------------------------
// tile_to_shape
// ---------------------------------------------------------------------------------------------

mod byte_swizzle {
    use super::*;
    include!("typed_gmma/byte_swizzle.rs");
}

#[allow(clippy::type_complexity)]
mod tile_cases {
    use super::*;
    include!("typed_gmma/tile_to_shape_cases.rs");
}

/// 31 cases of the tile_to_shape corpus: the typed result prints C++ CuTe's text, and so does the
/// value algebra's `tile_to_shape` on the same inputs.
#[test]
fn tile_to_shape_matches_cute_and_the_value_algebra() {
    let cases = tile_cases::tile_to_shape_cases();
    assert_eq!(cases.len(), 31);
    let corpus: HashMap<String, String> = data("cute-tile_to_shape.jsonl")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["expected"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (id, block, target, order, expected, got) in cases {
        assert_eq!(corpus[id], expected, "{id}: the generated case is stale");
        assert_eq!(got, expected, "{id}");
        let trg: Value = target.parse().unwrap();
        let ord = Order::parse(order).unwrap();
        let v = if block.starts_with("Sw<") {
            let b: ComposedLayout = block.parse().unwrap();
            value::tile_to_shape_composed(&b, &trg, &ord)
                .unwrap()
                .to_string()
        } else {
            let b: DynLayout = block.parse().unwrap();
            value::tile_to_shape(&b, &trg, &ord).unwrap().to_string()
        };
        assert_eq!(v, expected, "{id} (value algebra)");
    }
}

// ---------------------------------------------------------------------------------------------
// descriptors
// ---------------------------------------------------------------------------------------------

/// One descriptor case: the smem tile, its descriptor tensor's layout, and every descriptor.
type DescCase = (&'static str, String, String, u64, Vec<u64>);

fn desc_cases() -> Vec<DescCase> {
    let mut out = Vec::new();
    macro_rules! case {
        ($id:literal, $atom:ident, $t:ty, $major:ident, [$m:literal, $k:literal, $s:literal], $ord:expr, [$tm:literal, $tk:literal]) => {{
            let smem = tile_to_shape(
                $atom::<$t>::new(),
                (Int::<$m>::new(), Int::<$k>::new(), Int::<$s>::new()),
                $ord,
            );
            let part = smem.with_layout(zipped_divide(
                smem.layout,
                (Int::<$tm>::new(), Int::<$tk>::new()),
            ));
            // host "shared memory" at address 0 (C++ CuTe's host cast_smem_ptr_to_uint is 0)
            let t = make_tensor(make_smem_ptr(core::ptr::null_mut::<$t>()), part);
            let d = make_gmma_desc_tensor($major, t);
            let n = product(d.layout.shape).value();
            let mut descs = Vec::new();
            for j in 0..n as i32 {
                descs.push(d.at((_0, j)).desc.desc);
            }
            out.push(($id, tl(smem), tl(d.layout), d.engine.desc.desc, descs));
        }};
    }
    case!(
        "K_INTER_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_K_INTER_Atom,
        u16,
        MajorK,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "K_SW32_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_K_SW32_Atom,
        u16,
        MajorK,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "K_SW64_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_K_SW64_Atom,
        u16,
        MajorK,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "K_SW128_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_K_SW128_Atom,
        u16,
        MajorK,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "MN_INTER_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_MN_INTER_Atom,
        u16,
        MajorMN,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "MN_SW32_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_MN_SW32_Atom,
        u16,
        MajorMN,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "MN_SW64_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_MN_SW64_Atom,
        u16,
        MajorMN,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "MN_SW128_u16_128x64x2_LayoutLeft_mma64x16",
        Layout_MN_SW128_Atom,
        u16,
        MajorMN,
        [128, 64, 2],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "K_SW128_u16_128x64x4_LayoutLeft_mma64x16",
        Layout_K_SW128_Atom,
        u16,
        MajorK,
        [128, 64, 4],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "K_SW128_u16_128x64x4_LayoutLeft_mma128x16",
        Layout_K_SW128_Atom,
        u16,
        MajorK,
        [128, 64, 4],
        LayoutLeft,
        [128, 16]
    );
    case!(
        "K_SW128_u16_256x64x3_LayoutRight_mma64x16",
        Layout_K_SW128_Atom,
        u16,
        MajorK,
        [256, 64, 3],
        LayoutRight,
        [64, 16]
    );
    case!(
        "K_SW64_u16_64x128x2_Step213_mma64x16",
        Layout_K_SW64_Atom,
        u16,
        MajorK,
        [64, 128, 2],
        (_2, _1, _3),
        [64, 16]
    );
    case!(
        "MN_SW128_u16_128x64x4_LayoutLeft_mma64x16",
        Layout_MN_SW128_Atom,
        u16,
        MajorMN,
        [128, 64, 4],
        LayoutLeft,
        [64, 16]
    );
    case!(
        "MN_SW128_u16_256x32x2_Step132_mma256x16",
        Layout_MN_SW128_Atom,
        u16,
        MajorMN,
        [256, 32, 2],
        (_1, _3, _2),
        [256, 16]
    );
    case!(
        "MN_SW64_u32_64x32x3_LayoutRight_mma64x8",
        Layout_MN_SW64_Atom,
        u32,
        MajorMN,
        [64, 32, 3],
        LayoutRight,
        [64, 8]
    );
    case!(
        "K_SW32_u8_192x64x5_LayoutLeft_mma64x32",
        Layout_K_SW32_Atom,
        u8,
        MajorK,
        [192, 64, 5],
        LayoutLeft,
        [64, 32]
    );
    case!(
        "K_INTER_u16_64x32x2_Step213_mma64x16",
        Layout_K_INTER_Atom,
        u16,
        MajorK,
        [64, 32, 2],
        (_2, _1, _3),
        [64, 16]
    );
    case!(
        "MN_INTER_u8_64x64x2_LayoutRight_mma64x32",
        Layout_MN_INTER_Atom,
        u8,
        MajorMN,
        [64, 64, 2],
        LayoutRight,
        [64, 32]
    );
    out
}

/// make_gmma_desc and the descriptor tensor (CuTe's partition_fragment_A/B of an SS GMMA) give
/// C++ CuTe's 64-bit descriptors. Every case of the corpus (every atom × major × width 8/16/32/64
/// and ten more tiles: stage counts, MMA tiles of 128 and 256 rows, LayoutRight and Step orders)
/// through the value algebra — `zipped_divide` of the smem layout by the MMA tile, `gmma_desc`
/// of mode 0, mode 1's offsets in 16-byte units — and the typed layer on the 16-bit case of each
/// major × swizzle and on the ten tiles (`desc_cases`: the typed code is the same for every
/// element width; each typed case costs about a second of compile time).
#[test]
fn descriptors_match_cute() {
    let rows = data("gmma/cute-gmma_desc.jsonl");
    assert_eq!(rows.len(), 42);
    let typed: HashMap<&str, (String, String, u64, Vec<u64>)> = desc_cases()
        .into_iter()
        .map(|(id, smem, dl, desc, descs)| (id, (smem, dl, desc, descs)))
        .collect();
    assert_eq!(typed.len(), 18);
    let mut typed_seen = 0;
    for r in &rows {
        let id = r["id"].as_str().unwrap();
        let smem = r["smem"].as_str().unwrap();
        let want_desc = r["desc"].as_u64().unwrap();
        let want: Vec<u64> = r["descs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        // value algebra: id = <major>_<swizzle>_u<bits>_<tile>_<order>_mma<M>x<K>
        let f: Vec<&str> = id.split('_').collect();
        let major = if f[0] == "K" { Major::K } else { Major::MN };
        let bits: i64 = f[2].trim_start_matches('u').parse().unwrap();
        let (tm, tk) = f[f.len() - 1]
            .trim_start_matches("mma")
            .split_once('x')
            .unwrap();
        let c: ComposedLayout = smem.parse().unwrap();
        let tiler = Tiler::from_shape(&format!("(_{tm},_{tk})").parse().unwrap()).unwrap();
        let z = value_divide::zipped_divide(&c.layout, &tiler).unwrap();
        let base = value::gmma_desc(&z.get(0), c.swizzle, major, bits).unwrap();
        assert_eq!(base, want_desc, "{id}: gmma_desc (value algebra)");
        let rest = z.get(1);
        let descs: Vec<u64> = (0..rest.size().v)
            .map(|j| {
                let off = rest.call(j) * bits / 128;
                (base & !0xFFFF_FFFF) | (base as u32).wrapping_add(off as u32) as u64
            })
            .collect();
        assert_eq!(descs, want, "{id}: descriptor tensor (value algebra)");
        // the typed layer
        if let Some((t_smem, t_dl, t_desc, t_descs)) = typed.get(id) {
            typed_seen += 1;
            assert_eq!(smem, t_smem, "{id}: smem layout");
            assert_eq!(
                r["desc_layout"].as_str().unwrap(),
                t_dl,
                "{id}: descriptor tensor layout"
            );
            assert_eq!(want_desc, *t_desc, "{id}: make_gmma_desc");
            assert_eq!(&want, t_descs, "{id}: descriptor tensor");
        }
    }
    assert_eq!(typed_seen, typed.len());
}

/// The start address: `(smem address >> 4) & 0x3FFF` in bits 0..14, the rest unchanged.
#[test]
fn descriptor_start_address() {
    let tile = make_composed_layout(
        Swizzle::<3, 4, 3>,
        layout!(((_8, _8), (_16, _1)):((_64, _512), (_1, _0))),
    )
    .with_offset(SmemPtrFlag::<BitsOf<u16>>::default());
    let base = make_gmma_desc(
        MajorK,
        &make_tensor(make_smem_ptr(core::ptr::null_mut::<u16>()), tile),
    );
    for addr in [0usize, 16, 0x400, 0x3FFF0, 0x40000 + 0x1230] {
        let d = make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(addr as *mut u16), tile));
        assert_eq!(d.desc, base.desc | (((addr as u64) >> 4) & 0x3FFF));
    }
    let v = value::gmma_desc(
        &tile.layout.to_string().parse().unwrap(),
        DynSwizzle::new(3, 4, 3).unwrap(),
        Major::K,
        16,
    );
    assert_eq!(v.unwrap(), base.desc);
}

// ---------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// The probe's tile, `tile_to_shape(Layout_K_SW128_Atom<half_t>, (_128,_64,_4))`, at a random
    /// `(m, k, stage)`: the typed swizzled offset is the value algebra's.
    #[test]
    fn swizzled_tile_offsets_agree(m in 0i32..128, k in 0i32..64, s in 0i32..4) {
        let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
        let v: ComposedLayout = smem.to_string().parse().unwrap();
        let i = v.layout.crd2idx(&format!("({m},{k},{s})").parse::<Value>().unwrap()).v;
        prop_assert_eq!(smem.crd2idx((m, k, s)) as i64, v.swizzle.apply(i));
    }

    /// The same for an MN-major SW64 tile of floats tiled LayoutRight, at a random 1-D index.
    #[test]
    fn swizzled_offsets_agree_mn(i in 0i32..(64 * 32 * 3)) {
        let smem = tile_to_shape(Layout_MN_SW64_Atom::<f32>::new(), (_64, _32, _3), LayoutRight);
        let v: ComposedLayout = smem.to_string().parse().unwrap();
        prop_assert_eq!(smem.crd2idx(i) as i64, v.call(i as i64));
    }

    /// The descriptor of the MMA tile at a random `(m, k, stage)` of the probe's tile is the value
    /// algebra's descriptor of the tile plus its offset in 16-byte units, at a random address.
    #[test]
    fn descriptor_tensor_agrees(m in 0i32..2, k in 0i32..4, s in 0i32..4, a in 0usize..0x4000) {
        let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
        let part = smem.with_layout(zipped_divide(smem.layout, (_64, _16)));
        let addr = a * 1024;
        let d = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(addr as *mut u16), part));
        let v: DynLayout = part.layout.to_string().parse().unwrap();
        let tile = v.get(0);
        let base = value::gmma_desc(&tile, DynSwizzle::new(3, 4, 3).unwrap(), Major::K, 16).unwrap()
            | (((addr as u64) >> 4) & 0x3FFF);
        let off = v.crd2idx(&format!("(0,({m},{k},(0,{s})))").parse::<Value>().unwrap()).v;
        let lo = (base as u32).wrapping_add((off * 2 / 16) as u32);
        prop_assert_eq!(d.at((_0, (m, k, (_0, s)))).desc.desc, (base & !0xFFFF_FFFF) | lo as u64);
    }
}
