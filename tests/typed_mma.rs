//! The typed TiledMMA (`layout_types::cute::atom::mma`) against C++ CuTe 4.2 (a representative
//! selection of `tests/data/cute-tiled_mma_*.jsonl`, generated into `tests/typed_mma/cases.rs` by
//! `tools/gen_typed_mma_cases.py`) and against the value algebra (`layout_types::value::mma`, the
//! reference): TV layouts, tile shapes, every thread's partitions (layout and offset), and a
//! property test of `partition_c` at random thread indices and leading dimensions.

use cute_rs::layout_types::cute::atom::mma::*;
use cute_rs::layout_types::cute::prelude::*;
use cute_rs::layout_types::text::parse::parse_tiler;
use cute_rs::layout_types::value::layout::DynLayout;
use cute_rs::layout_types::value::mma::{MmaAtom as DynAtom, Operand, TiledMma as DynTiledMma};
use device::wgmma::{MajorK, MajorMN};
use proptest::prelude::*;

include!("typed_mma/cases.rs");

/// The C++ text of a permutation tuple as the typed test case prints it (`(_32, Underscore, ...)`
/// → `[_32,_,...]`).
fn perm_text(p: &str) -> String {
    if p == "Underscore" {
        return "_".into();
    }
    // `layout!(` opens a paren whose closing one is dropped with it
    let mut out = String::new();
    let mut depth = 0i32;
    let mut skip_close = Vec::new();
    let chars: Vec<char> = p
        .replace(' ', "")
        .replace("Underscore", "_")
        .replace("i32", "")
        .chars()
        .collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i..].starts_with(&['l', 'a', 'y', 'o', 'u', 't', '!', '(']) {
            skip_close.push(depth);
            depth += 1;
            i += 8;
            continue;
        }
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if skip_close.last() == Some(&depth) {
                    skip_close.pop();
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(chars[i]);
        i += 1;
    }
    let inner = &out[1..out.len() - 1];
    format!("[{inner}]")
}

/// The checks of a TV-layout case on text (not generic: one copy for every case).
fn check_tv(id: &str, expected: &str, typed: &str, tile: &str, dynm: &DynTiledMma, op: Operand) {
    assert_eq!(typed, expected, "{id}: typed vs C++ CuTe");
    assert_eq!(
        typed,
        dynm.layout_tv(op).unwrap().to_string(),
        "{id}: typed vs value algebra"
    );
    let want = format!(
        "(_{},_{},_{})",
        dynm.tile_size(0),
        dynm.tile_size(1),
        dynm.tile_size(2)
    );
    assert_eq!(tile, want, "{id}: tile");
}

macro_rules! tv_check {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $expected:literal, $method:ident, $op:expr) => {{
        let mma = make_tiled_mma_permuted($atom, $al, $perm);
        let (m, n, k) = mma.tile_shape();
        let dynm = reference_of(&$atom, &$al.to_string(), &perm_text(stringify!($perm)));
        check_tv(
            $id,
            $expected,
            &mma.$method().to_string(),
            &format!("({},{},{})", m, n, k),
            &dynm,
            $op,
        );
    }};
}

fn reference_of<A: MmaAtom>(_: &A, atom_layout: &str, perm: &str) -> DynTiledMma {
    let atom = DynAtom::new(A::OP).unwrap();
    let perm = if perm == "_" {
        DynTiledMma::no_permutation()
    } else {
        parse_tiler(perm).unwrap()
    };
    DynTiledMma::new(&atom, &atom_layout.parse().unwrap(), &perm).unwrap()
}

macro_rules! tv_a {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $expected:literal) => {
        tv_check!($id, $atom, $al, $perm, $expected, layout_a_tv, Operand::A)
    };
}
macro_rules! tv_b {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $expected:literal) => {
        tv_check!($id, $atom, $al, $perm, $expected, layout_b_tv, Operand::B)
    };
}
macro_rules! tv_c {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $expected:literal) => {
        tv_check!($id, $atom, $al, $perm, $expected, layout_c_tv, Operand::C)
    };
}

