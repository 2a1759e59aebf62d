//! Global-memory atomics.

/// `red.global.add.f32`: `*p += v` atomically, no return value (`atomicAdd`, result unused).
/// In the emulator: a compare-and-swap loop on the host.
///
/// ```
/// let mut x = 0f32;
/// let p = &mut x as *mut f32 as usize;
/// // SAFETY: every thread adds to the same valid f32 atomically.
/// unsafe {
///     device::emu::launch((2, 1, 1), (32, 1, 1), 0, || device::atomic::red_add_f32(p as *mut f32, 0.5))
/// };
/// assert_eq!(x, 32.0);
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 4-byte aligned.
#[inline(always)]
pub unsafe fn red_add_f32(p: *mut f32, v: f32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; red.global.add.f32 [g], {v}; }}",
            p = in(reg64) p,
            v = in(reg32) v,
            options(nostack, preserves_flags),
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::emu::red_add_f32(p, v)
    }
}

/// `atom.global.add.u32`: `*p += v` atomically, returning the old value (`atomicAdd`). In the
/// emulator: an atomic `fetch_add` on the host.
///
/// ```
/// let mut x = 0u32;
/// let p = &mut x as *mut u32 as usize;
/// let mut old = [0u32; 4];
/// let o = old.as_mut_ptr() as usize;
/// // SAFETY: every thread adds to the same valid u32 atomically and writes its own element.
/// unsafe {
///     device::emu::launch((1, 1, 1), (4, 1, 1), 0, || {
///         let t = device::thread::thread_idx_x() as usize;
///         *(o as *mut u32).add(t) = device::atomic::atomic_add_u32(p as *mut u32, 1)
///     })
/// };
/// old.sort();
/// assert_eq!((x, old), (4, [0, 1, 2, 3]));
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 4-byte aligned.
#[inline(always)]
pub unsafe fn atomic_add_u32(p: *mut u32, v: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let old: u32;
        core::arch::asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; atom.global.add.u32 {old}, [g], {v}; }}",
            p = in(reg64) p,
            v = in(reg32) v,
            old = out(reg32) old,
            options(nostack, preserves_flags),
        );
        old
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::emu::atomic_add_u32(p, v)
    }
}

/// `ld.acquire.gpu.global.u32`: a load that orders every later load and store of the thread
/// after it, at GPU scope (`cuda::atomic_ref<uint32_t, thread_scope_device>::load(acquire)`):
/// the reading side of a flag another CTA sets with [`st_release_gpu_u32`] (CUTLASS's
/// `GenericBarrier::wait_eq`). In the emulator: an atomic acquire load.
///
/// ```
/// let flag = 7u32;
/// let p = &flag as *const u32 as usize;
/// let mut out = 0u32;
/// let o = &mut out as *mut u32 as usize;
/// // SAFETY: one thread reads a valid, aligned u32.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
///         *(o as *mut u32) = device::atomic::ld_acquire_gpu_u32(p as *const u32)
///     })
/// };
/// assert_eq!(out, 7);
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 4-byte aligned.
#[inline(always)]
pub unsafe fn ld_acquire_gpu_u32(p: *const u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let v: u32;
        core::arch::asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.acquire.gpu.global.u32 {v}, [g]; }}",
            p = in(reg64) p,
            v = out(reg32) v,
            options(nostack, preserves_flags),
        );
        v
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::emu::ld_acquire_gpu_u32(p)
    }
}

/// `st.release.gpu.global.u32`: a store ordered after every earlier load and store of the
/// thread, at GPU scope (`atomic_ref::store(release)`): the writing side of a flag that says
/// the thread's data is in global memory (CUTLASS's `GenericBarrier::arrive_inc`, one flag per
/// thread). In the emulator: an atomic release store.
///
/// ```
/// let mut flag = 0u32;
/// let p = &mut flag as *mut u32 as usize;
/// // SAFETY: one thread writes a valid, aligned u32.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
///         device::atomic::st_release_gpu_u32(p as *mut u32, 1)
///     })
/// };
/// assert_eq!(flag, 1);
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 4-byte aligned.
#[inline(always)]
pub unsafe fn st_release_gpu_u32(p: *mut u32, v: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.release.gpu.global.u32 [g], {v}; }}",
            p = in(reg64) p,
            v = in(reg32) v,
            options(nostack, preserves_flags),
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::emu::st_release_gpu_u32(p, v)
    }
}
