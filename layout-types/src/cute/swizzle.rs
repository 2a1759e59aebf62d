//! Swizzled layouts (CuTe's `ComposedLayout<Swizzle<B,M,S>, _0, Layout>`): a typed layout whose
//! index goes through a static swizzle (`i ^ ((i & yyy_mask) >> S)`), e.g. for bank-conflict-free
//! shared-memory tiles. Tensors and TiledCopy partitions take them like plain layouts.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::value::swizzle::Swizzle;
//! let s = make_composed_layout(Swizzle::<3, 0, 3>, layout!((_8, _8):(_8, _1)));
//! assert_eq!(s.to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
//! assert_eq!(s.crd2idx((1i32, 1i32)), 8);            // row 1, column 1 ^ 1 = 0
//! ```

use super::int::*;
use super::layout::*;
use super::tuple::*;
use crate::value::swizzle::{DynSwizzle, StaticSwizzle};
use core::fmt;

/// A layout composed with a static swizzle: `index(c) = swizzle(layout(c))` (CuTe's
/// `ComposedLayout<Swizzle<B,M,S>, O, Layout>`). The middle `O` is the offset `_0` (what
/// [`make_composed_layout`] builds) or CuTe's `smem_ptr_flag_bits<B>` ([`SmemPtrFlag`], the GMMA
/// layout atoms of [`super::atom::gmma`]); both are offset 0 and change only how the layout prints.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Swizzled<Sw, L, O = C<typenum::Z0>> {
    /// The swizzle.
    pub sw: Sw,
    /// The layout.
    pub layout: L,
    /// The middle of the composition (`_0` or a [`SmemPtrFlag`]).
    pub offset: O,
}

/// The middle of a [`Swizzled`] composition: offset 0, printed as CuTe prints it.
pub trait SwizzleOffset: Copy + Default + 'static {
    /// Writes CuTe's text for it (`_0`, `smem_ptr[16b](unset)`).
    fn fmt_offset(f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The element width of a shared-memory pointer flag (`None` for `_0`).
    const FLAG_BITS: Option<i64>;
}
impl SwizzleOffset for C<typenum::Z0> {
    fn fmt_offset(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_0")
    }
    const FLAG_BITS: Option<i64> = None;
}

/// CuTe's `smem_ptr_flag_bits<B>`: the swizzle acts on a shared-memory pointer to `B`-bit elements
/// (`B` a typenum integer); printed `smem_ptr[Bb](unset)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::swizzle::SmemPtrFlag;
/// use layout_types::value::swizzle::Swizzle;
/// let s = make_composed_layout(Swizzle::<2, 4, 3>, layout!((_8, _32):(_32, _1)))
///     .with_offset(SmemPtrFlag::<typenum::P16>::default());
/// assert_eq!(s.to_string(), "Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_32):(_32,_1)");
/// ```
pub struct SmemPtrFlag<B>(core::marker::PhantomData<B>);
impl<B> Clone for SmemPtrFlag<B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B> Copy for SmemPtrFlag<B> {}
impl<B> Default for SmemPtrFlag<B> {
    fn default() -> Self {
        SmemPtrFlag(core::marker::PhantomData)
    }
}
impl<B> PartialEq for SmemPtrFlag<B> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<B> Eq for SmemPtrFlag<B> {}
impl<B: typenum::Integer + 'static> SwizzleOffset for SmemPtrFlag<B> {
    fn fmt_offset(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "smem_ptr[{}b](unset)", B::I64)
    }
    const FLAG_BITS: Option<i64> = Some(B::I64);
}

