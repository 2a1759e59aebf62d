//! Partitioned fp32 GEMM on CUDA cores (FFMA), CuTe-style: `C = alpha·A·B + beta·C`.
//!
//! Conventions (CuTe's / BLAS's, column-major C): `A` is `(M,K)`, `B` is `(N,K)`, `C` is
//! `(M,N):(_1,ldc)`. An operand is *MN-major* (`(X,K):(_1,ld)`, BLAS "N" for A and "T" for B)
//! or *K-major* (`(X,K):(ld,_1)`, BLAS "T" for A and "N" for B); the four majorities are ONE
//! generic kernel ([`sgemm`]) instantiated with the operands' stride types ([`MnMajor`] /
//! [`KMajor`]): the stride with the static `_1` decides which way the 128-bit vectors run.
//!
//! Partitioning: the static configuration is a type ([`Tile128`], [`Tile64`], defined by
//! [`gemm_tiles!`] in [`tiles`]) whose partitions are written on the typed layer
//! (`layout_types::cute`: `make_tiled_copy`, `partition_S`, `zipped_divide`, `local_partition`
//! with `Step` projections, typed layouts of static extents); only the thread index is dynamic,
//! and the host tests (`tests/gemm_partitions.rs`) check every thread's partitions against the
//! former constant tables.
//! - CTA: `local_tile` of the typed tensors `A = (M,K):(_1,lda)` or `(M,K):(lda,_1)`,
//!   `B = (N,K):...`, `C = (M,N):(_1,ldc)` by the tiler `(BM,BN,BK)` at `(bx, by, _)` with
//!   `Step<_1,X,_1>` / `Step<X,_1,_1>` / `Step<_1,_1,X>` ([`CopyTiles::g_a`], [`CopyTiles::g_b`],
//!   [`GemmTiles::g_c`]); an operand's step between k-tiles and the split-K shift are
//!   `M::offset(ld, x, k)`, the same typed stride layout.
//! - gmem → registers → smem copy, in CuTe's tutorial names: `copy_a = make_tiled_copy(L,
//!   ThrA, Val)` (128-bit vectors along the contiguous mode: thread layout
//!   `(BX/4,NT/(BX/4)):(_1,BX/4)` with values `(_4,_1)` for MN-major, `(NT/(BK/4),BK/4):(BK/4,_1)`
//!   with `(_1,_4)` for K-major, so a warp reads contiguous bytes; the atom is the entry's load
//!   policy [`LdgNc`] / [`LdgRelaxed`]) and `store_a` (same layouts, atom [`StsV4`] or the
//!   transposing [`Sts32`], [`SmemStore`]); `tAgA` = its `partition_S` of gA's k-tiles
//!   ([`KTiles`]), `tAcA` of the tile's identity tensor, `tArA =
//!   make_fragment_like(tAgA)`, `tAsA` = `store_a`'s `partition_D` of the stage's sA (at a
//!   32-bit shared address, [`SmemAddr`]); each k-tile `copy(copy_a, tAgA, tArA)` (interior) or
//!   `copy_if(copy_a, tApA, tAgA, tArA)` (edges, [`EdgePred`]), later `copy(store_a,
//!   retile_S(tArA), tAsA(stage))`.
//! - smem: A and B are stored *k-major* (`(BX,BK):(_1,BX+4)`, A transposed when it is
//!   K-major in gmem); the +4 padding keeps the transposing scalar stores conflict-free and
//!   rows 16-byte aligned.
//! - compute: the warp-tiled thread layout `((8,TX/8),(4,TY/4)):((_1,_32),(_8,32·TX/8))`
//!   (a warp is 8×4 threads) partitions `zipped_divide(sA, (_4,_1))` with `Step<_1,X>`
//!   (`tCsA`, [`GemmTiles::t_cs_a`]: a typed `(V, THR_M)` tensor of the k-step's 4-vectors),
//!   `zipped_divide(sB, (_4,_1))` with `Step<X,_1>` (`tCsB`) and `zipped_divide(C, (_4,_4))`
//!   with no projection (thrC): each thread owns `(BM/TX) × (BN/TY)` accumulators (8×8,
//!   `tCrC`, row-major: [`GemmTiles::Acc`]) as 4-wide strips `4·TX` apart. Each k-step is
//!   `copy_with(LdsV4, tCsA(_,_,k), tCrA)` (conflict-free `ld.shared.v4`, one wavefront per
//!   warp) into `tCrA = make_fragment_like(tCsA(_,_,0))`, likewise B, and `gemm(tCrA, tCrB,
//!   tCrC)` ([`FmaOrder::gemm`]): 64 FFMAs in the order of the entry's [`FmaOrder`] (it
//!   decides ptxas's register allocation and so the register-bank conflicts: up to 7 % of
//!   cuBLAS on the H100).
//! - pipeline: two smem stages; tile `k+1` is loaded into registers (`ld.global.v4`) while
//!   tile `k` is computed, then stored to the other stage; one barrier per k-tile. The
//!   register fragments are double-buffered: k-step `kk+1`'s are read while `kk`'s FFMAs
//!   run, and the next tile's first fragments are read right after the barrier, before the
//!   last k-step's FFMAs.
//! - split-K: `gridDim.z` k-slices of `kc` elements; slices add `alpha·acc` into `beta·C`
//!   (prepared by [`scale_c`], entry `sgemm_scale_c`) with `red.global.add.f32`.
//! - edges: every global access is predicated on `M`, `N`, `K` (out-of-range A/B elements
//!   read as 0); vectors are used when in range and 16-byte aligned (`ld % 4 == 0` and an
//!   aligned base), scalars otherwise. `beta == 0` never reads C. Interior fast path: a
//!   CTA whose tile lies inside `(M, N)`, whose k-range is whole k-tiles and whose operands
//!   are vector-aligned runs a second copy of the main loop with unpredicated vector loads
//!   (fewer instructions per k-tile: 570 in all, 512 of them FFMA, for `nn`;
//!   `tools/sass_mix.py` counts them).
#![no_std]
#![feature(core_intrinsics, stmt_expr_attributes)]
#![allow(internal_features)]
// Host clippy (the emulator build) flags `x % n == 0` in the bodies; left as written.
#![allow(clippy::manual_is_multiple_of)]

