//! The warp-specialized kernel schedules (CUTLASS's `GemmUniversal<..., KernelSchedule>`), one
//! kernel body for both, the schedule a type ([`KernelSchedule`]):
//!
//! - [`KernelTmaWarpSpecializedCooperative`] (`KernelTmaWarpSpecializedCooperative`, and with
//!   [`GmmaFp8Accumulation`](crate::mainloop::GmmaFp8Accumulation) its
//!   `KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum`): one CTA of three warpgroups
//!   computes 128 × `BN` tiles of C (`BN` = 256, or 128 for the promoted FP8 mainloop), both
//!   consumer warpgroups on every tile, each the [`mma`](CollectiveMma::mma) of a 64 × `BN`
//!   half, then the epilogue's [`store`](CollectiveEpilogue::store) of it.
//! - [`KernelTmaWarpSpecializedPingpong`] (CUTLASS's `KernelTmaWarpSpecializedPingpong`,
//!   `sm90_gemm_tma_warpspecialized_pingpong.hpp`): `BM` × `BN` tiles (64 × 256, or CUTLASS's
//!   128 × 128 with `KernelTmaWarpSpecializedPingpong<_128>`: two `m64` blocks per warpgroup,
//!   [`WarpgroupTile`]), each consumer warpgroup owning whole tiles, the two taking the CTA's
//!   tiles in turn; their mainloops run in turn ([`ConsumerOrder`]: one warpgroup issues a
//!   tile's `wgmma`s while the other runs the epilogue of its previous tile), so the epilogue
//!   no longer leaves the tensor cores idle.
//!
//! Warpgroup 0 is the producer (`setmaxnreg.dec 40`): its first warp runs the mainloop's
//! [`load`](CollectiveMma::load)s of every work tile in order (CUTLASS's producer warp: every
//! lane walks the tiles and stages, one elected lane issues; its first unit's first `STAGES`
//! k-tiles go out before the roles split, from code every warp has fetched); warpgroups 1 and 2 are the
//! consumers (`setmaxnreg.inc 232`). Persistent over the [`TileScheduler`]'s tiles: the
//! producer runs ahead into the next tile's k-tiles while the consumers finish the previous
//! one. Clusters of 1 or 2 CTAs along M (`%cluster_nctarank`, chosen at launch) share B's
//! k-tiles through multicast. Launched programmatically dependent (the host's default), the
//! kernel, once its barriers are initialized, waits for the previous one before any access to
//! global memory, then lets the next one start as its CTAs leave their SMs (CUTLASS's
//! `wait_on_dependent_grids` / `launch_dependent_grids`); a launch whose scheduler runs it
//! beside the kernel ahead ([`TileScheduler::waits_first`]) waits only before it exits.

use device::cluster::{
    block_rank_in_cluster, cluster_arrive_relaxed, cluster_id_x, cluster_size, cluster_wait,
    elect_one_sync,
};
use device::grid_dependency_control::{launch_dependent_grids, wait_on_dependent_grids};
use device::shared::{dynamic_shared_addr_of, dynamic_shared_mem};
use device::thread::{thread_idx_x, trap};
use device::tma::{TmaDescriptor, prefetch_tma_descriptor};
use device::warp::canonical_warp_idx_sync;
use device::wgmma::{MmaAsync, setmaxnreg_dec, setmaxnreg_inc};
use layout_types::cute::prelude::*;
use layout_types::cutlass::gmma_operand::{GemmSharedStorage, SmemOperand, StagedSharedStorage};
use layout_types::cutlass::pipeline::PipelineTmaAsync;

use crate::cluster::ClusterLoad;
use crate::epilogue::CollectiveEpilogue;
use crate::mainloop::{
    AccumulationStage, CollectiveMma, ConsumerOrder, MmaAccumulation, TileM, WarpgroupTile,
};
use crate::scheduler::{TileScheduler, WorkTile};
use crate::tile::TileN;
use crate::trace::{Kind, record};

/// Consumer warpgroups of a CTA (both schedules).
pub const CONSUMER_WARPGROUPS: u32 = 2;
/// Threads of a CTA: the producer warpgroup and the consumers.
pub const THREADS: u32 = 128 * (1 + CONSUMER_WARPGROUPS);
/// The cooperative CTA tile's M (rows of A and C).
pub const BM: i32 = 128;
/// The k-tile: K elements of A and B a pipeline stage holds, in 16-bit units (64 bf16 / f16,
/// or 128 FP8 elements, which the FP8 entries count in pairs). The host's scheduler parameters
/// are built from the entries' tiles, whose K the hgemm crate pins to this.
pub const BK: i32 = 64;
/// Elements of the cooperative schedule's A stage tile (`128 × 64`).
pub const A_ELEMS: usize = 128 * 64;