impl<Sw, L, O> Swizzled<Sw, L, O> {
    /// The same swizzle and layout with another middle (`_0` or a [`SmemPtrFlag`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::Layout_K_SW128_Atom;
    /// let a = Layout_K_SW128_Atom::<u16>::new();
    /// assert_eq!(a.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
    /// let b = a.with_offset(_0);
    /// assert_eq!(b.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    /// assert_eq!(b.crd2idx((2i32, 0i32)), a.crd2idx((2i32, 0i32)));       // the same function
    /// ```
    #[inline(always)]
    pub fn with_offset<O2: SwizzleOffset>(self, offset: O2) -> Swizzled<Sw, L, O2> {
        Swizzled {
            sw: self.sw,
            layout: self.layout,
            offset,
        }
    }
}
impl<Sw, L, O> Swizzled<Sw, L, O> {
    /// The same swizzle and middle over another layout, e.g. a divided or partitioned form of
    /// this one (`smem.with_layout(zipped_divide(smem.layout, tile))`): the swizzle acts on the
    /// offsets the new layout computes.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64), LayoutLeft);
    /// let part = smem.with_layout(zipped_divide(smem.layout, (_64, _16)));
    /// assert_eq!(part.to_string(),
    ///     "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_16),(_2,_4)):((_64,_1),(_4096,_16))");
    /// ```
    #[inline(always)]
    pub fn with_layout<L2>(self, layout: L2) -> Swizzled<Sw, L2, O> {
        Swizzled {
            sw: self.sw,
            layout,
            offset: self.offset,
        }
    }
}
impl<Sw: Default, L: Default, O: Default> Swizzled<Sw, L, O> {
    /// The static swizzled layout of this type (every leaf static), e.g. a GMMA layout atom:
    /// `Layout_K_SW128_Atom::<u16>::new()`.
    ///
    /// ```
    /// use layout_types::cute::atom::gmma::*;
    /// assert_eq!(Layout_MN_SW32_Atom::<f32>::new().to_string(),
    ///            "Sw<1,4,3> o smem_ptr[32b](unset) o (_8,_8):(_1,_8)");
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        Self::default()
    }
}

/// `make_composed_layout(swizzle, _0, layout)`: a swizzled layout.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::value::swizzle::Swizzle;
/// let s = make_composed_layout(Swizzle::<3, 2, 6>, make_layout_left((_32, _32)));
/// assert_eq!(s.crd2idx((4i32, 1i32)), 36 ^ 0);
/// assert_eq!(s.crd2idx((0i32, 8i32)), 256 ^ 4);        // bit 8 lands on bit 2
/// ```
#[inline(always)]
pub fn make_composed_layout<Sw: StaticSwizzle, L>(sw: Sw, layout: L) -> Swizzled<Sw, L> {
    Swizzled {
        sw,
        layout,
        offset: C::new(),
    }
}

/// A swizzle applied to a typed index: dynamic in, same type out (a static index gives an `i64`).
pub trait SwizzleIndex {
    /// The swizzled index's type.
    type Output: Copy;
    /// The swizzled index.
    fn swizzle<Sw: StaticSwizzle>(self) -> Self::Output;
    /// `swizzle(self + c)` for a non-negative `self` and a non-negative constant `c` (a value's
    /// offset in a thread's partition): the swizzle reads and flips only the bits below its
    /// period `2^(M + B + |S|)`, so the part of `c` that is a multiple of the period is added
    /// after it, `sw(t + c) = sw(t + c mod P) + (c − c mod P)`: the values whose offsets differ
    /// by multiples of the period (copies sharing one swizzle phase) share one swizzled index
    /// and differ by constants.
    fn swizzle_plus<Sw: StaticSwizzle>(self, c: Self) -> Self::Output;
}
/// The bits below a swizzle's period `2^(M + B + |S|)`, the only ones it reads and flips.
pub(crate) const fn swizzle_period_mask(sw: DynSwizzle) -> i64 {
    let e = sw.base + sw.bits + sw.shift.unsigned_abs();
    if e >= 63 { i64::MAX } else { (1 << e) - 1 }
}
impl<D: DynInt> SwizzleIndex for D {
    type Output = D;
    #[inline(always)]
    fn swizzle<Sw: StaticSwizzle>(self) -> D {
        D::from_i64(Sw::SW.apply(self.value()))
    }
    #[inline(always)]
    fn swizzle_plus<Sw: StaticSwizzle>(self, c: D) -> D {
        let low = const { swizzle_period_mask(Sw::SW) };
        let (t, c) = (self.value(), c.value());
        D::from_i64(Sw::SW.apply(t + (c & low)) + (c & !low))
    }
}
impl<T: typenum::Integer + 'static> SwizzleIndex for C<T> {
    type Output = i64;
    #[inline(always)]
    fn swizzle<Sw: StaticSwizzle>(self) -> i64 {
        Sw::SW.apply(T::I64)
    }
    #[inline(always)]
    fn swizzle_plus<Sw: StaticSwizzle>(self, _: Self) -> i64 {
        Sw::SW.apply(2 * T::I64)
    }
}

