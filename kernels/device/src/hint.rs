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
