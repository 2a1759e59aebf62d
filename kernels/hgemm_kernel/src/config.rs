//! The bf16/fp16 GEMM family's configuration and kernel parameters: the one source of truth the
//! kernel and the host share. `no_std`, depending on `layout-types` only, so the host includes
//! this file as a module (`#[path]`, as the CPU emulator includes kernel sources) and launches
//! with these numbers and this struct instead of restating them (the host's `HgemmKernel` docs
//! show the values; the kernel checks at compile time that they are the collective kernel's).

use layout_types::cute::consts::{_1, _32, _64};
use layout_types::cute::layout::Layout;
use layout_types::cute::swizzle::Swizzled;
pub use layout_types::cutlass::fusion::{Activation, BiasMode};
use layout_types::cutlass::gmma_operand::{
    GemmSharedStorage, SmemScales, SmemTile, StagedSharedStorage,
};
pub use layout_types::cutlass::tile_scheduler::{
    ClusterAxis, PersistentTileSchedulerParams, StreamKParams, cluster_tiles,
};
use layout_types::value::swizzle::Swizzle;

/// Threads of a CTA: one producer and two consumer warpgroups.
pub const THREADS: u32 = 384;
/// Pipeline depth (shared-memory stages): 3 of 48 KiB, so that the epilogue can stage a
/// warpgroup's whole 64×256 16-bit tile ([`CHUNK_BUFFERS`]); 4 stages left room for two chunk
/// buffers only, and each chunk then waited for the previous chunk's TMA store to read its
/// buffer (doc/hopper-gemm.md, "Toward 1.02 of cuBLAS").
pub const STAGES: usize = 3;
/// The CTA tile (M, N, K).
pub const TILE: (usize, usize, usize) = (128, 256, 64);
/// The persistent tile order's band of N-tiles (`SwizzledRaster`), the kernel's
/// `HgemmParams::sched`'s band unless `CUTE_RS_HGEMM_SWIZZLE` says otherwise (or the variant's tiles take
/// another: [`SWIZZLE_FP8_N128`]): 8. On the H200 with the
/// 3-stage kernel bands of 8 beat M-fastest (1) at 4096³ and 8192³ bf16, most at 8192³ burst
/// (750 → 779 TFLOP/s, 0.93 → 0.97 of cuBLAS: A is no longer reread once per wave); on an H100
/// with the 4-stage kernel they had measured 1–5% slower (doc/hopper-gemm.md).
pub const SWIZZLE: i32 = 8;
/// The band of the promoted per-tensor FP8 kernel's 128×128 tiles (`_n128tma6`, `_n128tma5`):
/// 16 N-tiles, 2048 columns, the width of [`SWIZZLE`]'s band of 256-wide tiles. On an H100 at
/// 4096³ e4m3, four rounds alternated (run s62c, doc/fp8-gemm.md, session 62): bands of 16 ran
/// 1,249–1,257 TFLOP/s in bursts against bands of 8's 1,211–1,233 and bands of 4's 1,179–1,187
/// (0.98–0.99 of cuBLASLt against 0.95–0.97 and 0.92–0.93).
pub const SWIZZLE_FP8_N128: i32 = 16;
/// Bytes of one epilogue chunk buffer: 64 rows of C by 64 (16-bit) or 32 (f32) columns.
pub const CHUNK_BYTES: usize = 8 * 1024;
/// The TMA box of the epilogue's stores of a 16-bit C: a 64 (M) × 64 (N) chunk, M contiguous,
/// the 128-byte swizzle (`Sw<3,3,3>` in elements: CuTe's `Layout_MN_SW128_Atom<half_t>` tiled
/// to 64×64, as the chunk is staged), coordinates `(m, n)` of C's `(M, N)`; the host encodes
/// C's tensor map with it.
///
/// ```text
/// EpilogueBoxB16::default().to_string() == "Sw<3,3,3> o _0 o (_64,_64):(_1,_64)"
/// ```
/// (Text: this file is also the host's `host::hgemm::config` and the emulator's; the host's test
/// `boxes_plan_the_kernels_maps` checks the tensor maps both boxes plan.)
pub type EpilogueBoxB16 = Swizzled<Swizzle<3, 3, 3>, Layout<(_64, _64), (_1, _64)>>;
/// The TMA box of the epilogue's stores of an `f32` C: 32 (M) × 32 (N), M contiguous, the
/// 128-byte swizzle (`Sw<3,2,3>` in elements: `Layout_MN_SW128_Atom<float>`), two per chunk.
///
/// ```text
/// EpilogueBoxF32::default().to_string() == "Sw<3,2,3> o _0 o (_32,_32):(_1,_32)"
/// ```
pub type EpilogueBoxF32 = Swizzled<Swizzle<3, 2, 3>, Layout<(_32, _32), (_1, _32)>>;
/// Epilogue chunk buffers per consumer warpgroup: four, a whole 64×256 tile of a 16-bit C, so
/// a chunk waits only for the store of the chunk four before it (the previous tile's, which
/// drained under this tile's mainloop).
pub const CHUNK_BUFFERS: usize = 4;
/// Consumer warpgroups.
pub const CONSUMERS: usize = 2;
/// Shared memory of the epilogue: [`CHUNK_BUFFERS`] chunks per consumer warpgroup (64 KiB).
pub const SMEM_EPI_BYTES: usize = CONSUMERS * CHUNK_BUFFERS * CHUNK_BYTES;
/// The flag of [`HgemmParams::out`] that selects the TMA path (`out = element code | OUT_TMA`).
pub const OUT_TMA: u32 = 4;
/// With [`OUT_TMA`]: M·`size_of(C)` is a multiple of 16 bytes, so TMA also stores the tiles
/// that cross M (without it they take the direct path: TMA would write up to 15 bytes of
/// padding after each column's row M − 1).
pub const OUT_TMA_EDGE: u32 = 8;

/// The promoted FP8 entry's CTA tile (M, N, K in 16-bit units: 128 FP8 elements of K).
pub const TILE_FP8: (usize, usize, usize) = (128, 128, 64);
/// The promoted FP8 entry's stages: 5 of 32 KiB beside the epilogue's 64 KiB (225 KiB in all).
pub const STAGES_FP8: usize = 5;

