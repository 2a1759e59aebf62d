//! Swizzles: CuTe's `Swizzle<BBits, MBase, SShift>`, a bijection on offsets that XORs `BBits` bits
//! taken at `MBase + SShift` into the bits at `MBase` (`ZZZ ^= YYY`), and its composition with a
//! layout (CuTe's `ComposedLayout<Swizzle, _0, Layout>`), used to lay out shared memory without
//! bank conflicts.
//!
//! ```
//! use layout_types::text::parse::parse_layout;
//! use layout_types::value::swizzle::{ComposedLayout, StaticSwizzle, Swizzle};
//! type Sw = Swizzle<3, 2, 6>;
//! assert_eq!(Sw::default().to_string(), "Sw<3,2,6>");
//! assert_eq!(Sw::apply(0b1_0100_0000), 0b1_0100_0100); // bits 8..11 (here 0b001) xor into bits 2..5
//! let s = ComposedLayout::new(Sw::SW, parse_layout("(_64,_64):(_64,_1)")?);
//! assert_eq!(s.to_string(), "Sw<3,2,6> o _0 o (_64,_64):(_64,_1)");
//! # Ok::<(), layout_types::Error>(())
//! ```

use crate::Error;
use core::fmt;

/// A swizzle as a value (`Sw<B,M,S>`); see [`Swizzle`] for the static, zero-sized form.
///
/// ```
/// use layout_types::value::swizzle::DynSwizzle;
/// let s = DynSwizzle::new(2, 0, 3).unwrap();
/// assert_eq!(s.to_string(), "Sw<2,0,3>");
/// assert_eq!(s.apply(0b01_000), 0b01_001);
/// assert!(DynSwizzle::new(3, 0, 2).is_err()); // |SShift| must be >= BBits
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynSwizzle {
    /// Number of bits in the mask (`BBits`).
    pub bits: u32,
    /// Number of least-significant bits kept constant (`MBase`).
    pub base: u32,
    /// Distance to shift the YYY mask (`SShift`; negative shifts left).
    pub shift: i32,
}

impl DynSwizzle {
    /// `Swizzle<B,M,S>{}` with CuTe's condition `abs(SShift) >= BBits`.
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// let sw128 = DynSwizzle::new(3, 4, 3).unwrap(); // the 128-byte swizzle
    /// assert_eq!((sw128.bits, sw128.base, sw128.shift), (3, 4, 3));
    /// assert!(DynSwizzle::new(2, 0, -3).is_ok()); // a negative shift moves bits up
    /// assert_eq!(DynSwizzle::new(3, 0, 2).unwrap_err().vals, [2, 3]); // (SShift, BBits)
    /// assert!(DynSwizzle::new(3, 30, 30).is_err()); // M + B + |S| = 63 > 62 bits
    /// ```
    pub const fn new(bits: u32, base: u32, shift: i32) -> Result<DynSwizzle, Error> {
        if shift.unsigned_abs() < bits {
            return Err(Error::with2(
                "Swizzle: abs(SShift) must be more than BBits (SShift, BBits)",
                shift as i64,
                bits as i64,
            ));
        }
        if base as i64 + bits as i64 + shift.unsigned_abs() as i64 > 62 {
            return Err(Error::new(
                "Swizzle: MBase + BBits + |SShift| exceeds 62 bits",
            ));
        }
        Ok(DynSwizzle { bits, base, shift })
    }
    /// The identity swizzle `Sw<0,4,3>` (CuTe's default for non-swizzled smem).
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// let id = DynSwizzle::identity();
    /// assert_eq!(id.to_string(), "Sw<0,4,3>");
    /// assert_eq!((id.yyy_mask(), id.apply(0x3ff)), (0, 0x3ff)); // no bits read: offsets unchanged
    /// ```
    pub const fn identity() -> DynSwizzle {
        DynSwizzle {
            bits: 0,
            base: 4,
            shift: 3,
        }
    }
    /// `yyy_msk`: the bits read.
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// assert_eq!(DynSwizzle::new(3, 4, 3).unwrap().yyy_mask(), 0b111_0000000); // bits 7..10
    /// assert_eq!(DynSwizzle::new(2, 0, -3).unwrap().yyy_mask(), 0b11);        // S < 0: bits 0..2
    /// ```
    pub const fn yyy_mask(&self) -> i64 {
        let m = (1i64 << self.bits) - 1;
        let s = if self.shift > 0 { self.shift as u32 } else { 0 };
        m << (self.base + s)
    }
    /// `zzz_msk`: the bits flipped.
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// assert_eq!(DynSwizzle::new(3, 4, 3).unwrap().zzz_mask(), 0b111_0000); // bits 4..7
    /// assert_eq!(DynSwizzle::new(2, 0, -3).unwrap().zzz_mask(), 0b11_000);  // S < 0: bits 3..5
    /// ```
    pub const fn zzz_mask(&self) -> i64 {
        let m = (1i64 << self.bits) - 1;
        let s = if self.shift < 0 {
            (-self.shift) as u32
        } else {
            0
        };
        m << (self.base + s)
    }
    /// `offset ^ shiftr(offset & yyy_msk, SShift)`.
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// let sw128 = DynSwizzle::new(3, 4, 3).unwrap();
    /// // byte 32 of row 5 (128-byte rows): 16-byte unit 2 ^ 5 = 7
    /// assert_eq!(sw128.apply(5 * 128 + 2 * 16), 5 * 128 + 7 * 16);
    /// assert_eq!(DynSwizzle::new(2, 0, -3).unwrap().apply(0b01), 0b01_001); // bits 0..2 into 3..5
    /// ```
    #[inline(always)]
    pub const fn apply(&self, offset: i64) -> i64 {
        let y = offset & self.yyy_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << (-self.shift)
        };
        offset ^ moved
    }
}

