//! `cp.async` (sm_80+): asynchronous global → shared copies, grouped and waited on.
//!
//! Pattern: issue copies, [`cp_async_fence`], later [`cp_async_wait::<N>`] (at most `N`
//! groups still pending), then [`super::thread::sync_threads`] before other threads
//! read what this thread copied.
//!
//! In the emulator a copy reads its source when issued and writes shared memory at the
//! `wait_group` / `wait_all` that covers it (or when the thread exits), so a read of the
//! destination before the wait sees the poison bytes. [`cp_async_cg_16_generic`], the form the
//! typed layer's `CpAsync16` atom issues, copies at once off the GPU (it also runs outside an
//! emulated launch, in the typed layer's host tests); the fence and the waits do nothing outside a
//! launch.

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `cp.async.cg.shared.global [dst], [src], 16`: copies 16 bytes global → shared,
/// bypassing L1 (`.cg`).
///
/// ```
/// use device::{cp_async::*, emu::launch, shared::*, thread::*, vec::Float4};
/// let src = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }; 8];
/// let mut out = [0f32; 8];
/// let (s_ptr, o) = (src.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: each thread copies one aligned 16-byte vector into its own slot of shared memory
/// // and reads it back after the wait and the barrier.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 128, || {
///         let t = thread_idx_x() as usize;
///         let smem = dynamic_shared_mem::<Float4>();
///         cp_async_cg_16(to_shared_addr(smem.add(t)), (s_ptr as *const Float4).add(t) as *const u8);
///         cp_async_fence();
///         cp_async_wait::<0>();
///         sync_threads();
///         *(o as *mut f32).add(t) = (*smem.add(7 - t)).w;
///     })
/// };
/// assert_eq!(out, [4.0; 8]);
/// ```
///
/// # Safety
/// `dst_shared` is a 16-byte aligned `.shared` address (see
/// [`super::shared::to_shared_addr`]); `src` a generic pointer into global memory,
/// 16-byte aligned, valid for 16 bytes. The data may be read only after a
/// `wait_group` that covers this copy.
#[inline(always)]
pub unsafe fn cp_async_cg_16(dst_shared: u32, src: *const u8) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {s}; cp.async.cg.shared.global [{d}], [g], 16; }}",
            d = in(reg32) dst_shared,
            s = in(reg64) src,
            options(nostack, preserves_flags),
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::cp_async_16(dst_shared, src, 16)
    }
}

/// `cp.async.cg.shared.global [dst], [src], 16, src_size`: copies `src_size` bytes
/// (0..=16) and fills the rest of the 16 with zeros.
///
/// ```
/// use device::{cp_async::*, emu::launch, shared::*, thread::*, vec::Float4};
/// let src = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }; 8];
/// let mut out = [0f32; 8];
/// let (s_ptr, o) = (src.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: each thread copies one aligned 16-byte vector into its own slot of shared memory
/// // and reads it back after the wait and the barrier.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 128, || {
///         let t = thread_idx_x() as usize;
///         let smem = dynamic_shared_mem::<Float4>();
///         // 8 of the 16 bytes: x, y copied, z, w zero
///         cp_async_cg_16_zfill(to_shared_addr(smem.add(t)), (s_ptr as *const Float4).add(t) as *const u8, 8);
///         cp_async_fence();
///         cp_async_wait::<0>();
///         sync_threads();
///         *(o as *mut f32).add(t) = (*smem.add(7 - t)).z;
///     })
/// };
/// assert_eq!(out, [0.0; 8]);
/// ```
///
/// # Safety
/// As [`cp_async_cg_16`], with `src` valid for `src_size` bytes.
#[inline(always)]
pub unsafe fn cp_async_cg_16_zfill(dst_shared: u32, src: *const u8, src_size: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {s}; cp.async.cg.shared.global [{d}], [g], 16, {n}; }}",
            d = in(reg32) dst_shared,
            s = in(reg64) src,
            n = in(reg32) src_size,
            options(nostack, preserves_flags),
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::cp_async_16(dst_shared, src, src_size)
    }
}

