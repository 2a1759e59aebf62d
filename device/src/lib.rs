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
//! The architecture layer (CuTe's `cute/arch`, CUTLASS's `cutlass/arch`): every PTX instruction
//! the project issues, once, as a thin, documented, `#[inline(always)]` wrapper around one inline
//! `asm!` (or one `core::arch::nvptx` / `core::intrinsics` intrinsic), with its CPU emulation
//! beside it; and what a kernel crate needs around them (the entry macros, `unroll!`, the panic
//! handler). It depends on nothing of this project: the typed layer's atoms and pipeline
//! (`layout-types`) and the kernels call down into it. Every wrapper costs nothing, so the PTX
//! module stays self-contained. Address-space rules: pointers handed to kernels are *generic*
//! addresses; the wrappers that need a state-space address (`ld.global`, `cp.async`,
//! `ldmatrix`, ...) convert with `cvta.to.*` inside the asm.
//!
//! | module | contents |
//! | --- | --- |
//! | [`thread`] | thread/block/grid ids and sizes, `sync_threads`, named barriers, lane id |
//! | [`shared`] | dynamic shared memory, generic → shared address conversion |
//! | [`vec`] | 16-byte vector types and 128-bit `ld`/`st` (global and shared) |
//! | [`atomic`] | `red.global.add.f32`, acquire/release flags |
//! | [`cp_async`] | `cp.async` 16-byte copies, `cp_async_fence`, `cp_async_wait::<N>` (CuTe's `copy_sm80.hpp`) |
//! | [`mma`] | `ldmatrix` / `stmatrix` (`copy_sm75.hpp`, `copy_sm90.hpp`) and `mma.sync` m16n8k16 (`mma_sm80.hpp`), f16/bf16 packing |
//! | [`warp`] | warp shuffles (`shfl.sync`), votes, a warp sum |
//! | [`math`] | `ex2`, `lg2` (approx), `max.f32`, `fma`, `prmt` |
//! | [`mbarrier`] | sm_90 transaction barriers: init, arrive, `arrive_expect_tx`, `try_wait.parity`, inval, remote (cluster) arrive (`cutlass/arch/barrier.h`) |
//! | [`tma`] | `cp.async.bulk.tensor` 1-5-D loads (multicast) and stores, bulk copies and groups, `prefetch.tensormap` (`copy_sm90_tma.hpp`) |
//! | [`cluster`] | cluster special registers, `barrier.cluster` arrive/wait, `elect.sync` (`cluster_sm90.hpp`) |
//! | [`grid_dependency_control`] | programmatic dependent launch: `griddepcontrol.wait`, `.launch_dependents` |
//! | [`wgmma`] | Hopper's warpgroup MMA (`wgmma.*`, sm_90a), `GMMA::Major`, `setmaxnreg` (`mma_sm90_gmma.hpp`) |
//! | [`hint`] | optimization barriers for measured code-generation choices |
//! | [`unroll`](mod@unroll) | [`unroll!`]: straight-line code over a constant count |
//!
//! **On the host** (any target but `nvptx64`) the same API is a CPU emulator ([`emu`]): kernel
//! entries declared with [`kernel!`] compile to plain functions that [`emu::launch`] runs with
//! one OS thread per CUDA thread, so their results can be tested without a GPU.
//!
//! **In a kernel crate of your own** (`cargo xtask new-kernel-crate DIR` writes one): depend on
//! this crate and `layout-types` by path, make the crate a `no_std` `staticlib`, and build it
//! with `cute-builder` (`PtxBuilder::new("kernels").embed()` in the host crate's `build.rs`):
//!
//! ```toml
//! [lib]
//! crate-type = ["staticlib"]
//! [dependencies]
//! device = { path = "<cute-rs>/device" }
//! layout-types = { path = "<cute-rs>/layout-types" }
//! ```
//!
//! ```text
//! #![no_std]
//! #![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]
//! device::kernel! {
//!     pub unsafe fn scale(n: u32, a: f32, x: *mut f32) {
//!         let i = device::thread::index_1d();
//!         if i < n as usize { unsafe { *x.add(i) *= a } }
//!     }
//! }
//! ```
//!
//! The crate needs no panic handler of its own: this crate provides it on `nvptx64` (a `trap`,
//! which the launch reports as an error; with `-Cpanic=immediate-abort`, which the builder
//! sets, panics already lower to `trap`).