impl DynSwizzle {
    /// CuTe's `upcast<N>(Swizzle<B,M,S>)` for `N = bits / 8` bytes per element: the byte swizzle
    /// in element units, `Sw<B, M - log2(N), S>`. A tensor over a layout whose middle is
    /// `smem_ptr_flag_bits<bits>` places element `c` at `Sw(L(c) · N) / N` bytes from a base
    /// aligned to the swizzle's period (CuTe's `swizzle_ptr`); that is `in_elements(bits)`
    /// applied to `L(c)` exactly when `M >= log2(N)` (CuTe's `NewM >= 0`; otherwise CuTe's
    /// upcast drops bits, and the element placement is not a swizzle of element offsets).
    ///
    /// ```
    /// use layout_types::value::swizzle::DynSwizzle;
    /// let sw128 = DynSwizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw128.in_elements(16).unwrap().to_string(), "Sw<3,3,3>");
    /// assert_eq!(sw128.in_elements(8).unwrap(), sw128);
    /// assert!(DynSwizzle::new(3, 1, 3).unwrap().in_elements(32).is_err()); // M = 1 < log2(4)
    /// assert!(sw128.in_elements(24).is_err());                              // 3 bytes
    /// ```
    pub const fn in_elements(&self, bits: i64) -> Result<DynSwizzle, Error> {
        if bits < 8 || bits % 8 != 0 || (bits / 8) & (bits / 8 - 1) != 0 {
            return Err(Error::with1(
                "smem_ptr_flag_bits<{}>: upcast<sizeof(T)>(Swizzle) needs whole bytes per element, a power of two (N must be a power of two)",
                bits,
            ));
        }
        let log2_n = (bits / 8).trailing_zeros();
        if self.base < log2_n {
            return Err(Error::with2(
                "smem_ptr_flag_bits<B>: upcast<sizeof(T)>(Swizzle<B,M,S>) needs M >= log2(sizeof(T)) (NewM >= 0), but M = {} and log2(sizeof(T)) = {}: the byte swizzle would move parts of an element",
                self.base as i64,
                log2_n as i64,
            ));
        }
        Ok(DynSwizzle {
            bits: self.bits,
            base: self.base - log2_n,
            shift: self.shift,
        })
    }
}

impl fmt::Display for DynSwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// CuTe's static `Swizzle<BBits, MBase, SShift>`: zero-sized, `apply` folds at compile time.
/// An invalid combination is a compile error naming the condition:
///
/// ```compile_fail
/// use layout_types::value::swizzle::Swizzle;
/// let _ = Swizzle::<3, 0, 2>::apply(5); // abs(SShift) must be more than BBits
/// ```
///
/// ```
/// use layout_types::value::swizzle::Swizzle;
/// assert_eq!(Swizzle::<1, 0, 1>::apply(0b10), 0b11);
/// assert_eq!(Swizzle::<3, 2, 6>::VALUE.zzz_mask(), 0b111_00);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Swizzle<const B: u32, const M: u32, const S: i32>;

