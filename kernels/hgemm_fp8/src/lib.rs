//! The FP8 GEMM on Hopper (issue #37): `D = alpha·op(A)·op(B)` for e4m3 / e5m2 A and B, both
//! K-major, D stored as f32, bf16 or f16 — one PTX module (`hgemm_fp8.ptx`) of entries, each one line
//! instantiating the `hgemm_kernel` library's kernel with an FP8 mainloop accumulation
//! ([`hgemm_kernel::hgemm_entry!`], [`hgemm_kernel::hgemm_pingpong_entry!`]; the library's docs
//! describe the kernel, its schedulers and epilogues).
//!
//! The FP8 entries `gemm_fp8_{e4m3,e5m2}_tn` (issue #37) are the same kernel on
//! `wgmma.m64n256k32` with e4m3 or e5m2 A and B, both K-major (the 8-bit `wgmma` has no
//! transpose), per-tensor scales folded into `alpha = scale_a·scale_b` (`beta` 0), D stored as
//! f32, bf16 or f16, accumulation in the tensor core over all of K ("fast accumulation": no
//! promotion to the fp32 registers every 4 `wgmma`s). A K-major FP8 k-tile of 128 elements is
//! byte for byte the 16-bit k-tile of 64 (one 128-byte SW128 row per M or N, k-blocks of 32
//! bytes): the stages, TMA boxes and descriptors are the 16-bit ones, A and B's tensor maps and
//! `p.k` count K in pairs of 8-bit elements (`K/2`; the host requires K a multiple of 16).
//!
//! The FP8 entry `gemm_fp8_e4m3_tn_promoted` promotes instead, on 128×128 tiles
//! ([`TILE_FP8`], [`STAGES_FP8`] stages): each k-tile's four `wgmma.m64n128k32` of a consumer
//! warpgroup go into a 64×128 temporary accumulator (k-tiles in pairs, two temporaries: the
//! first promoted while the second's `wgmma`s run) that is then added into the fp32 main
//! accumulator (`collective::mainloop::GmmaFp8Accumulation`, the same cooperative kernel with `BN` 128), scaled by the k-block's block scales (1×128 for
//! A's rows, 128×128 for B) when `p.scale_a` is not 0, else by 1 (per-tensor scales in
//! `alpha`). Its epilogue takes the direct path (bound-checked stores). For per-tensor scales
//! the host launches `gemm_fp8_e4m3_tn_promoted_n192tma`: the promoted kernel without the block
//! scales' code on 128×192 tiles ([`config::TILE_FP8_N192`], one `wgmma.m64n192k32` temporary
//! per consumer warpgroup) with the TMA epilogue ([`HgemmEpilogue`]: each warpgroup's 64×192
//! tile in three 64-column chunks through shared memory, stored while the next tile's `wgmma`s
//! run) and [`config::STAGES_FP8_N192_TMA`] stages beside its buffers, or the same on 128×128
//! (`_n128tma6`) or 128×160 (`_n160tma`: three 64-column chunks, the last from column 96, round
//! two buffers) tiles where those fill the machine better (the host's rule). For block scales it
//! launches `gemm_fp8_e4m3_tn_promoted_staged_n192tma` (M a multiple of 4): the same 128×192
//! kernel and TMA epilogue (`HgemmEpilogue<config::EpilogueStorage3>`: three chunk buffers a warpgroup) with each stage's
//! block scales brought into shared memory by TMA beside A's and B's k-tiles
//! (`collective::mainloop::GmmaFp8AccumulationStagedWide`, the scales' tensor maps in its two
//! extra parameters: A's 128 row scales and the boxes of the two 128-column N-blocks a 192-wide
//! tile straddles, each 64-column chunk of the tile scaled by its own block's scale),
//! [`config::STAGES_FP8_STAGED_N192_TMA`] stages, data-parallel (the 128×128 `_staged_tma5`,
//! paired temporaries and two chunk buffers a warpgroup, is a measuring variant since session 15).
//! Where those 128×192 tiles leave their waves less than 0.6 full (middle M: 256×7168, 512×7168)
//! it launches `gemm_fp8_e4m3_tn_promoted_staged1_tma5sk`: 128×128 tiles, one temporary, two
//! chunk buffers, the per-tensor entries' scheduler (a stream-K tail, or split-K in one wave).
//!
//! For small M (where the tiles above would split their k-ranges over clusters and 64-row tiles
//! fill one wave) the host launches `gemm_fp8_e4m3_tn_promoted_pp64`, for block scales
//! `gemm_fp8_e4m3_tn_promoted_block_pp64` (the scales from global memory in the k-tile loop) and
//! for fast accumulation `gemm_fp8_{e4m3,e5m2}_tn_fast_pp64` (and `…_fast192tma` on the
//! per-tensor kernel's 128×192 tiles where those fill the machine better): the ping-pong schedule on 64×128 tiles
//! ([`config::TILE_FP8_PP64`], each consumer warpgroup a whole tile with its whole k-range,
//! [`config::STAGES_FP8_PP64`] stages, the TMA epilogue's two buffers a warpgroup, clusters of 2
//! along M sharing B), the same mainloop and accumulations composed by
//! `collective::kernel::KernelTmaWarpSpecializedPingpong<_64>`.
//!
//! The fused FP8 entries `gemm_fp8_fused_e4m3_tn_{identity,relu,gelu,gelu_erf,silu}_{n192tma,n128tma6}`
//! are the per-tensor promoted kernel on its 128×192 and 128×128 tiles (the host takes the
//! per-tensor launch's tile) with [`FusedFp8Epilogue`] on the TMA epilogue's path: `D = act(alpha·s_row[r]·s_col[c]·acc + bias)`, one entry per activation
//! as the 16-bit fused family, the bias (along M or N) and the per-row and per-column scales
//! (`torch._scaled_mm`'s row-wise scaling; [`RowColScale`](layout_types::cutlass::fusion::RowColScale), [`HgemmParams::scale_m`] /
//! [`HgemmParams::scale_n`], 0 each for none) run-time parameters, D f32, bf16 or f16 (the
//! direct-epilogue ones, `_n192` ([`NoEpilogueStorage`](hgemm_kernel::config::NoEpilogueStorage)), and the 128×128 ones without a suffix are
//! measuring variants, feature `fp8-variants`).
//!
//! With feature `representative` the module has the representative entries only (13 of the 30: one per
//! schedule, tile, epilogue form and operand majority; `#[cfg(not(feature = "representative"))]`
//! on the others): `cargo xtask test` builds that where no GPU runs the entries, `cargo xtask
//! test-full` and every other build every entry.
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

