//! `coalesce(layout)` on typed layouts: the same function with as few modes as the *static*
//! values prove possible (C++ CuTe merges two modes only when `s0 · d0 == d1` holds for static
//! values, drops static `_1` modes, and never decides on a dynamic value). The decisions are
//! type-level (typenum comparisons), so the result's type follows from the argument's.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! assert_eq!(coalesce(layout!((_2, (_1, _6)):(_1, (_6, _2)))).to_string(), "_12:_1");
//! let k = 8i64;
//! assert_eq!(coalesce(layout!((_4, k):(_1, _4))).to_string(), "(_4,8):(_1,_4)");   // not provable
//! assert_eq!(coalesce(layout!((_1, _1):(_4, _8))).to_string(), "_1:_0");
//! ```

use super::consts::{_0, _1};
use super::int::*;
use super::layout::*;
use super::static_call::static_call;
use super::tuple::*;
use typenum::{B0, B1, Bit, IsEqual};

/// The leaves of a layout as a list of `(shape, stride)` pairs (CuTe's `flatten`).
pub trait FlatPairs<D> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn flat_pairs(self, d: D) -> Self::Output;
}
impl<S: IntTuple, D> FlatPairs<D> for S
where
    S::Kind: FlatPairsK<S, D>,
{
    type Output = <S::Kind as FlatPairsK<S, D>>::Output;
    #[inline(always)]
    fn flat_pairs(self, d: D) -> Self::Output {
        <S::Kind as FlatPairsK<S, D>>::f(self, d)
    }
}
/// Kind dispatch of [`FlatPairs`].
pub trait FlatPairsK<S, D> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn f(s: S, d: D) -> Self::Output;
}
impl<S, D> FlatPairsK<S, D> for IntK {
    type Output = HCons<(S, D), HNil>;
    #[inline(always)]
    fn f(s: S, d: D) -> Self::Output {
        HCons((s, d), HNil)
    }
}
impl<S: Tuple, D: Tuple> FlatPairsK<S, D> for TupK
where
    S::H: FlatPairsH<D::H>,
{
    type Output = <S::H as FlatPairsH<D::H>>::Output;
    #[inline(always)]
    fn f(s: S, d: D) -> Self::Output {
        s.into_h().flat_pairs_h(d.into_h())
    }
}
/// [`FlatPairs`] over a list of modes, concatenated.
pub trait FlatPairsH<D> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn flat_pairs_h(self, d: D) -> Self::Output;
}
impl FlatPairsH<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn flat_pairs_h(self, _: HNil) -> HNil {
        HNil
    }
}
impl<S0: FlatPairs<D0>, ST: FlatPairsH<DT>, D0, DT> FlatPairsH<HCons<D0, DT>> for HCons<S0, ST>
where
    S0::Output: Concat<ST::Output>,
{
    type Output = <S0::Output as Concat<ST::Output>>::Output;
    #[inline(always)]
    fn flat_pairs_h(self, d: HCons<D0, DT>) -> Self::Output {
        self.0.flat_pairs(d.0).concat(self.1.flat_pairs_h(d.1))
    }
}

/// Whether a typed integer is static (`B1`) or dynamic (`B0`).
pub trait StaticBit {
    /// The bit.
    type B: Bit;
}
impl<T> StaticBit for C<T> {
    type B = B1;
}
macro_rules! dyn_static_bit {
    ($($t:ty),*) => {$( impl StaticBit for $t { type B = B0; } )*};
}
dyn_static_bit!(i32, i64, u32, u64, usize, isize);

/// `a == b` decided on static values only: `B1` when both are static and equal.
pub trait StaticEq<B> {
    /// The bit.
    type Eq: Bit;
}
impl<A: IsEqual<B>, B> StaticEq<C<B>> for C<A>
where
    <A as IsEqual<B>>::Output: Bit,
{
    type Eq = <A as IsEqual<B>>::Output;
}
macro_rules! dyn_static_eq {
    ($($t:ty),*) => {$(
        impl<A> StaticEq<$t> for C<A> { type Eq = B0; }
        impl<B> StaticEq<C<B>> for $t { type Eq = B0; }
        impl<B: DynInt> StaticEq<B> for $t { type Eq = B0; }
    )*};
}
dyn_static_eq!(i32, i64, u32, u64, usize, isize);

