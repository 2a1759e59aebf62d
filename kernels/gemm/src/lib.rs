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
//!   `Step<_1,X,_1>` / `Step<X,_1,_1>` / `Step<_1,_1,X>` ([`GemmTiles::g_a`], [`GemmTiles::g_b`],
//!   [`GemmTiles::g_c`]); an operand's step between k-tiles and the split-K shift are
//!   `M::offset(ld, x, k)`, the same typed stride layout.
//! - gmem → smem copy: a TiledCopy of 128-bit atoms along the contiguous mode (thread layout
//!   `(BX/4,NT/(BX/4)):(_1,BX/4)` with values `(_4,_1)` for MN-major, `(NT/(BK/4),BK/4):(BK/4,_1)`
//!   with `(_1,_4)` for K-major), so a warp reads contiguous bytes; its `partition_S` of the
//!   tile's identity tensor gives each vector's `(x, k)`.
//! - smem: A and B are stored *k-major* (`(BX,BK):(_1,BX+4)`, A transposed when it is
//!   K-major in gmem); the +4 padding keeps the transposing scalar stores conflict-free and
//!   rows 16-byte aligned.
//! - compute: the warp-tiled thread layout `((8,TX/8),(4,TY/4)):((_1,_32),(_8,32·TX/8))`
//!   (a warp is 8×4 threads) partitions `zipped_divide(sA, (_4,_1))` with `Step<_1,X>`
//!   (thrA), `zipped_divide(sB, (_4,_1))` with `Step<X,_1>` (thrB) and
//!   `zipped_divide(C, (_4,_4))` with no projection (thrC): each thread owns
//!   `(BM/TX) × (BN/TY)` accumulators (8×8) as 4-wide strips `4·TX` apart, read with
//!   conflict-free `ld.shared.v4` (one wavefront per warp) and updated by an outer product
//!   each k, its 64 FFMAs in the order of the entry's [`FmaOrder`] (it decides ptxas's register
//!   allocation and so the register-bank conflicts: up to 7 % of cuBLAS on the H100).
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

pub mod tiles;

use core::marker::PhantomData;

use layout_types::bank::check_conflict_free;
use layout_types::copy::{CopyAtom, CopyOp, make_tiled_copy};
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::FragmentLayout;
use layout_types::cute::typenum::Unsigned;
use layout_types::static_layout::ok;
use layout_types::swizzle::DynSwizzle;
use layout_types::{DynLayout, IntTuple};

use device::atomic::red_add_f32;
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{
    block_idx_x, block_idx_y, block_idx_z, grid_dim_y, grid_dim_z, sync_threads, thread_idx_x,
};
use device::unroll;
use device::vec::{
    Float4, ld_global_nc_v4_f32, ld_global_v4_f32, ld_relaxed_gpu_v4_f32, ld_shared_v4_f32,
    st_global_v4_f32, st_shared_f32, st_shared_v4_f32,
};
pub use tiles::{GemmTiles, Part, Tile64, Tile128};

/// Stride type of an operand `(X,K)` in global memory: which of its two strides is `_1`.
pub trait Major {
    /// `true`: `(X,K):(ld,_1)` (K contiguous); `false`: `(X,K):(_1,ld)` (X contiguous).
    const K_MAJOR: bool;
    /// The operand's layout `(X,K)` with leading dimension `ld` (64-bit indices): the offset of
    /// element `(x, k)`.
    fn offset(ld: i64, x: i64, k: i64) -> i64;
}
/// `(X,K):(_1,ld)`: X (M for A, N for B) is contiguous.
#[derive(Clone, Copy, Default)]
pub struct MnMajor;
/// `(X,K):(ld,_1)`: K is contiguous.
#[derive(Clone, Copy, Default)]
pub struct KMajor;
impl Major for MnMajor {
    const K_MAJOR: bool = false;
    #[inline(always)]
    fn offset(ld: i64, x: i64, k: i64) -> i64 {
        layout!((_1, _1):(_1, ld)).crd2idx((x, k))
    }
}
impl Major for KMajor {
    const K_MAJOR: bool = true;
    #[inline(always)]
    fn offset(ld: i64, x: i64, k: i64) -> i64 {
        layout!((_1, _1):(ld, _1)).crd2idx((x, k))
    }
}