/// The per-tensor promoted FP8 entry's wider tiles (doc/fp8-gemm.md, "Wider tiles for the
/// promoted kernel"): one consumer warpgroup computes 64 × N with one `m64nNk32` temporary;
/// the epilogue stores directly, so the stages take the shared memory the TMA epilogue's
/// buffers would ([`NoEpilogueStorage`]), or, `_n192tma` (the host's entry for per-tensor
/// scales since session 14, "The n192 kernel's structure"), through the TMA epilogue
/// ([`STAGES_FP8_N192_TMA`]). `_n192` (128×192, [`TILE_FP8_N192`]), `_n160` and `_n160s5` are
/// measuring variants (`CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants`, the host's
/// `CUTE_RS_FP8_PROMOTED=n192|n160|n160s5`).
///
/// `_n160`: 128×160 tiles (cuBLASLt's promoting tile at 4096×7168×16384), 6 stages of 36 KiB.
pub const TILE_FP8_N160: (usize, usize, usize) = (128, 160, 64);
/// The stages of `_n160`.
pub const STAGES_FP8_N160: usize = 6;
/// `_n160s5`: the same with cuBLASLt's 5 stages.
pub const STAGES_FP8_N160_S5: usize = 5;
/// `_n160tma`: the same tile with the TMA epilogue's two 64-column buffers a consumer
/// warpgroup ([`EpilogueStorage2`]: a tile's three 16-bit chunks in turn, the last from column
/// 96), 5 stages.
pub const STAGES_FP8_N160_TMA: usize = 5;
/// `_n192`: 128×192 tiles, 5 stages of 40 KiB.
pub const TILE_FP8_N192: (usize, usize, usize) = (128, 192, 64);
/// The stages of `_n192`.
pub const STAGES_FP8_N192: usize = 5;
/// `_n192tma` (the per-tensor and fused default, doc/fp8-gemm.md, "The n192 kernel's
/// structure"): the 128×192 tile with the TMA epilogue ([`EpilogueStorage`]: three of each
/// consumer warpgroup's four buffers in turn, one per 64 columns), so 4 stages of 40 KiB.
pub const STAGES_FP8_N192_TMA: usize = 4;
/// The cluster shape of `gemm_fp8_e4m3_tn_promoted_n192tma_cn` (feature `fp8-variants`; the
/// module asserts it is its `ClusterN`'s): along N, A's tile shared; the other entries' clusters
/// are along M. (`_n128tma6` so, cuBLASLt's cluster shape at 4096³ on the H100, ran 0.87–0.90
/// of cuBLASLt against 0.99–1.01 on clusters along M: session 66, removed.)
pub const CLUSTER_FP8_CN: ClusterAxis = ClusterAxis::N;
/// `_n128tma6` / `_n128tma5` (measuring variants, `CUTE_RS_FP8_PROMOTED=n128tma6|n128tma5`): the
/// per-tensor 128×128 tile (paired temporaries) with the TMA epilogue's two 64-column buffers a
/// consumer warpgroup ([`EpilogueStorage2`], 32 KiB) and 6 or 5 stages of 32 KiB: cuBLASLt's
/// per-tensor promoting kernel at 4096³ on the H200 (`nvjet_sm90_qqtst_128x128_128x6_2x1`, ncu,
/// doc/fp8-gemm.md, session 15).
pub const STAGES_FP8_N128_TMA6: usize = 6;
/// The stages of `_n128tma5`.
pub const STAGES_FP8_N128_TMA5: usize = 5;
/// The storage of an epilogue that stores directly (no shared memory).
#[repr(C)]
pub struct NoEpilogueStorage;
/// An FP8 entry's shared memory: `S` stages of A's 128-row and B's `N`-row tiles (`N · 64`
/// elements), the epilogue's storage `E`, the barriers.
pub type SharedStorageFp8Tiles<const N_ELEMS: usize, E, const S: usize> =
    HgemmSharedStorage<SmemTile<{ TILE_FP8.0 * TILE_FP8.2 }>, SmemTile<N_ELEMS>, E, S>;
/// The shared memory of a wide-tile variant storing directly: [`SharedStorageFp8Tiles`] without
/// epilogue storage.
pub type SharedStorageFp8Wide<const N_ELEMS: usize, const S: usize> =
    SharedStorageFp8Tiles<N_ELEMS, NoEpilogueStorage, S>;
/// `_n160`'s shared memory.
pub type SharedStorageFp8N160 =
    SharedStorageFp8Wide<{ TILE_FP8_N160.1 * TILE_FP8_N160.2 }, STAGES_FP8_N160>;
/// `_n160s5`'s shared memory.
pub type SharedStorageFp8N160S5 =
    SharedStorageFp8Wide<{ TILE_FP8_N160.1 * TILE_FP8_N160.2 }, STAGES_FP8_N160_S5>;
/// `_n160tma`'s shared memory: 5 stages of A's 128-row and B's 160-row tiles, the two chunk
/// buffers a warpgroup, the barriers.
pub type SharedStorageFp8N160Tma = SharedStorageFp8Tiles<
    { TILE_FP8_N160.1 * TILE_FP8_N160.2 },
    EpilogueStorage2,
    STAGES_FP8_N160_TMA,
>;
/// Dynamic shared memory of `_n160tma` (5 · 36 KiB + 32 KiB + the barriers).
pub const SMEM_BYTES_FP8_N160_TMA: usize = core::mem::size_of::<SharedStorageFp8N160Tma>();
/// `_n192`'s shared memory.
pub type SharedStorageFp8N192 =
    SharedStorageFp8Wide<{ TILE_FP8_N192.1 * TILE_FP8_N192.2 }, STAGES_FP8_N192>;
/// `_n192tma`'s shared memory: 4 stages of A's 128-row and B's 192-row tiles, the TMA
/// epilogue's buffers, the barriers.
pub type SharedStorageFp8N192Tma = SharedStorageFp8Tiles<
    { TILE_FP8_N192.1 * TILE_FP8_N192.2 },
    EpilogueStorage,
    STAGES_FP8_N192_TMA,
>;
/// Dynamic shared memory of `_n192tma` (4 · 40 KiB + 64 KiB + the barriers: 225 KiB).
pub const SMEM_BYTES_FP8_N192_TMA: usize = core::mem::size_of::<SharedStorageFp8N192Tma>();
/// The shared memory of `_n128tma<S>`: `S` stages of A's and B's 128-row tiles, the two chunk
/// buffers a warpgroup, the barriers.
pub type SharedStorageFp8N128Tma<const S: usize> =
    SharedStorageFp8Tiles<{ TILE_FP8.1 * TILE_FP8.2 }, EpilogueStorage2, S>;