#[cfg(feature = "fp8-variants")]
use collective::cluster::{ClusterN, ClusterShape};
use hgemm_kernel::prelude::*;

// fast accumulation on the 16-bit kernel's 128×256 tiles; every FP8 entry's epilogue is without a
// source and meets once a tile to store it (`Fp8EpilogueOf`: `Context::gemm_fp8` passes no `beta`)
hgemm_entry!(
    gemm_fp8_e4m3_tn,
    (E4M3, E4M3),
    MajorK,
    MajorK,
    Fp8EpilogueOf<HgemmEpilogue>,
    Scheduler
);
hgemm_entry!(
    gemm_fp8_e5m2_tn,
    (E5M2, E5M2),
    MajorK,
    MajorK,
    Fp8EpilogueOf<HgemmEpilogue>,
    Scheduler
);
// the default: paired temporaries, no turns (doc/fp8-gemm.md, round 4: 0.62-0.63 of cuBLASLt
// against one temporary's 0.56 at 4096x7168x16384, +6-12 % at 4096³ / 8192³, even with block
// scales; the consumers taking turns measured 6-8 % slower and were dropped), on the quad
// schedule (each k-tile's scales four k-tiles ahead in a queue slot of its own; session 38:
// +5–7 % with block scales at 4098 rows, where the staged entries do not take them)
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted, (E4M3, E4M3), GmmaFp8AccumulationQuad);
// round 4 (doc/fp8-gemm.md): fast accumulation on the promoted entry's 128×128 tiles (what the
// tile costs without promotion: 0.71 of cuBLASLt against the 128×256 fast entry's 0.94)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(fast128 gemm_fp8_e4m3_tn_fast128, (E4M3, E4M3));
// the same for per-tensor scales on 128×128 tiles (the host's per-tensor default until session 12,
// now `CUTE_RS_FP8_PROMOTED=n128`; the fused FP8 entries' kernel): no block scales' loads and queue
// in the k-tile loop, 141 SASS instructions per warp and k-tile against 162; H200 (doc/fp8-gemm.md,
// round 5): 0.67-0.68 of cuBLASLt at 4096x7168x16384 against 0.60-0.61, 0.62 against 0.57 at 8192³
// its k-tiles split over the clusters for small M (SchedulerFp8Promoted; the block-scale entry
// stays data-parallel)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_pt, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted);

