//! 16-byte vector types and 128-bit loads/stores.
//!
//! `[f32; 4]` has alignment 4, so LLVM splits its accesses into 4 scalar ones;
//! the `#[repr(align(16))]` types here let the wrappers emit one
//! `ld.global.v4.f32` / `st.global.v4.f32` / `ld.shared.v4.f32` / `st.shared.v4.f32`.
//!
//! In the emulator every access checks what the GPU would fault on: 16-byte alignment, a
//! global address that is not a shared one, a shared address inside dynamic shared memory.

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// Four `f32` in 16 bytes, 16-byte aligned (`float4`).
///
/// ```
/// use device::vec::Float4;
/// assert_eq!((core::mem::size_of::<Float4>(), core::mem::align_of::<Float4>()), (16, 16));
/// let v = Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 };
/// assert_eq!(v.w, 4.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Float4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// Four `u32` in 16 bytes, 16-byte aligned (`uint4`), e.g. 8 packed halves.
///
/// ```
/// use device::vec::U32x4;
/// assert_eq!(core::mem::align_of::<U32x4>(), 16);
/// assert_eq!(U32x4([1, 2, 3, 4]).0[3], 4);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct U32x4(pub [u32; 4]);

/// Defines a 128-bit global load `$name(p) -> Float4` emitting the PTX load `$op` (after
/// `cvta.to.global`); in the emulator it checks the address as the GPU would fault and reads.
macro_rules! ld_global_v4 {
    ($(#[$doc:meta])* $name:ident, $op:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(p: *const Float4) -> Float4 {
            #[cfg(target_arch = "nvptx64")]
            {
                let (x, y, z, w): (f32, f32, f32, f32);
                unsafe {
                    asm!(
                        concat!("{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ", $op, " {{{x}, {y}, {z}, {w}}}, [g]; }}"),
                        p = in(reg64) p,
                        x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
                        options(readonly, nostack, preserves_flags),
                    )
                };
                Float4 { x, y, z, w }
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                crate::emu::check_global($op, p as usize, 16, 16);
                // SAFETY: aligned (checked) and valid (the caller).
                unsafe { p.read() }
            }
        }
    };
}

ld_global_v4!(
    /// `ld.global.v4.f32`: one 128-bit load from global memory.
    ///
    /// ```
    /// use device::{emu::launch, thread::thread_idx_x, vec::*};
    /// let v = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }, Float4 { x: 5.0, y: 6.0, z: 7.0, w: 8.0 }];
    /// let mut out = [Float4 { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }; 2];
    /// let (src, dst) = (v.as_ptr() as usize, out.as_mut_ptr() as usize);
    /// // SAFETY: 16-byte aligned vectors, one per thread.
    /// unsafe {
    ///     launch((1, 1, 1), (2, 1, 1), 0, || {
    ///         let t = thread_idx_x() as usize;
    ///         let x = ld_global_v4_f32((src as *const Float4).add(t));
    ///         st_global_v4_f32((dst as *mut Float4).add(t), x);
    ///     })
    /// };
    /// assert_eq!((out[0].w, out[1].x), (4.0, 5.0));
    /// ```
    ///
    /// # Safety
    /// `p` is a generic pointer into global memory, 16-byte aligned, valid for 16 bytes.
    ld_global_v4_f32,
    "ld.global.v4.f32"
);

