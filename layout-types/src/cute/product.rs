//! The layout products on typed layouts, built as CuTe builds them (`layout.hpp`):
//! `logical_product(a, b) = (a, composition(complement(a, size(a) · cosize(b)), b))` — `b`'s
//! layout applied to the copies of `a` — and its rearrangements `zipped_product`,
//! `tiled_product`, `flat_product` (unpacking the two modes) and `blocked_product` /
//! `raked_product` (rank-padded, then zipped mode by mode). The tiler of the first four is any
//! CuTe tiler (a layout, an integer, `_`, or a by-mode tuple of them: mode by mode, the modes
//! beyond the tiler kept); blocked and raked products take layouts. Every decision is static, as in
//! [`complement`] and
//! [`composition`], whose compile-time checks apply.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let tile = layout!((_2, _2):(_1, _2));
//! let grid = layout!((_3, _4):(_4, _1));
//! assert_eq!(logical_product(tile, grid).to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
//! assert_eq!(blocked_product(tile, grid).to_string(), "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))");
//! ```

use super::coalesce::FlatPairs;
use super::complement::*;
use super::composition::*;
use super::consts::{_0, _1};
use super::int::*;
use super::layout::*;
use super::static_call::{static_call, value_of};
use super::tuple::*;
use typenum::{B0, B1, IsEqual, Max, Unsigned};

/// `complement(self, cot)` as a trait (for the products' bounds).
pub trait ComplementOf<Cot> {
    /// The complement.
    type Output;
    /// The complement.
    fn complement_of(self, cot: Cot) -> Self::Output;
}
impl<S, D, Cot: IntTuple> ComplementOf<Cot> for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: super::coalesce::BwCoalesce,
    Cot: ComplementBy<Filtered<S, D>>,
{
    type Output = Complement<S, D, Cot>;
    #[inline(always)]
    fn complement_of(self, cot: Cot) -> Self::Output {
        complement(self, cot)
    }
}

/// `composition(self, b)` as a trait (for the products' bounds).
pub trait ComposeWith<B> {
    /// The composition.
    type Output;
    /// The composition.
    fn compose_with(self, b: B) -> Self::Output;
}
impl<SA, DA, SB, DB> ComposeWith<Layout<SB, DB>> for Layout<SA, DA>
where
    SA: IntTuple + FlatPairs<DA>,
    DA: IntTuple,
    <SA as FlatPairs<DA>>::Output: CoalesceX,
    SB: IntTuple + CompRhs<<<SA as FlatPairs<DA>>::Output as CoalesceX>::Output, DB>,
    DB: IntTuple,
    Composition<SA, DA, SB, DB>: super::static_call::FromRecipe,
{
    type Output = Composition<SA, DA, SB, DB>;
    #[inline(always)]
    fn compose_with(self, b: Layout<SB, DB>) -> Self::Output {
        composition_layout(self, b)
    }
}

/// `size(a) · cosize(b)`: the cotarget of the complement in `logical_product(a, b)`.
pub type ProductCotarget<SA, SB, DB> =
    Prod<<SA as Product>::Output, Sum<<SB as Cosize<DB>>::Output, _1>>;

/// The second mode of `logical_product(self, b)`: `composition(complement(self, size(self) ·
/// cosize(b)), b)`, as its shape and stride.
pub trait LogicalProductRest<B> {
    /// The shape.
    type S: IntTuple;
    /// The stride.
    type D: IntTuple;
    /// Shape and stride.
    fn rest(self, b: B) -> (Self::S, Self::D);
}
impl<SA, DA, SB, DB> LogicalProductRest<Layout<SB, DB>> for Layout<SA, DA>
where
    SA: Product,
    SB: IntTuple + Cosize<DB>,
    DB: IntTuple,
    <SB as Cosize<DB>>::Output: IntAdd<_1>,
    <SA as Product>::Output: IntMul<Sum<<SB as Cosize<DB>>::Output, _1>>,
    Layout<SA, DA>: ComplementOf<ProductCotarget<SA, SB, DB>> + Copy,
    <Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output:
        ComposeWith<Layout<SB, DB>>,
    <<Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output as ComposeWith<
        Layout<SB, DB>,
    >>::Output: LayoutParts,
    <<<Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output as ComposeWith<
        Layout<SB, DB>,
    >>::Output as LayoutParts>::S: IntTuple,
    <<<Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output as ComposeWith<
        Layout<SB, DB>,
    >>::Output as LayoutParts>::D: IntTuple,
{
    type S =
        <<<Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output as ComposeWith<
            Layout<SB, DB>,
        >>::Output as LayoutParts>::S;
    type D =
        <<<Layout<SA, DA> as ComplementOf<ProductCotarget<SA, SB, DB>>>::Output as ComposeWith<
            Layout<SB, DB>,
        >>::Output as LayoutParts>::D;
    #[inline(always)]
    fn rest(self, b: Layout<SB, DB>) -> (Self::S, Self::D) {
        let cot = self
            .shape
            .product()
            .int_mul(b.shape.span(b.stride).int_add(C::new()));
        self.complement_of(cot).compose_with(b).parts()
    }
}

