//! `composition(a, b)` on typed layouts: the layout `c` with `c(i) == a(b(i))`, shaped like `b`
//! (CuTe's algorithm: `a` is coalesced (keeping its last stride), then each integral mode `s:d` of
//! `b` divides `d` out of `a`'s modes and keeps `s` of what is left). Every decision is taken on
//! static values at the type level; static violations of CuTe's Stride and Shape Divisibility
//! Conditions fail to compile with the values.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let a = layout!((_6, _2):(_8, _2));
//! let b = layout!((_4, _3):(_3, _1));
//! assert_eq!(composition(a, b).to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! // C++ CuTe cannot tell that 16 rows fit in a dynamic extent m: a dynamic rest remains.
//! let (m, ld) = (64i64, 100i64);
//! let t = composition(layout!((m, _8):(_1, ld)), layout!(_16:_1));
//! assert_eq!(t.to_string(), "(16,1):(_1,100)");
//! assert_eq!(composition(layout!((_64, _8):(_1, ld)), layout!(_16:_1)).to_string(), "_16:_1");
//! ```

use super::coalesce::*;
use super::consts::{_1, _2};
use super::int::*;
use super::layout::WrapH;
use super::layout::*;
use super::static_call::{FromRecipe, static_call, value_of};
use super::tiler::{LayK, TilerMode, TilerTuple};
use super::tuple::*;
use typenum::{B0, B1, NInt, PInt, Unsigned, Z0};

