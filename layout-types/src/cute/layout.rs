//! Typed layouts: `Layout<Shape, Stride>` whose leaves are static types or dynamic fields, with
//! CuTe's kernel-side operations. Every operation recurses over the types; results are typed
//! (static where CuTe's result is static) and, on the device, cost only the arithmetic on dynamic
//! leaves (static products fold, `% 2^k` and `/ 2^k` become masks and shifts).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let (m, ld) = (100i32, 128i32);
//! let l = layout!((m, _8):(_1, ld));
//! assert_eq!(l.to_string(), "(100,_8):(_1,128)");
//! assert_eq!(l.crd2idx((3, 2)), 3 + 2 * 128);
//! let s = layout!((_4, _8):(_1, _16));
//! let i: _35 = s.crd2idx((_3, _2));            // static coordinate: a static index
//! assert_eq!(i.value(), 35);
//! assert_eq!(s.size().to_string(), "_32");
//! assert_eq!(s.cosize().to_string(), "_116");
//! ```

use super::consts::{_0, _1};
use super::int::*;
use super::tuple::*;
use crate::value::layout::DynLayout;
use core::fmt;
use typenum::{B0, B1, Bit};

/// A layout with typed shape and stride (CuTe's `Layout<Shape, Stride>`); zero-sized when both
/// are static.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout<S, D> {
    /// The shape.
    pub shape: S,
    /// The stride.
    pub stride: D,
}

/// Shape and stride have the same tree structure (CuTe's `congruent`).
#[diagnostic::on_unimplemented(
    message = "make_layout: the shape `{Self}` and the stride `{D}` are not congruent (CuTe requires congruent shape and stride)"
)]
pub trait Congruent<D> {}
impl<S: IntTuple, D: IntTuple> Congruent<D> for S where (S::Kind, D::Kind): CongruentK<S, D> {}
/// Kind dispatch of [`Congruent`].
pub trait CongruentK<S, D> {}
impl<S, D> CongruentK<S, D> for (IntK, IntK) {}
impl<S: Tuple, D: Tuple> CongruentK<S, D> for (TupK, TupK) where S::H: CongruentH<D::H> {}
/// [`Congruent`] element by element.
#[diagnostic::on_unimplemented(
    message = "make_layout: the shape's modes `{Self}` and the stride's modes `{D}` are not congruent (CuTe requires congruent shape and stride)"
)]
pub trait CongruentH<D> {}
impl<D: NoMoreStrideModes> CongruentH<D> for HNil {}
impl<S, ST, D> CongruentH<D> for HCons<S, ST>
where
    D: MoreStrideModes,
    S: Congruent<D::Head>,
    ST: CongruentH<D::Tail>,
{
}
/// The stride's modes end where the shape's do (the rank half of CuTe's `congruent`).
#[diagnostic::on_unimplemented(
    message = "make_layout: the stride has more modes than the shape (CuTe requires congruent shape and stride: the same rank, mode by mode)",
    label = "the stride has more modes than the shape"
)]
pub trait NoMoreStrideModes {}
impl NoMoreStrideModes for HNil {}
/// The stride has a mode for each of the shape's (the rank half of CuTe's `congruent`).
#[diagnostic::on_unimplemented(
    message = "make_layout: the stride has fewer modes than the shape (CuTe requires congruent shape and stride: the same rank, mode by mode)",
    label = "the stride has fewer modes than the shape"
)]
pub trait MoreStrideModes {
    /// The stride's next mode.
    type Head;
    /// The stride's remaining modes.
    type Tail;
}
impl<H, T> MoreStrideModes for HCons<H, T> {
    type Head = H;
    type Tail = T;
}

/// `make_layout(shape, stride)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = make_layout((_4, 2i32), (_1, _4));
/// assert_eq!(l.to_string(), "(_4,2):(_1,_4)");
/// ```
#[inline(always)]
pub fn make_layout<S: IntTuple + Congruent<D>, D: IntTuple>(shape: S, stride: D) -> Layout<S, D> {
    Layout { shape, stride }
}

impl<S: IntTuple, D: IntTuple> fmt::Display for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shape.fmt_cute(f)?;
        f.write_str(":")?;
        self.stride.fmt_cute(f)
    }
}
impl<S: IntTuple, D: IntTuple> fmt::Debug for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// ---------------------------------------------------------------------------------------------
// crd2idx
// ---------------------------------------------------------------------------------------------

/// `crd2idx(coord, shape, stride)` (CuTe's): a coordinate — an integer (a 1-D index into this
/// shape, split colexicographically) or a tuple congruent with the shape — to an index.
#[diagnostic::on_unimplemented(
    message = "crd2idx: the coordinate `{Self}` is not congruent with the shape `{S}` (a coordinate is an integer or a tuple with one entry per mode)"
)]
pub trait Crd2Idx<S, D> {
    /// The index type (static when everything that contributes is).
    type Output: Copy;
    /// The index.
    fn crd2idx(self, s: S, d: D) -> Self::Output;
}
impl<Cd: IntTuple, S: IntTuple, D> Crd2Idx<S, D> for Cd
where
    (Cd::Kind, S::Kind): Crd2IdxK<Cd, S, D>,
{
    type Output = <(Cd::Kind, S::Kind) as Crd2IdxK<Cd, S, D>>::Output;
    #[inline(always)]
    fn crd2idx(self, s: S, d: D) -> Self::Output {
        <(Cd::Kind, S::Kind) as Crd2IdxK<Cd, S, D>>::f(self, s, d)
    }
}
/// Kind dispatch of [`Crd2Idx`].
pub trait Crd2IdxK<Cd, S, D> {
    /// The index type.
    type Output: Copy;
    /// The index.
    fn f(c: Cd, s: S, d: D) -> Self::Output;
}
impl<Cd: Integral + IntMul<D>, S: Integral, D> Crd2IdxK<Cd, S, D> for (IntK, IntK) {
    type Output = Prod<Cd, D>;
    #[inline(always)]
    fn f(c: Cd, _: S, d: D) -> Self::Output {
        const {
            if Cd::IS_STATIC && S::IS_STATIC {
                let (cv, sv) = (static_value::<Cd>(), static_value::<S>());
                if cv < 0 || cv >= sv {
                    crate::Error::with2(
                        "coordinate {} is outside the shape: its mode has extent {}",
                        cv,
                        sv,
                    )
                    .panic()
                }
            }
        };
        c.int_mul(d)
    }
}
impl<Cd: Tuple, S: Tuple, D: Tuple> Crd2IdxK<Cd, S, D> for (TupK, TupK)
where
    Cd::H: Crd2IdxH<S::H, D::H>,
{
    type Output = <Cd::H as Crd2IdxH<S::H, D::H>>::Output;
    #[inline(always)]
    fn f(c: Cd, s: S, d: D) -> Self::Output {
        c.into_h().crd2idx_h(s.into_h(), d.into_h())
    }
}
impl<Cd: Integral, S: Tuple, D: Tuple> Crd2IdxK<Cd, S, D> for (IntK, TupK)
where
    S::H: SplitIdx<Cd, D::H>,
{
    type Output = <S::H as SplitIdx<Cd, D::H>>::Output;
    #[inline(always)]
    fn f(c: Cd, s: S, d: D) -> Self::Output {
        s.into_h().split_idx(c, d.into_h())
    }
}

/// Mode-by-mode `crd2idx` of a tuple coordinate, summed: `i0 + (i1 + (...))`.
#[diagnostic::on_unimplemented(
    message = "crd2idx: the coordinate's modes `{Self}` are not congruent with the shape's modes `{S}` (CuTe requires a coordinate congruent with the shape, or an integer)",
    label = "coordinate not congruent with the shape"
)]
pub trait Crd2IdxH<S, D> {
    /// The index type.
    type Output: Copy;
    /// The index.
    fn crd2idx_h(self, s: S, d: D) -> Self::Output;
}
impl Crd2IdxH<HNil, HNil> for HNil {
    type Output = _0;
    #[inline(always)]
    fn crd2idx_h(self, _: HNil, _: HNil) -> _0 {
        C::new()
    }
}
impl<C0: Crd2Idx<S0, D0>, S0, D0> Crd2IdxH<HCons<S0, HNil>, HCons<D0, HNil>> for HCons<C0, HNil> {
    type Output = C0::Output;
    #[inline(always)]
    fn crd2idx_h(self, s: HCons<S0, HNil>, d: HCons<D0, HNil>) -> Self::Output {
        self.0.crd2idx(s.0, d.0)
    }
}
impl<C0, S0, D0, C1, CT, S1, ST, D1, DT>
    Crd2IdxH<HCons<S0, HCons<S1, ST>>, HCons<D0, HCons<D1, DT>>> for HCons<C0, HCons<C1, CT>>