ld_global_v4!(
    /// `ld.relaxed.gpu.global.v4.f32`: a 128-bit load that is a strong (relaxed, GPU-scope)
    /// memory operation. It costs what `ld.global.v4.f32` costs (one `LDG.E.128.STRONG.GPU`), but
    /// ptxas keeps strong operations in program order with the shared-memory accesses after them,
    /// so a load issued at the top of a loop stays there instead of being sunk towards its first
    /// use (the SGEMM's "N" entries: measured with `tools/sass_mix.py` and on the H100).
    ///
    /// ```
    /// use device::{emu::launch, thread::thread_idx_x, vec::*};
    /// let v = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }, Float4 { x: 5.0, y: 6.0, z: 7.0, w: 8.0 }];
    /// let mut out = [Float4 { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }; 2];
    /// let (src, dst) = (v.as_ptr() as usize, out.as_mut_ptr() as usize);
    /// // SAFETY: 16-byte aligned vectors, one per thread.
    /// unsafe {
    ///     launch((1, 1, 1), (2, 1, 1), 0, || {
    ///         let t = thread_idx_x() as usize;
    ///         let x = ld_relaxed_gpu_v4_f32((src as *const Float4).add(t));
    ///         st_global_v4_f32((dst as *mut Float4).add(t), x);
    ///     })
    /// };
    /// assert_eq!((out[0].w, out[1].x), (4.0, 5.0));
    /// ```
    ///
    /// # Safety
    /// As [`ld_global_v4_f32`].
    ld_relaxed_gpu_v4_f32,
    "ld.relaxed.gpu.global.v4.f32"
);

ld_global_v4!(
    /// `ld.global.nc.v4.f32`: 128-bit load through the read-only (non-coherent) path
    /// (`__ldg`). Only for data no thread writes during the kernel.
    ///
    /// ```
    /// use device::{emu::launch, thread::thread_idx_x, vec::*};
    /// let v = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }, Float4 { x: 5.0, y: 6.0, z: 7.0, w: 8.0 }];
    /// let mut out = [Float4 { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }; 2];
    /// let (src, dst) = (v.as_ptr() as usize, out.as_mut_ptr() as usize);
    /// // SAFETY: 16-byte aligned vectors, one per thread.
    /// unsafe {
    ///     launch((1, 1, 1), (2, 1, 1), 0, || {
    ///         let t = thread_idx_x() as usize;
    ///         let x = ld_global_nc_v4_f32((src as *const Float4).add(t));
    ///         st_global_v4_f32((dst as *mut Float4).add(t), x);
    ///     })
    /// };
    /// assert_eq!((out[0].w, out[1].x), (4.0, 5.0));
    /// ```
    ///
    /// # Safety
    /// As [`ld_global_v4_f32`], and the memory is read-only for the kernel's lifetime.
    ld_global_nc_v4_f32,
    "ld.global.nc.v4.f32"
);

/// `st.global.v4.f32`: one 128-bit store to global memory.
///
/// ```
/// use device::{emu::launch, thread::thread_idx_x, vec::*};
/// let v = [Float4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 }, Float4 { x: 5.0, y: 6.0, z: 7.0, w: 8.0 }];
/// let mut out = [Float4 { x: 0.0, y: 0.0, z: 0.0, w: 0.0 }; 2];
/// let (src, dst) = (v.as_ptr() as usize, out.as_mut_ptr() as usize);
/// // SAFETY: 16-byte aligned vectors, one per thread.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 0, || {
///         let t = thread_idx_x() as usize;
///         let x = ld_global_v4_f32((src as *const Float4).add(t));
///         st_global_v4_f32((dst as *mut Float4).add(t), x);
///     })
/// };
/// assert_eq!((out[0].w, out[1].x), (4.0, 5.0));
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 16-byte aligned, valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_global_v4_f32(p: *mut Float4, v: Float4) {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe {
            asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v4.f32 [g], {{{x}, {y}, {z}, {w}}}; }}",
                p = in(reg64) p,
                x = in(reg32) v.x, y = in(reg32) v.y, z = in(reg32) v.z, w = in(reg32) v.w,
                options(nostack, preserves_flags),
            )
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::check_global("st.global.v4.f32", p as usize, 16, 16);
        // SAFETY: aligned (checked) and valid (the caller).
        unsafe { p.write(v) }
    }
}

/// Two `u32` in 8 bytes, 8-byte aligned (`uint2`), e.g. 4 packed halves.
///
/// ```
/// use device::vec::U32x2;
/// assert_eq!((core::mem::size_of::<U32x2>(), core::mem::align_of::<U32x2>()), (8, 8));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct U32x2(pub [u32; 2]);