/// Dynamic shared memory of `_n128tma6` (6 · 32 KiB + 32 KiB + the barriers: 224 KiB).
pub const SMEM_BYTES_FP8_N128_TMA6: usize =
    core::mem::size_of::<SharedStorageFp8N128Tma<STAGES_FP8_N128_TMA6>>();
/// Dynamic shared memory of `_n128tma5` (192 KiB).
pub const SMEM_BYTES_FP8_N128_TMA5: usize =
    core::mem::size_of::<SharedStorageFp8N128Tma<STAGES_FP8_N128_TMA5>>();
/// Dynamic shared memory of `_n160` (6 · 36 KiB + the barriers: 217 KiB).
pub const SMEM_BYTES_FP8_N160: usize = core::mem::size_of::<SharedStorageFp8N160>();
/// Dynamic shared memory of `_n160s5` (181 KiB).
pub const SMEM_BYTES_FP8_N160_S5: usize = core::mem::size_of::<SharedStorageFp8N160S5>();
/// Dynamic shared memory of `_n192` (201 KiB).
pub const SMEM_BYTES_FP8_N192: usize = core::mem::size_of::<SharedStorageFp8N192>();

/// The block-scaled FP8 entries with the scales through shared memory (doc/fp8-gemm.md, "Block
/// scales through shared memory"): 128×128 tiles ([`TILE_FP8`]), the direct epilogue without
/// shared memory, each stage's A and B tiles and its block scales (A's 128 row scales of the
/// k-block, B's block scale in a box of 4: [`SmemScales`]), loaded by TMA with the stage.
/// `_staged` (the host's entry for block scales in sessions 12–13, now a measuring variant): 6
/// stages (the 64 KiB of the TMA epilogue's buffers taken by a sixth).
pub const STAGES_FP8_STAGED: usize = 6;
/// `_staged_s5`: 5 stages (the block entry's count).
pub const STAGES_FP8_STAGED_S5: usize = 5;
/// A stage's block scales (the collective's `Fp8ScaleStage`).
pub type Fp8ScaleStage = SmemScales<{ TILE_FP8.0 }, 4>;
/// The shared memory of a staged-scales entry of `S` stages: the 128×128 stages, the barriers,
/// then the `S` stages' scales.
pub type SharedStorageFp8Staged<const S: usize> =
    StagedSharedStorage<SharedStorageFp8Wide<{ TILE_FP8.1 * TILE_FP8.2 }, S>, Fp8ScaleStage, S>;
/// Dynamic shared memory of `_staged` (6 · 32 KiB + the barriers + 6 · 640 bytes: 197 KiB).
pub const SMEM_BYTES_FP8_STAGED: usize =
    core::mem::size_of::<SharedStorageFp8Staged<STAGES_FP8_STAGED>>();
/// Dynamic shared memory of `_staged_s5` (165 KiB).
pub const SMEM_BYTES_FP8_STAGED_S5: usize =
    core::mem::size_of::<SharedStorageFp8Staged<STAGES_FP8_STAGED_S5>>();
/// The block-scaled staged entries with the TMA epilogue (doc/fp8-gemm.md, "Block scales on the
/// TMA epilogue"): the 128×128 tiles' two 64-column chunks a consumer warpgroup through shared
/// memory and TMA stores, each stage's block scales as [`SharedStorageFp8Staged`]'s.
/// `_staged_tma`: [`EpilogueStorage`] (64 KiB, of which the two chunks of each warpgroup use
/// half), 4 stages.
pub const STAGES_FP8_STAGED_TMA: usize = 4;
/// `_staged_tma5` (the host's entry for block scales since session 14): the two buffers a
/// warpgroup only ([`EpilogueStorage2`], 32 KiB), 5 stages (DeepGEMM's count for this tile
/// beside its 32 KiB D buffer).
pub const STAGES_FP8_STAGED_TMA5: usize = 5;
/// The shared memory of a staged-scales entry with epilogue storage `E` and `S` stages: the
/// 128×128 stages, `E`, the barriers, then the `S` stages' scales.
pub type SharedStorageFp8StagedEpi<E, const S: usize> =
    StagedSharedStorage<SharedStorageFp8Tiles<{ TILE_FP8.1 * TILE_FP8.2 }, E, S>, Fp8ScaleStage, S>;
/// `_staged_tma`'s shared memory.
pub type SharedStorageFp8StagedTma =
    SharedStorageFp8StagedEpi<EpilogueStorage, STAGES_FP8_STAGED_TMA>;
/// `_staged_tma5`'s shared memory.
pub type SharedStorageFp8StagedTma5 =
    SharedStorageFp8StagedEpi<EpilogueStorage2, STAGES_FP8_STAGED_TMA5>;
/// Dynamic shared memory of `_staged_tma` (4 · 32 KiB + 64 KiB + the barriers + 4 · 640 bytes:
/// 196 KiB).
pub const SMEM_BYTES_FP8_STAGED_TMA: usize = core::mem::size_of::<SharedStorageFp8StagedTma>();
/// Dynamic shared memory of `_staged_tma5` (5 · 32 KiB + 32 KiB + the barriers + 5 · 640 bytes:
/// 197 KiB).
pub const SMEM_BYTES_FP8_STAGED_TMA5: usize = core::mem::size_of::<SharedStorageFp8StagedTma5>();

/// The block-scaled staged entry on 128×192 tiles with the TMA epilogue (`_staged_n192tma`,
/// doc/fp8-gemm.md, "Block scales on the 128 × 192 tile"): the per-tensor default's tile and
/// epilogue path ([`TILE_FP8_N192`], three 64-column chunks a consumer warpgroup through
/// [`EpilogueStorage3`]) with each stage's block scales ([`Fp8ScaleStageWide`]: A's 128 row
/// scales and B's two N-blocks' boxes), 4 stages of 40 KiB.
pub const STAGES_FP8_STAGED_N192_TMA: usize = 4;
/// A stage's block scales on a tile that straddles two of B's N-blocks (the collective's
/// `Fp8ScaleStageWide`: A's 128, then B's two boxes of 4, 128 bytes apart).
pub type Fp8ScaleStageWide = SmemScales<{ TILE_FP8.0 }, 36>;
/// `_staged_n192tma`'s shared memory: the 128×192 stages, the three chunk buffers of each
/// consumer warpgroup, the barriers, then the stages' scales.
pub type SharedStorageFp8StagedN192Tma = StagedSharedStorage<
    SharedStorageFp8Tiles<
        { TILE_FP8_N192.1 * TILE_FP8_N192.2 },
        EpilogueStorage3,
        STAGES_FP8_STAGED_N192_TMA,
    >,
    Fp8ScaleStageWide,
    STAGES_FP8_STAGED_N192_TMA,