/// A kernel schedule (CUTLASS's `KernelSchedule` tag of `GemmUniversal`): how the two consumer
/// warpgroups share the work tiles. Every schedule runs one kernel body,
/// [`gemm_tma_warpspecialized`].
///
/// ```
/// use collective::kernel::*;
/// use collective::mainloop::TileM;
/// use layout_types::cute::prelude::*;
/// // cooperative: 128-row tiles, 64 rows a warpgroup, each stage read by both consumers
/// type C = KernelTmaWarpSpecializedCooperative;
/// assert_eq!((<<C as KernelSchedule>::TileM as TileM>::BM, C::STAGE_CONSUMERS, C::PINGPONG), (128, 2, false));
/// assert_eq!((C::m_block(0), C::m_block(1)), (0, 1));
/// // ping-pong: a warpgroup's whole tile (64 rows, or CUTLASS's 128), each stage read by the
/// // one consumer that owns its tile
/// type P = KernelTmaWarpSpecializedPingpong;
/// assert_eq!((<<P as KernelSchedule>::TileM as TileM>::BM, P::STAGE_CONSUMERS, P::PINGPONG), (64, 1, true));
/// assert_eq!((P::m_block(0), P::m_block(1)), (0, 0));
/// type P128 = KernelTmaWarpSpecializedPingpong<_128>;
/// assert_eq!(<<P128 as KernelSchedule>::WarpgroupM as TileM>::BM, 128);
/// ```
pub trait KernelSchedule {
    /// The CTA tile's M ([`TileM`]): A's stage tile.
    type TileM: TileM;
    /// The rows of the CTA tile one consumer warpgroup computes: with the CTA tile's N, its
    /// [`WarpgroupTile`] (`(WarpgroupM, BN)`).
    type WarpgroupM: TileM;
    /// Consumer warpgroups that read (and release) each pipeline stage: a stage's empty
    /// barrier waits for this many arrivals from every CTA of the cluster.
    const STAGE_CONSUMERS: u32;
    /// The consumer warpgroups take the work tiles in turn, one whole tile each, their
    /// mainloops in turn ([`ConsumerOrder`]); else both work on every tile.
    const PINGPONG: bool;
    /// The first 64-row block of the CTA tile (of A's stage tile) consumer warpgroup `wg`
    /// computes.
    fn m_block(wg: i32) -> i32;
}

/// The cooperative schedule: both consumer warpgroups on every 128-row tile, 64 rows each.
pub struct KernelTmaWarpSpecializedCooperative;
/// The ping-pong schedule: each consumer warpgroup owns whole tiles of `BM` rows (64, or 128 as
/// CUTLASS's ping-pong tile: two `m64` blocks along M), the two in turn.
pub struct KernelTmaWarpSpecializedPingpong<BM = _64>(core::marker::PhantomData<BM>);

impl KernelSchedule for KernelTmaWarpSpecializedCooperative {
    type TileM = _128;
    type WarpgroupM = _64;
    const STAGE_CONSUMERS: u32 = CONSUMER_WARPGROUPS;
    const PINGPONG: bool = false;
    #[inline(always)]
    fn m_block(wg: i32) -> i32 {
        wg
    }
}

impl<BM: TileM> KernelSchedule for KernelTmaWarpSpecializedPingpong<BM> {
    type TileM = BM;
    type WarpgroupM = BM;
    const STAGE_CONSUMERS: u32 = 1;
    const PINGPONG: bool = true;
    #[inline(always)]
    fn m_block(_: i32) -> i32 {
        0
    }
}

/// The [`WarpgroupTile`] of schedule `KS` with CTA tiles of N `BN`.
pub type ScheduleWarpgroupTile<KS, BN> = (<KS as KernelSchedule>::WarpgroupM, BN);

/// A schedule's shared memory, one `#[repr(C)]` struct (CUTLASS's `SharedStorage`): the
/// mainloop's stages (A's tile is the schedule's [`TileM::ATile`], B's `BN`'s
/// [`TileN::BTile`]), the epilogue's storage, the mainloop pipeline's barriers, then the
/// epilogue's ([`CollectiveEpilogue::PipelineStorage`]). Its `size_of` is the dynamic shared
/// memory a launch asks for.
pub type ScheduleSharedStorage<KS, Epi, BN, const STAGES: usize> = GemmSharedStorage<
    <<KS as KernelSchedule>::TileM as TileM>::ATile,
    <BN as TileN>::BTile,
    <Epi as CollectiveEpilogue>::Storage,
    STAGES,
    <Epi as CollectiveEpilogue>::PipelineStorage,
>;

/// The kernel's whole shared memory: the schedule's ([`ScheduleSharedStorage`]) and what the
/// accumulation `Acc` brings with each stage ([`AccumulationStage::Stage`]: FP8 block scales, or
/// nothing, `()`, when this is the schedule's storage's size). Its `size_of` is the launch's.
pub type KernelSharedStorage<KS, Epi, BN, Acc, const STAGES: usize> = StagedSharedStorage<
    ScheduleSharedStorage<KS, Epi, BN, STAGES>,
    <Acc as AccumulationStage>::Stage,
    STAGES,
>;

