//! GPU kernels for `nvptx64-nvidia-cuda`, built into ONE self-contained PTX module
//! (`target/ptx/kernels.ptx`) by `cargo xtask build-kernels` and embedded in the
//! host as `cute_rs::KERNELS_PTX`.
//!
//! Kernel ABI: `extern "ptx-kernel"`, `#[unsafe(no_mangle)]`, parameters are raw
//! pointers (generic addresses of `cuMemAlloc`ed buffers) and integers; the host's
//! typed launchers in `host/src/kernels.rs` mirror every signature here.
//!
//! On any other target this crate is empty (so `cargo doc`/`check` on the host work).
#![no_std]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_ptx,
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
        stmt_expr_attributes
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

// Linked so the PTX build proves the layout algebra compiles for the device;
// kernels do not use its (still moving) API yet.
pub use layout_types;

#[cfg(target_arch = "nvptx64")]
pub mod device;

#[cfg(target_arch = "nvptx64")]
mod smoke;

#[cfg(target_arch = "nvptx64")]
mod copy;

#[cfg(target_arch = "nvptx64")]
pub mod gemm;

#[cfg(target_arch = "nvptx64")]
mod layout_probe;

#[cfg(target_arch = "nvptx64")]
mod typed_probe;

/// Panic handler: with `-Cpanic=immediate-abort` panics already lower to `trap`;
/// this only satisfies `no_std`.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    device::thread::trap()
}