// Wider tiles for the per-tensor promoted kernel (doc/fp8-gemm.md, "Wider tiles for the promoted
// kernel", session 12): one consumer warpgroup on 64×192 (`m64n192k32`, 96 + 96 registers: one
// temporary, paired temporaries would need 288) or 64×160 (80 + 80). The host's per-tensor
// default is 128×192 with the TMA epilogue (`HgemmEpilogue`: three 64-column chunks a warpgroup
// through shared memory, stored while the next tile's `wgmma`s run; its 64 KiB leave 4 stages of
// 40 KiB): H200 against the same tile with the direct epilogue and 5 stages (doc/fp8-gemm.md, "The
// n192 kernel's structure", session 14) +10-13 % at 4096x7168x16384, +21 % at 8192³, +39-52 % at
// 4096³, +32-42 % at 4096x2112x7168
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, HgemmEpilogue, _192, config::STAGES_FP8_N192_TMA);
// the same with clusters along N (A's tile shared), a measuring variant: with one row of
// M-tiles (small M, split-K) clusters along M share nothing; on the H200 this cut
// 128×7168×16384's L2 bytes by 11 % and gained 1–2 % (doc/fp8-gemm.md, "Small M again")
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n192tma_cn, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, HgemmEpilogue, _192, config::STAGES_FP8_N192_TMA, ClusterN);
#[cfg(feature = "fp8-variants")]
const _: () = assert!(matches!(
    <ClusterN as ClusterShape>::AXIS,
    config::CLUSTER_FP8_CN
));
// the direct epilogue without shared memory, 5 stages (the per-tensor default of sessions 12-13,
// `CUTE_RS_FP8_PROMOTED=n192`; against the 128×128 `_pt`: +2 % at 4096x7168x16384, +10 % at
// 8192³, +5 % at 4096³); the 128×160 ones likewise (`CUTE_RS_FP8_PROMOTED=n160|n160s5`: +3-4 % at
// 4096x7168x16384, +2-5 % at 8192³)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, DirectEpilogue, _192, config::STAGES_FP8_N192);
// the same with consumer warpgroup 1's promotion windows shifted by half a k-tile (doc/fp8-gemm.md,
// "Promotion windows offset between the consumers", session 13; `CUTE_RS_FP8_PROMOTED=n192off`)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_n192off, (E4M3, E4M3), GmmaFp8Accumulation<false, false, false, 96, true>, SchedulerFp8PromotedN192, DirectEpilogue, _192, config::STAGES_FP8_N192);
// the TMA epilogue's 128×192 (the per-tensor default) with those windows (session 69: measured
// as `_n192tma`'s code by `tools/gpu/cut_ptx.py ENTRY=ALIAS`, the same launch)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n192tmaoff, (E4M3, E4M3), GmmaFp8Accumulation<false, false, false, 96, true>, SchedulerFp8PromotedN192, HgemmEpilogue, _192, config::STAGES_FP8_N192_TMA);
// What promotion costs the n192 kernel (diagnostics, session 13; the host has no switch for them:
// each one's PTX renamed `gemm_fp8_e4m3_tn_promoted_n192off` by `tools/gpu/cut_ptx.py` runs under
// that entry's launch): on its tiles, stages, scheduler and epilogue, `_fast192` accumulates in the
// `wgmma`s (no promotion, a k-tile's `wgmma`s left in flight), `_drain192` too but waits for each
// k-tile's `wgmma`s (`wait_group 0`) before the release, as the promoted loop does, without the FFMAs
#[cfg(feature = "fp8-variants")]
hgemm_entry!(fast_wide gemm_fp8_e4m3_tn_fast192, (E4M3, E4M3), PlainAccumulation, _192, SchedulerFp8PromotedN192, config::STAGES_FP8_N192);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(fast_wide gemm_fp8_e4m3_tn_drain192, (E4M3, E4M3), PlainAccumulation<0>, _192, SchedulerFp8PromotedN192, config::STAGES_FP8_N192);

