//! `right_inverse(layout)` and `left_inverse(layout)` on typed layouts, CuTe 4.2's algorithms
//! (`layout.hpp`), decided on static values at the type level:
//!
//! * `right_inverse`: coalesce, keep the modes with *static* strides, order them by stride
//!   (CuTe's exchange sort), then follow the chain that starts at stride `_1`: a mode joins when
//!   its stride is the static `curr` (first `_1`, then `shape · stride` of the mode before). The
//!   result has the chain's shapes and the prefix products of the coalesced shape as strides,
//!   coalesced (`_1:_0` for an empty chain). A dynamic shape ends the chain (`curr` is dynamic).
//! * `left_inverse`: coalesce, all strides static (a compile error otherwise, CuTe's
//!   `static_assert`), ordered by stride; every non-zero stride `d` gives the mode
//!   `(d / size(so far), prefix product)` (CuTe's static divisibility condition is checked with
//!   the values), and the last mode by stride closes with its shape.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let l = layout!((_4, _2):(_2, _1));
//! assert_eq!(right_inverse(l).to_string(), "(_2,_4):(_4,_1)");
//! assert_eq!(left_inverse(layout!(_4:_2)).to_string(), "(_2,_4):(_0,_1)");
//! let m = 6i64;
//! assert_eq!(right_inverse(layout!((m, _4):(_4, _1))).to_string(), "(_4,6):(6,_1)");
//! ```

use super::coalesce::*;
use super::consts::{_0, _1};
use super::int::*;
use super::layout::*;
use super::static_call::static_call;
use super::tuple::*;
use typenum::{B0, B1};

/// The modes of `coalesce(layout)` (wrapped: a list of leaf pairs; the trivial `_1:_0` is the
/// pair `(_1, _0)`).
pub type CoalescedPairs<S, D> = <Coalesce<S, D> as LayoutPairs>::Output;

/// A layout's leaves as a list of `(shape, stride)` pairs.
pub trait LayoutPairs {
    /// The pairs.
    type Output;
    /// The pairs.
    fn layout_pairs(self) -> Self::Output;
}
impl<S: IntTuple + FlatPairs<D>, D: IntTuple> LayoutPairs for Layout<S, D> {
    type Output = S::Output;
    #[inline(always)]
    fn layout_pairs(self) -> Self::Output {
        self.shape.flat_pairs(self.stride)
    }
}

/// Each pair `(s, d)` with the prefix product of the shapes before it: `(s, d, p)`, `p` starting
/// at `Pre` (CuTe's `preprod_shape`, `p' = s · p`).
pub trait WithPre<Pre> {
    /// The triples.
    type Output;
    /// The triples.
    fn with_pre(self, pre: Pre) -> Self::Output;
}
impl<Pre> WithPre<Pre> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn with_pre(self, _: Pre) -> HNil {
        HNil
    }
}
impl<S: IntMul<Pre> + Copy, D, Pre: Copy, T: WithPre<Prod<S, Pre>>> WithPre<Pre>
    for HCons<(S, D), T>
{
    type Output = HCons<(S, D, Pre), T::Output>;
    #[inline(always)]
    fn with_pre(self, pre: Pre) -> Self::Output {
        let (s, d) = self.0;
        HCons((s, d, pre), self.1.with_pre(s.int_mul(pre)))
    }
}

/// Keeps the triples whose stride is static (CuTe's `filtered_seq` in `right_inverse`).
pub trait FilterStaticStrides {
    /// The triples.
    type Output;
    /// The triples.
    fn filter_static(self) -> Self::Output;
}
impl FilterStaticStrides for HNil {
    type Output = HNil;
    #[inline(always)]
    fn filter_static(self) -> HNil {
        HNil
    }
}
impl<S, D: StaticBit, P, T: FilterStaticStrides> FilterStaticStrides for HCons<(S, D, P), T>
where
    D::B: KeepIf<(S, D, P), T::Output>,
{
    type Output = <D::B as KeepIf<(S, D, P), T::Output>>::Output;
    #[inline(always)]
    fn filter_static(self) -> Self::Output {
        <D::B as KeepIf<(S, D, P), T::Output>>::f(self.0, self.1.filter_static())
    }
}
/// Keep the element (`B1`) or drop it (`B0`).
pub trait KeepIf<X, T> {
    /// The list.
    type Output;
    /// The list.
    fn f(x: X, t: T) -> Self::Output;
}
impl<X, T> KeepIf<X, T> for B1 {
    type Output = HCons<X, T>;
    #[inline(always)]
    fn f(x: X, t: T) -> Self::Output {
        HCons(x, t)
    }
}
impl<X, T> KeepIf<X, T> for B0 {
    type Output = T;
    #[inline(always)]
    fn f(_: X, t: T) -> T {
        t
    }
}

