//! The Hopper GEMM kernels' library (issues #26, #34, #37): what the GEMM families share — the
//! configuration the kernels and the host share ([`config`]), the epilogues ([`HgemmEpilogue`],
//! [`FusedEpilogue`], [`DirectEpilogue`]; the [`epilogue`] module), the tile schedulers' and
//! accumulations' aliases with their checks against the configuration, and the macros that
//! declare entries ([`hgemm_entry!`], [`hgemm_pingpong_entry!`]: entry points, no kernel body).
//! Two families instantiate them, each its own PTX module, so that their fat-LTO builds run side
//! by side: `kernels/hgemm` (bf16/fp16 inputs, `hgemm.ptx`) and `kernels/hgemm_fp8` (e4m3/e5m2
//! inputs, `hgemm_fp8.ptx`); the host finds an entry in whichever module holds it.
//!
//! The GEMM is `C = alpha·op(A)·op(B) + beta·C`, column-major as BLAS, fp32 accumulation, C
//! stored as f32, bf16 or f16 (chosen at run time).
//!
//! The kernel is CUTLASS 3's composition, from the `collective` crate: the cooperative
//! warp-specialized schedule ([`gemm_tma_warpspecialized`](collective::kernel::gemm_tma_warpspecialized) with [`KernelTmaWarpSpecializedCooperative`](collective::kernel::KernelTmaWarpSpecializedCooperative)) over the TMA + GMMA
//! mainloop collective, the persistent tile scheduler and this library's epilogue
//! ([`HgemmEpilogue`], the [`epilogue`] module); each entry is one line instantiating it for an
//! element and the majorities of A and B.
//!
//! Warp-specialized: one CTA of three warpgroups (384 threads) computes a 128×256 tile of C.
//! Warpgroup 0 is the producer (`setmaxnreg.dec 40`): one of its threads loads 128×64 of A and
//! 256×64 of B per k-tile with TMA into a 3-stage ring of shared-memory buffers driven by the
//! typed [`PipelineTmaAsync`](layout_types::cutlass::pipeline::PipelineTmaAsync) (full barriers: TMA transaction bytes; empty barriers: one
//! arrival per consumer warpgroup and CTA of the cluster). Warpgroups 1 and 2 are the consumers
//! (`setmaxnreg.inc 232`), each on a 64×256 half through `wgmma.mma_async m64n256k16` with A
//! and B from shared memory (SS); the `wgmma`s of k-tile `kt` overlap the loads of the next
//! stages, and the stage of `kt − 1` is released once `wgmma.wait_group 1` says its reads are
//! done. A tile's first `wgmma` has scale-d 0.
//!
//! Clusters of `cs` = 1 or 2 CTAs along M (`%cluster_nctarank`, chosen at launch): the two CTAs
//! of a cluster compute vertically adjacent tiles that share B's k-slabs; each loads its own A
//! and half of B, multicasting that half into both CTAs (mask `0b11`), so each stage's full
//! barrier receives the whole stage and its empty barrier waits for the consumers of both CTAs
//! ([`PipelineTmaAsync::consumer_cluster`](layout_types::cutlass::pipeline::PipelineTmaAsync::consumer_cluster)). The producer ends with `producer_tail`.
//!
//! Shared-memory tiles are CuTe's GMMA atoms tiled by `tile_to_shape`: K-major operands
//! `Layout_K_SW128_Atom` (one TMA box of `64 (K) × rows`), MN-major operands
//! `Layout_MN_SW128_Atom` in K-then-MN order (`Step<_2,_1>`, one TMA box of `64 (MN) × 64 (K)`
//! per 64 rows), both matching TMA's 128-byte swizzle; `make_gmma_desc_tensor` gives the
//! `wgmma` descriptors. Out-of-range rows and columns of A and B load as zero (TMA), so any
//! M, N, K works; the [`epilogue`] stores C through shared memory and TMA, or directly.
//!
//! Persistent: the cluster tiles of C ((128·cs) × 256, in [`SwizzledRaster`](layout_types::cutlass::tile_scheduler::SwizzledRaster) order)
//! are dealt out round-robin, tile `cluster`, `cluster + clusters`, ...; the producer runs ahead
//! into the next tile's k-tiles while the consumers store the previous one. When the tiles do
//! not fill the last wave and the host gives a workspace ([`HgemmParams::sched`]), the
//! last `tiles % clusters + clusters` tiles are shared out by k-tiles instead ([`Scheduler`]:
//! data-parallel + stream-K; the plain, fused and fast FP8 entries), a tile split between two
//! clusters reduced through the workspace. [`Scheduler`] (since session 28 for the 16-bit
//! entries too) and the promoted FP8 entries' [`SchedulerFp8Promoted`] also split every tile
//! over several clusters when the host launches more clusters than tiles (small M:
//! [`config::split_k_clusters`]).
//! A grid of one cluster per tile is the non-persistent kernel.
//!
//! Launch: a 1-D grid of whole clusters (`cuLaunchKernelEx`, cluster dimension `(cs, 1, 1)`),
//! at most one CTA per SM (the shared memory allows one), 384 threads, [`SMEM_BYTES`] of dynamic
//! shared memory (`size_of` the [`SharedStorage`]) (1024-byte aligned: the kernel traps otherwise); B's tensor map with boxes of
//! `256/cs` rows (K-major B) or 64×64 (MN-major B).
#![no_std]
// `#[inline(always)]` closures in the epilogue
#![feature(stmt_expr_attributes)]

pub mod config;
pub mod epilogue;

/// What an entry declared by [`hgemm_entry!`] or [`hgemm_pingpong_entry!`] names: this crate's
/// items and the collectives, elements and majorities the macros instantiate (a family's
/// `use hgemm_kernel::prelude::*;`).
///
/// ```text
/// use hgemm_kernel::prelude::*;
/// hgemm_entry!(hgemm_bf16_tn, Bf16, MajorK, MajorK);
/// ```
pub mod prelude {
    pub use crate::*;
    pub use crate::{config, hgemm_entry, hgemm_pingpong_entry};
    pub use collective::cluster::ClusterM;
    pub use collective::kernel::{KernelTmaWarpSpecializedCooperative, gemm_tma_warpspecialized};
    pub use collective::mainloop::{
        Fp8StagedScales, GmmaFp8Accumulation, GmmaFp8AccumulationQuad, GmmaFp8AccumulationStaged,
        PlainAccumulation,
    };
    pub use device::tma::TmaDescriptor;
    pub use device::wgmma::{Bf16, E4M3, E5M2, F16, MajorK, MajorMN};
    pub use layout_types::cute::prelude::*;
    pub use layout_types::cutlass::fusion::act;
}

use collective::epilogue::CollectiveEpilogue;
use collective::mainloop::WarpgroupTile;
use collective::mainloop::{Fp8BlockScales, GmmaFp8Accumulation, PlainAccumulation};
use collective::mainloop::{GmmaFp8AccumulationStaged, GmmaFp8AccumulationStagedWide};
use collective::scheduler::{FixupSlot, PersistentTileScheduler, StreamKScheduler, TileScheduler};
use collective::tile::TileN;
use device::mbarrier::SmemBarrier;
use device::tma::TmaDescriptor;
use epilogue::{ELEMS_ALL, ELEMS_BF16};
use layout_types::cute::prelude::*;
use layout_types::cutlass::fusion::{
    ActivationFn, BiasAct, BiasActRows, BiasMode, EpilogueOp, LinComb, NoScale, RowColScale,
    ScaleKind, Scaled,
};

pub use config::{
    ChunkBuffers, ChunkHandoff, EpilogueStorage, HgemmParams, OneMeeting,
    PersistentTileSchedulerParams, SMEM_BYTES, SMEM_BYTES_FP8, STAGES, STAGES_FP8, SWIZZLE,
    SharedStorage, SharedStorageFp8, SourceBarriers, StoreSchedule, StreamKParams, THREADS, TILE,
    TILE_FP8,
};

