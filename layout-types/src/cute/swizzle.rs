//! Swizzled layouts (CuTe's `ComposedLayout<Swizzle<B,M,S>, _0, Layout>`): a typed layout whose
//! index goes through a static swizzle (`i ^ ((i & yyy_mask) >> S)`), e.g. for bank-conflict-free
//! shared-memory tiles. Tensors and TiledCopy partitions take them like plain layouts.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::swizzle::Swizzle;
//! let s = make_composed_layout(Swizzle::<3, 0, 3>, layout!((_8, _8):(_8, _1)));
//! assert_eq!(s.to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
//! assert_eq!(s.crd2idx((1i32, 1i32)), 8);            // row 1, column 1 ^ 1 = 0
//! ```

use super::copy::TileLayout;
use super::int::*;
use super::layout::*;
use super::tuple::*;
use crate::swizzle::StaticSwizzle;
use core::fmt;

/// A layout composed with a static swizzle: `index(c) = swizzle(layout(c))`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Swizzled<Sw, L> {
    /// The swizzle.
    pub sw: Sw,
    /// The layout.
    pub layout: L,
}

/// `make_composed_layout(swizzle, _0, layout)`: a swizzled layout.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::swizzle::Swizzle;
/// let s = make_composed_layout(Swizzle::<3, 2, 6>, make_layout_left((_32, _32)));
/// assert_eq!(s.crd2idx((4i32, 1i32)), 36 ^ 0);
/// assert_eq!(s.crd2idx((0i32, 8i32)), 256 ^ 4);        // bit 8 lands on bit 2
/// ```
#[inline(always)]
pub fn make_composed_layout<Sw: StaticSwizzle, L>(sw: Sw, layout: L) -> Swizzled<Sw, L> {
    Swizzled { sw, layout }
}

/// A swizzle applied to a typed index: dynamic in, same type out (a static index gives an `i64`).
pub trait SwizzleIndex {
    /// The swizzled index's type.
    type Output: Copy;
    /// The swizzled index.
    fn swizzle<Sw: StaticSwizzle>(self) -> Self::Output;
}
impl<D: DynInt> SwizzleIndex for D {
    type Output = D;
    #[inline(always)]
    fn swizzle<Sw: StaticSwizzle>(self) -> D {
        D::from_i64(Sw::SW.apply(self.value()))
    }
}
impl<T: typenum::Integer + 'static> SwizzleIndex for C<T> {
    type Output = i64;
    #[inline(always)]
    fn swizzle<Sw: StaticSwizzle>(self) -> i64 {
        Sw::SW.apply(T::I64)
    }
}

impl<Sw: StaticSwizzle, S: IntTuple, D: IntTuple> Swizzled<Sw, Layout<S, D>> {
    /// `layout(coord)` through the swizzle.
    #[inline(always)]
    pub fn crd2idx<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> <Cd::Output as SwizzleIndex>::Output
    where
        Cd::Output: SwizzleIndex,
    {
        self.layout.crd2idx(c).swizzle::<Sw>()
    }
}

impl<Sw: StaticSwizzle, L: TileLayout> TileLayout for Swizzled<Sw, L>
where
    L::Off: SwizzleIndex,
{
    type M = L::M;
    type N = L::N;
    type Off = <L::Off as SwizzleIndex>::Output;
    const UNIT: [bool; 2] = L::UNIT;
    const SWIZZLE_BASE: u32 = Sw::SW.base;
    #[inline(always)]
    fn eval(&self, c: (i32, i32)) -> Self::Off {
        self.layout.eval(c).swizzle::<Sw>()
    }
}

impl<Sw: StaticSwizzle + fmt::Display, S: IntTuple, D: IntTuple> fmt::Display
    for Swizzled<Sw, Layout<S, D>>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o _0 o {}", self.sw, self.layout)
    }
}
impl<Sw: StaticSwizzle + fmt::Display, S: IntTuple, D: IntTuple> fmt::Debug
    for Swizzled<Sw, Layout<S, D>>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
