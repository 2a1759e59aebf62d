//! Arithmetic tuples and basis strides (CuTe's `ArithmeticTuple` and `ScaledBasis`): the
//! strides of an identity layout are the unit vectors `E0 = (_1)`, `E1 = (_0,_1)`, ..., so that
//! `crd2idx(coord, identity layout)` *is* the coordinate. Tiling and partitioning an identity
//! tensor exactly like a data tensor then tells every element its coordinate, for predication
//! (`elem_less(coord, shape)`).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let id = layout!((_4, _8):(E0::new(), E1::new()));
//! let c = id.crd2idx((3i32, 5i32));
//! assert_eq!(c.to_string_cute(), "(3,5)");
//! assert!(elem_less(c, (4i32, 6i32)));
//! assert!(!elem_less(c, (4i32, 5i32)));
//! ```

use super::consts::{_0, _1};
use super::int::*;
use super::tuple::*;
use core::fmt;
use typenum::Z0;

/// An arithmetic tuple: a tuple of integers that adds element-wise (shorter tuples are padded
/// with `_0`) and scales by integers. Holds the list form `H` of its elements.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct ATup<H>(pub H);

impl<H: Default> ATup<H> {
    /// The value (for static elements).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(E1::new().to_string_cute(), "(_0,_1)");
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        ATup(H::default())
    }
}

/// Unit basis strides `E0 = (_1)`, `E1 = (_0,_1)`, `E2 = (_0,_0,_1)`.
pub type E0 = ATup<HCons<_1, HNil>>;
/// See [`E0`].
pub type E1 = ATup<HCons<_0, HCons<_1, HNil>>>;
/// See [`E0`].
pub type E2 = ATup<HCons<_0, HCons<_0, HCons<_1, HNil>>>>;

/// Printing of the elements of an [`ATup`].
pub trait FmtH {
    /// Writes the elements, comma-separated.
    fn fmt_h(&self, f: &mut dyn fmt::Write, first: bool) -> fmt::Result;
}
impl FmtH for HNil {
    fn fmt_h(&self, _: &mut dyn fmt::Write, _: bool) -> fmt::Result {
        Ok(())
    }
}
impl<A: IntTuple, T: FmtH> FmtH for HCons<A, T> {
    fn fmt_h(&self, f: &mut dyn fmt::Write, first: bool) -> fmt::Result {
        if !first {
            f.write_str(",")?;
        }
        self.0.fmt_cute(f)?;
        self.1.fmt_h(f, false)
    }
}
impl<H: FmtH + Copy + 'static> fmt::Debug for ATup<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_cute(f)
    }
}
impl<H: FmtH + Copy + 'static> IntTuple for ATup<H> {
    type Kind = IntK;
    type IsStatic = typenum::B0;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::dy(0);
    // an arithmetic tuple is not an integer: the linear path does not carry it (and the default
    // `from_recipe`, a static leaf's, is never instantiated for it)
    type Plain = typenum::B0;
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str("(")?;
        self.0.fmt_h(f, true)?;
        f.write_str(")")
    }
}

/// `c * (a0, a1, ...)` element-wise.
pub trait ScaleH<Cd> {
    /// The scaled elements.
    type Output: Copy + 'static;
    /// The scaled elements.
    fn scale(self, c: Cd) -> Self::Output;
}
impl<Cd> ScaleH<Cd> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn scale(self, _: Cd) -> HNil {
        HNil
    }
}
impl<Cd: IntMul<A> + Copy, A, T: ScaleH<Cd>> ScaleH<Cd> for HCons<A, T> {
    type Output = HCons<Prod<Cd, A>, T::Output>;
    #[inline(always)]
    fn scale(self, c: Cd) -> Self::Output {
        HCons(c.int_mul(self.0), self.1.scale(c))
    }
}
impl<Cd: Integral, H: ScaleH<Cd> + FmtH> IntMul<ATup<H>> for Cd
where
    H::Output: FmtH,
{
    type Output = ATup<H::Output>;
    #[inline(always)]
    fn int_mul(self, b: ATup<H>) -> Self::Output {
        ATup(b.0.scale(self))
    }
}