/// The checks of a partition case (not generic): `typed[t]` is thread `t`'s typed layout and
/// offset; the case's thread `thr` prints C++ CuTe's `expected`, and every thread equals the
/// value algebra.
fn check_partition(
    id: &str,
    expected: &str,
    thr: usize,
    typed: &[(String, i64)],
    dynm: &DynTiledMma,
    op: Operand,
    dl: &DynLayout,
) {
    assert_eq!(typed[thr].0, expected, "{id}: typed vs C++ CuTe");
    for (t, (layout, offset)) in typed.iter().enumerate() {
        let (rl, off) = dynm.get_slice(t as i64).partition(op, dl).unwrap();
        assert_eq!(*layout, rl.to_string(), "{id}: thread {t}");
        assert_eq!(*offset, off.v, "{id}: offset of thread {t}");
    }
}

/// Every thread's partition: the typed layout prints as C++ CuTe's for the case's thread, and for
/// every thread the typed layout and offset equal the value algebra's.
macro_rules! part_check {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $tensor:expr, $thr:expr, $expected:literal, $method:ident, $op:expr) => {{
        let mma = make_tiled_mma_permuted($atom, $al, $perm);
        let l = $tensor;
        let t = make_tensor(Counting(0i32), l);
        let mut typed = Vec::new();
        for thr in 0..mma.size() as i32 {
            let p = mma.get_slice(thr).$method(&t);
            typed.push((p.layout.to_string(), p.engine.0 as i64));
        }
        let dynm = reference_of(&$atom, &$al.to_string(), &perm_text(stringify!($perm)));
        let dl: DynLayout = l.to_string().parse().unwrap();
        check_partition($id, $expected, $thr as usize, &typed, &dynm, $op, &dl);
    }};
}
macro_rules! part_a {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $t:expr, $thr:expr, $e:literal) => {
        part_check!(
            $id,
            $atom,
            $al,
            $perm,
            $t,
            $thr,
            $e,
            partition_a,
            Operand::A
        )
    };
}
macro_rules! part_b {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $t:expr, $thr:expr, $e:literal) => {
        part_check!(
            $id,
            $atom,
            $al,
            $perm,
            $t,
            $thr,
            $e,
            partition_b,
            Operand::B
        )
    };
}
macro_rules! part_c {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $t:expr, $thr:expr, $e:literal) => {
        part_check!(
            $id,
            $atom,
            $al,
            $perm,
            $t,
            $thr,
            $e,
            partition_c,
            Operand::C
        )
    };
}

/// The checks of a fragment case (not generic).
fn check_fragment(
    id: &str,
    expected: &str,
    (typed, len): (&str, usize),
    dynm: &DynTiledMma,
    op: Operand,
    thr: i64,
    dl: &DynLayout,
) {
    assert_eq!(typed, expected, "{id}: typed vs C++ CuTe");
    let r = dynm.get_slice(thr).partition_fragment(op, dl).unwrap();
    assert_eq!(typed, r.to_string(), "{id}: typed vs value algebra");
    assert_eq!(len as i64, r.size().v);
}

/// A register fragment of A or B: the typed layout prints as C++ CuTe's and the value algebra's.
macro_rules! frag_check {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $tensor:expr, $thr:expr, $expected:literal, $method:ident, $op:expr) => {{
        let mma = make_tiled_mma_permuted($atom, $al, $perm);
        let l = $tensor;
        let f = mma.get_slice($thr).$method(&make_tensor(Counting(0i32), l));
        let dynm = reference_of(&$atom, &$al.to_string(), &perm_text(stringify!($perm)));
        let dl: DynLayout = l.to_string().parse().unwrap();
        check_fragment(
            $id,
            $expected,
            (&f.layout.to_string(), f.len()),
            &dynm,
            $op,
            $thr as i64,
            &dl,
        );
    }};
}
macro_rules! frag_a {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $t:expr, $thr:expr, $e:literal) => {
        frag_check!(
            $id,
            $atom,
            $al,
            $perm,
            $t,
            $thr,
            $e,
            partition_fragment_a,
            Operand::A
        )
    };
}
macro_rules! frag_b {
    ($id:literal, $atom:expr, $al:expr, $perm:expr, $t:expr, $thr:expr, $e:literal) => {
        frag_check!(
            $id,
            $atom,
            $al,
            $perm,
            $t,
            $thr,
            $e,
            partition_fragment_b,
            Operand::B
        )
    };
}

#[test]
fn register_fragments_match_cute_and_the_value_algebra() {
    fragment_cases!(frag_a, frag_b);
}