impl<Sw: StaticSwizzle, S: IntTuple, D: IntTuple, O: SwizzleOffset> Swizzled<Sw, Layout<S, D>, O> {
    /// `layout(coord)` through the swizzle.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::value::swizzle::Swizzle;
    /// let s = make_composed_layout(Swizzle::<3, 4, 3>, layout!((_8, _64):(_64, _1)));
    /// assert_eq!(s.crd2idx((1i32, 0i32)), 64);               // bits 7..9 clear: unchanged
    /// assert_eq!(s.crd2idx((2i32, 0i32)), 128 ^ 16);         // bit 7 flips bit 4
    /// assert_eq!(s.crd2idx((3i32, 8i32)), 200 ^ 16);
    /// assert_eq!(s.crd2idx((_7, _0)), 448 ^ 48);             // a static coordinate gives an i64
    /// ```
    #[inline(always)]
    pub fn crd2idx<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> <Cd::Output as SwizzleIndex>::Output
    where
        Cd::Output: SwizzleIndex,
    {
        self.layout.crd2idx(c).swizzle::<Sw>()
    }
}

/// The swizzle a tensor over `Swizzled<Sw, L, O>` applies to its layout's ELEMENT offsets
/// (a [`StaticSwizzle`], a compile-time constant).
///
/// - Middle `_0`: `Sw` itself (the layout's function is the element placement).
/// - Middle [`SmemPtrFlag<B>`] (the GMMA atoms): CuTe's tensor over
///   `ComposedLayout<Sw, smem_ptr_flag_bits<B>, L>` is a `swizzle_ptr` whose address is
///   `Sw(byte address)` over `L`: the swizzle acts on BYTES. For a base aligned to the swizzle's
///   period that is `upcast<sizeof(T)>(Sw) = Sw<B, M - log2(sizeof(T)), S>` on element offsets
///   ([`DynSwizzle::in_elements`]); `M < log2(sizeof(T))` is a compile error naming CuTe's
///   condition.
///
/// ```
/// use layout_types::cute::swizzle::{TensorSwizzle, SmemPtrFlag};
/// use layout_types::cute::typenum::{P16, Z0};
/// use layout_types::cute::int::C;
/// use layout_types::value::swizzle::{StaticSwizzle, Swizzle};
/// type Sw = Swizzle<3, 4, 3>;
/// assert_eq!(TensorSwizzle::<Sw, SmemPtrFlag<P16>>::SW.to_string(), "Sw<3,3,3>"); // bytes -> u16
/// assert_eq!(TensorSwizzle::<Sw, C<Z0>>::SW.to_string(), "Sw<3,4,3>");             // `_0`: as is
/// ```
pub struct TensorSwizzle<Sw, O>(core::marker::PhantomData<(Sw, O)>);
impl<Sw, O> Clone for TensorSwizzle<Sw, O> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Sw, O> Copy for TensorSwizzle<Sw, O> {}
impl<Sw, O> Default for TensorSwizzle<Sw, O> {
    fn default() -> Self {
        TensorSwizzle(core::marker::PhantomData)
    }
}
impl<Sw: StaticSwizzle, O: SwizzleOffset> StaticSwizzle for TensorSwizzle<Sw, O> {
    const SW: DynSwizzle = match O::FLAG_BITS {
        None => Sw::SW,
        Some(bits) => match Sw::SW.in_elements(bits) {
            Ok(s) => s,
            Err(e) => e.panic(),
        },
    };
}

impl<Sw: StaticSwizzle + fmt::Display, S: IntTuple, D: IntTuple, O: SwizzleOffset> fmt::Display
    for Swizzled<Sw, Layout<S, D>, O>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o ", self.sw)?;
        O::fmt_offset(f)?;
        write!(f, " o {}", self.layout)
    }
}
impl<Sw: StaticSwizzle + fmt::Display, S: IntTuple, D: IntTuple, O: SwizzleOffset> fmt::Debug
    for Swizzled<Sw, Layout<S, D>, O>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
