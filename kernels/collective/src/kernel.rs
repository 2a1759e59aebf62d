//! The warp-specialized cooperative kernel schedule (CUTLASS's
//! `GemmUniversal<..., KernelTmaWarpSpecializedCooperative>`): one CTA of three warpgroups
//! computes 128 × 256 tiles of C. Warpgroup 0 is the producer (`setmaxnreg.dec 40`): one thread
//! runs the mainloop's [`load`](CollectiveMma::load)s; warpgroups 1 and 2 are the consumers
//! (`setmaxnreg.inc 232`), each the [`mma`](CollectiveMma::mma) of a 64 × 256 half, then the
//! epilogue's [`store`](CollectiveEpilogue::store). Persistent over the
//! [`PersistentTileScheduler`]'s tiles: the producer runs ahead into the next tile's k-tiles
//! while the consumers store the previous one. Clusters of 1 or 2 CTAs along M
//! (`%cluster_nctarank`, chosen at launch) share B's k-tiles through multicast.

use device::cluster::{
    block_rank_in_cluster, cluster_arrive_relaxed, cluster_grid_dim_x, cluster_id_x, cluster_size,
    cluster_wait,
};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{thread_idx_x, trap};
use device::tma::{TmaDescriptor, prefetch_descriptor};
use device::wgmma::{FenceOperand, MmaAsync, setmaxnreg_dec, setmaxnreg_inc};
use layout_types::cute::gmma_operand::{
    GemmSharedStorage, SmemOperand, SmemOperandMulticast, SmemTile,
};
use layout_types::cute::pipeline::PipelineTmaAsync;
use layout_types::cute::prelude::*;

use crate::epilogue::CollectiveEpilogue;
use crate::mainloop::CollectiveMma;
use crate::scheduler::{PersistentTileScheduler, TileScheduler};

/// Consumer warpgroups; each releases a stage with one arrival per CTA of the cluster (thread 0
/// of its warp `r` signals CTA `r` once the warpgroup's `wgmma`s have read the stage).
pub const CONSUMER_WARPGROUPS: u32 = 2;
/// Threads of a CTA: the producer warpgroup and the consumers.
pub const THREADS: u32 = 128 * (1 + CONSUMER_WARPGROUPS);
/// The CTA tile's M (rows of A and C).
pub const BM: i32 = 128;
/// The CTA tile's N (rows of B, columns of C).
pub const BN: i32 = 256;
/// Elements of A's stage tile (`128 × 64`).
pub const A_ELEMS: usize = 128 * 64;
/// Elements of B's stage tile (`256 × 64`).
pub const B_ELEMS: usize = 256 * 64;

/// The kernel's shared memory, one `#[repr(C)]` struct (CUTLASS's `SharedStorage`): the
/// mainloop's stages, the epilogue's storage, the pipeline's barriers. Its `size_of` is the
/// dynamic shared memory a launch asks for.
pub type SharedStorage<Epi, const STAGES: usize> = GemmSharedStorage<
    SmemTile<A_ELEMS>,
    SmemTile<B_ELEMS>,
    <Epi as CollectiveEpilogue>::Storage,
    STAGES,
>;

/// The kernel body: `C = epilogue(op(A)·op(B))` for C `(m, n)` and depth `k`, A and B through
/// their tensor maps `tma = (A, B)`, the cluster tiles in bands of `swizzle` N-tiles
/// ([`PersistentTileScheduler`]).
///
/// # Safety
/// Launched as the family documents: a 1-D grid of whole clusters of 1 or 2 CTAs, [`THREADS`]
/// threads, `size_of::<SharedStorage<Epi, STAGES>>()` bytes of dynamic shared memory (1024-byte
/// aligned: the kernel traps otherwise); the tensor maps hold `MA`'s and `MB`'s boxes (B's half
/// box with clusters of 2); `epi` as `Epi` requires.
#[inline(always)]
pub unsafe fn gemm_tma_warpspecialized_cooperative<
    E,
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<_256, _256>,
    Epi: CollectiveEpilogue,
    const STAGES: usize,
>(
    tma: (*const TmaDescriptor, *const TmaDescriptor),
    mnk: (i32, i32, i32),
    swizzle: i32,
    epi: Epi::Args,
) where
    [f32; 128]: MmaAsync<E> + FenceOperand,
{
    unsafe {
        gemm_tma_warpspecialized_cooperative_sched::<
            E,
            MA,
            MB,
            Epi,
            PersistentTileScheduler<BM, BN>,
            STAGES,
        >(tma, mnk, swizzle, epi)
    }
}