/// Element-wise sum of two element lists, the shorter padded with `_0`.
pub trait AddH<B> {
    /// The sum.
    type Output: Copy + 'static;
    /// The sum.
    fn add_h(self, b: B) -> Self::Output;
}
impl AddH<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn add_h(self, _: HNil) -> HNil {
        HNil
    }
}
impl<B: Copy + 'static, BT: Copy + 'static> AddH<HCons<B, BT>> for HNil {
    type Output = HCons<B, BT>;
    #[inline(always)]
    fn add_h(self, b: HCons<B, BT>) -> Self::Output {
        b
    }
}
impl<A: Copy + 'static, AT: Copy + 'static> AddH<HNil> for HCons<A, AT> {
    type Output = HCons<A, AT>;
    #[inline(always)]
    fn add_h(self, _: HNil) -> Self::Output {
        self
    }
}
impl<A: IntAdd<B>, AT: AddH<BT>, B, BT> AddH<HCons<B, BT>> for HCons<A, AT> {
    type Output = HCons<Sum<A, B>, AT::Output>;
    #[inline(always)]
    fn add_h(self, b: HCons<B, BT>) -> Self::Output {
        HCons(self.0.int_add(b.0), self.1.add_h(b.1))
    }
}
impl<A: AddH<B> + FmtH, B> IntAdd<ATup<B>> for ATup<A>
where
    A::Output: FmtH,
{
    type Output = ATup<A::Output>;
    #[inline(always)]
    fn int_add(self, b: ATup<B>) -> Self::Output {
        ATup(self.0.add_h(b.0))
    }
}
impl<H: FmtH + Copy + 'static> IntAdd<ATup<H>> for C<Z0> {
    type Output = ATup<H>;
    #[inline(always)]
    fn int_add(self, b: ATup<H>) -> ATup<H> {
        b
    }
}
impl<H: FmtH + Copy + 'static> IntAdd<C<Z0>> for ATup<H> {
    type Output = ATup<H>;
    #[inline(always)]
    fn int_add(self, _: C<Z0>) -> ATup<H> {
        self
    }
}

/// `elem_less(coord, shape)`: every element of the coordinate is below the shape's (CuTe's
/// predicate of identity-tensor elements). Missing trailing elements count as `0`.
pub trait ElemLess<S> {
    /// Whether the coordinate lies inside.
    fn elem_less(self, s: S) -> bool;
}
impl<H: LessH<S::H>, S: Tuple> ElemLess<S> for ATup<H> {
    #[inline(always)]
    fn elem_less(self, s: S) -> bool {
        self.0.less_h(s.into_h())
    }
}
/// [`ElemLess`] element by element.
pub trait LessH<S> {
    /// Whether every element is below.
    fn less_h(self, s: S) -> bool;
}
impl<S> LessH<S> for HNil {
    #[inline(always)]
    fn less_h(self, _: S) -> bool {
        true
    }
}
impl<A: Integral, AT: LessH<ST>, S0: Integral, ST> LessH<HCons<S0, ST>> for HCons<A, AT> {
    #[inline(always)]
    fn less_h(self, s: HCons<S0, ST>) -> bool {
        less(self.0, s.0) && self.1.less_h(s.1)
    }
}
/// `a < b` on typed integers, decided at compile time when both are static.
#[inline(always)]
fn less<A: Integral, B: Integral>(a: A, b: B) -> bool {
    if A::IS_STATIC && B::IS_STATIC {
        A::STATIC_VALUE < B::STATIC_VALUE
    } else {
        a.value() < b.value()
    }
}

/// `elem_less(coord, shape)` (see [`ElemLess`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let c = layout!((_4, _8):(E0::new(), E1::new())).crd2idx((1i32, 7i32));
/// assert!(elem_less(c, (_4, _8)));
/// assert!(!elem_less(c, (_4, _7)));
/// ```
#[inline(always)]
pub fn elem_less<A: ElemLess<S>, S>(a: A, s: S) -> bool {
    a.elem_less(s)
}