/// The result type of [`logical_product`] (and [`zipped_product`]).
pub type LogicalProduct<SA, DA, B> = Layout<
    (SA, <Layout<SA, DA> as LogicalProductRest<B>>::S),
    (DA, <Layout<SA, DA> as LogicalProductRest<B>>::D),
>;

/// `logical_product(a, b)`: `(a, b ∘ complement)`: mode 0 is `a`, mode 1 lays out the copies of
/// `a` as `b` says.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((_2, _2):(_4, _1));
/// let p = logical_product(a, layout!(_6:_1));                 // a, then 6 copies of it
/// assert_eq!(p.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");  // the holes first
/// // dynamic tiler shapes: the copies are dynamic
/// let n = 3i64;
/// assert_eq!(logical_product(layout!(_4:_1), layout!(n:_1)).to_string(), "(_4,3):(_1,_4)");
/// ```
#[inline(always)]
pub fn logical_product_layout<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> LogicalProduct<SA, DA, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: LogicalProductRest<Layout<SB, DB>> + Copy,
{
    static_call!(
        int: [SA, DA, SB, DB],
        tiler: [],
        check: crate::value::product::logical_product(&value_of(SA::CONST, DA::CONST), &crate::value::algebra::Tiler::layout(value_of(SB::CONST, DB::CONST))),
        {
            let (s, d) = a.rest(b);
            Layout {
                shape: (a.shape, s),
                stride: (a.stride, d),
            }
        }
    )
}

/// `zipped_product(a, b)`: `((a modes...), (b modes...))` — for a layout tiler the same as
/// [`logical_product`].
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = zipped_product(layout!((_2, _2):(_1, _2)), layout!((_3, _4):(_4, _1)));
/// assert_eq!(p.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// ```
#[inline(always)]
pub fn zipped_product_layout<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> LogicalProduct<SA, DA, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: LogicalProductRest<Layout<SB, DB>> + Copy,
{
    logical_product_layout(a, b)
}

/// The result type of [`tiled_product`].
pub type TiledProduct<SA, DA, B> = Layout<
    <HCons<SA, <<Layout<SA, DA> as LogicalProductRest<B>>::S as Unpack>::H> as HList>::Tuple,
    <HCons<DA, <<Layout<SA, DA> as LogicalProductRest<B>>::D as Unpack>::H> as HList>::Tuple,
>;

/// `tiled_product(a, b)`: `((a modes...), b0, b1, ...)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = tiled_product(layout!((_2, _2):(_1, _2)), layout!((_3, _4):(_4, _1)));
/// assert_eq!(p.to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
#[inline(always)]
pub fn tiled_product_layout<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> TiledProduct<SA, DA, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: LogicalProductRest<Layout<SB, DB>> + Copy,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S: Unpack,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D: Unpack,
    HCons<SA, <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S as Unpack>::H>: HList,
    HCons<DA, <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D as Unpack>::H>: HList,
{
    static_call!(
        int: [SA, DA, SB, DB],
        tiler: [],
        check: crate::value::product::tiled_product(&value_of(SA::CONST, DA::CONST), &crate::value::algebra::Tiler::layout(value_of(SB::CONST, DB::CONST))),
        {
            let (s, d) = a.rest(b);
            Layout {
                shape: HCons(a.shape, s.unpack()).into_tuple(),
                stride: HCons(a.stride, d.unpack()).into_tuple(),
            }
        }
    )
}