/// One step of CuTe's back-to-front coalescing: mode `(s, d)` in front of the modes coalesced so
/// far (`State`, front mode first).
pub trait BwStep<State> {
    /// The new state.
    type Output;
    /// The new state.
    fn step(self, st: State) -> Self::Output;
}
impl<S: IntFacts, D, State> BwStep<State> for (S, D)
where
    S::IsOne: BwSkip<(S, D), State>,
{
    type Output = <S::IsOne as BwSkip<(S, D), State>>::Output;
    #[inline(always)]
    fn step(self, st: State) -> Self::Output {
        <S::IsOne as BwSkip<(S, D), State>>::f(self, st)
    }
}
/// A static `_1` mode is skipped.
pub trait BwSkip<M, State> {
    /// The new state.
    type Output;
    /// The new state.
    fn f(m: M, st: State) -> Self::Output;
}
impl<M, State> BwSkip<M, State> for B1 {
    type Output = State;
    #[inline(always)]
    fn f(_: M, st: State) -> State {
        st
    }
}
impl<S, D, S0: IntFacts, D0, T> BwSkip<(S, D), HCons<(S0, D0), T>> for B0
where
    (S0::IsOne, T): BwReplace<(S, D), HCons<(S0, D0), T>>,
{
    type Output = <(S0::IsOne, T) as BwReplace<(S, D), HCons<(S0, D0), T>>>::Output;
    #[inline(always)]
    fn f(m: (S, D), st: HCons<(S0, D0), T>) -> Self::Output {
        <(S0::IsOne, T) as BwReplace<(S, D), HCons<(S0, D0), T>>>::f(m, st)
    }
}
/// A single trivial `_1` mode so far is replaced; otherwise merge or push.
pub trait BwReplace<M, State> {
    /// The new state.
    type Output;
    /// The new state.
    fn f(m: M, st: State) -> Self::Output;
}
impl<S, D, S0, D0> BwReplace<(S, D), HCons<(S0, D0), HNil>> for (B1, HNil) {
    type Output = HCons<(S, D), HNil>;
    #[inline(always)]
    fn f(m: (S, D), _: HCons<(S0, D0), HNil>) -> Self::Output {
        HCons(m, HNil)
    }
}
impl<S, D, S0, D0, T> BwReplace<(S, D), HCons<(S0, D0), T>> for (B0, T)
where
    (S, D): BwMerge<HCons<(S0, D0), T>>,
{
    type Output = <(S, D) as BwMerge<HCons<(S0, D0), T>>>::Output;
    #[inline(always)]
    fn f(m: (S, D), st: HCons<(S0, D0), T>) -> Self::Output {
        m.merge(st)
    }
}
impl<S, D, S0, D0, X, Y> BwReplace<(S, D), HCons<(S0, D0), HCons<X, Y>>> for (B1, HCons<X, Y>)
where
    (S, D): BwMerge<HCons<(S0, D0), HCons<X, Y>>>,
{
    type Output = <(S, D) as BwMerge<HCons<(S0, D0), HCons<X, Y>>>>::Output;
    #[inline(always)]
    fn f(m: (S, D), st: HCons<(S0, D0), HCons<X, Y>>) -> Self::Output {
        m.merge(st)
    }
}
/// Merge `(s, d)` into the front mode `(s0, d0)` when `s · d == d0` and `s0` is static, else push.
pub trait BwMerge<State> {
    /// The new state.
    type Output;
    /// The new state.
    fn merge(self, st: State) -> Self::Output;
}
impl<S: IntMul<D> + Copy, D: Copy, S0: StaticBit, D0, T> BwMerge<HCons<(S0, D0), T>> for (S, D)
where
    Prod<S, D>: StaticEq<D0>,
    <S0 as StaticBit>::B: core::ops::BitAnd<<Prod<S, D> as StaticEq<D0>>::Eq>,
    <<S0 as StaticBit>::B as core::ops::BitAnd<<Prod<S, D> as StaticEq<D0>>::Eq>>::Output:
        MergeOrPush<(S, D), HCons<(S0, D0), T>>,
{
    type Output = <<<S0 as StaticBit>::B as core::ops::BitAnd<<Prod<S, D> as StaticEq<D0>>::Eq>>::Output as MergeOrPush<
        (S, D),
        HCons<(S0, D0), T>,
    >>::Output;
    #[inline(always)]
    fn merge(self, st: HCons<(S0, D0), T>) -> Self::Output {
        <<<S0 as StaticBit>::B as core::ops::BitAnd<<Prod<S, D> as StaticEq<D0>>::Eq>>::Output as MergeOrPush<
            (S, D),
            HCons<(S0, D0), T>,
        >>::f(self, st)
    }
}
/// The merge (`B1`) or the push (`B0`).
pub trait MergeOrPush<M, State> {
    /// The new state.
    type Output;
    /// The new state.
    fn f(m: M, st: State) -> Self::Output;
}
impl<S: IntMul<S0>, D, S0, D0, T> MergeOrPush<(S, D), HCons<(S0, D0), T>> for B1 {
    type Output = HCons<(Prod<S, S0>, D), T>;
    #[inline(always)]
    fn f(m: (S, D), st: HCons<(S0, D0), T>) -> Self::Output {
        HCons((m.0.int_mul(st.0.0), m.1), st.1)
    }
}
impl<M, State> MergeOrPush<M, State> for B0 {
    type Output = HCons<M, State>;
    #[inline(always)]
    fn f(m: M, st: State) -> Self::Output {
        HCons(m, st)
    }
}