>;
/// Dynamic shared memory of `_staged_n192tma` (4 · 40 KiB + 48 KiB + the barriers + 4 · 768
/// bytes of scales: 212 KiB).
pub const SMEM_BYTES_FP8_STAGED_N192_TMA: usize =
    core::mem::size_of::<SharedStorageFp8StagedN192Tma>();

/// The ping-pong entries' CTA tile (M, N, K): 64×256, a consumer warpgroup's whole tile
/// (CUTLASS's `KernelTmaWarpSpecializedPingpong`; the entries are built with
/// `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`).
pub const TILE_PINGPONG: (usize, usize, usize) = (64, 256, 64);
/// The ping-pong entries' stages: 4 of 40 KiB beside the epilogue's 64 KiB (225 KiB in all),
/// so that the producer runs further into the other warpgroup's tile.
pub const STAGES_PINGPONG: usize = 4;

/// The 128×128 ping-pong entries' CTA tile (M, N, K): a consumer warpgroup's whole tile, two
/// `m64n128` blocks along M (CUTLASS's ping-pong tile; built with
/// `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`).
pub const TILE_PINGPONG_128: (usize, usize, usize) = (128, 128, 64);
/// The 128×128 ping-pong entries' stages: 5 of 32 KiB beside the epilogue's 64 KiB (225 KiB in
/// all).
pub const STAGES_PINGPONG_128: usize = 5;

/// The small-M FP8 entry's CTA tile (M, N, K in 16-bit units: 128 FP8 elements of K): 64×128, a
/// consumer warpgroup's whole tile on the ping-pong schedule (`gemm_fp8_e4m3_tn_promoted_pp64`,
/// doc/fp8-gemm.md "Small M on 64-row tiles"): cuBLASLt's tile for 128-row FP8 problems on the
/// H200 (`nvjet_sm90_qqtst_64x128_128x8_2x4`), so that two rows of tiles fill the machine with
/// whole k-ranges and no split-K reduction.
pub const TILE_FP8_PP64: (usize, usize, usize) = (64, 128, 64);
/// The small-M FP8 entry's stages: 8 of 24 KiB beside the two 64-column epilogue buffers of each
/// consumer warpgroup (225 KiB in all; cuBLASLt's 8).
pub const STAGES_FP8_PP64: usize = 8;

/// How the host launches an entry group's tile scheduler besides dealing out whole tiles: what it
/// needs for its grid and workspace. Each entry group's is named here once; the kernel checks at
/// compile time that its scheduler type can do it (`TileScheduler::SPLITS` / `SPLIT_K`), and the
/// host's variants take these values.
///
/// ```text
/// SCHEDULER              == { stream_k: true, tail_max_fill: (1, 4), tail_fill_min_k_tiles: 32, split_k: true, balance: true }
/// SCHEDULER_PINGPONG     == SchedulerKind::DATA_PARALLEL        // no workspace
/// SCHEDULER_FP8_PROMOTED == { stream_k: true, tail_max_fill: (1, 4), tail_fill_min_k_tiles: 0, split_k: true, balance: false }
/// ```
///
/// (This file is also the host's `host::hgemm::config` and the emulator's: its examples are
/// text; `host::hgemm`'s tests check the grids these give, `split_k_grids`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedulerKind {
    /// A part-empty last wave's tiles are shared out by k-tiles between clusters (stream-K,
    /// reduced through a workspace the host gives when the tiles leave the last wave part-empty
    /// and at most [`tail_max_fill`](Self::tail_max_fill) full).
    pub stream_k: bool,
    /// With [`stream_k`](Self::stream_k): the fullest last wave, `(num, den)` of the clusters,
    /// that still takes the stream-K tail (`(1, 1)`: any part-empty one).
    pub tail_max_fill: (usize, usize),
    /// [`tail_max_fill`](Self::tail_max_fill) holds for tiles of at least this many k-tiles;
    /// shallower ones take the tail for any part-empty last wave.
    pub tail_fill_min_k_tiles: usize,
    /// With fewer tiles than clusters, every tile's k-tiles are split over the clusters
    /// (split-K: the host launches more clusters than tiles, with a workspace).
    pub split_k: bool,
    /// A data-parallel grid takes only the clusters its waves need (the host's
    /// `HgemmPlan::grid`): as many waves, none part-empty but the last by a tile at most.
    pub balance: bool,
}

impl SchedulerKind {
    /// Whole tiles only.
    pub const DATA_PARALLEL: SchedulerKind = SchedulerKind {
        stream_k: false,
        tail_max_fill: (1, 1),
        tail_fill_min_k_tiles: 0,
        split_k: false,
        balance: false,
    };
    /// Data-parallel waves and a stream-K last wave (`StreamKScheduler`).
    pub const STREAM_K: SchedulerKind = SchedulerKind {
        stream_k: true,
        tail_max_fill: (1, 1),
        tail_fill_min_k_tiles: 0,
        split_k: false,
        balance: false,
    };
    /// Split-K for fewer tiles than clusters, otherwise data-parallel (`StreamKScheduler<_, _,
    /// true>` given a workspace only for the split).
    pub const SPLIT_K: SchedulerKind = SchedulerKind {
        stream_k: false,
        tail_max_fill: (1, 1),
        tail_fill_min_k_tiles: 0,
        split_k: true,
        balance: false,
    };
    /// [`STREAM_K`](Self::STREAM_K) and [`SPLIT_K`](Self::SPLIT_K).
    pub const STREAM_K_SPLIT_K: SchedulerKind = SchedulerKind {
        stream_k: true,
        tail_max_fill: (1, 1),
        tail_fill_min_k_tiles: 0,
        split_k: true,
        balance: false,
    };
    /// This kind with a stream-K tail only for a last wave at most `(num, den)` full where the
    /// tiles have at least `from_k_tiles` k-tiles (any part-empty one below).
    ///
    /// ```text
    /// SchedulerKind::STREAM_K.tail_at_most((1, 4), 32).tail_max_fill == (1, 4)
    /// ```
    pub const fn tail_at_most(
        self,
        tail_max_fill: (usize, usize),
        from_k_tiles: usize,
    ) -> SchedulerKind {
        SchedulerKind {
            tail_max_fill,
            tail_fill_min_k_tiles: from_k_tiles,
            ..self
        }
    }
    /// This kind with [`balance`](Self::balance).
    ///
    /// ```text
    /// SchedulerKind::STREAM_K.balanced().balance == true
    /// ```
    pub const fn balanced(self) -> SchedulerKind {
        SchedulerKind {
            balance: true,
            ..self
        }
    }
    /// The fullest last wave, `(num, den)` of the clusters, that takes the stream-K tail for
    /// tiles of `k_tiles` k-tiles.
    ///
    /// ```text
    /// SCHEDULER.tail_fill(8) == (1, 1)      // 8192×8192×512: any part-empty last wave
    /// SCHEDULER.tail_fill(128) == (1, 4)    // 8192³
    /// ```
    pub const fn tail_fill(&self, k_tiles: usize) -> (usize, usize) {
        if k_tiles >= self.tail_fill_min_k_tiles {
            self.tail_max_fill
        } else {
            (1, 1)
        }
    }
}