/// `tiled_product(self, b)` as a trait (to name its type in bounds, as `TiledMma`'s
/// `ThrLayoutVmnk = tiled_product(AtomThrID, AtomLayoutMNK)` does).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::product::TiledProductBy;
/// let p = layout!((_2, _2):(_1, _2)).tiled_product_by(layout!((_3, _4):(_4, _1)));
/// assert_eq!(p.to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
/// ```
pub trait TiledProductBy<B> {
    /// The product.
    type Output: Copy + Default;
    /// The product.
    fn tiled_product_by(self, b: B) -> Self::Output;
}
impl<SA: IntTuple, DA: IntTuple, SB: IntTuple, DB: IntTuple> TiledProductBy<Layout<SB, DB>>
    for Layout<SA, DA>
where
    Layout<SA, DA>: LogicalProductRest<Layout<SB, DB>> + Copy,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S: Unpack,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D: Unpack,
    HCons<SA, <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S as Unpack>::H>: HList,
    HCons<DA, <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D as Unpack>::H>: HList,
    TiledProduct<SA, DA, Layout<SB, DB>>: Default,
{
    type Output = TiledProduct<SA, DA, Layout<SB, DB>>;
    #[inline(always)]
    fn tiled_product_by(self, b: Layout<SB, DB>) -> Self::Output {
        tiled_product_layout(self, b)
    }
}

/// The result type of [`flat_product`].
pub type FlatProduct<SA, DA, B> =
    Layout<
        <<<SA as Unpack>::H as Concat<
            <<Layout<SA, DA> as LogicalProductRest<B>>::S as Unpack>::H,
        >>::Output as HList>::Tuple,
        <<<DA as Unpack>::H as Concat<
            <<Layout<SA, DA> as LogicalProductRest<B>>::D as Unpack>::H,
        >>::Output as HList>::Tuple,
    >;

/// `flat_product(a, b)`: `(a0, a1, ..., b0, b1, ...)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = flat_product(layout!((_2, _2):(_1, _2)), layout!((_3, _4):(_4, _1)));
/// assert_eq!(p.to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
/// ```
#[inline(always)]
pub fn flat_product_layout<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> FlatProduct<SA, DA, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: LogicalProductRest<Layout<SB, DB>> + Copy,
    SA: Unpack,
    DA: Unpack,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S: Unpack,
    <Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D: Unpack,
    <SA as Unpack>::H:
        Concat<<<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S as Unpack>::H>,
    <DA as Unpack>::H:
        Concat<<<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D as Unpack>::H>,
    <<SA as Unpack>::H as Concat<
        <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::S as Unpack>::H,
    >>::Output: HList,
    <<DA as Unpack>::H as Concat<
        <<Layout<SA, DA> as LogicalProductRest<Layout<SB, DB>>>::D as Unpack>::H,
    >>::Output: HList,
{
    static_call!(
        int: [SA, DA, SB, DB],
        tiler: [],
        check: crate::value::product::flat_product(&value_of(SA::CONST, DA::CONST), &crate::value::algebra::Tiler::layout(value_of(SB::CONST, DB::CONST))),
        {
            let (s, d) = a.rest(b);
            Layout {
                shape: a.shape.unpack().concat(s.unpack()).into_tuple(),
                stride: a.stride.unpack().concat(d.unpack()).into_tuple(),
            }
        }
    )
}

// ---------------------------------------------------------------------------------------------
// blocked / raked
// ---------------------------------------------------------------------------------------------

/// CuTe's `append<N>(layout)`: `_1:_0` modes appended up to rank `N` (a layout of rank `N`
/// stays as it is; a leaf layout becomes a tuple).
pub trait PadTo<N> {
    /// The padded layout.
    type Output: Copy;
    /// The padded layout.
    fn pad_to(self) -> Self::Output;
}
impl<S: RankDepth, D, N> PadTo<N> for Layout<S, D>
where
    S::Rank: IsEqual<N>,
    <S::Rank as IsEqual<N>>::Output: PadK<S, D, N>,
{
    type Output = <<S::Rank as IsEqual<N>>::Output as PadK<S, D, N>>::Output;
    #[inline(always)]
    fn pad_to(self) -> Self::Output {
        <<S::Rank as IsEqual<N>>::Output as PadK<S, D, N>>::f(self)
    }
}
/// The step of [`PadTo`]: done (`B1`) or append one `_1:_0` (`B0`).
pub trait PadK<S, D, N> {
    /// The padded layout.
    type Output: Copy;
    /// The padded layout.
    fn f(l: Layout<S, D>) -> Self::Output;
}
impl<S: Copy, D: Copy, N> PadK<S, D, N> for B1 {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn f(l: Layout<S, D>) -> Self::Output {
        l
    }
}
impl<S, D, N> PadK<S, D, N> for B0
where
    S: IntTuple + WrapH,
    D: IntTuple + WrapH,
    S::H: Concat<HCons<_1, HNil>>,
    D::H: Concat<HCons<_0, HNil>>,
    <S::H as Concat<HCons<_1, HNil>>>::Output: HList,
    <D::H as Concat<HCons<_0, HNil>>>::Output: HList,
    Layout<Appended<S, _1>, Appended<D, _0>>: PadTo<N>,
{
    type Output = <Layout<Appended<S, _1>, Appended<D, _0>> as PadTo<N>>::Output;
    #[inline(always)]
    fn f(l: Layout<S, D>) -> Self::Output {
        l.append(Layout {
            shape: _1::new(),
            stride: _0::new(),
        })
        .pad_to()
    }
}

