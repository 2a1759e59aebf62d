//! Fast math instructions: `ex2.approx.ftz.f32` (CUDA's `exp2f` fast path, FlashAttention's
//! softmax), `lg2.approx.ftz.f32`, `max.f32`, `fma.rn.f32` and `prmt.b32`.

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

/// `fma.rn.f64`: `a·b + c` in `f64`, rounded once. On the host `f64::mul_add`.
///
/// ```
/// assert_eq!(device::math::fma_f64(2.0, 3.0, -1.0), 5.0);
/// ```
#[inline(always)]
pub fn fma_f64(a: f64, b: f64, c: f64) -> f64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f64;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("fma.rn.f64 {r}, {a}, {b}, {c};", r = out(reg64) r, a = in(reg64) a,
                 b = in(reg64) b, c = in(reg64) c, options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        a.mul_add(b, c)
    }
}

/// `rcp.approx.ftz.f32`: `1/x` to 1 ulp (`1/∞ = 0`; subnormals flush to zero). On the host
/// `1.0 / x`.
///
/// ```
/// assert_eq!(device::math::rcp_approx(4.0), 0.25);
/// ```
#[inline(always)]
pub fn rcp_approx(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("rcp.approx.ftz.f32 {r}, {x};", r = out(reg32) r, x = in(reg32) x,
                 options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        1.0 / x
    }
}

/// `tanh.approx.f32` (CUTLASS's `fast_tanh`, one `MUFU.TANH`): maximum relative error 2⁻¹¹,
/// `±∞ ↦ ±1`. On the host `f32::tanh`.
///
/// ```
/// assert_eq!(device::math::tanh_approx(0.0), 0.0);
/// ```
#[inline(always)]
pub fn tanh_approx(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: f32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("tanh.approx.f32 {r}, {x};", r = out(reg32) r, x = in(reg32) x,
                 options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x.tanh()
    }
}

/// `prmt.b32` (CUDA's `__byte_perm`): byte `i` of the result is byte `sel >> 4i & 7` of the 8
/// bytes `b:a` (`a` bytes 0-3, `b` bytes 4-7; selector nibbles 0-7: the sign-replicating mode
/// of nibbles 8-15 is not modelled on the host); the selector may be a run-time value, so one
/// instruction picks and packs halves chosen per thread.
///
/// ```
/// use device::math::prmt;
/// assert_eq!(prmt(0x3333_1111, 0x4444_2222, 0x5410), 0x2222_1111);
/// assert_eq!(prmt(0x3333_1111, 0x4444_2222, 0x7632), 0x4444_3333);
/// assert_eq!(prmt(0x3333_1111, 0x4444_2222, 0x1054), 0x1111_2222);
/// ```
#[inline(always)]
pub fn prmt(a: u32, b: u32, sel: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: a register operation.
        unsafe {
            core::arch::asm!("prmt.b32 {r}, {a}, {b}, {s};", r = out(reg32) r, a = in(reg32) a,
                 b = in(reg32) b, s = in(reg32) sel, options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let bytes = (u64::from(b) << 32) | u64::from(a);
        (0..4).fold(0, |r, i| {
            let s = (sel >> (4 * i)) & 7;
            r | (((bytes >> (8 * s)) & 0xff) as u32) << (8 * i)
        })
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