pub mod atoms;
pub mod tiles;

use layout_types::cute::algorithm::AtomTensor;
use layout_types::cute::atom::copy::{
    CopyAtom, CopyTables, FragmentPartition, PartitionFragment, PartitionOf, PartitionSize,
    PtrPartition, ThrPartition, TileLayout,
};
use layout_types::cute::layout::CompactLeft;
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::{Advance, FragmentLayout, Reg, Space};
use layout_types::cute::typenum::Unsigned;

use device::atomic::red_add_f32;
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{
    block_idx_x, block_idx_y, block_idx_z, grid_dim_y, grid_dim_z, sync_threads, thread_idx_x,
};
use device::unroll;
use device::vec::{Float4, ld_global_v4_f32, st_global_v4_f32};

pub use atoms::{
    EdgePred, Ldg, LdgNc, LdgRelaxed, LdsV4, SmemAddr, Sts32, StsV4, edge_pred, make_smem_addr,
};
pub use tiles::{CopyTiles, GemmTiles, KMajor, Major, MnMajor, Part, Tile64, Tile128};

/// The register → shared store of an operand of this majority into the k-major smem tile: one
/// `st.shared.v4` per vector ([`StsV4`], MN-major) or four transposing `st.shared.f32`
/// ([`Sts32`], K-major).
pub trait SmemStore: Major {
    /// The store atom.
    type Atom: CopyAtom<T = f32>;
}
impl SmemStore for MnMajor {
    type Atom = StsV4;
}
impl SmemStore for KMajor {
    type Atom = Sts32;
}

/// Most 128-bit copy vectors per thread and operand.
const MAX_COPY: usize = 4;

/// A thread's partition of the k-tiles of an operand, `(CPY, k)`, walked one k-tile at a time
/// (CuTe's `tAgA(_,_,_,k_tile)` with `++k_tile`): the copy partition of k-tile 0 (`part`, whose
/// type orders the values) and, per atom, the pointer to its first element in the current
/// k-tile, so that moving to the next k-tile moves each atom's pointer by the stride of gA's k
/// mode (one 64-bit add per vector, no address recomputed).
#[derive(Clone, Copy)]
pub struct KTiles<P> {
    /// The partition of k-tile 0.
    pub part: P,
    /// Per atom: its first element in the current k-tile.
    ptr: [*mut f32; MAX_COPY],
    /// The stride of the k mode (elements).
    stride: i64,
}
impl<L, A, Thr, Val> KTiles<ThrPartition<Gmem<f32>, L, A, Thr, Val>>
where
    L: TileLayout,
    A: CopyAtom<T = f32>,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    ThrPartition<Gmem<f32>, L, A, Thr, Val>: PtrPartition<f32>,
{
    /// Values per atom.
    const ATOM: usize = <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::TAB.atom;
    /// Atoms per thread.
    const ATOMS: usize = {
        let n = <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::NV / Self::ATOM;
        assert!(n <= MAX_COPY, "too many copy atoms per thread");
        n
    };
    /// The k-tiles from `part`, the partition of k-tile 0, and the k-mode stride.
    #[inline(always)]
    pub fn new(part: ThrPartition<Gmem<f32>, L, A, Thr, Val>, stride: i64) -> Self {
        let mut ptr = [core::ptr::null_mut::<f32>(); MAX_COPY];
        unroll!(
            Self::ATOMS,
            #[inline(always)]
            |a| ptr[a] = part.ptr(a * Self::ATOM) as *mut f32,
        );
        KTiles { part, ptr, stride }
    }
    /// Moves to the next k-tile.
    #[inline(always)]
    pub fn next(&mut self) {
        unroll!(
            Self::ATOMS,
            #[inline(always)]
            |a| self.ptr[a] = self.ptr[a].wrapping_offset(self.stride as isize),
        );
    }
}
impl<L, A, Thr, Val> PtrPartition<f32> for KTiles<ThrPartition<Gmem<f32>, L, A, Thr, Val>>
where
    ThrPartition<Gmem<f32>, L, A, Thr, Val>: PtrPartition<f32>,
{
    const NV: usize = <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::NV;
    const SPACE: Space = Space::Gmem;
    const UNIT: [bool; 2] = <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::UNIT;
    const SWIZZLE_BASE: u32 =
        <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::SWIZZLE_BASE;
    const TAB: CopyTables = <ThrPartition<Gmem<f32>, L, A, Thr, Val> as PtrPartition<f32>>::TAB;
    /// Value `v` is element `j` of atom `a`: `(j, a) = idx2crd(v, (atom, atoms))`.
    #[inline(always)]
    fn ptr(&self, v: usize) -> *mut u8 {
        let atoms = make_layout_left((Self::TAB.atom, Self::TAB.nv / Self::TAB.atom));
        let (j, a): (usize, usize) = atoms.get_hier_coord(v);
        self.ptr[a].wrapping_add(j) as *mut u8
    }
}
impl<E, L, A, Thr, Val> PartitionOf<A, Thr, Val> for KTiles<ThrPartition<E, L, A, Thr, Val>> {}

