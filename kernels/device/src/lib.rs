#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
        stdarch_nvptx
    )
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
//! | [`atomic`] | `red.global.add.f32` |
//! | [`cp_async`] | `cp.async` 16-byte copies, `commit_group`, `wait_group::<N>` |
//! | [`mma`] | `ldmatrix` and `mma.sync` (m16n8k16, f16 → f32) |
//! | [`warp`] | warp shuffles (`shfl.sync`) and a warp sum |
//! | [`wgmma`] | Hopper's warpgroup MMA (`wgmma.*`, sm_90a) and `setmaxnreg` |
//! | [`unroll`](mod@unroll) | [`unroll!`]: straight-line code over a constant count |
//!
//! Still to come: TMA (`cp.async.bulk.tensor` with `mbarrier`).
//!
//! **On the host** (any target but `nvptx64`) the same API is a CPU emulator ([`emu`]): kernel
//! entries declared with [`kernel!`] compile to plain functions that [`emu::launch`] runs with
//! one OS thread per CUDA thread, so their results can be tested without a GPU.

#[cfg(not(target_arch = "nvptx64"))]
extern crate std;

pub mod atomic;
pub mod cp_async;
#[cfg(not(target_arch = "nvptx64"))]
pub mod emu;
pub mod mma;
pub mod shared;
pub mod thread;
pub mod unroll;
pub mod vec;
pub mod warp;
pub mod wgmma;

/// Panic handler: with `-Cpanic=immediate-abort` panics already lower to `trap`; this only
/// satisfies `no_std` (one handler for every family that links this crate).
#[cfg(target_arch = "nvptx64")]
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
/// On the host (the emulator) it exports nothing; it only checks that `kernel` names a
/// function and that the bounds are `u32` constants.
///
/// ```
/// device::kernel! {
///     /// A kernel with launch bounds.
///     pub unsafe fn bounded(out: *mut u32) {
///         unsafe { *out = 1 }
///     }
/// }
/// device::launch_bounds!(bounded, 256, 2); // ≤ 128 registers: two 256-thread CTAs per SM
/// ```
#[macro_export]
macro_rules! launch_bounds {
    ($kernel:ident, $max_threads:expr, $min_blocks:expr) => {
        #[cfg(target_arch = "nvptx64")]
        const _: () = {
            #[unsafe(export_name = concat!("__launch_bounds__", stringify!($kernel)))]
            #[used]
            pub static LAUNCH_BOUNDS: [u32; 2] = [$max_threads, $min_blocks];
        };
        #[cfg(not(target_arch = "nvptx64"))]
        const _: [u32; 2] = {
            let _ = $kernel;
            [$max_threads, $min_blocks]
        };
    };
}

/// Declares a kernel entry. On `nvptx64` it is exactly
/// `#[unsafe(no_mangle)] pub unsafe extern "ptx-kernel" fn name(args) { body }` (the crate
/// needs `#![feature(abi_ptx)]` there); on the host a plain `pub unsafe fn name(args)` that
/// [`emu::launch`] runs on the CPU. Attributes (docs, lints) are kept on both.
///
/// ```
/// device::kernel! {
///     /// `out[i] = i` for the block's threads.
///     pub unsafe fn iota(out: *mut u32) {
///         let i = device::thread::thread_idx_x();
///         unsafe { *out.add(i as usize) = i };
///     }
/// }
/// let mut v = [0u32; 4];
/// let p = v.as_mut_ptr() as usize;
/// // SAFETY: 4 threads, 4 elements, each written by one thread.
/// unsafe { device::emu::launch((1, 1, 1), (4, 1, 1), 0, || iota(p as *mut u32)) };
/// assert_eq!(v, [0, 1, 2, 3]);
/// ```
#[macro_export]
macro_rules! kernel {
    ($(#[$attr:meta])* pub unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        #[cfg(target_arch = "nvptx64")]
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body

        #[cfg(not(target_arch = "nvptx64"))]
        $(#[$attr])*
        pub unsafe fn $name($($arg: $ty),*) $body
    };
}