/// How the main loop loads its 128-bit operand vectors from global memory: a choice made per
/// entry, because it decides where ptxas schedules the loads.
pub trait Ldg {
    /// One 128-bit load.
    ///
    /// # Safety
    /// `p` points to 16 readable, 16-byte aligned bytes of global memory that no thread writes
    /// during the kernel.
    unsafe fn ld(p: *const Float4) -> Float4;
}
/// `ld.global.nc.v4.f32` (the read-only path, `__ldg`).
#[derive(Clone, Copy, Default)]
pub struct LdgNc;
/// `ld.relaxed.gpu.global.v4.f32`: a strong load, which ptxas keeps at the top of the k-tile
/// loop. With [`LdgNc`] ptxas sinks the K-major operand's load of the "N" entries (A MN-major)
/// to about 160 instructions before its `st.shared` (`tools/sass_mix.py`), too late for one
/// CTA of 8 warps per SM to hide the DRAM latency: 0.74 of cuBLAS at 4096³ NN against 0.94
/// for NT, whose loads ptxas leaves at the top (H100, `host gemm --sweep`). The "T" entries
/// keep [`LdgNc`]: strong loads make ptxas sink both of theirs.
#[derive(Clone, Copy, Default)]
pub struct LdgRelaxed;
impl Ldg for LdgNc {
    #[inline(always)]
    unsafe fn ld(p: *const Float4) -> Float4 {
        unsafe { ld_global_nc_v4_f32(p) }
    }
}
impl Ldg for LdgRelaxed {
    #[inline(always)]
    unsafe fn ld(p: *const Float4) -> Float4 {
        unsafe { ld_relaxed_gpu_v4_f32(p) }
    }
}

/// The order of one k-step's outer product: the `fm × fn` FFMAs `acc(im, jn) += a(im)·b(jn)` of
/// a thread, row by row: the `o`-th row visited is `im = row(o)`.
///
/// Every order walks a row of accumulators with `a(im)` fixed and `b(jn)` serpentine (forward
/// on the first row of each pair, backward on the second), so consecutive FFMAs share one
/// operand, which the SASS takes from the operand reuse cache. The orders differ in which row
/// comes next, and that changes the registers ptxas gives the 64 accumulators, hence how many
/// FFMAs read two registers of one bank (held back at dispatch: ncu's `dispatch_stall`, 0.73 per
/// issued instruction in the bounded NN entry before, 0.10 in cuBLAS). On the H100 the order alone moved a 4096³ entry by up to 7 % of
/// cuBLAS; each entry takes the order measured best for it (`tools/gpu/results/
/// 2026-11-23-fma-order`; `tools/sass_mix.py`'s `bank` column counts the conflicts statically).
pub trait FmaOrder {
    /// The row `im` (of `fm`) that the outer product visits `o`-th.
    fn row(o: usize, fm: usize) -> usize;
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

const fn tuple2(a: i64, b: i64) -> IntTuple {
    IntTuple::pair(&IntTuple::st(a), &IntTuple::st(b))
}
const fn layout2(s0: i64, s1: i64, d0: i64, d1: i64) -> DynLayout {
    ok(DynLayout::new(tuple2(s0, s1), tuple2(d0, d1)))
}

/// Most copy vectors per thread and operand.
const MAX_COPY: usize = 4;

/// gmem → smem copy of one operand tile `(BX,BK)` (A: `BX = BM`, B: `BX = BN`) by `NT`
/// threads: this thread's vectors (the TiledCopy partition of [`GemmTiles::copy_a`] /
/// [`GemmTiles::copy_b`]) with their registers and pointers.
struct Loader<M: Major, T: GemmTiles, L: Ldg, const IS_A: bool> {
    /// Per vector: pointer to its first element in the current k-tile.
    ptr: [*const f32; MAX_COPY],
    /// Per vector: global X of its first element.
    gx: [i32; MAX_COPY],
    /// Per vector: k within the tile of its first element.
    kk: [i32; MAX_COPY],
    /// Per vector: byte offset in a stage (`sA` at 0, `sB` after it).
    soff: [u32; MAX_COPY],
    regs: [Float4; MAX_COPY],
    _m: PhantomData<(M, T, L)>,
}

impl<M: Major, T: GemmTiles, L: Ldg, const IS_A: bool> Loader<M, T, L, IS_A> {
    /// Vectors per thread.
    const CNT: usize = if IS_A {
        T::COPY_A[M::K_MAJOR as usize]
    } else {
        T::COPY_B[M::K_MAJOR as usize]
    };
    /// `(BX, BK)`.
    const BX: i64 = if IS_A { T::BM as i64 } else { T::BN as i64 };
    const CHECK: () = {
        assert!(Self::CNT <= MAX_COPY, "too many copy vectors per thread");
        let (bx, bk, nt) = (Self::BX, T::BK as i64, T::NT as i64);
        // The stores into the k-major smem tile `(BX,BK):(_1,BX+4)` are free of bank
        // conflicts: the copy thread layout over the tile's elements, 4-vectors along X
        // (one `st.shared.v4`) or along K (four transposing scalar stores).
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
        let tc = match make_tiled_copy(CopyAtom::new(CopyOp::Element, 4), &thr, &val) {
            Ok(tc) => tc,
            Err(e) => e.panic(),
        };
        let smem = layout2(bx, bk, 1, bx + 4);
        if let Err(e) = check_conflict_free(&tc, &smem, DynSwizzle::identity(), 4, vec) {
            e.panic()
        }
    };

