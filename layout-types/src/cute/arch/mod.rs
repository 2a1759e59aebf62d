//! The instructions behind the copy atoms: 128-bit loads and stores per memory space and
//! `cp.async` 16 B, as small `asm!` wrappers on `nvptx64`; on any other target plain memory
//! copies (so the same kernels run in host tests).
//!
//! Hopper's data movers, one module each: [`mbarrier`] (transaction barriers and their fences),
//! [`tma`] (`cp.async.bulk.tensor` loads, multicast loads and stores on a [`tma::TmaDescriptor`]),
//! [`cluster`] (cluster special registers, `barrier.cluster`, `elect.sync`),
//! [`grid_dependency_control`] (`griddepcontrol`: programmatic dependent launch). The bulk-group
//! instructions (`fence.proxy.async.shared::cta`, `cp.async.bulk.commit_group`,
//! `cp.async.bulk.wait_group.read`) are here: [`tma_store_fence`], [`tma_store_arrive`],
//! [`tma_store_wait`].
//!
//! `ldmatrix` (sm_75+, on `nvptx64`) is in `copy_sm75`.
//!
//! Hopper's warpgroup MMA (`wgmma`) and `setmaxnreg` are in [`mma_sm90`].

pub mod cluster;
#[cfg(target_arch = "nvptx64")]
pub mod copy_sm75;
pub mod grid_dependency_control;
pub mod mbarrier;
pub mod mma_sm90;
pub mod tma;

use super::tensor::Space;

/// 16 bytes, 16-byte aligned (`uint4`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct U32x4(pub [u32; 4]);

/// Off the GPU with the `strict-host` feature (the CPU emulator): a 128-bit access to global or
/// shared memory that is not 16-byte aligned panics, as the hardware faults (registers have no
/// such rule).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn host_check_aligned(space: Space, p: *const u8, what: &str) {
    assert!(
        !matches!(space, Space::SmemAddr),
        "{what}: a 32-bit shared address needs its own atom"
    );
    if cfg!(feature = "strict-host")
        && !matches!(space, Space::Reg)
        && !(p as usize).is_multiple_of(16)
    {
        panic!(
            "{what}: address {p:p} is not 16-byte aligned (a misaligned-address fault on the GPU)"
        );
    }
}

/// 128-bit load from `p` in memory space `space`.
///
/// # Safety
/// `p` is 16-byte aligned and valid for 16 bytes in that space.
#[inline(always)]
pub unsafe fn load16(space: Space, p: *const u8) -> U32x4 {
    #[cfg(target_arch = "nvptx64")]
    {
        let (a, b, c, d): (u32, u32, u32, u32);
        unsafe {
            match space {
                Space::Gmem => core::arch::asm!(
                    "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.v4.u32 {{{a}, {b}, {c}, {d}}}, [g]; }}",
                    p = in(reg64) p, a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                    options(readonly, nostack, preserves_flags)),
                Space::Smem => core::arch::asm!(
                    "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; ld.shared.v4.u32 {{{a}, {b}, {c}, {d}}}, [s]; }}",
                    p = in(reg64) p, a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                    options(readonly, nostack, preserves_flags)),
                Space::Reg => return (p as *const U32x4).read_unaligned(),
                // refused at compile time by `copy` (`CopyAtom::SMEM_ADDR`)
                Space::SmemAddr => unreachable!("a 32-bit shared address needs its own atom"),
            }
        }
        U32x4([a, b, c, d])
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_check_aligned(space, p, "ld.v4");
        unsafe { (p as *const U32x4).read_unaligned() }
    }
}

/// 128-bit store to `p` in memory space `space`.
///
/// # Safety
/// `p` is 16-byte aligned and valid for 16 bytes in that space.
#[inline(always)]
pub unsafe fn store16(space: Space, p: *mut u8, v: U32x4) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let [a, b, c, d] = v.0;
        match space {
            Space::Gmem => core::arch::asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v4.u32 [g], {{{a}, {b}, {c}, {d}}}; }}",
                p = in(reg64) p, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c, d = in(reg32) d,
                options(nostack, preserves_flags)),
            Space::Smem => core::arch::asm!(
                "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; st.shared.v4.u32 [s], {{{a}, {b}, {c}, {d}}}; }}",
                p = in(reg64) p, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c, d = in(reg32) d,
                options(nostack, preserves_flags)),
            Space::Reg => (p as *mut U32x4).write_unaligned(v),
            // refused at compile time by `copy` (`CopyAtom::SMEM_ADDR`)
            Space::SmemAddr => unreachable!("a 32-bit shared address needs its own atom"),
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_check_aligned(space, p, "st.v4");
        unsafe { (p as *mut U32x4).write_unaligned(v) }
    }
}