/// `signum(a)` keeping the static mark.
pub trait Signum: Integral {
    /// The sign's type.
    type Output: Integral;
    /// The sign.
    fn signum_int(self) -> Self::Output;
}
impl Signum for C<Z0> {
    type Output = C<Z0>;
    #[inline(always)]
    fn signum_int(self) -> C<Z0> {
        C::new()
    }
}
impl<U: Unsigned + typenum::NonZero + 'static> Signum for C<PInt<U>> {
    type Output = _1;
    #[inline(always)]
    fn signum_int(self) -> _1 {
        C::new()
    }
}
impl<U: Unsigned + typenum::NonZero + 'static> Signum for C<NInt<U>> {
    type Output = C<typenum::N1>;
    #[inline(always)]
    fn signum_int(self) -> Self::Output {
        C::new()
    }
}
macro_rules! dyn_signum {
    ($($t:ty),*) => {$( impl Signum for $t { type Output = $t; #[inline(always)] fn signum_int(self) -> $t { (self > 0) as $t - (self < 0) as $t } } )*};
}
dyn_signum!(i32, i64, isize);
macro_rules! dyn_signum_u {
    ($($t:ty),*) => {$( impl Signum for $t { type Output = $t; #[inline(always)] fn signum_int(self) -> $t { (self > 0) as $t } } )*};
}
dyn_signum_u!(u32, u64, usize);

/// CuTe's `coalesce_x`: the lhs of a composition, coalesced back to front but keeping the last
/// mode's stride (a static `_1` last extent becomes the placeholder `_2`). Its pairs, front first.
pub trait CoalesceX {
    /// The coalesced pairs.
    type Output;
    /// The coalesced pairs.
    fn coalesce_x(self) -> Self::Output;
}
impl<P: LastPlaceholder> CoalesceX for HCons<P, HNil> {
    type Output = HCons<P::Output, HNil>;
    #[inline(always)]
    fn coalesce_x(self) -> Self::Output {
        HCons(self.0.placeholder(), HNil)
    }
}
impl<P: BwStep<<HCons<Q, T> as CoalesceX>::Output>, Q, T> CoalesceX for HCons<P, HCons<Q, T>>
where
    HCons<Q, T>: CoalesceX,
{
    type Output = P::Output;
    #[inline(always)]
    fn coalesce_x(self) -> Self::Output {
        self.0.step(self.1.coalesce_x())
    }
}
/// The last pair of `coalesce_x`: `(_1, d)` becomes `(_2, d)`.
pub trait LastPlaceholder {
    /// The pair.
    type Output;
    /// The pair.
    fn placeholder(self) -> Self::Output;
}
impl<S: IntFacts, D> LastPlaceholder for (S, D)
where
    S::IsOne: PlaceholderK<S, D>,
{
    type Output = <S::IsOne as PlaceholderK<S, D>>::Output;
    #[inline(always)]
    fn placeholder(self) -> Self::Output {
        <S::IsOne as PlaceholderK<S, D>>::f(self)
    }
}
/// See [`LastPlaceholder`].
pub trait PlaceholderK<S, D> {
    /// The pair.
    type Output;
    /// The pair.
    fn f(p: (S, D)) -> Self::Output;
}
impl<S, D> PlaceholderK<S, D> for B1 {
    type Output = (_2, D);
    #[inline(always)]
    fn f(p: (S, D)) -> (_2, D) {
        (C::new(), p.1)
    }
}
impl<S, D> PlaceholderK<S, D> for B0 {
    type Output = (S, D);
    #[inline(always)]
    fn f(p: (S, D)) -> (S, D) {
        p
    }
}

/// `composition_impl` of the coalesced lhs pairs `Self` with one integral rhs mode `rs:rd`:
/// the result's pairs (front first).
pub trait CompMode<RS, RD> {
    /// The result's pairs.
    type Output;
    /// The result's pairs.
    fn comp_mode(self, rs: RS, rd: RD) -> Self::Output;
}
impl<L, RS, RD: IntFacts> CompMode<RS, RD> for L
where
    RD::IsZero: CompZero<L, RS, RD>,
{
    type Output = <RD::IsZero as CompZero<L, RS, RD>>::Output;
    #[inline(always)]
    fn comp_mode(self, rs: RS, rd: RD) -> Self::Output {
        <RD::IsZero as CompZero<L, RS, RD>>::f(self, rs, rd)
    }
}
/// A static stride-0 rhs is itself; otherwise the walk over the lhs.
pub trait CompZero<L, RS, RD> {
    /// The result's pairs.
    type Output;
    /// The result's pairs.
    fn f(l: L, rs: RS, rd: RD) -> Self::Output;
}
impl<L, RS, RD> CompZero<L, RS, RD> for B1 {
    type Output = HCons<(RS, RD), HNil>;
    #[inline(always)]
    fn f(_: L, rs: RS, rd: RD) -> Self::Output {
        HCons((rs, rd), HNil)
    }
}
impl<L: CompWalk<RS, RD, B0>, RS, RD> CompZero<L, RS, RD> for B0 {
    type Output = L::Output;
    #[inline(always)]
    fn f(l: L, rs: RS, rd: RD) -> Self::Output {
        l.walk(rs, rd)
    }
}

/// The walk over the lhs modes with the rest shape and stride of the rhs mode; `Pushed` says
/// whether a mode has been produced yet.
pub trait CompWalk<RS, RD, Pushed> {
    /// The result's pairs.
    type Output;
    /// The result's pairs.
    fn walk(self, rs: RS, rd: RD) -> Self::Output;
}
// The last lhs mode (or the only one: an integral lhs, `rs : rd · d`).
impl<S, D, RS: IntFacts, RD: IntMul<D>, Pushed> CompWalk<RS, RD, Pushed> for HCons<(S, D), HNil>
where
    (Pushed, RS::IsOne): CompLast<RS, Prod<RD, D>>,
{
    type Output = <(Pushed, RS::IsOne) as CompLast<RS, Prod<RD, D>>>::Output;
    #[inline(always)]
    fn walk(self, rs: RS, rd: RD) -> Self::Output {
        <(Pushed, RS::IsOne) as CompLast<RS, Prod<RD, D>>>::f(rs, rd.int_mul(self.0.1))
    }
}
/// The last lhs mode: `(rest_shape, rest_stride · d)` unless modes were produced and the rest
/// is the static `_1`.
pub trait CompLast<RS, RD> {
    /// The pairs.
    type Output;
    /// The pairs.
    fn f(rs: RS, rd: RD) -> Self::Output;
}
impl<RS, RD, One> CompLast<RS, RD> for (B0, One) {
    type Output = HCons<(RS, RD), HNil>;
    #[inline(always)]
    fn f(rs: RS, rd: RD) -> Self::Output {
        HCons((rs, rd), HNil)
    }
}
impl<RS, RD> CompLast<RS, RD> for (B1, B0) {
    type Output = HCons<(RS, RD), HNil>;
    #[inline(always)]
    fn f(rs: RS, rd: RD) -> Self::Output {
        HCons((rs, rd), HNil)
    }
}
impl<RS, RD> CompLast<RS, RD> for (B1, B1) {
    type Output = HNil;
    #[inline(always)]
    fn f(_: RS, _: RD) -> HNil {
        HNil
    }
}

/// `next_shape = ceil_div(cs, |rd|)`.
pub type NextShape<CS, RD> = <CS as CeilDiv<<RD as AbsInt>::Output>>::Output;
/// `next_stride = ceil_div(|rd|, cs) · signum(rd)`.
pub type NextStride<CS, RD> =
    Prod<<<RD as AbsInt>::Output as CeilDiv<CS>>::Output, <RD as Signum>::Output>;

// A lhs mode that is not the last one.
impl<CS, CD, Q, T, RS, RD, Pushed> CompWalk<RS, RD, Pushed> for HCons<(CS, CD), HCons<Q, T>>
where
    CS: Integral + CeilDiv<<RD as AbsInt>::Output>,
    RD: AbsInt + Signum,
    <RD as AbsInt>::Output: CeilDiv<CS>,
    <<RD as AbsInt>::Output as CeilDiv<CS>>::Output: IntMul<<RD as Signum>::Output>,
    NextShape<CS, RD>: IntFacts,
    RS: IntFacts,
    <NextShape<CS, RD> as IntFacts>::IsOne: core::ops::BitOr<RS::IsOne>,
    <<NextShape<CS, RD> as IntFacts>::IsOne as core::ops::BitOr<RS::IsOne>>::Output:
        CompStep<HCons<(CS, CD), HCons<Q, T>>, RS, RD, Pushed>,
{
    type Output = <<<NextShape<CS, RD> as IntFacts>::IsOne as core::ops::BitOr<RS::IsOne>>::Output as CompStep<
        HCons<(CS, CD), HCons<Q, T>>,
        RS,
        RD,
        Pushed,
    >>::Output;
    #[inline(always)]
    fn walk(self, rs: RS, rd: RD) -> Self::Output {
        const {
            if CS::IS_STATIC && RD::IS_STATIC {
                let (cs, d) = (CS::STATIC_VALUE, RD::STATIC_VALUE);
                if cs != 0 && d % cs != 0 && d >= cs {
                    crate::Error::with2(
                        "Stride Divisibility Condition violated: the tiler steps by {} over a layout mode of size {}, and the step is neither smaller than the mode nor a multiple of it",
                        d,
                        cs,
                    )
                    .panic()
                }
            }
        };
        <<<NextShape<CS, RD> as IntFacts>::IsOne as core::ops::BitOr<RS::IsOne>>::Output as CompStep<
            HCons<(CS, CD), HCons<Q, T>>,
            RS,
            RD,
            Pushed,
        >>::f(self, rs, rd)
    }
}
/// One step of the walk: skip (`B1`: the mode is used up or the rest is `_1`) or produce a mode.
pub trait CompStep<L, RS, RD, Pushed> {
    /// The result's pairs.
    type Output;
    /// The result's pairs.
    fn f(l: L, rs: RS, rd: RD) -> Self::Output;
}
impl<CS, CD, Q, T, RS, RD, Pushed> CompStep<HCons<(CS, CD), HCons<Q, T>>, RS, RD, Pushed> for B1
where
    CS: Copy,
    RD: AbsInt + Signum + Copy,
    <RD as AbsInt>::Output: CeilDiv<CS>,
    <<RD as AbsInt>::Output as CeilDiv<CS>>::Output: IntMul<<RD as Signum>::Output>,
    HCons<Q, T>: CompWalk<RS, NextStride<CS, RD>, Pushed>,
{
    type Output = <HCons<Q, T> as CompWalk<RS, NextStride<CS, RD>, Pushed>>::Output;
    #[inline(always)]
    fn f(l: HCons<(CS, CD), HCons<Q, T>>, rs: RS, rd: RD) -> Self::Output {
        let next = rd.abs_int().ceil_div(l.0.0).int_mul(rd.signum_int());
        l.1.walk(rs, next)
    }
}
impl<CS, CD, Q, T, RS, RD, Pushed> CompStep<HCons<(CS, CD), HCons<Q, T>>, RS, RD, Pushed> for B0
where
    CS: Copy + CeilDiv<<RD as AbsInt>::Output>,
    CD: Copy,
    RS: Copy + Integral,
    RD: AbsInt + Signum + Copy + IntMul<CD>,
    <RD as AbsInt>::Output: CeilDiv<CS>,
    <<RD as AbsInt>::Output as CeilDiv<CS>>::Output: IntMul<<RD as Signum>::Output>,
    NextShape<CS, RD>: IntMin<RS>,
    Minimum<NextShape<CS, RD>, RS>: Integral,
    RS: IntDiv<Minimum<NextShape<CS, RD>, RS>>,
    HCons<Q, T>: CompWalk<Quot<RS, Minimum<NextShape<CS, RD>, RS>>, NextStride<CS, RD>, B1>,
{
    type Output = HCons<
        (Minimum<NextShape<CS, RD>, RS>, Prod<RD, CD>),
        <HCons<Q, T> as CompWalk<
            Quot<RS, Minimum<NextShape<CS, RD>, RS>>,
            NextStride<CS, RD>,
            B1,
        >>::Output,
    >;
    #[inline(always)]
    fn f(l: HCons<(CS, CD), HCons<Q, T>>, rs: RS, rd: RD) -> Self::Output {
        const {
            type New<CS, RD, RS> = Minimum<NextShape<CS, RD>, RS>;
            let (ns, r) = (
                <New<CS, RD, RS> as Integral>::STATIC_VALUE,
                RS::STATIC_VALUE,
            );
            if <New<CS, RD, RS> as Integral>::IS_STATIC && RS::IS_STATIC && ns != 0 && r % ns != 0 {
                crate::Error::with2(
                    "Shape Divisibility Condition violated: a tiler mode of size {} lands in a layout mode of size {}, which does not divide it",
                    r,
                    ns,
                )
                .panic()
            }
        };
        let (cs, cd) = l.0;
        let next_shape = cs.ceil_div(rd.abs_int());
        let next_stride = rd.abs_int().ceil_div(cs).int_mul(rd.signum_int());
        let new_shape = next_shape.int_min(rs);
        HCons(
            (new_shape, rd.int_mul(cd)),
            l.1.walk(rs.int_div(new_shape), next_stride),
        )
    }
}

/// Pairs to a layout: one pair is a leaf layout, several a tuple layout.
pub trait PairsToLayout {
    /// The layout.
    type Output: Copy;
    /// The layout.
    fn to_layout_pairs(self) -> Self::Output;
}
impl<S: Copy, D: Copy> PairsToLayout for HCons<(S, D), HNil> {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn to_layout_pairs(self) -> Self::Output {
        Layout {
            shape: self.0.0,
            stride: self.0.1,
        }
    }
}
impl<P, Q, T> PairsToLayout for HCons<P, HCons<Q, T>>
where
    HCons<P, HCons<Q, T>>: Unzip,
{
    type Output = Layout<
        <<HCons<P, HCons<Q, T>> as Unzip>::A as HList>::Tuple,
        <<HCons<P, HCons<Q, T>> as Unzip>::B as HList>::Tuple,
    >;
    #[inline(always)]
    fn to_layout_pairs(self) -> Self::Output {
        let (a, b) = self.unzip();
        Layout {
            shape: a.into_tuple(),
            stride: b.into_tuple(),
        }
    }
}

/// `composition_impl(lhs pairs, rs, rd)` for an rhs shape/stride of any profile: an integral
/// mode composes directly, a tuple mode by mode.
pub trait CompRhs<L, RD> {
    /// The composed layout.
    type Output: Copy;
    /// The composed layout.
    fn comp_rhs(self, l: L, rd: RD) -> Self::Output;
}
impl<RS: IntTuple, L, RD> CompRhs<L, RD> for RS
where
    RS::Kind: CompRhsK<RS, L, RD>,
{
    type Output = <RS::Kind as CompRhsK<RS, L, RD>>::Output;
    #[inline(always)]
    fn comp_rhs(self, l: L, rd: RD) -> Self::Output {
        <RS::Kind as CompRhsK<RS, L, RD>>::f(self, l, rd)
    }
}
/// Kind dispatch of [`CompRhs`].
pub trait CompRhsK<RS, L, RD> {
    /// The composed layout.
    type Output: Copy;
    /// The composed layout.
    fn f(rs: RS, l: L, rd: RD) -> Self::Output;
}
impl<RS, L: CompMode<RS, RD>, RD> CompRhsK<RS, L, RD> for IntK
where
    L::Output: PairsToLayout,
{
    type Output = <L::Output as PairsToLayout>::Output;
    #[inline(always)]
    fn f(rs: RS, l: L, rd: RD) -> Self::Output {
        l.comp_mode(rs, rd).to_layout_pairs()
    }
}
impl<RS: Tuple, L: Copy, RD: Tuple> CompRhsK<RS, L, RD> for TupK
where
    RS::H: CompRhsH<L, RD::H>,
    <RS::H as CompRhsH<L, RD::H>>::Output: Unzip,
{
    type Output = Layout<
        <<<RS::H as CompRhsH<L, RD::H>>::Output as Unzip>::A as HList>::Tuple,
        <<<RS::H as CompRhsH<L, RD::H>>::Output as Unzip>::B as HList>::Tuple,
    >;
    #[inline(always)]
    fn f(rs: RS, l: L, rd: RD) -> Self::Output {
        let (a, b) = rs.into_h().comp_rhs_h(l, rd.into_h()).unzip();
        Layout {
            shape: a.into_tuple(),
            stride: b.into_tuple(),
        }
    }
}
/// [`CompRhs`] of each rhs mode: a list of `(shape, stride)` pairs.
pub trait CompRhsH<L, RD> {
    /// The modes.
    type Output;
    /// The modes.
    fn comp_rhs_h(self, l: L, rd: RD) -> Self::Output;
}
impl<L> CompRhsH<L, HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn comp_rhs_h(self, _: L, _: HNil) -> HNil {
        HNil
    }
}
impl<R0: CompRhs<L, D0>, RT: CompRhsH<L, DT>, L: Copy, D0, DT> CompRhsH<L, HCons<D0, DT>>
    for HCons<R0, RT>
where
    R0::Output: LayoutParts,
{
    type Output = HCons<
        (
            <R0::Output as LayoutParts>::S,
            <R0::Output as LayoutParts>::D,
        ),
        RT::Output,
    >;
    #[inline(always)]
    fn comp_rhs_h(self, l: L, rd: HCons<D0, DT>) -> Self::Output {
        let m = self.0.comp_rhs(l, rd.0).parts();
        HCons(m, self.1.comp_rhs_h(l, rd.1))
    }
}

/// The result type of [`composition`].
pub type Composition<SA, DA, SB, DB> =
    <SB as CompRhs<<<SA as FlatPairs<DA>>::Output as CoalesceX>::Output, DB>>::Output;

/// `composition(a, b)` of two layouts (the layout case of [`composition`]): `a ∘ b`, shaped
/// like `b`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::composition::composition_layout;
/// let a = layout!((_4, _8):(_8, _1));                  // row-major 4x8
/// let c = composition_layout(a, layout!((_2, _4):(_1, _2)));
/// assert_eq!(c.to_string(), "(_2,(_2,_2)):(_8,(_16,_1))"); // as the value algebra says
/// assert!((0..8i32).all(|i| c.call(i) == a.call(layout!((_2, _4):(_1, _2)).call(i))));
/// ```
#[inline(always)]
pub fn composition_layout<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> Composition<SA, DA, SB, DB>
where
    SA: IntTuple + FlatPairs<DA>,
    DA: IntTuple,
    SA::Output: CoalesceX,
    SB: IntTuple + CompRhs<<SA::Output as CoalesceX>::Output, DB>,
    DB: IntTuple,
    Composition<SA, DA, SB, DB>: FromRecipe,
{
    static_call!(
        int: [SA, SB, DB],
        tiler: [],
        linear: DA = a.stride,
        out: Composition<SA, DA, SB, DB>,
        check: |d| crate::value::algebra::composition(&value_of(SA::CONST, d), &value_of(SB::CONST, DB::CONST)),
        {
            let lhs = a.shape.flat_pairs(a.stride).coalesce_x();
            b.shape.comp_rhs(lhs, b.stride)
        }
    )
}

/// `composition(a, tiler)`: CuTe's `composition(layout, tiler)` for any tiler ([`super::tiler`]):
/// a layout `b` gives `a ∘ b` ([`composition_layout`]); an integer `N` the first `N` elements
/// (`a ∘ N:_1`); `_` gives `a`; a tuple (CuTe's `make_tile(...)`, a by-mode tiler of layouts,
/// integers, `_` and tuples) composes mode `i` of `a` with tiler mode `i` and drops the modes of
/// `a` beyond the tiler. Static results are types; CuTe's static conditions (Stride and Shape
/// Divisibility, more tiler modes than layout modes) are compile errors.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((_4, _8):(_8, _1));                  // row-major 4x8
/// let c = composition(a, layout!((_2, _4):(_1, _2)));
/// assert_eq!(c.to_string(), "(_2,(_2,_2)):(_8,(_16,_1))");
/// // by mode: rows 0..2 by 2, columns 0..4 (CuTe's `composition(a, make_tile(_2:_2, _4))`)
/// let t = composition(a, (layout!(_2:_2), _4));
/// assert_eq!(t.to_string(), "(_2,_4):(_16,_1)");
/// // `_` keeps a mode; a dynamic extent stays dynamic
/// let m = 6i64;
/// assert_eq!(composition(layout!((m, _8):(_8, _1)), (Underscore, _2)).to_string(), "(6,_2):(_8,_1)");
/// ```
#[inline(always)]
pub fn composition<L: CompositionBy<T>, T>(a: L, tiler: T) -> L::Output {
    a.composition_by(tiler)
}

/// `composition(self, tiler)` for any tiler (see [`composition`]).
#[diagnostic::on_unimplemented(
    message = "composition: `{T}` cannot compose with `{Self}` (a by-mode tiler has at most as many modes as the layout, and a tuple tiler mode needs a tuple layout mode; see the notes)"
)]
pub trait CompositionBy<T> {
    /// The composed layout.
    type Output: Copy;
    /// The composed layout.
    fn composition_by(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: TilerMode> CompositionBy<T> for Layout<S, D>
where
    T::K: CompositionK<S, D, T>,
    <T::K as CompositionK<S, D, T>>::Output: FromRecipe,
{
    type Output = <T::K as CompositionK<S, D, T>>::Output;
    #[inline(always)]
    fn composition_by(self, t: T) -> Self::Output {
        static_call!(
            int: [S],
            tiler: [T],
            linear: D = self.stride,
            out: Self::Output,
            check: |d| crate::value::algebra::composition_tiler(&value_of(S::CONST, d), &T::TILER),
            <T::K as CompositionK<S, D, T>>::f(self, t)
        )
    }
}
/// Dispatch of [`CompositionBy`] on the tiler's kind.
pub trait CompositionK<S, D, T> {
    /// The composed layout.
    type Output: Copy;
    /// The composed layout.
    fn f(l: Layout<S, D>, t: T) -> Self::Output;
}
// an integer `N`: `composition_impl(coalesce_x(a), N, _1)`, i.e. `a ∘ N:_1`
impl<S, D, T> CompositionK<S, D, T> for IntK
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    S::Output: CoalesceX,
    T: IntTuple + CompRhs<<S::Output as CoalesceX>::Output, _1>,
    Composition<S, D, T, _1>: FromRecipe,
{
    type Output = Composition<S, D, T, _1>;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        composition_layout(
            l,
            Layout {
                shape: t,
                stride: C::new(),
            },
        )
    }
}
impl<S, D, TS, TD> CompositionK<S, D, Layout<TS, TD>> for LayK
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    S::Output: CoalesceX,
    TS: IntTuple + CompRhs<<S::Output as CoalesceX>::Output, TD>,
    TD: IntTuple,
    Composition<S, D, TS, TD>: FromRecipe,
{
    type Output = Composition<S, D, TS, TD>;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: Layout<TS, TD>) -> Self::Output {
        composition_layout(l, t)
    }
}
impl<S: Copy, D: Copy> CompositionK<S, D, Underscore> for UnderK {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn f(l: Layout<S, D>, _: Underscore) -> Self::Output {
        l
    }
}
// a tuple tiler: mode by mode, the modes beyond the tiler dropped (a leaf layout is one mode)
impl<S, D, T> CompositionK<S, D, T> for TupK
where
    T: TilerTuple,
    S: WrapH,
    D: WrapH,
    S::H: CompModesH<D::H, T::H>,
    <S::H as CompModesH<D::H, T::H>>::S: HList,
    <S::H as CompModesH<D::H, T::H>>::D: HList,
    <<S::H as CompModesH<D::H, T::H>>::S as HList>::Tuple: Copy,
    <<S::H as CompModesH<D::H, T::H>>::D as HList>::Tuple: Copy,
{
    type Output = Layout<
        <<S::H as CompModesH<D::H, T::H>>::S as HList>::Tuple,
        <<S::H as CompModesH<D::H, T::H>>::D as HList>::Tuple,
    >;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        let (s, d) = l.shape.wrap_h().comp_modes(l.stride.wrap_h(), t.tiler_h());
        Layout {
            shape: s.into_tuple(),
            stride: d.into_tuple(),
        }
    }
}

/// The by-mode composition over the mode lists of a layout (shapes `Self`, strides `D`) and of a
/// tuple tiler (`T`): each tiled mode composed, the modes beyond the tiler dropped.
#[diagnostic::on_unimplemented(
    message = "composition: Mismatched ranks (CuTe's static_assert: the tiler has more modes than the layout; tiler modes left over: `{T}`)"
)]
pub trait CompModesH<D, T> {
    /// The shapes of the modes.
    type S;
    /// The strides of the modes.
    type D;
    /// The modes.
    fn comp_modes(self, d: D, t: T) -> (Self::S, Self::D);
}
impl<S, D> CompModesH<D, HNil> for S {
    type S = HNil;
    type D = HNil;
    #[inline(always)]
    fn comp_modes(self, _: D, _: HNil) -> (HNil, HNil) {
        (HNil, HNil)
    }
}
impl<S0, ST, D0, DT, T0, TT> CompModesH<HCons<D0, DT>, HCons<T0, TT>> for HCons<S0, ST>
where
    Layout<S0, D0>: CompositionBy<T0>,
    <Layout<S0, D0> as CompositionBy<T0>>::Output: LayoutParts,
    ST: CompModesH<DT, TT>,
{
    type S = HCons<<<Layout<S0, D0> as CompositionBy<T0>>::Output as LayoutParts>::S, ST::S>;
    type D = HCons<<<Layout<S0, D0> as CompositionBy<T0>>::Output as LayoutParts>::D, ST::D>;
    #[inline(always)]
    fn comp_modes(self, d: HCons<D0, DT>, t: HCons<T0, TT>) -> (Self::S, Self::D) {
        let (s0, d0) = Layout {
            shape: self.0,
            stride: d.0,
        }
        .composition_by(t.0)
        .parts();
        let (st, dt) = self.1.comp_modes(d.1, t.1);
        (HCons(s0, st), HCons(d0, dt))
    }
}