/// CuTe's form of a thread's partition (`partition_S` / `partition_D` return the engine at the
/// thread's first value and the layout over its values): the thread's coordinate folded into
/// the engine, so that it is computed once, where the partition is made.
#[inline(always)]
pub fn fold_thread<E, L, A, Thr, Val>(
    mut part: ThrPartition<E, L, A, Thr, Val>,
) -> ThrPartition<E, L, A, Thr, Val>
where
    E: Advance<L::Off, Output = E> + Copy,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
{
    part.engine = part.engine.advance(part.layout.eval((part.mt, part.nt)));
    (part.mt, part.nt) = (0, 0);
    part
}

/// A thread's partition of one k-tile of `gA` (`IS_A`) or `gB` by a TiledCopy with atom `A`
/// and the operand's copy layouts (`tAgA`, or the same values retiled for another atom).
pub type GmemPart<T, M, A, const IS_A: bool> = ThrPartition<
    Gmem<f32>,
    <T as OperandTile<M, IS_A>>::G,
    A,
    <T as OperandTile<M, IS_A>>::Thr,
    <T as CopyTiles<M>>::Val,
>;
/// `make_fragment_like(tCsA(_,_,0))`'s layout: a register fragment of A, `(V, THR_M)` compact.
pub type FragLayoutA<T> =
    Layout<<T as GemmTiles>::CsAS, <<T as GemmTiles>::CsAS as CompactLeft<_1>>::Stride>;
/// `make_fragment_like(tCsB(_,_,0))`'s layout, `(V, THR_N)` compact.
pub type FragLayoutB<T> =
    Layout<<T as GemmTiles>::CsBS, <<T as GemmTiles>::CsBS as CompactLeft<_1>>::Stride>;
/// `tCrA`: a register fragment of A.
pub type FragA<T> = Fragment<f32, FragLayoutA<T>>;
/// `tCrB`: a register fragment of B.
pub type FragB<T> = Fragment<f32, FragLayoutB<T>>;

/// The gmem tile and thread layout of operand A (`IS_A`) or B (see [`GmemPart`]).
pub trait OperandTile<M: Major, const IS_A: bool>: CopyTiles<M> {
    /// `GA` or `GB`.
    type G;
    /// `ThrA` or `ThrB`.
    type Thr;
}
impl<M: Major, T: CopyTiles<M>> OperandTile<M, true> for T {
    type G = <T as CopyTiles<M>>::GA;
    type Thr = <T as CopyTiles<M>>::ThrA;
}
impl<M: Major, T: CopyTiles<M>> OperandTile<M, false> for T {
    type G = <T as CopyTiles<M>>::GB;
    type Thr = <T as CopyTiles<M>>::ThrB;
}

/// `frag.partition()`: a register fragment as a copy source or destination.
#[inline(always)]
fn make_partition<P: PartitionSize>(
    frag: &mut PartitionFragment<f32, P>,
) -> FragmentPartition<f32, P> {
    frag.partition()
}
/// `clear(frag)`.
#[inline(always)]
fn clear_frag<P: PartitionSize>(frag: &mut PartitionFragment<f32, P>) {
    frag.data.fill(0.0);
}

/// Compile-time check: the stores of an operand's copy into the k-major smem tile
/// `(BX,BK):(_1,BX+4)` are free of bank conflicts (the copy's thread layout over the tile's
/// elements, 4-vectors along X (one `st.shared.v4`) or along K (four transposing scalar
/// stores)).
struct StoreBanks<M, T, const IS_A: bool>(core::marker::PhantomData<(M, T)>);
impl<M: Major, T: GemmTiles, const IS_A: bool> StoreBanks<M, T, IS_A> {
    const CHECK: () = {
        use layout_types::check::bank::check_conflict_free;
        use layout_types::value::copy::{CopyOp, DynCopyAtom, make_tiled_copy};
        use layout_types::value::layout::ok;
        use layout_types::value::swizzle::DynSwizzle;
        use layout_types::{value::int_tuple::IntTuple, value::layout::DynLayout};
        const fn t(a: i64, b: i64) -> IntTuple {
            IntTuple::pair(&IntTuple::st(a), &IntTuple::st(b))
        }
        const fn layout2(s0: i64, s1: i64, d0: i64, d1: i64) -> DynLayout {
            ok(DynLayout::new(t(s0, s1), t(d0, d1)))
        }
        let bx = if IS_A { T::BM as i64 } else { T::BN as i64 };
        let (bk, nt) = (T::BK as i64, T::NT as i64);
        let (thr, val, vec) = if M::K_MAJOR {
            (
                layout2(nt / (bk / 4), bk / 4, bk / 4, 1),
                layout2(1, 4, 0, 1),
                1,
            )
        } else {
            (
                layout2(bx / 4, nt / (bx / 4), 1, bx / 4),
                layout2(4, 1, 1, 0),
                4,
            )
        };
        let tc = match make_tiled_copy(DynCopyAtom::new(CopyOp::Element, 4), &thr, &val) {
            Ok(tc) => tc,
            Err(e) => e.panic(),
        };
        let smem = layout2(bx, bk, 1, bx + 4);
        if let Err(e) = check_conflict_free(&tc, &smem, DynSwizzle::identity(), 4, vec) {
            e.panic()
        }
    };
}

