//! The warp-specialized cooperative kernel schedule (CUTLASS's
//! `GemmUniversal<..., KernelTmaWarpSpecializedCooperative>`, and with
//! [`GmmaFp8Accumulation`](crate::mainloop::GmmaFp8Accumulation) its
//! `KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum`): one CTA of three warpgroups
//! computes 128 × `BN` tiles of C (`BN` = 256, or 128 for the promoted FP8 mainloop). Warpgroup 0 is the producer (`setmaxnreg.dec 40`): one thread
//! runs the mainloop's [`load`](CollectiveMma::load)s; warpgroups 1 and 2 are the consumers
//! (`setmaxnreg.inc 232`), each the [`mma`](CollectiveMma::mma) of a 64 × `BN` half, then the
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
use crate::mainloop::{CollectiveMma, ConsumerOrder, MmaAccumulation, PlainAccumulation, TileN};
use crate::scheduler::{PersistentTileScheduler, TileScheduler};

/// Consumer warpgroups; each releases a stage with one arrival per CTA of the cluster (thread 0
/// of its warp `r` signals CTA `r` once the warpgroup's `wgmma`s have read the stage).
pub const CONSUMER_WARPGROUPS: u32 = 2;
/// Threads of a CTA: the producer warpgroup and the consumers.
pub const THREADS: u32 = 128 * (1 + CONSUMER_WARPGROUPS);
/// The CTA tile's M (rows of A and C).
pub const BM: i32 = 128;
/// Elements of A's stage tile (`128 × 64`).
pub const A_ELEMS: usize = 128 * 64;

/// The kernel's shared memory, one `#[repr(C)]` struct (CUTLASS's `SharedStorage`): the
/// mainloop's stages, the epilogue's storage, the pipeline's barriers. Its `size_of` is the
/// dynamic shared memory a launch asks for. B's stage tile is `BN`'s ([`TileN::BTile`]).
pub type SharedStorage<Epi, BN, const STAGES: usize> = GemmSharedStorage<
    SmemTile<A_ELEMS>,
    <BN as TileN>::BTile,
    <Epi as CollectiveEpilogue>::Storage,
    STAGES,
>;

/// The kernel body of the 16-bit (and unpromoted FP8) GEMM: `C = epilogue(op(A)·op(B))` for C
/// `(m, n)` and depth `k` in 128 × 256 tiles, A and B through their tensor maps
/// `tma = (A, B)`, the cluster tiles in bands of `swizzle` N-tiles
/// ([`PersistentTileScheduler`]): [`gemm_tma_warpspecialized_cooperative_sched`] with
/// [`PlainAccumulation`].
///
/// # Safety
/// Launched as the family documents: a 1-D grid of whole clusters of 1 or 2 CTAs, [`THREADS`]
/// threads, `size_of::<SharedStorage<Epi, _256, STAGES>>()` bytes of dynamic shared memory
/// (1024-byte aligned: the kernel traps otherwise); the tensor maps hold `MA`'s and `MB`'s
/// boxes (B's half box with clusters of 2); `epi` as `Epi` requires.
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
            _256,
            PlainAccumulation,
            Epi,
            PersistentTileScheduler<BM, 256>,
            STAGES,
        >(tma, mnk, swizzle, (), epi)
    }
}

/// The cooperative kernel body over 128 × `BN` tiles ([`TileN`]) with the accumulation `Acc`
/// ([`MmaAccumulation`]: plain, or FP8 promotion with block scales, its arguments `mma`) and
/// the tile scheduler `Sched` (CUTLASS's `GemmUniversal<..., TileScheduler>`): the producer
/// loads and the consumers compute [`Sched::work_tiles`](TileScheduler::work_tiles)'s units,
/// each consumer warpgroup hands its accumulators to [`Sched::fixup`](TileScheduler::fixup)
/// and stores them when it says so. `sched` is the scheduler's run-time arguments (the band of
/// N-tiles; with [`StreamKScheduler`](crate::scheduler::StreamKScheduler), its workspace).
///
/// The epilogue sees a warpgroup's accumulators as `m64n256` ([`TileN::to_m64n256`]): a
/// 128-wide tile as the first half with C's columns clipped at the tile's end, so its epilogue
/// must store by a bound-checked direct path (a TMA store of the second half would write the
/// next tile's columns).
///
/// # Safety
/// As [`gemm_tma_warpspecialized_cooperative`] with `size_of::<SharedStorage<Epi, BN,
/// STAGES>>()` bytes of shared memory and B's box of `BN/cs` rows; `sched` as `Sched`
/// requires, `mma` as `Acc` requires (block scales: the shapes
/// [`Fp8BlockScales`](crate::mainloop::Fp8BlockScales) documents).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_tma_warpspecialized_cooperative_sched<
    E,
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<BN, BN::BBlock>,
    BN: TileN,
    Acc: MmaAccumulation<BN::Frag>,
    Epi: CollectiveEpilogue,
    Sched: TileScheduler,
    const STAGES: usize,
>(
    tma: (*const TmaDescriptor, *const TmaDescriptor),
    (m, n, k): (i32, i32, i32),
    sched: Sched::Args,
    mma: Acc::Args,
    epi: Epi::Args,
) where
    BN::Frag: MmaAsync<E> + FenceOperand,
{
    let smem = dynamic_shared_mem::<SharedStorage<Epi, BN, STAGES>>();
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
        PipelineTmaAsync::<STAGES, CollectiveMma<E, MA, MB, BN, Acc, STAGES>>::init(
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
                    CollectiveMma::<E, MA, MB, BN, Acc, STAGES>::load_k(
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
    // the consumers take turns issuing when the accumulation asks (both run every work tile)
    let order = ConsumerOrder::new(wg, Acc::TURNS);
    for w in sched.work_tiles() {
        let ((m0, n0), _) = sched.tile_origin(w.tile);
        // this warpgroup's 64 rows of the CTA tile: the (64, 2) split of its 128 rows
        let wg_m0 = m0 + make_layout_left((_64, _2)).crd2idx((0i32, wg)).value() as i32;
        let mut frag = BN::zeroed();
        let mut accum = Acc::new(&mma, (wg, t), (wg_m0, n0), k_tiles);
        unsafe {
            CollectiveMma::<E, MA, MB, BN, Acc, STAGES>::mma(
                &mut cons,
                mainloop,
                &mut frag,
                &mut accum,
                &order,
                wg,
                (w.k_begin, w.k_count),
            )
        };
        let (mut acc, n_epi) = BN::to_m64n256(frag, n, n0);
        // a tile split over clusters: reduced, and stored by the cluster that finishes it
        if !unsafe { sched.fixup(&w, &mut acc, wg, t) } {
            continue;
        }
        unsafe {
            Epi::store(
                &epi,
                &acc,
                (m, n_epi),
                (wg_m0, n0),
                t,
                &raw mut (*smem).epilogue,
                wg,
                sched.is_last_work(&w),
            )
        };
    }
}
