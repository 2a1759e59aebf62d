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
use super::static_result::static_call;
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