/// The cooperative 16-bit, fused and fast-accumulation FP8 entries' (the kernel's `Scheduler`):
/// split-K for small M; from 32 k-tiles a stream-K tail only for a last wave at most a quarter
/// full, else data-parallel waves on the clusters they need ([`balance`](SchedulerKind::balance));
/// shallower tiles the tail for any part-empty last wave. H200, bf16 128 × 256
/// (doc/hopper-gemm.md, session 50): data-parallel on 64 clusters against the tail on 66 gained
/// 0.4–1.0 % burst at 8192³ (128 k-tiles, the last wave 34 of 66) and 6144³ (96, 48 of 66), level
/// at 4096³ (64, 58 of 66), e4m3 fast 4096³ (32) +0.6 %; the tail gained 6 % at 5120³ (4 of 66),
/// 10 % at 3072³ (12 of 66) and 2 % at 8192×8192×512 (8 k-tiles, 34 of 66).
pub const SCHEDULER: SchedulerKind = SchedulerKind::STREAM_K_SPLIT_K
    .tail_at_most((1, 4), 32)
    .balanced();
/// The promoted per-tensor and fused FP8 entries' (`SchedulerFp8Promoted`,
/// `SchedulerFp8PromotedN192`): split-K for small M; a stream-K tail only for a last wave at most
/// a quarter full, else data-parallel. H200, 128 × 192 (doc/fp8-gemm.md, session 12): the tail
/// gained 4–5 % at 4096×7168×16384 (the last wave 14 of 66 clusters), lost 2–3 % at 4096³ (22
/// of 66) and was level at 8192³ (56 of 66) and 4096×2112×7168 (44 of 66).
pub const SCHEDULER_FP8_PROMOTED: SchedulerKind =
    SchedulerKind::STREAM_K_SPLIT_K.tail_at_most((1, 4), 0);
/// The block-scaled promoted FP8 entry's (`DataParallelFp8`).
pub const SCHEDULER_FP8_BLOCK: SchedulerKind = SchedulerKind::DATA_PARALLEL;
/// The block-scaled measuring entry `_staged_tma5tail`'s (`StreamKFp8`): a stream-K tail only
/// for a last wave at most a quarter full (as [`SCHEDULER_FP8_PROMOTED`]), no split-K.
pub const SCHEDULER_FP8_BLOCK_TAIL: SchedulerKind = SchedulerKind::STREAM_K.tail_at_most((1, 4), 0);
/// The ping-pong entries' (`DataParallelPingpong`, `DataParallelPingpong128`).
pub const SCHEDULER_PINGPONG: SchedulerKind = SchedulerKind::DATA_PARALLEL;

/// `out` without [`OUT_TMA`] / [`OUT_TMA_EDGE`]: the element code, for the direct path.
///
/// ```text
/// out_direct(1 | OUT_TMA) == 1                  // bf16
/// out_direct(2 | OUT_TMA | OUT_TMA_EDGE) == 2   // f16
/// out_direct(OUT_TMA) == 0                      // f32
/// ```
/// (Text: this file is also the host's `host::hgemm::config`, and a doc test names one crate.)
#[inline(always)]
pub const fn out_direct(out: u32) -> u32 {
    out & !(OUT_TMA | OUT_TMA_EDGE)
}

/// Whether the TMA epilogue can read a source (`beta ≠ 0`) for the element `out` names: a
/// 16-bit C, its tile read into the chunk buffers, a buffer a 64-column chunk (an f32 C's
/// 32-column chunks share buffers, so its tiles with `beta ≠ 0` go direct). The kernel's rule
/// (`epilogue::store`, which also needs a buffer a chunk) and the host's plan
/// (`hgemm_epilogue`).
///
/// ```text
/// tma_reads_source(1 | OUT_TMA) == true     // bf16
/// tma_reads_source(2) == true                // f16
/// tma_reads_source(OUT_TMA | OUT_TMA_EDGE) == false   // f32
/// ```
/// (`host::hgemm::hgemm_epilogue`'s example checks the plans these give.)
#[inline(always)]
pub const fn tma_reads_source(out: u32) -> bool {
    // the element code's bits (0 f32, 1 bf16, 2 f16), below the flags
    out & (OUT_TMA - 1) != 0
}

/// The TMA path's source loads (`beta ≠ 0`, a 16-bit C read into the chunk buffers by TMA):
/// a full barrier a consumer warpgroup, which the loads of its tile's chunks complete
/// (CUTLASS's epilogue load pipeline, one stage a tile; the phase waited for is read from the
/// barrier itself, so the epilogue keeps no state across the mainloop: the loads `load` issues
/// under the mainloop leave the phase's one arrival owed until the epilogue). The epilogue's
/// `CollectiveEpilogue::PipelineStorage`, beside the mainloop pipeline's barriers
/// ([`HgemmSharedStorage`]: in their 1 KiB, no growth); initialized by the kernel's prologue
/// (`CollectiveEpilogue::init`).
///
/// ```text
/// size_of::<SourceBarriers>() == 16
/// ```
#[repr(C)]
pub struct SourceBarriers {
    /// The full barriers, one a consumer warpgroup.
    pub full: [u64; CONSUMERS],
}

