//! The SGEMM entries whose A is MN-major (BLAS "N"), and the split-K prologue
//! `sgemm_scale_c`: one PTX module. The kernel is `gemm::sgemm`; the GEMM is split into two
//! families (A "N" / A "T") so that its entries compile in parallel.
//!
//! BLAS names: A "N" = (M,K):(_1,lda) MN-major, "T" = K-major; B "N" = (K,N) column-major,
//! i.e. (N,K):(ldb,_1) K-major, "T" = (N,K):(_1,ldb) MN-major.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]

use gemm::{
    KMajor, LdgNc, LdgRelaxed, MnMajor, RowsInOrder, RowsStrips, Tile64, Tile128, sgemm_entry,
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
// without spilling), the entries the host's plans prefer. Each takes the FFMA order measured
// best for it on the H100 (`gemm::FmaOrder`).
// `nn_2cta` took `RowsEvenOdd` until the copy stage moved to TiledCopy partitions (`KTiles`,
// `copy`/`copy_if`): with the new setup code ptxas allocated its registers differently and
// `RowsEvenOdd` doubled the FFMA register-bank conflicts (`tools/sass_mix.py`: 147 -> 301) and
// fell to 0.92 of cuBLAS at 4096^3 NN, while `RowsStrips` (157) measures as before (0.98;
// `tools/gpu/results/2026-11-23-session4`).
sgemm_entry!(
    sgemm_128x128x8_nn_2cta,
    MnMajor,
    KMajor,
    Tile128,
    LdgRelaxed,
    RowsStrips
);
device::launch_bounds!(sgemm_128x128x8_nn_2cta, 256, 2);
sgemm_entry!(
    sgemm_128x128x8_nt_2cta,
    MnMajor,
    MnMajor,
    Tile128,
    LdgNc,
    RowsInOrder
);
device::launch_bounds!(sgemm_128x128x8_nt_2cta, 256, 2);

gemm::sgemm_scale_c_entry!();