where
    C0: Crd2Idx<S0, D0>,
    HCons<C1, CT>: Crd2IdxH<HCons<S1, ST>, HCons<D1, DT>>,
    C0::Output: IntAdd<<HCons<C1, CT> as Crd2IdxH<HCons<S1, ST>, HCons<D1, DT>>>::Output>,
{
    type Output =
        Sum<C0::Output, <HCons<C1, CT> as Crd2IdxH<HCons<S1, ST>, HCons<D1, DT>>>::Output>;
    #[inline(always)]
    fn crd2idx_h(self, s: HCons<S0, HCons<S1, ST>>, d: HCons<D0, HCons<D1, DT>>) -> Self::Output {
        self.0.crd2idx(s.0, d.0).int_add(self.1.crd2idx_h(s.1, d.1))
    }
}

/// An integer coordinate into a tuple shape: `crd2idx(c % size(s0), s0, d0) + (rest at c /
/// size(s0))`, the last mode taking the whole remainder (CuTe's colexicographic split).
pub trait SplitIdx<Cd, D> {
    /// The index type.
    type Output: Copy;
    /// The index.
    fn split_idx(self, c: Cd, d: D) -> Self::Output;
}
impl<Cd> SplitIdx<Cd, HNil> for HNil {
    type Output = _0;
    #[inline(always)]
    fn split_idx(self, _: Cd, _: HNil) -> _0 {
        C::new()
    }
}
impl<Cd: Crd2Idx<S0, D0>, S0, D0> SplitIdx<Cd, HCons<D0, HNil>> for HCons<S0, HNil> {
    type Output = Cd::Output;
    #[inline(always)]
    fn split_idx(self, c: Cd, d: HCons<D0, HNil>) -> Self::Output {
        c.crd2idx(self.0, d.0)
    }
}
impl<Cd, S0, D0, S1, ST, D1, DT> SplitIdx<Cd, HCons<D0, HCons<D1, DT>>> for HCons<S0, HCons<S1, ST>>
where
    S0: SplitMod<Cd, D0>,
    HCons<S1, ST>: SplitIdx<S0::Rest, HCons<D1, DT>>,
    S0::Idx: IntAdd<<HCons<S1, ST> as SplitIdx<S0::Rest, HCons<D1, DT>>>::Output>,
{
    type Output = Sum<S0::Idx, <HCons<S1, ST> as SplitIdx<S0::Rest, HCons<D1, DT>>>::Output>;
    #[inline(always)]
    fn split_idx(self, c: Cd, d: HCons<D0, HCons<D1, DT>>) -> Self::Output {
        let (head, rest) = self.0.split_mod(c, d.0);
        head.int_add(self.1.split_idx(rest, d.1))
    }
}

/// A mode that is not the last one, indexed by an integer coordinate: every leaf takes
/// `(c % s) * d` and passes `c / s` on (CuTe's `crd2idx(c % size(mode), mode)` then `c /
/// size(mode)`, with the modulo distributed over the mode's leaves, so that nested static modes
/// cost one mask and one shift per leaf).
pub trait SplitMod<Cd, D> {
    /// The index of this mode.
    type Idx: Copy;
    /// The coordinate left for the following modes.
    type Rest: Copy;
    /// Index and rest.
    fn split_mod(self, c: Cd, d: D) -> (Self::Idx, Self::Rest);
}
impl<S: IntTuple, Cd, D> SplitMod<Cd, D> for S
where
    S::Kind: SplitModK<S, Cd, D>,
{
    type Idx = <S::Kind as SplitModK<S, Cd, D>>::Idx;
    type Rest = <S::Kind as SplitModK<S, Cd, D>>::Rest;
    #[inline(always)]
    fn split_mod(self, c: Cd, d: D) -> (Self::Idx, Self::Rest) {
        <S::Kind as SplitModK<S, Cd, D>>::f(self, c, d)
    }
}
/// Kind dispatch of [`SplitMod`].
pub trait SplitModK<S, Cd, D> {
    /// The index of this mode.
    type Idx: Copy;
    /// The coordinate left.
    type Rest: Copy;
    /// Index and rest.
    fn f(s: S, c: Cd, d: D) -> (Self::Idx, Self::Rest);
}
impl<S: Integral, Cd: IntRem<S> + IntDiv<S> + Copy, D> SplitModK<S, Cd, D> for IntK
where
    Mod<Cd, S>: IntMul<D>,
{
    type Idx = Prod<Mod<Cd, S>, D>;
    type Rest = Quot<Cd, S>;
    #[inline(always)]
    fn f(s: S, c: Cd, d: D) -> (Self::Idx, Self::Rest) {
        (c.int_rem(s).int_mul(d), c.int_div(s))
    }
}
impl<S: Tuple, Cd, D: Tuple> SplitModK<S, Cd, D> for TupK
where
    S::H: SplitModH<Cd, D::H>,
{
    type Idx = <S::H as SplitModH<Cd, D::H>>::Idx;
    type Rest = <S::H as SplitModH<Cd, D::H>>::Rest;
    #[inline(always)]
    fn f(s: S, c: Cd, d: D) -> (Self::Idx, Self::Rest) {
        s.into_h().split_mod_h(c, d.into_h())
    }
}
/// [`SplitMod`] over the sub-modes of a mode.
pub trait SplitModH<Cd, D> {
    /// The index.
    type Idx: Copy;
    /// The coordinate left.
    type Rest: Copy;
    /// Index and rest.
    fn split_mod_h(self, c: Cd, d: D) -> (Self::Idx, Self::Rest);
}
impl<Cd: Copy> SplitModH<Cd, HNil> for HNil {
    type Idx = _0;
    type Rest = Cd;
    #[inline(always)]
    fn split_mod_h(self, c: Cd, _: HNil) -> (_0, Cd) {
        (C::new(), c)
    }
}
impl<S0: SplitMod<Cd, D0>, ST: SplitModH<S0::Rest, DT>, Cd, D0, DT> SplitModH<Cd, HCons<D0, DT>>
    for HCons<S0, ST>
where
    S0::Idx: IntAdd<ST::Idx>,
{
    type Idx = Sum<S0::Idx, ST::Idx>;
    type Rest = ST::Rest;
    #[inline(always)]
    fn split_mod_h(self, c: Cd, d: HCons<D0, DT>) -> (Self::Idx, Self::Rest) {
        let (i0, r0) = self.0.split_mod(c, d.0);
        let (it, r) = self.1.split_mod_h(r0, d.1);
        (i0.int_add(it), r)
    }
}

/// The value of a static integer type, in `const` context (0 for dynamic types).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::layout::static_value;
/// const N: i64 = static_value::<Prod<_8, _16>>();
/// assert_eq!((N, static_value::<i32>()), (128, 0));
/// ```
pub const fn static_value<T: Integral>() -> i64 {
    T::STATIC_VALUE
}

// ---------------------------------------------------------------------------------------------
// idx2crd (colexicographic) and the layout's inverse coordinate maps
// ---------------------------------------------------------------------------------------------

