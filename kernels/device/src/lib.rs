#![no_std]
#![cfg(target_arch = "nvptx64")]
#![feature(
    asm_experimental_arch,
    core_intrinsics,
    gpu_intrinsics,
    gpu_launch_sized_workgroup_mem,
    stdarch_nvptx
)]
#![allow(internal_features)]
//! A small device library with `cuda_std`-like names, shared by every kernel family.
//!
//! Every function is a thin, documented, `#[inline(always)]` wrapper around one
//! PTX instruction (inline `asm!`) or one `core::arch::nvptx` / `core::intrinsics`
//! intrinsic, so the PTX module stays self-contained and every wrapper costs
//! nothing. Address-space rules: pointers handed to kernels are *generic*
//! addresses; the wrappers that need a state-space address (`ld.global`,
//! `cp.async`, `ldmatrix`, ...) convert with `cvta.to.*` inside the asm.
//!
//! | module | contents |
//! | --- | --- |
//! | [`thread`] | thread/block/grid ids and sizes, `sync_threads`, lane id |
//! | [`shared`] | dynamic shared memory, generic → shared address conversion |
//! | [`vec`] | 16-byte vector types and 128-bit `ld`/`st` (global and shared) |
//! | [`cp_async`] | `cp.async` 16-byte copies, `commit_group`, `wait_group::<N>` |
//! | [`mma`] | `ldmatrix` and `mma.sync` (m16n8k16, f16 → f32) |
//! | [`warp`] | warp shuffles (`shfl.sync`) and a warp sum |
//! | [`unroll`](mod@unroll) | [`unroll!`]: straight-line code over a constant count |
//!
//! Still to come: `wgmma` and TMA (`cp.async.bulk.tensor` with `mbarrier`).

pub mod cp_async;
pub mod mma;
pub mod shared;
pub mod thread;
pub mod unroll;
pub mod vec;
pub mod warp;

/// Panic handler: with `-Cpanic=immediate-abort` panics already lower to `trap`; this only
/// satisfies `no_std` (one handler for every family that links this crate).
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    thread::trap()
}

/// Launch bounds of a kernel, declared beside it: `launch_bounds!(kernel, MAX_THREADS,
/// MIN_BLOCKS_PER_SM)` is CUDA's `__launch_bounds__(MAX_THREADS, MIN_BLOCKS_PER_SM)`.
///
/// Rust has no attribute for PTX's `.maxntid` / `.minnctapersm`, so this exports a marker
/// symbol `__launch_bounds__<kernel>` holding the two numbers; the PTX build
/// (`xtask/src/ptx.rs`, `apply_launch_bounds`) turns it into the directives after the
/// kernel's parameter list and removes it, so the module the driver loads is what nvcc would
/// emit. A marker naming no kernel of the module is a build error.
///
/// ```ignore
/// #[unsafe(no_mangle)]
/// pub unsafe extern "ptx-kernel" fn sgemm_2cta(/* ... */) { /* ... */ }
/// device::launch_bounds!(sgemm_2cta, 256, 2); // ≤ 128 registers: two 256-thread CTAs per SM
/// ```
#[macro_export]
macro_rules! launch_bounds {
    ($kernel:ident, $max_threads:expr, $min_blocks:expr) => {
        const _: () = {
            #[unsafe(export_name = concat!("__launch_bounds__", stringify!($kernel)))]
            #[used]
            pub static LAUNCH_BOUNDS: [u32; 2] = [$max_threads, $min_blocks];
        };
    };
}