/// `zip(x, y)` of two IntTuples of the same rank: `((x0,y0),(x1,y1),...)`; a leaf `x` gives
/// `((x,y))`.
pub trait ZipWith<Y> {
    /// The zipped tuple.
    type Output: Copy;
    /// The zipped tuple.
    fn zip_with(self, y: Y) -> Self::Output;
}
impl<X: IntTuple, Y> ZipWith<Y> for X
where
    X::Kind: ZipK<X, Y>,
{
    type Output = <X::Kind as ZipK<X, Y>>::Output;
    #[inline(always)]
    fn zip_with(self, y: Y) -> Self::Output {
        <X::Kind as ZipK<X, Y>>::f(self, y)
    }
}
/// Kind dispatch of [`ZipWith`].
pub trait ZipK<X, Y> {
    /// The zipped tuple.
    type Output: Copy;
    /// The zipped tuple.
    fn f(x: X, y: Y) -> Self::Output;
}
impl<X: Copy, Y: Copy> ZipK<X, Y> for IntK {
    type Output = ((X, Y),);
    #[inline(always)]
    fn f(x: X, y: Y) -> Self::Output {
        ((x, y),)
    }
}
impl<X: Tuple, Y: WrapH> ZipK<X, Y> for TupK
where
    X::H: ZipH<Y::H>,
    <X::H as ZipH<Y::H>>::Output: HList,
{
    type Output = <<X::H as ZipH<Y::H>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(x: X, y: Y) -> Self::Output {
        x.into_h().zip_h(y.wrap_h()).into_tuple()
    }
}
/// [`ZipWith`] on lists.
pub trait ZipH<Y> {
    /// The list of pairs.
    type Output;
    /// The list of pairs.
    fn zip_h(self, y: Y) -> Self::Output;
}
impl ZipH<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn zip_h(self, _: HNil) -> HNil {
        HNil
    }
}
impl<X0, XT: ZipH<YT>, Y0, YT> ZipH<HCons<Y0, YT>> for HCons<X0, XT> {
    type Output = HCons<(X0, Y0), XT::Output>;
    #[inline(always)]
    fn zip_h(self, y: HCons<Y0, YT>) -> Self::Output {
        HCons((self.0, y.0), self.1.zip_h(y.1))
    }
}

/// `max(rank(a), rank(b))`.
pub type MaxRank<SA, SB> = <<SA as RankDepth>::Rank as Max<<SB as RankDepth>::Rank>>::Output;

/// `logical_product(append<R>(a), append<R>(b))` with `R = max(rank(a), rank(b))`: the padded
/// block and the rest mode, for [`blocked_product`] and [`raked_product`].
pub trait PaddedProduct<B> {
    /// The padded block.
    type A: Copy;
    /// The rest (shape, stride).
    type R: LayoutParts + Copy;
    /// The padded block and the rest.
    fn padded_product(self, b: B) -> (Self::A, Self::R);
}
impl<SA, DA, SB, DB> PaddedProduct<Layout<SB, DB>> for Layout<SA, DA>
where
    SA: RankDepth,
    SB: RankDepth,
    SA::Rank: Max<SB::Rank>,
    MaxRank<SA, SB>: Unsigned,
    Layout<SA, DA>: PadTo<MaxRank<SA, SB>>,
    Layout<SB, DB>: PadTo<MaxRank<SA, SB>>,
    <Layout<SA, DA> as PadTo<MaxRank<SA, SB>>>::Output:
        LogicalProductRest<<Layout<SB, DB> as PadTo<MaxRank<SA, SB>>>::Output>,
{
    type A = <Layout<SA, DA> as PadTo<MaxRank<SA, SB>>>::Output;
    type R = Layout<
        <Self::A as LogicalProductRest<<Layout<SB, DB> as PadTo<MaxRank<SA, SB>>>::Output>>::S,
        <Self::A as LogicalProductRest<<Layout<SB, DB> as PadTo<MaxRank<SA, SB>>>::Output>>::D,
    >;
    #[inline(always)]
    fn padded_product(self, b: Layout<SB, DB>) -> (Self::A, Self::R) {
        let a = self.pad_to();
        let (shape, stride) = a.rest(b.pad_to());
        (a, Layout { shape, stride })
    }
}