#[cfg(not(target_arch = "nvptx64"))]
extern crate std;

pub mod atomic;
pub mod cluster;
pub mod cp_async;
#[cfg(not(target_arch = "nvptx64"))]
pub mod emu;
pub mod grid_dependency_control;
pub mod hint;
pub mod math;
pub mod mbarrier;
pub mod mma;
pub mod shared;
pub mod thread;
pub mod tma;
pub mod unroll;
pub mod vec;
pub mod warp;
pub mod wgmma;

/// Panic handler of every kernel crate that links this one: `trap` (the launch, and the
/// context, report an error; in the emulator, a panic naming the thread). With
/// `-Cpanic=immediate-abort` panics already lower to `trap`; this only satisfies `no_std`.
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
/// (`cute-builder`, `apply_launch_bounds`) turns it into the directives after the
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

/// The generic address of a kernel parameter passed by value, as CUDA's `__grid_constant__`
/// gives it: `grid_constant!(kernel, index, arg)` is a `*const T` to the `index`-th parameter
/// `arg: T` of the entry `kernel` (what a TMA copy needs for its tensor map, which must not be
/// copied: the TMA unit reads the parameter itself).
///
/// Taking `&arg` in Rust would make LLVM copy the parameter into a `.local` frame; instead this
/// is `mov.b64 p, <kernel>_param_<index>; cvta.param.u64 p, p` in an `asm!`, with a marker
/// comment from which the PTX build (`cute-builder`, `apply_grid_constants`) raises the
/// parameter's alignment to the 64 bytes a `CUtensorMap` needs (rustc declares at most
/// `.align 16`, and cannot take a 64-byte aligned type by value at all). A marker that names no
/// 128-byte parameter of that entry is a build error. On the host (the emulator) it is
/// `&raw const arg`. The calling crate needs `#![feature(asm_experimental_arch)]` on nvptx64.
///
/// ```
/// device::kernel! {
///     /// Reads its by-value parameter through its address.
///     pub unsafe fn first_word(d: device::tma::TmaDescriptor, out: *mut u64) {
///         let p = device::grid_constant!(first_word, 0, d);
///         unsafe { *out = (*p).0[0] };
///     }
/// }
/// let mut w = 0u64;
/// let d = device::tma::TmaDescriptor([7; 16]);
/// let o = &raw mut w as usize;
/// // SAFETY: one thread writes `w`.
/// unsafe { device::emu::launch((1, 1, 1), (1, 1, 1), 0, || first_word(d, o as *mut u64)) };
/// assert_eq!(w, 7);
/// ```
#[macro_export]
macro_rules! grid_constant {
    ($kernel:ident, $index:literal, $arg:ident) => {{
        #[cfg(target_arch = "nvptx64")]
        {
            #[inline(always)]
            fn typed<T>(_: &T, p: u64) -> *const T {
                p as *const T
            }
            let p: u64;
            // SAFETY: the address of a parameter of this entry (checked by the PTX build).
            unsafe {
                ::core::arch::asm!(
                    concat!(
                        "// cute-rs grid_constant ", stringify!($kernel), "_param_", stringify!($index), "\n\t",
                        "mov.b64 {p}, ", stringify!($kernel), "_param_", stringify!($index), ";\n\t",
                        "cvta.param.u64 {p}, {p};"
                    ),
                    p = out(reg64) p,
                    options(pure, nomem, nostack, preserves_flags)
                )
            };
            typed(&$arg, p)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            &raw const $arg
        }
    }};
}