// the configuration's numbers are the collective kernel's: one type of shared memory, one
// thread count, one tile
const _: () = {
    let _same: fn(SharedStorage) -> collective::kernel::SharedStorage<HgemmEpilogue, _256, STAGES> =
        |s| s;
    assert!(THREADS == collective::kernel::THREADS);
    assert!(TILE.0 as i32 == collective::kernel::BM && TILE.1 as i32 == <_256 as TileN>::BN);
    // the host sizes the stream-K workspace with the scheduler's numbers
    assert!(config::FIXUP_SLOT_BYTES == core::mem::size_of::<FixupSlot>());
    assert!(config::FIXUP_SLOTS_PER_CLUSTER == Scheduler::SLOTS_PER_CLUSTER);
    let _same_fp8: fn(
        SharedStorageFp8,
    ) -> collective::kernel::SharedStorage<HgemmEpilogue, _128, STAGES_FP8> = |s| s;
    assert!(
        TILE_FP8.0 as i32 == collective::kernel::BM && TILE_FP8.1 as i32 == <_128 as TileN>::BN
    );
    // every entry's k-tile is the collective kernel's (the host builds the scheduler's
    // parameters, k-tiles included, from the entry's tile)
    let bk = collective::kernel::BK as usize;
    assert!(TILE.2 == bk && TILE_FP8.2 == bk && config::TILE_FP8_N160.2 == bk);
    assert!(config::TILE_FP8_N192.2 == bk && config::TILE_PINGPONG.2 == bk);
    assert!(config::TILE_PINGPONG_128.2 == bk);
};

/// The tile scheduler of the plain, fused and fast-accumulation FP8 entries (128×256):
/// data-parallel + stream-K ([`StreamKScheduler`]), its split and workspace
/// [`HgemmParams::sched`] (none: data-parallel only), and split-K (`SPLIT_K`: the tiles' k-tiles
/// over more clusters than tiles for the small-M shapes, where one row of tiles leaves most SMs
/// idle; the host launches that grid, `config::split_k_clusters`). The 16-bit entries took it
/// from the FP8 ones in session 28 (H200, run s28e, bf16 TN against cuBLAS: 128×7168×8192 0.43
/// → 0.74, 256×4096×8192 0.46 → 0.88, 384×4096×4096 0.47 → 0.64; level at 4096³ and 8192³).
pub type Scheduler = StreamKScheduler<{ TILE.0 as i32 }, { TILE.1 as i32 }, true>;
/// The accumulation of the cooperative entries of [`hgemm_entry!`]'s plain arms (the 16-bit,
/// fused and fast-accumulation FP8 ones on 128×256 tiles): each k-tile's `wgmma`s waited for
/// (`wgmma.wait_group 0`) and its stage released at once, CUTLASS's `K_PIPE_MMAS` 0 — fast.cu's
/// kernel 12 schedule, the best public Hopper GEMM. With two consumer warpgroups on one tile the
/// other's `wgmma`s keep the tensor core busy while one waits, and a stage goes back to the
/// producer a k-tile sooner than with one k-tile left in flight (`K_PIPE_MMAS` 1): H200, burst,
/// +0.3–0.9 % in every 16-bit row measured (bf16 NN 8192³ 816 → 820–823 TFLOP/s, 1.02 of
/// cuBLAS), FP8 fast accumulation level (runs s48a, s48b; doc/hopper-gemm.md). The ping-pong
/// entries keep one in flight: there a warpgroup's `wgmma`s are the tensor core's only ones
/// while the other runs its epilogue.
pub type CooperativeAccumulation = PlainAccumulation<0>;
/// The data-parallel tile scheduler of 128×256 tiles ([`PersistentTileScheduler`]; no entry of
/// the default build takes it since the fused entries took [`Scheduler`]: their lighter
/// epilogue left ptxas room for stream-K's state, 0 spills, where it had spilled 8 bytes).
pub type DataParallel = PersistentTileScheduler<{ TILE.0 as i32 }, { TILE.1 as i32 }>;
/// The tile scheduler of the promoted FP8 entry's 128×128 tiles: data-parallel.
pub type DataParallelFp8 = PersistentTileScheduler<{ TILE_FP8.0 as i32 }, { TILE_FP8.1 as i32 }>;
/// The per-tensor promoted FP8 entry's: [`Scheduler`] on 128×128 tiles (the host gives it
/// a workspace only for the split, so larger problems stay data-parallel).
pub type SchedulerFp8Promoted =
    StreamKScheduler<{ TILE_FP8.0 as i32 }, { TILE_FP8.1 as i32 }, true>;
/// Stream-K on the promoted FP8 entry's 128×128 tiles without split-K (the block-scaled
/// measuring entry `_staged_tma5tail`: its tail only, [`config::SCHEDULER_FP8_BLOCK_TAIL`]).
pub type StreamKFp8 = StreamKScheduler<{ TILE_FP8.0 as i32 }, { TILE_FP8.1 as i32 }>;

/// Whether scheduler `S` can run the launches `kind` (the host's [`config::SchedulerKind`])
/// describes: a stream-K tail needs a scheduler that splits tiles, split-K one with `SPLIT_K`.
pub const fn schedules<S: TileScheduler>(kind: config::SchedulerKind) -> bool {
    (!kind.stream_k || S::SPLITS) && (!kind.split_k || S::SPLIT_K)
}
// the host sizes grids and workspaces by the kinds in `config`: each scheduler can run them
const _: () = {
    assert!(schedules::<Scheduler>(config::SCHEDULER));
    assert!(schedules::<SchedulerFp8Promoted>(
        config::SCHEDULER_FP8_PROMOTED
    ));
    assert!(schedules::<DataParallelFp8>(config::SCHEDULER_FP8_BLOCK));
    assert!(schedules::<StreamKFp8>(config::SCHEDULER_FP8_BLOCK_TAIL));
    assert!(schedules::<SchedulerFp8PromotedN192>(
        config::SCHEDULER_FP8_PROMOTED
    ));
};

/// A tile scheduler whose parameters come from the kernel's ([`HgemmParams::sched`], which
/// the host built for the entry's tile, the cluster and the grid).
pub trait HgemmScheduler: TileScheduler {
    /// The scheduler's parameters in `p`.
    fn params(p: &HgemmParams) -> Self::Params;
}
impl<const BM: i32, const BN: i32, const SPLIT_K: bool> HgemmScheduler
    for StreamKScheduler<BM, BN, SPLIT_K>
{
    #[inline(always)]
    fn params(p: &HgemmParams) -> StreamKParams {
        p.sched
    }
}
impl<const BM: i32, const BN: i32> HgemmScheduler for PersistentTileScheduler<BM, BN> {
    /// The tile order and the grid (the split, if any, is not this scheduler's).
    #[inline(always)]
    fn params(p: &HgemmParams) -> PersistentTileSchedulerParams {
        p.sched.dp()
    }
}

/// A mainloop accumulation's run-time arguments as the kernel's parameters carry them (none, or
/// the block scales' pointers in [`HgemmParams::scale_a`] / [`HgemmParams::scale_b`]), so an
/// entry builds them from its accumulation's type, as [`HgemmScheduler`] its scheduler's.
///
/// ```text
/// <() as AccumulationArgs>::from_params(&p)             == ()             // PlainAccumulation's
/// <Fp8BlockScales as AccumulationArgs>::from_params(&p) == Fp8BlockScales { a: p.scale_a, b: p.scale_b, mn: (p.m, p.n) }
/// ```
pub trait AccumulationArgs {
    /// The arguments in `p`.
    fn from_params(p: &HgemmParams) -> Self;
}
impl AccumulationArgs for () {
    #[inline(always)]
    fn from_params(_: &HgemmParams) {}
}
impl AccumulationArgs for Fp8BlockScales {
    #[inline(always)]
    fn from_params(p: &HgemmParams) -> Self {
        Fp8BlockScales {
            a: p.scale_a as *const f32,
            b: p.scale_b as *const f32,
            mn: (p.m, p.n),
        }
    }
}