/// The cooperative schedule's shared memory ([`ScheduleSharedStorage`]).
pub type SharedStorage<Epi, BN, const STAGES: usize> =
    ScheduleSharedStorage<KernelTmaWarpSpecializedCooperative, Epi, BN, STAGES>;

/// The warp-specialized kernel body of schedule `KS` ([`KernelSchedule`]) over
/// `KS::TileM::BM` × `BN` tiles ([`TileM`], [`TileN`]) with the accumulation `Acc`
/// ([`MmaAccumulation`]: plain, or FP8 promotion with block scales, its arguments `mma`) and
/// the tile scheduler `Sched` (CUTLASS's `GemmUniversal<..., TileScheduler>`): the producer
/// loads and the consumers compute [`Sched::work_tiles`](TileScheduler::work_tiles)'s units,
/// each consumer warpgroup hands its accumulators to [`Sched::fixup`](TileScheduler::fixup)
/// and stores them when it says so. `sched` is the scheduler's parameters, which the host built
/// for this problem, tile, cluster and grid (the tile order, the grid's clusters; with
/// [`StreamKScheduler`](crate::scheduler::StreamKScheduler), the split and its workspace).
///
/// Ping-pong ([`KernelSchedule::PINGPONG`]): consumer warpgroup `wg` computes the CTA's work
/// units `wg, wg + 2, ...` and moves its pipeline state past the other's k-tiles
/// ([`skip`](layout_types::cutlass::pipeline::PipelineConsumer::skip)); it waits for its turn
/// before its tile's first stage (so its waits on the full barriers never meet a phase of the
/// other warpgroup's k-tiles: those have all landed), issues the tile's `wgmma`s, hands the
/// turn over with the last k-tile's still in flight
/// ([`mma_tail`](CollectiveMma::mma_tail) after), then runs its epilogue under the other
/// warpgroup's `wgmma`s. Its last tile (the cluster's last unit, or the one before it) drains
/// the epilogue's stores. A scheduler that splits tiles over clusters
/// ([`TileScheduler::SPLITS`]: its reduction pairs the warpgroups of the two clusters by index)
/// and turns inside a tile ([`MmaAccumulation::TURNS`]) are refused at compile time.
///
/// A consumer warpgroup computes the [`WarpgroupTile`] `(KS::WarpgroupM, BN)` of each tile it
/// works on; the epilogue sees its accumulators as `m64n256`
/// ([`WarpgroupTile::to_epilogue`]: a 64×128 tile as the first half with C's columns clipped
/// at the tile's end, so its epilogue must store by a bound-checked direct path; a 128×128
/// tile's two `m64` blocks with their 64-column halves interleaved, the epilogue's tile of 128
/// rows).
///
/// A kernel entry is one call: here a bf16 GEMM, A and B K-major, on 128 × 256 tiles of four
/// stages in the persistent order, its epilogue `F32Out` storing each warpgroup's 64 × 256
/// accumulators straight to a column-major f32 C (on the GPU only: TMA and `wgmma`).
///
/// ```no_run
/// use collective::cluster::ClusterM;
/// use collective::kernel::*;
/// use collective::mainloop::PlainAccumulation;
/// use collective::scheduler::PersistentTileScheduler;
/// use device::tma::TmaDescriptor;
/// use device::wgmma::{Bf16, MajorK};
/// use layout_types::cute::prelude::*;
/// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
/// # use collective::{epilogue::CollectiveEpilogue, mainloop::WarpgroupTile};
/// # use layout_types::cute::atom::mma::gmma_acc::acc_coord;
/// # struct F32Out;
/// # impl CollectiveEpilogue for F32Out {
/// #     type Args = *mut f32;
/// #     type Storage = [u8; 0];
/// #     type PipelineStorage = ();
/// #     unsafe fn store<W: WarpgroupTile>(c: &*mut f32, acc: &[f32; 128], (m, n): (i32, i32),
/// #         (m0, n0): (i32, i32), t: i32, _: *mut [u8; 0], _: *mut (), _: i32, _: bool, _: bool) {
/// #         for (v, &x) in acc.iter().enumerate() {
/// #             let (r, col) = acc_coord(t, v as i32);
/// #             let (r, col) = (m0 + r, n0 + col);
/// #             if r < m && col < n { unsafe { *c.add((r + m * col) as usize) = x } }
/// #         }
/// #     }
/// # }
/// type Sched = PersistentTileScheduler<128, 256>;
/// device::kernel! {
///     pub unsafe fn gemm(tma_a: TmaDescriptor, tma_b: TmaDescriptor, m: i32, n: i32, k: i32,
///                        sched: PersistentTileSchedulerParams, c: *mut f32) {
///         let tma = (device::grid_constant!(gemm, 0, tma_a), device::grid_constant!(gemm, 1, tma_b));
///         unsafe {
///             gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ClusterM, Bf16,
///                 MajorK, MajorK, _256, PlainAccumulation, F32Out, Sched, 4>(tma, (m, n, k), sched, (), c)
///         }
///     }
/// }
/// // launched with THREADS threads, clusters of 1 or 2 CTAs, and the kernel's shared storage:
/// type Smem = KernelSharedStorage<KernelTmaWarpSpecializedCooperative, F32Out, _256, PlainAccumulation, 4>;
/// assert_eq!(THREADS, 384);
/// assert!(core::mem::size_of::<Smem>() >= 4 * (128 + 256) * 64 * 2); // four stages of A and B
/// ```
///
/// # Safety
/// Launched as the family documents: a 1-D grid of whole clusters of 1 or 2 CTAs, [`THREADS`]
/// threads, `size_of::<KernelSharedStorage<KS, Epi, BN, Acc, STAGES>>()` bytes of dynamic shared
/// memory (1024-byte aligned: the kernel traps otherwise); the tensor maps hold `MA`'s (`BM`
/// rows) and `MB`'s boxes (`BN` rows), the operand the cluster shape `Cl` shares with `1/cs` of
/// its rows with clusters of `cs`; `sched` built for `Cl`'s cluster shape; `epi` as `Epi`
/// requires; `sched` as `Sched` requires, `mma` as `Acc` requires (block scales: the shapes
/// [`Fp8BlockScales`](crate::mainloop::Fp8BlockScales) documents).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_tma_warpspecialized<
    KS: KernelSchedule,
    Cl: ClusterLoad<MA, MB, KS::TileM, BN>,
    E,
    MA: SmemOperand<KS::TileM, _64>,
    MB: SmemOperand<BN, BN::BBlock>,
    BN: TileN,
    Acc: MmaAccumulation<<ScheduleWarpgroupTile<KS, BN> as WarpgroupTile>::Frag>,
    Epi: CollectiveEpilogue,
    Sched: TileScheduler,
    const STAGES: usize,