    /// Offset in the smem tile of `(x, k)`.
    #[inline(always)]
    fn smem(x: i32, k: i32) -> i32 {
        if IS_A { T::sa(x, k) } else { T::sb(x, k) }
    }

    /// Sets up thread `tid`'s vectors for CTA `cta` of an operand `(xs, ks)` with leading
    /// dimension `ld` stored at `base` (its tile starts at X offset `x0`).
    #[inline(always)]
    fn new(base: *const f32, xk: (i32, i32), ld: i32, cta: (i32, i32), x0: i32, tid: i32) -> Self {
        let () = Self::CHECK;
        let mut ptr = [core::ptr::null::<f32>(); MAX_COPY];
        let mut gx = [0i32; MAX_COPY];
        let mut kk = [0i32; MAX_COPY];
        let mut soff = [0u32; MAX_COPY];
        unroll!(
            Self::CNT,
            #[inline(always)]
            |j| {
                let (x, k) = if IS_A {
                    T::copy_a(M::K_MAJOR, tid, j)
                } else {
                    T::copy_b(M::K_MAJOR, tid, j)
                };
                gx[j] = x0 + x;
                kk[j] = k;
                ptr[j] = if IS_A {
                    T::g_a(M::K_MAJOR, base, xk, ld, cta, (x, k))
                } else {
                    T::g_b(M::K_MAJOR, base, xk, ld, cta, (x, k))
                };
                soff[j] = 4 * Self::smem(x, k) as u32 + if IS_A { 0 } else { 4 * T::SA_FLOATS };
            },
        );
        Loader {
            ptr,
            gx,
            kk,
            soff,
            regs: [Float4::default(); MAX_COPY],
            _m: PhantomData,
        }
    }

    /// Loads the next k-tile into registers, `ks` its elements along K that lie inside the
    /// operand (`ks >= BK`: all); elements outside `(xs, ks)` become 0. `full` (a constant
    /// after inlining): the tile lies inside the operand and vectors are aligned, so every
    /// vector is loaded with no predicate.
    #[inline(always)]
    fn load(&mut self, xs: i32, ks: i32, ld: i32, vec_ok: bool, full: bool) {
        unroll!(
            Self::CNT,
            #[inline(always)]
            |j| {
                let p = self.ptr[j];
                let x = self.gx[j];
                let k = self.kk[j];
                // The 4-vector runs along k (K-major operand) or along x (MN-major operand).
                let (dk, dx) = if M::K_MAJOR { (1, 0) } else { (0, 1) };
                let v = if full || (x + 3 * dx < xs && k + 3 * dk < ks && vec_ok) {
                    unsafe { L::ld(p as *const Float4) }
                } else {
                    let e = |i: i32| {
                        if x + i * dx < xs && k + i * dk < ks {
                            unsafe { *p.wrapping_offset(i as isize) }
                        } else {
                            0.0
                        }
                    };
                    Float4 {
                        x: e(0),
                        y: e(1),
                        z: e(2),
                        w: e(3),
                    }
                };
                self.regs[j] = v;
                self.ptr[j] = p.wrapping_offset(M::offset(ld as i64, 0, T::BK as i64) as isize);
            },
        );
    }