/// The padded block's shape and stride in [`blocked_product`] / [`raked_product`].
pub type PadS<A, B> = <<A as PaddedProduct<B>>::A as LayoutParts>::S;
/// See [`PadS`].
pub type PadD<A, B> = <<A as PaddedProduct<B>>::A as LayoutParts>::D;
/// The rest's shape in [`blocked_product`] / [`raked_product`].
pub type RestS<A, B> = <<A as PaddedProduct<B>>::R as LayoutParts>::S;
/// See [`RestS`].
pub type RestD<A, B> = <<A as PaddedProduct<B>>::R as LayoutParts>::D;

/// The result type of [`blocked_product`].
pub type BlockedProduct<A, B> = Layout<
    <PadS<A, B> as ZipWith<RestS<A, B>>>::Output,
    <PadD<A, B> as ZipWith<RestD<A, B>>>::Output,
>;
/// The result type of [`raked_product`].
pub type RakedProduct<A, B> = Layout<
    <RestS<A, B> as ZipWith<PadS<A, B>>>::Output,
    <RestD<A, B> as ZipWith<PadD<A, B>>>::Output,
>;

/// `blocked_product(a, b)`: the block `a` repeated over `b`, mode by mode: `((a0,b0),(a1,b1),...)`
/// (the ranks padded to the larger one with `_1:_0`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = blocked_product(layout!((_2, _5):(_5, _1)), layout!((_3, _4):(_1, _3)));
/// assert_eq!(p.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
#[inline(always)]
pub fn blocked_product<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> BlockedProduct<Layout<SA, DA>, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: PaddedProduct<Layout<SB, DB>>,
    <Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::A: LayoutParts,
    PadS<Layout<SA, DA>, Layout<SB, DB>>: ZipWith<RestS<Layout<SA, DA>, Layout<SB, DB>>>,
    PadD<Layout<SA, DA>, Layout<SB, DB>>: ZipWith<RestD<Layout<SA, DA>, Layout<SB, DB>>>,
{
    static_call!(
        int: [SA, DA, SB, DB],
        tiler: [],
        check: crate::value::product::blocked_product(&value_of(SA::CONST, DA::CONST), &value_of(SB::CONST, DB::CONST)),
        {
            let (pa, r) = a.padded_product(b);
            let ((s, d), (rs, rd)) = (pa.parts(), r.parts());
            Layout {
                shape: s.zip_with(rs),
                stride: d.zip_with(rd),
            }
        }
    )
}

/// `raked_product(a, b)`: the block `a` interleaved over `b`: `((b0,a0),(b1,a1),...)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = raked_product(layout!((_2, _5):(_5, _1)), layout!((_3, _4):(_1, _3)));
/// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
#[inline(always)]
pub fn raked_product<SA, DA, SB, DB>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> RakedProduct<Layout<SA, DA>, Layout<SB, DB>>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: PaddedProduct<Layout<SB, DB>>,
    <Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::A: LayoutParts,
    RestS<Layout<SA, DA>, Layout<SB, DB>>: ZipWith<PadS<Layout<SA, DA>, Layout<SB, DB>>>,
    RestD<Layout<SA, DA>, Layout<SB, DB>>: ZipWith<PadD<Layout<SA, DA>, Layout<SB, DB>>>,
{
    static_call!(
        int: [SA, DA, SB, DB],
        tiler: [],
        check: crate::value::product::raked_product(&value_of(SA::CONST, DA::CONST), &value_of(SB::CONST, DB::CONST)),
        {
            let (pa, r) = a.padded_product(b);
            let ((s, d), (rs, rd)) = (pa.parts(), r.parts());
            Layout {
                shape: rs.zip_with(s),
                stride: rd.zip_with(d),
            }
        }
    )
}

