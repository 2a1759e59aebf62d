//! The bf16/fp16 GEMM on Hopper (issues #26, #34): `C = alpha·op(A)·op(B) + beta·C`, column-major
//! as BLAS, fp32 accumulation, C stored as f32, bf16 or f16 (chosen at run time) — one PTX module
//! (`hgemm.ptx`) of entries, each one line instantiating the `hgemm_kernel` library's kernel
//! ([`hgemm_kernel::hgemm_entry!`]: the cooperative warp-specialized schedule over the TMA + GMMA
//! mainloop, the persistent tile scheduler and the family's epilogue; the library's docs describe it).
//!
//! BLAS names: A "N" = `(M,K):(1,lda)` MN-major, "T" = `(M,K):(lda,1)` K-major; B "N" =
//! `(N,K):(ldb,1)` K-major, "T" = `(N,K):(1,ldb)` MN-major. Entries `hgemm_{bf16,f16}_{ab}`.
//!
//! The fused entries `hgemm_fused_bf16_tn_{identity,relu,gelu,gelu_erf,silu}` compute
//! `D = act(alpha·op(A)·op(B) + beta·C + bias)` ([`FusedEpilogue`]), one entry per activation
//! (a zero-sized type: each entry monomorphizes one short per-element body), bf16 inputs, A
//! and B K-major ("TN") only, C bf16 only; the bias (`f32`, along
//! M or N, or none) is a run-time parameter ([`HgemmParams`]), a broadcast tensor over C. Why
//! so few: every entry is a whole kernel (mainloop and epilogue) to compile, and one entry
//! switching over the five activations at run time made one function too large for LLVM to
//! compile in reasonable time (it did not finish in 7 CPU minutes).
//!
//! The ping-pong entries `hgemm_{bf16,f16}_{ab}_pingpong128` (the host's launches for skinny K)
//! are the same mainloop, epilogues and scheduler under
//! `collective::kernel::KernelTmaWarpSpecializedPingpong`, each consumer warpgroup on whole
//! tiles in turn, one's epilogue under the other's `wgmma`s, on CUTLASS's 128×128 tiles
//! ([`config::TILE_PINGPONG_128`]: two `m64n128k16` per k-block, 5 stages of 32 KiB; the
//! epilogue stores the 128×128 tile in the same four 64×64 chunks, `epilogue::frag_col_to_tile`);
//! behind the feature `pingpong` (not in the default build) `hgemm_{bf16,f16}_tn_pingpong` on
//! 64×256 tiles ([`config::TILE_PINGPONG`], 4 stages), `hgemm_fused_bf16_tn_gelu_pingpong{,128}`
//! and the 4-stage cooperative `hgemm_{bf16,f16}_tn_s4`.
//!
//! The small-M entries `hgemm_{bf16,f16}_{ab}_pp64` are the FP8 family's small-M tile for 16-bit
//! inputs: the ping-pong schedule on 64×128 tiles, each consumer warpgroup a whole tile with its
//! whole k-range (`HgemmSchedule::Pingpong64` on the host). The entries
//! `hgemm_{bf16,f16}_{ab}_n192` are the cooperative kernel on the per-tensor FP8 entry's 128×192
//! tiles (`HgemmSchedule::Cooperative192`: where those fill the machine better than 128×256).
//!
//! With feature `representative` the module has the representative entries only (12 of the 52: one per
//! schedule, tile, epilogue form and operand majority; `#[cfg(not(feature = "representative"))]`
//! on the others): `cargo xtask test` builds that where no GPU runs the entries, `cargo xtask
//! test-full` and every other build every entry.
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

use hgemm_kernel::prelude::*;