// The n192 kernel's structure (doc/fp8-gemm.md, "The n192 kernel's structure", session 14,
// diagnostics: each one's PTX renamed to the host entry of its tile and shared memory by
// `tools/gpu/cut_ptx.py`, as `_fast192`): without promotion, the TMA epilogue on 4 stages; on the
// direct epilogue, 4 stages (promoted too) and the 128×160 tile
// (session 66: `_fast192tma` and its e5m2 twin in the default build, fast accumulation's tile where
// 128×192 fills the machine better than 128×256 — `Fp8FastTile::for_problem`: 4096×2112×7168)
hgemm_entry!(fast_wide gemm_fp8_e4m3_tn_fast192tma, (E4M3, E4M3), PlainAccumulation, _192, SchedulerFp8PromotedN192, config::STAGES_FP8_N192_TMA, HgemmEpilogue);
#[cfg(not(feature = "representative"))]
hgemm_entry!(fast_wide gemm_fp8_e5m2_tn_fast192tma, (E5M2, E5M2), PlainAccumulation, _192, SchedulerFp8PromotedN192, config::STAGES_FP8_N192_TMA, HgemmEpilogue);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(fast_wide gemm_fp8_e4m3_tn_fast192s4, (E4M3, E4M3), PlainAccumulation, _192, SchedulerFp8PromotedN192, config::STAGES_FP8_N192_TMA);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_n192s4, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, DirectEpilogue, _192, config::STAGES_FP8_N192_TMA);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(fast_wide gemm_fp8_e4m3_tn_fast160, (E4M3, E4M3), PlainAccumulation, _160, wide::SchedulerN160, config::STAGES_FP8_N160_S5);
// the per-tensor 128×128 tile with the TMA epilogue's two buffers a warpgroup and 6 or 5 stages
// (cuBLASLt's per-tensor promoting configuration at 4096³ on the H200: 128×128, 6 stages,
// cooperative, clusters of 2; doc/fp8-gemm.md, session 15), `CUTE_RS_FP8_PROMOTED=n128tma6|n128tma5`:
// H200 against 128×192, level to 3 % behind at the large shapes; with split-K +7-8 % at
// 128×7168×16384, level at 128×2112×7168, -8 % at 64×4096×8192. Since session 16 the host's
// per-tensor tile where 128×192 wastes a third of its last N-tile and last wave (4096³:
// `Fp8PromotedTile::for_problem`); `_n128tma5` stays a measuring variant
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, HgemmEpilogue<config::EpilogueStorage2>, _128, config::STAGES_FP8_N128_TMA6);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n128tma5, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, HgemmEpilogue<config::EpilogueStorage2>, _128, config::STAGES_FP8_N128_TMA5);

#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_n160, (E4M3, E4M3), GmmaFp8Accumulation<false, false, false, 80>, wide::SchedulerN160, DirectEpilogue, _160, config::STAGES_FP8_N160);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(promoted gemm_fp8_e4m3_tn_promoted_n160s5, (E4M3, E4M3), GmmaFp8Accumulation<false, false, false, 80>, wide::SchedulerN160, DirectEpilogue, _160, config::STAGES_FP8_N160_S5);
// the same tile with the TMA epilogue (two 64-column buffers a warpgroup, the tile's three 16-bit
// chunks in turn, the third from column 96; 5 stages): the per-tensor launches' tile where it fills
// the machine best (`Fp8PromotedTile::for_problem`; H100, session 69, run s69e: +4 % sustained,
// +3-4 % burst at 4096x7168x16384 and x8192 over 128×128, 0.96 · 0.97 of cuBLASLt)
hgemm_entry!(promoted_tma gemm_fp8_e4m3_tn_promoted_n160tma, (E4M3, E4M3), GmmaFp8Accumulation<false, false, false, 80>, wide::SchedulerN160, HgemmEpilogue<config::EpilogueStorage2>, _160, config::STAGES_FP8_N160_TMA);

