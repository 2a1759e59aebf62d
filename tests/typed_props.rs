//! Property tests of the typed layer (`layout_types::cute`) on random dynamic values: the typed
//! operations agree with the value algebra (the reference) and keep the invariants CuTe documents
//! (coordinates and indices are inverse maps, tiles and thread partitions partition the tensor,
//! a predicated TiledCopy copies exactly the matrix).

use cute_rs::layout_types::cute::prelude::*;
use cute_rs::layout_types::{value::int_tuple::IntTuple as Value, value::layout::DynLayout};
use proptest::prelude::*;
use std::collections::HashSet;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// crd2idx of a mixed layout equals the value algebra's, for tuple and 1-D coordinates.
    #[test]
    fn crd2idx_agrees_with_the_value_algebra(m in 1i64..40, k in 1i64..6, d1 in 1i64..100, d2 in 0i64..100,
                                             x in 0i64..1000, y in 0i64..1000) {
        let l = layout!((m, (_4, k)):(_1, (d1, d2)));
        let v: DynLayout = l.to_string().parse().unwrap();
        let (i, j) = (x % m, y % (4 * k));
        let typed = l.crd2idx((i, j));
        let reference = v.crd2idx(&format!("({i},{j})").parse::<Value>().unwrap());
        prop_assert_eq!(typed, reference.v);
        let n = (x * 7 + y) % (m * 4 * k);
        prop_assert_eq!(l.call(n), v.call(n));
    }

    /// idx2crd and the colexicographic index are inverse: every index of the shape is one coordinate.
    #[test]
    fn idx2crd_inverts_the_colex_index(m in 1i64..20, k in 1i64..5) {
        let l = layout!((m, (_2, k)):(_1, (m, 2 * m)));
        let size = m * 2 * k;
        for i in 0..size {
            let (a, (b, c)) = l.idx2crd(i);
            prop_assert_eq!(a + m * (b + 2 * c), i);
            prop_assert!(a < m && b < 2 && c < k);
        }
    }

    /// get_hier_coord inverts a compact layout: crd2idx(get_hier_coord(i)) == i.
    #[test]
    fn hier_coord_inverts_a_compact_layout(m in 1i64..16, n in 1i64..16) {
        let l = make_layout_left((m, (_4, n)));
        for i in 0..l.size() {
            prop_assert_eq!(l.crd2idx(l.get_hier_coord(i)), i);
        }
    }

    /// zipped_divide by a static tile re-indexes the layout: the same set of indices, each once,
    /// and (tile, rest) coordinates map to the element of the original layout they denote.
    #[test]
    fn zipped_divide_is_a_reindexing(m in 1i64..40, n in 1i64..20, ld in 40i64..60) {
        let l = layout!((m, n):(_1, ld));
        let z = zipped_divide(l, (_4, _8));
        let (mt, nt) = ((m + 3) / 4, (n + 7) / 8);
        let mut seen = HashSet::new();
        for ti in 0..4 { for tj in 0..8 { for ri in 0..mt { for rj in 0..nt {
            let (gi, gj) = (ri * 4 + ti, rj * 8 + tj);
            let idx = z.crd2idx(((ti, tj), (ri, rj)));
            prop_assert_eq!(idx, gi + gj * ld);
            if gi < m && gj < n {
                prop_assert!(seen.insert(idx));
            }
        }}}}
        prop_assert_eq!(seen.len() as i64, m * n);
    }

    /// local_tile covers the tensor with disjoint tiles, and the identity tensor tiled the same way
    /// marks exactly the elements inside the tensor.
    #[test]
    fn tiles_partition_the_tensor(m in 1i32..50, n in 1i32..30, ld in 50i32..64) {
        let a = make_tensor(make_gmem_ptr(std::ptr::null_mut::<f32>()), layout!((m, n):(_1, ld)));
        let c = make_identity_tensor((m, n));
        let mut seen = HashSet::new();
        for bm in 0..(m + 7) / 8 {
            for bn in 0..(n + 3) / 4 {
                let t = a.local_tile((_8, _4), (bm, bn));
                let tc = c.local_tile((_8, _4), (bm, bn));
                for i in 0..8i32 {
                    for j in 0..4i32 {
                        let off = t.ptr((i, j)) as isize / 4;
                        let crd = tc.at((i, j)).0;
                        let inside = elem_less(crd, (m, n));
                        let (gi, gj) = (bm * 8 + i, bn * 4 + j);
                        prop_assert_eq!(off, (gi + gj * ld) as isize);
                        prop_assert_eq!(inside, gi < m && gj < n);
                        if inside {
                            prop_assert!(seen.insert(off));
                        }
                    }
                }
            }
        }
        prop_assert_eq!(seen.len() as i32, m * n);
    }

    /// The thread partitions of a tile (local_partition) are disjoint and cover it.
    #[test]
    fn thread_partitions_cover_the_tile(ld in 32i32..100) {
        let tile = layout!((_32, _8):(_1, ld));
        let thr = layout!((_8, _4):(_4, _1));            // row-major thread ids
        let mut seen = HashSet::new();
        for t in 0..32i32 {
            let (p, off) = local_partition(tile, thr, t);
            for i in 0..8i32 {
                prop_assert!(seen.insert(off + p.crd2idx(i)));
            }
        }
        let all: HashSet<i32> = (0..32).flat_map(|i| (0..8).map(move |j| i + j * ld)).collect();
        prop_assert_eq!(seen, all);
    }

    /// A predicated TiledCopy (128-bit atoms) over every tile and thread copies exactly the matrix.
    #[test]
    fn predicated_tiled_copy_copies_the_matrix(mq in 1i32..12, n in 1i32..40) {
        let m = 4 * mq;                                   // vectors of 4 along m
        let (lda, ldb) = (m + 4, m + 8);
        let mut src: Vec<f32> = (0..lda * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; (ldb * n) as usize];
        let a = make_tensor(make_gmem_ptr(src.as_mut_ptr()), layout!((m, n):(_1, lda)));
        let b = make_tensor(make_gmem_ptr(dst.as_mut_ptr()), layout!((m, n):(_1, ldb)));
        let id = make_identity_tensor((m, n));
        let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_4, _8):(_1, _4)), layout!((_4, _1):(_1, _0)));
        for bm in 0..(m + 15) / 16 {
            for bn in 0..(n + 15) / 16 {
                let (ta, tb, ti) = (a.local_tile((_16, _16), (bm, bn)), b.local_tile((_16, _16), (bm, bn)), id.local_tile((_16, _16), (bm, bn)));
                for t in 0..32u32 {
                    let thr = tc.get_slice(t);
                    let pred = thr.partition_s(&ti).predicate((m, n));
                    copy_if(&tc, &pred, &thr.partition_s(&ta), &thr.partition_d(&tb));
                }
            }
        }
        for j in 0..n {
            for i in 0..ldb {
                let want = if i < m { src[(i + j * lda) as usize] } else { -1.0 };
                prop_assert_eq!(dst[(i + j * ldb) as usize], want);
            }
        }
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// A TiledCopy of 128-bit atoms into a swizzled shared-memory tile puts every element where
    /// the swizzled layout says (the swizzle keeps 4-element vectors whole: `Sw<2,2,3>`).
    #[test]
    fn tiled_copy_into_a_swizzled_tile(ld in 16i32..40, seed in 0u32..1000) {
        use cute_rs::layout_types::value::swizzle::Swizzle;
        let mut src: Vec<u32> = (0..ld as u32 * 8).map(|x| x * 7 + seed).collect();
        let mut smem = vec![0u32; 16 * 8];
        let a = make_tensor(make_gmem_ptr(src.as_mut_ptr()), layout!((_16, _8):(_1, ld)));
        let sl = make_composed_layout(Swizzle::<2, 2, 3>, make_layout_left((_16, _8)));
        let s = make_tensor(make_smem_ptr(smem.as_mut_ptr()), sl);
        let tc = make_tiled_copy(Copy128::<u32>::new(), layout!((_4, _8):(_1, _4)), layout!((_4, _1):(_1, _0)));
        for t in 0..32u32 {
            let thr = tc.get_slice(t);
            unsafe { copy(&tc, &thr.partition_s(&a), &thr.partition_d(&s)) };
        }
        for i in 0..16i32 {
            for j in 0..8i32 {
                prop_assert_eq!(smem[sl.crd2idx((i, j)) as usize], src[(i + j * ld) as usize]);
            }
        }
    }
}