/// A kernel of this family's shared memory ([`GemmSharedStorage`]) with its epilogues'
/// pipeline storage, [`SourceBarriers`] (every epilogue of the family has it; in the mainloop
/// barriers' padding, so no larger).
pub type HgemmSharedStorage<A, B, E, const S: usize> =
    GemmSharedStorage<A, B, E, S, SourceBarriers>;

/// The epilogue's shared memory, 1024-byte aligned (the 128-byte swizzle's period).
#[repr(C, align(1024))]
pub struct EpilogueStorage(pub [u8; SMEM_EPI_BYTES]);

/// Shared memory of the epilogue with two chunk buffers a consumer warpgroup (32 KiB): a
/// 128-wide tile's two 64-column chunks in one round, a 256-wide one's four in two.
pub const SMEM_EPI_BYTES_2: usize = CONSUMERS * 2 * CHUNK_BYTES;

/// The epilogue's shared memory of [`SMEM_EPI_BYTES_2`], 1024-byte aligned.
#[repr(C, align(1024))]
pub struct EpilogueStorage2(pub [u8; SMEM_EPI_BYTES_2]);

/// Shared memory of the epilogue with three chunk buffers a consumer warpgroup (48 KiB): a
/// 192-wide tile's three 64-column chunks in one round.
pub const SMEM_EPI_BYTES_3: usize = CONSUMERS * 3 * CHUNK_BYTES;

/// The epilogue's shared memory of [`SMEM_EPI_BYTES_3`], 1024-byte aligned.
#[repr(C, align(1024))]
pub struct EpilogueStorage3(pub [u8; SMEM_EPI_BYTES_3]);

/// The named barrier of consumer warpgroup 0's epilogue meeting; warpgroup 1 uses the next id.
pub const EPI_BARRIER: u32 = 3;
/// The first of the staged chunks' hand-off barriers ([`ChunkHandoff`]'s, `epilogue::chunk_handoff`):
/// one a chunk of a tile and a warpgroup, (chunk, warpgroup) → id − `CHUNK_BARRIER` in
/// `(4, 2):(1, 4)`, ids 8 to 15. (The GEMM modules' other named barriers: 0, the mainloop's
/// order 1 and 2, [`EPI_BARRIER`]'s 3 and 4.)
pub const CHUNK_BARRIER: u32 = 8;

/// How the TMA epilogue stores a tile whose chunks each have a buffer (`epilogue::store`): a
/// type parameter of `HgemmEpilogue` and `FusedEpilogue`, as CUTLASS's
/// epilogue dispatch policies carry their store schedule (`DelayTmaStore`). Measured per family
/// (H100 runs s79a–s79c, doc/hopper-gemm.md "Session 79"): the 16-bit entries take
/// [`ChunkHandoff`], the FP8 entries [`OneMeeting`] (`Fp8EpilogueOf`).
///
/// ```text
/// ChunkHandoff::HANDOFF == true    // a chunk's store issued as soon as it is staged
/// OneMeeting::HANDOFF   == false   // every chunk staged, one meeting, then the stores
/// ```
pub trait StoreSchedule {
    /// Each chunk handed to the storing warp at a barrier of its own (true), or the tile's
    /// chunks stored after one meeting of the warpgroup (false).
    const HANDOFF: bool;
}
/// Each staged chunk handed to warp 0 (the other warps arrive and go on), whose thread 0 stores
/// it at once, the tile's stores one bulk group: 8192²×512 bf16 +6 % over [`OneMeeting`], 4096³
/// level (H100 run s79c).
pub struct ChunkHandoff;
impl StoreSchedule for ChunkHandoff {
    const HANDOFF: bool = true;
}
/// Every chunk staged, then one proxy fence, one warpgroup meeting and the tile's stores in one
/// bulk group: the FP8 entries' (e4m3 4096³ on the 128 × 192 tile 1.5–3 % faster than with
/// [`ChunkHandoff`], H100 runs s79b, s79c).
pub struct OneMeeting;
impl StoreSchedule for OneMeeting {
    const HANDOFF: bool = false;
}

/// An epilogue storage's chunk buffers a consumer warpgroup: the TMA path's warpgroups lie
/// `PER_WARPGROUP` buffers apart, and a tile's chunks go through `min(PER_WARPGROUP, chunks)`
/// of them in turn (`epilogue::store`).
///
/// ```text
/// EpilogueStorage::PER_WARPGROUP  == 4   // 64 KiB
/// EpilogueStorage3::PER_WARPGROUP == 3   // 48 KiB
/// EpilogueStorage2::PER_WARPGROUP == 2   // 32 KiB
/// NoEpilogueStorage::PER_WARPGROUP == 0  // direct from registers
/// ```
pub trait ChunkBuffers {
    /// Buffers of [`CHUNK_BYTES`] a consumer warpgroup.
    const PER_WARPGROUP: usize;
}
impl ChunkBuffers for EpilogueStorage {
    const PER_WARPGROUP: usize = CHUNK_BUFFERS;
}
impl ChunkBuffers for EpilogueStorage3 {
    const PER_WARPGROUP: usize = 3;
}
impl ChunkBuffers for EpilogueStorage2 {
    const PER_WARPGROUP: usize = 2;
}
/// None: the epilogue stores from registers, on its direct path only ([`out_direct`]).
impl ChunkBuffers for NoEpilogueStorage {
    const PER_WARPGROUP: usize = 0;
}

/// The cooperative 16-bit kernel's shared memory with epilogue storage `E` and `S` stages: A's
/// and B's stage tiles, `E`, the pipeline's barriers, one `#[repr(C)]` struct.
pub type SharedStorageTiles<E, const S: usize> =
    HgemmSharedStorage<SmemTile<{ TILE.0 * TILE.2 }>, SmemTile<{ TILE.1 * TILE.2 }>, E, S>;
