//! CUTLASS's `FastDivmod` (`include/cutlass/fast_math.h`): a run-time divisor that carries its
//! multiply-shift, so `n / d` and `n % d` cost a `mul.hi`, a shift and a multiply-add where a
//! division by a run-time value is a chain of about twenty instructions (`I2F`, `MUFU.RCP`,
//! `F2I` and corrections). The host builds it once per launch ([`FastDivmod::new`]: one 64-bit
//! division) and passes it in a kernel's parameters.
//!
//! It is a dynamic integer of the typed layer: a shape mode may be a `FastDivmod`, and CuTe's
//! [`idx2crd`](crate::cute::layout::idx2crd) of an `i32` index in such a shape divides by
//! multiply-shifts — a persistent tile scheduler's linear tile index to its coordinates, as
//! CUTLASS's `PersistentTileSchedulerSm90` does with its `FastDivmod`s.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let (m_blocks, heads, batch) = (7i32, 12i32, 3i32);
//! let fd = (FastDivmod::new(m_blocks).unwrap(), FastDivmod::new(heads).unwrap(), batch);
//! for i in 0..m_blocks * heads * batch {
//!     let fast: (i32, i32, i32) = idx2crd(i, fd);
//!     assert_eq!(fast, idx2crd(i, (m_blocks, heads, batch)));
//! }
//! assert_eq!(idx2crd(i32::MAX, FastDivmod::new(1000).unwrap()), i32::MAX);
//! ```

use super::int::{IntDiv, IntRem, Integral};
use super::tuple::{IntK, IntTuple};
use core::fmt;

/// A divisor `d ≥ 1` with its multiply-shift: for `0 ≤ n < 2³¹`, `n / d` is
/// `umulhi(n, multiplier) >> shift_right` (`d = 1`: `n`), CUTLASS's `FastDivmod`. As an
/// [`Integral`] its value is the divisor (a dynamic one).
///
/// 16 bytes, 8-aligned: in a kernel's parameters its words then never straddle the 8-byte
/// words LLVM copies them in. At 12 bytes and 4-aligned, LLVM kept a `.local` copy of a
/// tile scheduler's parameters in every hgemm entry as soon as one more check read them
/// (session 17, doc/hopper-gemm.md).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!((size_of::<FastDivmod>(), align_of::<FastDivmod>()), (16, 8));
/// let d = FastDivmod::new(48).unwrap();
/// assert_eq!(d.divmod(1000), (20, 40));
/// assert_eq!((int_div(1000i32, d), int_rem(1000i32, d)), (20, 40));
/// assert_eq!(d.to_string_cute().to_string(), "48");
/// assert!(FastDivmod::new(0).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct FastDivmod {
    divisor: i32,
    multiplier: u32,
    shift_right: u32,
}

impl FastDivmod {
    /// The multiply-shift of `divisor`, `None` below 1: `p = 31 + ⌈log2 d⌉`, the multiplier
    /// `⌈2^p / d⌉` and the shift `p − 32` (CUTLASS's `FastDivmod(int)`; 0 and 0 for `d = 1`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(FastDivmod::new(7).map(|d| d.divisor()), Some(7));
    /// assert_eq!(FastDivmod::new(-3), None);
    /// ```
    pub const fn new(divisor: i32) -> Option<FastDivmod> {
        if divisor < 1 {
            return None;
        }
        if divisor == 1 {
            return Some(FastDivmod {
                divisor,
                multiplier: 0,
                shift_right: 0,
            });
        }
        let d = divisor as u64;
        let log2 = 64 - (d - 1).leading_zeros() as u64; // ⌈log2 d⌉, 1..=31
        let p = 31 + log2;
        Some(FastDivmod {
            divisor,
            multiplier: (1u64 << p).div_ceil(d) as u32,
            shift_right: (p - 32) as u32,
        })
    }
    /// The divisor.
    ///
    /// ```
    /// assert_eq!(layout_types::cute::fast_divmod::FastDivmod::new(3).unwrap().divisor(), 3);
    /// ```
    #[inline(always)]
    pub const fn divisor(self) -> i32 {
        self.divisor
    }
    /// `n / d` for `0 ≤ n < 2³¹` (CUTLASS's `FastDivmod::div`).
    ///
    /// ```
    /// assert_eq!(layout_types::cute::fast_divmod::FastDivmod::new(10).unwrap().quotient(99), 9);
    /// ```
    #[inline(always)]
    pub fn quotient(self, n: i32) -> i32 {
        if self.divisor == 1 {
            n
        } else {
            let hi = ((n as u32 as u64 * self.multiplier as u64) >> 32) as u32;
            (hi >> self.shift_right) as i32
        }
    }
    /// `(n / d, n mod d)` for `0 ≤ n < 2³¹` (CUTLASS's `fast_divmod`).
    ///
    /// ```
    /// assert_eq!(layout_types::cute::fast_divmod::FastDivmod::new(10).unwrap().divmod(99), (9, 9));
    /// ```
    #[inline(always)]
    pub fn divmod(self, n: i32) -> (i32, i32) {
        let q = self.quotient(n);
        (q, n - q * self.divisor)
    }
}

/// Divisor 1.
impl Default for FastDivmod {
    fn default() -> Self {
        FastDivmod {
            divisor: 1,
            multiplier: 0,
            shift_right: 0,
        }
    }
}

impl fmt::Debug for FastDivmod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FastDivmod({})", self.divisor)
    }
}

impl Integral for FastDivmod {
    const IS_STATIC: bool = false;
    const STATIC_VALUE: i64 = 0;
    #[inline(always)]
    fn value(self) -> i64 {
        self.divisor as i64
    }
}

impl IntTuple for FastDivmod {
    type Kind = IntK;
    type IsStatic = typenum::B0;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::dy(0);
    // not a Rust integer: the linear path of `static_result` does not carry it
    type Plain = typenum::B0;
    /// Prints the divisor, as a dynamic integer prints.
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{}", self.divisor)
    }
}

impl IntDiv<FastDivmod> for i32 {
    type Output = i32;
    #[inline(always)]
    fn int_div(self, d: FastDivmod) -> i32 {
        d.quotient(self)
    }
}

impl IntRem<FastDivmod> for i32 {
    type Output = i32;
    #[inline(always)]
    fn int_rem(self, d: FastDivmod) -> i32 {
        d.divmod(self).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_the_division() {
        let divisors =
            (1..3000).chain([4095, 65_535, 65_536, 1 << 20, 1_000_003, 1 << 30, i32::MAX]);
        for d in divisors {
            let f = FastDivmod::new(d).unwrap();
            for n in [
                0,
                1,
                d - 1,
                d,
                d.saturating_add(1),
                12_345,
                1 << 30,
                i32::MAX - 1,
                i32::MAX,
            ] {
                assert_eq!(f.divmod(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn idx2crd_through_it_is_the_layouts() {
        use crate::cute::prelude::*;
        let (a, b, c) = (5i32, 3i32, 4i32);
        let l = make_layout_left((a, b, c));
        let fd = (FastDivmod::new(a).unwrap(), FastDivmod::new(b).unwrap(), c);
        for i in 0..l.size() {
            let want: (i32, i32, i32) = l.idx2crd(i);
            assert_eq!(idx2crd(i, fd), want);
        }
        assert!(fd.to_string_cute() == "(5,3,4)");
    }
}