>(
    tma: (*const TmaDescriptor, *const TmaDescriptor),
    (m, n, k): (i32, i32, i32),
    sched: Sched::Params,
    mma: Acc::Args,
    epi: Epi::Args,
) where
    ScheduleWarpgroupTile<KS, BN>: WarpgroupTile,
    <ScheduleWarpgroupTile<KS, BN> as WarpgroupTile>::Block: MmaAsync<E>,
{
    type W<KS, BN> = ScheduleWarpgroupTile<KS, BN>;
    let () = Composes::<KS, Acc, Sched, <W<KS, BN> as WarpgroupTile>::Frag, STAGES>::OK;
    type Mainloop<KS, E, MA, MB, BN, Acc, const STAGES: usize> =
        CollectiveMma<E, MA, MB, <KS as KernelSchedule>::TileM, BN, Acc, STAGES>;
    let all = dynamic_shared_mem::<KernelSharedStorage<KS, Epi, BN, Acc, STAGES>>();
    if dynamic_shared_addr_of(all as *mut u8) & 1023 != 0 {
        trap();
    }
    let smem = unsafe { &raw mut (*all).gemm };
    let stages = unsafe { (&raw mut (*all).stages) as *mut <Acc as AccumulationStage>::Stage };
    let tid = thread_idx_x() as i32;
    let mainloop = unsafe { (&raw mut (*smem).a, &raw mut (*smem).b) };
    // a cluster of `cs` CTAs (1, or 2 along M sharing B's tile or along N sharing A's, through
    // multicast: `Cl`)
    let (cs, rank) = (cluster_size(), block_rank_in_cluster());
    // the epilogue's barriers first (CUTLASS's epilogue load pipeline): the mainloop pipeline's
    // fence and cluster barrier below publish them too
    if tid == 0 {
        unsafe { Epi::init(&raw mut (*smem).epilogue_pipeline) };
    }
    // full barriers: the producer's arrive_expect_tx (all of A and B land in every CTA); empty:
    // one arrival per consumer warpgroup reading the stage, from every CTA the stage is written
    // into. The cluster barrier makes the initialization visible to the other CTA's multicasts.
    let pipe = unsafe {
        PipelineTmaAsync::<STAGES, Mainloop<KS, E, MA, MB, BN, Acc, STAGES>>::init(
            &raw mut (*smem).pipeline,
            tid == 0,
            KS::STAGE_CONSUMERS * cs,
            || {
                cluster_arrive_relaxed();
                cluster_wait();
            },
        )
    };
    // the producer warp (CUTLASS's): the first warp of warpgroup 0 streams the k-tiles through
    // the ring; every lane walks the work tiles and stages, so their values are the warp's
    // (uniform registers), and the elected lane issues the barrier's arrival and the loads
    let producer_warp = unsafe { canonical_warp_idx_sync() } == 0;
    let leader = producer_warp && elect_one_sync();
    if leader {
        // the tensor maps are kernel parameters, not memory the previous kernel writes
        unsafe {
            prefetch_tma_descriptor(tma.0);
            prefetch_tma_descriptor(tma.1);
        }
    }
    // the barriers are ready: from here on global memory (operands, scales, C, the scheduler's
    // table and workspace), after the kernel before this one in the stream has finished
    // (CUTLASS's `wait_on_dependent_grids`; at once without a programmatic launch), unless the
    // scheduler's launch runs beside it
    let waits_first = Sched::waits_first(&sched);
    // the CTA trace's tag (a measuring build's; nothing otherwise): the tile's N, the bytes a
    // stage brings for the accumulation (FP8 block scales), whether tiles split, whether it waits
    let tag = BN::BN as u32
        | ((core::mem::size_of::<<Acc as AccumulationStage>::Stage>() as u32) << 12)
        | ((Sched::SPLITS as u32) << 30)
        | ((waits_first as u32) << 31);
    if tid == 0 {
        record(Kind::Start, 0, tag, cluster_id_x(), cs);
    }
    if waits_first {
        wait_on_dependent_grids();
        if tid == 0 {
            record(Kind::Waited, 0, tag, 0, 0);
        }
        // programmatic dependent launch (CUTLASS's `launch_dependent_grids`): the next kernel
        // in the stream may take each SM this grid's CTA leaves and run its prologue there, up
        // to its own `wait_on_dependent_grids` (every CTA holds a whole SM, so it lands on no
        // SM this grid still uses; doc/hopper-gemm.md "Programmatic dependent launch"). After
        // the wait: a kernel launched behind this one has every kernel before this one finished
        // (what a launch beside this one's last wave, which does not wait, relies on).
        // Without the wait first, the next kernel launches when this one's CTAs exit: all of
        // them started, so none waits for an SM the next one holds.
        launch_dependent_grids();
    }
    let k_tiles = k.ceil_div(BK);
    let sched = Sched::init(
        (m, n),
        k_tiles,
        (Cl::shape(cs as i32), Cl::coord(rank as i32)),
        cluster_id_x() as i32,
        sched,
    );
    // (thread in warpgroup, warpgroup)
    let (t, wg): (i32, i32) = make_layout_left((_128, _3)).idx2crd(tid);
    let mut prod = pipe.producer_warp(leader);
    let load = #[inline(always)]
    |prod: &mut _, w: WorkTile| {
        let (mn0, _) = sched.tile_origin(w.tile);
        unsafe {
            Mainloop::<KS, E, MA, MB, BN, Acc, STAGES>::load_k::<
                Cl,
                _,
                _,
                <W<KS, BN> as WarpgroupTile>::Frag,
            >(
                prod,
                mainloop,
                tma,
                (stages, &mma),
                mn0,
                (w.k_begin, w.k_count),
                k_tiles,
                (cs, rank as i32),
            )
        }
    };
    // its first unit's first `STAGES` k-tiles (every stage is empty) go out here, before the
    // roles split: this code's instructions are fetched already, the producer's branch is
    // reached by a jump to cold ones (about 1.4 µs of a one-tile GEMM; doc/hopper-gemm.md
    // "The first loads from the prologue")
    let first = sched.work_tiles().next().map(|w| w.k_head(STAGES as i32));
    if producer_warp && let Some(w) = first {
        load(&mut prod, w);
    }
    if wg == 0 {
        // producer warpgroup: the producer warp goes on from there
        setmaxnreg_dec::<40>();
        if producer_warp {
            let mut issued = first.map_or(0, |w| w.k_count);
            for w in sched.work_tiles() {
                load(&mut prod, w.k_tail(issued));
                issued = 0;
            }
            // the other CTA's consumers may still arrive on this CTA's empty barriers
            unsafe { prod.producer_tail() };
            if !waits_first {
                // the CTA ends after the kernel ahead: the next kernel's wait covers both
                wait_on_dependent_grids();
            }
            if leader {
                record(Kind::ProducerEnd, 0, tag, 0, 0);
            }
        }
        return;
    }
    setmaxnreg_inc::<232>();
    let wg = wg - 1; // consumer warpgroup 0 or 1
    // thread 0 of warp r signals CTA r of the cluster
    let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
    let mut cons = pipe.consumer_cluster(lane == 0 && (warp as u32) < cs, warp as u32);
    // the consumers' turns: ping-pong, whole tiles' mainloops; cooperative, each k-tile's
    // `wgmma`s when the accumulation asks (both then run every work tile)
    let turns = ConsumerOrder::new(wg, KS::PINGPONG || Acc::TURNS);
    let k_turns = if KS::PINGPONG {
        ConsumerOrder::new(wg, false)
    } else {
        turns
    };
    // this warpgroup's rows of the CTA tile: the 64-row block of the (64, BM/64) split
    let block = KS::m_block(wg);
    // the CTA trace's records of this warpgroup, by its first thread (nothing in a default build)
    let trace = |kind: Kind, a: u32, b: u32| {
        if t == 0 {
            record(kind, wg as u32, tag, a, b);
        }
    };
    // where the epilogue's source is requested under a whole tile's mainloop: at k-tile
    // k·(2 + c)/8, c the cluster's place in four, so a wave's requests of C spread over the
    // middle of the mainloop (2/8 to 5/8) rather than every CTA's at k/2 at once (H100 run
    // s78v: bf16 4096³ `beta 1` 0.96 → 0.99 of cuBLAS)
    let (source_eighth, _): (i32, i32) =
        make_layout_left((_4, 1 << 24)).idx2crd(cluster_id_x() as i32);
    let source_eighth = 2 + source_eighth;
    for u in consumer_units::<KS, _>(sched.work_tiles(), wg) {
        let w = u.work;
        if !u.owned {
            // the other warpgroup's tile: its k-tiles' stages are not this one's to read
            cons.skip(w.k_count as u32);
            continue;
        }
        let ((m0, n0), _) = sched.tile_origin(w.tile);
        let wg_m0 = m0 + make_layout_left((_64, _2)).crd2idx((0i32, block)).value() as i32;
        trace(
            Kind::Unit,
            w.tile as u32,
            (w.k_begin as u32) | ((w.k_count as u32) << 16),
        );
        let mut frag = W::<KS, BN>::zeroed();
        let mut accum = Acc::new(&mma, (block, t), (wg_m0, n0), k_tiles);
        // ping-pong: this tile's mainloop in this warpgroup's turn (before its first stage)
        if KS::PINGPONG {
            turns.wait();
        }
        // the epilogue's source (C, where it reads one) requested in the middle of a whole
        // tile's mainloop (`source_eighth`), under its `wgmma`s (a split tile's epilogue may not
        // run here: it loads its own): the previous tile's stores have long read the buffers it
        // lands in, and it lands long before the epilogue (at the epilogue's start, C's latency
        // stood before the first chunk: doc/hopper-gemm.md "C's tile under the mainloop").
        // Nothing is held across the mainloop but whether it ran, which the unit says again
        // after it.
        let requested = |w: &WorkTile| w.k_begin == 0 && w.k_count == k_tiles && w.k_count > 0;
        let mut load_source = #[inline(always)]
        || unsafe {
            Epi::load::<W<KS, BN>>(
                &epi,
                (m, n),
                (wg_m0, n0),
                t,
                &raw mut (*smem).epilogue,
                &raw mut (*smem).epilogue_pipeline,
                wg,
            )
        };
        let tail = unsafe {
            Mainloop::<KS, E, MA, MB, BN, Acc, STAGES>::mma::<W<KS, BN>, _, _>(
                &mut cons,
                mainloop,
                stages,
                &mut frag,
                &mut accum,
                &k_turns,
                block,
                (w.k_begin, w.k_count),
                (
                    if requested(&w) {
                        w.k_count * source_eighth / 8
                    } else {
                        -1
                    },
                    &mut load_source,
                ),
            )
        };
        // the other warpgroup's turn, this tile's last k-tile still in flight; this
        // warpgroup's epilogue runs under the other's `wgmma`s
        if KS::PINGPONG {
            turns.arrive();
        }
        unsafe {
            Mainloop::<KS, E, MA, MB, BN, Acc, STAGES>::mma_tail::<W<KS, BN>>(
                &mut cons, &mut frag, tail,
            )
        };
        trace(Kind::MmaDone, w.tile as u32, 0);
        let (mut acc, n_epi) = W::<KS, BN>::to_epilogue(frag, n, n0);
        // a tile split over clusters: reduced, and stored by the cluster that finishes it
        let stores = unsafe { sched.fixup(&w, &mut acc, wg, t, Acc::FIXUP_ORDER) };
        trace(Kind::FixupDone, w.tile as u32, stores as u32);
        if !stores {
            continue;
        }
        let last = u.is_last::<KS, _>(&sched);
        unsafe {
            Epi::store::<W<KS, BN>>(
                &epi,
                &acc,
                (m, n_epi),
                (wg_m0, n0),
                t,
                &raw mut (*smem).epilogue,
                &raw mut (*smem).epilogue_pipeline,
                wg,
                last,
                requested(&w),
            )
        };
        trace(Kind::Stored, w.tile as u32, 0);
    }
    trace(Kind::End, 0, 0);
}

