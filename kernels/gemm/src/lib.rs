//! Partitioned fp32 GEMM on CUDA cores (FFMA), CuTe-style: `C = alpha·A·B + beta·C`.
//!
//! Conventions (CuTe's / BLAS's, column-major C): `A` is `(M,K)`, `B` is `(N,K)`, `C` is
//! `(M,N):(_1,ldc)`. An operand is *MN-major* (`(X,K):(_1,ld)`, BLAS "N" for A and "T" for B)
//! or *K-major* (`(X,K):(ld,_1)`, BLAS "T" for A and "N" for B); the four majorities are ONE
//! generic kernel ([`sgemm`]) instantiated with the operands' stride types ([`MnMajor`] /
//! [`KMajor`]): the stride with the static `_1` decides which way the 128-bit vectors run.
//!
//! Partitioning (everything static is a `const` computed by the layout algebra):
//! - CTA: the tiler `(BM,BN,BK)` projected with `Step<_1,X,_1>` / `Step<X,_1,_1>` /
//!   `Step<_1,_1,X>` ([`Dice`]) gives the A, B, C tiles (`local_tile`); only the block
//!   coordinate is dynamic.
//! - gmem → smem copy: the tile's coordinates are `zipped_divide`d by the vector
//!   (`(_4,_1)` for MN-major, `(_1,_4)` for K-major) and `local_partition`ed by a copy thread
//!   layout whose fastest mode follows the contiguous one, so a warp reads contiguous bytes.
//! - smem: A and B are stored *k-major* (`(BX,BK):(_1,BX+4)`, A transposed when it is
//!   K-major in gmem); the +4 padding keeps the transposing scalar stores conflict-free and
//!   rows 16-byte aligned.
//! - compute: the warp-tiled thread layout `((8,TX/8),(4,TY/4)):((_1,_32),(_8,32·TX/8))`
//!   (a warp is 8×4 threads) partitions `zipped_divide(sA, (_4,_1))` with `Step<_1,X>`
//!   (thrA), `zipped_divide(sB, (_4,_1))` with `Step<X,_1>` (thrB) and
//!   `zipped_divide(C, (_4,_4))` with no projection (thrC): each thread owns
//!   `(BM/TX) × (BN/TY)` accumulators (8×8) as 4-wide strips `4·TX` apart, read with
//!   conflict-free `ld.shared.v4` (one wavefront per warp) and updated by an outer product
//!   each k.
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
//!   (fewer instructions per k-tile: 576 in all, 512 of them FFMA, for `nn`).
#![no_std]
#![feature(core_intrinsics, stmt_expr_attributes)]
#![allow(internal_features)]
// Host clippy (the emulator build) flags `x % n == 0` in the bodies; left as written.
#![allow(clippy::manual_is_multiple_of)]

#[doc(hidden)]
pub mod part;

use core::marker::PhantomData;

use layout_types::bank::check_conflict_free;
use layout_types::copy::{CopyAtom, CopyOp, make_tiled_copy};
use layout_types::prelude::*;
use layout_types::static_layout::{FlatLayout, ok};
use layout_types::swizzle::DynSwizzle;

use device::atomic::red_add_f32;
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{
    block_idx_x, block_idx_y, block_idx_z, grid_dim_y, grid_dim_z, sync_threads, thread_idx_x,
};
use device::unroll;
use device::vec::{
    Float4, ld_global_nc_v4_f32, ld_global_v4_f32, ld_shared_v4_f32, st_global_v4_f32,
    st_shared_f32, st_shared_v4_f32,
};
use part::Partition;

/// Stride type of an operand `(X,K)` in global memory: which of its two strides is `_1`.
pub trait Major {
    /// `true`: `(X,K):(ld,_1)` (K contiguous); `false`: `(X,K):(_1,ld)` (X contiguous).
    const K_MAJOR: bool;
}
/// `(X,K):(_1,ld)`: X (M for A, N for B) is contiguous.
#[derive(Clone, Copy, Default)]
pub struct MnMajor;
/// `(X,K):(ld,_1)`: K is contiguous.
#[derive(Clone, Copy, Default)]
pub struct KMajor;
impl Major for MnMajor {
    const K_MAJOR: bool = false;
}
impl Major for KMajor {
    const K_MAJOR: bool = true;
}

