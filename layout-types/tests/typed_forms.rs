//! The typed forms of issue #39 (and `max_common_vector` / `max_common_layout`) against the value
//! algebra, on small hand-picked cases (the
//! corpus cases are in `typed_differential/cases_forms.rs`, behind `typed-full`).

use layout_types::cute::prelude::*;
use layout_types::text::parse::{parse_int_tuple, parse_layout, parse_tiler};
use layout_types::{value::algebra, value::layout::DynLayout};

fn v(l: &str) -> DynLayout {
    parse_layout(l).unwrap()
}

#[test]
fn composition_by_tiler() {
    let a = layout!((_4, _8):(_8, _1));
    let t = composition(a, (layout!(_2:_2), _4));
    let want =
        algebra::composition_tiler(&v("(_4,_8):(_8,_1)"), &parse_tiler("[_2:_2,_4]").unwrap());
    assert_eq!(t.to_string(), want.unwrap().to_string());
    assert_eq!(t.to_string(), "(_2,_4):(_16,_1)");
    let m = 6i64;
    let u = composition(layout!((m, _8):(_8, _1)), (Underscore, _2));
    assert_eq!(u.to_string(), "(6,_2):(_8,_1)");
    // layout tiler (the former form), integer tiler, `_`
    assert_eq!(
        composition(a, layout!((_2, _4):(_1, _2))).to_string(),
        "(_2,(_2,_2)):(_8,(_16,_1))"
    );
    assert_eq!(composition(a, _8).to_string(), "(_4,_2):(_8,_1)");
    assert_eq!(composition(a, Underscore).to_string(), a.to_string());
    // dynamic strides, a nested tiler, modes beyond the tiler dropped
    let (ld, n) = (100i64, 7i64);
    let b = layout!((_8, (_4, _4), n):(_1, (ld, _8), _64));
    let c = composition(b, (layout!(_4:_2), (_2, _2)));
    let want = algebra::composition_tiler(
        &v("(_8,(_4,_4),7):(_1,(100,_8),_64)"),
        &parse_tiler("[_4:_2,(_2,_2)]").unwrap(),
    );
    assert_eq!(c.to_string(), want.unwrap().to_string());
    // a layout inside a nested tiler mode (the value algebra's tilers cannot say it)
    let c = composition(b, (layout!(_4:_2), (_2, layout!(_2:_2))));
    assert_eq!(c.to_string(), "(_4,(_2,_2)):(_2,(100,_16))");
    // a swizzle-free 2-D tile carved from the first rows and columns
    let s = layout!((_64, _64):(_64, _1));
    let t = composition(s, (_16, _32));
    assert_eq!(t.to_string(), "(_16,_32):(_64,_1)");
}

#[test]
fn coalesce_with_profile() {
    let l = layout!((_2, (_1, _6)):(_1, (_6, _2)));
    assert_eq!(coalesce_by(l, (_1, _1)).to_string(), "(_2,_6):(_1,_2)");
    assert_eq!(coalesce_by(l, _1).to_string(), "_12:_1");
    let p = layout!(((_2, _2), (_4, _1), _8):((_1, _2), (_4, _0), _16));
    assert_eq!(
        coalesce_by(p, (_1, _1, _1)).to_string(),
        "(_4,_4,_8):(_1,_4,_16)"
    );
    assert_eq!(
        coalesce_by(p, (_1,)).to_string(),
        "(_4,(_4,_1),_8):(_1,(_4,_0),_16)"
    );
    let k = 5i64;
    let q = layout!(((_2, k), (_3, (_1, _2))):((_1, _2), (_4, (_0, _12))));
    let want = algebra::coalesce_by(
        &v("((_2,5),(_3,(_1,_2))):((_1,_2),(_4,(_0,_12)))"),
        &parse_int_tuple("(_1,(_1,_1))").unwrap(),
    );
    assert_eq!(
        coalesce_by(q, (_1, (_1, _1))).to_string(),
        want.unwrap().to_string()
    );
}

#[test]
fn filters() {
    assert_eq!(
        filter_zeros(layout!((_4, (_2, 3i64)):(_1, (_0, _0)))).to_string(),
        "(_4,(_1,_1)):(_1,(_0,_0))"
    );
    assert_eq!(
        filter(layout!(((_2, _3), _4):((_1, _0), _2))).to_string(),
        "_8:_1"
    );
    let n = 4i64;
    assert_eq!(
        filter(layout!((n, 6i64, 1i64):(_4, _32, _0))).to_string(),
        "(4,6):(_4,_32)"
    );
    assert_eq!(filter(layout!(_12:0i64)).to_string(), "_12:0");
    let l = "((_2,_3),4):((_1,_0),0)";
    assert_eq!(
        filter(layout!((( _2, _3), 4i64):((_1, _0), 0i64))).to_string(),
        algebra::filter(&v(l)).to_string()
    );
}