#[test]
fn tv_layouts_match_cute_and_the_value_algebra() {
    tv_cases!(tv_a, tv_b, tv_c);
}

#[test]
fn partitions_match_cute_and_the_value_algebra() {
    partition_cases!(part_a, part_b, part_c);
}

/// The GMMA atoms' traits equal the value algebra's for every N (types and layouts by text).
#[test]
fn gmma_atoms_match_the_value_algebra() {
    fn check<A: MmaAtom>(a: A) {
        let _ = a;
        let d = DynAtom::new(A::OP).unwrap();
        assert_eq!(A::ThrID::default_text(), d.thr_id.to_string());
        assert_eq!(
            A::ALayout::default_text(),
            d.layout_a_tv.to_string(),
            "{}",
            A::OP
        );
        assert_eq!(
            A::BLayout::default_text(),
            d.layout_b_tv.to_string(),
            "{}",
            A::OP
        );
        assert_eq!(
            A::CLayout::default_text(),
            d.layout_c_tv.to_string(),
            "{}",
            A::OP
        );
        assert_eq!(
            format!("(_{},_{},_{})", A::M::VALUE, A::N::VALUE, A::K::VALUE),
            d.shape_mnk.to_string()
        );
    }
    check(SM90_64x8x16_F32BF16BF16_SS::<MajorK, MajorMN>::new());
    check(SM90_64x96x16_F32F16F16_RS::<MajorK, MajorMN>::new());
    check(SM90_64x200x16_F32F16F16_SS::<MajorMN, MajorMN>::new());
    check(SM90_64x256x16_F32BF16BF16_RS::<MajorK, MajorK>::new());
    check(SM80_16x8x8_F16F16F16F16_TN::new());
    check(SM80_16x8x8_F32F16F16F32_TN::new());
    check(SM80_16x8x8_F32BF16BF16F32_TN::new());
    check(SM80_16x8x8_F32TF32TF32F32_TN::new());
    check(SM80_16x8x16_F16F16F16F16_TN::new());
    check(SM80_16x8x16_F32F16F16F32_TN::new());
    check(SM80_16x8x16_F32BF16BF16F32_TN::new());
}

trait DefaultText {
    fn default_text() -> String;
}
impl<T: Default + std::fmt::Display> DefaultText for T {
    fn default_text() -> String {
        T::default().to_string()
    }
}

