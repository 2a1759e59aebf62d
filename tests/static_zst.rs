//! The positive side of `tests/compile_fail.rs`: the same static operations with valid inputs
//! compile to zero-sized values, and their values are usable in `const` items.

use core::mem::size_of_val;
use layout_types::check::{
    MAX_THREADS, SMEM_BYTES_MAX, SmemTile, ThreadLayout, VectorCopy, max_common_vector,
    smem_budget, smem_tile, thread_layout, tiled_copy,
};
use layout_types::prelude::*;

type Gmem = Layout<(_256, _32), (_1, _256)>;
type Thr = Layout<(_32, _8), (_1, _32)>;
type Blocked = Layout<((_4, _4), _8), ((_1, _4), _16)>;

// Values of static operations as constants.
const ZIPPED_SIZE: i64 = <ZippedDivide<Gmem, Thr> as StaticLayout>::SIZE;
const ZIPPED_RANK: usize = <ZippedDivide<Gmem, Thr> as StaticLayout>::RANK;
const DIVIDED_TILES: i64 = <ZippedDivide<Blocked, (_4, _8)> as StaticLayout>::SIZE;
const COMPOSED_COSIZE: i64 =
    <Composition<Layout<(_4, _8), (_1, _8)>, Layout<_2, _8>> as StaticLayout>::COSIZE;
const INDEX: i64 = Crd2Idx::<Layout<(_4, _8), (_1, _4)>, (_2, _7)>::INDEX;
const ROW_SIZE: i64 = <Slice<Layout<(_4, _8), (_8, _1)>, (_3, Underscore)> as StaticLayout>::SIZE;
const DICED_RANK: usize =
    <Dice<(_1, X, _1), Layout<(_128, _64, _32), (_1, _128, _8192)>> as StaticLayout>::RANK;
const LINV_SIZE: i64 = <LeftInverse<Layout<(_4, _2), (_2, _1)>> as StaticLayout>::SIZE;
const COMPL_SIZE: i64 = <Complement<Layout<(_4, _2), (_1, _8)>, _32> as StaticLayout>::SIZE;
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
    assert_eq!(ROW_SIZE, 8);
    assert_eq!(DICED_RANK, 2);
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
    assert_eq!(static_crd2idx(layout!((_4, _8):(_1, _4)), (_3, _7)), 31);
    let s = slice(layout!((_4, _8):(_8, _1)), (Underscore, _5));
    assert_eq!(
        (size_of_val(&s), s.to_string()),
        (0, "(_4):(_8)".to_string())
    );
    let d = dice((_1, X, _1), layout!((_128, _64, _32):(_1, _128, _8192)));
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
    let col: DynLayout = "(_8,_4):(_1,_8)".parse().unwrap();
    let row: DynLayout = "(_8,_4):(_4,_1)".parse().unwrap();
    assert_eq!(max_common_vector(&col, &col).unwrap(), 32);
    assert_eq!(max_common_vector(&col, &row).unwrap(), 1);
    let half: DynLayout = "(_4,_2,_4):(_1,_8,_16)".parse().unwrap();
    assert_eq!(max_common_vector(&col, &half).unwrap(), 4);
}

/// A static TiledMMA and its partitions are zero-sized types whose layouts are constants equal to
/// what the value algebra computes at run time.
#[test]
fn static_tiled_mma_is_zero_sized_and_agrees_with_the_values() {
    use layout_types::mma::{MmaAtom, Operand, TiledMma};
    use layout_types::static_mma::*;
    type Mma = TiledMMA<SM80_16x8x16_F32BF16BF16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    type Cta = Layout<(_128, _64), (_64, _1)>;
    const C: DynLayout = <PartitionC<Mma, Cta> as StaticLayout>::VALUE;
    assert_eq!(size_of::<Mma>(), 0);
    assert_eq!(size_of::<PartitionC<Mma, Cta>>(), 0);
    let atom = MmaAtom::parse("SM80_16x8x16_F32BF16BF16F32_TN").unwrap();
    let mma = TiledMma::new(
        &atom,
        &"(_2,_2,_1)".parse().unwrap(),
        &TiledMma::no_permutation(),
    )
    .unwrap();
    assert_eq!(Mma::LAYOUT_A_TV, mma.layout_a_tv().unwrap());
    assert_eq!(Mma::LAYOUT_B_TV, mma.layout_b_tv().unwrap());
    assert_eq!(Mma::LAYOUT_C_TV, mma.layout_c_tv().unwrap());
    let cta: DynLayout = "(_128,_64):(_64,_1)".parse().unwrap();
    for t in [0, 1, 37, 127] {
        let (l, off) = mma.get_slice(t).partition(Operand::C, &cta).unwrap();
        assert_eq!(l, C);
        assert_eq!(off.v, PartitionC::<Mma, Cta>::offset(t));
    }
    // the whole tiler `_` keeps a static layout as it is
    let a = layout!((_4, _6):(_2, _8));
    assert_eq!(logical_divide(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
}
