//! The positive side of `tests/compile_fail.rs`: the same static operations with valid inputs
//! compile to zero-sized values, and their values are usable in `const` items.

use core::mem::size_of_val;
use layout_types::check::{
    MAX_THREADS, SMEM_BYTES_MAX, SmemTile, ThreadLayout, TiledCopyTv, VectorCopy, smem_budget,
    smem_tile, thread_layout, tiled_copy,
};
use layout_types::cute::complement::Complement;
use layout_types::cute::composition::Composition;
use layout_types::cute::inverse::LeftInverse;
use layout_types::cute::layout::Crd2Idx;
use layout_types::prelude::*;
use layout_types::value::layout::DynLayout;

type Thr = Layout<(_32, _8), (_1, _32)>;

// Values of static operations as constants: the typed layer's result types, read through
// `StaticLayoutValue` (size, cosize, rank, the layout) and `StaticInt::VALUE` (an index).
const ZIPPED_SIZE: i64 = <ZippedDivide<(_256, _32), (_1, _256), Thr> as StaticLayoutValue>::SIZE;
const ZIPPED_RANK: usize = <ZippedDivide<(_256, _32), (_1, _256), Thr> as StaticLayoutValue>::RANK;
const DIVIDED_TILES: i64 =
    <ZippedDivide<((_4, _4), _8), ((_1, _4), _16), (_4, _8)> as StaticLayoutValue>::SIZE;
const COMPOSED_COSIZE: i64 = <Composition<(_4, _8), (_1, _8), _2, _8> as StaticLayoutValue>::COSIZE;
const INDEX: i64 = <<(_2, _7) as Crd2Idx<(_4, _8), (_1, _4)>>::Output as StaticInt>::VALUE;
const LINV_SIZE: i64 = <LeftInverse<(_4, _2), (_2, _1)> as StaticLayoutValue>::SIZE;
const COMPL_SIZE: i64 = <Complement<(_4, _2), (_1, _8), _32> as StaticLayoutValue>::SIZE;
const SMEM_A: i64 = SmemTile::<Layout<(_128, _64), (_1, _128)>, u16>::BYTES;
const SMEM_B: i64 = SmemTile::<Layout<(_64, _128), (_1, _64)>, u16>::BYTES;
const SMEM_TOTAL: i64 = smem_budget(3 * (SMEM_A + SMEM_B)); // 3 pipeline stages
const THREADS: i64 = ThreadLayout::<Thr>::THREADS;
type Tile = Layout<(_128, _16), (_1, _128)>;
type Tv = TiledCopyTv<Layout<(_16, _16), (_1, _16)>, Layout<(_8, _1), (_1, _0)>>;
const VEC: i64 = VectorCopy::<Tile, Tile, Tv, u16, 128>::VECTOR_ELEMS;
const MCV: i64 = VectorCopy::<Tile, Tile, Tv, u16, 128>::MAX_COMMON_VECTOR;

#[test]
fn constants() {
    assert_eq!(ZIPPED_SIZE, 8192);
    assert_eq!(ZIPPED_RANK, 2);
    assert_eq!(DIVIDED_TILES, 128);
    assert_eq!(COMPOSED_COSIZE, 17);
    assert_eq!(INDEX, 30);
    assert_eq!(LINV_SIZE, 8);
    assert_eq!(COMPL_SIZE, 4);
    assert_eq!(SMEM_A, 16384);
    assert_eq!(SMEM_TOTAL, 98304);
    const { assert!(SMEM_TOTAL <= SMEM_BYTES_MAX) };
    assert_eq!(THREADS, 256);
    const { assert!(THREADS <= MAX_THREADS) };
    assert_eq!(VEC, 8);
    assert_eq!(MCV, 8);
}

