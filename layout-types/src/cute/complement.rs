//! `complement(layout, cotarget)` on typed layouts: the layout of the offsets below `cotarget`
//! that `layout` does not reach, ordered so that `(layout, complement)` is injective (CuTe's
//! algorithm in `layout.hpp`: `filter` the layout, take its modes by increasing stride, each
//! complement mode spanning the gap `stride / (shape · stride of the previous mode)`, then the
//! rest up to `cotarget`, coalesced).
//!
//! CuTe sorts the modes by their *static* strides, so a layout of more than one mode (after
//! filtering) needs static strides; a single mode may have a dynamic stride. Both rules are
//! enforced at compile time: a static non-injective layout fails with CuTe's condition and the
//! values, a dynamic stride in a multi-mode layout with CuTe's message. Shapes and the cotarget
//! may be dynamic (the result is then dynamic where CuTe's is).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let a = layout!((_4, _2):(_1, _16));
//! assert_eq!(complement(a, _64).to_string(), "(_4,_2):(_4,_32)");
//! // dynamic shapes: the gaps above them are dynamic
//! let m = 8i64;
//! assert_eq!(complement(layout!((m, _4):(_1, _32)), _256).to_string(), "(4,_2):(8,_128)");
//! ```

use super::coalesce::*;
use super::consts::_1;
use super::int::*;
use super::layout::*;
use super::static_call::{static_call, value_of};
use super::tuple::*;
use core::ops::{BitAnd, BitOr};
use typenum::{B0, B1, Bit, IsLess};

// ---------------------------------------------------------------------------------------------
// filter
// ---------------------------------------------------------------------------------------------

/// CuTe's `filter_zeros` on a list of leaf pairs: a mode with the static stride `_0` gets the
/// shape `_1` (and is then dropped by coalescing).
pub trait FilterZerosH {
    /// The pairs.
    type Output;
    /// The pairs.
    fn filter_zeros_h(self) -> Self::Output;
}
impl FilterZerosH for HNil {
    type Output = HNil;
    #[inline(always)]
    fn filter_zeros_h(self) -> HNil {
        HNil
    }
}
impl<S, D: IntFacts, T: FilterZerosH> FilterZerosH for HCons<(S, D), T>
where
    D::IsZero: ZeroShape<S>,
{
    type Output = HCons<(<D::IsZero as ZeroShape<S>>::Output, D), T::Output>;
    #[inline(always)]
    fn filter_zeros_h(self) -> Self::Output {
        let (s, d) = self.0;
        HCons(
            (<D::IsZero as ZeroShape<S>>::f(s), d),
            self.1.filter_zeros_h(),
        )
    }
}
/// The shape of a filtered mode: `_1` for a static zero stride (`B1`).
pub trait ZeroShape<S> {
    /// The shape.
    type Output;
    /// The shape.
    fn f(s: S) -> Self::Output;
}
impl<S> ZeroShape<S> for B1 {
    type Output = _1;
    #[inline(always)]
    fn f(_: S) -> _1 {
        C::new()
    }
}
impl<S> ZeroShape<S> for B0 {
    type Output = S;
    #[inline(always)]
    fn f(s: S) -> S {
        s
    }
}

/// The modes of CuTe's `filter(layout)` (`coalesce(filter_zeros(layout))`) as a list of leaf
/// pairs: a single `(_1, d)` pair stands for the trivial `_1:_0`.
pub type Filtered<S, D> =
    <<<S as FlatPairs<D>>::Output as FilterZerosH>::Output as BwCoalesce>::Output;

// ---------------------------------------------------------------------------------------------
// sorting the modes by stride (type level)
// ---------------------------------------------------------------------------------------------

/// `a < b` decided on static values only: `B1` when both are static and `a < b`.
pub trait StaticLt<B> {
    /// The bit.
    type Lt: Bit;
}
impl<A: IsLess<B>, B> StaticLt<C<B>> for C<A>
where
    <A as IsLess<B>>::Output: Bit,
{
    type Lt = <A as IsLess<B>>::Output;
}
macro_rules! dyn_static_lt {
    ($($t:ty),*) => {$(
        impl<A> StaticLt<$t> for C<A> { type Lt = B0; }
        impl<B> StaticLt<C<B>> for $t { type Lt = B0; }
        impl<B: DynInt> StaticLt<B> for $t { type Lt = B0; }
    )*};
}
dyn_static_lt!(i32, i64, u32, u64, usize, isize);