/// The kernel's shared memory ([`SharedStorageTiles`] with four chunk buffers a warpgroup,
/// [`STAGES`]).
pub type SharedStorage = SharedStorageTiles<EpilogueStorage, STAGES>;
/// Dynamic shared memory of a CTA: `size_of` the [`SharedStorage`].
pub const SMEM_BYTES: usize = core::mem::size_of::<SharedStorage>();
/// The cooperative entries' `_s4` twins (built with `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`; the
/// host's `CUTE_RS_HGEMM_SCHEDULE=cooperative4`): 4 stages beside two chunk buffers a consumer
/// warpgroup ([`EpilogueStorage2`], a 64×256 tile's four chunks in two rounds), cuBLAS's stage
/// count at 2048³ on the H200 (`nvjet_sm90_tst_256x128_64x4_1x2`, ncu, session 15).
pub const STAGES_S4: usize = 4;
/// The `_s4` entries' shared memory.
pub type SharedStorageS4 = SharedStorageTiles<EpilogueStorage2, STAGES_S4>;
/// Dynamic shared memory of the `_s4` entries (4 · 48 KiB + 32 KiB + the barriers: 224 KiB).
pub const SMEM_BYTES_S4: usize = core::mem::size_of::<SharedStorageS4>();
/// The promoted FP8 entry's shared memory: A's and B's 128-row stage tiles, the epilogue's
/// buffers, the barriers.
pub type SharedStorageFp8 =
    SharedStorageFp8Tiles<{ TILE_FP8.1 * TILE_FP8.2 }, EpilogueStorage, STAGES_FP8>;
/// Dynamic shared memory of the promoted FP8 entry's CTA.
pub const SMEM_BYTES_FP8: usize = core::mem::size_of::<SharedStorageFp8>();

/// The ping-pong entries' shared memory: A's 64-row and B's 256-row stage tiles, the
/// epilogue's buffers (four per consumer warpgroup, as the cooperative kernel's), the barriers.
pub type SharedStoragePingpong = HgemmSharedStorage<
    SmemTile<{ TILE_PINGPONG.0 * TILE_PINGPONG.2 }>,
    SmemTile<{ TILE_PINGPONG.1 * TILE_PINGPONG.2 }>,
    EpilogueStorage,
    STAGES_PINGPONG,
>;
/// Dynamic shared memory of the ping-pong entries' CTA.
pub const SMEM_BYTES_PINGPONG: usize = core::mem::size_of::<SharedStoragePingpong>();

/// The 128×128 ping-pong entries' shared memory: A's and B's 128-row stage tiles, the
/// epilogue's buffers, the barriers.
pub type SharedStoragePingpong128 = HgemmSharedStorage<
    SmemTile<{ TILE_PINGPONG_128.0 * TILE_PINGPONG_128.2 }>,
    SmemTile<{ TILE_PINGPONG_128.1 * TILE_PINGPONG_128.2 }>,
    EpilogueStorage,
    STAGES_PINGPONG_128,
>;
/// Dynamic shared memory of the 128×128 ping-pong entries' CTA.
pub const SMEM_BYTES_PINGPONG_128: usize = core::mem::size_of::<SharedStoragePingpong128>();

/// The small-M FP8 entry's shared memory: A's 64-row and B's 128-row stage tiles, two epilogue
/// buffers a consumer warpgroup ([`EpilogueStorage2`]), the barriers.
pub type SharedStorageFp8Pp64 = HgemmSharedStorage<
    SmemTile<{ TILE_FP8_PP64.0 * TILE_FP8_PP64.2 }>,
    SmemTile<{ TILE_FP8_PP64.1 * TILE_FP8_PP64.2 }>,
    EpilogueStorage2,
    STAGES_FP8_PP64,
>;
/// Dynamic shared memory of the small-M FP8 entry's CTA (8 · 24 KiB + 32 KiB + the barriers).
pub const SMEM_BYTES_FP8_PP64: usize = core::mem::size_of::<SharedStorageFp8Pp64>();
/// A stage's block scales on the 64-row tile (the collective's `Fp8ScaleStage64`): A's 64 row
/// scales of one k-block (the host's box of A's scales is the entry's tile rows), no B box (the
/// paired consumers read B's scales from global memory).
pub type Fp8ScaleStagePp64 = SmemScales<{ TILE_FP8_PP64.0 }, 0>;
/// The small-M block-scaled entry's stages (`gemm_fp8_e4m3_tn_promoted_staged_pp64`): 8, as the
/// per-tensor entry's, each with its block scales ([`Fp8ScaleStagePp64`]: 256 bytes).
pub const STAGES_FP8_STAGED_PP64: usize = 8;
/// The small-M block-scaled entry's shared memory: [`SharedStorageFp8Pp64`]'s parts, then the
/// stages' scales.
pub type SharedStorageFp8StagedPp64 = StagedSharedStorage<
    HgemmSharedStorage<
        SmemTile<{ TILE_FP8_PP64.0 * TILE_FP8_PP64.2 }>,
        SmemTile<{ TILE_FP8_PP64.1 * TILE_FP8_PP64.2 }>,
        EpilogueStorage2,
        STAGES_FP8_STAGED_PP64,
    >,
    Fp8ScaleStagePp64,
    STAGES_FP8_STAGED_PP64,
>;
/// Dynamic shared memory of the small-M block-scaled entry (8 · 24 KiB + 32 KiB + the barriers
/// + 8 · 256 bytes of scales).
pub const SMEM_BYTES_FP8_STAGED_PP64: usize = core::mem::size_of::<SharedStorageFp8StagedPp64>();