#[test]
fn zero_sized() {
    let a = layout!((_3, _8):(_1, _3));
    assert_eq!(size_of_val(&a), 0);
    let c = composition(layout!((_4, _8):(_1, _4)), layout!(_4:_1));
    assert_eq!((size_of_val(&c), c.to_string()), (0, "_4:_1".to_string()));
    let c = composition(layout!((_4, _8):(_1, _8)), layout!(_2:_8));
    assert_eq!((size_of_val(&c), c.to_string()), (0, "_2:_16".to_string()));
    let z = zipped_divide(layout!(((_4, _4), _8):((_1, _4), _16)), (_4, _8));
    assert_eq!(size_of_val(&z), 0);
    assert_eq!(z.to_string(), "((_4,_8),(_4,_1)):((_1,_16),(_4,_0))");
    let l = logical_divide(layout!((_256, _32):(_1, _256)), (_32, _8));
    assert_eq!(size_of_val(&l), 0);
    let i = layout!((_4, _8):(_1, _4)).crd2idx((_3, _7));
    assert_eq!((size_of_val(&i), i.to_string()), (0, "_31".to_string()));
    let s = layout!((_4, _8):(_8, _1)).slice((Underscore, _5));
    assert_eq!(
        (size_of_val(&s), s.to_string()),
        (0, "(_4):(_8)".to_string())
    );
    let d = layout!((_128, _64, _32):(_1, _128, _8192)).dice((_1, X, _1));
    assert_eq!(
        (size_of_val(&d), d.to_string()),
        (0, "(_128,_32):(_1,_8192)".to_string())
    );
    let li = left_inverse(layout!((_4, _2):(_2, _1)));
    assert_eq!(
        (size_of_val(&li), li.to_string()),
        (0, "(_2,_4):(_4,_1)".to_string())
    );
    let co = complement(layout!((_4, _2):(_1, _8)), _32);
    assert_eq!(
        (size_of_val(&co), co.to_string()),
        (0, "(_2,_2):(_4,_16)".to_string())
    );
    let t = thread_layout(layout!((_32, _32):(_1, _32)));
    assert_eq!(size_of_val(&t), 0);
    assert_eq!(smem_tile::<f32, _>(layout!((_128, _64):(_1, _128))), 32768);
    let copy = tiled_copy::<u16, 128, _, _, _, _>(
        layout!((_64, _32):(_1, _64)),
        layout!((_64, _32):(_1, _64)),
        layout!((_8, _32):(_1, _8)),
        layout!((_8, _1):(_1, _0)),
    );
    assert_eq!(size_of_val(&copy), 0);
    // 64-bit copies of a padded tile (column stride 68: a multiple of 4 elements) are fine
    let copy = tiled_copy::<u16, 64, _, _, _, _>(
        layout!((_64, _8):(_1, _64)),
        layout!((_64, _8):(_1, _68)),
        layout!((_16, _8):(_1, _16)),
        layout!((_4, _1):(_1, _0)),
    );
    assert_eq!(size_of_val(&copy), 0);
}

#[test]
fn max_common_vector_values() {
    use layout_types::value::algebra;
    let col: DynLayout = "(_8,_4):(_1,_8)".parse().unwrap();
    let row: DynLayout = "(_8,_4):(_4,_1)".parse().unwrap();
    assert_eq!(algebra::max_common_vector(&col, &col).unwrap().v, 32);
    assert_eq!(algebra::max_common_vector(&col, &row).unwrap().v, 1);
    let half: DynLayout = "(_4,_2,_4):(_1,_8,_16)".parse().unwrap();
    assert_eq!(algebra::max_common_vector(&col, &half).unwrap().v, 4);
    // the typed vector: a zero-sized static integer
    let v = max_common_vector(
        layout!((_8, _4):(_1, _8)),
        layout!((_4, _2, _4):(_1, _8, _16)),
    );
    assert_eq!(size_of_val(&v), 0);
    assert_eq!(v.value(), 4);
}

/// The whole tiler `_` keeps a static layout as it is.
#[test]
fn divide_by_underscore() {
    let a = layout!((_4, _6):(_2, _8));
    assert_eq!(logical_divide(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
}