/// `cp.async.cg.shared.global [dst], [src], 16`: 16 bytes global → shared, asynchronously
/// (visible after [`cp_async_wait`]). Elsewhere: a plain copy.
///
/// # Safety
/// `src` (global) and `dst` (shared, generic address) are 16-byte aligned and valid for 16 bytes.
#[inline(always)]
pub unsafe fn cp_async16(src: *const u8, dst: *mut u8) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 s, g; cvta.to.shared.u64 s, {d}; cvta.to.global.u64 g, {p}; cp.async.cg.shared.global [s], [g], 16; }}",
            d = in(reg64) dst, p = in(reg64) src,
            options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host_check_aligned(Space::Gmem, src, "cp.async source");
        host_check_aligned(Space::Smem, dst, "cp.async destination");
        core::ptr::copy_nonoverlapping(src, dst, 16)
    }
}

/// `cp.async.commit_group` (CuTe's `cp_async_fence`); nothing elsewhere.
#[inline(always)]
pub fn cp_async_fence() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("cp.async.commit_group;", options(nostack, preserves_flags))
    }
}

/// `cp.async.wait_group N` (CuTe's `cp_async_wait<N>`); nothing elsewhere.
#[inline(always)]
pub fn cp_async_wait<const N: u32>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("cp.async.wait_group {n};", n = const N, options(nostack, preserves_flags))
    }
}

/// `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], bytes` (CuTe's
/// `SM90_BULK_COPY_S2G`): the TMA unit copies `bytes` contiguous bytes of shared memory to global
/// memory, asynchronously. The shared memory must have been written before a
/// [`tma_store_fence`] and a barrier, and must stay untouched (and the block alive) until
/// [`tma_store_wait`] after a [`tma_store_arrive`]. Elsewhere: a plain copy.
///
/// # Safety
/// `src` (shared, generic address) and `dst` (global) are 16-byte aligned and valid for `bytes`,
/// a multiple of 16.
#[inline(always)]
pub unsafe fn bulk_s2g(src: *const u8, dst: *mut u8, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 s, g; .reg .u32 s32; cvta.to.shared.u64 s, {p}; cvt.u32.u64 s32, s; cvta.to.global.u64 g, {d}; cp.async.bulk.global.shared::cta.bulk_group [g], [s32], {n}; }}",
            p = in(reg64) src, d = in(reg64) dst, n = in(reg32) bytes,
            options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host_check_aligned(Space::Smem, src, "cp.async.bulk source");
        host_check_aligned(Space::Gmem, dst, "cp.async.bulk destination");
        if cfg!(feature = "strict-host") && !bytes.is_multiple_of(16) {
            panic!("cp.async.bulk: {bytes} bytes is not a multiple of 16");
        }
        core::ptr::copy_nonoverlapping(src, dst, bytes as usize)
    }
}

/// `fence.proxy.async.shared::cta` (CuTe's `tma_store_fence`): makes this thread's writes to
/// shared memory visible to the TMA unit (the async proxy); a barrier then lets one thread
/// issue the bulk copy. Nothing elsewhere.
#[inline(always)]
pub fn tma_store_fence() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "fence.proxy.async.shared::cta;",
            options(nostack, preserves_flags)
        )
    }
}

/// `cp.async.bulk.commit_group` (CuTe's `tma_store_arrive`): closes this thread's group of bulk
/// copies. Nothing elsewhere.
#[inline(always)]
pub fn tma_store_arrive() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.commit_group;",
            options(nostack, preserves_flags)
        )
    }
}

/// `cp.async.bulk.wait_group.read N` (CuTe's `tma_store_wait<N>`): waits until at most `N` of
/// this thread's bulk-copy groups still read their shared memory. Nothing elsewhere.
#[inline(always)]
pub fn tma_store_wait<const N: u32>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("cp.async.bulk.wait_group.read {n};", n = const N, options(nostack, preserves_flags))
    }
}