// ---------------------------------------------------------------------------------------------
// CuTe's exchange sort (`detail::SortByKey`), by stride
// ---------------------------------------------------------------------------------------------

/// The sort key of a triple: its stride.
pub trait StrideKey {
    /// The stride.
    type K;
}
impl<S, D, P> StrideKey for (S, D, P) {
    type K = D;
}

/// Whether `Self`'s key is statically less than `Cur`'s (`a[j] < a[i]` in the exchange sort).
pub trait KeyLt<Cur> {
    /// The bit.
    type Lt: typenum::Bit;
}
impl<X: StrideKey, Cur: StrideKey> KeyLt<Cur> for X
where
    X::K: super::complement::StaticLt<Cur::K>,
{
    type Lt = <X::K as super::complement::StaticLt<Cur::K>>::Lt;
}

/// One pass of the exchange sort for position `i`: `Cur` is `a[i]`; every later `a[j] < a[i]`
/// is swapped with it. Gives the final `a[i]` and the rest of the list.
pub trait XPass<Cur> {
    /// The final `a[i]`.
    type Cur;
    /// The list after position `i`.
    type Rest;
    /// The pass.
    fn pass(self, cur: Cur) -> (Self::Cur, Self::Rest);
}
impl<Cur> XPass<Cur> for HNil {
    type Cur = Cur;
    type Rest = HNil;
    #[inline(always)]
    fn pass(self, cur: Cur) -> (Cur, HNil) {
        (cur, HNil)
    }
}
impl<Cur, X: KeyLt<Cur>, T> XPass<Cur> for HCons<X, T>
where
    X::Lt: XSwap<Cur, X, T>,
{
    type Cur = <X::Lt as XSwap<Cur, X, T>>::Cur;
    type Rest = <X::Lt as XSwap<Cur, X, T>>::Rest;
    #[inline(always)]
    fn pass(self, cur: Cur) -> (Self::Cur, Self::Rest) {
        <X::Lt as XSwap<Cur, X, T>>::f(cur, self.0, self.1)
    }
}
/// The step of [`XPass`]: swap (`B1`: `X` becomes `a[i]`, `Cur` takes `X`'s place) or not.
pub trait XSwap<Cur, X, T> {
    /// The final `a[i]`.
    type Cur;
    /// The list after position `i`.
    type Rest;
    /// The step.
    fn f(cur: Cur, x: X, t: T) -> (Self::Cur, Self::Rest);
}
impl<Cur, X, T: XPass<X>> XSwap<Cur, X, T> for B1 {
    type Cur = T::Cur;
    type Rest = HCons<Cur, T::Rest>;
    #[inline(always)]
    fn f(cur: Cur, x: X, t: T) -> (Self::Cur, Self::Rest) {
        let (c, r) = t.pass(x);
        (c, HCons(cur, r))
    }
}
impl<Cur, X, T: XPass<Cur>> XSwap<Cur, X, T> for B0 {
    type Cur = T::Cur;
    type Rest = HCons<X, T::Rest>;
    #[inline(always)]
    fn f(cur: Cur, x: X, t: T) -> (Self::Cur, Self::Rest) {
        let (c, r) = t.pass(cur);
        (c, HCons(x, r))
    }
}
/// CuTe's `exchange_sort` of the triples by their (static) strides.
pub trait XSort {
    /// The sorted list.
    type Output;
    /// The sorted list.
    fn xsort(self) -> Self::Output;
}
impl XSort for HNil {
    type Output = HNil;
    #[inline(always)]
    fn xsort(self) -> HNil {
        HNil
    }
}
impl<H, T: XPass<H>> XSort for HCons<H, T>
where
    T::Rest: XSort,
{
    type Output = HCons<T::Cur, <T::Rest as XSort>::Output>;
    #[inline(always)]
    fn xsort(self) -> Self::Output {
        let (c, r) = self.1.pass(self.0);
        HCons(c, r.xsort())
    }
}

// ---------------------------------------------------------------------------------------------
// right_inverse
// ---------------------------------------------------------------------------------------------

