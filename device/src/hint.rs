//! Hints to the optimizer (as `core::hint`): [`opaque`], a value it can neither see through nor
//! move.

/// `x` through an empty `asm` that is not `pure`: the optimizer neither sees through it nor
/// moves it, so what is derived from the result is computed where the call stands — not hoisted
/// out of a loop, where it would hold registers across the loop's body (a kernel's tile loop
/// around a mainloop that needs them all). The identity off the GPU.
///
/// ```
/// // per tile: the epilogue's addresses from `t`, computed here rather than once before the loop
/// let t = device::hint::opaque(5);
/// assert_eq!(t, 5);
/// ```
#[inline(always)]
pub fn opaque(x: i32) -> i32 {
    #[allow(unused_mut)]
    let mut y = x;
    // SAFETY: an empty template; the register is passed through unchanged.
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        core::arch::asm!("// opaque {0}", inout(reg32) y, options(nomem, nostack, preserves_flags))
    };
    y
}

/// [`opaque`] of an index in `0..N` (`N` a power of two), the range stated to the optimizer
/// after the `asm` (`assert_unchecked`): it knows the range again, so the index arithmetic
/// derived from it (CuTe's `idx2crd`, swizzles: divisions and remainders by powers of two)
/// takes its unsigned forms — shifts and masks — instead of the signed ones an opaque `i32` of
/// unknown sign needs (the rounding toward zero, sign extensions). No instruction of its own.
///
/// ```
/// // a thread's index in its warpgroup, per tile
/// // SAFETY: 77 < 128
/// let t = unsafe { device::hint::opaque_index::<128>(77) };
/// assert_eq!((t, t / 32, t % 32), (77, 2, 13));
/// ```
///
/// # Safety
/// `0 ≤ x < N`: the optimizer takes it as given (out of range is undefined behavior).
#[inline(always)]
pub unsafe fn opaque_index<const N: i32>(x: i32) -> i32 {
    const {
        assert!(
            N > 0 && N & (N - 1) == 0,
            "opaque_index: N is a power of two"
        )
    };
    let y = opaque(x);
    // SAFETY: the caller's `x` lies in 0..N, and `opaque` returns it unchanged
    unsafe { core::hint::assert_unchecked(0 <= y && y < N) };
    y
}