// Block scales through shared memory (doc/fp8-gemm.md, "Block scales through shared memory",
// session 12): the block entry's kernel (paired temporaries, data-parallel 128×128 tiles) with
// each stage's scales loaded by TMA beside A's and B's k-tiles (DeepGEMM's schedule), no global
// loads or scale queue in the k-tile loop; the direct epilogue without shared memory, 6 stages:
// the host's entry for block scales in sessions 12-13 (now `CUTE_RS_FP8_BLOCK=staged`); 5 stages
// a measuring variant (`staged5`)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged gemm_fp8_e4m3_tn_promoted_staged, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, config::STAGES_FP8_STAGED);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged gemm_fp8_e4m3_tn_promoted_staged_s5, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, config::STAGES_FP8_STAGED_S5);

// Block scales on the TMA epilogue (doc/fp8-gemm.md, "Block scales on the TMA epilogue", session
// 14): the staged kernel with `HgemmEpilogue`'s TMA path where the host asks for it (each consumer
// warpgroup's 64×128 tile as two 64-column chunks through shared memory, stored while the next
// tile's `wgmma`s run), the direct epilogue having cost the 128×192 kernel 10-35 %: 5 stages
// beside the two chunks' 32 KiB (`_staged_tma5`, the host's entry for block scales in session 14,
// now `CUTE_RS_FP8_BLOCK=stagedtma5`; `CUTE_RS_FP8_BLOCK=global` the block entry above). H200
// against `_staged`: +6-11 % at 4096x7168x16384, +15-16 % at 8192³, +42-49 % at 4096³, +27-34 %
// at 4096x2112x7168; 4 stages beside the 64 KiB of `EpilogueStorage` (`_staged_tma`,
// `stagedtma`) 0-1 % slower, 5-11 % at 4096x2112x7168
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_tma, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, HgemmEpilogue, config::STAGES_FP8_STAGED_TMA);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_tma5, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, HgemmEpilogue<config::EpilogueStorage2>, config::STAGES_FP8_STAGED_TMA5);
// the same with the per-tensor entries' scheduler (`SchedulerFp8Promoted`: a stream-K tail for a
// last wave at most a quarter full, split-K for small M; `CUTE_RS_FP8_BLOCK=stagedtma5sk`, a
// measuring variant, session 14)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_tma5sk, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, HgemmEpilogue<config::EpilogueStorage2>, config::STAGES_FP8_STAGED_TMA5, SchedulerFp8Promoted);
// one temporary (DeepGEMM's schedule) with the per-tensor entries' scheduler (session 27: the paired
// `_staged_tma5sk` spills 28-40 bytes, this one none; `CUTE_RS_FP8_BLOCK=stagedonetma5sk`): the
// block-scaled entry from `Fp8BlockEntry::STAGED_SK_MIN_M` rows where the 128x192 entry's waves
// are at most `Fp8BlockEntry::STAGED_SK_MAX_FILL` full (H200, session 28: 0.64-0.70 -> 0.83-0.86
// of cuBLASLt at 256 and 512x7168x8192)
#[cfg(not(feature = "representative"))]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged1_tma5sk, (E4M3, E4M3), GmmaFp8AccumulationStaged<false>, HgemmEpilogue<config::EpilogueStorage2>, config::STAGES_FP8_STAGED_TMA5, SchedulerFp8Promoted);
// its stream-K tail without split-K (`StreamKFp8`, `CUTE_RS_FP8_BLOCK=stagedtma5tail`)
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_tma5tail, (E4M3, E4M3), GmmaFp8AccumulationStaged<true>, HgemmEpilogue<config::EpilogueStorage2>, config::STAGES_FP8_STAGED_TMA5, StreamKFp8);