/// Whether the mode `Self` comes strictly before the mode `P` in CuTe's order: the smaller
/// stride, on equal strides the smaller shape (static values only; otherwise the first mode).
pub trait Before<P> {
    /// The bit.
    type B: Bit;
}
type Or<A, B> = <A as BitOr<B>>::Output;
type And<A, B> = <A as BitAnd<B>>::Output;
impl<SQ, DQ, SP, DP> Before<(SP, DP)> for (SQ, DQ)
where
    DQ: StaticLt<DP> + StaticEq<DP>,
    SQ: StaticLt<SP>,
    <DQ as StaticEq<DP>>::Eq: BitAnd<<SQ as StaticLt<SP>>::Lt>,
    <DQ as StaticLt<DP>>::Lt: BitOr<And<<DQ as StaticEq<DP>>::Eq, <SQ as StaticLt<SP>>::Lt>>,
    Or<<DQ as StaticLt<DP>>::Lt, And<<DQ as StaticEq<DP>>::Eq, <SQ as StaticLt<SP>>::Lt>>: Bit,
{
    type B = Or<<DQ as StaticLt<DP>>::Lt, And<<DQ as StaticEq<DP>>::Eq, <SQ as StaticLt<SP>>::Lt>>;
}

/// Inserts the mode `P` into a sorted list, before the first mode that does not come strictly
/// before it (so equal modes keep their order).
pub trait InsertSorted<P> {
    /// The list.
    type Output;
    /// The list.
    fn insert_sorted(self, p: P) -> Self::Output;
}
impl<P> InsertSorted<P> for HNil {
    type Output = HCons<P, HNil>;
    #[inline(always)]
    fn insert_sorted(self, p: P) -> Self::Output {
        HCons(p, HNil)
    }
}
impl<P, Q: Before<P>, T> InsertSorted<P> for HCons<Q, T>
where
    Q::B: InsertK<P, Q, T>,
{
    type Output = <Q::B as InsertK<P, Q, T>>::Output;
    #[inline(always)]
    fn insert_sorted(self, p: P) -> Self::Output {
        <Q::B as InsertK<P, Q, T>>::f(p, self.0, self.1)
    }
}
/// The step of [`InsertSorted`]: go on past `Q` (`B1`) or put `P` here (`B0`).
pub trait InsertK<P, Q, T> {
    /// The list.
    type Output;
    /// The list.
    fn f(p: P, q: Q, t: T) -> Self::Output;
}
impl<P, Q, T: InsertSorted<P>> InsertK<P, Q, T> for B1 {
    type Output = HCons<Q, T::Output>;
    #[inline(always)]
    fn f(p: P, q: Q, t: T) -> Self::Output {
        HCons(q, t.insert_sorted(p))
    }
}
impl<P, Q, T> InsertK<P, Q, T> for B0 {
    type Output = HCons<P, HCons<Q, T>>;
    #[inline(always)]
    fn f(p: P, q: Q, t: T) -> Self::Output {
        HCons(p, HCons(q, t))
    }
}
/// A stable insertion sort of leaf pairs by [`Before`].
pub trait SortModes {
    /// The sorted list.
    type Output;
    /// The sorted list.
    fn sort_modes(self) -> Self::Output;
}
impl SortModes for HNil {
    type Output = HNil;
    #[inline(always)]
    fn sort_modes(self) -> HNil {
        HNil
    }
}
impl<P, T: SortModes> SortModes for HCons<P, T>
where
    T::Output: InsertSorted<P>,
{
    type Output = <T::Output as InsertSorted<P>>::Output;
    #[inline(always)]
    fn sort_modes(self) -> Self::Output {
        self.1.sort_modes().insert_sorted(self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// the fold
// ---------------------------------------------------------------------------------------------

/// Facts about a list of leaf pairs, for compile-time checks: the number of modes and whether
/// every stride is static.
pub trait PairsInfo {
    /// The number of pairs.
    const LEN: usize;
    /// Whether every stride is static.
    const STATIC_STRIDES: bool;
}
impl PairsInfo for HNil {
    const LEN: usize = 0;
    const STATIC_STRIDES: bool = true;
}
impl<S, D: Integral, T: PairsInfo> PairsInfo for HCons<(S, D), T> {
    const LEN: usize = 1 + T::LEN;
    const STATIC_STRIDES: bool = D::IS_STATIC && T::STATIC_STRIDES;
}

/// CuTe's fold over the sorted modes: each mode `(s, d)` gives the complement mode
/// `(d / prev, prev)` and the next `prev = s · d`; after the last one the rest
/// `(ceil_div(cotarget, prev), prev)`. The complement's pairs, before coalescing.
pub trait ComplementFold<Prev, Cot> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn fold(self, prev: Prev, cot: Cot) -> Self::Output;
}
impl<S, D, Prev, Cot> ComplementFold<Prev, Cot> for HCons<(S, D), HNil>
where
    D: Integral + IntDiv<Prev> + IntMul<S>,
    S: Copy,
    Prev: Integral,
    Cot: CotRest<Prod<D, S>, (Quot<D, Prev>, Prev)>,
{
    type Output = <Cot as CotRest<Prod<D, S>, (Quot<D, Prev>, Prev)>>::Output;
    #[inline(always)]
    fn fold(self, prev: Prev, cot: Cot) -> Self::Output {
        non_injective_check::<D, Prev>();
        let (s, d) = self.0;
        cot.rest(d.int_mul(s), (d.int_div(prev), prev))
    }
}
impl<S, D, Q, T, Prev, Cot> ComplementFold<Prev, Cot> for HCons<(S, D), HCons<Q, T>>
where
    D: Integral + IntDiv<Prev> + IntMul<S>,
    S: Copy,
    Prev: Integral,
    HCons<Q, T>: ComplementFold<Prod<D, S>, Cot>,
{
    type Output =
        HCons<(Quot<D, Prev>, Prev), <HCons<Q, T> as ComplementFold<Prod<D, S>, Cot>>::Output>;
    #[inline(always)]
    fn fold(self, prev: Prev, cot: Cot) -> Self::Output {
        non_injective_check::<D, Prev>();
        let (s, d) = self.0;
        HCons((d.int_div(prev), prev), self.1.fold(d.int_mul(s), cot))
    }
}

/// CuTe's `static_assert(not is_constant<0, decltype(new_shape)>)`: the mode with stride `d`
/// starts inside the span `prev` of the modes below it.
#[inline(always)]
fn non_injective_check<D: Integral, Prev: Integral>() {
    const {
        if D::IS_STATIC && Prev::IS_STATIC {
            let (d, prev) = (D::STATIC_VALUE, Prev::STATIC_VALUE);
            if prev != 0 && d / prev == 0 {
                crate::Error::with2(
                    "Non-injective Layout detected in complement: a mode with stride {} overlaps the modes below it, which already span {} elements",
                    d,
                    prev,
                )
                .panic()
            }
        }
    }
}

/// The rest mode `(ceil_div(cotarget, prev), prev)`, with CuTe's `compact_major` stride (`_0`
/// for a static `_1` rest).
pub trait RestMode<R, Prev> {
    /// The pair.
    type Output;
    /// The pair.
    fn f(r: R, prev: Prev) -> Self::Output;
}
impl<R, Prev> RestMode<R, Prev> for B1 {
    type Output = (R, super::consts::_0);
    #[inline(always)]
    fn f(r: R, _: Prev) -> Self::Output {
        (r, C::new())
    }
}
impl<R, Prev> RestMode<R, Prev> for B0 {
    type Output = (R, Prev);
    #[inline(always)]
    fn f(r: R, prev: Prev) -> Self::Output {
        (r, prev)
    }
}

/// `detail::complement(shape, stride, cotarget)` on the filtered pairs: the trivial layout's
/// complement is `make_layout(cotarget)`; otherwise sort, fold and coalesce.
pub trait ComplementImpl<Cot> {
    /// The complement.
    type Output;
    /// The complement.
    fn complement_impl(self, cot: Cot) -> Self::Output;
}
impl<S: IntFacts, D, Cot> ComplementImpl<Cot> for HCons<(S, D), HNil>
where
    S::IsOne: TrivialOr<HCons<(S, D), HNil>, Cot>,
{
    type Output = <S::IsOne as TrivialOr<HCons<(S, D), HNil>, Cot>>::Output;
    #[inline(always)]
    fn complement_impl(self, cot: Cot) -> Self::Output {
        <S::IsOne as TrivialOr<HCons<(S, D), HNil>, Cot>>::f(self, cot)
    }
}
impl<P, Q, T, Cot> ComplementImpl<Cot> for HCons<P, HCons<Q, T>>
where
    HCons<P, HCons<Q, T>>: General<Cot>,
{
    type Output = <HCons<P, HCons<Q, T>> as General<Cot>>::Output;
    #[inline(always)]
    fn complement_impl(self, cot: Cot) -> Self::Output {
        self.general(cot)
    }
}
/// The trivial filtered layout `_1:_0` (`B1`) or a single mode (`B0`).
pub trait TrivialOr<L, Cot> {
    /// The complement.
    type Output;
    /// The complement.
    fn f(l: L, cot: Cot) -> Self::Output;
}
impl<L, Cot: Cotarget> TrivialOr<L, Cot> for B1 {
    type Output = Cot::Trivial;
    #[inline(always)]
    fn f(_: L, cot: Cot) -> Self::Output {
        cot.trivial()
    }
}
impl<L: General<Cot>, Cot> TrivialOr<L, Cot> for B0 {
    type Output = L::Output;
    #[inline(always)]
    fn f(l: L, cot: Cot) -> Self::Output {
        l.general(cot)
    }
}
/// The general case: sort by stride, fold, coalesce.
pub trait General<Cot> {
    /// The complement.
    type Output;
    /// The complement.
    fn general(self, cot: Cot) -> Self::Output;
}
impl<L, Cot> General<Cot> for L
where
    L: SortModes + PairsInfo,
    L::Output: ComplementFold<_1, Cot>,
    <L::Output as ComplementFold<_1, Cot>>::Output: BwCoalesce,
    <<L::Output as ComplementFold<_1, Cot>>::Output as BwCoalesce>::Output: ToLayout,
{
    type Output =
        <<<L::Output as ComplementFold<_1, Cot>>::Output as BwCoalesce>::Output as ToLayout>::Output;
    #[inline(always)]
    fn general(self, cot: Cot) -> Self::Output {
        const {
            if L::LEN > 1 && !L::STATIC_STRIDES {
                panic!(
                    "complement: Dynamic-stride complement only for rank-1 layouts (CuTe orders the modes by their static strides; make the strides static or filter the layout to one mode)"
                )
            }
        }
        self.sort_modes().fold(C::new(), cot).bw().to_layout()
    }
}

// ---------------------------------------------------------------------------------------------
// the cotarget: an integer or a tuple (CuTe's `shape(cotarget)`)
// ---------------------------------------------------------------------------------------------

/// A cotarget of [`complement`]: an integer or a tuple of integers (a shape), as CuTe's
/// `complement(layout, cotarget)` takes `shape(cotarget)`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a cotarget of complement: use an integer or a tuple of integers (a shape)"
)]
pub trait Cotarget: IntTuple {
    /// `make_layout(coalesce(cotarget))`: the complement of the trivial layout `_1:_0`.
    type Trivial;
    /// `make_layout(coalesce(cotarget))`.
    fn trivial(self) -> Self::Trivial;
}
impl<T: IntTuple> Cotarget for T
where
    T::Kind: CotargetK<T>,
{
    type Trivial = <T::Kind as CotargetK<T>>::Trivial;
    #[inline(always)]
    fn trivial(self) -> Self::Trivial {
        <T::Kind as CotargetK<T>>::trivial(self)
    }
}
/// Kind dispatch of [`Cotarget`].
pub trait CotargetK<T> {
    /// The layout.
    type Trivial;
    /// The layout.
    fn trivial(t: T) -> Self::Trivial;
}
impl<T: CompactLeft<_1> + Copy> CotargetK<T> for IntK {
    type Trivial = Layout<T, T::Stride>;
    #[inline(always)]
    fn trivial(t: T) -> Self::Trivial {
        make_layout_left(t)
    }
}
impl<T: FlatLeaves> CotargetK<T> for TupK
where
    T::Output: CoalesceShape,
    <T::Output as CoalesceShape>::Output: CompactPairs<_1>,
    <<T::Output as CoalesceShape>::Output as CompactPairs<_1>>::Output: ToLayout,
{
    type Trivial =
        <<<T::Output as CoalesceShape>::Output as CompactPairs<_1>>::Output as ToLayout>::Output;
    #[inline(always)]
    fn trivial(t: T) -> Self::Trivial {
        t.flat_leaves()
            .coalesce_shape()
            .compact_pairs(C::new())
            .to_layout()
    }
}