// ---------------------------------------------------------------------------------------------
// the products by any tiler
// ---------------------------------------------------------------------------------------------

/// CuTe's `logical_product(layout, tiler)` for any tiler ([`super::tiler`]): a layout is
/// [`logical_product_layout`]; an integer `N` the layout `N:_1`; `_` keeps the layout; a tuple
/// multiplies mode by mode (CuTe's `transform_layout`), the modes beyond the tiler kept.
#[diagnostic::on_unimplemented(
    message = "logical_product: `{T}` cannot multiply `{Self}` (Too many modes in tiler: CuTe's static_assert, or see the notes)"
)]
pub trait LogicalProductTiler<T> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn logical_product_tiler(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: super::tiler::TilerMode> LogicalProductTiler<T> for Layout<S, D>
where
    T::K: LogicalProductK<S, D, T>,
{
    type Output = <T::K as LogicalProductK<S, D, T>>::Output;
    #[inline(always)]
    fn logical_product_tiler(self, t: T) -> Self::Output {
        static_call!(
            int: [S, D],
            tiler: [T],
            check: crate::value::product::logical_product(&value_of(S::CONST, D::CONST), &T::TILER),
            <T::K as LogicalProductK<S, D, T>>::f(self, t)
        )
    }
}
/// Dispatch of [`LogicalProductTiler`] on the tiler's kind.
pub trait LogicalProductK<S, D, T> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn f(l: Layout<S, D>, t: T) -> Self::Output;
}
impl<S, D, TS, TD> LogicalProductK<S, D, Layout<TS, TD>> for super::tiler::LayK
where
    S: IntTuple,
    D: IntTuple,
    TS: IntTuple,
    TD: IntTuple,
    Layout<S, D>: LogicalProductRest<Layout<TS, TD>> + Copy,
    LogicalProduct<S, D, Layout<TS, TD>>: Copy,
{
    type Output = LogicalProduct<S, D, Layout<TS, TD>>;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: Layout<TS, TD>) -> Self::Output {
        logical_product_layout(l, t)
    }
}
impl<S, D, T> LogicalProductK<S, D, T> for IntK
where
    S: IntTuple,
    D: IntTuple,
    T: IntTuple + CompactLeft<_1> + Copy,
    Layout<S, D>: LogicalProductRest<Layout<T, T::Stride>> + Copy,
    LogicalProduct<S, D, Layout<T, T::Stride>>: Copy,
{
    type Output = LogicalProduct<S, D, Layout<T, T::Stride>>;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        logical_product_layout(l, make_layout_left(t))
    }
}
impl<S: Copy, D: Copy> LogicalProductK<S, D, Underscore> for UnderK {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn f(l: Layout<S, D>, _: Underscore) -> Self::Output {
        l
    }
}
impl<S, D, T> LogicalProductK<S, D, T> for TupK
where
    T: super::tiler::TilerTuple,
    S: WrapH,
    D: WrapH,
    S::H: ProdModesH<D::H, T::H>,
    <<S::H as ProdModesH<D::H, T::H>>::S as HList>::Tuple: Copy,
    <<S::H as ProdModesH<D::H, T::H>>::D as HList>::Tuple: Copy,
{
    type Output = Layout<
        <<S::H as ProdModesH<D::H, T::H>>::S as HList>::Tuple,
        <<S::H as ProdModesH<D::H, T::H>>::D as HList>::Tuple,
    >;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        let (s, d) = l.shape.wrap_h().prod_modes(l.stride.wrap_h(), t.tiler_h());
        Layout {
            shape: s.into_tuple(),
            stride: d.into_tuple(),
        }
    }
}
/// The by-mode product over the mode lists of a layout and a tuple tiler: each tiled mode
/// multiplied, the modes beyond the tiler kept.
#[diagnostic::on_unimplemented(
    message = "logical_product: Too many modes in tiler (CuTe's static_assert: the tiler has more modes than the layout; tiler modes left over: `{T}`)"
)]
pub trait ProdModesH<D, T> {
    /// The shapes of the modes.
    type S: HList;
    /// The strides of the modes.
    type D: HList;
    /// The modes.
    fn prod_modes(self, d: D, t: T) -> (Self::S, Self::D);
}
impl<S: HList, D: HList> ProdModesH<D, HNil> for S {
    type S = S;
    type D = D;
    #[inline(always)]
    fn prod_modes(self, d: D, _: HNil) -> (S, D) {
        (self, d)
    }
}
impl<S0, ST, D0, DT, T0, TT> ProdModesH<HCons<D0, DT>, HCons<T0, TT>> for HCons<S0, ST>
where
    Layout<S0, D0>: LogicalProductTiler<T0>,
    <Layout<S0, D0> as LogicalProductTiler<T0>>::Output: LayoutParts,
    ST: ProdModesH<DT, TT>,
    HCons<<<Layout<S0, D0> as LogicalProductTiler<T0>>::Output as LayoutParts>::S, ST::S>: HList,
    HCons<<<Layout<S0, D0> as LogicalProductTiler<T0>>::Output as LayoutParts>::D, ST::D>: HList,
{
    type S = HCons<<<Layout<S0, D0> as LogicalProductTiler<T0>>::Output as LayoutParts>::S, ST::S>;
    type D = HCons<<<Layout<S0, D0> as LogicalProductTiler<T0>>::Output as LayoutParts>::D, ST::D>;
    #[inline(always)]
    fn prod_modes(self, d: HCons<D0, DT>, t: HCons<T0, TT>) -> (Self::S, Self::D) {
        let (s0, d0) = Layout {
            shape: self.0,
            stride: d.0,
        }
        .logical_product_tiler(t.0)
        .parts();
        let (st, dt) = self.1.prod_modes(d.1, t.1);
        (HCons(s0, st), HCons(d0, dt))
    }
}