/// Back-to-front coalescing of a list of leaf pairs: the last pair starts the state.
pub trait BwCoalesce {
    /// The coalesced modes, front first.
    type Output;
    /// The coalesced modes.
    fn bw(self) -> Self::Output;
}
impl<P> BwCoalesce for HCons<P, HNil> {
    type Output = HCons<P, HNil>;
    #[inline(always)]
    fn bw(self) -> Self::Output {
        self
    }
}
impl<P: BwStep<<HCons<Q, T> as BwCoalesce>::Output>, Q, T> BwCoalesce for HCons<P, HCons<Q, T>>
where
    HCons<Q, T>: BwCoalesce,
{
    type Output = P::Output;
    #[inline(always)]
    fn bw(self) -> Self::Output {
        self.0.step(self.1.bw())
    }
}

/// The coalesced modes as a layout: one mode is a leaf layout (`_1:_0` for a static `_1`),
/// several a tuple layout.
pub trait ToLayout {
    /// The layout.
    type Output;
    /// The layout.
    fn to_layout(self) -> Self::Output;
}
impl<S: IntFacts, D> ToLayout for HCons<(S, D), HNil>
where
    S::IsOne: SingleMode<S, D>,
{
    type Output = <S::IsOne as SingleMode<S, D>>::Output;
    #[inline(always)]
    fn to_layout(self) -> Self::Output {
        <S::IsOne as SingleMode<S, D>>::f(self.0)
    }
}
impl<P, Q, T> ToLayout for HCons<P, HCons<Q, T>>
where
    HCons<P, HCons<Q, T>>: Unzip,
    <<HCons<P, HCons<Q, T>> as Unzip>::A as HList>::Tuple: IntTuple,
    <<HCons<P, HCons<Q, T>> as Unzip>::B as HList>::Tuple: IntTuple,
{
    type Output = Layout<
        <<HCons<P, HCons<Q, T>> as Unzip>::A as HList>::Tuple,
        <<HCons<P, HCons<Q, T>> as Unzip>::B as HList>::Tuple,
    >;
    #[inline(always)]
    fn to_layout(self) -> Self::Output {
        let (a, b) = self.unzip();
        Layout {
            shape: a.into_tuple(),
            stride: b.into_tuple(),
        }
    }
}
/// A single coalesced mode.
pub trait SingleMode<S, D> {
    /// The layout.
    type Output;
    /// The layout.
    fn f(m: (S, D)) -> Self::Output;
}
impl<S, D> SingleMode<S, D> for B1 {
    type Output = Layout<_1, _0>;
    #[inline(always)]
    fn f(_: (S, D)) -> Self::Output {
        Layout {
            shape: C::new(),
            stride: C::new(),
        }
    }
}
impl<S, D> SingleMode<S, D> for B0 {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn f(m: (S, D)) -> Self::Output {
        Layout {
            shape: m.0,
            stride: m.1,
        }
    }
}
/// A list of pairs as two lists.
pub trait Unzip {
    /// The first elements.
    type A: HList;
    /// The second elements.
    type B: HList;
    /// The two lists.
    fn unzip(self) -> (Self::A, Self::B);
}
impl Unzip for HNil {
    type A = HNil;
    type B = HNil;
    #[inline(always)]
    fn unzip(self) -> (HNil, HNil) {
        (HNil, HNil)
    }
}
impl<X, Y, T: Unzip> Unzip for HCons<(X, Y), T>
where
    HCons<X, T::A>: HList,
    HCons<Y, T::B>: HList,
{
    type A = HCons<X, T::A>;
    type B = HCons<Y, T::B>;
    #[inline(always)]
    fn unzip(self) -> (Self::A, Self::B) {
        let (a, b) = self.1.unzip();
        (HCons(self.0.0, a), HCons(self.0.1, b))
    }
}