/// The rest modes of the complement above the span `next` of the layout's modes, after the
/// mode `head`: `rest_shape = coalesce(ceil_div(cotarget, next))` with the strides
/// `compact_major<LayoutLeft>(rest_shape, next)`, as a list of leaf pairs.
pub trait CotRest<Next, Head> {
    /// `head` and the rest pairs.
    type Output;
    /// `head` and the rest pairs.
    fn rest(self, next: Next, head: Head) -> Self::Output;
}
impl<T: IntTuple, Next, Head> CotRest<Next, Head> for T
where
    T::Kind: CotRestK<T, Next, Head>,
{
    type Output = <T::Kind as CotRestK<T, Next, Head>>::Output;
    #[inline(always)]
    fn rest(self, next: Next, head: Head) -> Self::Output {
        <T::Kind as CotRestK<T, Next, Head>>::f(self, next, head)
    }
}
/// Kind dispatch of [`CotRest`].
pub trait CotRestK<T, Next, Head> {
    /// `head` and the rest pairs.
    type Output;
    /// `head` and the rest pairs.
    fn f(t: T, next: Next, head: Head) -> Self::Output;
}
impl<T, Next, Head> CotRestK<T, Next, Head> for IntK
where
    T: CeilDiv<Next>,
    Next: Copy,
    <T as CeilDiv<Next>>::Output: IntFacts,
    <<T as CeilDiv<Next>>::Output as IntFacts>::IsOne: RestMode<<T as CeilDiv<Next>>::Output, Next>,
{
    type Output = HCons<
        Head,
        HCons<
            <<<T as CeilDiv<Next>>::Output as IntFacts>::IsOne as RestMode<
                <T as CeilDiv<Next>>::Output,
                Next,
            >>::Output,
            HNil,
        >,
    >;
    #[inline(always)]
    fn f(t: T, next: Next, head: Head) -> Self::Output {
        let rest = t.ceil_div(next);
        HCons(
            head,
            HCons(
                <<<T as CeilDiv<Next>>::Output as IntFacts>::IsOne as RestMode<_, _>>::f(
                    rest, next,
                ),
                HNil,
            ),
        )
    }
}
impl<T, Next, Head> CotRestK<T, Next, Head> for TupK
where
    T: FlatLeaves,
    Next: Copy,
    T::Output: CeilDivLeaves<Next>,
    <T::Output as CeilDivLeaves<Next>>::Output: CoalesceShape,
    <<T::Output as CeilDivLeaves<Next>>::Output as CoalesceShape>::Output: CompactPairs<Next>,
{
    type Output = HCons<
        Head,
        <<<T::Output as CeilDivLeaves<Next>>::Output as CoalesceShape>::Output as CompactPairs<
            Next,
        >>::Output,
    >;
    #[inline(always)]
    fn f(t: T, next: Next, head: Head) -> Self::Output {
        HCons(
            head,
            t.flat_leaves()
                .ceil_div_leaves(next)
                .coalesce_shape()
                .compact_pairs(next),
        )
    }
}