/// The run-time arguments of [`HgemmEpilogue`]: C's tensor map and the scalar parameters.
#[derive(Clone, Copy)]
pub struct EpilogueArgs {
    /// C's tensor map (TMA path).
    pub tma_c: *const TmaDescriptor,
    /// The kernel's parameters (C, `ldc`, `out`, `alpha`, `beta`).
    pub params: HgemmParams,
}

/// This family's epilogue: `alpha·acc + beta·C` as f32, bf16 or f16, through shared memory and
/// TMA or directly ([`epilogue::store`]), its chunk buffers in the storage `S`
/// ([`EpilogueStorage`]: four a consumer warpgroup; [`config::EpilogueStorage2`]: two;
/// [`config::NoEpilogueStorage`]: none, the direct path from registers, [`DirectEpilogue`]).
/// `SOURCE` false: an epilogue without a source (CUTLASS's `ElementC = void`): `beta` is taken
/// as 0 and the code that reads C is not compiled ([`EpilogueForm`]: the FP8 entries'). `Sch`:
/// when a tile's chunks are stored ([`StoreSchedule`]: [`ChunkHandoff`], the 16-bit entries';
/// [`OneMeeting`], the FP8 entries').
pub struct HgemmEpilogue<S = EpilogueStorage, const SOURCE: bool = true, Sch = ChunkHandoff>(
    core::marker::PhantomData<(S, Sch)>,
);

/// The fused epilogue: `A(alpha·S(r, c)·acc + beta·C + bias)` ([`Scaled`] of [`BiasAct`]) for
/// the activation type `A` and the product's scale kind `S` ([`NoScale`], or [`RowColScale`]:
/// per-row and per-column scales from [`HgemmParams::scale_m`] (M values) and
/// [`HgemmParams::scale_n`] (N values), 0 each for none), the bias (along M, N or none) read
/// from [`HgemmParams`]; `ELEMS` the elements of C it stores ([`epilogue::store`]); `SOURCE` and
/// `Sch` as for [`HgemmEpilogue`].
pub struct FusedEpilogue<
    A,
    S = NoScale,
    const ELEMS: u32 = ELEMS_BF16,
    St = EpilogueStorage,
    const SOURCE: bool = true,
    Sch = ChunkHandoff,
>(core::marker::PhantomData<(A, S, St, Sch)>);

/// An epilogue in another form, its storage and fusion kept: `With<SOURCE, Sch>` reads a source
/// or not (`SOURCE` false: `D = op(alpha·acc)`, CUTLASS's `ElementC = void`, no code that reads
/// C compiled) and stores a tile's chunks with the schedule `Sch` ([`StoreSchedule`]). The FP8
/// entries take theirs through it ([`Fp8EpilogueOf`]).
///
/// ```
/// use hgemm_kernel::{ChunkHandoff, EpilogueForm, HgemmEpilogue, OneMeeting};
/// let _no_source: fn(<HgemmEpilogue as EpilogueForm>::With<false, ChunkHandoff>) -> HgemmEpilogue<_, false> = |e| e;
/// let _one_meeting: fn(<HgemmEpilogue as EpilogueForm>::With<true, OneMeeting>) -> HgemmEpilogue<_, true, OneMeeting> = |e| e;
/// let _default: fn(HgemmEpilogue) -> HgemmEpilogue<_, true, ChunkHandoff> = |e| e;
/// ```
pub trait EpilogueForm {
    /// The same epilogue reading a source or not (`SOURCE`), with the store schedule `Sch`.
    type With<const SOURCE: bool, Sch: StoreSchedule>: CollectiveEpilogue;
}

impl<S: ChunkBuffers, const SOURCE: bool, Sch: StoreSchedule> EpilogueForm
    for HgemmEpilogue<S, SOURCE, Sch>
{
    type With<const SRC: bool, To: StoreSchedule> = HgemmEpilogue<S, SRC, To>;
}

impl<
    A: ActivationFn,
    S: ScaleKind,
    const ELEMS: u32,
    St: ChunkBuffers,
    const SOURCE: bool,
    Sch: StoreSchedule,
> EpilogueForm for FusedEpilogue<A, S, ELEMS, St, SOURCE, Sch>
{
    type With<const SRC: bool, To: StoreSchedule> = FusedEpilogue<A, S, ELEMS, St, SRC, To>;
}

/// The FP8 entries' form of epilogue `E` (every FP8 entry macro arm takes its epilogue
/// through it): without a source (their host never passes `beta`) and with the [`OneMeeting`]
/// store schedule (with [`ChunkHandoff`], the 16-bit entries', the e4m3 4096³ launch ran
/// 1.5–3 % slower: H100 runs s79b, s79c).
///
/// ```
/// use hgemm_kernel::{Fp8EpilogueOf, HgemmEpilogue, OneMeeting};
/// let _same: fn(Fp8EpilogueOf<HgemmEpilogue>) -> HgemmEpilogue<_, false, OneMeeting> = |e| e;
/// ```
pub type Fp8EpilogueOf<E> = <E as EpilogueForm>::With<false, OneMeeting>;
/// The tile's [`epilogue::TileStore`] of `a`'s parameters (`store`'s and `load`'s).
///
/// # Safety
/// `pipe` is the kernel's epilogue pipeline storage.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn tile_store<const SOURCE: bool, S: ChunkBuffers>(
    a: &EpilogueArgs,
    mn: (i32, i32),
    origin: (i32, i32),
    t: i32,
    smem: *mut S,
    pipe: *mut SourceBarriers,
    wg: i32,
    last: bool,
    loaded: bool,
) -> epilogue::TileStore {
    const {
        assert!(
            S::PER_WARPGROUP == 0 || S::PER_WARPGROUP >= 2,
            "HgemmEpilogue: no chunk buffers (direct from registers) or two a consumer warpgroup at least (the TMA path's chunk waits for the store of the chunk B - 1 back; the direct path's chunks go through two in turn)"
        )
    };
    let p = &a.params;
    // without shared memory the direct path only (a constant: the TMA arms are not compiled)
    let out = if S::PER_WARPGROUP == 0 {
        config::out_direct(p.out)
    } else {
        p.out
    };
    epilogue::TileStore {
        c: p.c as *mut u8,
        ldc: p.ldc,
        out,
        tma_c: a.tma_c,
        mn,
        origin,
        alpha: p.alpha,
        // (without a source `epilogue::store` takes 0 whatever this says)
        beta: p.beta,
        t,
        smem: smem as *mut u8,
        // (none without a source or buffers: no code reads it; the barriers' 32-bit `.shared`
        // address, initialized by `init_source`)
        source: if SOURCE && S::PER_WARPGROUP > 0 {
            Some(SmemBarrier::new(unsafe { &raw mut (*pipe).full[0] }))
        } else {
            None
        },
        wg,
        last,
        loaded,
    }
}

/// [`epilogue::store`] of `a`'s parameters with the element-wise operation `op`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_with<
    const ELEMS: u32,
    const SOURCE: bool,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
    Sch: StoreSchedule,
>(
    a: &EpilogueArgs,
    acc: &[f32; 128],
    mn: (i32, i32),
    origin: (i32, i32),
    t: i32,
    smem: *mut S,
    pipe: *mut SourceBarriers,
    wg: i32,
    last: bool,
    loaded: bool,
    op: impl EpilogueOp,
) {
    let tile = unsafe { tile_store::<SOURCE, S>(a, mn, origin, t, smem, pipe, wg, last, loaded) };
    unsafe { epilogue::store::<ELEMS, SOURCE, TILE_M, Cols, S, Sch>(acc, &tile, op) }
}

