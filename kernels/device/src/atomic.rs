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
