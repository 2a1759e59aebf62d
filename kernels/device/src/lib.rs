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