/// The leaves of an integer tuple, in order (CuTe's `flatten`), as a list.
pub trait FlatLeaves {
    /// The leaves.
    type Output;
    /// The leaves.
    fn flat_leaves(self) -> Self::Output;
}
impl<T: IntTuple> FlatLeaves for T
where
    T::Kind: FlatLeavesK<T>,
{
    type Output = <T::Kind as FlatLeavesK<T>>::Output;
    #[inline(always)]
    fn flat_leaves(self) -> Self::Output {
        <T::Kind as FlatLeavesK<T>>::f(self)
    }
}
/// Kind dispatch of [`FlatLeaves`].
pub trait FlatLeavesK<T> {
    /// The leaves.
    type Output;
    /// The leaves.
    fn f(t: T) -> Self::Output;
}
impl<T> FlatLeavesK<T> for IntK {
    type Output = HCons<T, HNil>;
    #[inline(always)]
    fn f(t: T) -> Self::Output {
        HCons(t, HNil)
    }
}
impl<T: Tuple> FlatLeavesK<T> for TupK
where
    T::H: FlatLeavesH,
{
    type Output = <T::H as FlatLeavesH>::Output;
    #[inline(always)]
    fn f(t: T) -> Self::Output {
        t.into_h().flat_leaves_h()
    }
}
/// [`FlatLeaves`] over a list of modes, concatenated.
pub trait FlatLeavesH {
    /// The leaves.
    type Output;
    /// The leaves.
    fn flat_leaves_h(self) -> Self::Output;
}
impl FlatLeavesH for HNil {
    type Output = HNil;
    #[inline(always)]
    fn flat_leaves_h(self) -> HNil {
        HNil
    }
}
impl<A: FlatLeaves, T: FlatLeavesH> FlatLeavesH for HCons<A, T>
where
    A::Output: Concat<T::Output>,
{
    type Output = <A::Output as Concat<T::Output>>::Output;
    #[inline(always)]
    fn flat_leaves_h(self) -> Self::Output {
        self.0.flat_leaves().concat(self.1.flat_leaves_h())
    }
}

