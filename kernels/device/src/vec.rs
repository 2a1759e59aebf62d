//! 16-byte vector types and 128-bit loads/stores.
//!
//! `[f32; 4]` has alignment 4, so LLVM splits its accesses into 4 scalar ones;
//! the `#[repr(align(16))]` types here let the wrappers emit one
//! `ld.global.v4.f32` / `st.global.v4.f32` / `ld.shared.v4.f32` / `st.shared.v4.f32`.

use core::arch::asm;

/// Four `f32` in 16 bytes, 16-byte aligned (`float4`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Float4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// Four `u32` in 16 bytes, 16-byte aligned (`uint4`), e.g. 8 packed halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct U32x4(pub [u32; 4]);

/// `ld.global.v4.f32`: one 128-bit load from global memory.
///
/// # Safety
/// `p` is a generic pointer into global memory, 16-byte aligned, valid for 16 bytes.
#[inline(always)]
pub unsafe fn ld_global_v4_f32(p: *const Float4) -> Float4 {
    let (x, y, z, w): (f32, f32, f32, f32);
    unsafe {
        asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.v4.f32 {{{x}, {y}, {z}, {w}}}, [g]; }}",
            p = in(reg64) p,
            x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
            options(readonly, nostack, preserves_flags),
        )
    };
    Float4 { x, y, z, w }
}

/// `ld.global.nc.v4.f32`: 128-bit load through the read-only (non-coherent) path
/// (`__ldg`). Only for data no thread writes during the kernel.
///
/// # Safety
/// As [`ld_global_v4_f32`], and the memory is read-only for the kernel's lifetime.
#[inline(always)]
pub unsafe fn ld_global_nc_v4_f32(p: *const Float4) -> Float4 {
    let (x, y, z, w): (f32, f32, f32, f32);
    unsafe {
        asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; ld.global.nc.v4.f32 {{{x}, {y}, {z}, {w}}}, [g]; }}",
            p = in(reg64) p,
            x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
            options(readonly, nostack, preserves_flags),
        )
    };
    Float4 { x, y, z, w }
}

/// `st.global.v4.f32`: one 128-bit store to global memory.
///
/// # Safety
/// `p` is a generic pointer into global memory, 16-byte aligned, valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_global_v4_f32(p: *mut Float4, v: Float4) {
    unsafe {
        asm!(
            "{{ .reg .u64 g; cvta.to.global.u64 g, {p}; st.global.v4.f32 [g], {{{x}, {y}, {z}, {w}}}; }}",
            p = in(reg64) p,
            x = in(reg32) v.x, y = in(reg32) v.y, z = in(reg32) v.z, w = in(reg32) v.w,
            options(nostack, preserves_flags),
        )
    }
}

/// `ld.shared.v4.f32` at a `.shared` address (see [`super::shared::to_shared_addr`]).
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn ld_shared_v4_f32(addr: u32) -> Float4 {
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

/// `st.shared.v4.f32` at a `.shared` address.
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_shared_v4_f32(addr: u32, v: Float4) {
    unsafe {
        asm!(
            "st.shared.v4.f32 [{a}], {{{x}, {y}, {z}, {w}}};",
            a = in(reg32) addr,
            x = in(reg32) v.x, y = in(reg32) v.y, z = in(reg32) v.z, w = in(reg32) v.w,
            options(nostack, preserves_flags),
        )
    }
}

/// `ld.shared.v4.b32` of four raw 32-bit words.
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn ld_shared_v4_u32(addr: u32) -> U32x4 {
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

/// `st.shared.v4.b32` of four raw 32-bit words.
///
/// # Safety
/// `addr` is a 16-byte aligned shared address valid for 16 bytes.
#[inline(always)]
pub unsafe fn st_shared_v4_u32(addr: u32, v: U32x4) {
    unsafe {
        asm!(
            "st.shared.v4.b32 [{a}], {{{x}, {y}, {z}, {w}}};",
            a = in(reg32) addr,
            x = in(reg32) v.0[0], y = in(reg32) v.0[1], z = in(reg32) v.0[2], w = in(reg32) v.0[3],
            options(nostack, preserves_flags),
        )
    }
}