/// The result type of [`coalesce`].
pub type Coalesce<S, D> = <<<S as FlatPairs<D>>::Output as BwCoalesce>::Output as ToLayout>::Output;

/// `coalesce(layout)`: the same function with the fewest modes static values can prove (depth at
/// most 1).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(coalesce(layout!(((_2, _4), _8):((_1, _2), _8))).to_string(), "_64:_1");
/// assert_eq!(coalesce(layout!((_4, _1, _8):(_1, _0, _8))).to_string(), "(_4,_8):(_1,_8)");
/// ```
#[inline(always)]
pub fn coalesce<S: IntTuple + FlatPairs<D>, D: IntTuple>(l: Layout<S, D>) -> Coalesce<S, D>
where
    S::Output: BwCoalesce,
    <S::Output as BwCoalesce>::Output: ToLayout,
{
    static_call!(
        int: [S, D],
        tiler: [],
        check: Ok::<(), crate::Error>(()),
        {
            l.shape.flat_pairs(l.stride).bw().to_layout()
        }
    )
}

/// `coalesce(layout, profile)` (CuTe's two-argument `coalesce`): each mode of `layout` at a
/// terminal of `profile` (a `Step`-like tuple, e.g. `(_1, _1)`) coalesced on its own, so the
/// result keeps the profile's modes; an integer profile coalesces the whole layout; the modes
/// beyond a tuple profile are kept as they are. A tuple profile with more modes than the layout,
/// or a tuple profile mode over a leaf mode, is a compile error (CuTe's `static_assert`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((_2, (_1, _6)):(_1, (_6, _2)));
/// assert_eq!(coalesce_by(l, (_1, _1)).to_string(), "(_2,_6):(_1,_2)");   // not `_12:_1`
/// assert_eq!(coalesce_by(l, _1).to_string(), "_12:_1");
/// // a partition's (V, M, N) modes simplified without merging them
/// let p = layout!(((_2, _2), (_4, _1), _8):((_1, _2), (_4, _0), _16));
/// assert_eq!(coalesce_by(p, (_1, _1, _1)).to_string(), "(_4,_4,_8):(_1,_4,_16)");
/// ```
#[inline(always)]
pub fn coalesce_by<L: CoalesceBy<P>, P>(l: L, profile: P) -> L::Output {
    l.coalesce_by(profile)
}