/// CuTe's `ceil_div(tuple, int)` on the flattened leaves: each leaf `a` gives `ceil_div(a, r)` and
/// the next `r = ceil_div(r, a)`. (CuTe recurses into a nested mode and passes
/// `ceil_div(r, product(mode))` on; `ceil_div(ceil_div(r, a), b) == ceil_div(r, a · b)` and both
/// are static exactly when `r`, `a` and `b` are, so the leaves are the same.)
pub trait CeilDivLeaves<R> {
    /// The quotients.
    type Output;
    /// The quotients.
    fn ceil_div_leaves(self, r: R) -> Self::Output;
}
impl<R> CeilDivLeaves<R> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn ceil_div_leaves(self, _: R) -> HNil {
        HNil
    }
}
impl<A: CeilDiv<R> + Copy, R: CeilDiv<A> + Copy, T: CeilDivLeaves<<R as CeilDiv<A>>::Output>>
    CeilDivLeaves<R> for HCons<A, T>
{
    type Output = HCons<<A as CeilDiv<R>>::Output, T::Output>;
    #[inline(always)]
    fn ceil_div_leaves(self, r: R) -> Self::Output {
        let a = self.0;
        HCons(a.ceil_div(r), self.1.ceil_div_leaves(r.ceil_div(a)))
    }
}