/// `st.global.v2.b32`: one 64-bit store to global memory (the first word at the lower address).
///
/// ```
/// use device::{emu::launch, thread::thread_idx_x, vec::*};
/// let mut out = [U32x2([0, 0]); 2];
/// let dst = out.as_mut_ptr() as usize;
/// // SAFETY: 8-byte aligned vectors, one per thread.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 0, || {
///         let t = thread_idx_x();
///         st_global_v2_u32((dst as *mut U32x2).add(t as usize), U32x2([t, 10 + t]));
///     })
/// };
/// assert_eq!(out, [U32x2([0, 10]), U32x2([1, 11])]);
/// ```
///
/// # Safety
/// `p` is a generic pointer into global memory, 8-byte aligned, valid for 8 bytes.
#[inline(always)]
pub unsafe fn st_global_v2_u32(p: *mut U32x2, v: U32x2) {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe {
            asm!(
                "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v2.b32 [g], {{{x}, {y}}}; }}",
                p = in(reg64) p,
                x = in(reg32) v.0[0], y = in(reg32) v.0[1],
                options(nostack, preserves_flags),
            )
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::check_global("st.global.v2.b32", p as usize, 8, 8);
        // SAFETY: aligned (checked) and valid (the caller).
        unsafe { p.write(v) }
    }
}

/// `ld.shared.v4.f32` at a `.shared` address (see [`super::shared::to_shared_addr`]).
///
/// ```
/// use device::{emu::launch, shared::*, thread::*, vec::*};
/// let mut out = [0f32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread stores one aligned 16-byte vector into shared memory and loads
/// // another thread's after the barrier.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 32, || {
///         let t = thread_idx_x();
///         let s = to_shared_addr(dynamic_shared_mem::<Float4>());
///         st_shared_v4_f32(s + 16 * t, Float4 { x: t as f32, y: 0.0, z: 0.0, w: 10.0 + t as f32 });
///         sync_threads();
///         *(p as *mut f32).add(t as usize) = ld_shared_v4_f32(s + 16 * (1 - t)).w;
///     })
/// };
/// assert_eq!(out, [11.0, 10.0]);
/// ```
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn ld_shared_v4_f32(addr: u32) -> Float4 {
    #[cfg(target_arch = "nvptx64")]
    {
        let (x, y, z, w): (f32, f32, f32, f32);
        unsafe {
            asm!(
                "ld.shared.v4.f32 {{{x}, {y}, {z}, {w}}}, [{a}];",
                a = in(reg32) addr,
                x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
                options(readonly, nostack, preserves_flags),
            )
        };
        Float4 { x, y, z, w }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let q = crate::emu::shared_ptr("ld.shared.v4.f32", addr, 16, 16) as *mut Float4;
        // SAFETY: inside dynamic shared memory and aligned (checked).
        unsafe { q.read() }
    }
}

/// `st.shared.v4.f32` at a `.shared` address.
///
/// ```
/// use device::{emu::launch, shared::*, thread::*, vec::*};
/// let mut out = [0f32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread stores one aligned 16-byte vector into shared memory and loads
/// // another thread's after the barrier.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 32, || {
///         let t = thread_idx_x();
///         let s = to_shared_addr(dynamic_shared_mem::<Float4>());
///         st_shared_v4_f32(s + 16 * t, Float4 { x: t as f32, y: 0.0, z: 0.0, w: 10.0 + t as f32 });
///         sync_threads();
///         *(p as *mut f32).add(t as usize) = ld_shared_v4_f32(s + 16 * (1 - t)).w;
///     })
/// };
/// assert_eq!(out, [11.0, 10.0]);
/// ```
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_shared_v4_f32(addr: u32, v: Float4) {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe {
            asm!(
                "st.shared.v4.f32 [{a}], {{{x}, {y}, {z}, {w}}};",
                a = in(reg32) addr,
                x = in(reg32) v.x, y = in(reg32) v.y, z = in(reg32) v.z, w = in(reg32) v.w,
                options(nostack, preserves_flags),
            )
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let q = crate::emu::shared_ptr("st.shared.v4.f32", addr, 16, 16) as *mut Float4;
        // SAFETY: inside dynamic shared memory and aligned (checked).
        unsafe { q.write(v) }
    }
}