/// The fold of `right_inverse` over the sorted triples: a triple `(s, d, p)` whose stride is the
/// static `Curr` gives the mode `(s, p)` and the next `Curr = s · d`; the others are passed.
pub trait RightChain<Curr> {
    /// The chain's modes.
    type Output;
    /// The chain's modes.
    fn chain(self, curr: Curr) -> Self::Output;
}
impl<Curr> RightChain<Curr> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn chain(self, _: Curr) -> HNil {
        HNil
    }
}
impl<S, D: StaticEq<Curr>, P, T, Curr> RightChain<Curr> for HCons<(S, D, P), T>
where
    D::Eq: ChainStep<(S, D, P), T, Curr>,
{
    type Output = <D::Eq as ChainStep<(S, D, P), T, Curr>>::Output;
    #[inline(always)]
    fn chain(self, curr: Curr) -> Self::Output {
        <D::Eq as ChainStep<(S, D, P), T, Curr>>::f(self.0, self.1, curr)
    }
}
/// The step of [`RightChain`]: the mode joins (`B1`) or not.
pub trait ChainStep<X, T, Curr> {
    /// The chain's modes.
    type Output;
    /// The chain's modes.
    fn f(x: X, t: T, curr: Curr) -> Self::Output;
}
impl<S: IntMul<D> + Copy, D: Copy, P, T: RightChain<Prod<S, D>>, Curr> ChainStep<(S, D, P), T, Curr>
    for B1
{
    type Output = HCons<(S, P), T::Output>;
    #[inline(always)]
    fn f(x: (S, D, P), t: T, _: Curr) -> Self::Output {
        let (s, d, p) = x;
        HCons((s, p), t.chain(s.int_mul(d)))
    }
}
impl<X, T: RightChain<Curr>, Curr> ChainStep<X, T, Curr> for B0 {
    type Output = T::Output;
    #[inline(always)]
    fn f(_: X, t: T, curr: Curr) -> Self::Output {
        t.chain(curr)
    }
}

/// The chain's modes as CuTe's `coalesce(make_layout((_1, shapes...), (_0, strides...)))`.
pub trait ChainLayout {
    /// The layout.
    type Output;
    /// The layout.
    fn chain_layout(self) -> Self::Output;
}
impl<L> ChainLayout for L
where
    HCons<(_1, _0), L>: BwCoalesce,
    <HCons<(_1, _0), L> as BwCoalesce>::Output: ToLayout,
{
    type Output = <<HCons<(_1, _0), L> as BwCoalesce>::Output as ToLayout>::Output;
    #[inline(always)]
    fn chain_layout(self) -> Self::Output {
        HCons((C::new(), C::new()), self).bw().to_layout()
    }
}

/// The sorted triples with static strides of [`right_inverse`].
pub type RightSorted<S, D> =
    <<<CoalescedPairs<S, D> as WithPre<_1>>::Output as FilterStaticStrides>::Output as XSort>::Output;

/// The result type of [`right_inverse`].
pub type RightInverse<S, D> =
    <<RightSorted<S, D> as RightChain<_1>>::Output as ChainLayout>::Output;

/// `right_inverse(layout)`: a layout `r` with `layout(r(i)) == i` for every `i < size(r)`
/// (CuTe 4.2: only static strides are followed; the chain starts at stride `_1`, so a layout
/// that never reaches offset 1 gives `_1:_0`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((_4, _8):(_8, _1));
/// let r = right_inverse(l);
/// assert_eq!(r.to_string(), "(_8,_4):(_4,_1)");
/// assert!((0..32).all(|i| l.call(r.call(i)) == i));
/// assert_eq!(right_inverse(layout!((_4, _2):(_2, _16))).to_string(), "_1:_0");
/// let k = 3i64;
/// assert_eq!(right_inverse(layout!((_2, k):(_1, _2))).to_string(), "(_2,3):(_1,_2)");
/// ```
#[inline(always)]
pub fn right_inverse<L: RightInverseOf>(l: L) -> L::Output {
    l.right_inverse_of()
}