/// [`gemm_tma_warpspecialized_cooperative`] with the tile scheduler `Sched` (CUTLASS's
/// `GemmUniversal<..., TileScheduler>`): the producer loads and the consumers compute
/// [`Sched::work_tiles`](TileScheduler::work_tiles)'s units, each consumer warpgroup hands its
/// accumulators to [`Sched::fixup`](TileScheduler::fixup) and stores them when it says so.
/// `sched` is the scheduler's run-time arguments (the band of N-tiles; with
/// [`StreamKScheduler`](crate::scheduler::StreamKScheduler), its workspace).
///
/// # Safety
/// As [`gemm_tma_warpspecialized_cooperative`]; `sched` as `Sched` requires.
#[inline(always)]
pub unsafe fn gemm_tma_warpspecialized_cooperative_sched<
    E,
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<_256, _256>,
    Epi: CollectiveEpilogue,
    Sched: TileScheduler,
    const STAGES: usize,
>(
    tma: (*const TmaDescriptor, *const TmaDescriptor),
    (m, n, k): (i32, i32, i32),
    sched: Sched::Args,
    epi: Epi::Args,
) where
    [f32; 128]: MmaAsync<E> + FenceOperand,
{
    let smem = dynamic_shared_mem::<SharedStorage<Epi, STAGES>>();
    if to_shared_addr(smem as *mut u8) & 1023 != 0 {
        trap();
    }
    let tid = thread_idx_x() as i32;
    let mainloop = unsafe { (&raw mut (*smem).a, &raw mut (*smem).b) };
    // a cluster of `cs` CTAs (1, or 2 along M sharing B's tile through multicast)
    let (cs, rank) = (cluster_size(), block_rank_in_cluster());
    // full barriers: the producer's arrive_expect_tx (all of A and B land in every CTA); empty:
    // one arrival per consumer warpgroup of every CTA the stage is written into. The cluster
    // barrier makes the initialization visible to the other CTA's multicasts.
    let pipe = unsafe {
        PipelineTmaAsync::<STAGES, CollectiveMma<E, MA, MB, STAGES>>::init(
            &raw mut (*smem).pipeline,
            tid == 0,
            CONSUMER_WARPGROUPS * cs,
            || {
                cluster_arrive_relaxed();
                cluster_wait();
            },
        )
    };
    let k_tiles = k.ceil_div(64);
    let sched = Sched::init(
        (m, n),
        k_tiles,
        (cs as i32, rank as i32),
        (cluster_id_x() as i32, cluster_grid_dim_x() as i32),
        sched,
    );
    // (thread in warpgroup, warpgroup)
    let (t, wg): (i32, i32) = make_layout_left((_128, _3)).idx2crd(tid);
    if wg == 0 {
        // producer warpgroup: one thread streams the k-tiles through the ring
        setmaxnreg_dec::<40>();
        if t == 0 {
            unsafe {
                prefetch_descriptor(tma.0);
                prefetch_descriptor(tma.1);
            }
            let mut prod = pipe.producer();
            for w in sched.work_tiles() {
                let (mn0, _) = sched.tile_origin(w.tile);
                unsafe {
                    CollectiveMma::<E, MA, MB, STAGES>::load_k(
                        &mut prod,
                        mainloop,
                        tma,
                        mn0,
                        (w.k_begin, w.k_count),
                        k_tiles,
                        (cs, rank as i32),
                    )
                };
            }
            // the other CTA's consumers may still arrive on this CTA's empty barriers
            unsafe { prod.producer_tail() };
        }
        return;
    }
    setmaxnreg_inc::<232>();
    let wg = wg - 1; // consumer warpgroup: rows 64·wg.. of the CTA tile
    // thread 0 of warp r signals CTA r of the cluster
    let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
    let mut cons = pipe.consumer_cluster(lane == 0 && (warp as u32) < cs, warp as u32);
    for w in sched.work_tiles() {
        let ((m0, n0), _) = sched.tile_origin(w.tile);
        // SAFETY: all-zero bits are the f32 value 0.0 (an array literal would be a store loop
        // that keeps the accumulators in local memory).
        let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
        unsafe {
            CollectiveMma::<E, MA, MB, STAGES>::mma(&mut cons, mainloop, &mut acc, wg, w.k_count)
        };
        // a tile split over clusters: reduced, and stored by the cluster that finishes it
        if !unsafe { sched.fixup(&w, &mut acc, wg, t) } {
            continue;
        }
        // this warpgroup's 64 rows of the CTA tile: the (64, 2) split of its 128 rows
        let wg_m0 = m0 + make_layout_left((_64, _2)).crd2idx((0i32, wg)).value() as i32;
        unsafe {
            Epi::store(
                &epi,
                &acc,
                (m, n),
                (wg_m0, n0),
                t,
                &raw mut (*smem).epilogue,
                wg,
                sched.is_last_work(&w),
            )
        };
    }
}