#[test]
fn compact_majors() {
    let l = make_layout_right((_4, _16, (_8, _2)));
    assert_eq!(l.to_string(), "(_4,_16,(_8,_2)):(_256,_16,(_2,_1))");
    assert_eq!(make_layout_right((8i32, 8i32)).to_string(), "(8,8):(8,_1)");
    assert_eq!(make_layout_right((_1, _4)).to_string(), "(_1,_4):(_0,_1)");
    assert_eq!(make_layout_right(16i64).to_string(), "16:_1");
    assert_eq!(
        make_layout_major((_4, (_2, 3i32)), LayoutRight).to_string(),
        "(_4,(_2,3)):(6,(3,_1))"
    );
    assert_eq!(
        make_layout_major((_4, _2), GenColMajor::default()).to_string(),
        "(_4,_2):(_1,_4)"
    );
    let o = make_ordered_layout((_2, _2, _2, _2), (_0, _2, _3, _1));
    assert_eq!(o.to_string(), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
    let m = 6i32;
    assert_eq!(
        make_ordered_layout((m, _4), (_1, _0)).to_string(),
        "(6,_4):(_4,_1)"
    );
}

#[test]
fn local_tile_every_form() {
    use layout_types::value::partition as vp;
    let (m, n, l) = (256i32, 384i32, 5i32);
    let mnl = layout!((m, n, l):(_1, m, m * n));
    let (tile, off) = local_tile(mnl, (_128, _128), (1i32, 2i32, 3i32));
    assert_eq!(tile.to_string(), "(_128,_128):(_1,256)");
    assert_eq!(off, 128 + 2 * 128 * 256 + 3 * 256 * 384);
    let (t, _) = local_tile(
        layout!(((_4, _16), _5):((_1, _4), _64)),
        (_32, _2),
        (1i32, Underscore),
    );
    assert_eq!(t.to_string(), "(_32,_2,_3):(_1,_64,_128)");
    let a = layout!((100i32, 60i32):(_1, 128i32));
    let (tile, off) = local_tile(a, (_32, _8), (1i32, 2i32));
    assert_eq!(
        (tile.to_string().as_str(), off),
        ("(_32,_8):(_1,128)", 32 + 16 * 128)
    );
    let (col, _) = local_tile(a, (_32, _8), (1i32, Underscore));
    assert_eq!(col.to_string(), "(_32,_8,8):(_1,128,1024)");
    let (t, _) = local_tile(
        layout!((_8, _8):(_8, _1)),
        (layout!(_4:_2), _8),
        (0i32, 0i32),
    );
    assert_eq!(t.to_string(), "(_4,_8):(_16,_1)");
    let (ta, _) = local_tile_proj(
        layout!((256i32, 64i32):(_1, 256i32)),
        (_128, _128, _8),
        (1i32, 0i32, Underscore),
        (_1, X, _1),
    );
    assert_eq!(ta.to_string(), "(_128,_8,8):(_1,256,2048)");
    // static non-dividing: CuTe's ceil_div rest
    let (t, _) = local_tile(
        layout!((_100, _8):(_1, _100)),
        (_32, _8),
        (Underscore, 0i32),
    );
    let want = vp::local_tile(
        &v("(_100,_8):(_1,_100)"),
        &parse_tiler("(_32,_8)").unwrap(),
        &parse_int_tuple("(_,0)").unwrap(),
        None,
    );
    assert_eq!(t.to_string(), want.unwrap().0.to_string());
    // an integer coordinate
    let (t, _) = local_tile(layout!((_8, _8):(_1, _8)), layout!((_4, _2):(_1, _4)), 1i32);
    let want = vp::local_tile(
        &v("(_8,_8):(_1,_8)"),
        &parse_tiler("(_4,_2):(_1,_4)").unwrap(),
        &parse_int_tuple("1").unwrap(),
        None,
    );
    assert_eq!(t.to_string(), want.unwrap().0.to_string());
}

#[test]
fn local_partition_every_form() {
    let tile = layout!((_32, _8):(_1, 128i32));
    let (part, off) = local_partition(tile, layout!((_8, _4):(_1, _8)), 9u32);
    assert_eq!(
        (part.to_string().as_str(), off),
        ("(_4,_2):(_8,512)", 1 + 128)
    );
    let (p, _) = local_partition(
        layout!(((_4, _8), _8):((_1, _4), _32)),
        layout!((_8, _2):(_1, _8)),
        0u32,
    );
    assert_eq!(p.to_string(), "(_4,_4):(_8,_64)");
    let (p, _) = local_partition_proj(
        layout!((8i32, 6i32):(_1, 8i32)),
        layout!((_4, _2):(_1, _4)),
        1u32,
        (_1, X),
    );
    assert_eq!(p.to_string(), "(2,6):(_4,8)");
}

#[test]
fn swizzled_composition() {
    use layout_types::value::swizzle::Swizzle;
    let smem = make_composed_layout(Swizzle::<3, 3, 3>, layout!((_64, _64):(_64, _1)));
    let tile = composition(smem, (_16, layout!(_32:_1)));
    assert_eq!(tile.to_string(), "Sw<3,3,3> o _0 o (_16,_32):(_64,_1)");
    for (i, j) in [(1i32, 8i32), (5, 31), (15, 0)] {
        assert_eq!(tile.crd2idx((i, j)), smem.crd2idx((i, j)));
    }
}

#[test]
fn tiled_copy_tv() {
    use layout_types::cute::tuple::IntTuple as _;
    let (tiler, tv) = make_tiled_copy_tv(
        layout!((_4, _4):(_1, _4)),
        layout!((_4, _4, _2):(_1, _4, _16)),
    );
    assert_eq!(
        tv.to_string(),
        "((_4,_4),(_4,_4,_2)):((_4,_64),(_1,_16,_256))"
    );
    assert_eq!(tiler.to_string_cute(), "(_16,_16,_2)");
    assert_eq!(core::mem::size_of_val(&tv), 0);
    let (tiler, tv) = make_tiled_copy_tv(layout!((_2, _4):(_4, _1)), layout!(_4:_1));
    let want =
        layout_types::value::copy::TvLayout::new(&v("(_2,_4):(_4,_1)"), &v("_4:_1")).unwrap();
    assert_eq!(tv.to_string(), want.layout_tv.to_string());
    assert_eq!(tiler.to_string_cute().to_string(), want.tiler.to_string());
}

#[test]
fn products_by_tiler() {
    use layout_types::value::product as vp;
    let tile = layout!((_2, _2):(_1, _2));
    let vt = v("(_2,_2):(_1,_2)");
    let t = parse_tiler("(_3,_4)").unwrap();
    assert_eq!(
        logical_product(tile, (_3, _4)).to_string(),
        vp::logical_product(&vt, &t).unwrap().to_string()
    );
    assert_eq!(
        zipped_product(tile, (_3, _4)).to_string(),
        vp::zipped_product(&vt, &t).unwrap().to_string()
    );
    assert_eq!(
        tiled_product(tile, (_3, _4)).to_string(),
        vp::tiled_product(&vt, &t).unwrap().to_string()
    );
    assert_eq!(
        flat_product(tile, (_3, _4)).to_string(),
        vp::flat_product(&vt, &t).unwrap().to_string()
    );
    assert_eq!(
        flat_product(tile, (_3, _4)).to_string(),
        "(_2,_2,_3,(_2,_2)):(_1,_2,_2,(_1,_4))"
    );
    let lt = (layout!(_3:_2), Underscore);
    let t2 = parse_tiler("[_3:_2,_]").unwrap();
    assert_eq!(
        logical_product(tile, lt).to_string(),
        vp::logical_product(&vt, &t2).unwrap().to_string()
    );
    assert_eq!(
        logical_product(tile, layout!((_3, _4):(_4, _1))).to_string(),
        "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))"
    );
}

#[test]
fn max_common_vector_and_layout() {
    // the typed results against the value algebra's and C++ CuTe's text (tests/data)
    macro_rules! case {
        ($a:expr, $b:expr, $ta:literal, $tb:literal, $want:literal) => {{
            let (va, vb) = (v($ta), v($tb));
            let (vec, lay) = (max_common_vector($a, $b), max_common_layout($a, $b));
            assert_eq!(
                vec.to_string(),
                algebra::max_common_vector(&va, &vb).unwrap().to_string()
            );
            assert_eq!(
                lay.to_string(),
                algebra::max_common_layout(&va, &vb).unwrap().to_string()
            );
            assert_eq!(lay.to_string(), $want, "{} / {}", $ta, $tb);
        }};
    }
    let a = layout!((_4, _8, _2):(_16, _2, _1));
    case!(
        a,
        a,
        "(_4,_8,_2):(_16,_2,_1)",
        "(_4,_8,_2):(_16,_2,_1)",
        "(_2,_8,_4):(_32,_4,_1)"
    );
    // one function, other modes: rank 2 against rank 3 with a size-1 mode
    let (a, b) = (
        layout!((_4, _16):(_16, _1)),
        layout!((_4, _16, _1):(_16, _1, _1)),
    );
    case!(
        a,
        b,
        "(_4,_16):(_16,_1)",
        "(_4,_16,_1):(_16,_1,_1)",
        "(_16,_4):(_4,_1)"
    );
    // a column-major tile of a wider matrix: the first column; its stride dynamic: the same
    let (s, g) = (layout!((_8, _4):(_1, _8)), layout!((_8, _4):(_1, _64)));
    case!(s, g, "(_8,_4):(_1,_8)", "(_8,_4):(_1,_64)", "_8:_1");
    let ld = 64i32;
    let d = layout!((_8, _4):(_1, ld));
    case!(s, d, "(_8,_4):(_1,_8)", "(_8,_4):(_1,64)", "_8:_1");
    // row-major against column-major, and a dynamic first extent: no common run
    let r = layout!((_8, _4):(_4, _1));
    case!(s, r, "(_8,_4):(_1,_8)", "(_8,_4):(_4,_1)", "_1:_0");
    let m = 8i64;
    let e = layout!((m, _4):(_1, m));
    case!(e, e, "(8,_4):(_1,8)", "(8,_4):(_1,8)", "_1:_0");
    // the vector is a type
    let w: _8 = max_common_vector(s, d);
    assert_eq!(w.value(), 8);
}