/// CuTe's `idx2crd(idx, shape)`: the colexicographic coordinate of `idx` in `shape`.
pub trait Idx2Crd<S> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn idx2crd(self, s: S) -> Self::Output;
}
impl<I: Integral, S: IntTuple> Idx2Crd<S> for I
where
    S::Kind: Idx2CrdK<I, S>,
{
    type Output = <S::Kind as Idx2CrdK<I, S>>::Output;
    #[inline(always)]
    fn idx2crd(self, s: S) -> Self::Output {
        <S::Kind as Idx2CrdK<I, S>>::f(self, s)
    }
}
/// CuTe's `idx2crd(idx, shape)`: the colexicographic coordinate of `idx` in `shape` (a
/// layout's [`Layout::idx2crd`] without its strides; a shape's modes may be
/// [`FastDivmod`](super::fast_divmod::FastDivmod)s, whose divisions are multiply-shifts).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let c: (i32, (i32, i32)) = idx2crd(13i32, (_2, (3i32, 4i32)));
/// assert_eq!(c, (1, (0, 2)));
/// assert_eq!(idx2crd(13i32, (_2, (3i32, 4i32))), make_layout_left((_2, (3i32, 4i32))).idx2crd(13i32));
/// ```
#[inline(always)]
pub fn idx2crd<I: Idx2Crd<S>, S>(idx: I, shape: S) -> I::Output {
    idx.idx2crd(shape)
}
/// Kind dispatch of [`Idx2Crd`].
pub trait Idx2CrdK<I, S> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn f(i: I, s: S) -> Self::Output;
}
impl<I: Integral, S> Idx2CrdK<I, S> for IntK {
    type Output = I;
    #[inline(always)]
    fn f(i: I, _: S) -> I {
        i
    }
}
impl<I: Integral, S: Tuple> Idx2CrdK<I, S> for TupK
where
    S::H: Idx2CrdH<I>,
{
    type Output = <<S::H as Idx2CrdH<I>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(i: I, s: S) -> Self::Output {
        s.into_h().idx2crd_h(i).into_tuple()
    }
}
/// [`Idx2Crd`] over a list of modes.
pub trait Idx2CrdH<I> {
    /// The coordinates.
    type Output: HList;
    /// The coordinates.
    fn idx2crd_h(self, i: I) -> Self::Output;
}
impl<I> Idx2CrdH<I> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn idx2crd_h(self, _: I) -> HNil {
        HNil
    }
}
impl<I: Idx2Crd<S0>, S0> Idx2CrdH<I> for HCons<S0, HNil>
where
    HCons<I::Output, HNil>: HList,
{
    type Output = HCons<I::Output, HNil>;
    #[inline(always)]
    fn idx2crd_h(self, i: I) -> Self::Output {
        HCons(i.idx2crd(self.0), HNil)
    }
}
impl<I, S0, S1, ST> Idx2CrdH<I> for HCons<S0, HCons<S1, ST>>
where
    S0: Product,
    I: IntRem<S0::Output> + IntDiv<S0::Output> + Copy,
    Mod<I, S0::Output>: Idx2Crd<S0>,
    HCons<S1, ST>: Idx2CrdH<Quot<I, S0::Output>>,
    HCons<
        <Mod<I, S0::Output> as Idx2Crd<S0>>::Output,
        <HCons<S1, ST> as Idx2CrdH<Quot<I, S0::Output>>>::Output,
    >: HList,
{
    type Output = HCons<
        <Mod<I, S0::Output> as Idx2Crd<S0>>::Output,
        <HCons<S1, ST> as Idx2CrdH<Quot<I, S0::Output>>>::Output,
    >;
    #[inline(always)]
    fn idx2crd_h(self, i: I) -> Self::Output {
        let p = self.0.product();
        let i2 = i;
        HCons(
            i.int_rem(p).idx2crd(self.0),
            self.1.idx2crd_h(i2.int_div(p)),
        )
    }
}

/// CuTe's `get_hier_coord`: `(idx / d) % s` at each leaf (`_0` for a static `_1` mode): the
/// coordinate of an index of a compact layout.
pub trait HierCoord<S, D> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn hier_coord(self, s: S, d: D) -> Self::Output;
}
impl<I: Integral, S: IntTuple, D> HierCoord<S, D> for I
where
    S::Kind: HierCoordK<I, S, D>,
{
    type Output = <S::Kind as HierCoordK<I, S, D>>::Output;
    #[inline(always)]
    fn hier_coord(self, s: S, d: D) -> Self::Output {
        <S::Kind as HierCoordK<I, S, D>>::f(self, s, d)
    }
}
/// Kind dispatch of [`HierCoord`].
pub trait HierCoordK<I, S, D> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn f(i: I, s: S, d: D) -> Self::Output;
}
impl<I, S: IntFacts, D> HierCoordK<I, S, D> for IntK
where
    S::IsOne: HierLeaf<I, S, D>,
{
    type Output = <S::IsOne as HierLeaf<I, S, D>>::Output;
    #[inline(always)]
    fn f(i: I, s: S, d: D) -> Self::Output {
        <S::IsOne as HierLeaf<I, S, D>>::f(i, s, d)
    }
}
/// One leaf of [`HierCoord`]: `_0` for a static `_1` extent, else `(i / d) % s`.
pub trait HierLeaf<I, S, D> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn f(i: I, s: S, d: D) -> Self::Output;
}
impl<I, S, D> HierLeaf<I, S, D> for B1 {
    type Output = _0;
    #[inline(always)]
    fn f(_: I, _: S, _: D) -> _0 {
        C::new()
    }
}
impl<I: IntDiv<D>, S, D> HierLeaf<I, S, D> for B0
where
    Quot<I, D>: IntRem<S>,
{
    type Output = Mod<Quot<I, D>, S>;
    #[inline(always)]
    fn f(i: I, s: S, d: D) -> Self::Output {
        i.int_div(d).int_rem(s)
    }
}
impl<I: Copy, S: Tuple, D: Tuple> HierCoordK<I, S, D> for TupK
where
    S::H: HierCoordH<I, D::H>,
{
    type Output = <<S::H as HierCoordH<I, D::H>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(i: I, s: S, d: D) -> Self::Output {
        s.into_h().hier_h(i, d.into_h()).into_tuple()
    }
}
/// [`HierCoord`] over a list of modes.
pub trait HierCoordH<I, D> {
    /// The coordinates.
    type Output: HList;
    /// The coordinates.
    fn hier_h(self, i: I, d: D) -> Self::Output;
}
impl<I> HierCoordH<I, HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn hier_h(self, _: I, _: HNil) -> HNil {
        HNil
    }
}
impl<I: HierCoord<S0, D0> + Copy, S0, D0, ST: HierCoordH<I, DT>, DT> HierCoordH<I, HCons<D0, DT>>
    for HCons<S0, ST>
where
    HCons<I::Output, ST::Output>: HList,
{
    type Output = HCons<I::Output, ST::Output>;
    #[inline(always)]
    fn hier_h(self, i: I, d: HCons<D0, DT>) -> Self::Output {
        HCons(i.hier_coord(self.0, d.0), self.1.hier_h(i, d.1))
    }
}

/// CuTe's `crd2idx(coord, shape)` without strides: the colexicographic 1-D index of a coordinate
/// within a shape (`c0 + s0 * (c1 + s1 * ...)`).
pub trait Crd2IdxColex<S> {
    /// The index type.
    type Output: Integral;
    /// The index.
    fn colex(self, s: S) -> Self::Output;
}
impl<Cd: IntTuple, S> Crd2IdxColex<S> for Cd
where
    Cd::Kind: ColexK<Cd, S>,
{
    type Output = <Cd::Kind as ColexK<Cd, S>>::Output;
    #[inline(always)]
    fn colex(self, s: S) -> Self::Output {
        <Cd::Kind as ColexK<Cd, S>>::f(self, s)
    }
}
/// Kind dispatch of [`Crd2IdxColex`].
pub trait ColexK<Cd, S> {
    /// The index type.
    type Output: Integral;
    /// The index.
    fn f(c: Cd, s: S) -> Self::Output;
}
impl<Cd: Integral, S> ColexK<Cd, S> for IntK {
    type Output = Cd;
    #[inline(always)]
    fn f(c: Cd, _: S) -> Cd {
        c
    }
}
impl<Cd: Tuple, S: Tuple> ColexK<Cd, S> for TupK
where
    Cd::H: ColexH<S::H>,
{
    type Output = <Cd::H as ColexH<S::H>>::Output;
    #[inline(always)]
    fn f(c: Cd, s: S) -> Self::Output {
        c.into_h().colex_h(s.into_h())
    }
}
/// [`Crd2IdxColex`] over a list (Horner's scheme).
pub trait ColexH<S> {
    /// The index type.
    type Output: Integral;
    /// The index.
    fn colex_h(self, s: S) -> Self::Output;
}
impl<C0: Crd2IdxColex<S0>, S0> ColexH<HCons<S0, HNil>> for HCons<C0, HNil> {
    type Output = C0::Output;
    #[inline(always)]
    fn colex_h(self, s: HCons<S0, HNil>) -> Self::Output {
        self.0.colex(s.0)
    }
}
impl<C0, S0, C1, CT, S1, ST> ColexH<HCons<S0, HCons<S1, ST>>> for HCons<C0, HCons<C1, CT>>
where
    C0: Crd2IdxColex<S0>,
    S0: Product,
    HCons<C1, CT>: ColexH<HCons<S1, ST>>,
    S0::Output: IntMul<<HCons<C1, CT> as ColexH<HCons<S1, ST>>>::Output>,
    C0::Output: IntAdd<Prod<S0::Output, <HCons<C1, CT> as ColexH<HCons<S1, ST>>>::Output>>,
    Sum<C0::Output, Prod<S0::Output, <HCons<C1, CT> as ColexH<HCons<S1, ST>>>::Output>>: Integral,
{
    type Output =
        Sum<C0::Output, Prod<S0::Output, <HCons<C1, CT> as ColexH<HCons<S1, ST>>>::Output>>;
    #[inline(always)]
    fn colex_h(self, s: HCons<S0, HCons<S1, ST>>) -> Self::Output {
        let p = s.0.product();
        self.0.colex(s.0).int_add(p.int_mul(self.1.colex_h(s.1)))
    }
}