/// [`epilogue::load`] of `a`'s parameters: the tile's C requested under the mainloop
/// (`CollectiveEpilogue::load`), for an epilogue of `ELEMS` and `W`'s tile (its rows, a constant:
/// only this tile's form is instantiated; the fragment's columns that hold it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn load_with<W: WarpgroupTile, const ELEMS: u32, const SOURCE: bool, S: ChunkBuffers>(
    a: &EpilogueArgs,
    mn: (i32, i32),
    origin: (i32, i32),
    t: i32,
    smem: *mut S,
    pipe: *mut SourceBarriers,
    wg: i32,
) {
    let tile = unsafe { tile_store::<SOURCE, S>(a, mn, origin, t, smem, pipe, wg, false, false) };
    if const { W::M == 64 } {
        unsafe { epilogue::load::<ELEMS, SOURCE, 64, W::EpiCols, S>(&tile) }
    } else {
        unsafe { epilogue::load::<ELEMS, SOURCE, 128, W::EpiCols, S>(&tile) }
    }
}

/// The source loads' barriers initialized where the epilogue reads a source through its
/// buffers `S` ([`epilogue::init_source`]); nothing otherwise.
#[inline(always)]
unsafe fn init_source<const SOURCE: bool, S: ChunkBuffers>(pipe: *mut SourceBarriers) {
    if SOURCE && S::PER_WARPGROUP > 0 {
        unsafe { epilogue::init_source(pipe) }
    }
}

impl<S: ChunkBuffers, const SOURCE: bool, Sch: StoreSchedule> CollectiveEpilogue
    for HgemmEpilogue<S, SOURCE, Sch>
{
    type Args = EpilogueArgs;
    type Storage = S;
    type PipelineStorage = SourceBarriers;
    #[inline(always)]
    unsafe fn init(pipe: *mut SourceBarriers) {
        unsafe { init_source::<SOURCE, S>(pipe) }
    }
    #[inline(always)]
    unsafe fn load<W: WarpgroupTile>(
        a: &EpilogueArgs,
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut S,
        pipe: *mut SourceBarriers,
        wg: i32,
    ) {
        unsafe { load_with::<W, ELEMS_ALL, SOURCE, _>(a, mn, origin, t, smem, pipe, wg) }
    }
    #[inline(always)]
    unsafe fn store<W: WarpgroupTile>(
        a: &EpilogueArgs,
        acc: &[f32; 128],
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut S,
        pipe: *mut SourceBarriers,
        wg: i32,
        last: bool,
        loaded: bool,
    ) {
        // the tile's rows, a constant (`const`: only this tile's epilogue is instantiated)
        // and the fragment's columns that hold it (the TMA path's chunks)
        if const { W::M == 64 } {
            unsafe {
                store_with::<ELEMS_ALL, SOURCE, 64, W::EpiCols, _, Sch>(
                    a, acc, mn, origin, t, smem, pipe, wg, last, loaded, LinComb,
                )
            }
        } else {
            unsafe {
                store_with::<ELEMS_ALL, SOURCE, 128, W::EpiCols, _, Sch>(
                    a, acc, mn, origin, t, smem, pipe, wg, last, loaded, LinComb,
                )
            }
        }
    }
}

impl<
    A: ActivationFn,
    S: ScaleKind,
    const ELEMS: u32,
    St: ChunkBuffers,
    const SOURCE: bool,
    Sch: StoreSchedule,
> CollectiveEpilogue for FusedEpilogue<A, S, ELEMS, St, SOURCE, Sch>
{
    type Args = EpilogueArgs;
    type Storage = St;
    type PipelineStorage = SourceBarriers;
    #[inline(always)]
    unsafe fn init(pipe: *mut SourceBarriers) {
        unsafe { init_source::<SOURCE, St>(pipe) }
    }
    #[inline(always)]
    unsafe fn load<W: WarpgroupTile>(
        a: &EpilogueArgs,
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut St,
        pipe: *mut SourceBarriers,
        wg: i32,
    ) {
        // (C is read the same way whatever the operation: the plain epilogue's load)
        unsafe { load_with::<W, ELEMS, SOURCE, _>(a, mn, origin, t, smem, pipe, wg) }
    }
    #[inline(always)]
    unsafe fn store<W: WarpgroupTile>(
        a: &EpilogueArgs,
        acc: &[f32; 128],
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut St,
        pipe: *mut SourceBarriers,
        wg: i32,
        last: bool,
        loaded: bool,
    ) {
        let p = &a.params;
        // an unknown code (the host never sends one) is no bias
        let mode = match p.bias_mode {
            1 => BiasMode::M,
            2 => BiasMode::N,
            _ => BiasMode::None,
        };
        // this thread's two rows of C in each m64 block (`CLayout_64x256`: rows `rt` and
        // `rt + 8`): the bias along M is read once per tile, not once per element
        let rt = origin.0 + epilogue::acc_row().crd2idx((t, 0));
        let r8 = epilogue::acc_row_v().crd2idx(2i32);
        // and its first column (the others at constant offsets to the right)
        let ct = origin.1 + epilogue::acc_col().crd2idx((t, 0));
        let bias = unsafe { BiasAct::<A>::new(p.bias as *const f32, mode, mn) };
        // SAFETY: the host checked the scale vectors' lengths (M, N) where S reads them
        let scale =
            unsafe { S::from_vectors(p.scale_m as *const f32, p.scale_n as *const f32, mn) };
        // SAFETY: the host checked the bias vector's length against its mode; the epilogue
        // applies the operation at this thread's rows and columns only
        let op = unsafe {
            Scaled::new(
                scale.for_rows([rt, rt + r8], ct),
                bias.for_rows([rt, rt + r8], ct),
            )
        };
        // the paths of ELEMS only (`epilogue::store`: the fused entries' compile time)
        // (a constant of the instantiation, in `const`: rustc then does not instantiate the
        // other tile's epilogue at all; a plain `if` made every fused entry carry a dead copy
        // of the 128-row one through LLVM, +30 % of the family's rustc time)
        if const { W::M == 64 } {
            unsafe {
                store_with::<ELEMS, SOURCE, 64, W::EpiCols, _, Sch>(
                    a, acc, mn, origin, t, smem, pipe, wg, last, loaded, op,
                )
            }
        } else {
            // a 128-row tile: the second block's rows 64 further down
            let (r64, _) = epilogue::frag_col_to_tile(W::M, 64);
            let second = [rt + r64, rt + r64 + r8];
            let op = BlockOps {
                first: op,
                bias,
                scale,
                second,
                first_col: ct,
            };
            unsafe {
                store_with::<ELEMS, SOURCE, 128, W::EpiCols, _, Sch>(
                    a, acc, mn, origin, t, smem, pipe, wg, last, loaded, op,
                )
            }
        }
    }
}

/// The fused operation over a warpgroup tile of two `m64` blocks: the first block's rows with
/// `first` (its row biases in registers), the second block's rows `second` with their row
/// biases read where they are used (a few cached loads per chunk: the registers they would hold
/// for the whole epilogue made ptxas spill). Rows are compared for equality: a row is a
/// constant offset from the thread's first in the unrolled epilogue, so the choice folds (an
/// ordering comparison of wrapping sums would not).
#[derive(Clone, Copy)]
struct BlockOps<A, S: ScaleKind> {
    first: Scaled<S::Rows, BiasActRows<A>>,
    bias: BiasAct<A>,
    scale: S,
    second: [i32; 2],
    first_col: i32,
}