/// A work unit as a consumer warpgroup sees it ([`consumer_units`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConsumerUnit {
    /// The unit.
    pub work: WorkTile,
    /// Whether this warpgroup computes it (else it skips the unit's stages).
    pub owned: bool,
    /// The cluster's next unit, if any.
    pub next: Option<WorkTile>,
}

impl ConsumerUnit {
    /// Whether this is the warpgroup's last unit whose epilogue runs (its asynchronous stores
    /// must drain): the cluster's last unit, or with ping-pong the one before it (the other
    /// warpgroup takes the last).
    ///
    /// ```
    /// use collective::kernel::*;
    /// use collective::scheduler::{PersistentTileScheduler, TileScheduler};
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // 5 tiles of 64 × 256 on one cluster
    /// let p = PersistentTileSchedulerParams::new((320, 256), (64, 256), (1, 1), 1, 1).unwrap();
    /// let s = PersistentTileScheduler::<64, 256>::init((320, 256), 4, ((1, 1), (0, 0)), 0, p);
    /// fn lasts<KS: KernelSchedule>(s: &PersistentTileScheduler<64, 256>, wg: i32) -> Vec<i32> {
    ///     consumer_units::<KS, _>(s.work_tiles(), wg)
    ///         .filter(|u| u.owned && u.is_last::<KS, _>(s))
    ///         .map(|u| u.work.tile)
    ///         .collect()
    /// }
    /// // ping-pong: warpgroup 0 takes tiles 0, 2, 4, warpgroup 1 tiles 1, 3
    /// assert_eq!(lasts::<KernelTmaWarpSpecializedPingpong>(&s, 0), [4]);
    /// assert_eq!(lasts::<KernelTmaWarpSpecializedPingpong>(&s, 1), [3]);
    /// // cooperative: both on every tile, the last the cluster's
    /// assert_eq!(lasts::<KernelTmaWarpSpecializedCooperative>(&s, 1), [4]);
    /// ```
    #[inline(always)]
    pub fn is_last<KS: KernelSchedule, S: TileScheduler>(&self, sched: &S) -> bool {
        sched.is_last_work(&self.work)
            || (KS::PINGPONG && self.next.is_none_or(|u| sched.is_last_work(&u)))
    }
}

