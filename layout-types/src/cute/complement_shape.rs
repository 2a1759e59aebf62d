//! `complement(layout, cotarget)` with a *shape* cotarget, as the divides need it:
//! `logical_divide(layout, tiler)` takes the complement of the tiler up to
//! `shape(coalesce(layout))`, which is a tuple whenever the coalesced layout keeps several modes.
//! CuTe's algorithm is the one of [`complement`] (filter, sort by
//! stride, fold) except for the rest mode: `coalesce(ceil_div(cotarget, prev))` is a *shape*
//! (CuTe's tuple-by-integer `ceil_div` divides `prev` out of the modes left to right, and the
//! shape `coalesce` multiplies neighbouring leaves that are both static or both dynamic), laid out
//! column-major from `prev`, and the whole result is coalesced.
//!
//! [`ComplementTo`] dispatches on the cotarget: an integer goes to the typed
//! [`complement`], a tuple to the shape form here.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::complement_shape::ComplementTo;
//! let t = layout!(_4:_1);
//! // a dynamic 2-mode cotarget: the rest keeps the dynamic modes, merged into one
//! let (m, n) = (8i64, 6i64);
//! assert_eq!(t.complement_to((m, n)).to_string(), "12:_4");
//! // mixed static and dynamic modes stay apart
//! assert_eq!(t.complement_to((_8, n)).to_string(), "(_2,6):(_4,_8)");
//! assert_eq!(t.complement_to(_24).to_string(), "_6:_4");
//! ```

use super::coalesce::*;
use super::complement::*;
use super::composition::PairsToLayout;
use super::consts::_1;
use super::int::*;
use super::layout::*;
use super::tuple::*;
use typenum::{B0, B1};

// ---------------------------------------------------------------------------------------------
// shape helpers: ceil_div by an integer, shape coalesce, compact pairs
// ---------------------------------------------------------------------------------------------

/// CuTe's tuple-by-integer `ceil_div((a0, a1, ...), b)` on a flat list: `ceil_div(a0, b)`, then
/// `a1` divided by what is left of `b` (`ceil_div(b, a0)`), and so on.
pub trait CeilDivH<B> {
    /// The quotients.
    type Output;
    /// The quotients.
    fn ceil_div_h(self, b: B) -> Self::Output;
}
impl<B> CeilDivH<B> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn ceil_div_h(self, _: B) -> HNil {
        HNil
    }
}
impl<A0: CeilDiv<B> + Copy, AT, B: CeilDiv<A0> + Copy> CeilDivH<B> for HCons<A0, AT>
where
    AT: CeilDivH<<B as CeilDiv<A0>>::Output>,
{
    type Output = HCons<<A0 as CeilDiv<B>>::Output, AT::Output>;
    #[inline(always)]
    fn ceil_div_h(self, b: B) -> Self::Output {
        HCons(self.0.ceil_div(b), self.1.ceil_div_h(b.ceil_div(self.0)))
    }
}

