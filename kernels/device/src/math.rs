//! Fast math instructions: `ex2.approx.ftz.f32` (CUDA's `exp2f` fast path, FlashAttention's
//! softmax), `lg2.approx.ftz.f32`, `max.f32` and `fma.rn.f32`.

/// `ex2.approx.ftz.f32`: `2^x` (relative error about 2^-22; subnormal results flush to zero;
/// `2^-inf = +0`). On the host (the emulator) `f32::exp2`.
///
/// ```
/// assert_eq!(device::math::ex2(3.0), 8.0);
/// assert_eq!(device::math::ex2(f32::NEG_INFINITY), 0.0);
/// ```
#[inline(always)]
pub fn ex2(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("ex2.approx.ftz.f32 {r}, {x};", r = out(reg32) r, x = in(reg32) x,
                 options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x.exp2()
    }
}

/// `max.f32`: the larger of `a` and `b` (the other one when one is NaN).
///
/// ```
/// assert_eq!(device::math::fmax(1.0, f32::NEG_INFINITY), 1.0);
/// ```
#[inline(always)]
pub fn fmax(a: f32, b: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("max.f32 {r}, {a}, {b};", r = out(reg32) r, a = in(reg32) a, b = in(reg32) b,
                 options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        a.max(b)
    }
}

/// `fma.rn.f32`: `a·b + c` rounded once (one `FFMA`; Rust's `a * b + c` is a `mul.rn` and an
/// `add.rn`, which ptxas may not fuse). On the host `f32::mul_add`.
///
/// ```
/// assert_eq!(device::math::fma(2.0, 3.0, -1.0), 5.0);
/// ```
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("fma.rn.f32 {r}, {a}, {b}, {c};", r = out(reg32) r, a = in(reg32) a,
                 b = in(reg32) b, c = in(reg32) c, options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        a.mul_add(b, c)
    }
}

/// `lg2.approx.ftz.f32`: `log2(x)` (`lg2(0) = -inf`). On the host `f32::log2`.
///
/// ```
/// assert_eq!(device::math::lg2(8.0), 3.0);
/// ```
#[inline(always)]
pub fn lg2(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("lg2.approx.ftz.f32 {r}, {x};", r = out(reg32) r, x = in(reg32) x,
                 options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x.log2()
    }
}