/// CuTe's `coalesce(shape)` on a list of leaves: consecutive leaves that are both static or
/// both dynamic are multiplied into one.
pub trait CoalesceShape {
    /// The leaves.
    type Output;
    /// The leaves.
    fn coalesce_shape(self) -> Self::Output;
}
impl<A, T: CoalesceWith<A>> CoalesceShape for HCons<A, T> {
    type Output = T::Output;
    #[inline(always)]
    fn coalesce_shape(self) -> Self::Output {
        self.1.coalesce_with(self.0)
    }
}
/// The fold of [`CoalesceShape`] with the last leaf so far, `Back`.
pub trait CoalesceWith<Back> {
    /// The leaves.
    type Output;
    /// The leaves.
    fn coalesce_with(self, back: Back) -> Self::Output;
}
impl<Back> CoalesceWith<Back> for HNil {
    type Output = HCons<Back, HNil>;
    #[inline(always)]
    fn coalesce_with(self, back: Back) -> Self::Output {
        HCons(back, HNil)
    }
}
impl<Back: StaticBit, A: StaticBit, T> CoalesceWith<Back> for HCons<A, T>
where
    (Back::B, A::B): CoalesceLeaf<Back, A, T>,
{
    type Output = <(Back::B, A::B) as CoalesceLeaf<Back, A, T>>::Output;
    #[inline(always)]
    fn coalesce_with(self, back: Back) -> Self::Output {
        <(Back::B, A::B) as CoalesceLeaf<Back, A, T>>::f(back, self.0, self.1)
    }
}
/// The step of [`CoalesceWith`] on the static bits of `Back` and `A`: equal, multiply; else
/// `Back` is done.
pub trait CoalesceLeaf<Back, A, T> {
    /// The leaves.
    type Output;
    /// The leaves.
    fn f(back: Back, a: A, t: T) -> Self::Output;
}
macro_rules! coalesce_leaf {
    ($(($b:ty, $a:ty) => $merge:tt;)*) => {$(
        coalesce_leaf!(@one $b, $a, $merge);
    )*};
    (@one $b:ty, $a:ty, merge) => {
        impl<Back: IntMul<A>, A, T: CoalesceWith<Prod<Back, A>>> CoalesceLeaf<Back, A, T> for ($b, $a) {
            type Output = T::Output;
            #[inline(always)]
            fn f(back: Back, a: A, t: T) -> Self::Output {
                t.coalesce_with(back.int_mul(a))
            }
        }
    };
    (@one $b:ty, $a:ty, push) => {
        impl<Back, A, T: CoalesceWith<A>> CoalesceLeaf<Back, A, T> for ($b, $a) {
            type Output = HCons<Back, T::Output>;
            #[inline(always)]
            fn f(back: Back, a: A, t: T) -> Self::Output {
                HCons(back, t.coalesce_with(a))
            }
        }
    };
}
coalesce_leaf! {
    (B1, B1) => merge;
    (B0, B0) => merge;
    (B1, B0) => push;
    (B0, B1) => push;
}