/// `ld.shared.v4.b32` of four raw 32-bit words.
///
/// ```
/// use device::{emu::launch, shared::*, thread::*, vec::*};
/// let mut out = [0u32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread stores one aligned 16-byte vector into shared memory and loads
/// // another thread's after the barrier.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 32, || {
///         let t = thread_idx_x();
///         let s = to_shared_addr(dynamic_shared_mem::<U32x4>());
///         st_shared_v4_u32(s + 16 * t, U32x4([t, 7, 7, 100 + t]));
///         sync_threads();
///         *(p as *mut u32).add(t as usize) = ld_shared_v4_u32(s + 16 * (1 - t)).0[3];
///     })
/// };
/// assert_eq!(out, [101, 100]);
/// ```
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn ld_shared_v4_u32(addr: u32) -> U32x4 {
    #[cfg(target_arch = "nvptx64")]
    {
        let (a0, a1, a2, a3): (u32, u32, u32, u32);
        unsafe {
            asm!(
                "ld.shared.v4.b32 {{{x}, {y}, {z}, {w}}}, [{a}];",
                a = in(reg32) addr,
                x = out(reg32) a0, y = out(reg32) a1, z = out(reg32) a2, w = out(reg32) a3,
                options(readonly, nostack, preserves_flags),
            )
        };
        U32x4([a0, a1, a2, a3])
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let q = crate::emu::shared_ptr("ld.shared.v4.b32", addr, 16, 16) as *mut U32x4;
        // SAFETY: inside dynamic shared memory and aligned (checked).
        unsafe { q.read() }
    }
}

/// `st.shared.v4.b32` of four raw 32-bit words.
///
/// ```
/// use device::{emu::launch, shared::*, thread::*, vec::*};
/// let mut out = [0u32; 2];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread stores one aligned 16-byte vector into shared memory and loads
/// // another thread's after the barrier.
/// unsafe {
///     launch((1, 1, 1), (2, 1, 1), 32, || {
///         let t = thread_idx_x();
///         let s = to_shared_addr(dynamic_shared_mem::<U32x4>());
///         st_shared_v4_u32(s + 16 * t, U32x4([t, 7, 7, 100 + t]));
///         sync_threads();
///         *(p as *mut u32).add(t as usize) = ld_shared_v4_u32(s + 16 * (1 - t)).0[3];
///     })
/// };
/// assert_eq!(out, [101, 100]);
/// ```
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_shared_v4_u32(addr: u32, v: U32x4) {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe {
            asm!(
                "st.shared.v4.b32 [{a}], {{{x}, {y}, {z}, {w}}};",
                a = in(reg32) addr,
                x = in(reg32) v.0[0], y = in(reg32) v.0[1], z = in(reg32) v.0[2], w = in(reg32) v.0[3],
                options(nostack, preserves_flags),
            )
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let q = crate::emu::shared_ptr("st.shared.v4.b32", addr, 16, 16) as *mut U32x4;
        // SAFETY: inside dynamic shared memory and aligned (checked).
        unsafe { q.write(v) }
    }
}

/// `st.shared.f32` at a `.shared` address.
///
/// ```
/// use device::shared::{dynamic_shared_mem, to_shared_addr};
/// let mut out = 0f32;
/// let p = &mut out as *mut f32 as usize;
/// // SAFETY: one thread, 4 bytes of shared memory.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), 4, || {
///         let s = dynamic_shared_mem::<f32>();
///         device::vec::st_shared_f32(to_shared_addr(s), 2.5);
///         *(p as *mut f32) = *s;
///     })
/// };
/// assert_eq!(out, 2.5);
/// ```
///
/// # Safety
/// `addr` is a 4-byte aligned shared address valid for 4 bytes.
#[inline(always)]
pub unsafe fn st_shared_f32(addr: u32, v: f32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("st.shared.f32 [{a}], {v};", a = in(reg32) addr, v = in(reg32) v, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let q = crate::emu::shared_ptr("st.shared.f32", addr, 4, 4) as *mut f32;
        // SAFETY: inside dynamic shared memory and aligned (checked).
        unsafe { q.write(v) }
    }
}