/// The order of one k-step's outer product: the `fm × fn` FFMAs `acc(im, jn) += a(im)·b(jn)` of
/// a thread, row by row: the `o`-th row visited is `im = row(o)`.
///
/// Every order walks a row of accumulators with `a(im)` fixed and `b(jn)` serpentine (forward
/// on the first row of each pair, backward on the second), so consecutive FFMAs share one
/// operand, which the SASS takes from the operand reuse cache. The orders differ in which row
/// comes next, and that changes the registers ptxas gives the 64 accumulators, hence how many
/// FFMAs read two registers of one bank (held back at dispatch: ncu's `dispatch_stall`, 0.73 per
/// issued instruction in the bounded NN entry before, 0.10 in cuBLAS). On the H100 the order
/// alone moved a 4096³ entry by up to 7 % of cuBLAS (doc/performance.md, run 2026-11-23-2902ab4-fma-order-experiments);
/// `tools/sass_mix.py`'s `bank` column counts the conflicts statically. The bounded entries take
/// [`Reversed`]`<`[`RowsQuadEvenOdd`]`>` with the row-major accumulators of
/// [`GemmTiles::Acc`] (doc/performance.md, run 2026-11-23-7583b67-tutorial-gemm).
pub trait FmaOrder {
    /// The row `im` (of `fm`) that the outer product visits `o`-th.
    fn row(o: usize, fm: usize) -> usize;
    /// `gemm(tCrA, tCrB, tCrC)` of one k-step (CuTe's gemm of a `(V,M)` and a `(V,N)`
    /// fragment into `(M,N)` accumulators, whose order CuTe fixes as a serpentine):
    /// `c(im, jn) += a(im)·b(jn)` for every element `im` of `a` and `jn` of `b`, one FFMA each,
    /// the rows `im` in this order, in pairs: `b` forward on the first row of a pair, backward
    /// on the second. `c` is the thread's accumulators, indexed by [`GemmTiles::acc_idx`].
    #[inline(always)]
    fn gemm<T: GemmTiles, LA: FragmentLayout, LB: FragmentLayout>(
        a: &Fragment<f32, LA>,
        b: &Fragment<f32, LB>,
        c: &mut Fragment<f32, T::Acc>,
    ) {
        let (fm, fnn) = const { (LA::Len::USIZE, LB::Len::USIZE) };
        let mut ffma = #[inline(always)]
        |im: usize, jn: usize| {
            let i = T::acc_idx(im, jn);
            c[i] = a[im].mul_add_fast(b[jn], c[i]);
        };
        unroll!(
            const { LA::Len::USIZE / 2 },
            #[inline(always)]
            |p| {
                let (r0, r1) = (Self::row(2 * p, fm), Self::row(2 * p + 1, fm));
                unroll!(
                    const { LB::Len::USIZE },
                    #[inline(always)]
                    |j| ffma(r0, j),
                );
                unroll!(
                    const { LB::Len::USIZE },
                    #[inline(always)]
                    |j| ffma(r1, fnn - 1 - j),
                );
            },
        );
    }
}
/// Rows in order: `im = 0, 1, 2, …` (the layout `fm:1`).
#[derive(Clone, Copy, Default)]
pub struct RowsInOrder;
/// Even rows first, then odd rows: `im = 0, 2, 4, …, 1, 3, 5, …` (the layout
/// `(fm/2, 2):(2, 1)`).
#[derive(Clone, Copy, Default)]
pub struct RowsEvenOdd;
/// The thread's two strips of A (rows `0..fm/2` and `fm/2..fm`) alternately: `im = 0, 4, 1, 5,
/// 2, 6, 3, 7` for `fm = 8` (the layout `(2, fm/2):(fm/2, 1)`).
#[derive(Clone, Copy, Default)]
pub struct RowsStrips;
/// Even rows then odd rows within each quad of rows: `im = 0, 2, 1, 3, 4, 6, 5, 7` for `fm = 8`
/// (the layout `(2, 2, fm/4):(2, 1, 4)`).
#[derive(Clone, Copy, Default)]
pub struct RowsQuadEvenOdd;
impl FmaOrder for RowsQuadEvenOdd {
    #[inline(always)]
    fn row(o: usize, fm: usize) -> usize {
        let quads = fm >> 2;
        layout!((_2, _2, quads):(_2, _1, _4)).call(o)
    }
}
impl FmaOrder for RowsInOrder {
    #[inline(always)]
    fn row(o: usize, fm: usize) -> usize {
        layout!(fm:_1).call(o)
    }
}
impl FmaOrder for RowsEvenOdd {
    #[inline(always)]
    fn row(o: usize, fm: usize) -> usize {
        let half = fm >> 1;
        layout!((half, 2usize):(2usize, _1)).call(o)
    }
}
impl FmaOrder for RowsStrips {
    #[inline(always)]
    fn row(o: usize, fm: usize) -> usize {
        let half = fm >> 1;
        layout!((2usize, half):(half, _1)).call(o)
    }
}
/// The rows of order `O`, last first: `Reversed<RowsQuadEvenOdd>` visits `im = 7, 5, 6, 4, 3,
/// 1, 2, 0` for `fm = 8` (the layout `(2, 2, fm/4):(2, 1, 4)` read from its end).
#[derive(Clone, Copy, Default)]
pub struct Reversed<O>(core::marker::PhantomData<O>);
impl<O: FmaOrder> FmaOrder for Reversed<O> {
    #[inline(always)]
    fn row(o: usize, fm: usize) -> usize {
        O::row(fm - 1 - o, fm)
    }
}