impl<const B: u32, const M: u32, const S: i32> Swizzle<B, M, S> {
    /// The value (checked at compile time).
    pub const VALUE: DynSwizzle = match DynSwizzle::new(B, M, S) {
        Ok(s) => s,
        Err(e) => e.panic(),
    };
    /// `Swizzle<B,M,S>::apply(offset)`.
    ///
    /// ```
    /// use layout_types::value::swizzle::Swizzle;
    /// // row 1 of 128-byte rows: the 16-byte unit 1 swaps with unit 0 (a swizzle is an involution)
    /// assert_eq!(Swizzle::<3, 4, 3>::apply(128 + 16), 128);
    /// assert_eq!(Swizzle::<3, 4, 3>::apply(128), 128 + 16);
    /// ```
    #[inline(always)]
    pub const fn apply(offset: i64) -> i64 {
        Self::VALUE.apply(offset)
    }
}

impl<const B: u32, const M: u32, const S: i32> fmt::Display for Swizzle<B, M, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Self::VALUE, f)
    }
}
impl<const B: u32, const M: u32, const S: i32> fmt::Debug for Swizzle<B, M, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Self::VALUE, f)
    }
}

/// Static swizzles (for the typed layer's swizzled layouts and [`crate::check::SwizzledLayout`]).
pub trait StaticSwizzle: Copy + Default {
    /// The value.
    const SW: DynSwizzle;
}
impl<const B: u32, const M: u32, const S: i32> StaticSwizzle for Swizzle<B, M, S> {
    const SW: DynSwizzle = Self::VALUE;
}

/// The middle of a [`ComposedLayout`]: an integer offset, or CuTe's `smem_ptr_flag_bits<B>`
/// (the swizzle acts on a shared-memory pointer to `B`-bit elements: GMMA's layout atoms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComposedOffset {
    /// An integer offset (printed `_0` when zero).
    Int(i64),
    /// `smem_ptr_flag_bits<B>` (printed `smem_ptr[Bb](unset)`).
    SmemPtr(i64),
}

impl fmt::Display for ComposedOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ComposedOffset::Int(0) => f.write_str("_0"),
            ComposedOffset::Int(o) => write!(f, "{o}"),
            ComposedOffset::SmemPtr(b) => write!(f, "smem_ptr[{b}b](unset)"),
        }
    }
}

/// A composed layout `swizzle ∘ offset ∘ layout` as a value (CuTe's `ComposedLayout<Swizzle, O,
/// Layout>`): `call(c) = swizzle(offset + layout(c))`. Printed (and parsed) as CuTe prints it.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::swizzle::{ComposedLayout, DynSwizzle}};
/// let l: DynLayout = "(_8,_8):(_8,_1)".parse().unwrap();
/// let c = ComposedLayout::new(DynSwizzle::new(3, 0, 3).unwrap(), l);
/// assert_eq!(c.to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
/// assert_eq!(c.call(9), 8 + (1 ^ 1)); // row 1, col 1 -> column 1 ^ 1 = 0
/// let g: ComposedLayout = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)".parse().unwrap();
/// assert_eq!(g.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComposedLayout {
    /// The outer function (`layout_a`).
    pub swizzle: DynSwizzle,
    /// The offset between them.
    pub offset: ComposedOffset,
    /// The inner layout (`layout_b`).
    pub layout: crate::value::layout::DynLayout,
}