/// CuTe's `coalesce(shape)` on a flat, non-empty list of integers: neighbouring leaves that are
/// both static or both dynamic are multiplied into one.
pub trait CoalesceShapeH {
    /// The coalesced leaves (non-empty).
    type Output;
    /// The coalesced leaves.
    fn coalesce_shape_h(self) -> Self::Output;
}
impl<A> CoalesceShapeH for HCons<A, HNil> {
    type Output = HCons<A, HNil>;
    #[inline(always)]
    fn coalesce_shape_h(self) -> Self::Output {
        self
    }
}
impl<A: StaticBit, B, T> CoalesceShapeH for HCons<A, HCons<B, T>>
where
    HCons<B, T>: CoalesceShapeH,
    <HCons<B, T> as CoalesceShapeH>::Output: FrontStatic,
    (
        A::B,
        <<HCons<B, T> as CoalesceShapeH>::Output as FrontStatic>::B,
    ): ShapeMerge<A, <HCons<B, T> as CoalesceShapeH>::Output>,
{
    type Output = <(
        A::B,
        <<HCons<B, T> as CoalesceShapeH>::Output as FrontStatic>::B,
    ) as ShapeMerge<A, <HCons<B, T> as CoalesceShapeH>::Output>>::Output;
    #[inline(always)]
    fn coalesce_shape_h(self) -> Self::Output {
        <(
            A::B,
            <<HCons<B, T> as CoalesceShapeH>::Output as FrontStatic>::B,
        ) as ShapeMerge<A, <HCons<B, T> as CoalesceShapeH>::Output>>::f(
            self.0,
            self.1.coalesce_shape_h(),
        )
    }
}
/// Whether the front leaf of a list is static.
pub trait FrontStatic {
    /// `B1` for a static front leaf.
    type B;
}
impl<H: StaticBit, T> FrontStatic for HCons<H, T> {
    type B = H::B;
}
/// One step of [`CoalesceShapeH`]: multiply `a` into the front leaf (same staticness) or put it
/// in front.
pub trait ShapeMerge<A, L> {
    /// The list.
    type Output;
    /// The list.
    fn f(a: A, l: L) -> Self::Output;
}
impl<A: IntMul<H>, H, T> ShapeMerge<A, HCons<H, T>> for (B1, B1) {
    type Output = HCons<Prod<A, H>, T>;
    #[inline(always)]
    fn f(a: A, l: HCons<H, T>) -> Self::Output {
        HCons(a.int_mul(l.0), l.1)
    }
}
impl<A: IntMul<H>, H, T> ShapeMerge<A, HCons<H, T>> for (B0, B0) {
    type Output = HCons<Prod<A, H>, T>;
    #[inline(always)]
    fn f(a: A, l: HCons<H, T>) -> Self::Output {
        HCons(a.int_mul(l.0), l.1)
    }
}
impl<A, L> ShapeMerge<A, L> for (B1, B0) {
    type Output = HCons<A, L>;
    #[inline(always)]
    fn f(a: A, l: L) -> Self::Output {
        HCons(a, l)
    }
}
impl<A, L> ShapeMerge<A, L> for (B0, B1) {
    type Output = HCons<A, L>;
    #[inline(always)]
    fn f(a: A, l: L) -> Self::Output {
        HCons(a, l)
    }
}

/// A flat list of extents laid out column-major from `cur` (CuTe's
/// `compact_major<LayoutLeft>(shape, cur)`: a static `_1` gets the stride `_0`), as leaf pairs.
pub trait CompactPairsH<Cur> {
    /// The `(extent, stride)` pairs.
    type Output;
    /// The pairs.
    fn compact_pairs(self, cur: Cur) -> Self::Output;
}
impl<Cur> CompactPairsH<Cur> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn compact_pairs(self, _: Cur) -> HNil {
        HNil
    }
}
impl<S0: CompactLeft<Cur> + Copy, ST: CompactPairsH<S0::Next>, Cur> CompactPairsH<Cur>
    for HCons<S0, ST>
{
    type Output = HCons<(S0, S0::Stride), ST::Output>;
    #[inline(always)]
    fn compact_pairs(self, cur: Cur) -> Self::Output {
        let (d, next) = self.0.compact_left(cur);
        HCons((self.0, d), self.1.compact_pairs(next))
    }
}

/// The rest modes of the complement: `coalesce(ceil_div(cotarget, prev))` laid out from `prev`.
pub type RestPairs<CotH, Prev> =
    <<<CotH as CeilDivH<Prev>>::Output as CoalesceShapeH>::Output as CompactPairsH<Prev>>::Output;

// ---------------------------------------------------------------------------------------------
// the fold
// ---------------------------------------------------------------------------------------------

/// CuTe's `static_assert(not is_constant<0, decltype(new_shape)>)` (as in `complement`).
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

