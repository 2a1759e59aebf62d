//! Hopper's warpgroup MMA (sm_90a): `wgmma.fence`, `commit_group`, `wait_group::<N>`,
//! `mma_async` (m64nNk16 bf16/f16 → f32, m64nNk32 e4m3/e5m2 → f32 with the element pairs
//! `(E4M3, E5M2)` etc.; A and B from shared-memory descriptors or A from registers), the
//! accumulator fence, and `setmaxnreg` inc/dec.
//!
//! One implementation: these are the typed layer's instruction wrappers
//! (`layout_types::cute::arch::mma_sm90`), re-exported under `cuda_std`-like names. See that
//! module for the protocol (`fence_operand`, `fence`, `mma_async_*`, `commit_group`,
//! `wait_group`, `fence_operand`).
//!
//! ```
//! use device::wgmma::{Bf16, E4M3, MmaAsync};
//! assert_eq!(<[f32; 64] as MmaAsync<Bf16>>::N, 128);
//! assert_eq!(<[f32; 64] as MmaAsync<(E4M3, E4M3)>>::K, 32);
//! device::wgmma::fence(); // no-op off the GPU
//! ```

pub use layout_types::cute::arch::mma_sm90::{
    Bf16, E4M3, E5M2, F16, FenceOperand, KMajorOnly, MmaAsync, Neg, One, ScaleIn, ScaleOut,
    commit_group, fence, fence_operand, mma_async_rs, mma_async_ss, setmaxnreg_dec, setmaxnreg_inc,
    tnsp, wait_group,
};
pub use layout_types::cute::gmma::{GmmaMajor, MajorK, MajorMN};