// Block scales on the 128×192 tile (doc/fp8-gemm.md, "Block scales on the 128 × 192 tile",
// session 15): the per-tensor default's tile and epilogue (one `m64n192k32` temporary, the TMA
// epilogue's three chunks a warpgroup) with each stage's block scales through shared memory, each
// 64-column chunk of a tile scaled by its own N-block's scale (`GmmaFp8AccumulationStagedWide`),
// 4 stages, data-parallel: the host's entry for block scales (M a multiple of 4). H200 against
// `_staged_tma5`: +10-11 % at 4096x7168x16384, +20 % at 8192³, +8-14 % at 4096³, +30-31 % at
// 4096x2112x7168 (block / per-tensor 0.84-0.86, 0.90-0.91, 0.93-0.99, 0.82-0.86). With the
// per-tensor entry's scheduler (split-K + stream-K tail) ptxas spilled 28 bytes; with a stream-K
// tail only (`_staged_n192tmatail`, `CUTE_RS_FP8_BLOCK=stagedn192tmatail`, 0 spills) +1-3 % at
// 4096x7168x16384 (its tail), 3-6 % slower at 8192³ and 4096³, +6 / -6 % at 4096x2112x7168
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_n192tma, (E4M3, E4M3), AccumulationStagedN192, HgemmEpilogue<config::EpilogueStorage3>, config::STAGES_FP8_STAGED_N192_TMA, DataParallelFp8N192, _192);
#[cfg(feature = "fp8-variants")]
hgemm_entry!(staged_tma gemm_fp8_e4m3_tn_promoted_staged_n192tmatail, (E4M3, E4M3), AccumulationStagedN192, HgemmEpilogue<config::EpilogueStorage3>, config::STAGES_FP8_STAGED_N192_TMA, StreamKFp8N192, _192);

/// The 128×160 entries' scheduler and their configuration's check against the collective
/// kernel's.
mod wide {
    use super::*;
    use collective::scheduler::StreamKScheduler;
    use collective::tile::TileN;
    use config::TILE_FP8_N160;
    /// The 128×160 variants' scheduler: split-K for small M, else data-parallel.
    pub type SchedulerN160 =
        StreamKScheduler<{ TILE_FP8_N160.0 as i32 }, { TILE_FP8_N160.1 as i32 }, true>;
    const _: () = assert!(schedules::<SchedulerN160>(config::SCHEDULER_FP8_PROMOTED));
    // one type of shared memory each, the kernel's; the tile's N the collective's
    const _: () = {
        use collective::kernel::SharedStorage as Kernel;
        let _n160: fn(
            config::SharedStorageFp8N160,
        ) -> Kernel<DirectEpilogue, _160, { config::STAGES_FP8_N160 }> = |s| s;
        let _n160s5: fn(
            config::SharedStorageFp8N160S5,
        ) -> Kernel<DirectEpilogue, _160, { config::STAGES_FP8_N160_S5 }> = |s| s;
        let _n160tma: fn(
            config::SharedStorageFp8N160Tma,
        ) -> Kernel<
            HgemmEpilogue<config::EpilogueStorage2>,
            _160,
            { config::STAGES_FP8_N160_TMA },
        > = |s| s;
        assert!(TILE_FP8_N160.1 as i32 == <_160 as TileN>::BN);
        assert!(config::SMEM_BYTES_FP8_N160 <= 227 * 1024);
        assert!(config::SMEM_BYTES_FP8_N160_TMA <= 227 * 1024);
    };
}