/// The generic kernel body, for operand majorities `MA`, `MB` ([`MnMajor`] / [`KMajor`]) and
/// the static configuration `T` ([`Tile128`], [`Tile64`]).
///
/// Split-K: CTA `(x, y, z)` computes the k-range `[z·kc, min((z+1)·kc, K))` (`kc` a multiple
/// of `BK`; `kc >= K` and a grid of depth 1 is the plain GEMM). With `gridDim.z > 1` the
/// epilogue adds `alpha·acc` into C with `red.global.add.f32`, and C must already hold
/// `beta·C` (the host runs `sgemm_scale_c`, [`scale_c`], first).
///
/// # Safety
/// Launched with `T::NT` threads, grid `(ceil(M/BM), ceil(N/BN), ceil(K/kc))` (x and y
/// swapped when `rast != 0`), `T::SMEM_BYTES` of dynamic shared memory; `a`, `b`, `c` valid
/// for the extents and leading dimensions given (checked on the host).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn sgemm<MA, MB, T, L, O>(
    m: i32,
    n: i32,
    k: i32,
    kc: i32,
    rast: i32,
    alpha: f32,
    a: *const f32,
    lda: i32,
    b: *const f32,
    ldb: i32,
    beta: f32,
    c: *mut f32,
    ldc: i32,
) where
    MA: SmemStore,
    MB: SmemStore,
    T: CopyTiles<MA> + CopyTiles<MB>,
    L: Ldg,
    O: FmaOrder,
    // the register fragments tArA / tBrB: sized by the gmem partitions, retiled for the stores
    GmemPart<T, MA, L, true>: PartitionSize,
    GmemPart<T, MA, <MA as SmemStore>::Atom, true>: PartitionSize,
    GmemPart<T, MB, L, false>: PartitionSize,
    GmemPart<T, MB, <MB as SmemStore>::Atom, false>: PartitionSize,
    // the compute fragments tCrA / tCrB, read from tCsA / tCsB by `copy_with(LdsV4, ..)`
    FragLayoutA<T>: FragmentLayout,
    FragLayoutB<T>: FragmentLayout,
    Tensor<SmemAddr<f32>, Layout<T::CsAS, T::CsAD>>: AtomTensor<Value = f32>,
    Tensor<SmemAddr<f32>, Layout<T::CsBS, T::CsBD>>: AtomTensor<Value = f32>,
    Tensor<Reg<f32>, FragLayoutA<T>>: AtomTensor<Value = f32>,
    Tensor<Reg<f32>, FragLayoutB<T>>: AtomTensor<Value = f32>,
{
    let (bm, bn, bk) = (T::BM, T::BN, T::BK);
    let () = const { assert!(T::BK % 2 == 0) };
    let tid = thread_idx_x() as i32;
    // rasterization: `rast == 0`: blockIdx.x walks M (launch order M-fastest); else N.
    let (bx, by) = if rast == 0 {
        (block_idx_x(), block_idx_y())
    } else {
        (block_idx_y(), block_idx_x())
    };
    let m0 = bx as i32 * bm;
    let n0 = by as i32 * bn;
    let split = grid_dim_z() > 1;

    // this CTA's k-range: shift A and B to its start, K becomes the range's length
    let k0 = block_idx_z() as i32 * kc;
    let k = if k - k0 < kc { k - k0 } else { kc };
    let a = a.wrapping_offset(MA::offset(lda as i64, 0, k0 as i64) as isize);
    let b = b.wrapping_offset(MB::offset(ldb as i64, 0, k0 as i64) as isize);

    let cta = (bx as i32, by as i32);
    let () = StoreBanks::<MA, T, true>::CHECK;
    let () = StoreBanks::<MB, T, false>::CHECK;

    // The TiledCopies: gmem -> registers, 128-bit vectors along the operand's contiguous mode
    // (the load policy `L`); registers -> smem, the same thread and value layouts, stored k-major.
    let (thr_a, val_a) = (
        <T as CopyTiles<MA>>::ThrA::default(),
        <T as CopyTiles<MA>>::Val::default(),
    );
    let (thr_b, val_b) = (
        <T as CopyTiles<MB>>::ThrB::default(),
        <T as CopyTiles<MB>>::Val::default(),
    );
    let copy_a = make_tiled_copy(L::default(), thr_a, val_a);
    let store_a = make_tiled_copy(<MA as SmemStore>::Atom::default(), thr_a, val_a);
    let copy_b = make_tiled_copy(L::default(), thr_b, val_b);
    let store_b = make_tiled_copy(<MB as SmemStore>::Atom::default(), thr_b, val_b);
    let (thr_copy_a, thr_store_a) = (copy_a.get_slice(tid), store_a.get_slice(tid));
    let (thr_copy_b, thr_store_b) = (copy_b.get_slice(tid), store_b.get_slice(tid));

    // A: gA = local_tile(mA, (BM,BN,BK), (bx,by,_), Step<_1,X,_1>) (its k-tile 0 and the stride
    // of its k mode); tAgA its copy partition, tAsA the store partition of sA (a stage's offset
    // is added where it is used), tAcA the partition of the tile's coordinates
    let t_ac_a = thr_copy_a.partition_s(&<T as CopyTiles<MA>>::c_a()); // (CPY) -> (m,k)
    let (g_a, dk_a) = <T as CopyTiles<MA>>::g_a(a, (m, k), lda, cta); // (BM,BK), k
    let mut t_ag_a = KTiles::new(thr_copy_a.partition_s(&g_a), dk_a); // (CPY,k)
    let t_as_a0 = fold_thread(
        thr_store_a.partition_d(&make_tensor(make_smem_addr::<f32>(0), T::SA::default())),
    ); // (CPY)
    // B likewise: gB = local_tile(mB, (BM,BN,BK), (bx,by,_), Step<X,_1,_1>); sB follows sA
    let t_bc_b = thr_copy_b.partition_s(&<T as CopyTiles<MB>>::c_b()); // (CPY) -> (n,k)
    let (g_b, dk_b) = <T as CopyTiles<MB>>::g_b(b, (n, k), ldb, cta); // (BN,BK), k
    let mut t_bg_b = KTiles::new(thr_copy_b.partition_s(&g_b), dk_b); // (CPY,k)
    let s_b0 = make_smem_addr::<f32>(0).advance(const { T::SA_FLOATS as i32 });
    let t_bs_b0 = fold_thread(thr_store_b.partition_d(&make_tensor(s_b0, T::SB::default())));
    // register fragments for the staged k-tile
    let mut t_ar_a = make_fragment_like_partition::<f32, _>(&t_ag_a.part); // (CPY)
    let mut t_br_b = make_fragment_like_partition::<f32, _>(&t_bg_b.part); // (CPY)
    // 16-byte vectors allowed: leading dimension and base aligned
    let va = lda % 4 == 0 && (a as usize).is_multiple_of(16);
    let vb = ldb % 4 == 0 && (b as usize).is_multiple_of(16);

    // smem: two stages of sA then sB, at 32-bit shared addresses
    let smem = to_shared_addr(dynamic_shared_mem::<Float4>());
    let stage_bytes = const { T::STAGE_FLOATS * 4 };
    let sb_off = const { T::SA_FLOATS * 4 };
    // tAsA / tBsB at the stage whose shared address is `stage`
    let t_as_a = #[inline(always)]
    |stage: u32| {
        let mut p = t_as_a0;
        p.engine.addr += stage;
        p
    };
    let t_bs_b = #[inline(always)]
    |stage: u32| {
        let mut p = t_bs_b0;
        p.engine.addr += stage;
        p
    };

    // tArA = tAgA(_,k_tile) (elements outside the operand read as 0): `copy` in the interior,
    // `copy_if` with the edge predicate tApA (coordinates cA moved to the tile, bounds (M, ks)
    // where `ks` is the k-range left from the k-tile's start)
    let load_a = #[inline(always)]
    |t_ar_a: &mut _, t_ag_a: &mut KTiles<_>, ks: i32, full: bool| {
        if full {
            unsafe { copy(&copy_a, &*t_ag_a, &make_partition(t_ar_a)) };
        } else {
            clear_frag(t_ar_a);
            let t_ap_a = edge_pred(&t_ac_a, (m0, 0), (m, ks), va);
            copy_if(&copy_a, &t_ap_a, &*t_ag_a, &make_partition(t_ar_a));
        }
        t_ag_a.next();
    };
    let load_b = #[inline(always)]
    |t_br_b: &mut _, t_bg_b: &mut KTiles<_>, ks: i32, full: bool| {
        if full {
            unsafe { copy(&copy_b, &*t_bg_b, &make_partition(t_br_b)) };
        } else {
            clear_frag(t_br_b);
            let t_bp_b = edge_pred(&t_bc_b, (n0, 0), (n, ks), vb);
            copy_if(&copy_b, &t_bp_b, &*t_bg_b, &make_partition(t_br_b));
        }
        t_bg_b.next();
    };

    // tCsA / tCsB: this thread's 4-vectors of sA / sB as the outer products read them,
    // `(V, THR_M)` / `(V, THR_N)` of k-step 0 in stage 0 (`local_partition` of the 4-vectors
    // with Step<_1,X> / Step<X,_1>); k-step `kk` of the stage at `sbase` is that tensor moved by
    // sA(0, kk) (sB(0, kk)) and the stage's bytes
    let t_cs_a0 = T::t_cs_a(make_smem_addr::<f32>(0), tid);
    let t_cs_b0 = T::t_cs_b(make_smem_addr::<f32>(sb_off), tid);
    let t_cs_a = #[inline(always)]
    |sbase: u32, kk: usize| {
        let mut t = t_cs_a0;
        t.engine.addr += sbase;
        t.engine = t.engine.advance(T::sa(0, kk as i32));
        t
    };
    let t_cs_b = #[inline(always)]
    |sbase: u32, kk: usize| {
        let mut t = t_cs_b0;
        t.engine.addr += sbase;
        t.engine = t.engine.advance(T::sb(0, kk as i32));
        t
    };
    // tCrA / tCrB = make_fragment_like(tCsA(_,_,0)): register fragments, double-buffered (a
    // k-step reads one while the next k-step's are loaded into the other)
    let mut t_cr_a: [FragA<T>; 2] = [make_fragment_like(&t_cs_a0), make_fragment_like(&t_cs_a0)];
    let mut t_cr_b: [FragB<T>; 2] = [make_fragment_like(&t_cs_b0), make_fragment_like(&t_cs_b0)];
    // copy(LdsV4, tCsA(_,_,kk), tCrA[buf]) and tCsB likewise, from the stage at `sbase`
    let load_frags = #[inline(always)]
    |t_cr_a: &mut [FragA<T>; 2],
                      t_cr_b: &mut [FragB<T>; 2],
                      sbase: u32,
                      kk: usize,
                      buf: usize| {
        unsafe { copy_with(&LdsV4, &t_cs_a(sbase, kk), &t_cr_a[buf].tensor()) };
        unsafe { copy_with(&LdsV4, &t_cs_b(sbase, kk), &t_cr_b[buf].tensor()) };
    };

    let mut acc = T::acc();
    let () = const {
        assert!(T::FRAGS.0 * T::FRAGS.1 * 16 == <T::Acc as FragmentLayout>::Len::USIZE);
        assert!(<FragLayoutA<T> as FragmentLayout>::Len::USIZE == 4 * T::FRAGS.0);
        assert!(<FragLayoutB<T> as FragmentLayout>::Len::USIZE == 4 * T::FRAGS.1);
    };
    // Interior fast path: a CTA whose tile lies inside (M, N), whose k-range is a whole
    // number of k-tiles and whose operands take vector loads with no predicates (the main
    // loop is inlined twice, `full` a constant in each copy).
    let interior = m0 + bm <= m && n0 + bn <= n && k % bk == 0 && va && vb;
    let mut main_loop = #[inline(always)]
    |full: bool| {
        if k > 0 {
            load_a(&mut t_ar_a, &mut t_ag_a, k, full);
            load_b(&mut t_br_b, &mut t_bg_b, k, full);
            unsafe { copy(&store_a, &thr_store_a.retile_s(&mut t_ar_a), &t_as_a(smem)) };
            unsafe { copy(&store_b, &thr_store_b.retile_s(&mut t_br_b), &t_bs_b(smem)) };
        }
        sync_threads();
        if k > 0 {
            load_frags(&mut t_cr_a, &mut t_cr_b, smem, 0, 0);
        }
        let mut stage = 0u32;
        // elements of K from the start of the current k-tile to the end of the k-range
        let mut rem = k;
        // Each k-tile: global loads of the next tile first (registers), then BK outer products;
        // before the last one, the staged tile goes to the other stage and one barrier
        // publishes it, so the last k-step's FFMAs overlap the first fragment loads of
        // the next tile. Stage reuse: stage s^1 is written in a tile only after the barrier
        // that ended the tile before, its last reader.
        while rem > 0 {
            let more = rem > bk;
            if more {
                load_a(&mut t_ar_a, &mut t_ag_a, rem - bk, full);
                load_b(&mut t_br_b, &mut t_bg_b, rem - bk, full);
            }
            let sbase = smem + stage * stage_bytes;
            let next = smem + (stage ^ 1) * stage_bytes;
            // one k-step: fragments of the next k-step (or, after the last one, the next tile
            // and its barrier) are read into register buffer `cur ^ 1` while the FFMAs of `kk`
            // use buffer `cur`
            let mut k_step = #[inline(always)]
            |kk: usize, cur: usize| {
                if kk + 1 < T::BK as usize {
                    load_frags(&mut t_cr_a, &mut t_cr_b, sbase, kk + 1, cur ^ 1);
                } else {
                    if more {
                        unsafe {
                            copy(&store_a, &thr_store_a.retile_s(&mut t_ar_a), &t_as_a(next))
                        };
                        unsafe {
                            copy(&store_b, &thr_store_b.retile_s(&mut t_br_b), &t_bs_b(next))
                        };
                    }
                    sync_threads();
                    if more {
                        load_frags(&mut t_cr_a, &mut t_cr_b, next, 0, cur ^ 1);
                    }
                }
                // gemm(tCrA, tCrB, tCrC) of this k-step, in the entry's FFMA order
                O::gemm::<T, _, _>(&t_cr_a[cur], &t_cr_b[cur], &mut acc);
            };
            // the k-steps in pairs, register buffers 0 then 1
            unroll!(
                const { T::BK as usize / 2 },
                #[inline(always)]
                |kp| {
                    k_step(2 * kp, 0);
                    k_step(2 * kp + 1, 1);
                },
            );
            stage ^= 1;
            rem -= bk;
        }
    };
    if interior {
        main_loop(true);
    } else {
        main_loop(false);
    }

    // epilogue: thrC's 4x4 blocks; column n of a block is a 4-vector along M.
    // gC: this CTA's tile of C; thrC: this thread's 4x4 blocks of it
    let g_c = T::g_c(c, (m, n), ldc, cta, (0, 0));
    let pc = T::thr_c(tid);
    let vc = ldc % 4 == 0 && (c as usize).is_multiple_of(16);
    unroll!(
        const { T::FRAGS.1 },
        #[inline(always)]
        |jn| {
            unroll!(
                const { T::FRAGS.0 },
                #[inline(always)]
                |jm| {
                    let (bcm, bcn) = T::c_crd(pc.at(jm, jn));
                    let gm = m0 + bcm;
                    unroll!(
                        4,
                        #[inline(always)]
                        |vn| {
                            let gn = n0 + bcn + vn as i32;
                            if gn < n {
                                let r = |i: usize| acc[T::acc_idx(4 * jm + i, 4 * jn + vn)];
                                let p = g_c.wrapping_offset(MnMajor::offset(
                                    ldc as i64,
                                    bcm as i64,
                                    (bcn + vn as i32) as i64,
                                )
                                    as isize);
                                if split {
                                    unroll!(
                                        4,
                                        #[inline(always)]
                                        |i| {
                                            if gm + (i as i32) < m {
                                                unsafe {
                                                    red_add_f32(p.wrapping_add(i), alpha * r(i))
                                                };
                                            }
                                        },
                                    );
                                } else if gm + 3 < m && vc {
                                    let mut v = Float4 {
                                        x: alpha * r(0),
                                        y: alpha * r(1),
                                        z: alpha * r(2),
                                        w: alpha * r(3),
                                    };
                                    if beta != 0.0 {
                                        let o = unsafe { ld_global_v4_f32(p as *const Float4) };
                                        v.x = beta.mul_add_fast(o.x, v.x);
                                        v.y = beta.mul_add_fast(o.y, v.y);
                                        v.z = beta.mul_add_fast(o.z, v.z);
                                        v.w = beta.mul_add_fast(o.w, v.w);
                                    }
                                    unsafe { st_global_v4_f32(p as *mut Float4, v) };
                                } else {
                                    unroll!(
                                        4,
                                        #[inline(always)]
                                        |i| {
                                            if gm + (i as i32) < m {
                                                let q = p.wrapping_add(i);
                                                let mut v = alpha * r(i);
                                                if beta != 0.0 {
                                                    v = beta.mul_add_fast(unsafe { *q }, v);
                                                }
                                                unsafe { *q = v };
                                            }
                                        },
                                    );
                                }
                            }
                        },
                    );
                },
            );
        },
    );
}