/// The fold of [`ComplementFold`] with a shape cotarget (a list): the same modes, then the rest
/// modes [`RestPairs`] instead of one rest mode. The pairs, before coalescing.
pub trait ComplementFoldShape<Prev, CotH> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn fold_shape(self, prev: Prev, cot: CotH) -> Self::Output;
}
impl<S, D, Prev, CotH> ComplementFoldShape<Prev, CotH> for HCons<(S, D), HNil>
where
    D: Integral + IntDiv<Prev> + IntMul<S>,
    S: Copy,
    Prev: Integral,
    Prod<D, S>: Copy,
    CotH: CeilDivH<Prod<D, S>>,
    CotH::Output: CoalesceShapeH,
    <CotH::Output as CoalesceShapeH>::Output: CompactPairsH<Prod<D, S>>,
{
    type Output = HCons<(Quot<D, Prev>, Prev), RestPairs<CotH, Prod<D, S>>>;
    #[inline(always)]
    fn fold_shape(self, prev: Prev, cot: CotH) -> Self::Output {
        non_injective_check::<D, Prev>();
        let (s, d) = self.0;
        let next = d.int_mul(s);
        HCons(
            (d.int_div(prev), prev),
            cot.ceil_div_h(next).coalesce_shape_h().compact_pairs(next),
        )
    }
}
impl<S, D, Q, T, Prev, CotH> ComplementFoldShape<Prev, CotH> for HCons<(S, D), HCons<Q, T>>
where
    D: Integral + IntDiv<Prev> + IntMul<S>,
    S: Copy,
    Prev: Integral,
    HCons<Q, T>: ComplementFoldShape<Prod<D, S>, CotH>,
{
    type Output = HCons<
        (Quot<D, Prev>, Prev),
        <HCons<Q, T> as ComplementFoldShape<Prod<D, S>, CotH>>::Output,
    >;
    #[inline(always)]
    fn fold_shape(self, prev: Prev, cot: CotH) -> Self::Output {
        non_injective_check::<D, Prev>();
        let (s, d) = self.0;
        HCons(
            (d.int_div(prev), prev),
            self.1.fold_shape(d.int_mul(s), cot),
        )
    }
}

/// `detail::complement(shape, stride, cotarget)` on the filtered pairs with a shape cotarget
/// (a list): the trivial layout's complement is `make_layout(coalesce(cotarget))`; otherwise
/// sort, fold and coalesce.
pub trait ComplementShapeImpl<CotH> {
    /// The complement.
    type Output;
    /// The complement.
    fn complement_shape_impl(self, cot: CotH) -> Self::Output;
}
impl<S: IntFacts, D, CotH> ComplementShapeImpl<CotH> for HCons<(S, D), HNil>
where
    S::IsOne: TrivialOrShape<HCons<(S, D), HNil>, CotH>,
{
    type Output = <S::IsOne as TrivialOrShape<HCons<(S, D), HNil>, CotH>>::Output;
    #[inline(always)]
    fn complement_shape_impl(self, cot: CotH) -> Self::Output {
        <S::IsOne as TrivialOrShape<HCons<(S, D), HNil>, CotH>>::f(self, cot)
    }
}
impl<P, Q, T, CotH> ComplementShapeImpl<CotH> for HCons<P, HCons<Q, T>>
where
    HCons<P, HCons<Q, T>>: GeneralShape<CotH>,
{
    type Output = <HCons<P, HCons<Q, T>> as GeneralShape<CotH>>::Output;
    #[inline(always)]
    fn complement_shape_impl(self, cot: CotH) -> Self::Output {
        self.general_shape(cot)
    }
}
/// The trivial filtered layout `_1:_0` (`B1`) or a single mode (`B0`).
pub trait TrivialOrShape<L, CotH> {
    /// The complement.
    type Output;
    /// The complement.
    fn f(l: L, cot: CotH) -> Self::Output;
}
impl<L, CotH> TrivialOrShape<L, CotH> for B1
where
    CotH: CoalesceShapeH,
    CotH::Output: CompactPairsH<_1>,
    <CotH::Output as CompactPairsH<_1>>::Output: PairsToLayout,
{
    type Output = <<CotH::Output as CompactPairsH<_1>>::Output as PairsToLayout>::Output;
    #[inline(always)]
    fn f(_: L, cot: CotH) -> Self::Output {
        cot.coalesce_shape_h()
            .compact_pairs(C::new())
            .to_layout_pairs()
    }
}
impl<L: GeneralShape<CotH>, CotH> TrivialOrShape<L, CotH> for B0 {
    type Output = L::Output;
    #[inline(always)]
    fn f(l: L, cot: CotH) -> Self::Output {
        l.general_shape(cot)
    }
}
/// The general case: sort by stride, fold, coalesce.
pub trait GeneralShape<CotH> {
    /// The complement.
    type Output;
    /// The complement.
    fn general_shape(self, cot: CotH) -> Self::Output;
}
impl<L, CotH> GeneralShape<CotH> for L
where
    L: SortModes + PairsInfo,
    L::Output: ComplementFoldShape<_1, CotH>,
    <L::Output as ComplementFoldShape<_1, CotH>>::Output: BwCoalesce,
    <<L::Output as ComplementFoldShape<_1, CotH>>::Output as BwCoalesce>::Output: ToLayout,
{
    type Output =
        <<<L::Output as ComplementFoldShape<_1, CotH>>::Output as BwCoalesce>::Output as ToLayout>::Output;
    #[inline(always)]
    fn general_shape(self, cot: CotH) -> Self::Output {
        const {
            if L::LEN > 1 && !L::STATIC_STRIDES {
                panic!(
                    "complement: Dynamic-stride complement only for rank-1 layouts (CuTe orders the modes by their static strides; make the strides static or filter the layout to one mode)"
                )
            }
        }
        self.sort_modes().fold_shape(C::new(), cot).bw().to_layout()
    }
}