const fn tuple2(a: i64, b: i64) -> IntTuple {
    IntTuple::pair(&IntTuple::st(a), &IntTuple::st(b))
}
const fn layout2(s0: i64, s1: i64, d0: i64, d1: i64) -> DynLayout {
    ok(DynLayout::new(tuple2(s0, s1), tuple2(d0, d1)))
}
/// `Step<_1,X>` / `Step<X,_1>` as values.
const fn step2(keep0: bool) -> IntTuple {
    if keep0 {
        IntTuple::pair(&IntTuple::st(1), &IntTuple::x())
    } else {
        IntTuple::pair(&IntTuple::x(), &IntTuple::st(1))
    }
}

/// The static side of one configuration: CTA tile `(BM,BN,BK)`, thread layout `(TX,TY)`.
pub struct Cfg<const BM: i64, const BN: i64, const BK: i64, const TX: i64, const TY: i64>;

impl<const BM: i64, const BN: i64, const BK: i64, const TX: i64, const TY: i64>
    Cfg<BM, BN, BK, TX, TY>
{
    /// Threads per CTA.
    pub const NT: i64 = TX * TY;
    /// The CTA tiler `(BM,BN,BK)`.
    const CTA: DynLayout = <MakeLayoutLeft<(Int<BM>, Int<BN>, Int<BK>)> as StaticLayout>::VALUE;
    /// `local_tile(A, cta_tiler, coord, Step<_1,X,_1>)`: the A tile's shape `(BM,BK)`.
    const A_TILE: FlatLayout =
        <Dice<(_1, X, _1), MakeLayoutLeft<(Int<BM>, Int<BN>, Int<BK>)>>>::FLAT;
    /// `Step<X,_1,_1>`: the B tile `(BN,BK)`.
    const B_TILE: FlatLayout =
        <Dice<(X, _1, _1), MakeLayoutLeft<(Int<BM>, Int<BN>, Int<BK>)>>>::FLAT;
    /// `Step<_1,_1,X>`: the C tile `(BM,BN)`.
    const C_TILE: FlatLayout =
        <Dice<(_1, _1, X), MakeLayoutLeft<(Int<BM>, Int<BN>, Int<BK>)>>>::FLAT;
    /// The compute thread layout, warp-tiled: `((8,TX/8),(4,TY/4)):((_1,_32),(_8,32·TX/8))`.
    /// A warp is an `8×4` grid of threads (lane = `tm + 8·tn`), warps tile the rest; with
    /// 4-wide strips per thread, a warp's A fragment reads 8 consecutive vectors (128 B) and
    /// its B fragment reads 4, so every `ld.shared.v4` is one conflict-free wavefront (the
    /// other lanes get broadcasts).
    const THR: DynLayout = {
        assert!(
            TX % 8 == 0 && TY % 4 == 0,
            "thread grid must tile 8x4 warps"
        );
        ok(DynLayout::new(
            IntTuple::pair(&tuple2(8, TX / 8), &tuple2(4, TY / 4)),
            IntTuple::pair(&tuple2(1, 32), &tuple2(8, 32 * (TX / 8))),
        ))
    };

    /// Leading dimension (floats) of the k-major smem tiles.
    const LDSA: i64 = Self::A_TILE.shape[0] + 4;
    const LDSB: i64 = Self::B_TILE.shape[0] + 4;
    /// `sA = (BM,BK):(_1,BM+4)`, `sB = (BN,BK):(_1,BN+4)`.
    const SA: DynLayout = layout2(Self::A_TILE.shape[0], Self::A_TILE.shape[1], 1, Self::LDSA);
    const SB: DynLayout = layout2(Self::B_TILE.shape[0], Self::B_TILE.shape[1], 1, Self::LDSB);
    /// Floats per smem stage (A then B).
    const STAGE: i64 = Self::SA.cosize().v + Self::SB.cosize().v;
    /// Dynamic shared memory bytes (two stages).
    pub const SMEM_BYTES: u32 = (2 * Self::STAGE * 4) as u32;

    /// thrA: `local_partition(zipped_divide(sA, (_4,_1))<1>, THR, tid, Step<_1,X>)`:
    /// value modes `(BM/(4·TX), BK)`, each a 4-wide vector along M.
    const THR_A: Partition = Partition::of(&Self::SA4.get(1), &Self::THR, Some(&step2(true)));
    const SA4: DynLayout = zd(&Self::SA, 4, 1);
    const THR_B: Partition = Partition::of(&Self::SB4.get(1), &Self::THR, Some(&step2(false)));
    const SB4: DynLayout = zd(&Self::SB, 4, 1);
    /// thrC: `local_partition(zipped_divide(C, (_4,_4))<1>, THR, tid)` on C's coordinates
    /// `(BM,BN):(_1,BM)`: value modes `(BM/(4·TX), BN/(4·TY))` of 4×4 blocks.
    const C4: DynLayout = zd(
        &layout2(
            Self::C_TILE.shape[0],
            Self::C_TILE.shape[1],
            1,
            Self::C_TILE.shape[0],
        ),
        4,
        4,
    );
    const THR_C: Partition = Partition::of(&Self::C4.get(1), &Self::THR, None);
    /// Accumulators per thread along M and N.
    pub const TM: usize = 4 * Self::JA;
    /// A and B 4-vectors per thread per k-step.
    const JA: usize = Self::THR_A.val.shape[0] as usize;
    const JB: usize = Self::THR_B.val.shape[0] as usize;
    pub const TN: usize = 4 * Self::JB;
    /// Compile-time consistency of the partitions (a violation is a compile error).
    const CHECK: () = {
        assert!(
            Self::THR_A.n as i64 * TX * 4 == BM * BK,
            "thrA must cover sA"
        );
        assert!(
            Self::THR_B.n as i64 * TY * 4 == BN * BK,
            "thrB must cover sB"
        );
        assert!(
            Self::THR_C.n * 16 * Self::NT as usize == (BM * BN) as usize,
            "thrC must cover C"
        );
        assert!(
            Self::THR_A.val.shape[1] == BK && Self::THR_B.val.shape[1] == BK,
            "k mode"
        );
        assert!(
            Self::TM * Self::TN <= 128,
            "too many accumulators per thread"
        );
    };
}

