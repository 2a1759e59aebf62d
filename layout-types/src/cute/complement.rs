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
    Cot: CeilDiv<Prod<D, S>>,
    Prod<D, S>: Copy,
    <Cot as CeilDiv<Prod<D, S>>>::Output: IntFacts,
    <<Cot as CeilDiv<Prod<D, S>>>::Output as IntFacts>::IsOne:
        RestMode<<Cot as CeilDiv<Prod<D, S>>>::Output, Prod<D, S>>,
{
    type Output = HCons<
        (Quot<D, Prev>, Prev),
        HCons<
            <<<Cot as CeilDiv<Prod<D, S>>>::Output as IntFacts>::IsOne as RestMode<
                <Cot as CeilDiv<Prod<D, S>>>::Output,
                Prod<D, S>,
            >>::Output,
            HNil,
        >,
    >;
    #[inline(always)]
    fn fold(self, prev: Prev, cot: Cot) -> Self::Output {
        non_injective_check::<D, Prev>();
        let (s, d) = self.0;
        let next = d.int_mul(s);
        let rest = cot.ceil_div(next);
        HCons(
            (d.int_div(prev), prev),
            HCons(
                <<<Cot as CeilDiv<Prod<D, S>>>::Output as IntFacts>::IsOne as RestMode<_, _>>::f(
                    rest, next,
                ),
                HNil,
            ),
        )
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
impl<L, Cot: CompactLeft<_1> + Copy> TrivialOr<L, Cot> for B1 {
    type Output = Layout<Cot, Cot::Stride>;
    #[inline(always)]
    fn f(_: L, cot: Cot) -> Self::Output {
        make_layout_left(cot)
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
// the API
// ---------------------------------------------------------------------------------------------

/// The result type of [`complement`].
pub type Complement<S, D, Cot> = <Filtered<S, D> as ComplementImpl<Cot>>::Output;

/// `complement(layout, cotarget)`: the layout `c`, sorted by stride and coalesced, such that
/// `(layout, c)` is injective and together they cover `[0, cotarget)` (CuTe's definition; the
/// cotarget is an integer, static or dynamic).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(complement(layout!(_4:_1), _24).to_string(), "_6:_4");
/// assert_eq!(complement(layout!((_2, _2):(_4, _1)), _16).to_string(), "(_2,_2):(_2,_8)");
/// assert_eq!(complement(layout!(_4:_0), _8).to_string(), "_8:_1");       // filtered away
/// let n = 40i64;
/// assert_eq!(complement(layout!(_4:_2), n).to_string(), "(_2,5):(_1,_8)");
/// ```
#[inline(always)]
pub fn complement<S, D, Cot>(l: Layout<S, D>, cotarget: Cot) -> Complement<S, D, Cot>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Filtered<S, D>: ComplementImpl<Cot>,
    Cot: Integral,
{
    l.shape
        .flat_pairs(l.stride)
        .filter_zeros_h()
        .bw()
        .complement_impl(cotarget)
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
pub type ComplementDefault<S, D> = Complement<S, D, Sum<<Filtered<S, D> as CosizePairs>::Span, _1>>;

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
    let f = l.shape.flat_pairs(l.stride).filter_zeros_h().bw();
    let cot = f.span_pairs().int_add(C::new());
    f.complement_impl(cot)
}