/// `get_flat_coord`: one colexicographic coordinate per top-level mode of the hierarchical
/// coordinate (an integer for a rank-1 layout).
pub trait FlatCoord<S> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn flat_coord(self, s: S) -> Self::Output;
}
impl<H: IntTuple, S: IntTuple> FlatCoord<S> for H
where
    (H::Kind, S::Kind): FlatCoordK<H, S>,
{
    type Output = <(H::Kind, S::Kind) as FlatCoordK<H, S>>::Output;
    #[inline(always)]
    fn flat_coord(self, s: S) -> Self::Output {
        <(H::Kind, S::Kind) as FlatCoordK<H, S>>::f(self, s)
    }
}
/// Kind dispatch of [`FlatCoord`].
pub trait FlatCoordK<H, S> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn f(h: H, s: S) -> Self::Output;
}
impl<H: Integral, S> FlatCoordK<H, S> for (IntK, IntK) {
    type Output = H;
    #[inline(always)]
    fn f(h: H, _: S) -> H {
        h
    }
}
impl<H: Tuple, S: Tuple> FlatCoordK<H, S> for (TupK, TupK)
where
    H::H: FlatCoordH<S::H>,
{
    type Output = <H::H as FlatCoordH<S::H>>::Output;
    #[inline(always)]
    fn f(h: H, s: S) -> Self::Output {
        h.into_h().flat_h(s.into_h())
    }
}
/// [`FlatCoord`] of a tuple coordinate: rank 1 gives an integer, else a tuple.
pub trait FlatCoordH<S> {
    /// The coordinate type.
    type Output: Copy;
    /// The coordinate.
    fn flat_h(self, s: S) -> Self::Output;
}
impl<H0: Crd2IdxColex<S0>, S0> FlatCoordH<HCons<S0, HNil>> for HCons<H0, HNil> {
    type Output = H0::Output;
    #[inline(always)]
    fn flat_h(self, s: HCons<S0, HNil>) -> Self::Output {
        self.0.colex(s.0)
    }
}
impl<H0, S0, H1, HT, S1, ST> FlatCoordH<HCons<S0, HCons<S1, ST>>> for HCons<H0, HCons<H1, HT>>
where
    HCons<H0, HCons<H1, HT>>: ColexEach<HCons<S0, HCons<S1, ST>>>,
{
    type Output =
        <<HCons<H0, HCons<H1, HT>> as ColexEach<HCons<S0, HCons<S1, ST>>>>::Output as HList>::Tuple;
    #[inline(always)]
    fn flat_h(self, s: HCons<S0, HCons<S1, ST>>) -> Self::Output {
        self.colex_each(s).into_tuple()
    }
}
/// [`Crd2IdxColex`] of each mode.
pub trait ColexEach<S> {
    /// The coordinates.
    type Output: HList;
    /// The coordinates.
    fn colex_each(self, s: S) -> Self::Output;
}
impl ColexEach<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn colex_each(self, _: HNil) -> HNil {
        HNil
    }
}
impl<H0: Crd2IdxColex<S0>, S0, HT: ColexEach<ST>, ST> ColexEach<HCons<S0, ST>> for HCons<H0, HT>
where
    HCons<H0::Output, HT::Output>: HList,
{
    type Output = HCons<H0::Output, HT::Output>;
    #[inline(always)]
    fn colex_each(self, s: HCons<S0, ST>) -> Self::Output {
        HCons(self.0.colex(s.0), self.1.colex_each(s.1))
    }
}

// ---------------------------------------------------------------------------------------------
// slicing and dicing
// ---------------------------------------------------------------------------------------------

/// Keeps the parts of a tuple selected by a coordinate (`slice`: where it holds `_`) or a step
/// (`dice`: where it holds an integer), flattened one level, as a list. `KEEP_UNDER` is `B1` for
/// slice, `B0` for dice.
pub trait LiftFilter<T, Keep> {
    /// The kept parts.
    type Output;
    /// The kept parts.
    fn lift_filter(self, t: T) -> Self::Output;
}
impl<Cd: IntTuple, T, Keep> LiftFilter<T, Keep> for Cd
where
    Cd::Kind: LiftFilterK<Cd, T, Keep>,
{
    type Output = <Cd::Kind as LiftFilterK<Cd, T, Keep>>::Output;
    #[inline(always)]
    fn lift_filter(self, t: T) -> Self::Output {
        <Cd::Kind as LiftFilterK<Cd, T, Keep>>::f(self, t)
    }
}
/// Kind dispatch of [`LiftFilter`].
pub trait LiftFilterK<Cd, T, Keep> {
    /// The kept parts.
    type Output;
    /// The kept parts.
    fn f(c: Cd, t: T) -> Self::Output;
}
impl<Cd, T> LiftFilterK<Cd, T, B1> for UnderK {
    type Output = HCons<T, HNil>;
    #[inline(always)]
    fn f(_: Cd, t: T) -> Self::Output {
        HCons(t, HNil)
    }
}
impl<Cd, T> LiftFilterK<Cd, T, B0> for UnderK {
    type Output = HNil;
    #[inline(always)]
    fn f(_: Cd, _: T) -> HNil {
        HNil
    }
}
impl<Cd, T> LiftFilterK<Cd, T, B1> for IntK {
    type Output = HNil;
    #[inline(always)]
    fn f(_: Cd, _: T) -> HNil {
        HNil
    }
}
impl<Cd, T> LiftFilterK<Cd, T, B0> for IntK {
    type Output = HCons<T, HNil>;
    #[inline(always)]
    fn f(_: Cd, t: T) -> Self::Output {
        HCons(t, HNil)
    }
}
impl<Cd: Tuple, T: Tuple, Keep> LiftFilterK<Cd, T, Keep> for TupK
where
    Cd::H: LiftFilterH<T::H, Keep>,
{
    type Output = <Cd::H as LiftFilterH<T::H, Keep>>::Output;
    #[inline(always)]
    fn f(c: Cd, t: T) -> Self::Output {
        c.into_h().lift_filter_h(t.into_h())
    }
}
/// [`LiftFilter`] over the modes of a tuple coordinate, concatenated.
#[diagnostic::on_unimplemented(
    message = "slice/dice: the coordinate (or Step) does not have the same rank as the tuple it selects from"
)]
pub trait LiftFilterH<T, Keep> {
    /// The kept parts.
    type Output;
    /// The kept parts.
    fn lift_filter_h(self, t: T) -> Self::Output;
}
impl<Keep> LiftFilterH<HNil, Keep> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn lift_filter_h(self, _: HNil) -> HNil {
        HNil
    }
}
impl<C0: LiftFilter<T0, Keep>, CT: LiftFilterH<TT, Keep>, T0, TT, Keep>
    LiftFilterH<HCons<T0, TT>, Keep> for HCons<C0, CT>
where
    C0::Output: Concat<CT::Output>,
{
    type Output = <C0::Output as Concat<CT::Output>>::Output;
    #[inline(always)]
    fn lift_filter_h(self, t: HCons<T0, TT>) -> Self::Output {
        self.0.lift_filter(t.0).concat(self.1.lift_filter_h(t.1))
    }
}

