//! The SGEMM entries whose A is K-major (BLAS "T"): one PTX module. The kernel is
//! `gemm::sgemm`; see `kernels/gemm_n` for the other half.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]

use gemm::{KMajor, LdgNc, MnMajor, Reversed, RowsQuadEvenOdd, Tile64, Tile128, sgemm_entry};

sgemm_entry!(sgemm_128x128x8_tn, KMajor, KMajor, Tile128);
sgemm_entry!(sgemm_128x128x8_tt, KMajor, MnMajor, Tile128);
sgemm_entry!(sgemm_64x64x8_tn, KMajor, KMajor, Tile64);
sgemm_entry!(sgemm_64x64x8_tt, KMajor, MnMajor, Tile64);

// Bounded to two CTAs per SM (`__launch_bounds__(256, 2)`: 128 registers, no spills), with the
// FFMA order of the NN/NT ones (see `kernels/gemm_n`).
sgemm_entry!(
    sgemm_128x128x8_tn_2cta,
    KMajor,
    KMajor,
    Tile128,
    LdgNc,
    Reversed<RowsQuadEvenOdd>
);
// ptxas (13.0, `-arch=sm_80`) spills 8 bytes of this one in 128 registers, so the
// sm_80 build leaves it out and the host launches the unbounded entry there.
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
sgemm_entry!(
    sgemm_128x128x8_tt_2cta,
    KMajor,
    MnMajor,
    Tile128,
    LdgNc,
    Reversed<RowsQuadEvenOdd>
);
device::launch_bounds!(sgemm_128x128x8_tn_2cta, 256, 2);
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
device::launch_bounds!(sgemm_128x128x8_tt_2cta, 256, 2);