/// `compact_major<LayoutLeft>(leaves, cur)` as leaf pairs: a static `_1` gets the stride `_0`,
/// every other leaf `cur`, and `cur` grows by it.
pub trait CompactPairs<Cur> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn compact_pairs(self, cur: Cur) -> Self::Output;
}
impl<Cur> CompactPairs<Cur> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn compact_pairs(self, _: Cur) -> HNil {
        HNil
    }
}
impl<A: CompactLeft<Cur> + Copy, Cur, T: CompactPairs<A::Next>> CompactPairs<Cur> for HCons<A, T> {
    type Output = HCons<(A, A::Stride), T::Output>;
    #[inline(always)]
    fn compact_pairs(self, cur: Cur) -> Self::Output {
        let (d, n) = self.0.compact_left(cur);
        HCons((self.0, d), self.1.compact_pairs(n))
    }
}

// ---------------------------------------------------------------------------------------------
// the API
// ---------------------------------------------------------------------------------------------

/// `complement` dispatched on the cotarget: the list of the complement's modes depends on a
/// tuple cotarget's type, which a call site knows only after the layout's, so every bound of
/// [`complement`] that involves the cotarget has it as its self type (the solver then waits for
/// it instead of expanding lists of unknown length).
pub trait ComplementBy<L> {
    /// The complement.
    type Output;
    /// The complement.
    fn complement_by(self, l: L) -> Self::Output;
}
impl<Cot: Cotarget, L: ComplementImpl<Cot>> ComplementBy<L> for Cot {
    type Output = L::Output;
    #[inline(always)]
    fn complement_by(self, l: L) -> Self::Output {
        l.complement_impl(self)
    }
}

/// The result type of [`complement`].
pub type Complement<S, D, Cot> = <Cot as ComplementBy<Filtered<S, D>>>::Output;

/// `complement(layout, cotarget)`: the layout `c`, sorted by stride and coalesced, such that
/// `(layout, c)` is injective and together they cover `[0, cotarget)` (CuTe's definition). The
/// cotarget is an integer, static or dynamic, or a tuple (a shape: CuTe's `shape(cotarget)`):
/// then the rest above the layout's span is `coalesce(ceil_div(cotarget, span))` (mode by
/// mode, consecutive static or dynamic modes merged) with compact strides, so the shape's
/// static/dynamic split survives where the layout does not cover it.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(complement(layout!(_4:_1), _24).to_string(), "_6:_4");
/// assert_eq!(complement(layout!((_2, _2):(_4, _1)), _16).to_string(), "(_2,_2):(_2,_8)");
/// assert_eq!(complement(layout!(_4:_0), _8).to_string(), "_8:_1");       // filtered away
/// let n = 40i64;
/// assert_eq!(complement(layout!(_4:_2), n).to_string(), "(_2,5):(_1,_8)");
/// // tuple cotargets
/// assert_eq!(complement(layout!(_4:_1), (_8, _4)).to_string(), "_8:_4");
/// assert_eq!(complement(layout!(_4:_1), (_8, 3i64)).to_string(), "(_2,3):(_4,_8)");
/// assert_eq!(complement(layout!(_4:_0), (_2, _4, 3i64)).to_string(), "(_8,3):(_1,_8)");
/// ```
#[inline(always)]
pub fn complement<S, D, Cot>(l: Layout<S, D>, cotarget: Cot) -> Complement<S, D, Cot>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Cot: IntTuple + ComplementBy<Filtered<S, D>>,
{
    static_call!(
        int: [S, D, Cot],
        tiler: [],
        check: crate::value::algebra::complement(&value_of(S::CONST, D::CONST), &Cot::CONST),
        {
            cotarget.complement_by(l.shape.flat_pairs(l.stride).filter_zeros_h().bw())
        }
    )
}