/// `coalesce(self, profile)` (see [`coalesce_by`]).
#[diagnostic::on_unimplemented(
    message = "coalesce: `{P}` is not a profile of `{Self}` (CuTe's static_assert: a tuple profile has at most as many modes as the layout, and a tuple profile mode needs a tuple layout mode)"
)]
pub trait CoalesceBy<P> {
    /// The coalesced layout.
    type Output: Copy;
    /// The coalesced layout.
    fn coalesce_by(self, p: P) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, P: IntTuple> CoalesceBy<P> for Layout<S, D>
where
    P::Kind: CoalesceByK<S, D, P>,
{
    type Output = <P::Kind as CoalesceByK<S, D, P>>::Output;
    #[inline(always)]
    fn coalesce_by(self, p: P) -> Self::Output {
        <P::Kind as CoalesceByK<S, D, P>>::f(self, p)
    }
}
/// Dispatch of [`CoalesceBy`] on the profile's kind.
pub trait CoalesceByK<S, D, P> {
    /// The coalesced layout.
    type Output: Copy;
    /// The coalesced layout.
    fn f(l: Layout<S, D>, p: P) -> Self::Output;
}
impl<S: IntTuple + FlatPairs<D>, D: IntTuple, P> CoalesceByK<S, D, P> for IntK
where
    S::Output: BwCoalesce,
    <S::Output as BwCoalesce>::Output: ToLayout,
    Coalesce<S, D>: Copy,
{
    type Output = Coalesce<S, D>;
    #[inline(always)]
    fn f(l: Layout<S, D>, _: P) -> Self::Output {
        coalesce(l)
    }
}
impl<S: Tuple, D: Tuple, P: Tuple> CoalesceByK<S, D, P> for TupK
where
    S::H: CoalModesH<D::H, P::H>,
    <<S::H as CoalModesH<D::H, P::H>>::S as HList>::Tuple: Copy,
    <<S::H as CoalModesH<D::H, P::H>>::D as HList>::Tuple: Copy,
{
    type Output = Layout<
        <<S::H as CoalModesH<D::H, P::H>>::S as HList>::Tuple,
        <<S::H as CoalModesH<D::H, P::H>>::D as HList>::Tuple,
    >;
    #[inline(always)]
    fn f(l: Layout<S, D>, p: P) -> Self::Output {
        let (s, d) = l.shape.into_h().coal_modes(l.stride.into_h(), p.into_h());
        Layout {
            shape: s.into_tuple(),
            stride: d.into_tuple(),
        }
    }
}
/// [`CoalesceBy`] over the mode lists (shapes `Self`, strides `D`, profile `P`): the modes beyond
/// the profile kept.
#[diagnostic::on_unimplemented(
    message = "coalesce: the profile has more modes than the layout (CuTe's static_assert; profile modes left over: `{P}`)"
)]
pub trait CoalModesH<D, P> {
    /// The shapes of the modes.
    type S: HList;
    /// The strides of the modes.
    type D: HList;
    /// The modes.
    fn coal_modes(self, d: D, p: P) -> (Self::S, Self::D);
}
impl<S: HList, D: HList> CoalModesH<D, HNil> for S {
    type S = S;
    type D = D;
    #[inline(always)]
    fn coal_modes(self, d: D, _: HNil) -> (S, D) {
        (self, d)
    }
}
impl<S0, ST, D0, DT, P0, PT> CoalModesH<HCons<D0, DT>, HCons<P0, PT>> for HCons<S0, ST>
where
    Layout<S0, D0>: CoalesceBy<P0>,
    <Layout<S0, D0> as CoalesceBy<P0>>::Output: super::layout::LayoutParts,
    ST: CoalModesH<DT, PT>,
    HCons<<<Layout<S0, D0> as CoalesceBy<P0>>::Output as super::layout::LayoutParts>::S, ST::S>:
        HList,
    HCons<<<Layout<S0, D0> as CoalesceBy<P0>>::Output as super::layout::LayoutParts>::D, ST::D>:
        HList,
{
    type S =
        HCons<<<Layout<S0, D0> as CoalesceBy<P0>>::Output as super::layout::LayoutParts>::S, ST::S>;
    type D =
        HCons<<<Layout<S0, D0> as CoalesceBy<P0>>::Output as super::layout::LayoutParts>::D, ST::D>;
    #[inline(always)]
    fn coal_modes(self, d: HCons<D0, DT>, p: HCons<P0, PT>) -> (Self::S, Self::D) {
        use super::layout::LayoutParts;
        let (s0, d0) = Layout {
            shape: self.0,
            stride: d.0,
        }
        .coalesce_by(p.0)
        .parts();
        let (st, dt) = self.1.coal_modes(d.1, p.1);
        (HCons(s0, st), HCons(d0, dt))
    }
}

/// CuTe's `filter_zeros(layout)`: every mode with a static `_0` stride gets the extent `_1` (a
/// dynamic zero stride is not provable, as in CuTe); same profile as the layout.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(filter_zeros(layout!((_4, (_2, 3i64)):(_1, (_0, _0)))).to_string(), "(_4,(_1,_1)):(_1,(_0,_0))");
/// ```
#[inline(always)]
pub fn filter_zeros<S: FilterZeros<D>, D: Copy>(l: Layout<S, D>) -> Layout<S::Output, D> {
    Layout {
        shape: l.shape.filter_zeros(l.stride),
        stride: l.stride,
    }
}