/// Off the GPU with the `strict-host` feature (the CPU emulator): a 128-bit access through a
/// generic pointer that is not 16-byte aligned panics, as the hardware faults. Without it (the
/// typed layer's host unit tests, outside any launch) the access is a plain unaligned one.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub(crate) fn strict_host_aligned(p: *const u8, what: &str) {
    if cfg!(feature = "strict-host") && !(p as usize).is_multiple_of(16) {
        panic!(
            "{what}: address {p:p} is not 16-byte aligned (a misaligned-address fault on the GPU)"
        );
    }
}

/// Defines a 128-bit load through a generic pointer into one state space (`$cvta`, `$op`), the
/// form the typed layer's copy atoms issue (CuTe's `UniversalCopy<uint128_t>` on a `gmem_ptr` /
/// `smem_ptr`): on the host a plain read, usable outside an emulated launch.
macro_rules! ld_v4_generic {
    ($(#[$doc:meta])* $name:ident, $asm:literal, $what:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `p` is a generic pointer into that state space, 16-byte aligned, valid for 16 bytes.
        #[inline(always)]
        pub unsafe fn $name(p: *const u8) -> U32x4 {
            #[cfg(target_arch = "nvptx64")]
            {
                let (a, b, c, d): (u32, u32, u32, u32);
                unsafe {
                    asm!($asm,
                        p = in(reg64) p, a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                        options(readonly, nostack, preserves_flags))
                };
                U32x4([a, b, c, d])
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                strict_host_aligned(p, $what);
                // SAFETY: valid for 16 bytes (the caller).
                unsafe { (p as *const U32x4).read_unaligned() }
            }
        }
    };
}

/// Defines the store of [`ld_v4_generic`].
macro_rules! st_v4_generic {
    ($(#[$doc:meta])* $name:ident, $asm:literal, $what:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `p` is a generic pointer into that state space, 16-byte aligned, valid for 16 bytes.
        #[inline(always)]
        pub unsafe fn $name(p: *mut u8, v: U32x4) {
            #[cfg(target_arch = "nvptx64")]
            unsafe {
                let [a, b, c, d] = v.0;
                asm!($asm,
                    p = in(reg64) p, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c, d = in(reg32) d,
                    options(nostack, preserves_flags))
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                strict_host_aligned(p, $what);
                // SAFETY: valid for 16 bytes (the caller).
                unsafe { (p as *mut U32x4).write_unaligned(v) }
            }
        }
    };
}

ld_v4_generic!(
    /// `ld.global.v4.u32` through a generic pointer (`cvta.to.global` inside).
    ///
    /// ```
    /// let v = device::vec::U32x4([1, 2, 3, 4]);
    /// // SAFETY: a valid, aligned 16-byte value.
    /// assert_eq!(unsafe { device::vec::ld_global_v4_u32_generic((&raw const v).cast()) }, v);
    /// ```
    ld_global_v4_u32_generic,
    "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.v4.u32 {{{a}, {b}, {c}, {d}}}, [g]; }}",
    "ld.v4"
);
ld_v4_generic!(
    /// `ld.shared.v4.u32` through a generic pointer (`cvta.to.shared` inside).
    ///
    /// ```
    /// let v = device::vec::U32x4([1, 2, 3, 4]);
    /// // SAFETY: a valid, aligned 16-byte value (host memory stands in for shared memory).
    /// assert_eq!(unsafe { device::vec::ld_shared_v4_u32_generic((&raw const v).cast()) }, v);
    /// ```
    ld_shared_v4_u32_generic,
    "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; ld.shared.v4.u32 {{{a}, {b}, {c}, {d}}}, [s]; }}",
    "ld.v4"
);
st_v4_generic!(
    /// `st.global.v4.u32` through a generic pointer (`cvta.to.global` inside).
    ///
    /// ```
    /// let mut v = device::vec::U32x4::default();
    /// // SAFETY: a valid, aligned 16-byte value.
    /// unsafe { device::vec::st_global_v4_u32_generic((&raw mut v).cast(), device::vec::U32x4([5; 4])) };
    /// assert_eq!(v.0, [5; 4]);
    /// ```
    st_global_v4_u32_generic,
    "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v4.u32 [g], {{{a}, {b}, {c}, {d}}}; }}",
    "st.v4"
);
st_v4_generic!(
    /// `st.shared.v4.u32` through a generic pointer (`cvta.to.shared` inside).
    ///
    /// ```
    /// let mut v = device::vec::U32x4::default();
    /// // SAFETY: a valid, aligned 16-byte value (host memory stands in for shared memory).
    /// unsafe { device::vec::st_shared_v4_u32_generic((&raw mut v).cast(), device::vec::U32x4([6; 4])) };
    /// assert_eq!(v.0, [6; 4]);
    /// ```
    st_shared_v4_u32_generic,
    "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; st.shared.v4.u32 [s], {{{a}, {b}, {c}, {d}}}; }}",
    "st.v4"
);

/// `*p` if `pred`, else `default`, without a branch: one predicated `ld.global.nc.f32`
/// (CUTLASS's predicated loads; the fused epilogues' bias and scale vectors, where a branch per
/// element over unrolled fragments made LLVM's compile time explode). Off the GPU: a plain read
/// under `pred` (outside an emulated launch too).
///
/// ```
/// let x = 3.0f32;
/// // SAFETY: `x` is readable.
/// unsafe {
///     assert_eq!(device::vec::ld_global_nc_f32_or(true, &raw const x, 1.0), 3.0);
///     assert_eq!(device::vec::ld_global_nc_f32_or(false, core::ptr::null(), 1.0), 1.0);
/// }
/// ```
///
/// # Safety
/// With `pred`, `p` is a readable `f32` (on the GPU: global memory not written by this kernel).
#[inline(always)]
pub unsafe fn ld_global_nc_f32_or(pred: bool, p: *const f32, default: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: the caller's contract; the load happens only under `pred`.
        unsafe {
            asm!(
                "{{ .reg .pred p; setp.ne.u32 p, {c}, 0; mov.b32 {r}, {d}; @p ld.global.nc.f32 {r}, [{a}]; }}",
                r = out(reg32) r, c = in(reg32) pred as u32, d = in(reg32) default,
                a = in(reg64) p as u64, options(pure, readonly, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if pred { unsafe { *p } } else { default }
    }
}

/// `*p` if `pred`, else 0: [`ld_global_nc_f32_or`] with a zero default (its own `mov.b32 r, 0`).
///
/// ```
/// let x = 3.0f32;
/// // SAFETY: `x` is readable.
/// unsafe { assert_eq!(device::vec::ld_global_nc_f32_if(true, &raw const x), 3.0) };
/// assert_eq!(unsafe { device::vec::ld_global_nc_f32_if(false, core::ptr::null()) }, 0.0);
/// ```
///
/// # Safety
/// As [`ld_global_nc_f32_or`].
#[inline(always)]
pub unsafe fn ld_global_nc_f32_if(pred: bool, p: *const f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: the caller's contract; the load happens only under `pred`.
        unsafe {
            asm!(
                "{{ .reg .pred p; setp.ne.u32 p, {c}, 0; mov.b32 {r}, 0; @p ld.global.nc.f32 {r}, [{a}]; }}",
                r = out(reg32) r, c = in(reg32) pred as u32, a = in(reg64) p as u64,
                options(pure, readonly, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if pred { unsafe { *p } } else { 0.0 }
    }
}