/// [`complement`] as a method, `layout.complement_to(cotarget)`, with the result type as an
/// associated type: the form generic code bounds on (the divides take the tiler's complement up
/// to `shape(coalesce(layout))`, a tuple whenever the coalesced layout keeps several modes).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::complement::ComplementTo;
/// let t = layout!(_4:_1);
/// let (m, n) = (8i64, 6i64);
/// assert_eq!(t.complement_to((m, n)).to_string(), "12:_4"); // dynamic modes merged
/// assert_eq!(t.complement_to((_8, n)).to_string(), "(_2,6):(_4,_8)");
/// assert_eq!(t.complement_to(_24).to_string(), "_6:_4");
/// ```
pub trait ComplementTo<Cot> {
    /// The complement.
    type Output: Copy;
    /// The complement.
    fn complement_to(self, cot: Cot) -> Self::Output;
}
impl<S, D, Cot> ComplementTo<Cot> for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Cot: IntTuple + ComplementBy<Filtered<S, D>>,
    Complement<S, D, Cot>: Copy,
{
    type Output = Complement<S, D, Cot>;
    #[inline(always)]
    fn complement_to(self, cot: Cot) -> Self::Output {
        complement(self, cot)
    }
}

/// `cosize` of a list of leaf pairs: `1 + Σ (s - 1) · |d|`.
pub trait CosizePairs {
    /// `Σ (s - 1) · |d|`.
    type Span: Integral;
    /// `Σ (s - 1) · |d|`.
    fn span_pairs(&self) -> Self::Span;
}
impl CosizePairs for HNil {
    type Span = super::consts::_0;
    #[inline(always)]
    fn span_pairs(&self) -> Self::Span {
        C::new()
    }
}
impl<S: Cosize<D> + Copy, D: Copy, T: CosizePairs> CosizePairs for HCons<(S, D), T>
where
    S::Output: IntAdd<T::Span>,
    Sum<S::Output, T::Span>: Integral,
{
    type Span = Sum<S::Output, T::Span>;
    #[inline(always)]
    fn span_pairs(&self) -> Self::Span {
        self.0.0.span(self.0.1).int_add(self.1.span_pairs())
    }
}

/// The result type of [`complement_default`].
pub type ComplementDefault<S, D> =
    <Filtered<S, D> as ComplementImpl<Sum<<Filtered<S, D> as CosizePairs>::Span, _1>>>::Output;

/// `complement(layout)`: the complement up to `cosize(filter(layout))`, i.e. the holes of the
/// layout's image.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(complement_default(layout!((_2, _2):(_1, _4))).to_string(), "_2:_2");
/// assert_eq!(complement_default(layout!((_4, _2):(_1, _4))).to_string(), "_1:_0");
/// ```
#[inline(always)]
pub fn complement_default<S, D>(l: Layout<S, D>) -> ComplementDefault<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Filtered<S, D>: CosizePairs + ComplementImpl<Sum<<Filtered<S, D> as CosizePairs>::Span, _1>>,
    <Filtered<S, D> as CosizePairs>::Span: IntAdd<_1>,
    Sum<<Filtered<S, D> as CosizePairs>::Span, _1>: Integral,
{
    static_call!(
        int: [S, D],
        tiler: [],
        check: crate::value::algebra::complement_default(&value_of(S::CONST, D::CONST)),
        {
            let f = l.shape.flat_pairs(l.stride).filter_zeros_h().bw();
            let cot = f.span_pairs().int_add(C::new());
            f.complement_impl(cot)
        }
    )
}