/// `C = beta·C` on the `(M,N):(_1,ldc)` matrix (`beta == 0`: `C = 0`, C is not read), one
/// thread per element, grid `(ceil(M/256), min(N, 65535))` (grid-stride along N): the split-K
/// prologue.
///
/// # Safety
/// 256 threads per block; `c` valid for `(M,N)` with leading dimension `ldc`.
#[inline(always)]
pub unsafe fn scale_c(m: i32, n: i32, beta: f32, c: *mut f32, ldc: i32) {
    let i = (block_idx_x() * 256 + thread_idx_x()) as i32;
    let mut j = block_idx_y() as i32;
    while i < m && j < n {
        let p = c.wrapping_offset(i as isize + j as isize * ldc as isize);
        unsafe { *p = if beta == 0.0 { 0.0 } else { beta * *p } };
        j += grid_dim_y() as i32;
    }
}

/// Defines the kernel entry `sgemm_scale_c` ([`scale_c`]) in the family that expands it (one
/// family only: an entry name is unique across the PTX modules).
#[macro_export]
macro_rules! sgemm_scale_c_entry {
    () => {
        ::device::kernel! {
            /// `C = beta·C`, the split-K prologue: see `gemm::scale_c`.
            ///
            /// # Safety
            /// As `gemm::scale_c`.
            pub unsafe fn sgemm_scale_c(m: i32, n: i32, beta: f32, c: *mut f32, ldc: i32) {
                unsafe { $crate::scale_c(m, n, beta, c, ldc) }
            }
        }
    };
}