impl ComposedLayout {
    /// `composition(swizzle, layout)` (offset `_0`).
    ///
    /// ```
    /// use layout_types::value::swizzle::{ComposedLayout, ComposedOffset, DynSwizzle};
    /// let c = ComposedLayout::new(DynSwizzle::new(2, 0, 3).unwrap(), "(_4,_8):(_8,_1)".parse().unwrap());
    /// assert_eq!(c.offset, ComposedOffset::Int(0));
    /// assert_eq!(c.to_string(), "Sw<2,0,3> o _0 o (_4,_8):(_8,_1)");
    /// ```
    pub const fn new(
        swizzle: DynSwizzle,
        layout: crate::value::layout::DynLayout,
    ) -> ComposedLayout {
        ComposedLayout {
            swizzle,
            offset: ComposedOffset::Int(0),
            layout,
        }
    }
    /// The swizzled offset of a 1-D coordinate (a shared-memory pointer flag counts as offset 0:
    /// the result is in elements from the start of the buffer).
    ///
    /// ```
    /// use layout_types::value::swizzle::{ComposedLayout, DynSwizzle};
    /// let c = ComposedLayout::new(DynSwizzle::new(2, 0, 3).unwrap(), "(_4,_8):(_8,_1)".parse().unwrap());
    /// // (row 2, column 1) is 1-D coordinate 2 + 4·1, offset 17: row 2 xors the column, 1 ^ 2 = 3
    /// assert_eq!(c.call(2 + 4), 2 * 8 + 3);
    /// assert_eq!(c.call(1), 8 + 1);   // row 1, column 0 ^ 1 = 1
    /// ```
    pub const fn call(&self, i: i64) -> i64 {
        let o = match self.offset {
            ComposedOffset::Int(o) => o,
            ComposedOffset::SmemPtr(_) => 0,
        };
        self.swizzle.apply(o + self.layout.call(i))
    }
    /// Where a tensor over this layout places the element of 1-D coordinate `i`, in elements
    /// from the tensor's base. With an integer offset it is [`Self::call`]; with
    /// `smem_ptr_flag_bits<B>` the swizzle acts on the byte offset (CuTe's `swizzle_ptr`), so it
    /// is `Sw(L(i) · B/8) / (B/8)` — the base must be aligned to the swizzle's period
    /// (`2^(M + B + max(S, 0))` bytes, 1024 for `Sw<3,4,3>`). Fails as
    /// [`DynSwizzle::in_elements`] does.
    ///
    /// ```
    /// use layout_types::value::swizzle::ComposedLayout;
    /// let g: ComposedLayout = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)".parse().unwrap();
    /// assert_eq!(g.call(1 + 8 * 8), 72);                  // the layout function: element units
    /// assert_eq!(g.element_offset(1 + 8 * 8), Ok(64));    // the tensor: (1, 8) is byte 144 -> 128
    /// ```
    pub const fn element_offset(&self, i: i64) -> Result<i64, Error> {
        match self.offset {
            ComposedOffset::Int(o) => Ok(self.swizzle.apply(o + self.layout.call(i))),
            ComposedOffset::SmemPtr(bits) => match self.swizzle.in_elements(bits) {
                Ok(sw) => Ok(sw.apply(self.layout.call(i))),
                Err(e) => Err(e),
            },
        }
    }
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
    }
}

impl core::str::FromStr for ComposedLayout {
    type Err = Error;
    /// Parses `Sw<B,M,S> o OFFSET o LAYOUT` with `OFFSET` one of `_0`, an integer or
    /// `smem_ptr[Nb](unset)`.
    ///
    /// ```
    /// use layout_types::value::swizzle::ComposedLayout;
    /// assert!("Sw<2,4,3> o _0 o (_8,_32):(_32,_1)".parse::<ComposedLayout>().is_ok());
    /// assert!("Sw<2,4> o _0 o (_8,_32):(_32,_1)".parse::<ComposedLayout>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Self, Error> {
        let bad = Error::new(
            "expected a composed layout `Sw<B,M,S> o OFFSET o LAYOUT` (OFFSET: _0, an integer or smem_ptr[Nb](unset))",
        );
        let t = text.trim();
        let rest = t.strip_prefix("Sw<").ok_or(bad)?;
        let (params, rest) = rest.split_once('>').ok_or(bad)?;
        let mut it = params.split(',').map(|p| p.trim().parse::<i64>());
        let (b, m, sh) = match (it.next(), it.next(), it.next(), it.next()) {
            (Some(Ok(b)), Some(Ok(m)), Some(Ok(sh)), None) => (b, m, sh),
            _ => return Err(bad),
        };
        if !(0..=31).contains(&b) || !(0..=31).contains(&m) || !(-31..=31).contains(&sh) {
            return Err(bad);
        }
        let swizzle = DynSwizzle::new(b as u32, m as u32, sh as i32)?;
        let rest = rest.trim_start().strip_prefix('o').ok_or(bad)?.trim_start();
        let (off, rest) = rest.split_once(" o ").ok_or(bad)?;
        let off = off.trim();
        let offset = if let Some(bits) = off
            .strip_prefix("smem_ptr[")
            .and_then(|r| r.strip_suffix("b](unset)"))
        {
            ComposedOffset::SmemPtr(bits.parse().map_err(|_| bad)?)
        } else if off == "_0" {
            ComposedOffset::Int(0)
        } else {
            ComposedOffset::Int(off.parse().map_err(|_| bad)?)
        };
        let layout = crate::text::parse::parse_layout(rest)?;
        Ok(ComposedLayout {
            swizzle,
            offset,
            layout,
        })
    }
}
