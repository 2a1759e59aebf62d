//! The SGEMM entries whose A is MN-major (BLAS "N"), and the split-K prologue
//! `sgemm_scale_c`: one PTX module. The kernel is `gemm::sgemm`; the GEMM is split into two
//! families (A "N" / A "T") so that its entries compile in parallel.
//!
//! BLAS names: A "N" = (M,K):(_1,lda) MN-major, "T" = K-major; B "N" = (K,N) column-major,
//! i.e. (N,K):(ldb,_1) K-major, "T" = (N,K):(_1,ldb) MN-major.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]

use gemm::{
    KMajor, LdgNc, LdgRelaxed, MnMajor, Reversed, RowsInOrder, RowsQuadEvenOdd, Tile64, Tile128,
    sgemm_entry,
};

// The NN entries load with `LdgRelaxed` so that ptxas keeps their loads at the top of the k-tile loop
// (see `gemm::LdgRelaxed`).
sgemm_entry!(
    sgemm_128x128x8_nn,
    MnMajor,
    KMajor,
    Tile128,
    LdgRelaxed,
    RowsInOrder
);
sgemm_entry!(sgemm_128x128x8_nt, MnMajor, MnMajor, Tile128);
sgemm_entry!(
    sgemm_64x64x8_nn,
    MnMajor,
    KMajor,
    Tile64,
    LdgRelaxed,
    RowsInOrder
);
sgemm_entry!(sgemm_64x64x8_nt, MnMajor, MnMajor, Tile64);

// Bounded to two CTAs per SM (`__launch_bounds__(256, 2)`: ptxas fits them in 128 registers
// without spilling), the entries the host's plans prefer. Their FFMA order (`gemm::FmaOrder`),
// with the row-major accumulators (`GemmTiles::Acc`), gave all four bounded entries the fewest
// FFMA register-bank conflicts (`tools/sass_mix.py`, `bank`: nn 130, nt 103, tn 116, tt 129;
// 22 orders x 2 accumulator layouts tried) and measured best on the H100
// (doc/performance.md, run 2026-11-23-7583b67-tutorial-gemm).
// ptxas (13.0, `-arch=sm_80`) spills 8 bytes of this one in 128 registers, so the
// sm_80 build leaves it out and the host launches the unbounded entry there.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
sgemm_entry!(
    sgemm_128x128x8_nn_2cta,
    MnMajor,
    KMajor,
    Tile128,
    LdgRelaxed,
    Reversed<RowsQuadEvenOdd>
);
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
device::launch_bounds!(sgemm_128x128x8_nn_2cta, 256, 2);
sgemm_entry!(
    sgemm_128x128x8_nt_2cta,
    MnMajor,
    MnMajor,
    Tile128,
    LdgNc,
    Reversed<RowsQuadEvenOdd>
);
device::launch_bounds!(sgemm_128x128x8_nt_2cta, 256, 2);

gemm::sgemm_scale_c_entry!();