/// [`right_inverse`] as a trait (its implementation): one bound for generic code (TiledCopy's and TiledMMA's thread
/// layouts, `max_common_vector`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::inverse::RightInverseOf;
/// assert_eq!(layout!((_4, _8):(_8, _1)).right_inverse_of().to_string(), "(_8,_4):(_4,_1)");
/// ```
pub trait RightInverseOf {
    /// The inverse.
    type Output: Copy;
    /// The inverse.
    fn right_inverse_of(self) -> Self::Output;
}
impl<S, D> RightInverseOf for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    S::Output: BwCoalesce,
    <S::Output as BwCoalesce>::Output: ToLayout,
    Coalesce<S, D>: LayoutPairs,
    CoalescedPairs<S, D>: WithPre<_1>,
    <CoalescedPairs<S, D> as WithPre<_1>>::Output: FilterStaticStrides,
    <<CoalescedPairs<S, D> as WithPre<_1>>::Output as FilterStaticStrides>::Output: XSort,
    RightSorted<S, D>: RightChain<_1>,
    <RightSorted<S, D> as RightChain<_1>>::Output: ChainLayout,
    RightInverse<S, D>: Copy,
{
    type Output = RightInverse<S, D>;
    #[inline(always)]
    fn right_inverse_of(self) -> Self::Output {
        let l = self;
        static_call!(
            int: [S, D],
            tiler: [],
            check: Ok::<(), crate::Error>(()),
            {
                super::coalesce::coalesce(l)
                    .layout_pairs()
                    .with_pre(C::new())
                    .filter_static()
                    .xsort()
                    .chain(C::new())
                    .chain_layout()
            }
        )
    }
}

// ---------------------------------------------------------------------------------------------
// left_inverse
// ---------------------------------------------------------------------------------------------

/// Whether every stride of a list of triples is static (CuTe's
/// `static_assert(is_static<decltype(lstride)>)` in `left_inverse`).
pub trait TriplesStatic {
    /// Whether every stride is static.
    const STATIC_STRIDES: bool;
}
impl TriplesStatic for HNil {
    const STATIC_STRIDES: bool = true;
}
impl<S, D: Integral, P, T: TriplesStatic> TriplesStatic for HCons<(S, D, P), T> {
    const STATIC_STRIDES: bool = D::IS_STATIC && T::STATIC_STRIDES;
}

/// The fold of `left_inverse` over the sorted triples: a triple `(s, d, p)` with a non-zero
/// stride gives the shape `d / Size` (`Size` the product of the shapes so far) paired with the
/// stride `Prev` (the previous mode's prefix product, first `_0`), and `Prev = p`; the last
/// sorted triple's shape closes the list with the last `Prev`.
pub trait LeftFold<Size, Prev> {
    /// The result's modes.
    type Output;
    /// The result's modes.
    fn fold(self, size: Size, prev: Prev) -> Self::Output;
}
impl<S, D: IntFacts, P, Size, Prev> LeftFold<Size, Prev> for HCons<(S, D, P), HNil>
where
    D::IsZero: LeftStep<(S, D, P), HNil, Size, Prev>,
{
    type Output = <D::IsZero as LeftStep<(S, D, P), HNil, Size, Prev>>::Output;
    #[inline(always)]
    fn fold(self, size: Size, prev: Prev) -> Self::Output {
        <D::IsZero as LeftStep<(S, D, P), HNil, Size, Prev>>::f(self.0, HNil, size, prev)
    }
}
impl<S, D: IntFacts, P, Q, T, Size, Prev> LeftFold<Size, Prev> for HCons<(S, D, P), HCons<Q, T>>
where
    D::IsZero: LeftStep<(S, D, P), HCons<Q, T>, Size, Prev>,
{
    type Output = <D::IsZero as LeftStep<(S, D, P), HCons<Q, T>, Size, Prev>>::Output;
    #[inline(always)]
    fn fold(self, size: Size, prev: Prev) -> Self::Output {
        <D::IsZero as LeftStep<(S, D, P), HCons<Q, T>, Size, Prev>>::f(self.0, self.1, size, prev)
    }
}
/// The step of [`LeftFold`] for a zero stride (`B1`: passed) or not (`B0`), on the rest `T`
/// (`HNil` after the last triple: the closing mode).
pub trait LeftStep<X, T, Size, Prev> {
    /// The result's modes.
    type Output;
    /// The result's modes.
    fn f(x: X, t: T, size: Size, prev: Prev) -> Self::Output;
}
impl<S, D, P, Size, Prev> LeftStep<(S, D, P), HNil, Size, Prev> for B1 {
    type Output = HCons<(S, Prev), HNil>;
    #[inline(always)]
    fn f(x: (S, D, P), _: HNil, _: Size, prev: Prev) -> Self::Output {
        HCons((x.0, prev), HNil)
    }
}
impl<S, D, P, Q, T, Size, Prev> LeftStep<(S, D, P), HCons<Q, T>, Size, Prev> for B1
where
    HCons<Q, T>: LeftFold<Size, Prev>,
{
    type Output = <HCons<Q, T> as LeftFold<Size, Prev>>::Output;
    #[inline(always)]
    fn f(_: (S, D, P), t: HCons<Q, T>, size: Size, prev: Prev) -> Self::Output {
        t.fold(size, prev)
    }
}
impl<S, D, P, Size, Prev> LeftStep<(S, D, P), HNil, Size, Prev> for B0
where
    D: Integral + IntDiv<Size>,
    Size: Integral,
{
    type Output = HCons<(Quot<D, Size>, Prev), HCons<(S, P), HNil>>;
    #[inline(always)]
    fn f(x: (S, D, P), _: HNil, size: Size, prev: Prev) -> Self::Output {
        divisibility_check::<D, Size>();
        let (s, d, p) = x;
        HCons((d.int_div(size), prev), HCons((s, p), HNil))
    }
}
impl<S, D, P, Q, T, Size, Prev> LeftStep<(S, D, P), HCons<Q, T>, Size, Prev> for B0
where
    D: Integral + IntDiv<Size>,
    Size: Integral + IntMul<Quot<D, Size>>,
    Quot<D, Size>: Copy,
    HCons<Q, T>: LeftFold<Prod<Size, Quot<D, Size>>, P>,
{
    type Output = HCons<
        (Quot<D, Size>, Prev),
        <HCons<Q, T> as LeftFold<Prod<Size, Quot<D, Size>>, P>>::Output,
    >;
    #[inline(always)]
    fn f(x: (S, D, P), t: HCons<Q, T>, size: Size, prev: Prev) -> Self::Output {
        divisibility_check::<D, Size>();
        let (_, d, p) = x;
        let q = d.int_div(size);
        HCons((q, prev), t.fold(size.int_mul(q), p))
    }
}