/// `slice(c, t)` / `dice(c, t)` on one IntTuple: a tuple coordinate keeps the selected parts as a
/// tuple; a leaf `_` (slice) or integer (dice) keeps all of `t`; otherwise nothing (`()`).
pub trait SliceT<T, Keep> {
    /// The kept part.
    type Output: IntTuple;
    /// The kept part.
    fn slice_t(self, t: T) -> Self::Output;
}
impl<Cd: IntTuple, T, Keep> SliceT<T, Keep> for Cd
where
    (Cd::Kind, Keep): SliceTK<Cd, T>,
{
    type Output = <(Cd::Kind, Keep) as SliceTK<Cd, T>>::Output;
    #[inline(always)]
    fn slice_t(self, t: T) -> Self::Output {
        <(Cd::Kind, Keep) as SliceTK<Cd, T>>::f(self, t)
    }
}
/// Kind dispatch of [`SliceT`].
pub trait SliceTK<Cd, T> {
    /// The kept part.
    type Output: IntTuple;
    /// The kept part.
    fn f(c: Cd, t: T) -> Self::Output;
}
impl<Cd, T: IntTuple> SliceTK<Cd, T> for (UnderK, B1) {
    type Output = T;
    #[inline(always)]
    fn f(_: Cd, t: T) -> T {
        t
    }
}
impl<Cd, T> SliceTK<Cd, T> for (IntK, B1) {
    type Output = ();
    #[inline(always)]
    fn f(_: Cd, _: T) {}
}
impl<Cd, T> SliceTK<Cd, T> for (UnderK, B0) {
    type Output = ();
    #[inline(always)]
    fn f(_: Cd, _: T) {}
}
impl<Cd, T: IntTuple> SliceTK<Cd, T> for (IntK, B0) {
    type Output = T;
    #[inline(always)]
    fn f(_: Cd, t: T) -> T {
        t
    }
}
impl<Cd: Tuple + LiftFilter<T, Keep>, T, Keep: Bit> SliceTK<Cd, T> for (TupK, Keep)
where
    <Cd as LiftFilter<T, Keep>>::Output: HList,
{
    type Output = <<Cd as LiftFilter<T, Keep>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(c: Cd, t: T) -> Self::Output {
        c.lift_filter(t).into_tuple()
    }
}

/// `crd2idx` of a coordinate that may hold `_` (those modes contribute `_0`): the offset of a
/// slice.
pub trait Crd2IdxUnder<S, D> {
    /// The offset type.
    type Output: Copy;
    /// The offset.
    fn crd2idx_under(self, s: S, d: D) -> Self::Output;
}
impl<Cd: IntTuple, S, D> Crd2IdxUnder<S, D> for Cd
where
    Cd::Kind: Crd2IdxUnderK<Cd, S, D>,
{
    type Output = <Cd::Kind as Crd2IdxUnderK<Cd, S, D>>::Output;
    #[inline(always)]
    fn crd2idx_under(self, s: S, d: D) -> Self::Output {
        <Cd::Kind as Crd2IdxUnderK<Cd, S, D>>::f(self, s, d)
    }
}
/// Kind dispatch of [`Crd2IdxUnder`].
pub trait Crd2IdxUnderK<Cd, S, D> {
    /// The offset type.
    type Output: Copy;
    /// The offset.
    fn f(c: Cd, s: S, d: D) -> Self::Output;
}
impl<Cd, S, D> Crd2IdxUnderK<Cd, S, D> for UnderK {
    type Output = _0;
    #[inline(always)]
    fn f(_: Cd, _: S, _: D) -> _0 {
        C::new()
    }
}
impl<Cd: Crd2Idx<S, D>, S, D> Crd2IdxUnderK<Cd, S, D> for IntK {
    type Output = Cd::Output;
    #[inline(always)]
    fn f(c: Cd, s: S, d: D) -> Self::Output {
        c.crd2idx(s, d)
    }
}
impl<Cd: Tuple, S: Tuple, D: Tuple> Crd2IdxUnderK<Cd, S, D> for TupK
where
    Cd::H: Crd2IdxUnderH<S::H, D::H>,
{
    type Output = <Cd::H as Crd2IdxUnderH<S::H, D::H>>::Output;
    #[inline(always)]
    fn f(c: Cd, s: S, d: D) -> Self::Output {
        c.into_h().under_h(s.into_h(), d.into_h())
    }
}
/// [`Crd2IdxUnder`] over a list: `_0 + o0 + o1 + ...`.
pub trait Crd2IdxUnderH<S, D> {
    /// The offset type.
    type Output: Copy;
    /// The offset.
    fn under_h(self, s: S, d: D) -> Self::Output;
}
impl Crd2IdxUnderH<HNil, HNil> for HNil {
    type Output = _0;
    #[inline(always)]
    fn under_h(self, _: HNil, _: HNil) -> _0 {
        C::new()
    }
}
impl<C0: Crd2IdxUnder<S0, D0>, CT: Crd2IdxUnderH<ST, DT>, S0, ST, D0, DT>
    Crd2IdxUnderH<HCons<S0, ST>, HCons<D0, DT>> for HCons<C0, CT>
where
    C0::Output: IntAdd<CT::Output>,
{
    type Output = Sum<C0::Output, CT::Output>;
    #[inline(always)]
    fn under_h(self, s: HCons<S0, ST>, d: HCons<D0, DT>) -> Self::Output {
        self.0
            .crd2idx_under(s.0, d.0)
            .int_add(self.1.under_h(s.1, d.1))
    }
}

// ---------------------------------------------------------------------------------------------
// compact layouts
// ---------------------------------------------------------------------------------------------