/// `a·b + c` as one `fma.rn.f32` (`llvm.fma.f32`: no intermediate rounding), the FFMA of the
/// hot loop.
trait MulAddFast {
    fn mul_add_fast(self, b: f32, c: f32) -> f32;
}
impl MulAddFast for f32 {
    #[inline(always)]
    fn mul_add_fast(self, b: f32, c: f32) -> f32 {
        #[allow(unused_unsafe)]
        unsafe {
            core::intrinsics::fmaf32(self, b, c)
        }
    }
}

/// Defines the kernel entry `$name`: [`sgemm`] for operand majorities `$ma`, `$mb` (types
/// [`MnMajor`] / [`KMajor`]) and static configuration `$tiles` ([`Tile128`], [`Tile64`]), with the
/// global-load policy `$ldg` ([`Ldg`]; default [`LdgNc`]) and the FFMA order `$order`
/// ([`FmaOrder`]; default [`RowsInOrder`]). Expanded by the GEMM families (`kernels/gemm_n`,
/// `kernels/gemm_t`), each a PTX module of its own.
#[macro_export]
macro_rules! sgemm_entry {
    ($name:ident, $ma:ty, $mb:ty, $tiles:ty) => {
        $crate::sgemm_entry!($name, $ma, $mb, $tiles, $crate::LdgNc, $crate::RowsInOrder);
    };
    ($name:ident, $ma:ty, $mb:ty, $tiles:ty, $ldg:ty, $order:ty) => {
        ::device::kernel! {
            /// `C = alpha·A·B + beta·C`, see the module docs; the name gives the CTA tile and
            /// the BLAS transposes (A, B).
            ///
            /// # Safety
            /// As [`sgemm`]: launch shape and buffers as checked by `host/src/gemm.rs`.
            #[allow(clippy::too_many_arguments)]
            pub unsafe fn $name(
                m: i32,
                n: i32,
                k: i32,
                kc: i32,
                rast: i32,
                alpha: f32,
                a: *const f32,
                lda: i32,
                b: *const f32,
                ldb: i32,
                beta: f32,
                c: *mut f32,
                ldc: i32,
            ) {
                unsafe {
                    $crate::sgemm::<$ma, $mb, $tiles, $ldg, $order>(
                        m, n, k, kc, rast, alpha, a, lda, b, ldb, beta, c, ldc,
                    )
                }
            }
        }
    };
}