/// The shape of [`filter_zeros`]: `_1` where the stride is the static `_0`.
pub trait FilterZeros<D> {
    /// The shape.
    type Output: IntTuple;
    /// The shape.
    fn filter_zeros(self, d: D) -> Self::Output;
}
impl<S: IntTuple, D> FilterZeros<D> for S
where
    S::Kind: FilterZerosK<S, D>,
{
    type Output = <S::Kind as FilterZerosK<S, D>>::Output;
    #[inline(always)]
    fn filter_zeros(self, d: D) -> Self::Output {
        <S::Kind as FilterZerosK<S, D>>::f(self, d)
    }
}
/// Kind dispatch of [`FilterZeros`].
pub trait FilterZerosK<S, D> {
    /// The shape.
    type Output: IntTuple;
    /// The shape.
    fn f(s: S, d: D) -> Self::Output;
}
impl<S, D: IntFacts> FilterZerosK<S, D> for IntK
where
    D::IsZero: ZeroExtent<S>,
{
    type Output = <D::IsZero as ZeroExtent<S>>::Output;
    #[inline(always)]
    fn f(s: S, _: D) -> Self::Output {
        <D::IsZero as ZeroExtent<S>>::f(s)
    }
}
/// The extent of one leaf of [`filter_zeros`]: `_1` for a static zero stride (`B1`).
pub trait ZeroExtent<S> {
    /// The extent.
    type Output: IntTuple;
    /// The extent.
    fn f(s: S) -> Self::Output;
}
impl<S> ZeroExtent<S> for B1 {
    type Output = _1;
    #[inline(always)]
    fn f(_: S) -> _1 {
        C::new()
    }
}
impl<S: IntTuple> ZeroExtent<S> for B0 {
    type Output = S;
    #[inline(always)]
    fn f(s: S) -> S {
        s
    }
}
impl<S: Tuple, D: Tuple> FilterZerosK<S, D> for TupK
where
    S::H: FilterZerosH<D::H>,
    <<S::H as FilterZerosH<D::H>>::Output as HList>::Tuple: IntTuple,
{
    type Output = <<S::H as FilterZerosH<D::H>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(s: S, d: D) -> Self::Output {
        s.into_h().filter_zeros_h(d.into_h()).into_tuple()
    }
}
/// [`FilterZeros`] over a list of modes.
pub trait FilterZerosH<D> {
    /// The shapes.
    type Output: HList;
    /// The shapes.
    fn filter_zeros_h(self, d: D) -> Self::Output;
}
impl FilterZerosH<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn filter_zeros_h(self, _: HNil) -> HNil {
        HNil
    }
}
impl<S0: FilterZeros<D0>, ST: FilterZerosH<DT>, D0, DT> FilterZerosH<HCons<D0, DT>>
    for HCons<S0, ST>
where
    HCons<S0::Output, ST::Output>: HList,
{
    type Output = HCons<S0::Output, ST::Output>;
    #[inline(always)]
    fn filter_zeros_h(self, d: HCons<D0, DT>) -> Self::Output {
        HCons(self.0.filter_zeros(d.0), self.1.filter_zeros_h(d.1))
    }
}

/// The result type of [`filter`].
pub type Filter<S, D> = Coalesce<<S as FilterZeros<D>>::Output, D>;

/// CuTe's `filter(layout)`: `coalesce(filter_zeros(layout))`, the layout without its static
/// stride-0 and size-1 modes (the same image, each offset once where the static values prove it).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(filter(layout!(((_2, _3), _4):((_1, _0), _2))).to_string(), "_8:_1");
/// let n = 4i64;
/// assert_eq!(filter(layout!((n, 6i64, 1i64):(_4, _32, _0))).to_string(), "(4,6):(_4,_32)");
/// ```
#[inline(always)]
pub fn filter<S: FilterZeros<D>, D: IntTuple>(l: Layout<S, D>) -> Filter<S, D>
where
    <S::Output as FlatPairs<D>>::Output: BwCoalesce,
    S::Output: FlatPairs<D>,
    <<S::Output as FlatPairs<D>>::Output as BwCoalesce>::Output: ToLayout,
{
    coalesce(filter_zeros(l))
}
