//! Shared memory: the launch-sized (dynamic) region and address conversion.

/// Start of the block's dynamic shared memory (`extern __shared__ T smem[]` in CUDA),
/// whose size in bytes is the launch's `shared_mem_bytes`. Every call in a kernel,
/// whatever `T`, returns the same address, aligned at least to `align_of::<T>()`
/// (so ask for a `#[repr(align(16))]` type to get 16-byte alignment).
///
/// Built on `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, which lowers to a
/// `.extern .shared .align A .b8 name[]` variable in the PTX. In the emulator: the block's
/// buffer, filled with [`crate::emu::SHARED_POISON`] bytes at the start of the block.
#[inline(always)]
pub fn dynamic_shared_mem<T>() -> *mut T {
    #[cfg(target_arch = "nvptx64")]
    {
        core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::dynamic_shared_mem(align_of::<T>()) as *mut T
    }
}

/// Converts a generic pointer into shared memory to a 32-bit `.shared` state-space
/// address (`__cvta_generic_to_shared`), as `cp.async`, `ldmatrix`, `ld.shared` want.
/// In the emulator a pointer outside dynamic shared memory is an error.
#[inline(always)]
pub fn to_shared_addr<T>(p: *const T) -> u32 {
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::to_shared_addr(p as usize)
    }
    #[cfg(target_arch = "nvptx64")]
    {
        let a: u32;
        // SAFETY: pure address arithmetic.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 t; cvta.to.shared.u64 t, {p}; cvt.u32.u64 {a}, t; }}",
                p = in(reg64) p,
                a = out(reg32) a,
                options(pure, nomem, nostack),
            )
        };
        a
    }
}