/// CuTe's `compact_major<LayoutLeft>(shape, current)`: column-major strides starting at
/// `current`; a static `_1` mode gets stride `_0`. Returns the strides and the next `current`.
pub trait CompactLeft<Cur> {
    /// The strides.
    type Stride: IntTuple;
    /// The product after this shape.
    type Next: Copy;
    /// Strides and next product.
    fn compact_left(self, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<S: IntTuple, Cur> CompactLeft<Cur> for S
where
    S::Kind: CompactLeftK<S, Cur>,
{
    type Stride = <S::Kind as CompactLeftK<S, Cur>>::Stride;
    type Next = <S::Kind as CompactLeftK<S, Cur>>::Next;
    #[inline(always)]
    fn compact_left(self, cur: Cur) -> (Self::Stride, Self::Next) {
        <S::Kind as CompactLeftK<S, Cur>>::f(self, cur)
    }
}
/// Kind dispatch of [`CompactLeft`].
pub trait CompactLeftK<S, Cur> {
    /// The strides.
    type Stride: IntTuple;
    /// The next product.
    type Next: Copy;
    /// Strides and next product.
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<S: IntFacts, Cur> CompactLeftK<S, Cur> for IntK
where
    S::IsOne: CompactLeaf<S, Cur>,
{
    type Stride = <S::IsOne as CompactLeaf<S, Cur>>::Stride;
    type Next = <S::IsOne as CompactLeaf<S, Cur>>::Next;
    #[inline(always)]
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next) {
        <S::IsOne as CompactLeaf<S, Cur>>::f(s, cur)
    }
}
/// One leaf of [`CompactLeft`].
pub trait CompactLeaf<S, Cur> {
    /// The stride.
    type Stride: IntTuple;
    /// The next product.
    type Next: Copy;
    /// Stride and next product.
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<S, Cur: Copy> CompactLeaf<S, Cur> for B1 {
    type Stride = _0;
    type Next = Cur;
    #[inline(always)]
    fn f(_: S, cur: Cur) -> (_0, Cur) {
        (C::new(), cur)
    }
}
impl<S, Cur: IntTuple + Copy + IntMul<S>> CompactLeaf<S, Cur> for B0 {
    type Stride = Cur;
    type Next = Prod<Cur, S>;
    #[inline(always)]
    fn f(s: S, cur: Cur) -> (Cur, Self::Next) {
        (cur, cur.int_mul(s))
    }
}
impl<S: Tuple, Cur> CompactLeftK<S, Cur> for TupK
where
    S::H: CompactLeftH<Cur>,
    <S::H as CompactLeftH<Cur>>::Stride: HList,
{
    type Stride = <<S::H as CompactLeftH<Cur>>::Stride as HList>::Tuple;
    type Next = <S::H as CompactLeftH<Cur>>::Next;
    #[inline(always)]
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next) {
        let (st, n) = s.into_h().compact_h(cur);
        (st.into_tuple(), n)
    }
}
/// [`CompactLeft`] over a list (left to right).
pub trait CompactLeftH<Cur> {
    /// The strides.
    type Stride;
    /// The next product.
    type Next: Copy;
    /// Strides and next product.
    fn compact_h(self, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<Cur: Copy> CompactLeftH<Cur> for HNil {
    type Stride = HNil;
    type Next = Cur;
    #[inline(always)]
    fn compact_h(self, cur: Cur) -> (HNil, Cur) {
        (HNil, cur)
    }
}
impl<S0: CompactLeft<Cur>, ST: CompactLeftH<S0::Next>, Cur> CompactLeftH<Cur> for HCons<S0, ST> {
    type Stride = HCons<S0::Stride, ST::Stride>;
    type Next = ST::Next;
    #[inline(always)]
    fn compact_h(self, cur: Cur) -> (Self::Stride, Self::Next) {
        let (d0, n0) = self.0.compact_left(cur);
        let (dt, n) = self.1.compact_h(n0);
        (HCons(d0, dt), n)
    }
}

/// `make_layout(shape)` / `make_layout(shape, LayoutLeft{})`: compact column-major strides.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(make_layout_left((_4, (_2, 3i32))).to_string(), "(_4,(_2,3)):(_1,(_4,_8))");
/// assert_eq!(make_layout_left((_1, _4)).to_string(), "(_1,_4):(_0,_1)");
/// ```
#[inline(always)]
pub fn make_layout_left<S: CompactLeft<_1> + Copy>(shape: S) -> Layout<S, S::Stride> {
    let (stride, _) = shape.compact_left(C::new());
    Layout { shape, stride }
}

/// CuTe's `compact_major<LayoutRight>(shape, current)`: row-major strides starting at
/// `current`, the last mode (and the last sub-mode of a nested mode) fastest; a static `_1` mode
/// gets stride `_0`. Returns the strides and the next `current`.
pub trait CompactRight<Cur> {
    /// The strides.
    type Stride: IntTuple;
    /// The product after this shape.
    type Next: Copy;
    /// Strides and next product.
    fn compact_right(self, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<S: IntTuple, Cur> CompactRight<Cur> for S
where
    S::Kind: CompactRightK<S, Cur>,
{
    type Stride = <S::Kind as CompactRightK<S, Cur>>::Stride;
    type Next = <S::Kind as CompactRightK<S, Cur>>::Next;
    #[inline(always)]
    fn compact_right(self, cur: Cur) -> (Self::Stride, Self::Next) {
        <S::Kind as CompactRightK<S, Cur>>::f(self, cur)
    }
}
/// Kind dispatch of [`CompactRight`].
pub trait CompactRightK<S, Cur> {
    /// The strides.
    type Stride: IntTuple;
    /// The next product.
    type Next: Copy;
    /// Strides and next product.
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<S: IntFacts, Cur> CompactRightK<S, Cur> for IntK
where
    S::IsOne: CompactLeaf<S, Cur>,
{
    type Stride = <S::IsOne as CompactLeaf<S, Cur>>::Stride;
    type Next = <S::IsOne as CompactLeaf<S, Cur>>::Next;
    #[inline(always)]
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next) {
        <S::IsOne as CompactLeaf<S, Cur>>::f(s, cur)
    }
}
impl<S: Tuple, Cur> CompactRightK<S, Cur> for TupK
where
    S::H: CompactRightH<Cur>,
    <S::H as CompactRightH<Cur>>::Stride: HList,
{
    type Stride = <<S::H as CompactRightH<Cur>>::Stride as HList>::Tuple;
    type Next = <S::H as CompactRightH<Cur>>::Next;
    #[inline(always)]
    fn f(s: S, cur: Cur) -> (Self::Stride, Self::Next) {
        let (st, n) = s.into_h().compact_right_h(cur);
        (st.into_tuple(), n)
    }
}
/// [`CompactRight`] over a list (right to left: the tail first).
pub trait CompactRightH<Cur> {
    /// The strides.
    type Stride;
    /// The next product.
    type Next: Copy;
    /// Strides and next product.
    fn compact_right_h(self, cur: Cur) -> (Self::Stride, Self::Next);
}
impl<Cur: Copy> CompactRightH<Cur> for HNil {
    type Stride = HNil;
    type Next = Cur;
    #[inline(always)]
    fn compact_right_h(self, cur: Cur) -> (HNil, Cur) {
        (HNil, cur)
    }
}
impl<S0: CompactRight<ST::Next>, ST: CompactRightH<Cur>, Cur> CompactRightH<Cur> for HCons<S0, ST> {
    type Stride = HCons<S0::Stride, ST::Stride>;
    type Next = S0::Next;
    #[inline(always)]
    fn compact_right_h(self, cur: Cur) -> (Self::Stride, Self::Next) {
        let (dt, nt) = self.1.compact_right_h(cur);
        let (d0, n) = self.0.compact_right(nt);
        (HCons(d0, dt), n)
    }
}

/// `make_layout(shape, LayoutRight{})` (`GenRowMajor`): compact row-major strides, the last
/// mode fastest (nested modes too).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = make_layout_right((_4, _16, (_8, _2)));
/// assert_eq!(l.to_string(), "(_4,_16,(_8,_2)):(_256,_16,(_2,_1))");
/// assert_eq!(make_layout_right((8i32, 8i32)).to_string(), "(8,8):(8,_1)");
/// ```
#[inline(always)]
pub fn make_layout_right<S: CompactRight<_1> + Copy>(shape: S) -> Layout<S, S::Stride> {
    let (stride, _) = shape.compact_right(C::new());
    Layout { shape, stride }
}

/// A layout's shape and stride as a pair (to name both in bounds).
///
/// ```
/// use layout_types::cute::layout::LayoutParts;
/// use layout_types::cute::prelude::*;
/// let (s, d) = layout!((_4, 3i32):(_1, _4)).parts();
/// assert_eq!((s.1, d.0.to_string()), (3, "_1".to_string()));
/// ```
pub trait LayoutParts {
    /// Shape.
    type S;
    /// Stride.
    type D;
    /// `(shape, stride)`.
    fn parts(self) -> (Self::S, Self::D);
}
impl<S, D> LayoutParts for Layout<S, D> {
    type S = S;
    type D = D;
    #[inline(always)]
    fn parts(self) -> (S, D) {
        (self.shape, self.stride)
    }
}

// ---------------------------------------------------------------------------------------------
// mode access
// ---------------------------------------------------------------------------------------------

/// `get<I>(t)`: the `I`-th element of a tuple.
pub trait Get<const I: usize> {
    /// The element type.
    type Output: Copy;
    /// The element.
    fn get(self) -> Self::Output;
}
include!("get_impls.rs");

// ---------------------------------------------------------------------------------------------
// the Layout methods
// ---------------------------------------------------------------------------------------------

impl<S: IntTuple, D: IntTuple> Layout<S, D> {
    /// `size(layout)`: the product of the shape, static when the shape is.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, 8i32):(_1, _4)).size(), 32);
    /// let s: _32 = layout!((_4, _8):(_1, _4)).size();
    /// ```
    #[inline(always)]
    pub fn size(&self) -> S::Output
    where
        S: Product,
    {
        self.shape.product()
    }
    /// `rank(layout)`: the number of top-level modes (static).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, (_2, _2)):(_1, (_4, _8))).rank().to_string(), "_2");
    /// ```
    #[inline(always)]
    pub fn rank(&self) -> UC<S::Rank>
    where
        S: RankDepth,
        S::Rank: ToSigned,
    {
        C::new()
    }
    /// `depth(layout)` (static).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, (_2, _2)):(_1, (_4, _8))).depth().to_string(), "_2");
    /// ```
    #[inline(always)]
    pub fn depth(&self) -> UC<S::Depth>
    where
        S: RankDepth,
        S::Depth: ToSigned,
    {
        C::new()
    }
    /// `shape(layout)`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, 3i32):(_1, _4)).shape().to_string_cute(), "(_4,3)");
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.shape
    }
    /// `stride(layout)`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, 3i32):(_1, _4)).stride().to_string_cute(), "(_1,_4)");
    /// ```
    #[inline(always)]
    pub fn stride(&self) -> D {
        self.stride
    }
    /// `layout<I>(l)` / `get<I>(l)`: mode `I` as a layout.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, (_2, 3i32)):(_1, (_4, _8)));
    /// assert_eq!(l.get::<1>().to_string(), "(_2,3):(_4,_8)");
    /// ```
    #[inline(always)]
    pub fn get<const I: usize>(&self) -> Layout<<S as Get<I>>::Output, <D as Get<I>>::Output>
    where
        S: Get<I>,
        D: Get<I>,
    {
        Layout {
            shape: self.shape.get(),
            stride: self.stride.get(),
        }
    }
    /// `layout(coord)` / `crd2idx(coord, shape, stride)`: a coordinate (an integer 1-D index, or
    /// a tuple congruent with the shape) to its index. A static coordinate outside a static mode
    /// fails to compile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _2):(_2, _1));
    /// assert_eq!(l.crd2idx((3i32, 1i32)), 7);
    /// assert_eq!(l.crd2idx(5i32), 3); // 5 is (1,1)
    /// assert_eq!(l.crd2idx((_3, _1)).to_string(), "_7");
    /// ```
    #[inline(always)]
    pub fn crd2idx<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> Cd::Output {
        c.crd2idx(self.shape, self.stride)
    }
    /// `layout(i)`: the index of a 1-D coordinate (same as [`Layout::crd2idx`] of an integer).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, _2):(_2, _1)).call(5i32), 3);
    /// ```
    #[inline(always)]
    pub fn call<I: Integral + Crd2Idx<S, D>>(&self, i: I) -> I::Output {
        i.crd2idx(self.shape, self.stride)
    }
    /// `idx2crd(i, shape)`: the colexicographic (hierarchical) coordinate of a 1-D coordinate.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, (_2, _2)):(_2, (_1, _8)));
    /// assert_eq!(l.idx2crd(13i32).to_string_cute(), "(1,(1,1))");
    /// assert_eq!(l.idx2crd(_0).to_string_cute(), "(_0,(_0,_0))");
    /// ```
    #[inline(always)]
    pub fn idx2crd<I: Idx2Crd<S>>(&self, i: I) -> I::Output {
        i.idx2crd(self.shape)
    }
    /// `get_hier_coord(i)`: the coordinate whose index is `i` (`(i / d) % s` at each leaf; the
    /// inverse of a compact layout).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _8):(_8, _1));
    /// assert_eq!(l.get_hier_coord(10i32).to_string_cute(), "(1,2)");
    /// ```
    #[inline(always)]
    pub fn get_hier_coord<I: HierCoord<S, D>>(&self, i: I) -> I::Output {
        i.hier_coord(self.shape, self.stride)
    }
    /// `get_flat_coord(i)`: one 1-D coordinate per top-level mode of the coordinate whose index
    /// is `i` (an integer for a rank-1 layout).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let thr = layout!(((_8, _2), (_4, _4)):((_1, _32), (_8, _64)));
    /// assert_eq!(thr.get_flat_coord(45i32).to_string_cute(), "(13,1)");
    /// ```
    #[inline(always)]
    pub fn get_flat_coord<I>(&self, i: I) -> <I::Output as FlatCoord<S>>::Output
    where
        I: HierCoord<S, D>,
        I::Output: FlatCoord<S>,
    {
        i.hier_coord(self.shape, self.stride).flat_coord(self.shape)
    }
    /// `layout(coord)` with `_` in the coordinate: the sub-layout of the kept modes
    /// (`slice(coord, layout)`). A static coordinate outside a static mode fails to compile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, 8i32, _2):(_1, _4, 32i32));
    /// assert_eq!(l.slice((Underscore, 3i32, Underscore)).to_string(), "(_4,_2):(_1,32)");
    /// ```
    #[inline(always)]
    pub fn slice<Cd>(
        &self,
        c: Cd,
    ) -> Layout<<Cd as SliceT<S, B1>>::Output, <Cd as SliceT<D, B1>>::Output>
    where
        Cd: SliceT<S, B1> + SliceT<D, B1> + Crd2IdxUnder<S, D> + Copy,
    {
        // the fixed part of the coordinate, for its static bounds check (the value is unused)
        let _ = c.crd2idx_under(self.shape, self.stride);
        Layout {
            shape: c.slice_t(self.shape),
            stride: c.slice_t(self.stride),
        }
    }
    /// `slice_and_offset(coord, layout)`: the sliced layout and the index of the fixed part of
    /// the coordinate.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _8, _2):(_1, _4, _32));
    /// let (s, off) = l.slice_and_offset((Underscore, 3i32, Underscore));
    /// assert_eq!((s.to_string().as_str(), off), ("(_4,_2):(_1,_32)", 12));
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn slice_and_offset<Cd>(
        &self,
        c: Cd,
    ) -> (
        Layout<<Cd as SliceT<S, B1>>::Output, <Cd as SliceT<D, B1>>::Output>,
        <Cd as Crd2IdxUnder<S, D>>::Output,
    )
    where
        Cd: SliceT<S, B1> + SliceT<D, B1> + Crd2IdxUnder<S, D> + Copy,
    {
        (self.slice(c), c.crd2idx_under(self.shape, self.stride))
    }
    /// `dice(step, layout)`: keep the modes where the step holds an integer (`X` drops a mode),
    /// as CuTe's `Step<_1, X, _1>` projections.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_128, _64, 32i32):(_1, _128, _8192));
    /// assert_eq!(l.dice((_1, X, _1)).to_string(), "(_128,32):(_1,_8192)");
    /// ```
    #[inline(always)]
    pub fn dice<P>(
        &self,
        step: P,
    ) -> Layout<<P as SliceT<S, B0>>::Output, <P as SliceT<D, B0>>::Output>
    where
        P: SliceT<S, B0> + SliceT<D, B0> + Copy,
    {
        Layout {
            shape: step.slice_t(self.shape),
            stride: step.slice_t(self.stride),
        }
    }
    /// `select` by a step (same as [`Layout::dice`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _8, _2):(_1, _4, _32));
    /// assert_eq!(l.select((X, _1, _1)).to_string(), "(_8,_2):(_4,_32)");
    /// ```
    #[inline(always)]
    pub fn select<P>(
        &self,
        step: P,
    ) -> Layout<<P as SliceT<S, B0>>::Output, <P as SliceT<D, B0>>::Output>
    where
        P: SliceT<S, B0> + SliceT<D, B0> + Copy,
    {
        self.dice(step)
    }
}

/// `cosize(layout)`: `layout(size - 1) + 1`, i.e. `1 + Σ (s - 1) · |d|` over the leaves.
pub trait Cosize<D> {
    /// The cosize's type.
    type Output: Integral;
    /// `Σ (s - 1) · |d|`.
    fn span(self, d: D) -> Self::Output;
}
impl<S: IntTuple, D> Cosize<D> for S
where
    S::Kind: CosizeK<S, D>,
{
    type Output = <S::Kind as CosizeK<S, D>>::Output;
    #[inline(always)]
    fn span(self, d: D) -> Self::Output {
        <S::Kind as CosizeK<S, D>>::f(self, d)
    }
}
/// Kind dispatch of [`Cosize`].
pub trait CosizeK<S, D> {
    /// The span's type.
    type Output: Integral;
    /// The span.
    fn f(s: S, d: D) -> Self::Output;
}
impl<S: IntSub<_1>, D: Integral + AbsInt> CosizeK<S, D> for IntK
where
    Diff<S, _1>: IntMul<D::Output>,
    Prod<Diff<S, _1>, D::Output>: Integral,
{
    type Output = Prod<Diff<S, _1>, D::Output>;
    #[inline(always)]
    fn f(s: S, d: D) -> Self::Output {
        s.int_sub(C::new()).int_mul(d.abs_int())
    }
}
impl<S: Tuple, D: Tuple> CosizeK<S, D> for TupK
where
    S::H: CosizeH<D::H>,
{
    type Output = <S::H as CosizeH<D::H>>::Output;
    #[inline(always)]
    fn f(s: S, d: D) -> Self::Output {
        s.into_h().span_h(d.into_h())
    }
}
/// [`Cosize`] over a list: `_0 + span0 + span1 + ...` (left to right).
pub trait CosizeH<D> {
    /// The span's type.
    type Output: Integral;
    /// The span.
    fn span_h(self, d: D) -> Self::Output;
}
impl CosizeH<HNil> for HNil {
    type Output = _0;
    #[inline(always)]
    fn span_h(self, _: HNil) -> _0 {
        C::new()
    }
}
impl<S0: Cosize<D0>, ST: CosizeH<DT>, D0, DT> CosizeH<HCons<D0, DT>> for HCons<S0, ST>
where
    S0::Output: IntAdd<ST::Output>,
    Sum<S0::Output, ST::Output>: Integral,
{
    type Output = Sum<S0::Output, ST::Output>;
    #[inline(always)]
    fn span_h(self, d: HCons<D0, DT>) -> Self::Output {
        self.0.span(d.0).int_add(self.1.span_h(d.1))
    }
}

/// `abs(a)`, keeping the static mark.
pub trait AbsInt: Integral {
    /// The result type.
    type Output: Integral;
    /// `|a|`.
    fn abs_int(self) -> Self::Output;
}
impl<T: typenum::Integer + typenum::Abs + 'static> AbsInt for C<T>
where
    <T as typenum::Abs>::Output: typenum::Integer + 'static,
{
    type Output = C<<T as typenum::Abs>::Output>;
    #[inline(always)]
    fn abs_int(self) -> Self::Output {
        C::new()
    }
}
macro_rules! abs_signed {
    ($($t:ty),*) => {$( impl AbsInt for $t { type Output = $t; #[inline(always)] fn abs_int(self) -> $t { self.abs() } } )*};
}
abs_signed!(i32, i64, isize);
macro_rules! abs_unsigned {
    ($($t:ty),*) => {$( impl AbsInt for $t { type Output = $t; #[inline(always)] fn abs_int(self) -> $t { self } } )*};
}
abs_unsigned!(u32, u64, usize);

impl<S: IntTuple + Cosize<D>, D: IntTuple> Layout<S, D> {
    /// `cosize(layout)`: one past the largest index.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(layout!((_4, _2):(_1, _8)).cosize().to_string(), "_12");
    /// assert_eq!(layout!((_4, 2i32):(_1, 8i32)).cosize(), 12);
    /// ```
    #[inline(always)]
    pub fn cosize(&self) -> Sum<S::Output, _1>
    where
        S::Output: IntAdd<_1>,
    {
        self.shape.span(self.stride).int_add(C::new())
    }
}

// ---------------------------------------------------------------------------------------------
// append / prepend
// ---------------------------------------------------------------------------------------------

/// The modes of an IntTuple as a list: a leaf is one mode (CuTe's `wrap`).
pub trait WrapH {
    /// The modes.
    type H;
    /// The modes.
    fn wrap_h(self) -> Self::H;
}
impl<T: IntTuple> WrapH for T
where
    T::Kind: WrapK<T>,
{
    type H = <T::Kind as WrapK<T>>::H;
    #[inline(always)]
    fn wrap_h(self) -> Self::H {
        <T::Kind as WrapK<T>>::f(self)
    }
}
/// Kind dispatch of [`WrapH`].
pub trait WrapK<T> {
    /// The modes.
    type H;
    /// The modes.
    fn f(t: T) -> Self::H;
}
impl<T> WrapK<T> for IntK {
    type H = HCons<T, HNil>;
    #[inline(always)]
    fn f(t: T) -> Self::H {
        HCons(t, HNil)
    }
}
impl<T: Tuple> WrapK<T> for TupK {
    type H = T::H;
    #[inline(always)]
    fn f(t: T) -> T::H {
        t.into_h()
    }
}

/// The type of `append(a, x)` on IntTuples: `a`'s modes (a leaf is one mode), then `x`.
pub type Appended<A, X> = <<<A as WrapH>::H as Concat<HCons<X, HNil>>>::Output as HList>::Tuple;
/// The type of `prepend(a, x)`.
pub type Prepended<A, X> = <HCons<X, <A as WrapH>::H> as HList>::Tuple;

impl<S: IntTuple + WrapH, D: IntTuple + WrapH> Layout<S, D> {
    /// `append(layout, x)`: `x` as a new last mode (a rank-1 layout becomes rank 2).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _2):(_1, _4));
    /// assert_eq!(l.append(layout!(_3:_8)).to_string(), "(_4,_2,_3):(_1,_4,_8)");
    /// assert_eq!(layout!(_4:_1).append(layout!(7i32:_4)).to_string(), "(_4,7):(_1,_4)");
    /// ```
    #[inline(always)]
    pub fn append<XS, XD>(self, x: Layout<XS, XD>) -> Layout<Appended<S, XS>, Appended<D, XD>>
    where
        S::H: Concat<HCons<XS, HNil>>,
        D::H: Concat<HCons<XD, HNil>>,
        <S::H as Concat<HCons<XS, HNil>>>::Output: HList,
        <D::H as Concat<HCons<XD, HNil>>>::Output: HList,
    {
        Layout {
            shape: self
                .shape
                .wrap_h()
                .concat(HCons(x.shape, HNil))
                .into_tuple(),
            stride: self
                .stride
                .wrap_h()
                .concat(HCons(x.stride, HNil))
                .into_tuple(),
        }
    }
    /// `prepend(layout, x)`: `x` as a new first mode.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!(_4:_1);
    /// assert_eq!(l.prepend(layout!(_2:_4)).to_string(), "(_2,_4):(_4,_1)");
    /// ```
    #[inline(always)]
    pub fn prepend<XS, XD>(self, x: Layout<XS, XD>) -> Layout<Prepended<S, XS>, Prepended<D, XD>>
    where
        HCons<XS, S::H>: HList,
        HCons<XD, D::H>: HList,
    {
        Layout {
            shape: HCons(x.shape, self.shape.wrap_h()).into_tuple(),
            stride: HCons(x.stride, self.stride.wrap_h()).into_tuple(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Static values of typed static layouts (for the value algebra in constants)
// ---------------------------------------------------------------------------------------------

/// A fully static typed IntTuple: its value as a constant of the value algebra.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not static: every leaf must be `_N` / `Int<N>`"
)]
pub trait StaticTuple: IntTuple + Default {
    /// The value ([`IntTuple::CONST`], here known to be meaningful).
    const VALUE: crate::value::int_tuple::IntTuple = <Self as IntTuple>::CONST;
}
impl<T: typenum::Integer + 'static> StaticTuple for C<T> {}
macro_rules! static_tuples {
    ($(($($n:ident)+))*) => {$(
        impl<$($n: StaticTuple),+> StaticTuple for ($($n,)+) {}
    )*};
}
static_tuples! {
    (A)
    (A B)
    (A B C2)
    (A B C2 D)
    (A B C2 D E)
    (A B C2 D E F)
}
/// A fully static typed layout (every shape and stride leaf a `_N`): a zero-sized type whose value
/// is a constant of the value algebra, with its size, cosize and rank as associated constants.
/// The static checks of [`crate::check`] take the typed configuration of a kernel through it:
///
/// ```
/// use layout_types::check::BankConflictFree;
/// use layout_types::prelude::*;
/// use layout_types::value::swizzle::Swizzle;
/// type Thr = Layout<(_16, _16), (_16, _1)>;
/// type Val = Layout<(_1, _4), (_0, _1)>;
/// type Tile = Layout<(_64, _64), (_64, _1)>;
/// const _: () = BankConflictFree::<Tile, Swizzle<3, 2, 6>, Thr, Val, f32, 4>::CHECK;
/// const SIZE: i64 = <ZippedDivide<(_64, _64), (_64, _1), (_8, _16)> as StaticLayoutValue>::SIZE;
/// assert_eq!(SIZE, 4096);
/// assert_eq!(<Tile as StaticLayoutValue>::LAYOUT.to_string(), "(_64,_64):(_64,_1)");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static layout",
    label = "every shape and stride leaf must be a static `_N` (`Int<N>`)"
)]
pub trait StaticLayoutValue: Copy + Default {
    /// The layout.
    const LAYOUT: DynLayout;
    /// `size(layout)`.
    const SIZE: i64 = Self::LAYOUT.size().v;
    /// `cosize(layout)`.
    const COSIZE: i64 = Self::LAYOUT.cosize().v;
    /// `rank(layout)`.
    const RANK: usize = Self::LAYOUT.rank();
}
impl<S: StaticTuple, D: StaticTuple> StaticLayoutValue for Layout<S, D> {
    const LAYOUT: DynLayout = match DynLayout::new(S::VALUE, D::VALUE) {
        Ok(l) => l,
        Err(e) => e.panic(),
    };
}