type PZ<S, D, T> = <Layout<S, D> as LogicalProductTiler<T>>::Output;
type PtS<S, D, T> = <PZ<S, D, T> as super::divide::Zip2By<T>>::TS;
type PtD<S, D, T> = <PZ<S, D, T> as super::divide::Zip2By<T>>::TD;
type PrS<S, D, T> = <PZ<S, D, T> as super::divide::Zip2By<T>>::RS;
type PrD<S, D, T> = <PZ<S, D, T> as super::divide::Zip2By<T>>::RD;

/// CuTe's `zipped_product(layout, tiler)`: `zip2_by(logical_product(layout, tiler), tiler)`,
/// `((tiles...), (rests...))`.
pub trait ZippedProductTiler<T> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn zipped_product_tiler(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: super::tiler::TilerMode> ZippedProductTiler<T> for Layout<S, D>
where
    Layout<S, D>: LogicalProductTiler<T>,
    PZ<S, D, T>: super::divide::Zip2By<T>,
{
    type Output = Layout<(PtS<S, D, T>, PrS<S, D, T>), (PtD<S, D, T>, PrD<S, D, T>)>;
    #[inline(always)]
    fn zipped_product_tiler(self, t: T) -> Self::Output {
        use super::divide::Zip2By;
        static_call!(
            int: [S, D],
            tiler: [T],
            check: crate::value::product::zipped_product(&value_of(S::CONST, D::CONST), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_product_tiler(t).zip2_by();
                Layout {
                    shape: (ts, rs),
                    stride: (td, rd),
                }
            }
        )
    }
}
/// CuTe's `tiled_product(layout, tiler)`: the zipped product with its rest mode unpacked.
pub trait TiledProductTiler<T> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn tiled_product_tiler(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: super::tiler::TilerMode> TiledProductTiler<T> for Layout<S, D>
where
    Layout<S, D>: LogicalProductTiler<T>,
    PZ<S, D, T>: super::divide::Zip2By<T>,
    PrS<S, D, T>: Unpack,
    PrD<S, D, T>: Unpack,
    HCons<PtS<S, D, T>, <PrS<S, D, T> as Unpack>::H>: HList,
    HCons<PtD<S, D, T>, <PrD<S, D, T> as Unpack>::H>: HList,
{
    type Output = Layout<
        <HCons<PtS<S, D, T>, <PrS<S, D, T> as Unpack>::H> as HList>::Tuple,
        <HCons<PtD<S, D, T>, <PrD<S, D, T> as Unpack>::H> as HList>::Tuple,
    >;
    #[inline(always)]
    fn tiled_product_tiler(self, t: T) -> Self::Output {
        use super::divide::Zip2By;
        static_call!(
            int: [S, D],
            tiler: [T],
            check: crate::value::product::tiled_product(&value_of(S::CONST, D::CONST), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_product_tiler(t).zip2_by();
                Layout {
                    shape: HCons(ts, rs.unpack()).into_tuple(),
                    stride: HCons(td, rd.unpack()).into_tuple(),
                }
            }
        )
    }
}
/// CuTe's `flat_product(layout, tiler)`: the zipped product with both modes unpacked.
pub trait FlatProductTiler<T> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn flat_product_tiler(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: super::tiler::TilerMode> FlatProductTiler<T> for Layout<S, D>
where
    Layout<S, D>: LogicalProductTiler<T>,
    PZ<S, D, T>: super::divide::Zip2By<T>,
    PtS<S, D, T>: Unpack,
    PtD<S, D, T>: Unpack,
    PrS<S, D, T>: Unpack,
    PrD<S, D, T>: Unpack,
    <PtS<S, D, T> as Unpack>::H: Concat<<PrS<S, D, T> as Unpack>::H>,
    <PtD<S, D, T> as Unpack>::H: Concat<<PrD<S, D, T> as Unpack>::H>,
    <<PtS<S, D, T> as Unpack>::H as Concat<<PrS<S, D, T> as Unpack>::H>>::Output: HList,
    <<PtD<S, D, T> as Unpack>::H as Concat<<PrD<S, D, T> as Unpack>::H>>::Output: HList,
{
    type Output = Layout<
        <<<PtS<S, D, T> as Unpack>::H as Concat<<PrS<S, D, T> as Unpack>::H>>::Output as HList>::Tuple,
        <<<PtD<S, D, T> as Unpack>::H as Concat<<PrD<S, D, T> as Unpack>::H>>::Output as HList>::Tuple,
    >;
    #[inline(always)]
    fn flat_product_tiler(self, t: T) -> Self::Output {
        use super::divide::Zip2By;
        static_call!(
            int: [S, D],
            tiler: [T],
            check: crate::value::product::flat_product(&value_of(S::CONST, D::CONST), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_product_tiler(t).zip2_by();
                Layout {
                    shape: ts.unpack().concat(rs.unpack()).into_tuple(),
                    stride: td.unpack().concat(rd.unpack()).into_tuple(),
                }
            }
        )
    }
}

/// CuTe's `logical_product(layout, tiler)` for any tiler: `(layout, tiler ∘ complement)` for a
/// layout tiler ([`logical_product_layout`]); a by-mode tuple multiplies mode by mode.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let tile = layout!((_2, _2):(_1, _2));
/// assert_eq!(logical_product(tile, layout!((_3, _4):(_4, _1))).to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
/// // by mode (CuTe's `make_tile(_3, _4)`): mode 0 repeated 3 times, mode 1 4 times
/// let p = logical_product(tile, (_3, _4));
/// assert_eq!(p.to_string(), "((_2,_3),(_2,(_2,_2))):((_1,_2),(_2,(_1,_4)))");
/// ```
#[inline(always)]
pub fn logical_product<L: LogicalProductTiler<T>, T>(a: L, tiler: T) -> L::Output {
    a.logical_product_tiler(tiler)
}
/// CuTe's `zipped_product(layout, tiler)` for any tiler (see [`logical_product`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = zipped_product(layout!((_2, _2):(_1, _2)), (_3, _4));
/// assert_eq!(p.to_string(), "((_2,_2),(_3,(_2,_2))):((_1,_2),(_2,(_1,_4)))");
/// ```
#[inline(always)]
pub fn zipped_product<L: ZippedProductTiler<T>, T>(a: L, tiler: T) -> L::Output {
    a.zipped_product_tiler(tiler)
}
/// CuTe's `tiled_product(layout, tiler)` for any tiler (see [`logical_product`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = tiled_product(layout!((_2, _2):(_1, _2)), (_3, _4));
/// assert_eq!(p.to_string(), "((_2,_2),_3,(_2,_2)):((_1,_2),_2,(_1,_4))");
/// ```
#[inline(always)]
pub fn tiled_product<L: TiledProductTiler<T>, T>(a: L, tiler: T) -> L::Output {
    a.tiled_product_tiler(tiler)
}
/// CuTe's `flat_product(layout, tiler)` for any tiler (see [`logical_product`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let p = flat_product(layout!((_2, _2):(_1, _2)), (_3, _4));
/// assert_eq!(p.to_string(), "(_2,_2,_3,(_2,_2)):(_1,_2,_2,(_1,_4))");
/// ```
#[inline(always)]
pub fn flat_product<L: FlatProductTiler<T>, T>(a: L, tiler: T) -> L::Output {
    a.flat_product_tiler(tiler)
}