hgemm_entry!(hgemm_bf16_nn, Bf16, MajorMN, MajorK);
hgemm_entry!(hgemm_bf16_nt, Bf16, MajorMN, MajorMN);
hgemm_entry!(hgemm_bf16_tn, Bf16, MajorK, MajorK);
hgemm_entry!(hgemm_bf16_tt, Bf16, MajorK, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_entry!(hgemm_f16_nn, F16, MajorMN, MajorK);
hgemm_entry!(hgemm_f16_nt, F16, MajorMN, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_entry!(hgemm_f16_tn, F16, MajorK, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_entry!(hgemm_f16_tt, F16, MajorK, MajorMN);
// "TN" with 4 stages beside two chunk buffers a warpgroup (`config::STAGES_S4`; measuring: the
// host's `CUTE_RS_HGEMM_SCHEDULE=cooperative4`)
#[cfg(feature = "pingpong")]
hgemm_entry!(s4 hgemm_bf16_tn_s4, Bf16, MajorK, MajorK);
#[cfg(feature = "pingpong")]
hgemm_entry!(s4 hgemm_f16_tn_s4, F16, MajorK, MajorK);

#[cfg(not(feature = "representative"))]
hgemm_entry!(
    hgemm_fused_bf16_tn_identity,
    Bf16,
    MajorK,
    MajorK,
    FusedEpilogue<act::Identity>
);
#[cfg(not(feature = "representative"))]
hgemm_entry!(
    hgemm_fused_bf16_tn_relu,
    Bf16,
    MajorK,
    MajorK,
    FusedEpilogue<act::Relu>
);
hgemm_entry!(
    hgemm_fused_bf16_tn_gelu,
    Bf16,
    MajorK,
    MajorK,
    FusedEpilogue<act::Gelu>
);
#[cfg(not(feature = "representative"))]
hgemm_entry!(
    hgemm_fused_bf16_tn_gelu_erf,
    Bf16,
    MajorK,
    MajorK,
    FusedEpilogue<act::GeluErf>
);
#[cfg(not(feature = "representative"))]
hgemm_entry!(
    hgemm_fused_bf16_tn_silu,
    Bf16,
    MajorK,
    MajorK,
    FusedEpilogue<act::Silu>
);

// 128×128 a warpgroup, every majority: the host's schedule for skinny K
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_bf16_nn_pingpong128, Bf16, MajorMN, MajorK);
hgemm_pingpong_entry!(pp128 hgemm_bf16_nt_pingpong128, Bf16, MajorMN, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_bf16_tn_pingpong128, Bf16, MajorK, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_bf16_tt_pingpong128, Bf16, MajorK, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_f16_nn_pingpong128, F16, MajorMN, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_f16_nt_pingpong128, F16, MajorMN, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_f16_tn_pingpong128, F16, MajorK, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_f16_tt_pingpong128, F16, MajorK, MajorMN);

// the small-M FP8 tile for 16-bit inputs, every majority (`HgemmSchedule::Pingpong64`: the
// host's launches where the 128×256 cluster tiles would split their k-ranges and these fill
// a wave; its configuration is in 16-bit units already: 64×128×64, 8 stages of 8 + 16 KiB,
// two 64-column chunk buffers a warpgroup), each warpgroup a whole tile with its whole
// k-range (H200, session 29: 128×7168×8192 bf16 0.73 → 0.99 of cuBLAS)
hgemm_pingpong_entry!(pp64 hgemm_bf16_nn_pp64, Bf16, MajorMN, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_bf16_nt_pp64, Bf16, MajorMN, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_bf16_tn_pp64, Bf16, MajorK, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_bf16_tt_pp64, Bf16, MajorK, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_f16_nn_pp64, F16, MajorMN, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_f16_nt_pp64, F16, MajorMN, MajorMN);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_f16_tn_pp64, F16, MajorK, MajorK);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_f16_tt_pp64, F16, MajorK, MajorMN);

// the fused entries on both ping-pong tiles (session 66, branch `s66-fused-pp64`, measuring): the
// fused launches' schedule where the plain one's is ping-pong (skinny K, small M)
type FusedPp64<A> = FusedEpilogue<
    A,
    layout_types::cutlass::fusion::NoScale,
    { hgemm_kernel::epilogue::ELEMS_BF16 },
    config::EpilogueStorage2,
