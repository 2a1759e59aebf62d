//! Shared memory: the launch-sized (dynamic) region and address conversion.

/// Start of the block's dynamic shared memory (`extern __shared__ T smem[]` in CUDA),
/// whose size in bytes is the launch's `shared_mem_bytes`. Every call in a kernel,
/// whatever `T`, returns the same address, aligned at least to `align_of::<T>()`
/// (so ask for a `#[repr(align(16))]` type to get 16-byte alignment).
///
/// Built on `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, which lowers to a
/// `.extern .shared .align A .b8 name[]` variable in the PTX. In the emulator: the block's
/// buffer, filled with [`crate::emu::SHARED_POISON`] bytes at the start of the block.
///
/// ```
/// use device::{emu::launch, shared::dynamic_shared_mem, thread::*};
/// let mut out = [0u32; 4];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: a 16-byte launch-sized region; each thread writes its own word, reads another's
/// // after the barrier.
/// unsafe {
///     launch((1, 1, 1), (4, 1, 1), 16, || {
///         let s = dynamic_shared_mem::<u32>();
///         let t = thread_idx_x() as usize;
///         *s.add(t) = 1 << t;
///         sync_threads();
///         *(p as *mut u32).add(t) = *s.add(3 - t);
///     })
/// };
/// assert_eq!(out, [8, 4, 2, 1]);
/// ```
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

/// The 32-bit `.shared` address of a pointer into the block's dynamic shared memory
/// ([`dynamic_shared_mem`]'s region): the region's address (on the GPU a `mov` of its symbol,
/// a link-time constant) plus the pointer's offset in it. [`to_shared_addr`] gives the same
/// value through `cvta.to.shared`, which ptxas runs at run time (`S2UR SR_SWINHI` and shifts)
/// or keeps in a register across loops; from this form, where the offset is a constant or a
/// stage index times one, ptxas can build the address from immediates. Which of the two a
/// kernel's register allocation likes is measured, not derived (doc/hopper-gemm.md, session
/// 18: the GEMM's epilogue takes this one, which gave the FP8 128 × 192 k-loop back the
/// register it had lost; elsewhere it made ptxas spill). In the emulator a pointer outside
/// the region is an error.
///
/// ```
/// use device::{emu::launch, shared::*};
/// let mut out = [0u32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: one thread, 64 bytes of shared memory.
/// unsafe {
///     launch((1, 1, 1), (1, 1, 1), 64, || {
///         let s = dynamic_shared_mem::<u32>();
///         *(p as *mut u32) = dynamic_shared_addr_of(s.add(3)) - dynamic_shared_addr_of(s);
///         *(p as *mut u32).add(1) = (dynamic_shared_addr_of(s.add(5)) == to_shared_addr(s.add(5))) as u32;
///     })
/// };
/// assert_eq!(out, [12, 1]);
/// ```
#[inline(always)]
pub fn dynamic_shared_addr_of<T>(p: *const T) -> u32 {
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::to_shared_addr(p as usize)
    }
    #[cfg(target_arch = "nvptx64")]
    {
        let base: u64;
        // SAFETY: the address of the dynamic region's symbol (`dynamic_shared_mem` below
        // declares it in the module); reads and writes nothing.
        unsafe {
            core::arch::asm!(
                "mov.u64 {s}, gpu_launch_sized_workgroup_mem;",
                s = out(reg64) base,
                options(pure, nomem, nostack, preserves_flags),
            )
        };
        let start = dynamic_shared_mem::<u8>() as u64;
        base.wrapping_add((p as u64).wrapping_sub(start)) as u32
    }
}

/// Converts a generic pointer into shared memory to a 32-bit `.shared` state-space
/// address (`__cvta_generic_to_shared`), as `cp.async`, `ldmatrix`, `ld.shared` want.
/// In the emulator a pointer outside dynamic shared memory is an error.
///
/// ```
/// use device::{emu::launch, shared::*};
/// let mut out = [0u32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: one thread, 16 bytes of shared memory.
/// unsafe {
///     launch((1, 1, 1), (1, 1, 1), 16, || {
///         let s = dynamic_shared_mem::<u32>();
///         // consecutive elements are 4 bytes apart in the .shared window too
///         *(p as *mut u32) = to_shared_addr(s.add(1)) - to_shared_addr(s);
///         *(p as *mut u32).add(1) = (to_shared_addr(s) % 16 == 0) as u32;
///     })
/// };
/// assert_eq!(out, [4, 1]);
/// ```
#[inline(always)]
pub fn to_shared_addr<T>(p: *const T) -> u32 {
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::to_shared_addr(p as usize)
    }
    #[cfg(target_arch = "nvptx64")]
    {
        cast_smem_ptr_to_uint(p)
    }
}

/// The 32-bit `.shared` address of a generic pointer into shared memory (CuTe's
/// `cast_smem_ptr_to_uint`: `cvta.to.shared.u64` and the low 32 bits), the address the
/// `mbarrier`, TMA and `wgmma` descriptor instructions take. Off the GPU: the pointer's low 32
/// bits, whatever memory it points to (the typed layer's descriptors in host tests, the
/// barriers' host fallbacks, which use the pointer itself); [`to_shared_addr`] is the
/// emulator's shared window.
///
/// ```
/// assert_eq!(device::shared::cast_smem_ptr_to_uint(0x1_0000_0400usize as *const u16), 0x400);
/// ```
#[inline(always)]
pub fn cast_smem_ptr_to_uint<T>(p: *const T) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let a: u32;
        // SAFETY: pure address arithmetic. `nomem` is right although a pointer goes in: `cvta`
        // converts the address, it reads and writes nothing behind it.
        #[allow(clippy::pointers_in_nomem_asm_block)]
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
    #[cfg(not(target_arch = "nvptx64"))]
    {
        p as usize as u32
    }
}