/// `zipped_divide(l, (v0, v1))`.
const fn zd(l: &DynLayout, v0: i64, v1: i64) -> DynLayout {
    match layout_types::algebra::Tiler::from_shape(&tuple2(v0, v1)) {
        Ok(t) => ok(layout_types::divide::zipped_divide(l, &t)),
        Err(e) => e.panic(),
    }
}

/// gmem → smem copy of one operand tile `(BX,BK)` (A: `BX = BM`, B: `BX = BN`) by `NT`
/// threads: the copy partition and this thread's registers and pointers.
struct Loader<M: Major, const BX: i64, const BK: i64, const NT: i64, const CNT: usize> {
    /// Per vector: pointer to its first element in the current k-tile.
    ptr: [*const f32; CNT],
    /// Per vector: global X of its first element (X-major) or its X (K-major).
    gx: [i32; CNT],
    /// Per vector: k within the tile of its first element.
    kk: [i32; CNT],
    /// Per vector: smem offset (floats) inside a stage.
    soff: [u32; CNT],
    regs: [Float4; CNT],
    _m: PhantomData<M>,
}

/// The copy partition of a `(BX,BK)` tile, on its coordinates `(BX,BK):(_1,BX)`.
#[doc(hidden)]
pub struct CopyPart<M: Major, const BX: i64, const BK: i64, const NT: i64>(PhantomData<M>);
impl<M: Major, const BX: i64, const BK: i64, const NT: i64> CopyPart<M, BX, BK, NT> {
    /// `zipped_divide(coords, vec)`: `(_4,_1)` along X or `(_1,_4)` along K.
    const Z: DynLayout = if M::K_MAJOR {
        zd(&layout2(BX, BK, 1, BX), 1, 4)
    } else {
        zd(&layout2(BX, BK, 1, BX), 4, 1)
    };
    /// Copy thread layout over the vector grid, fastest along the contiguous mode:
    /// MN-major `(BX/4, NT/(BX/4)):(_1, BX/4)`, K-major `(NT/(BK/4), BK/4):(BK/4, _1)`.
    const TL: DynLayout = if M::K_MAJOR {
        layout2(NT / (BK / 4), BK / 4, BK / 4, 1)
    } else {
        layout2(BX / 4, NT / (BX / 4), 1, BX / 4)
    };
    /// The copy partition (its `n`: vectors per thread).
    pub const P: Partition = Partition::of(&Self::Z.get(1), &Self::TL, None);
}