/// `cp.async.cp_async_fence`: closes the group of this thread's copies issued so far.
///
/// ```
/// use device::{cp_async::*, emu::launch, shared::*, thread::*, vec::Float4};
/// let src = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }; 8];
/// let mut out = [0f32; 8];
/// let (s_ptr, o) = (src.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: each thread copies one aligned 16-byte vector into its own slot of shared memory
/// // and reads it back after the wait and the barrier.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 128, || {
///         let t = thread_idx_x() as usize;
///         let smem = dynamic_shared_mem::<Float4>();
///         cp_async_cg_16(to_shared_addr(smem.add(t)), (s_ptr as *const Float4).add(t) as *const u8);
///         cp_async_fence();
///         cp_async_wait::<0>();
///         sync_threads();
///         *(o as *mut f32).add(t) = (*smem.add(7 - t)).x;
///     })
/// };
/// assert_eq!(out, [1.0; 8]);
/// ```
#[inline(always)]
pub fn cp_async_fence() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands.
    unsafe {
        asm!("cp.async.commit_group;", options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::cp_async_commit()
    }
}

/// `cp.async.wait_group N` (CuTe's `cp_async_wait<N>`): waits until at most `N` of this thread's committed
/// groups are still in flight (`N = 0`: all done).
///
/// ```
/// use device::{cp_async::*, emu::launch, shared::*, thread::*, vec::Float4};
/// let src = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }; 8];
/// let mut out = [0f32; 8];
/// let (s_ptr, o) = (src.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: each thread copies one aligned 16-byte vector into its own slot of shared memory
/// // and reads it back after the wait and the barrier.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 128, || {
///         let t = thread_idx_x() as usize;
///         let smem = dynamic_shared_mem::<Float4>();
///         cp_async_cg_16(to_shared_addr(smem.add(t)), (s_ptr as *const Float4).add(t) as *const u8);
///         cp_async_fence();
///         cp_async_wait::<0>();
///         sync_threads();
///         *(o as *mut f32).add(t) = (*smem.add(7 - t)).y;
///     })
/// };
/// assert_eq!(out, [2.0; 8]);
/// ```
#[inline(always)]
pub fn cp_async_wait<const N: u32>() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: waits only; memory clobber orders later shared reads after it.
    unsafe {
        asm!("cp.async.wait_group {n};", n = const N, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::cp_async_wait(N)
    }
}

/// `cp.async.wait_all`: waits for all of this thread's copies (committed or not).
///
/// ```
/// use device::{cp_async::*, emu::launch, shared::*, thread::*, vec::Float4};
/// let src = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }; 8];
/// let mut out = [0f32; 8];
/// let (s_ptr, o) = (src.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: each thread copies one aligned 16-byte vector into its own slot of shared memory
/// // and reads it back after the wait and the barrier.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 128, || {
///         let t = thread_idx_x() as usize;
///         let smem = dynamic_shared_mem::<Float4>();
///         cp_async_cg_16(to_shared_addr(smem.add(t)), (s_ptr as *const Float4).add(t) as *const u8);
///         wait_all(); // no commit needed
///         sync_threads();
///         *(o as *mut f32).add(t) = (*smem.add(7 - t)).z;
///     })
/// };
/// assert_eq!(out, [3.0; 8]);
/// ```
#[inline(always)]
pub fn wait_all() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("cp.async.wait_all;", options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::cp_async_wait_all()
    }
}

/// `cp.async.cg.shared.global [dst], [src], 16` with `dst` a *generic* pointer into shared
/// memory (`cvta.to.shared` inside): the form the typed layer's `CpAsync16` atom issues (CuTe's
/// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`), visible after [`cp_async_wait`]. Off the GPU: a
/// plain copy at once (16-byte alignment checked with the `strict-host` feature).
///
/// ```
/// let src = device::vec::U32x4([1, 2, 3, 4]);
/// let mut dst = device::vec::U32x4::default();
/// // SAFETY: valid, aligned 16-byte values (host memory stands in for global and shared).
/// unsafe { device::cp_async::cp_async_cg_16_generic((&raw const src).cast(), (&raw mut dst).cast()) };
/// device::cp_async::cp_async_fence();
/// device::cp_async::cp_async_wait::<0>();
/// assert_eq!(dst, src);
/// ```
///
/// # Safety
/// `src` (global) and `dst` (shared, generic address) are 16-byte aligned and valid for 16 bytes.
#[inline(always)]
pub unsafe fn cp_async_cg_16_generic(src: *const u8, dst: *mut u8) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 s, g; cvta.to.shared.u64 s, {d}; cvta.to.global.u64 g, {p}; cp.async.cg.shared.global [s], [g], 16; }}",
            d = in(reg64) dst, p = in(reg64) src,
            options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        crate::vec::strict_host_aligned(src, "cp.async source");
        crate::vec::strict_host_aligned(dst, "cp.async destination");
        core::ptr::copy_nonoverlapping(src, dst, 16)
    }
}