impl<A: ActivationFn, S: ScaleKind> BlockOps<A, S> {
    /// The operation of row `r`'s block.
    #[inline(always)]
    fn block(&self, r: i32) -> Scaled<S::Rows, BiasActRows<A>> {
        if r == self.second[0] || r == self.second[1] {
            // SAFETY: as for `first` (FusedEpilogue::store), at this thread's rows and columns
            unsafe {
                Scaled::new(
                    self.scale.for_rows(self.second, self.first_col),
                    self.bias.for_rows(self.second, self.first_col),
                )
            }
        } else {
            self.first
        }
    }
}

impl<A: ActivationFn, S: ScaleKind> EpilogueOp for BlockOps<A, S> {
    const SCALED: bool = S::SCALED;
    #[inline(always)]
    fn apply(&self, x: f32, (r, c): (i32, i32)) -> f32 {
        self.block(r).apply(x, (r, c))
    }
    #[inline(always)]
    fn apply_acc(&self, alpha: f32, acc: f32, (r, c): (i32, i32)) -> f32 {
        self.block(r).apply_acc(alpha, acc, (r, c))
    }
    #[inline(always)]
    fn acc_scale(&self, (r, c): (i32, i32)) -> f32 {
        self.block(r).acc_scale((r, c))
    }
}