// the fused FP8 entries (the per-tensor promoted kernel with `FusedFp8Epilogue`, one per
// activation): `D = act(alpha·s_row[r]·s_col[c]·acc + bias)`, the scale vectors in
// `p.scale_m` / `p.scale_n`, on the per-tensor kernel's 128×192 tiles with the direct fused
// epilogue (no shared memory for it; H200, session 13: +10 % at 4096×7168×16384, +13–16 % at
// 8192³, +4–6 % at 4096³ against 128×128, doc/fp8-gemm.md). One entry switching
// on the activation per tile measured 0 spills too but cost more to build: +35 s of rustc and
// 31 s of ptxas (130k PTX lines) against about +5 s and 3 s per entry here (doc/fp8-gemm.md)
// (session 14: with the TMA epilogue, as the plain per-tensor entry, `_n192tma`; the direct ones,
// `_n192`, behind `fp8-variants`: the host's `CUTE_RS_FP8_PROMOTED=n192` picks them)
type FusedN192Tma<A> = FusedFp8Epilogue<A>;
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_identity_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192Tma<act::Identity>, _192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_relu_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192Tma<act::Relu>, _192, config::STAGES_FP8_N192_TMA);
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_gelu_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192Tma<act::Gelu>, _192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_gelu_erf_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192Tma<act::GeluErf>, _192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_silu_n192tma, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192Tma<act::Silu>, _192, config::STAGES_FP8_N192_TMA);
// the same on the per-tensor 128×128 tile (`_n128tma6`: 6 stages, the TMA epilogue's two buffers a
// warpgroup), so fused launches take the per-tensor tile rule's tile (`Fp8PromotedTile::for_problem`:
// 4096³, 4096×7168×16384 — where the fused 128×192 entries ran 0.92–0.94 of cuBLASLt, session 66)
#[cfg(not(feature = "representative"))]
type FusedN128Tma<A> = FusedFp8Epilogue<A, config::EpilogueStorage2>;
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_identity_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, FusedN128Tma<act::Identity>, _128, config::STAGES_FP8_N128_TMA6);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_relu_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, FusedN128Tma<act::Relu>, _128, config::STAGES_FP8_N128_TMA6);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_gelu_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, FusedN128Tma<act::Gelu>, _128, config::STAGES_FP8_N128_TMA6);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_gelu_erf_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, FusedN128Tma<act::GeluErf>, _128, config::STAGES_FP8_N128_TMA6);
#[cfg(not(feature = "representative"))]
hgemm_entry!(promoted_tma gemm_fp8_fused_e4m3_tn_silu_n128tma6, (E4M3, E4M3), GmmaFp8Accumulation<true, false, false>, SchedulerFp8Promoted, FusedN128Tma<act::Silu>, _128, config::STAGES_FP8_N128_TMA6);
// measuring (feature `fused-ab`, tools/gpu/fp8/fused-epilogue-cost.sh): the fused GELU entry
// without scale vectors and with a bf16 D only, cut under the fused entry's name (not named
// `gemm_fp8_fused_*`: the host's entry table names those)
#[cfg(feature = "fused-ab")]
mod fused_ab {
    use super::*;
    use hgemm_kernel::epilogue::{ELEMS_ALL, ELEMS_BF16};
    use layout_types::cutlass::fusion::{NoScale, RowColScale};
    hgemm_entry!(promoted_tma gemm_fp8_ab_e4m3_tn_gelu_n192tma_noscale, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedEpilogue<act::Gelu, NoScale, ELEMS_ALL>, _192, config::STAGES_FP8_N192_TMA);
    hgemm_entry!(promoted_tma gemm_fp8_ab_e4m3_tn_gelu_n192tma_bf16, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedEpilogue<act::Gelu, RowColScale, ELEMS_BF16>, _192, config::STAGES_FP8_N192_TMA);
}
#[cfg(feature = "fp8-variants")]
mod fused_n192 {
    use super::*;
    type FusedN192<A> = FusedFp8Epilogue<A, config::NoEpilogueStorage>;
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_identity_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192<act::Identity>, _192, config::STAGES_FP8_N192);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_relu_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192<act::Relu>, _192, config::STAGES_FP8_N192);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_gelu_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192<act::Gelu>, _192, config::STAGES_FP8_N192);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_gelu_erf_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192<act::GeluErf>, _192, config::STAGES_FP8_N192);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_silu_n192, (E4M3, E4M3), AccumulationN192, SchedulerFp8PromotedN192, FusedN192<act::Silu>, _192, config::STAGES_FP8_N192);
}
// the same on 128×128 tiles (paired temporaries, the TMA epilogue's storage unused: the fused
// default until session 13; measuring: the host's `CUTE_RS_FP8_PROMOTED=n128` picks them)
#[cfg(feature = "fp8-variants")]
mod fused_n128 {
    use super::*;
    type Acc = GmmaFp8Accumulation<true, false, false>;
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_identity, (E4M3, E4M3), Acc, SchedulerFp8Promoted, FusedFp8Epilogue<act::Identity>);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_relu, (E4M3, E4M3), Acc, SchedulerFp8Promoted, FusedFp8Epilogue<act::Relu>);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_gelu, (E4M3, E4M3), Acc, SchedulerFp8Promoted, FusedFp8Epilogue<act::Gelu>);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_gelu_erf, (E4M3, E4M3), Acc, SchedulerFp8Promoted, FusedFp8Epilogue<act::GeluErf>);
    hgemm_entry!(promoted gemm_fp8_fused_e4m3_tn_silu, (E4M3, E4M3), Acc, SchedulerFp8Promoted, FusedFp8Epilogue<act::Silu>);
}