/// CuTe's `CUTE_STATIC_ASSERT_V((istride % size(result_shape)) == Int<0>{}, "Left inverse
/// divisibility condition")`, with the values.
#[inline(always)]
fn divisibility_check<D: Integral, Size: Integral>() {
    const {
        if D::IS_STATIC && Size::IS_STATIC {
            let (d, size) = (D::STATIC_VALUE, Size::STATIC_VALUE);
            if size != 0 && d % size != 0 {
                crate::Error::with2(
                    "Left inverse divisibility condition violated: stride {} is not a multiple of {}, the size of the modes with smaller strides (the layout has no left inverse)",
                    d,
                    size,
                )
                .panic()
            }
        }
    }
}

/// The sorted triples of [`left_inverse`].
pub type LeftSorted<S, D> = <<CoalescedPairs<S, D> as WithPre<_1>>::Output as XSort>::Output;

/// The result type of [`left_inverse`].
pub type LeftInverse<S, D> =
    <<<LeftSorted<S, D> as LeftFold<_1, _0>>::Output as BwCoalesce>::Output as ToLayout>::Output;

/// `left_inverse(layout)`: a layout `r` with `r(layout(i)) == i` for every `i < size(layout)`
/// when `layout` is injective (CuTe 4.2's algorithm; the strides must be static, as CuTe's
/// `static_assert` requires, and each stride a multiple of the size of the modes with smaller
/// strides: both checked at compile time).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((_4, _8):(_8, _1));
/// let r = left_inverse(l);
/// assert_eq!(r.to_string(), "(_8,_4):(_4,_1)");
/// assert!((0..32).all(|i| r.call(l.call(i)) == i));
/// let n = 5i64;
/// assert_eq!(left_inverse(layout!((n, _4):(_4, _1))).to_string(), "(_4,5):(5,_1)");
/// ```
#[inline(always)]
pub fn left_inverse<S, D>(l: Layout<S, D>) -> LeftInverse<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    S::Output: BwCoalesce,
    <S::Output as BwCoalesce>::Output: ToLayout,
    Coalesce<S, D>: LayoutPairs,
    CoalescedPairs<S, D>: WithPre<_1>,
    <CoalescedPairs<S, D> as WithPre<_1>>::Output: XSort + TriplesStatic,
    LeftSorted<S, D>: LeftFold<_1, _0>,
    <LeftSorted<S, D> as LeftFold<_1, _0>>::Output: BwCoalesce,
    <<LeftSorted<S, D> as LeftFold<_1, _0>>::Output as BwCoalesce>::Output: ToLayout,
{
    const {
        if !<<CoalescedPairs<S, D> as WithPre<_1>>::Output as TriplesStatic>::STATIC_STRIDES {
            panic!(
                "left_inverse: Left inverse requires static strides. (CuTe orders the modes by their static strides; make the strides static)"
            )
        }
    }
    super::coalesce::coalesce(l)
        .layout_pairs()
        .with_pre(C::new())
        .xsort()
        .fold(C::new(), C::new())
        .bw()
        .to_layout()
}