impl<M: Major, const BX: i64, const BK: i64, const NT: i64, const CNT: usize>
    Loader<M, BX, BK, NT, CNT>
{
    const CHECK: () = {
        assert!(
            CopyPart::<M, BX, BK, NT>::P.n == CNT,
            "CNT must equal the copy partition's size"
        );
        // The stores into the k-major smem tile `(BX,BK):(_1,BX+4)` are free of bank
        // conflicts: the copy thread layout over the tile's elements, 4-vectors along X
        // (one `st.shared.v4`) or along K (four transposing scalar stores).
        let (thr, val, vec) = if M::K_MAJOR {
            (
                layout2(NT / (BK / 4), BK / 4, BK / 4, 1),
                layout2(1, 4, 0, 1),
                1,
            )
        } else {
            (
                layout2(BX / 4, NT / (BX / 4), 1, BX / 4),
                layout2(4, 1, 1, 0),
                4,
            )
        };
        let tc = match make_tiled_copy(CopyAtom::new(CopyOp::Element, 4), &thr, &val) {
            Ok(tc) => tc,
            Err(e) => e.panic(),
        };
        let smem = layout2(BX, BK, 1, BX + 4);
        if let Err(e) = check_conflict_free(&tc, &smem, DynSwizzle::identity(), 4, vec) {
            e.panic()
        }
    };

    /// Sets up thread `tid`'s vectors for the tile at X offset `x0` of an operand with
    /// extents `(xs, ks)` and leading dimension `ld`, stored at `base`.
    #[inline(always)]
    fn new(base: *const f32, ld: i32, x0: i32, tid: i32, lds: i64) -> Self {
        let () = Self::CHECK;
        let p = const { CopyPart::<M, BX, BK, NT>::P };
        let toff = p.thr_offset(tid as i64);
        let mut ptr = [core::ptr::null::<f32>(); CNT];
        let mut gx = [0i32; CNT];
        let mut kk = [0i32; CNT];
        let mut soff = [0u32; CNT];
        unroll!(
            CNT,
            #[inline(always)]
            |j| {
                // coordinate index in (BX,BK):(_1,BX) of this thread's j-th vector
                let idx = toff + p.val.call(j as i64);
                let x = (idx % BX) as i32;
                let k = (idx / BX) as i32;
                gx[j] = x0 + x;
                kk[j] = k;
                let g = gx[j] as isize;
                let off = if M::K_MAJOR {
                    g * ld as isize + k as isize
                } else {
                    g + k as isize * ld as isize
                };
                ptr[j] = base.wrapping_offset(off);
                soff[j] = (x as i64 + k as i64 * lds) as u32;
            },
        );
        Loader {
            ptr,
            gx,
            kk,
            soff,
            regs: [Float4::default(); CNT],
            _m: PhantomData,
        }
    }

    /// Loads k-tile `kt` into registers; elements outside `(xs, ks)` become 0. `full`
    /// (a constant after inlining): the tile lies inside `(xs, ks)` and vectors are
    /// aligned, so every vector is loaded with no predicate.
    #[inline(always)]
    fn load(&mut self, kt: i32, xs: i32, ks: i32, ld: i32, vec_ok: bool, full: bool) {
        unroll!(
            CNT,
            #[inline(always)]
            |j| {
                let p = self.ptr[j];
                let x = self.gx[j];
                let k = kt * BK as i32 + self.kk[j];
                // The 4-vector runs along k (K-major operand) or along x (MN-major operand).
                let (dk, dx) = if M::K_MAJOR { (1, 0) } else { (0, 1) };
                let v = if full || (x + 3 * dx < xs && k + 3 * dk < ks && vec_ok) {
                    unsafe { ld_global_nc_v4_f32(p as *const Float4) }
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
                let step = if M::K_MAJOR {
                    BK as isize
                } else {
                    BK as isize * ld as isize
                };
                self.ptr[j] = p.wrapping_offset(step);
            },
        );
    }

    /// Stores the registers into the stage at shared address `stage` (bytes), k-major:
    /// one `st.shared.v4` (MN-major) or four transposing scalar stores (K-major).
    #[inline(always)]
    fn store(&self, stage: u32, lds: u32) {
        unroll!(
            CNT,
            #[inline(always)]
            |j| {
                let a = stage + 4 * self.soff[j];
                let v = self.regs[j];
                if M::K_MAJOR {
                    unsafe {
                        st_shared_f32(a, v.x);
                        st_shared_f32(a + 4 * lds, v.y);
                        st_shared_f32(a + 8 * lds, v.z);
                        st_shared_f32(a + 12 * lds, v.w);
                    }
                } else {
                    unsafe { st_shared_v4_f32(a, v) };
                }
            },
        );
    }
}

/// The generic kernel body. `CA`/`CB`: copy vectors per thread for A/B (checked against the
/// copy partitions at compile time); `NACC = TM·TN`.
///
/// Split-K: CTA `(x, y, z)` computes the k-range `[z·kc, min((z+1)·kc, K))` (`kc` a multiple
/// of `BK`; `kc >= K` and a grid of depth 1 is the plain GEMM). With `gridDim.z > 1` the
/// epilogue adds `alpha·acc` into C with `red.global.add.f32`, and C must already hold
/// `beta·C` (the host runs `sgemm_scale_c`, [`scale_c`], first).
///
/// # Safety
/// Launched with `TX·TY` threads, grid `(ceil(M/BM), ceil(N/BN), ceil(K/kc))` (x and y
/// swapped when `rast != 0`), `SMEM_BYTES`
/// of dynamic shared memory; `a`, `b`, `c` valid for the extents and leading dimensions
/// given (checked on the host).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn sgemm<
    MA: Major,
    MB: Major,
    const BM: i64,
    const BN: i64,
    const BK: i64,
    const TX: i64,
    const TY: i64,
    const NT: i64,
    const CA: usize,
    const CB: usize,
    const NACC: usize,
>(
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
    let () = Cfg::<BM, BN, BK, TX, TY>::CHECK;
    let () = const { assert!(NT == TX * TY && BK % 2 == 0) };
    let () =
        const { assert!(NACC == Cfg::<BM, BN, BK, TX, TY>::TM * Cfg::<BM, BN, BK, TX, TY>::TN) };
    let _ = const { Cfg::<BM, BN, BK, TX, TY>::CTA };
    let tid = thread_idx_x() as i32;
    // rasterization: `rast == 0`: blockIdx.x walks M (launch order M-fastest); else N.
    let (bx, by) = if rast == 0 {
        (block_idx_x(), block_idx_y())
    } else {
        (block_idx_y(), block_idx_x())
    };
    let m0 = bx as i32 * BM as i32;
    let n0 = by as i32 * BN as i32;
    let split = grid_dim_z() > 1;

    // this CTA's k-range: shift A and B to its start, K becomes the range's length
    let k0 = block_idx_z() as i32 * kc;
    let k = if k - k0 < kc { k - k0 } else { kc };
    let a = a.wrapping_offset(if MA::K_MAJOR {
        k0 as isize
    } else {
        k0 as isize * lda as isize
    });
    let b = b.wrapping_offset(if MB::K_MAJOR {
        k0 as isize
    } else {
        k0 as isize * ldb as isize
    });

    let lds_a = const { Cfg::<BM, BN, BK, TX, TY>::LDSA };
    let lds_b = const { Cfg::<BM, BN, BK, TX, TY>::LDSB };
    let mut la = Loader::<MA, BM, BK, NT, CA>::new(a, lda, m0, tid, lds_a);
    let mut lb = Loader::<MB, BN, BK, NT, CB>::new(b, ldb, n0, tid, lds_b);
    let va = lda % 4 == 0 && (a as usize) % 16 == 0;
    let vb = ldb % 4 == 0 && (b as usize) % 16 == 0;

    let smem = to_shared_addr(dynamic_shared_mem::<Float4>());
    let stage_bytes = const { Cfg::<BM, BN, BK, TX, TY>::STAGE as u32 * 4 };
    let sb_off = const { Cfg::<BM, BN, BK, TX, TY>::SA.cosize().v as u32 * 4 };

    // this thread's fragments: thrA / thrB offsets (floats) in a stage
    let pa = const { Cfg::<BM, BN, BK, TX, TY>::THR_A };
    let pb = const { Cfg::<BM, BN, BK, TX, TY>::THR_B };
    let a_frag0 = 4 * pa.thr_offset(tid as i64) as u32;
    let b_frag0 = sb_off + 4 * pb.thr_offset(tid as i64) as u32;
    let ja = Cfg::<BM, BN, BK, TX, TY>::JA; // A vectors per k

    // register fragments, double-buffered: [buffer][value]; buffer = kk % 2
    let mut af = [[0f32; 16]; 2];
    let mut bf = [[0f32; 16]; 2];
    // fragments of k-step `kk` of the stage at `sbase` into buffer `buf`
    let load_frags =
        #[inline(always)]
        |af: &mut [[f32; 16]; 2], bf: &mut [[f32; 16]; 2], sbase: u32, kk: usize, buf: usize| {
            unroll!(
                Cfg::<BM, BN, BK, TX, TY>::JA,
                #[inline(always)]
                |j| {
                    let v = unsafe {
                        ld_shared_v4_f32(
                            sbase + a_frag0 + 4 * pa.val_offset(&[j as i64, kk as i64]) as u32,
                        )
                    };
                    af[buf][4 * j] = v.x;
                    af[buf][4 * j + 1] = v.y;
                    af[buf][4 * j + 2] = v.z;
                    af[buf][4 * j + 3] = v.w;
                },
            );
            unroll!(
                Cfg::<BM, BN, BK, TX, TY>::JB,
                #[inline(always)]
                |j| {
                    let v = unsafe {
                        ld_shared_v4_f32(
                            sbase + b_frag0 + 4 * pb.val_offset(&[j as i64, kk as i64]) as u32,
                        )
                    };
                    bf[buf][4 * j] = v.x;
                    bf[buf][4 * j + 1] = v.y;
                    bf[buf][4 * j + 2] = v.z;
                    bf[buf][4 * j + 3] = v.w;
                },
            );
        };

    let mut acc = [0f32; NACC];
    let kt_n = if k > 0 {
        (k + BK as i32 - 1) / BK as i32
    } else {
        0
    };
    // Interior fast path: a CTA whose tile lies inside (M, N), whose k-range is a whole
    // number of k-tiles and whose operands take vector loads with no predicates (the main
    // loop is inlined twice, `full` a constant in each copy).
    let interior = m0 + BM as i32 <= m && n0 + BN as i32 <= n && k % BK as i32 == 0 && va && vb;
    let mut main_loop = #[inline(always)]
    |full: bool| {
        if kt_n > 0 {
            la.load(0, m, k, lda, va, full);
            lb.load(0, n, k, ldb, vb, full);
            la.store(smem, lds_a as u32);
            lb.store(smem + sb_off, lds_b as u32);
        }
        sync_threads();
        if kt_n > 0 {
            load_frags(&mut af, &mut bf, smem, 0, 0);
        }
        let mut stage = 0u32;
        let mut kt = 0;
        // Tile kt: global loads of tile kt+1 first (registers), then BK outer products;
        // before the last one, the staged tile goes to the other stage and one barrier
        // publishes it, so the last k-step's FFMAs overlap the first fragment loads of
        // tile kt+1. Stage reuse: stage s^1 is written in tile kt only after the barrier
        // that ended tile kt-1, its last reader.
        while kt < kt_n {
            let more = kt + 1 < kt_n;
            if more {
                la.load(kt + 1, m, k, lda, va, full);
                lb.load(kt + 1, n, k, ldb, vb, full);
            }
            let sbase = smem + stage * stage_bytes;
            let next = smem + (stage ^ 1) * stage_bytes;
            unroll!(
                BK as usize,
                #[inline(always)]
                |kk| {
                    let cur = kk % 2;
                    if kk + 1 < BK as usize {
                        load_frags(&mut af, &mut bf, sbase, kk + 1, cur ^ 1);
                    } else {
                        if more {
                            la.store(next, lds_a as u32);
                            lb.store(next + sb_off, lds_b as u32);
                        }
                        sync_threads();
                        if more {
                            load_frags(&mut af, &mut bf, next, 0, cur ^ 1);
                        }
                    }
                    let tm = 4 * ja;
                    unroll!(
                        4 * Cfg::<BM, BN, BK, TX, TY>::JB,
                        #[inline(always)]
                        |jn| {
                            unroll!(
                                4 * Cfg::<BM, BN, BK, TX, TY>::JA,
                                #[inline(always)]
                                |im| {
                                    acc[im + tm * jn] =
                                        af[cur][im].mul_add_fast(bf[cur][jn], acc[im + tm * jn]);
                                },
                            );
                        },
                    );
                },
            );
            stage ^= 1;
            kt += 1;
        }
    };
    if interior {
        main_loop(true);
    } else {
        main_loop(false);
    }

    // epilogue: thrC's 4x4 blocks; column n of a block is a 4-vector along M.
    let pc = const { Cfg::<BM, BN, BK, TX, TY>::THR_C };
    let cbase = pc.thr_offset(tid as i64);
    let vc = ldc % 4 == 0 && (c as usize) % 16 == 0;
    let tm = 4 * ja;
    unroll!(
        Cfg::<BM, BN, BK, TX, TY>::JB,
        #[inline(always)]
        |jn| {
            unroll!(
                Cfg::<BM, BN, BK, TX, TY>::JA,
                #[inline(always)]
                |jm| {
                    let idx = cbase + pc.val_offset(&[jm as i64, jn as i64]);
                    let gm = m0 + (idx % BM) as i32;
                    unroll!(
                        4,
                        #[inline(always)]
                        |vn| {
                            let gn = n0 + (idx / BM) as i32 + vn as i32;
                            if gn < n {
                                let r = |i: usize| acc[4 * jm + i + tm * (4 * jn + vn)];
                                let p = c.wrapping_offset(gm as isize + gn as isize * ldc as isize);
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
/// [`MnMajor`] / [`KMajor`]), CTA tile `$bm x $bn x $bk` and thread grid `$tx x $ty`, with the
/// copy and accumulator counts that follow from them. Expanded by the GEMM families
/// (`kernels/gemm_n`, `kernels/gemm_t`), each a PTX module of its own.
#[macro_export]
macro_rules! sgemm_entry {
    ($name:ident, $ma:ty, $mb:ty, $bm:literal, $bn:literal, $bk:literal, $tx:literal, $ty:literal) => {
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
                const CA: usize = $crate::CopyPart::<$ma, $bm, $bk, { $tx * $ty }>::P.n;
                const CB: usize = $crate::CopyPart::<$mb, $bn, $bk, { $tx * $ty }>::P.n;
                const NACC: usize = $crate::Cfg::<$bm, $bn, $bk, $tx, $ty>::TM
                    * $crate::Cfg::<$bm, $bn, $bk, $tx, $ty>::TN;
                unsafe {
                    $crate::sgemm::<$ma, $mb, $bm, $bn, $bk, $tx, $ty, { $tx * $ty }, CA, CB, NACC>(
                        m, n, k, kc, rast, alpha, a, lda, b, ldb, beta, c, ldc,
                    )
                }
            }
        }
    };
}