/// `composition(swizzled, tiler)`: CuTe's `composition(ComposedLayout<Sw, O, L>, tiler)`, the
/// swizzle and middle over `composition(L, tiler)` — how a kernel carves a tile out of a swizzled
/// shared-memory layout (the swizzle still acts on the offsets of the whole buffer).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::value::swizzle::Swizzle;
/// let smem = make_composed_layout(Swizzle::<3, 3, 3>, layout!((_64, _64):(_64, _1)));
/// let tile = composition(smem, (_16, layout!(_32:_1)));        // rows 0..16, columns 0..32
/// assert_eq!(tile.to_string(), "Sw<3,3,3> o _0 o (_16,_32):(_64,_1)");
/// assert_eq!(tile.crd2idx((1i32, 8i32)), smem.crd2idx((1i32, 8i32)));
/// ```
impl<Sw: Copy, L: CompositionBy<T>, O: Copy, T> CompositionBy<T>
    for super::swizzle::Swizzled<Sw, L, O>
{
    type Output = super::swizzle::Swizzled<Sw, L::Output, O>;
    #[inline(always)]
    fn composition_by(self, t: T) -> Self::Output {
        super::swizzle::Swizzled {
            sw: self.sw,
            layout: self.layout.composition_by(t),
            offset: self.offset,
        }
    }
}