>;
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_fused_bf16_tn_identity_pingpong128, Bf16, MajorK, MajorK, FusedEpilogue<act::Identity>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_fused_bf16_tn_relu_pingpong128, Bf16, MajorK, MajorK, FusedEpilogue<act::Relu>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_fused_bf16_tn_gelu_pingpong128, Bf16, MajorK, MajorK, FusedEpilogue<act::Gelu>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp128 hgemm_fused_bf16_tn_gelu_erf_pingpong128, Bf16, MajorK, MajorK, FusedEpilogue<act::GeluErf>);
hgemm_pingpong_entry!(pp128 hgemm_fused_bf16_tn_silu_pingpong128, Bf16, MajorK, MajorK, FusedEpilogue<act::Silu>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_fused_bf16_tn_identity_pp64, Bf16, MajorK, MajorK, FusedPp64<act::Identity>);
hgemm_pingpong_entry!(pp64 hgemm_fused_bf16_tn_relu_pp64, Bf16, MajorK, MajorK, FusedPp64<act::Relu>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_fused_bf16_tn_gelu_pp64, Bf16, MajorK, MajorK, FusedPp64<act::Gelu>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_fused_bf16_tn_gelu_erf_pp64, Bf16, MajorK, MajorK, FusedPp64<act::GeluErf>);
#[cfg(not(feature = "representative"))]
hgemm_pingpong_entry!(pp64 hgemm_fused_bf16_tn_silu_pp64, Bf16, MajorK, MajorK, FusedPp64<act::Silu>);

// the cooperative kernel on the per-tensor FP8 entry's 128×192 tiles (the same bytes a stage in
// 16-bit units, 4 stages, its split-K / stream-K scheduler), every majority (an MN-major B's 192
// rows are three 64-row boxes, dealt to the cluster's two CTAs 2 + 1 for the multicast:
// `mn_major_operand!(interleaved …)`): the host's launches where they fill the machine better
// than 128×256 (`HgemmSchedule::Cooperative192`; H100, session 67: 6144×2112×4096 0.77–0.85 →
// 1.01–1.02 of cuBLAS, 3072³ 0.88–0.90 → 0.96–0.97; session 68, "TT" 6144×2112×4096 0.76–0.77 →
// 1.01–1.02, "NT" 3072³ 0.87–0.89 → 1.00)
type N192 = hgemm_kernel::SchedulerFp8PromotedN192;
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_bf16_nn_n192, Bf16, MajorMN, MajorK, _192, N192, config::STAGES_FP8_N192_TMA);
hgemm_entry!(wide hgemm_bf16_nt_n192, Bf16, MajorMN, MajorMN, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_bf16_tn_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_bf16_tt_n192, Bf16, MajorK, MajorMN, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_f16_nn_n192, F16, MajorMN, MajorK, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_f16_nt_n192, F16, MajorMN, MajorMN, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_f16_tn_n192, F16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_f16_tt_n192, F16, MajorK, MajorMN, _192, N192, config::STAGES_FP8_N192_TMA);
// the fused entries on them (session 68): the fused launches' schedule where the plain one's is
// 128×192
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_fused_bf16_tn_identity_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA, FusedEpilogue<act::Identity>);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_fused_bf16_tn_relu_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA, FusedEpilogue<act::Relu>);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_fused_bf16_tn_gelu_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA, FusedEpilogue<act::Gelu>);
hgemm_entry!(wide hgemm_fused_bf16_tn_gelu_erf_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA, FusedEpilogue<act::GeluErf>);
#[cfg(not(feature = "representative"))]
hgemm_entry!(wide hgemm_fused_bf16_tn_silu_n192, Bf16, MajorK, MajorK, _192, N192, config::STAGES_FP8_N192_TMA, FusedEpilogue<act::Silu>);

// measuring: 64×256 a warpgroup, and the fused bias + GELU on both tiles
#[cfg(feature = "pingpong")]
mod measuring {
    use super::*;
    hgemm_pingpong_entry!(
        hgemm_bf16_tn_pingpong,
        Pingpong,
        Bf16,
        MajorK,
        MajorK,
        _256,
        HgemmEpilogue,
        DataParallelPingpong,
        config::STAGES_PINGPONG
    );
    hgemm_pingpong_entry!(
        hgemm_f16_tn_pingpong,
        Pingpong,
        F16,
        MajorK,
        MajorK,
        _256,
        HgemmEpilogue,
        DataParallelPingpong,
        config::STAGES_PINGPONG
    );
    hgemm_pingpong_entry!(
        hgemm_fused_bf16_tn_gelu_pingpong,
        Pingpong,
        Bf16,
        MajorK,
        MajorK,
        _256,
        FusedEpilogue<act::Gelu>,
        DataParallelPingpong,
        config::STAGES_PINGPONG
    );
}