// ---------------------------------------------------------------------------------------------
// the dispatch
// ---------------------------------------------------------------------------------------------

/// `complement(self, cotarget)` for an integer or a flat shape cotarget (CuTe's
/// `complement(layout, shape(cotarget))`).
pub trait ComplementTo<Cot> {
    /// The complement.
    type Output: Copy;
    /// The complement.
    fn complement_to(self, cot: Cot) -> Self::Output;
}
impl<S, D, Cot: IntTuple> ComplementTo<Cot> for Layout<S, D>
where
    Cot::Kind: ComplementToK<S, D, Cot>,
{
    type Output = <Cot::Kind as ComplementToK<S, D, Cot>>::Output;
    #[inline(always)]
    fn complement_to(self, cot: Cot) -> Self::Output {
        <Cot::Kind as ComplementToK<S, D, Cot>>::f(self, cot)
    }
}
/// Kind dispatch of [`ComplementTo`].
pub trait ComplementToK<S, D, Cot> {
    /// The complement.
    type Output: Copy;
    /// The complement.
    fn f(l: Layout<S, D>, cot: Cot) -> Self::Output;
}
impl<S, D, Cot> ComplementToK<S, D, Cot> for IntK
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Filtered<S, D>: ComplementImpl<Cot>,
    Complement<S, D, Cot>: Copy,
    Cot: Integral,
{
    type Output = Complement<S, D, Cot>;
    #[inline(always)]
    fn f(l: Layout<S, D>, cot: Cot) -> Self::Output {
        complement(l, cot)
    }
}
impl<S, D, Cot> ComplementToK<S, D, Cot> for TupK
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    Cot: Tuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Filtered<S, D>: ComplementShapeImpl<Cot::H>,
    <Filtered<S, D> as ComplementShapeImpl<Cot::H>>::Output: Copy,
{
    type Output = <Filtered<S, D> as ComplementShapeImpl<Cot::H>>::Output;
    #[inline(always)]
    fn f(l: Layout<S, D>, cot: Cot) -> Self::Output {
        l.shape
            .flat_pairs(l.stride)
            .filter_zeros_h()
            .bw()
            .complement_shape_impl(cot.into_h())
    }
}