/// The cluster's work units `units` as consumer warpgroup `wg` of schedule `KS` sees them:
/// cooperative, all its own; ping-pong, the units alternate between the two consumers,
/// warpgroup 0 first.
///
/// ```
/// use collective::kernel::*;
/// use collective::scheduler::WorkTile;
/// let units = (0..5).map(|tile| WorkTile { tile, k_begin: 0, k_count: 3 });
/// let own = |wg| consumer_units::<KernelTmaWarpSpecializedPingpong, _>(units.clone(), wg)
///     .filter(|u| u.owned).map(|u| u.work.tile).collect::<Vec<_>>();
/// assert_eq!((own(0), own(1)), (vec![0, 2, 4], vec![1, 3]));
/// let all = consumer_units::<KernelTmaWarpSpecializedCooperative, _>(units.clone(), 1);
/// assert!(all.map(|u| u.owned).all(|o| o));
/// ```
#[inline(always)]
pub fn consumer_units<KS: KernelSchedule, I: Iterator<Item = WorkTile>>(
    units: I,
    wg: i32,
) -> impl Iterator<Item = ConsumerUnit> {
    let mut units = units.peekable();
    let mut mine = !KS::PINGPONG || wg == 0;
    core::iter::from_fn(move || {
        let work = units.next()?;
        let owned = mine;
        if KS::PINGPONG {
            mine = !mine;
        }
        Some(ConsumerUnit {
            work,
            owned,
            next: units.peek().copied(),
        })
    })
}