    /// Stores the registers into the stage at shared address `stage` (bytes; `sA` at its
    /// start, `sB` after it), k-major:
    /// one `st.shared.v4` (MN-major) or four transposing scalar stores (K-major).
    #[inline(always)]
    fn store(&self, stage: u32) {
        unroll!(
            Self::CNT,
            #[inline(always)]
            |j| {
                let a = stage + self.soff[j];
                let v = self.regs[j];
                if M::K_MAJOR {
                    // element i of the vector is (x, k + i) of the tile
                    let o = |i: i32| 4 * Self::smem(0, i) as u32;
                    unsafe {
                        st_shared_f32(a, v.x);
                        st_shared_f32(a + o(1), v.y);
                        st_shared_f32(a + o(2), v.z);
                        st_shared_f32(a + o(3), v.w);
                    }
                } else {
                    unsafe { st_shared_v4_f32(a, v) };
                }
            },
        );
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
pub unsafe fn sgemm<MA: Major, MB: Major, T: GemmTiles, L: Ldg, O: FmaOrder>(
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
    let mut la = Loader::<MA, T, L, true>::new(a, (m, k), lda, cta, m0, tid);
    let mut lb = Loader::<MB, T, L, false>::new(b, (n, k), ldb, cta, n0, tid);
    let va = lda % 4 == 0 && (a as usize).is_multiple_of(16);
    let vb = ldb % 4 == 0 && (b as usize).is_multiple_of(16);

    let smem = to_shared_addr(dynamic_shared_mem::<Float4>());
    let stage_bytes = const { T::STAGE_FLOATS * 4 };
    let sb_off = const { T::SA_FLOATS * 4 };

    // this thread's fragments: thrA / thrB (offsets in floats in sA / sB)
    let pa = T::thr_a(tid);
    let pb = T::thr_b(tid);
    let a_frag0 = 4 * pa.base() as u32;
    let b_frag0 = sb_off + 4 * pb.base() as u32;
    // register fragments, double-buffered: [buffer][value]; a k-step reads one buffer while
    // the next k-step's fragments are loaded into the other
    let mut af = [[0f32; 16]; 2];
    let mut bf = [[0f32; 16]; 2];
    // fragments of k-step `kk` of the stage at `sbase` into buffer `buf`
    let load_frags =
        #[inline(always)]
        |af: &mut [[f32; 16]; 2], bf: &mut [[f32; 16]; 2], sbase: u32, kk: usize, buf: usize| {
            unroll!(
                const { T::FRAGS.0 },
                #[inline(always)]
                |j| {
                    let v = unsafe { ld_shared_v4_f32(sbase + a_frag0 + 4 * pa.val(j, kk) as u32) };
                    af[buf][4 * j] = v.x;
                    af[buf][4 * j + 1] = v.y;
                    af[buf][4 * j + 2] = v.z;
                    af[buf][4 * j + 3] = v.w;
                },
            );
            unroll!(
                const { T::FRAGS.1 },
                #[inline(always)]
                |j| {
                    let v = unsafe { ld_shared_v4_f32(sbase + b_frag0 + 4 * pb.val(j, kk) as u32) };
                    bf[buf][4 * j] = v.x;
                    bf[buf][4 * j + 1] = v.y;
                    bf[buf][4 * j + 2] = v.z;
                    bf[buf][4 * j + 3] = v.w;
                },
            );
        };

    let mut acc = T::acc();
    let () =
        const { assert!(T::FRAGS.0 * T::FRAGS.1 * 16 == <T::Acc as FragmentLayout>::Len::USIZE) };
    // Interior fast path: a CTA whose tile lies inside (M, N), whose k-range is a whole
    // number of k-tiles and whose operands take vector loads with no predicates (the main
    // loop is inlined twice, `full` a constant in each copy).
    let interior = m0 + bm <= m && n0 + bn <= n && k % bk == 0 && va && vb;
    let mut main_loop = #[inline(always)]
    |full: bool| {
        if k > 0 {
            la.load(m, k, lda, va, full);
            lb.load(n, k, ldb, vb, full);
            la.store(smem);
            lb.store(smem);
        }
        sync_threads();
        if k > 0 {
            load_frags(&mut af, &mut bf, smem, 0, 0);
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
                la.load(m, rem - bk, lda, va, full);
                lb.load(n, rem - bk, ldb, vb, full);
            }
            let sbase = smem + stage * stage_bytes;
            let next = smem + (stage ^ 1) * stage_bytes;
            // one k-step: fragments of the next k-step (or, after the last one, the next tile
            // and its barrier) are read into register buffer `cur ^ 1` while the FFMAs of `kk`
            // use buffer `cur`
            let mut k_step = #[inline(always)]
            |kk: usize, cur: usize| {
                if kk + 1 < T::BK as usize {
                    load_frags(&mut af, &mut bf, sbase, kk + 1, cur ^ 1);
                } else {
                    if more {
                        la.store(next);
                        lb.store(next);
                    }
                    sync_threads();
                    if more {
                        load_frags(&mut af, &mut bf, next, 0, cur ^ 1);
                    }
                }
                let (fm, fnn) = const { (4 * T::FRAGS.0, 4 * T::FRAGS.1) };
                let mut ffma = #[inline(always)]
                |im: usize, jn: usize| {
                    let c = T::acc_idx(im, jn);
                    acc[c] = af[cur][im].mul_add_fast(bf[cur][jn], acc[c]);
                };
                // rows in pairs: `b` forward on the first, backward on the second
                unroll!(
                    const { 2 * T::FRAGS.0 },
                    #[inline(always)]
                    |p| {
                        let (r0, r1) = (O::row(2 * p, fm), O::row(2 * p + 1, fm));
                        unroll!(
                            const { 4 * T::FRAGS.1 },
                            #[inline(always)]
                            |j| ffma(r0, j),
                        );
                        unroll!(
                            const { 4 * T::FRAGS.1 },
                            #[inline(always)]
                            |j| ffma(r1, fnn - 1 - j),
                        );
                    },
                );
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