/// Declares entry `$name`: the cooperative kernel for `$e` inputs, A `$ma`-major, B
/// `$mb`-major, with epilogue `$epi` ([`HgemmEpilogue`] when left out), scheduler `$sched`
/// (the stream-K [`Scheduler`] when left out) and accumulation [`CooperativeAccumulation`]
/// (`acc`: `$acc`) (an entry point, no kernel body); `promoted`: the FP8 consumers' mainloop with promotion and
/// optional block scales (the cooperative kernel on 128×128 tiles with
/// an accumulation `$acc` such as [`GmmaFp8Accumulation`], the scales' pointers from
/// [`HgemmParams`]).
#[macro_export]
macro_rules! hgemm_entry {
    (promoted $name:ident, $e:ty, $acc:ty) => {
        $crate::hgemm_entry!(promoted $name, $e, $acc, DataParallelFp8);
    };
    (promoted $name:ident, $e:ty, $acc:ty, $sched:ty) => {
        $crate::hgemm_entry!(promoted $name, $e, $acc, $sched, HgemmEpilogue);
    };
    (promoted $name:ident, $e:ty, $acc:ty, $sched:ty, $epi:ty) => {
        $crate::hgemm_entry!(promoted $name, $e, $acc, $sched, $epi, _128, STAGES_FP8);
    };
    (promoted $name:ident, $e:ty, $acc:ty, $sched:ty, $epi:ty, $bn:ty, $stages:expr) => {
        // the direct path: the 128-wide tiles' epilogue sees the 64×128 tile as half of a
        // 64×256 one
        $crate::hgemm_entry!(promoted_out $name, $e, $acc, $sched, $epi, $bn, $stages, config::out_direct, ClusterM);
    };
    // the TMA epilogue's path where the host asks for it (`out` as given)
    (promoted_tma $name:ident, $e:ty, $acc:ty, $sched:ty, $epi:ty, $bn:ty, $stages:expr) => {
        $crate::hgemm_entry!(promoted_out $name, $e, $acc, $sched, $epi, $bn, $stages, core::convert::identity, ClusterM);
    };
    // the same with clusters of shape `$cl` (`ClusterN`: A's tile shared)
    (promoted_tma $name:ident, $e:ty, $acc:ty, $sched:ty, $epi:ty, $bn:ty, $stages:expr, $cl:ty) => {
        $crate::hgemm_entry!(promoted_out $name, $e, $acc, $sched, $epi, $bn, $stages, core::convert::identity, $cl);
    };
    (promoted_out $name:ident, $e:ty, $acc:ty, $sched:ty, $epi:ty, $bn:ty, $stages:expr, $out:expr, $cl:ty) => {
        device::kernel! {
        #[doc = concat!("The FP8 GEMM for ", stringify!($e), " inputs with fp32 promotion every k-tile, CTA tiles of 128 × `", stringify!($bn), "`, epilogue `", stringify!($epi), "` (see the crate docs).\n\n# Safety\n",
                        "As the other entries, with the box of the operand clusters of shape `", stringify!($cl), "` share over the cluster (`1/cs` of its rows) and the shared memory of the tile's configuration (`config`); `p.scale_a`/`p.scale_b` are 0 or, on 128-wide tiles, the block scales `HgemmParams` documents.")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: HgemmParams { out: $out(p.out), ..p } };
            let mma = AccumulationArgs::from_params(&p);
            unsafe { gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, $cl, $e, MajorK, MajorK, $bn, $acc, $crate::Fp8EpilogueOf<$epi>, $sched, { $stages }>(tma, (p.m, p.n, p.k), <$sched as HgemmScheduler>::params(&p), mma, epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
    (staged $name:ident, $e:ty, $acc:ty, $stages:expr) => {
        $crate::hgemm_entry!(staged_out $name, $e, $acc, DirectEpilogue, $stages, config::out_direct, DataParallelFp8, _128, KernelTmaWarpSpecializedCooperative);
    };
    // the TMA epilogue's path where the host asks for it (`out` as given)
    (staged_tma $name:ident, $e:ty, $acc:ty, $epi:ty, $stages:expr) => {
        $crate::hgemm_entry!(staged_out $name, $e, $acc, $epi, $stages, core::convert::identity, DataParallelFp8, _128, KernelTmaWarpSpecializedCooperative);
    };
    (staged_tma $name:ident, $e:ty, $acc:ty, $epi:ty, $stages:expr, $sched:ty) => {
        $crate::hgemm_entry!(staged_out $name, $e, $acc, $epi, $stages, core::convert::identity, $sched, _128, KernelTmaWarpSpecializedCooperative);
    };
    // the same on 128 × `$bn` tiles
    (staged_tma $name:ident, $e:ty, $acc:ty, $epi:ty, $stages:expr, $sched:ty, $bn:ty) => {
        $crate::hgemm_entry!(staged_out $name, $e, $acc, $epi, $stages, core::convert::identity, $sched, $bn, KernelTmaWarpSpecializedCooperative);
    };
    // the kernel schedule `$ks` (cooperative: 128-row CTA tiles; ping-pong: its `TileM` rows)
    (staged_out $name:ident, $e:ty, $acc:ty, $epi:ty, $stages:expr, $out:expr, $sched:ty, $bn:ty, $ks:ty) => {
        device::kernel! {
        #[doc = concat!("The block-scaled FP8 GEMM (", stringify!($ks), ") for ", stringify!($e), " inputs with the block scales through shared memory, CTA tiles of N `", stringify!($bn), "`, epilogue `", stringify!($epi), "` (see the crate docs).\n\n# Safety\n",
                        "As the promoted entry, with the schedule's staged shared storage (`config::SharedStorageFp8StagedEpi` of the epilogue's storage, or the ping-pong's `config::SharedStorageFp8StagedPp64`) of ", stringify!($stages), " stages; A's box of the schedule's rows; `tma_sa`/`tma_sb` are 1-D tensor maps of the block scales `HgemmParams` documents (f32, boxes of 128 and 4).")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, tma_sa: TmaDescriptor, tma_sb: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: HgemmParams { out: $out(p.out), ..p } };
            let scales = Fp8StagedScales { a: device::grid_constant!($name, 3, tma_sa), b: device::grid_constant!($name, 4, tma_sb), b_global: p.scale_b as *const f32, mn: (p.m, p.n) };
            unsafe { gemm_tma_warpspecialized::<$ks, ClusterM, $e, MajorK, MajorK, $bn, $acc, $crate::Fp8EpilogueOf<$epi>, $sched, { $stages }>(tma, (p.m, p.n, p.k), <$sched as HgemmScheduler>::params(&p), scales, epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
    (fast128 $name:ident, $e:ty) => {
        device::kernel! {
        #[doc = concat!("The FP8 GEMM for ", stringify!($e), " inputs, fast accumulation on the promoted entry's 128×128 tiles (a measuring variant).\n\n# Safety\n",
                        "As the promoted entry, without block scales.")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: HgemmParams { out: config::out_direct(p.out), ..p } };
            unsafe { gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ClusterM, $e, MajorK, MajorK, _128, PlainAccumulation, $crate::Fp8EpilogueOf<HgemmEpilogue>, DataParallelFp8, STAGES_FP8>(tma, (p.m, p.n, p.k), <DataParallelFp8 as HgemmScheduler>::params(&p), (), epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
    (fast_wide $name:ident, $e:ty, $acc:ty, $bn:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_entry!(fast_wide $name, $e, $acc, $bn, $sched, $stages, DirectEpilogue);
    };
    (fast_wide $name:ident, $e:ty, $acc:ty, $bn:ty, $sched:ty, $stages:expr, $epi:ty) => {
        device::kernel! {
        #[doc = concat!("The FP8 GEMM for ", stringify!($e), " inputs, fast accumulation on a promoted entry's wide tiles, epilogue `", stringify!($epi), "`.\n\n# Safety\n",
                        "As the promoted entry of the same tile and epilogue, without block scales.")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            // `out` as given: an epilogue without storage (`DirectEpilogue`) takes the direct path by itself
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: p };
            unsafe { gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ClusterM, $e, MajorK, MajorK, $bn, $acc, $crate::Fp8EpilogueOf<$epi>, $sched, { $stages }>(tma, (p.m, p.n, p.k), <$sched as HgemmScheduler>::params(&p), (), epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
    ($name:ident, $e:ty, $ma:ty, $mb:ty) => {
        $crate::hgemm_entry!($name, $e, $ma, $mb, HgemmEpilogue, Scheduler);
    };
    // the cooperative kernel with 4 stages beside two chunk buffers a warpgroup
    (s4 $name:ident, $e:ty, $ma:ty, $mb:ty) => {
        $crate::hgemm_entry!($name, $e, $ma, $mb, HgemmEpilogue<config::EpilogueStorage2>, Scheduler, { config::STAGES_S4 });
    };
    ($name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty, $sched:ty) => {
        $crate::hgemm_entry!($name, $e, $ma, $mb, $epi, $sched, STAGES);
    };
    ($name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty) => {
        $crate::hgemm_entry!($name, $e, $ma, $mb, $epi, Scheduler);
    };
    ($name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_entry!(acc $name, $e, $ma, $mb, $epi, $sched, $stages, $crate::CooperativeAccumulation);
    };
    // the cooperative 16-bit kernel on 128 × `$bn` tiles with `$stages` stages and scheduler
    // `$sched` (session 67: `hgemm_{bf16,f16}_{ab}_n192` on the per-tensor FP8 entry's 128×192
    // configuration, the same bytes a stage in 16-bit units), with epilogue `$epi`
    // ([`HgemmEpilogue`] when left out; session 68: the fused entries)
    (wide $name:ident, $e:ty, $ma:ty, $mb:ty, $bn:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_entry!(wide $name, $e, $ma, $mb, $bn, $sched, $stages, HgemmEpilogue);
    };
    (wide $name:ident, $e:ty, $ma:ty, $mb:ty, $bn:ty, $sched:ty, $stages:expr, $epi:ty) => {
        device::kernel! {
        #[doc = concat!("The GEMM for ", stringify!($e), " inputs, A ", stringify!($ma), ", B ",
                        stringify!($mb), ", on CTA tiles of 128 × `", stringify!($bn), "`, epilogue `", stringify!($epi), "` (see the crate docs).\n\n# Safety\n",
                        "As the 128×256 entries, with B's box of the tile's rows and the shared memory of the tile's configuration (`config`).")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: p };
            let sched = <$sched as HgemmScheduler>::params(&p);
            unsafe { gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ClusterM, $e, $ma, $mb, $bn, $crate::CooperativeAccumulation, $epi, $sched, { $stages }>(tma, (p.m, p.n, p.k), sched, (), epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
    // the cooperative kernel with accumulation `$acc`
    (acc $name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty, $sched:ty, $stages:expr, $acc:ty) => {
        device::kernel! {
        #[doc = concat!("The GEMM for ", stringify!($e), " inputs, A ", stringify!($ma), ", B ",
                        stringify!($mb), " (see the crate docs).\n\n# Safety\n",
                        "`tma_a`/`tma_b` are tensor maps of A `(M,K)` and B `(N,K)` with the boxes ",
                        "the crate documents; `p.c` holds `(M,N)` with leading dimension `p.ldc` of ",
                        "the element `p.out` names (0 f32, 1 bf16, 2 f16); with `config::OUT_TMA` ",
                        "added, `tma_c` a tensor map of C (`p.beta` 0, or a 16-bit C: see `epilogue::store`).")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: p };
            let sched = <$sched as HgemmScheduler>::params(&p);
            unsafe { gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ClusterM, $e, $ma, $mb, _256, $acc, $epi, $sched, $stages>(tma, (p.m, p.n, p.k), sched, (), epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
}

const _: () = {
    let _s4: fn(
        config::SharedStorageS4,
    ) -> collective::kernel::SharedStorage<
        HgemmEpilogue<config::EpilogueStorage2>,
        _256,
        { config::STAGES_S4 },
    > = |s| s;
    assert!(config::SMEM_BYTES_S4 <= 227 * 1024);
};

// their configuration is the kernel's
const _: () = {
    use collective::kernel::SharedStorage as Kernel;
    let _s6: fn(
        config::SharedStorageFp8N128Tma<{ config::STAGES_FP8_N128_TMA6 }>,
    ) -> Kernel<
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        { config::STAGES_FP8_N128_TMA6 },
    > = |s| s;
    let _s5: fn(
        config::SharedStorageFp8N128Tma<{ config::STAGES_FP8_N128_TMA5 }>,
    ) -> Kernel<
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        { config::STAGES_FP8_N128_TMA5 },
    > = |s| s;
    assert!(config::SMEM_BYTES_FP8_N128_TMA6 <= 227 * 1024);
};
// `_n192tma`'s configuration is the kernel's: its shared memory
const _: () = {
    let _n192tma: fn(
        config::SharedStorageFp8N192Tma,
    ) -> collective::kernel::SharedStorage<
        HgemmEpilogue,
        _192,
        { config::STAGES_FP8_N192_TMA },
    > = |s| s;
    assert!(config::SMEM_BYTES_FP8_N192_TMA <= 227 * 1024);
};

// the staged entries' configuration is the kernel's: their shared memory (scales included)
const _: () = {
    use collective::kernel::KernelSharedStorage as Kernel;
    use collective::kernel::KernelTmaWarpSpecializedCooperative as Coop;
    type Staged = GmmaFp8AccumulationStaged<true>;
    let _s6: fn(
        config::SharedStorageFp8Staged<{ config::STAGES_FP8_STAGED }>,
    ) -> Kernel<Coop, DirectEpilogue, _128, Staged, { config::STAGES_FP8_STAGED }> = |s| s;
    let _s5: fn(
        config::SharedStorageFp8Staged<{ config::STAGES_FP8_STAGED_S5 }>,
    )
        -> Kernel<Coop, DirectEpilogue, _128, Staged, { config::STAGES_FP8_STAGED_S5 }> = |s| s;
    assert!(config::SMEM_BYTES_FP8_STAGED <= 227 * 1024);
    let _tma: fn(
        config::SharedStorageFp8StagedTma,
    )
        -> Kernel<Coop, HgemmEpilogue, _128, Staged, { config::STAGES_FP8_STAGED_TMA }> = |s| s;
    let _tma5: fn(
        config::SharedStorageFp8StagedTma5,
    ) -> Kernel<
        Coop,
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        Staged,
        { config::STAGES_FP8_STAGED_TMA5 },
    > = |s| s;
    assert!(config::SMEM_BYTES_FP8_STAGED_TMA <= 227 * 1024);
    assert!(config::SMEM_BYTES_FP8_STAGED_TMA5 <= 227 * 1024);
};

/// Stream-K on 128×192 tiles without split-K (the measuring `_staged_n192tmatail`: a tail only,
/// [`config::SCHEDULER_FP8_BLOCK_TAIL`]).
pub type StreamKFp8N192 =
    StreamKScheduler<{ config::TILE_FP8_N192.0 as i32 }, { config::TILE_FP8_N192.1 as i32 }>;
/// Data-parallel 128×192 tiles (the block-scaled `_staged_n192tma`).
pub type DataParallelFp8N192 =
    PersistentTileScheduler<{ config::TILE_FP8_N192.0 as i32 }, { config::TILE_FP8_N192.1 as i32 }>;
const _: () = {
    assert!(schedules::<StreamKFp8N192>(
        config::SCHEDULER_FP8_BLOCK_TAIL
    ));
    assert!(schedules::<DataParallelFp8N192>(
        config::SCHEDULER_FP8_BLOCK
    ));
};

/// The block-scaled accumulation on 128×192 tiles: [`AccumulationN192`]'s one temporary with
/// each stage's block scales, a scale per 64-column chunk
/// ([`GmmaFp8AccumulationStagedWide`]).
pub type AccumulationStagedN192 = GmmaFp8AccumulationStagedWide<96>;

// `_staged_n192tma`'s configuration is the kernel's: its shared memory (scales included) and
// its stages' scales
const _: () = {
    use collective::kernel::KernelSharedStorage as Kernel;
    use collective::kernel::KernelTmaWarpSpecializedCooperative as Coop;
    let _n192: fn(
        config::SharedStorageFp8StagedN192Tma,
    ) -> Kernel<
        Coop,
        HgemmEpilogue<config::EpilogueStorage3>,
        _192,
        AccumulationStagedN192,
        { config::STAGES_FP8_STAGED_N192_TMA },
    > = |s| s;
    let _stage: fn(config::Fp8ScaleStageWide) -> collective::mainloop::Fp8ScaleStageWide = |s| s;
    assert!(config::SMEM_BYTES_FP8_STAGED_N192_TMA <= 227 * 1024);
};

/// The per-tensor promoted entries' accumulation on 128×192 tiles: one `m64n192k32` temporary
/// promoted every k-tile, no block scales' code (the plain and the fused `_n192` entries).
pub type AccumulationN192 = GmmaFp8Accumulation<false, false, false, 96>;

/// The per-tensor promoted entry's scheduler ([`SchedulerFp8Promoted`] on its 128×192 tiles):
/// split-K for small M, else data-parallel.
pub type SchedulerFp8PromotedN192 =
    StreamKScheduler<{ config::TILE_FP8_N192.0 as i32 }, { config::TILE_FP8_N192.1 as i32 }, true>;

// the 128×192 entry's configuration is the kernel's: its shared memory, its tile's N
const _: () = {
    let _n192: fn(
        config::SharedStorageFp8N192,
    ) -> collective::kernel::SharedStorage<
        DirectEpilogue,
        _192,
        { config::STAGES_FP8_N192 },
    > = |s| s;
    assert!(config::TILE_FP8_N192.1 as i32 == <_192 as TileN>::BN);
    assert!(config::SMEM_BYTES_FP8_N192 <= 227 * 1024);
};

/// [`HgemmEpilogue`] without shared memory ([`config::NoEpilogueStorage`], no chunk buffers): its
/// direct path from registers only, whatever `out` asks (`config::out_direct`). The epilogue of
/// the wide-tile FP8 entries, which give the TMA epilogue's 64 KiB to stages.
pub type DirectEpilogue = HgemmEpilogue<config::NoEpilogueStorage>;

/// The fused FP8 entries' epilogue: bias, activation `A`, per-row and per-column scales, a D
/// of f32, bf16 or f16 (on the TMA epilogue's path in the `_n192tma` entries; `St`
/// [`config::NoEpilogueStorage`]: from registers, the `_n192` measuring ones).
pub type FusedFp8Epilogue<A, St = EpilogueStorage> = FusedEpilogue<A, RowColScale, ELEMS_ALL, St>;

// The ping-pong kernel schedule (doc/hopper-gemm.md): the same mainloop, epilogues and
// scheduler composed by `collective::kernel::KernelTmaWarpSpecializedPingpong`, each consumer
// warpgroup's epilogue under the other's `wgmma`s; CUTLASS's 128×128 tile (`TILE_PINGPONG_128`,
// two `m64n128k16` per k-block, entries `*_pingpong128`: the host's launches for skinny K,
// `HgemmSchedule::for_problem`), and behind the feature `pingpong` (`CUTE_RS_KERNEL_FEATURES=
// hgemm/pingpong`, the host's `CUTE_RS_HGEMM_SCHEDULE=pingpong|pingpong128`) 64×256 tiles
// (`TILE_PINGPONG`, entries `*_pingpong`) and the fused bias + GELU on both.
use collective::kernel::{KernelTmaWarpSpecializedPingpong, ScheduleSharedStorage};
#[cfg(feature = "pingpong")]
use config::{STAGES_PINGPONG, SharedStoragePingpong, TILE_PINGPONG};
use config::{STAGES_PINGPONG_128, SharedStoragePingpong128, TILE_PINGPONG_128};

/// The 64×256 ping-pong entries' tile scheduler: data-parallel over 64×256 tiles.
#[cfg(feature = "pingpong")]
pub type DataParallelPingpong =
    PersistentTileScheduler<{ TILE_PINGPONG.0 as i32 }, { TILE_PINGPONG.1 as i32 }>;
/// The 128×128 ping-pong entries' tile scheduler: data-parallel over 128×128 tiles.
pub type DataParallelPingpong128 =
    PersistentTileScheduler<{ TILE_PINGPONG_128.0 as i32 }, { TILE_PINGPONG_128.1 as i32 }>;
#[cfg(feature = "pingpong")]
const _: () = assert!(schedules::<DataParallelPingpong>(
    config::SCHEDULER_PINGPONG
));
const _: () = {
    assert!(schedules::<DataParallelPingpong128>(
        config::SCHEDULER_PINGPONG
    ));
};
/// The 64×256 ping-pong schedule.
#[cfg(feature = "pingpong")]
pub type Pingpong = KernelTmaWarpSpecializedPingpong<_64>;
/// The 128×128 ping-pong schedule.
pub type Pingpong128 = KernelTmaWarpSpecializedPingpong<_128>;

// the configuration is the schedule's: its shared memory and tile
#[cfg(feature = "pingpong")]
const _: () = {
    use collective::kernel::KernelSchedule;
    use collective::mainloop::TileM;
    let _same: fn(
        SharedStoragePingpong,
    ) -> ScheduleSharedStorage<Pingpong, HgemmEpilogue, _256, STAGES_PINGPONG> = |s| s;
    assert!(
        TILE_PINGPONG.0 as i32 == <<Pingpong as KernelSchedule>::TileM as TileM>::BM
            && TILE_PINGPONG.1 as i32 == <_256 as TileN>::BN
    );
};
const _: () = {
    use collective::kernel::KernelSchedule;
    use collective::mainloop::TileM;
    let _same_128: fn(
        SharedStoragePingpong128,
    ) -> ScheduleSharedStorage<
        Pingpong128,
        HgemmEpilogue,
        _128,
        STAGES_PINGPONG_128,
    > = |s| s;
    assert!(
        TILE_PINGPONG_128.0 as i32 == <<Pingpong128 as KernelSchedule>::TileM as TileM>::BM
            && TILE_PINGPONG_128.1 as i32 == <_128 as TileN>::BN
    );
};

/// Declares ping-pong entry `$name` of schedule `$ks` for `$e` inputs, A `$ma`-major, B
/// `$mb`-major, CTA tiles of N `$bn`, accumulation `$acc` (`PlainAccumulation` when left
/// out; its arguments from the parameters, [`AccumulationArgs`]), epilogue `$epi`, scheduler
/// `$sched`, `$stages` stages (an entry point, no kernel body).
#[macro_export]
macro_rules! hgemm_pingpong_entry {
    // FP8 (both operands K-major) with accumulation `$acc`
    (fp8 $name:ident, $ks:ty, $e:ty, $bn:ty, $acc:ty, $epi:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_pingpong_entry!($name, $ks, $e, MajorK, MajorK, $bn, $acc, $crate::Fp8EpilogueOf<$epi>, $sched, $stages);
    };
    // block scales through shared memory with each stage (their two tensor maps after C's):
    // the cooperative staged entries' arm with this schedule
    (fp8staged $name:ident, $ks:ty, $e:ty, $bn:ty, $acc:ty, $epi:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_entry!(staged_out $name, $e, $acc, $epi, $stages, core::convert::identity, $sched, $bn, $ks);
    };
    (pp128 $name:ident, $e:ty, $ma:ty, $mb:ty) => {
        $crate::hgemm_pingpong_entry!(pp128 $name, $e, $ma, $mb, HgemmEpilogue);
    };
    // with epilogue `$epi` (the fused ones: `FusedEpilogue<A>`)
    (pp128 $name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty) => {
        $crate::hgemm_pingpong_entry!($name, Pingpong128, $e, $ma, $mb, _128, $epi, DataParallelPingpong128, config::STAGES_PINGPONG_128);
    };
    (pp64 $name:ident, $e:ty, $ma:ty, $mb:ty) => {
        $crate::hgemm_pingpong_entry!(pp64 $name, $e, $ma, $mb, HgemmEpilogue<config::EpilogueStorage2>);
    };
    // with epilogue `$epi` on the tile's two chunk buffers a warpgroup (the fused ones:
    // `FusedEpilogue<A, NoScale, ELEMS_BF16, config::EpilogueStorage2>`)
    (pp64 $name:ident, $e:ty, $ma:ty, $mb:ty, $epi:ty) => {
        $crate::hgemm_pingpong_entry!($name, Pingpong64, $e, $ma, $mb, _128, $epi, DataParallelFp8Pp64, { config::STAGES_FP8_PP64 });
    };
    ($name:ident, $ks:ty, $e:ty, $ma:ty, $mb:ty, $bn:ty, $epi:ty, $sched:ty, $stages:expr) => {
        $crate::hgemm_pingpong_entry!($name, $ks, $e, $ma, $mb, $bn, PlainAccumulation, $epi, $sched, $stages);
    };
    ($name:ident, $ks:ty, $e:ty, $ma:ty, $mb:ty, $bn:ty, $acc:ty, $epi:ty, $sched:ty, $stages:expr) => {
        device::kernel! {
        #[doc = concat!("The ping-pong GEMM (", stringify!($ks), ") for ", stringify!($e), " inputs, A ", stringify!($ma), ", B ",
                        stringify!($mb), ", accumulation `", stringify!($acc), "`, epilogue ", stringify!($epi), " (see the crate docs).\n\n# Safety\n",
                        "As the cooperative entries, with A's box of the schedule's rows, B's of its N over the cluster, and its shared memory.")]
        pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, tma_c: TmaDescriptor, p: HgemmParams) {
            let tma = (device::grid_constant!($name, 0, tma_a), device::grid_constant!($name, 1, tma_b));
            let epi = EpilogueArgs { tma_c: device::grid_constant!($name, 2, tma_c), params: p };
            let mma = AccumulationArgs::from_params(&p);
            unsafe { gemm_tma_warpspecialized::<$ks, ClusterM, $e, $ma, $mb, $bn, $acc, $epi, $sched, { $stages }>(tma, (p.m, p.n, p.k), <$sched as HgemmScheduler>::params(&p), mma, epi) }
        }
        }
        device::launch_bounds!($name, THREADS, 1);
    };
}

// small-M FP8 (doc/fp8-gemm.md, "Small M on 64-row tiles"): 64×128 a warpgroup, paired
// temporaries, per-tensor scales, the TMA epilogue's two 64-column buffers a warpgroup, 8
// stages (cuBLASLt's configuration for 128-row FP8 problems on the H200: whole k-ranges on
// two rows of tiles, no split-K reduction)
/// The small-M FP8 entry's tile scheduler: data-parallel over 64×128 tiles.
pub type DataParallelFp8Pp64 =
    PersistentTileScheduler<{ config::TILE_FP8_PP64.0 as i32 }, { config::TILE_FP8_PP64.1 as i32 }>;
const _: () = {
    use collective::kernel::KernelSchedule;
    use collective::mainloop::TileM;
    assert!(schedules::<DataParallelFp8Pp64>(config::SCHEDULER_PINGPONG));
    let _same: fn(
        config::SharedStorageFp8Pp64,
    ) -> ScheduleSharedStorage<
        Pingpong64,
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        { config::STAGES_FP8_PP64 },
    > = |s| s;
    assert!(
        config::TILE_FP8_PP64.0 as i32 == <<Pingpong64 as KernelSchedule>::TileM as TileM>::BM
            && config::TILE_FP8_PP64.1 as i32 == <_128 as TileN>::BN
            && config::TILE_FP8_PP64.2 as i32 == collective::kernel::BK
    );
    assert!(config::SMEM_BYTES_FP8_PP64 <= 227 * 1024);
};
/// The 64-row ping-pong schedule of the small-M FP8 entry.
pub type Pingpong64 = KernelTmaWarpSpecializedPingpong<_64>;
/// The small-M block-scaled accumulation (`_staged_pp64`): paired temporaries on the quad
/// schedule, A's 64 row scales with each stage, B's from global memory four k-tiles ahead.
pub type StagedPp64 = collective::mainloop::GmmaFp8AccumulationStagedQuad;

/// The same with A's row scales in boxes of four k-tiles, one with the first stage of each
/// four (`_staged4_pp64`; any K: a tile's last four k-tiles cut short are completed with empty
/// stages; `STAGES` a multiple of four, checked by `collective::kernel::Composes`).
pub type StagedPp64x4 = collective::mainloop::GmmaFp8AccumulationStagedQuad4;

const _: () = {
    let _same: fn(
        config::SharedStorageFp8StagedPp64,
    ) -> collective::kernel::KernelSharedStorage<
        Pingpong64,
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        StagedPp64,
        { config::STAGES_FP8_STAGED_PP64 },
    > = |s| s;
    assert!(config::SMEM_BYTES_FP8_STAGED_PP64 <= 227 * 1024);
    // the host's box of A's scales is the entry's tile rows (`HgemmVariant::tile`)
    use collective::mainloop::AccumulationStage;
    assert!(
        <StagedPp64 as AccumulationStage>::STAGE_TX_BYTES as usize
            == config::TILE_FP8_PP64.0 * core::mem::size_of::<f32>()
    );
    // the boxes of four k-tiles land in four stages' scales from a stage ≡ 0 (mod 4), and one
    // is overwritten only after its first stage is released (`STAGES` a multiple of 4:
    // `collective::kernel::Composes`)
    let _same4: fn(
        config::SharedStorageFp8StagedPp64,
    ) -> collective::kernel::KernelSharedStorage<
        Pingpong64,
        HgemmEpilogue<config::EpilogueStorage2>,
        _128,
        StagedPp64x4,
        { config::STAGES_FP8_STAGED_PP64 },
    > = |s| s;
    assert!(
        collective::mainloop::StagedScales64x4::BOX_TX_BYTES as usize
            == 4 * config::TILE_FP8_PP64.0 * core::mem::size_of::<f32>()
    );
};