/// The offsets `l(i) + c(j)` of a layout and its complement, in the order `(i, j)`.
fn joint_image(ls: i64, l: impl Fn(i64) -> i64, cs: i64, c: impl Fn(i64) -> i64) -> Vec<i64> {
    (0..cs)
        .flat_map(|j| (0..ls).map(move |i| (i, j)))
        .map(|(i, j)| l(i) + c(j))
        .collect()
}

proptest! {
    #![proptest_config(cfg())]

    /// complement(L, T) of a layout with dynamic shapes and static strides: the value algebra's
    /// text; `(L, complement)` is injective and the complement meets L only at 0; when the shapes
    /// tile the strides exactly, together they are a bijection onto [0, T).
    #[test]
    fn complement_and_layout_are_disjoint(a in 0u32..7, m in 1i64..65, n in 1i64..5, k in 1i64..4) {
        let l = layout!((_4, m, n):(_64, _1, _256));
        let v: DynLayout = l.to_string().parse().unwrap();
        let t = 256 * n * k + 3 * (a as i64);            // not always a multiple
        let c = complement(l, t);
        let reference = cute_rs::layout_types::value::algebra::complement(&v, &Value::dy(t)).unwrap();
        prop_assert_eq!(c.to_string(), reference.to_string());
        let (ls, cs) = (l.size().value(), c.size().value());
        let img = joint_image(ls, |i| l.call(i), cs, |j| c.call(j));
        let set: HashSet<i64> = img.iter().copied().collect();
        prop_assert_eq!(set.len(), img.len());           // injective
        let limg: HashSet<i64> = (0..ls).map(|i| l.call(i)).collect();
        for j in 1..cs {
            prop_assert!(!limg.contains(&c.call(j)));
        }
        // m | 64 and T a multiple of the span: (L, complement) is a bijection onto [0, T)
        let m2 = 1i64 << (a % 7);
        let l2 = layout!((_4, m2, n):(_64, _1, _256));
        let t2 = 256 * n * k;
        let c2 = complement(l2, t2);
        let img2 = joint_image(l2.size().value(), |i| l2.call(i), c2.size().value(), |j| c2.call(j));
        let mut sorted = img2.clone();
        sorted.sort();
        prop_assert_eq!(sorted, (0..t2).collect::<Vec<_>>());
    }

    /// A single mode may have a dynamic stride (CuTe's rank-1 case): the value algebra's result,
    /// and with `T = s · d · k` the complement fills the gaps exactly.
    #[test]
    fn complement_of_a_dynamic_stride_mode(s in 1i64..9, d in 1i64..9, k in 1i64..4) {
        let l = layout!(s:d);
        let t = s * d * k;
        let c = complement(l, t);
        let v: DynLayout = l.to_string().parse().unwrap();
        let reference = cute_rs::layout_types::value::algebra::complement(&v, &Value::dy(t)).unwrap();
        prop_assert_eq!(c.to_string(), reference.to_string());
        let mut img = joint_image(s, |i| l.call(i), c.size().value(), |j| c.call(j));
        img.sort();
        prop_assert_eq!(img, (0..t).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// logical_product(A, B): mode 0 is A itself, mode 1 is B's layout of the copies of A (the
    /// value algebra's text); with a compact A and B the product is a bijection onto
    /// [0, size(A) · size(B)), and blocked/raked_product are the same function re-moded.
    #[test]
    fn logical_product_keeps_a_and_tiles_it(m in 1i64..9, n in 1i64..5, k in 1i64..5) {
        let a = layout!((_2, m):(_1, _2));
        let b = layout!((n, k):(_1, n));
        let p = logical_product(a, b);
        prop_assert_eq!(p.get::<0>().to_string(), a.to_string());
        let (va, vb): (DynLayout, DynLayout) = (a.to_string().parse().unwrap(), b.to_string().parse().unwrap());
        let reference = cute_rs::layout_types::value::product::logical_product(&va, &cute_rs::layout_types::value::algebra::Tiler::layout(vb)).unwrap();
        prop_assert_eq!(p.to_string(), reference.to_string());
        let size = 2 * m * n * k;
        let mut img: Vec<i64> = (0..size).map(|i| p.call(i)).collect();
        img.sort();
        prop_assert_eq!(img, (0..size).collect::<Vec<_>>());
        let blk = blocked_product(a, b);
        let rak = raked_product(a, b);
        let vref = |f: fn(&DynLayout, &DynLayout) -> Result<DynLayout, cute_rs::layout_types::Error>| f(&va, &vb).unwrap().to_string();
        prop_assert_eq!(blk.to_string(), vref(cute_rs::layout_types::value::product::blocked_product));
        prop_assert_eq!(rak.to_string(), vref(cute_rs::layout_types::value::product::raked_product));
    }
}

/// `right_inverse(L)` (and `left_inverse(L)` where CuTe takes it) print what the value algebra
/// prints, and keep CuTe's documented invariants: `L(R(i)) == i` on `[0, size(R))`, `Li(L(i)) == i`
/// on `[0, size(L))`.
macro_rules! check_inverses {
    ($l:expr) => {{
        let l = $l;
        let v: DynLayout = l.to_string().parse().unwrap();
        let r = right_inverse(l);
        prop_assert_eq!(
            r.to_string(),
            cute_rs::layout_types::value::algebra::right_inverse(&v).to_string()
        );
        for i in 0..r.size().value() {
            prop_assert_eq!(l.call(r.call(i)).value(), i);
        }
    }};
    ($l:expr, left) => {{
        let l = $l;
        check_inverses!(l);
        let v: DynLayout = l.to_string().parse().unwrap();
        let li = left_inverse(l);
        prop_assert_eq!(
            li.to_string(),
            cute_rs::layout_types::value::algebra::left_inverse(&v)
                .unwrap()
                .to_string()
        );
        for i in 0..l.size().value() {
            prop_assert_eq!(li.call(l.call(i)).value(), i);
        }
    }};
}

/// The typed layer's four divides of `l` by the tiler `t`, printed (as [`value_divides`] orders them).
macro_rules! typed_divides {
    ($l:expr, $t:expr) => {
        [
            logical_divide($l, $t).to_string(),
            zipped_divide($l, $t).to_string(),
            tiled_divide($l, $t).to_string(),
            flat_divide($l, $t).to_string(),
        ]
    };
}

/// The value algebra's four divides of `l` by the tiler `t` (CuTe text), printed.
fn value_divides(l: &str, t: &str) -> [String; 4] {
    use cute_rs::layout_types::{text::parse::parse_tiler, value::divide};
    let (l, t): (DynLayout, _) = (l.parse().unwrap(), parse_tiler(t).unwrap());
    [
        divide::logical_divide(&l, &t).unwrap().to_string(),
        divide::zipped_divide(&l, &t).unwrap().to_string(),
        divide::tiled_divide(&l, &t).unwrap().to_string(),
        divide::flat_divide(&l, &t).unwrap().to_string(),
    ]
}

/// The sorted image of a layout given as its size and its function.
fn image(size: i64, f: impl Fn(i64) -> i64) -> Vec<i64> {
    let mut v: Vec<i64> = (0..size).map(f).collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(cfg())]

    /// Compact and permuted layouts with dynamic extents: both inverses.
    #[test]
    fn inverses_of_permuted_layouts(m in 1i64..9, n in 1i64..6) {
        check_inverses!(layout!((m, _4):(_4, _1)), left);
        check_inverses!(layout!((_2, n, _3):(_1, _6, _2)), left);
        check_inverses!(layout!(((_2, _4), m):((_8, _1), _16)), left);
        check_inverses!(layout!((_4, (m, _2)):(_2, (_16, _1))), left);
        check_inverses!(layout!((_2, _2, _2, m):(_4, _1, _2, _8)), left);
    }

    /// Layouts with gaps (injective, not surjective): the right inverse stops where the chain of
    /// strides breaks, the left inverse still inverts `L` on its domain.
    #[test]
    fn inverses_of_gappy_layouts(m in 1i64..9, n in 1i64..5) {
        check_inverses!(layout!((m, _2):(_2, _16)), left);
        check_inverses!(layout!((_4, n):(_1, _8)), left);
        check_inverses!(layout!((_3, (_2, m)):(_1, (_6, _36))), left);
        check_inverses!(layout!((_2, _4, n):(_32, _1, _64)), left);
    }

    /// Dynamic strides are not followed by the right inverse (CuTe), and a stride-0 mode is
    /// never reached.
    #[test]
    fn right_inverse_skips_dynamic_strides(m in 1i64..9, k in 1i64..5, ld in 1i64..40) {
        check_inverses!(layout!((m, k):(_1, ld)));
        check_inverses!(layout!((_4, k, _2):(_1, ld, _4)));
        check_inverses!(layout!((_4, k, m):(_2, _0, _1)));
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// complement with a tuple cotarget (CuTe's `shape(cotarget)`): the value algebra's text;
    /// `(L, complement)` is injective and the complement meets L only at 0.
    #[test]
    fn complement_with_a_tuple_cotarget(m in 1i64..9, a in 1i64..5, b in 1i64..5) {
        let l = layout!((_4, m):(_1, _8));
        let v: DynLayout = l.to_string().parse().unwrap();
        let check = |c: &dyn Fn(i64) -> i64, cs: i64, cot: &str| -> Result<(), TestCaseError> {
            let img = joint_image(l.size().value(), |i| l.call(i), cs, c);
            let set: HashSet<i64> = img.iter().copied().collect();
            prop_assert_eq!(set.len(), img.len(), "cotarget {}", cot);
            Ok(())
        };
        macro_rules! case {
            ($cot:expr) => {{
                let cot = $cot;
                let c = complement(l, cot);
                let tv: Value = cot.to_string_cute().to_string().parse().unwrap();
                let reference = cute_rs::layout_types::value::algebra::complement(&v, &tv).unwrap();
                prop_assert_eq!(c.to_string(), reference.to_string());
                check(&|j| c.call(j), c.size().value(), &tv.to_string())?;
            }};
        }
        case!((_8, a));
        case!((a, _16, b));
        case!((_2, (a, _4), b));
        case!((a * 8, _2));
    }

    /// The divides by a by-mode tiler of layouts (CuTe's `make_tile(l0, l1)`: every other row of 8,
    /// pairs of columns) over a matrix with dynamic extents and leading dimension: the value
    /// algebra's text for all four, and the logical divide re-indexes the matrix (the same image,
    /// each element once, when the tiles fit exactly).
    #[test]
    fn by_mode_layout_divides_agree_with_the_value_algebra(mq in 1i64..6, nq in 1i64..6, pad in 0i64..5) {
        let (m, n) = (8 * mq, 2 * nq);
        let ld = m + pad;
        let l = layout!((m, n):(_1, ld));
        let t = (layout!(_4:_2), layout!(_2:_1));
        let typed = typed_divides!(l, t);
        prop_assert_eq!(typed, value_divides(&l.to_string(), "[_4:_2,_2:_1]"));
        let d = logical_divide(l, t);
        prop_assert_eq!(d.size(), m * n);
        prop_assert_eq!(image(m * n, |i| d.call(i)), image(m * n, |i| l.call(i)));
    }

    /// One layout tiler for a whole 2-mode layout whose coalesced shape stays a tuple (a dynamic
    /// extent): the complement is taken up to a shape, `(_8, n)`; and an integer tile over a
    /// nested mode: both through composition and complement, as the value algebra computes them.
    #[test]
    fn layout_and_nested_divides_agree_with_the_value_algebra(n in 1i64..9, mh in 1i64..6, ld in 16i64..40) {
        let l = layout!((_8, n):(_1, _8));
        let t = layout!((_4, _2):(_1, _8));
        let typed = typed_divides!(l, t);
        prop_assert_eq!(typed, value_divides(&l.to_string(), &t.to_string()));
        let m = 2 * mh;
        let nested = layout!(((_4, m), n):((_1, _4), ld));
        let typed = [
            logical_divide(nested, (_8, _1)).to_string(),
            zipped_divide(nested, (_8, _1)).to_string(),
            tiled_divide(nested, ((_2, mh),)).to_string(),
            flat_divide(nested, ((_2, mh),)).to_string(),
        ];
        let want = value_divides(&nested.to_string(), "(_8,_1)");
        let want_nested = value_divides(&nested.to_string(), &format!("((_2,{mh}))"));
        prop_assert_eq!(&typed[..2], &want[..2]);
        prop_assert_eq!(&typed[2..], &want_nested[2..]);
    }

    /// complement up to a shape (the divides' cotarget `shape(coalesce(layout))`): the value
    /// algebra's complement with the same tuple cotarget, for dynamic, mixed and trivial cases.
    #[test]
    fn complement_up_to_a_shape_agrees_with_the_value_algebra(m in 1i64..70, n in 1i64..9) {
        use cute_rs::layout_types::cute::complement::ComplementTo;
        let value = |l: &str, cot: &str| {
            let l: DynLayout = l.parse().unwrap();
            cute_rs::layout_types::value::algebra::complement(&l, &cot.parse::<Value>().unwrap()).unwrap().to_string()
        };
        let (l, z) = (layout!((_4, _2):(_1, _16)), layout!(_4:_0));
        for (typed, l, cot) in [
            (l.complement_to((m, n)).to_string(), l.to_string(), format!("({m},{n})")),
            (l.complement_to((_64, n)).to_string(), l.to_string(), format!("(_64,{n})")),
            (l.complement_to((m, _8, n)).to_string(), l.to_string(), format!("({m},_8,{n})")),
            (z.complement_to((m, _8)).to_string(), z.to_string(), format!("({m},_8)")),
        ] {
            prop_assert_eq!(typed, value(&l, &cot));
        }
    }

    /// group<B, E> of a layout with dynamic leaves: the value algebra's modes.
    #[test]
    fn group_agrees_with_the_value_algebra(a in 1i64..9, b in 1i64..9, d in 0i64..50) {
        let l = layout!((a, _4, (b, _2)):(_1, d, (_8, d)));
        let v: DynLayout = l.to_string().parse().unwrap();
        prop_assert_eq!(group::<0, 2, _>(l).to_string(), v.group(0, 2).to_string());
        prop_assert_eq!(l.group::<1, -1>().to_string(), v.group(1, 3).to_string());
        prop_assert_eq!(group::<2, 2, _>(l).to_string(), v.to_string());
        prop_assert_eq!(group::<1, 3, _>(l.shape).to_string_cute().to_string(), v.shape.group(1, 3).to_string());
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// The linear path (static shapes, run-time strides, a static tiler: the result is built from
    /// a compile-time recipe, `layout_types::cute::static_result`): the four divides by a tuple
    /// and by a layout tiler, and compositions, agree with the value algebra for any strides —
    /// negative, zero, repeated, several per layout, `i32`, `i64` and `u32` leaves.
    #[test]
    fn linear_divides_and_compositions_agree_with_the_value_algebra(
        d0 in -50i64..50, d1 in 0i64..5000, d2 in 1i32..300, d3 in 0u32..70
    ) {
        let l = layout!(((_4, _2), _16, _3):((d0, _1), d1, _64));
        let typed = typed_divides!(l, (_4, _8));
        prop_assert_eq!(typed, value_divides(&l.to_string(), "(_4,_8)"));
        let t = layout!((_4, _2):(_2, _1));
        let typed = typed_divides!(l, t);
        prop_assert_eq!(typed, value_divides(&l.to_string(), &t.to_string()));

        let m = layout!((_32, (_4, _2)):(d2, (_1, d2)));
        let typed = typed_divides!(m, (_8, (_2, _2)));
        prop_assert_eq!(typed, value_divides(&m.to_string(), "(_8,(_2,_2))"));

        let value = |a: &str, b: &str| {
            let (a, b): (DynLayout, DynLayout) = (a.parse().unwrap(), b.parse().unwrap());
            cute_rs::layout_types::value::algebra::composition(&a, &b).unwrap().to_string()
        };
        let b = layout!((_8, _4):(_2, _16));
        prop_assert_eq!(composition(l, b).to_string(), value(&l.to_string(), &b.to_string()));
        let u = layout!((_8, _8):(_1, d3));
        let b = layout!((_4, (_2, _4)):(_2, (_1, _16)));
        let c = composition(u, b);
        prop_assert_eq!(c.to_string(), value(&u.to_string(), &b.to_string()));
        // the function, too: every index maps as `u` after `b`
        for i in 0..32u32 {
            prop_assert_eq!(c.call(i), u.call(b.call(i)));
        }
    }
}