hgemm_pingpong_entry!(
    fp8 gemm_fp8_e4m3_tn_promoted_pp64,
    Pingpong64,
    (E4M3, E4M3),
    _128,
    GmmaFp8Accumulation<true, false, false>,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_PP64
);
// the fused entries on the same tile (the fused launches' tile where the per-tensor one's is
// this: small M; session 66, branch `s66-fused-pp64`, measuring)
type FusedPp64<A> = FusedFp8Epilogue<A, config::EpilogueStorage2>;
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(fp8 gemm_fp8_fused_e4m3_tn_identity_pp64, Pingpong64, (E4M3, E4M3), _128, GmmaFp8Accumulation<true, false, false>, FusedPp64<act::Identity>, DataParallelFp8Pp64, config::STAGES_FP8_PP64);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(fp8 gemm_fp8_fused_e4m3_tn_relu_pp64, Pingpong64, (E4M3, E4M3), _128, GmmaFp8Accumulation<true, false, false>, FusedPp64<act::Relu>, DataParallelFp8Pp64, config::STAGES_FP8_PP64);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(fp8 gemm_fp8_fused_e4m3_tn_gelu_pp64, Pingpong64, (E4M3, E4M3), _128, GmmaFp8Accumulation<true, false, false>, FusedPp64<act::Gelu>, DataParallelFp8Pp64, config::STAGES_FP8_PP64);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(fp8 gemm_fp8_fused_e4m3_tn_gelu_erf_pp64, Pingpong64, (E4M3, E4M3), _128, GmmaFp8Accumulation<true, false, false>, FusedPp64<act::GeluErf>, DataParallelFp8Pp64, config::STAGES_FP8_PP64);
hgemm_pingpong_entry!(fp8 gemm_fp8_fused_e4m3_tn_silu_pp64, Pingpong64, (E4M3, E4M3), _128, GmmaFp8Accumulation<true, false, false>, FusedPp64<act::Silu>, DataParallelFp8Pp64, config::STAGES_FP8_PP64);
// block scales on the same tile (the consumers load their rows' scales from global memory
// in the k-tile loop: A's 64 rows of each k-block, B's one N-block of 128), each k-tile's four
// k-tiles ahead into a queue slot of its own (the quad schedule: no queued value moves)
hgemm_pingpong_entry!(
    fp8 gemm_fp8_e4m3_tn_promoted_block_pp64,
    Pingpong64,
    (E4M3, E4M3),
    _128,
    GmmaFp8AccumulationQuad,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_PP64
);
// and A's scales through shared memory with each stage (a TMA box of the tile's 64 rows; M a
// multiple of 4), B's from global memory on the quad schedule: 8 stages beside the scales (the
// small-M block entry of sessions 26–57; `CUTE_RS_FP8_BLOCK=stagedpp64`, a measuring variant
// since the box of four took its place: doc/fp8-gemm.md, session 58)
#[cfg(feature = "fp8-variants")]
hgemm_pingpong_entry!(
    fp8staged gemm_fp8_e4m3_tn_promoted_staged_pp64,
    Pingpong64,
    (E4M3, E4M3),
    _128,
    StagedPp64,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_STAGED_PP64
);
// and A's scales in boxes of four k-tiles, one with the first of each four stages (K a multiple
// of 4 k-tiles; the small-M block entry: doc/fp8-gemm.md, sessions 56 and 58)
hgemm_pingpong_entry!(
    fp8staged gemm_fp8_e4m3_tn_promoted_staged4_pp64,
    Pingpong64,
    (E4M3, E4M3),
    _128,
    StagedPp64x4,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_STAGED_PP64
);
// and fast accumulation on the same tile (the FP8 `wgmma`s accumulate alone, no promotion)
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(
    fp8 gemm_fp8_e4m3_tn_fast_pp64,
    Pingpong64,
    (E4M3, E4M3),
    _128,
    PlainAccumulation,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_PP64
);
hgemm_pingpong_entry!(
    fp8 gemm_fp8_e5m2_tn_fast_pp64,
    Pingpong64,
    (E5M2, E5M2),
    _128,
    PlainAccumulation,
    HgemmEpilogue<config::EpilogueStorage2>,
    DataParallelFp8Pp64,
    config::STAGES_FP8_PP64
);