/// The probe configuration: SM80 16x8x16, atoms (_2,_2,_1), a 128x128 column-major C tile
/// with a run-time ldc; the accumulator fragment is static.
#[test]
fn probe_configuration() {
    let mma = make_tiled_mma(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        make_layout_left((_2, _2, _1)),
    );
    let ldc = 136i32;
    let c = make_tensor(Counting(0i32), layout!((_128, _128):(_1, ldc)));
    let acc = mma.partition_fragment_c(&c);
    assert_eq!(acc.len(), 128);
    assert_eq!(acc.layout.to_string(), "((_2,_2),_4,_8):((_1,_2),_4,_16)");
    let p = mma.get_slice(37i32).partition_c(&c);
    assert_eq!(p.layout.to_string(), "((_2,_2),_4,_8):((136,_8),_32,2176)");
    // thread 37: atom (1, 0), lane 5 -> row 16 + 5 / 4, column (5 % 4) * 2
    assert_eq!(p.engine.0, 17 + 2 * ldc);
    // a kernel's u32 thread index gives the same partition
    let q = mma.get_slice(37u32).partition_c(&c);
    assert_eq!(q.layout.to_string(), p.layout.to_string());
    assert_eq!(q.engine.0 as i64, p.engine.0 as i64);
}

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: 48,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// `partition_c` of a 128x128 tile with a run-time leading dimension, at a random thread
    /// index: every value's index equals the value algebra's, and the 128 threads' values cover
    /// the tile exactly once.
    #[test]
    fn partition_c_at_random_threads(thr in 0i32..128, ldc in 128i32..300, row_major in any::<bool>()) {
        let mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN::new(), make_layout_left((_2, _2, _1)));
        let dynm = reference_of(&SM80_16x8x16_F32BF16BF16F32_TN::new(), "(_2,_2,_1)", "_");
        let check = |l: DynLayout, typed: Vec<i64>| -> Result<(), TestCaseError> {
            let (rl, off) = dynm.get_slice(thr as i64).partition(Operand::C, &l).unwrap();
            let reference: Vec<i64> = (0..rl.size().v).map(|i| off.v + rl.call(i)).collect();
            prop_assert_eq!(typed, reference);
            Ok(())
        };
        if row_major {
            let l = layout!((_128, _128):(ldc, _1));
            let p = mma.get_slice(thr).partition_c(&make_tensor(Counting(0i32), l));
            let typed: Vec<i64> = (0..128i32).map(|i| (p.engine.0 + p.layout.call(i)) as i64).collect();
            check(l.to_string().parse().unwrap(), typed)?;
        } else {
            let l = layout!((_128, _128):(_1, ldc));
            let p = mma.get_slice(thr).partition_c(&make_tensor(Counting(0i32), l));
            let typed: Vec<i64> = (0..128i32).map(|i| (p.engine.0 + p.layout.call(i)) as i64).collect();
            check(l.to_string().parse().unwrap(), typed)?;
        }
    }

    /// `partition_a` / `partition_b` of a K-blocked tile with run-time strides at random threads
    /// agree with the value algebra.
    #[test]
    fn partition_ab_at_random_threads(thr in 0i32..128, lda in 32i32..100) {
        let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), make_layout_left((_2, _2, _1)));
        let dynm = reference_of(&SM80_16x8x16_F32F16F16F32_TN::new(), "(_2,_2,_1)", "_");
        let l = layout!((_64, _32):(lda, _1));
        let dl: DynLayout = l.to_string().parse().unwrap();
        let t = make_tensor(Counting(0i32), l);
        let pa = mma.get_slice(thr).partition_a(&t);
        let (ra, oa) = dynm.get_slice(thr as i64).partition(Operand::A, &dl).unwrap();
        prop_assert_eq!(pa.layout.to_string(), ra.to_string());
        prop_assert_eq!(pa.engine.0 as i64, oa.v);
        let pb = mma.get_slice(thr).partition_b(&t);
        let (rb, ob) = dynm.get_slice(thr as i64).partition(Operand::B, &dl).unwrap();
        prop_assert_eq!(pb.layout.to_string(), rb.to_string());
        prop_assert_eq!(pb.engine.0 as i64, ob.v);
    }

    /// A permuted SM80 TiledMMA and a two-warpgroup GMMA: `partition_c` at random threads and
    /// leading dimensions agrees with the value algebra (layout and offset).
    #[test]
    fn permuted_and_gmma_partition_c_at_random_threads(thr in 0i32..256, ld in 256i32..400) {
        let perm = (_32, layout!((_8, _2, _2):(_1, _16, _8)), _16);
        let mma = make_tiled_mma_permuted(SM80_16x8x16_F32F16F16F32_TN::new(), make_layout_left((_2, _2, _1)), perm);
        let dynm = reference_of(&SM80_16x8x16_F32F16F16F32_TN::new(), "(_2,_2,_1)", "[_32,(_8,_2,_2):(_1,_16,_8),_16]");
        let l = layout!((_64, _64):(_1, ld));
        let dl: DynLayout = l.to_string().parse().unwrap();
        let p = mma.get_slice(thr % 128).partition_c(&make_tensor(Counting(0i32), l));
        let (r, off) = dynm.get_slice((thr % 128) as i64).partition(Operand::C, &dl).unwrap();
        prop_assert_eq!(p.layout.to_string(), r.to_string());
        prop_assert_eq!(p.engine.0 as i64, off.v);

        let wg = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS::<MajorK, MajorMN>::new(), layout!((_2, _1, _1):(_1, _0, _0)));
        let dwg = reference_of(&SM90_64x128x16_F32BF16BF16_SS::<MajorK, MajorMN>::new(), "(_2,_1,_1):(_1,_0,_0)", "_");
        let g = layout!((_128, _256):(ld, _1));
        let dg: DynLayout = g.to_string().parse().unwrap();
        let p = wg.get_slice(thr).partition_c(&make_tensor(Counting(0i32), g));
        let (r, off) = dwg.get_slice(thr as i64).partition(Operand::C, &dg).unwrap();
        prop_assert_eq!(p.layout.to_string(), r.to_string());
        prop_assert_eq!(p.engine.0 as i64, off.v);
    }
}