/// What a schedule composes with (a compile-time check): ping-pong neither with a scheduler
/// that splits tiles over clusters nor with turns inside a tile; an accumulation whose stages
/// come in groups only where every group starts on a stage index ≡ 0 (mod its size).
pub struct Composes<KS, Acc, Sched, F, const STAGES: usize>(
    core::marker::PhantomData<(KS, Acc, Sched, F)>,
);
impl<KS: KernelSchedule, Acc: MmaAccumulation<F>, Sched: TileScheduler, F, const STAGES: usize>
    Composes<KS, Acc, Sched, F, STAGES>
{
    /// `!(KS::PINGPONG && (Sched::SPLITS || Acc::TURNS))`, and where the accumulation's stages
    /// come in groups (`Acc::K_GROUP > 1`): whole k-ranges (a group starts at a tile's first
    /// k-tile), the quad schedule (whose queue slot 0 is a group's first k-tile) and `STAGES`
    /// a multiple of the group (the prologue's first `STAGES` k-tiles and every tile fill
    /// whole groups of stages, given K in whole groups: the host's check).
    pub const OK: () = {
        assert!(
            !(KS::PINGPONG && (Sched::SPLITS || Acc::TURNS)),
            "KernelTmaWarpSpecializedPingpong: a data-parallel tile scheduler (no split tiles) and an accumulation without turns"
        );
        assert!(
            Acc::K_GROUP == 1 || !Sched::SPLITS,
            "MmaAccumulation::K_GROUP > 1: a data-parallel tile scheduler (whole k-ranges: a group of stages starts at a tile's first k-tile)"
        );
        assert!(
            Acc::K_GROUP == 1 || (Acc::QUAD && STAGES.is_multiple_of(Acc::K_GROUP as usize)),
            "MmaAccumulation::K_GROUP > 1: the quad schedule (MmaAccumulation::QUAD, whose queue slot 0 is a group's first k-tile) and STAGES a multiple of K_GROUP"
        );
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{vec, vec::Vec};

    use super::*;
    use layout_types::cutlass::pipeline::PipelineState;

    /// Ping-pong: the two consumer warpgroups' pipeline positions (the k-tiles each waits for,
    /// its state moved past the other's with `advance_by`) are the producer's fill order, each
    /// k-tile read by one warpgroup; each warpgroup drains its stores on its last tile only.
    #[test]
    fn pingpong_consumers_read_each_stage_once_in_the_producers_order() {
        for (mn, k_tiles, (cs, rank), step) in [
            ((8192, 8192), 128, (2, 1), 66),
            ((4096, 4096), 64, (2, 0), 66),
            ((1000, 600), 5, (1, 0), 4),
            ((200, 300), 0, (1, 0), 3),
            ((64, 256), 7, (1, 0), 1),
            ((128, 256), 3, (2, 0), 1),
        ] {
            let p = layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams::new(
                mn,
                (64, 256),
                (cs, 1),
                step,
                8,
            )
            .unwrap();
            for first in 0..step {
                let s = crate::scheduler::PersistentTileScheduler::<64, 256>::init(
                    mn,
                    k_tiles,
                    ((cs, 1), (rank, 0)),
                    first,
                    p,
                );
                let units: Vec<WorkTile> = s.work_tiles().collect();
                let total: i32 = units.iter().map(|w| w.k_count).sum();
                let mut seen = vec![0u8; total as usize];
                for wg in 0..2 {
                    let mut st = PipelineState::<4>::new(0);
                    let mut lasts = Vec::new();
                    let mut owned = Vec::new();
                    for u in
                        consumer_units::<KernelTmaWarpSpecializedPingpong, _>(s.work_tiles(), wg)
                    {
                        if !u.owned {
                            st.advance_by(u.work.k_count as u32);
                            continue;
                        }
                        owned.push(u.work.tile);
                        for _ in 0..u.work.k_count {
                            // the producer's fill `c` goes to stage c mod 4, round c / 4
                            let c = st.count();
                            assert_eq!((st.index(), st.phase()), (c % 4, (c / 4) & 1));
                            seen[c as usize] += 1;
                            st.advance();
                        }
                        if u.is_last::<KernelTmaWarpSpecializedPingpong, _>(&s) {
                            lasts.push(u.work.tile);
                        }
                    }
                    assert_eq!(lasts, owned.last().copied().into_iter().collect::<Vec<_>>());
                }
                assert!(seen.iter().all(|&n| n == 1), "{mn:?} cluster {first}");
            }
        }
    }

    /// Ping-pong with an accumulation whose stages come in groups of four
    /// (`GmmaFp8AccumulationStagedQuad4`, 8 stages) and K in whole fours of k-tiles (the host's
    /// condition for it): a warpgroup moves past the other's tile by its k-tiles, so every
    /// tile's first k-tile takes a stage whose index is a multiple of 4 and each k-tile is
    /// read once, by the warpgroup of its tile; and K not in whole fours would break that.
    #[test]
    fn pingpong_groups_of_four_start_on_aligned_stages() {
        for (mn, k_tiles, step, aligned) in [
            ((1000, 2000), 8, 132, true),
            ((256, 7168), 64, 132, true),
            ((256, 1024), 4, 7, true),
            ((128, 7168), 128, 132, true),
            ((192, 640), 12, 3, true),
            ((1000, 2000), 9, 132, false),
            ((256, 1024), 6, 7, false),
        ] {
            let mut all_aligned = true;
            let p = layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams::new(
                mn,
                (64, 128),
                (1, 1),
                step,
                8,
            )
            .unwrap();
            for first in 0..step.min(8) {
                let s = crate::scheduler::PersistentTileScheduler::<64, 128>::init(
                    mn,
                    k_tiles,
                    ((1, 1), (0, 0)),
                    first,
                    p,
                );
                // the producer's fills: each unit's k-tiles
                let mut fills: Vec<(i32, i32)> = Vec::new();
                for w in s.work_tiles() {
                    assert_eq!(w.k_count, k_tiles, "whole k-ranges");
                    fills.extend((0..w.k_count).map(|kt| (w.tile, kt)));
                }
                let mut seen = vec![0u8; fills.len()];
                for wg in 0..2 {
                    let mut st = PipelineState::<8>::new(0);
                    for u in
                        consumer_units::<KernelTmaWarpSpecializedPingpong, _>(s.work_tiles(), wg)
                    {
                        if !u.owned {
                            st.advance_by(u.work.k_count as u32);
                            continue;
                        }
                        // the group's box lands in the stage's and the next three's scales
                        all_aligned &= st.index() % 4 == 0;
                        for i in 0..u.work.k_count {
                            let c = st.count() as usize;
                            assert_eq!(fills[c], (u.work.tile, i), "{mn:?} k-tiles {k_tiles}");
                            seen[c] += 1;
                            st.advance();
                        }
                    }
                }
                assert!(
                    seen.iter().all(|&n| n == 1),
                    "{mn:?} k-tiles {k_tiles} first {first}"
                );
            }
            assert_eq!(all_aligned, aligned, "{mn:?} k-tiles {k_tiles}");
        }
    }
}