/// The kernel's scalar parameters, passed by value after the three tensor maps (A, B, C).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct HgemmParams {
    /// Rows of C.
    pub m: i32,
    /// Columns of C.
    pub n: i32,
    /// The reduction depth.
    pub k: i32,
    /// Scale of the product.
    pub alpha: f32,
    /// Scale of C (0: C is not read).
    pub beta: f32,
    /// C's element (0 f32, 1 bf16, 2 f16), plus [`OUT_TMA`] (and [`OUT_TMA_EDGE`]) for the TMA
    /// path.
    pub out: u32,
    /// C's device address.
    pub c: u64,
    /// C's leading dimension (elements).
    pub ldc: i64,
    /// The bias vector's device address (`f32`, M or N elements; 0 without a bias).
    pub bias: u64,
    /// Where the bias lies: a [`BiasMode`] code (0 none, 1 along M, 2 along N).
    pub bias_mode: u32,
    /// The activation: an [`Activation`] code (0 identity, 1 ReLU, 2 GELU tanh, 3 GELU erf,
    /// 4 SiLU).
    pub act: u32,
    /// The tile scheduler's parameters, built on the host for this problem, the entry's tile,
    /// the cluster and the grid: the tile order (bands of [`SWIZZLE`] N-tiles unless a
    /// measurement asks for another, or a Hilbert table), the stream-K or split-K split and its
    /// workspace ([`stream_k_workspace_bytes`] for the grid's clusters, zeroed before its first
    /// use; the kernel leaves it zeroed). The data-parallel entries read its tile order only.
    pub sched: StreamKParams,
    /// The FP8 entries with promotion: A's block scales (`f32`, `(M, ⌈K/128⌉)` column-major;
    /// 0: per-tensor scales, in `alpha`); the other entries ignore it.
    pub scale_a: u64,
    /// B's block scales (`f32`, `(⌈N/128⌉, ⌈K/128⌉)` row-major), with [`Self::scale_a`].
    pub scale_b: u64,
    /// The fused epilogue's per-row scales of the product (`f32`, M values: `torch._scaled_mm`'s
    /// row-wise `scale_a` of shape `(M, 1)`), or 0: none (the fused FP8 entries read it).
    pub scale_m: u64,
    /// The fused epilogue's per-column scales of the product (`f32`, N values: `scale_b` of
    /// shape `(1, N)`), or 0: none.
    pub scale_n: u64,
}

/// Bytes of one slot of the stream-K workspace (`collective::scheduler::FixupSlot`): a
/// consumer warpgroup's 64×256 f32 partial accumulators and one flag per thread.
pub const FIXUP_SLOT_BYTES: usize = 128 * 128 * 4 + 128 * 4;
/// Workspace slots per resident cluster: 2 CTA ranks × [`CONSUMERS`] warpgroups.
pub const FIXUP_SLOTS_PER_CLUSTER: usize = 2 * CONSUMERS;

/// The stream-K workspace of a persistent grid of `clusters` clusters: the bytes
/// the workspace [`HgemmParams::sched`] points to (16.6 MiB for 66 clusters; the host's `HgemmKernel`
/// docs show it).
///
/// ```text
/// stream_k_workspace_bytes(1) == 4 * (64 * 1024 + 512)    // 2 CTAs × 2 warpgroups: 264192
/// stream_k_workspace_bytes(66) == 17_436_672              // 16.6 MiB
/// ```
pub const fn stream_k_workspace_bytes(clusters: usize) -> usize {
    clusters * FIXUP_SLOTS_PER_CLUSTER * FIXUP_SLOT_BYTES
}

/// Split-K (the FP8 entries' `SPLIT_K` scheduler): each cluster's range is at least this many
/// k-tiles (the partials it stores, 128 KiB a CTA, against its loads of 48 KiB a k-tile).
pub const SPLIT_K_MIN_RANGE: usize = 8;
/// Split-K only if it saves each cluster at least this many k-tiles of the data-parallel
/// schedule's `k_tiles` (the reduction and the extra work unit cost a few).
pub const SPLIT_K_MIN_SAVED: usize = 16;

/// The clusters a split-K launch of `tiles` cluster tiles of `k_tiles` k-tiles uses, with
/// `resident` clusters fitting on the device: `None` (data-parallel, one cluster per tile at
/// most) unless there are fewer tiles than clusters and the split saves
/// [`SPLIT_K_MIN_SAVED`] k-tiles; else every tile split into the same number of pieces, as
/// many as fit (each range at least [`SPLIT_K_MIN_RANGE`] k-tiles): a whole multiple of
/// `tiles` clusters, so that each cluster's range is one piece of one tile — where that makes
/// at least two pieces a tile; with fewer than twice as many clusters as tiles, all of them
/// (ranges longer than a tile straddle two) if there are at least half again as many as
/// tiles, else none (data-parallel). The kernel's scheduler splits when the grid has more
/// clusters than tiles (and a workspace).
///
/// Why whole multiples (H200, FP8 per-tensor 128×7168×16384, 38 tiles of 128×192, session
/// 20): on all 132 SMs the ranges of 36.8 k-tiles straddle tiles (two work units a cluster,
/// two reductions) and the launch ran at 0.69–0.70 of cuBLASLt; on 114 SMs (3 pieces a tile)
/// 0.79–0.80 and on 76 (2 pieces) 0.77–0.78, but on 100 (ranges straddling again) 0.73–0.74
/// (doc/fp8-gemm.md, "Small M again"). With fewer than two pieces a tile the whole
/// multiple is the tiles alone, no split: 256×7168×16384 (38 cluster tiles of 2 × 128×192, 66
/// clusters) ran 0.71–0.72 of cuBLASLt on 38 clusters against 0.85–0.86 on 66; on 2 × 128×128
/// tiles (56 cluster tiles) data-parallel on 56 clusters ran 0.92 against 0.85 split over 66.
///
/// For example (this file is compiled into the host and into the CPU emulator under different
/// paths, so the host's unit test `hgemm::tests::split_k_grids` runs these):
///
/// ```text
/// split_k_clusters(28, 128, 132) == Some(112) // FP8 128×7168×16384, 128×256 tiles, an H200
/// split_k_clusters(38, 128, 132) == Some(114) // the same on 128×192 tiles
/// split_k_clusters(38, 128, 66) == Some(66)   // 256×7168×16384, clusters of 2: fewer than 2 a tile
/// split_k_clusters(56, 128, 66) == None       // the same on 128×128 tiles: too few to gain
/// split_k_clusters(448, 128, 66) == None      // 4096×7168×16384: data-parallel + stream-K
/// split_k_clusters(28, 8, 132) == None        // K of 1024 (8 k-tiles): nothing to save
/// ```
pub const fn split_k_clusters(tiles: usize, k_tiles: usize, resident: usize) -> Option<usize> {
    if tiles == 0 {
        return None;
    }
    let by_range = tiles * k_tiles / SPLIT_K_MIN_RANGE;
    let most = if by_range < resident {
        by_range
    } else {
        resident
    };
    // the same number of pieces for every tile, where there are two or more (either way more
    // clusters than tiles)
    let clusters = if most / tiles >= 2 {
        most / tiles * tiles
    } else if 2 * most >= 3 * tiles {
        most
    } else {
        return None;
    };
    // each cluster's k-tiles, rounded up, against a whole tile's
    let range = (tiles * k_tiles).div_ceil(clusters);
    if k_tiles >= range + SPLIT_K_MIN_SAVED {
        Some(clusters)
    } else {
        None
    }
}
