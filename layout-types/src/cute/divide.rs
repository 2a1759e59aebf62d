//! The four divides of typed layouts — `logical_divide`, `zipped_divide`, `tiled_divide`,
//! `flat_divide` — by any CuTe tiler ([`super::tiler`]: a shape `(_32, _8)`, a tuple of layouts
//! one a mode, a single layout, an integer, `_`, nested freely), and the partitions built on the
//! shape-tiler divide: `local_tile` (inner partition) and `local_partition` / `outer_partition`,
//! with `Step` projections.
//!
//! As in CuTe (`layout.hpp`), a tuple tiler divides mode by mode (modes beyond the tiler's rank
//! are kept), a tuple mode of the tiler recurses into the sub-modes of its mode, and a layout
//! tiler `t` divides its mode (or the whole layout) `l` as
//! `composition(l, make_layout(t, complement(t, shape(coalesce(l)))))`, built from the typed
//! [`composition`] and complement, whose compile-time checks
//! apply. An integer tile `T` over a leaf mode `s:d` takes the short way,
//! `(T, ceil_div(s, T)):(_1·d, T·d)` (a part whose extent is the static `_1` gets the stride
//! `_0`), which is what the general form gives. The four divides differ in the arrangement:
//! logical `((t0,r0),(t1,r1),...,rest...)`, zipped `((t0,t1,...),(r0,r1,...,rest...))`, tiled
//! `((t0,t1,...),r0,r1,...,rest...)`, flat `(t0,t1,...,r0,r1,...,rest...)`.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let (m, n, ld) = (100i32, 60i32, 128i32);
//! let a = layout!((m, n):(_1, ld));
//! let z = zipped_divide(a, (_32, _8));
//! assert_eq!(z.to_string(), "((_32,_8),(4,8)):((_1,128),(_32,1024))");
//! let (tile, off) = local_tile(a, (_32, _8), (2i32, 3i32));
//! assert_eq!(tile.to_string(), "(_32,_8):(_1,128)");
//! assert_eq!(off, 2 * 32 + 3 * 8 * 128);
//! // a layout tiler: 32 threads of a warp, 8 rows by 4 columns
//! let thr = zipped_divide(layout!((_64, _16):(_1, _64)), layout!((_8, _4):(_1, _64)));
//! assert_eq!(thr.to_string(), "((_8,_4),(_8,_4)):((_1,_64),(_8,_256))");
//! ```

use super::coalesce::*;
use super::complement::ComplementTo;
use super::composition::*;
use super::consts::_1;
use super::int::*;
use super::layout::*;
use super::static_call::{static_call, value_of};
use super::tiler::*;
use super::tuple::Underscore;
use super::tuple::Unpack;
use super::tuple::*;
use typenum::{B0, B1};

/// How a divide checks static extents: not at all (`zipped_divide`).
pub const CHECK_NONE: u8 = 0;
/// `local_tile`: a static tile must divide a static mode.
pub const CHECK_TILE: u8 = 1;
/// `local_partition`: a static thread extent must not exceed a static tile mode.
pub const CHECK_THREADS: u8 = 2;

/// One leaf mode `s:d` divided by an extent `T`.
pub trait DivideLeaf<D, T> {
    /// Tile stride `_1 · d`.
    type TileD: Copy;
    /// Rest extent `ceil_div(s, T)`.
    type RestS: Copy;
    /// Rest stride `T · d` (or `_0` for a static `_1` rest).
    type RestD: Copy;
    /// `(tile stride, rest extent, rest stride)`.
    fn divide_leaf<const CHECK: u8>(self, d: D, t: T) -> (Self::TileD, Self::RestS, Self::RestD);
}
impl<S: Integral + CeilDiv<T>, D: Copy, T: IntFacts> DivideLeaf<D, T> for S
where
    T::IsOne: RestStride<_1, D>,
    S::Output: IntFacts,
    <S::Output as IntFacts>::IsOne: RestStride<T, D>,
{
    type TileD = <T::IsOne as RestStride<_1, D>>::Output;
    type RestS = S::Output;
    type RestD = <<S::Output as IntFacts>::IsOne as RestStride<T, D>>::Output;
    #[inline(always)]
    fn divide_leaf<const CHECK: u8>(self, d: D, t: T) -> (Self::TileD, Self::RestS, Self::RestD) {
        const {
            if S::IS_STATIC && T::IS_STATIC {
                let (s, tv) = (S::STATIC_VALUE, T::STATIC_VALUE);
                if CHECK == CHECK_TILE && s % tv != 0 {
                    crate::Error::with2(
                        "local_tile: the static tile extent {} does not divide the static mode extent {}; use a dividing tile, or a dynamic extent with predication",
                        tv,
                        s,
                    )
                    .panic()
                }
                if CHECK == CHECK_THREADS && tv > s {
                    crate::Error::with2(
                        "local_partition: the thread layout spans {} threads along a mode of the tile that has only {} elements",
                        tv,
                        s,
                    )
                    .panic()
                }
            }
        };
        (
            <T::IsOne as RestStride<_1, D>>::f(C::new(), d),
            self.ceil_div(t),
            <<S::Output as IntFacts>::IsOne as RestStride<T, D>>::f(t, d),
        )
    }
}
/// The stride of a divided leaf's tile or rest: `_0` when its extent is the static `_1` (CuTe's
/// `make_layout(_1)` is `_1:_0`), else `T · d` (`_1 · d` for the tile).
pub trait RestStride<T, D> {
    /// The stride.
    type Output: Copy;
    /// The stride.
    fn f(t: T, d: D) -> Self::Output;
}
impl<T, D> RestStride<T, D> for B1 {
    type Output = super::consts::_0;
    #[inline(always)]
    fn f(_: T, _: D) -> Self::Output {
        C::new()
    }
}
impl<T: IntMul<D>, D> RestStride<T, D> for B0 {
    type Output = Prod<T, D>;
    #[inline(always)]
    fn f(t: T, d: D) -> Self::Output {
        t.int_mul(d)
    }
}

/// The shape-tiler `zipped_divide` of [`local_tile`](crate::cute::partition::local_tile) over the modes of a layout: shape list `Self`, stride list `D`, tiler list `T`
/// (static extents). Returns the tile modes and the rest modes (the undivided modes after the
/// divided ones' rests), each as shape and stride lists.
#[diagnostic::on_unimplemented(
    message = "local_tile / local_partition: the tiler has more modes than the layout, or a divided mode is not a leaf (the typed partitions split integer extents)"
)]
pub trait ZipDivH<D, T> {
    /// Tile extents.
    type TS: HList;
    /// Tile strides.
    type TD: HList;
    /// Rest extents.
    type RS: HList;
    /// Rest strides.
    type RD: HList;
    /// The four lists.
    fn zip_div<const CHECK: u8>(self, d: D, t: T) -> (Self::TS, Self::TD, Self::RS, Self::RD);
}
impl ZipDivH<HNil, HNil> for HNil {
    type TS = HNil;
    type TD = HNil;
    type RS = HNil;
    type RD = HNil;
    #[inline(always)]
    fn zip_div<const CHECK: u8>(self, _: HNil, _: HNil) -> (HNil, HNil, HNil, HNil) {
        (HNil, HNil, HNil, HNil)
    }
}
impl<S0, ST, D0, DT> ZipDivH<HCons<D0, DT>, HNil> for HCons<S0, ST>
where
    HCons<S0, ST>: HList,
    HCons<D0, DT>: HList,
{
    type TS = HNil;
    type TD = HNil;
    type RS = HCons<S0, ST>;
    type RD = HCons<D0, DT>;
    #[inline(always)]
    fn zip_div<const CHECK: u8>(
        self,
        d: HCons<D0, DT>,
        _: HNil,
    ) -> (HNil, HNil, Self, HCons<D0, DT>) {
        (HNil, HNil, self, d)
    }
}
impl<S0, ST, D0, DT, T0: Copy, TT> ZipDivH<HCons<D0, DT>, HCons<T0, TT>> for HCons<S0, ST>
where
    S0: DivideLeaf<D0, T0>,
    ST: ZipDivH<DT, TT>,
    HCons<T0, ST::TS>: HList,
    HCons<S0::TileD, ST::TD>: HList,
    HCons<S0::RestS, ST::RS>: HList,
    HCons<S0::RestD, ST::RD>: HList,
{
    type TS = HCons<T0, ST::TS>;
    type TD = HCons<S0::TileD, ST::TD>;
    type RS = HCons<S0::RestS, ST::RS>;
    type RD = HCons<S0::RestD, ST::RD>;
    #[inline(always)]
    fn zip_div<const CHECK: u8>(
        self,
        d: HCons<D0, DT>,
        t: HCons<T0, TT>,
    ) -> (Self::TS, Self::TD, Self::RS, Self::RD) {
        let (td, rs, rd) = self.0.divide_leaf::<CHECK>(d.0, t.0);
        let (ts2, td2, rs2, rd2) = self.1.zip_div::<CHECK>(d.1, t.1);
        (
            HCons(t.0, ts2),
            HCons(td, td2),
            HCons(rs, rs2),
            HCons(rd, rd2),
        )
    }
}

/// The layout type of `zipped_divide(Layout<S, D>, T)` for a shape tiler `T` of integers over
/// leaf modes, as [`local_tile`](crate::cute::partition::local_tile) and the partitions compute it (the same type as
/// [`ZippedDivide`] for such tilers).
pub type LeafZippedDivide<S, D, T> = Layout<
    (
        <<<S as Tuple>::H as ZipDivH<<D as Tuple>::H, <T as Tuple>::H>>::TS as HList>::Tuple,
        <<<S as Tuple>::H as ZipDivH<<D as Tuple>::H, <T as Tuple>::H>>::RS as HList>::Tuple,
    ),
    (
        <<<S as Tuple>::H as ZipDivH<<D as Tuple>::H, <T as Tuple>::H>>::TD as HList>::Tuple,
        <<<S as Tuple>::H as ZipDivH<<D as Tuple>::H, <T as Tuple>::H>>::RD as HList>::Tuple,
    ),
>;

#[inline(always)]
fn zipped_divide_checked<const CHECK: u8, S: Tuple, D: Tuple, T: Tuple>(
    l: Layout<S, D>,
    t: T,
) -> LeafZippedDivide<S, D, T>
where
    S::H: ZipDivH<D::H, T::H>,
{
    let (ts, td, rs, rd) = l
        .shape
        .into_h()
        .zip_div::<CHECK>(l.stride.into_h(), t.into_h());
    Layout {
        shape: (ts.into_tuple(), rs.into_tuple()),
        stride: (td.into_tuple(), rd.into_tuple()),
    }
}

/// A list of `_` as long as a list.
pub trait UnderLike {
    /// The list of `_`.
    type Output: HList;
    /// The list of `_`.
    fn under_like() -> Self::Output;
}
impl UnderLike for HNil {
    type Output = HNil;
    #[inline(always)]
    fn under_like() -> HNil {
        HNil
    }
}
impl<A, T: UnderLike> UnderLike for HCons<A, T>
where
    HCons<Underscore, T::Output>: HList,
{
    type Output = HCons<Underscore, T::Output>;
    #[inline(always)]
    fn under_like() -> Self::Output {
        HCons(Underscore, T::under_like())
    }
}
/// A coordinate list padded with `_` to the length of `Like` (CuTe's `append<R>(coord, _)`).
pub trait PadUnder<Like> {
    /// The padded list.
    type Output: HList;
    /// The padded list.
    fn pad(self) -> Self::Output;
}
impl PadUnder<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn pad(self) -> HNil {
        HNil
    }
}
impl<A, T: UnderLike> PadUnder<HCons<A, T>> for HNil
where
    HCons<A, T>: UnderLike,
{
    type Output = <HCons<A, T> as UnderLike>::Output;
    #[inline(always)]
    fn pad(self) -> Self::Output {
        <HCons<A, T> as UnderLike>::under_like()
    }
}
impl<C0, CT: PadUnder<LT>, L0, LT> PadUnder<HCons<L0, LT>> for HCons<C0, CT>
where
    HCons<C0, CT::Output>: HList,
{
    type Output = HCons<C0, CT::Output>;
    #[inline(always)]
    fn pad(self) -> Self::Output {
        HCons(self.0, self.1.pad())
    }
}

/// The tile-mode and rest-mode lists of a zipped layout `((tiles), (rests))`.
pub type TileH<Z> = <<Z as Get<0>>::Output as Tuple>::H;
/// See [`TileH`].
pub type RestH<Z> = <<Z as Get<1>>::Output as Tuple>::H;

/// CuTe's `repeat<R>(_)`: `_` itself for `R == 1`, else a tuple of `R` underscores.
pub trait RepeatUnder {
    /// `_` or `(_, ..., _)`.
    type Output: Copy;
    /// The value.
    fn repeat_under() -> Self::Output;
}
impl<A> RepeatUnder for HCons<A, HNil> {
    type Output = Underscore;
    #[inline(always)]
    fn repeat_under() -> Underscore {
        Underscore
    }
}
impl<A, B, T> RepeatUnder for HCons<A, HCons<B, T>>
where
    HCons<A, HCons<B, T>>: UnderLike,
{
    type Output = <<HCons<A, HCons<B, T>> as UnderLike>::Output as HList>::Tuple;
    #[inline(always)]
    fn repeat_under() -> Self::Output {
        <HCons<A, HCons<B, T>> as UnderLike>::under_like().into_tuple()
    }
}

/// `inner_partition` coordinate: `(repeat<R0>(_), (coord..., _,...))`.
pub type InnerCoord<ZS, Cd> = (
    <TileH<ZS> as RepeatUnder>::Output,
    <<<Cd as Tuple>::H as PadUnder<RestH<ZS>>>::Output as HList>::Tuple,
);

/// `local_tile(tensor_layout, tiler, coord)` for a shape tiler over leaf modes, the form the
/// tensor methods use ([`Tensor::local_tile`](super::tensor::Tensor::local_tile)): the tile at
/// tile coordinate `coord` (which may hold `_` to keep all tiles of a mode), and its offset. A
/// static tile that does not divide a static mode fails to compile (a kernel's rule: C++ CuTe,
/// and [`local_tile`](crate::cute::partition::local_tile), give the partial tile of a `ceil_div` rest). Fewer traits to solve than
/// [`local_tile`](crate::cute::partition::local_tile).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((100i32, 60i32):(_1, 128i32));
/// let (tile, off) = local_tile_leaf(a, (_32, _8), (1i32, 2i32));
/// assert_eq!((tile.to_string().as_str(), off), ("(_32,_8):(_1,128)", 32 + 16 * 128));
/// let (col, _) = local_tile_leaf(a, (_32, _8), (1i32, Underscore));   // all tiles along n
/// assert_eq!(col.to_string(), "(_32,_8,8):(_1,128,1024)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_tile_leaf<S: Tuple, D: Tuple, T: Tuple, Cd: Tuple>(
    l: Layout<S, D>,
    tiler: T,
    coord: Cd,
) -> (
    <LeafZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::L,
    <LeafZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::Off,
)
where
    S::H: ZipDivH<D::H, T::H>,
    LeafZippedDivide<S, D, T>: HasShape,
    <LeafZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>: RepeatUnder,
    Cd::H: PadUnder<RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>>,
    LeafZippedDivide<S, D, T>: SliceOut<InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>>,
{
    let z = zipped_divide_checked::<{ CHECK_TILE }, S, D, T>(l, tiler);
    let c = (
        <TileH<<LeafZippedDivide<S, D, T> as HasShape>::S> as RepeatUnder>::repeat_under(),
        coord.into_h().pad().into_tuple(),
    );
    z.slice_out(c)
}

/// [`local_tile_leaf`] with a projection, `local_tile(tensor_layout, tiler, coord, step)`: the
/// tiler and the coordinate projected by a `Step` first (`(_1, X, _1)` keeps modes 0 and 2), as CuTe's GEMM uses one `(BM, BN, BK)`
/// tiler for A, B and C.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((256i32, 64i32):(_1, 256i32));                  // A is (M, K)
/// let cta = (_128, _128, _8);
/// let (ta, _) = local_tile_proj_leaf(a, cta, (1i32, 0i32, Underscore), (_1, X, _1));
/// assert_eq!(ta.to_string(), "(_128,_8,8):(_1,256,2048)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_tile_proj_leaf<S: Tuple, D: Tuple, T, Cd, P>(
    l: Layout<S, D>,
    tiler: T,
    coord: Cd,
    step: P,
) -> (
    <LeafZippedDivide<S, D, Diced<P, T>> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>,
    >>::L,
    <LeafZippedDivide<S, D, Diced<P, T>> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>,
    >>::Off,
)
where
    P: Copy + SliceT<T, B0> + SliceT<Cd, B0>,
    Diced<P, T>: Tuple,
    Diced<P, Cd>: Tuple,
    S::H: ZipDivH<D::H, <Diced<P, T> as Tuple>::H>,
    LeafZippedDivide<S, D, Diced<P, T>>: HasShape,
    <LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S: Get<0> + Get<1>,
    <<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S as Get<0>>::Output: Tuple,
    <<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S>: RepeatUnder,
    <Diced<P, Cd> as Tuple>::H:
        PadUnder<RestH<<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S>>,
    LeafZippedDivide<S, D, Diced<P, T>>:
        SliceOut<InnerCoord<<LeafZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>>,
{
    local_tile_leaf(l, step.slice_t(tiler), step.slice_t(coord))
}

/// `dice(step, t)`.
pub type Diced<P, T> = <P as SliceT<T, B0>>::Output;

/// The shape type of a layout.
pub trait HasShape {
    /// The shape.
    type S;
}
impl<S, D> HasShape for Layout<S, D> {
    type S = S;
}

/// `slice_and_offset` as a trait, so that result types can be named.
pub trait SliceOut<Cd> {
    /// The sliced layout.
    type L: Copy;
    /// The offset.
    type Off: Copy;
    /// Layout and offset.
    fn slice_out(self, c: Cd) -> (Self::L, Self::Off);
}
impl<S: IntTuple, D: IntTuple, Cd> SliceOut<Cd> for Layout<S, D>
where
    Cd: SliceT<S, B1> + SliceT<D, B1> + Crd2IdxUnder<S, D> + Copy,
{
    type L = Layout<<Cd as SliceT<S, B1>>::Output, <Cd as SliceT<D, B1>>::Output>;
    type Off = <Cd as Crd2IdxUnder<S, D>>::Output;
    #[inline(always)]
    fn slice_out(self, c: Cd) -> (Self::L, Self::Off) {
        self.slice_and_offset(c)
    }
}

/// `product_each(shape)`: the extent of each top-level mode.
pub trait ProductEach {
    /// The extents.
    type Output: Tuple;
    /// The extents.
    fn product_each(self) -> Self::Output;
}
impl<S: Tuple> ProductEach for S
where
    S::H: ProductEachH,
{
    type Output = <<S::H as ProductEachH>::Output as HList>::Tuple;
    #[inline(always)]
    fn product_each(self) -> Self::Output {
        self.into_h().product_each_h().into_tuple()
    }
}
/// [`ProductEach`] over a list.
pub trait ProductEachH {
    /// The extents.
    type Output: HList;
    /// The extents.
    fn product_each_h(self) -> Self::Output;
}
impl ProductEachH for HNil {
    type Output = HNil;
    #[inline(always)]
    fn product_each_h(self) -> HNil {
        HNil
    }
}
impl<A: Product, T: ProductEachH> ProductEachH for HCons<A, T>
where
    HCons<A::Output, T::Output>: HList,
{
    type Output = HCons<A::Output, T::Output>;
    #[inline(always)]
    fn product_each_h(self) -> Self::Output {
        HCons(self.0.product(), self.1.product_each_h())
    }
}

/// The coordinate of `outer_partition`: `(coord padded with _ (or an integer), repeat<R1>(_))`.
pub trait OuterCoord<TileList, RestList> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn outer(self) -> Self::Output;
}
impl<Cd: IntTuple, TL, RL> OuterCoord<TL, RL> for Cd
where
    Cd::Kind: OuterCoordK<Cd, TL, RL>,
{
    type Output = <Cd::Kind as OuterCoordK<Cd, TL, RL>>::Output;
    #[inline(always)]
    fn outer(self) -> Self::Output {
        <Cd::Kind as OuterCoordK<Cd, TL, RL>>::f(self)
    }
}
/// Kind dispatch of [`OuterCoord`].
pub trait OuterCoordK<Cd, TL, RL> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn f(c: Cd) -> Self::Output;
}
impl<Cd: Copy, TL, RL: RepeatUnder> OuterCoordK<Cd, TL, RL> for IntK {
    type Output = (Cd, RL::Output);
    #[inline(always)]
    fn f(c: Cd) -> Self::Output {
        (c, RL::repeat_under())
    }
}
impl<Cd: Tuple, TL, RL: RepeatUnder> OuterCoordK<Cd, TL, RL> for TupK
where
    Cd::H: PadUnder<TL>,
{
    type Output = (
        <<Cd::H as PadUnder<TL>>::Output as HList>::Tuple,
        RL::Output,
    );
    #[inline(always)]
    fn f(c: Cd) -> Self::Output {
        (c.into_h().pad().into_tuple(), RL::repeat_under())
    }
}

/// The result of `outer_partition(Layout<S, D>, T, coord)`.
pub type OuterOut<S, D, T, Cd> = <LeafZippedDivide<S, D, T> as SliceOut<
    <Cd as OuterCoord<
        TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
        RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
    >>::Output,
>>::L;
/// The offset of `outer_partition(Layout<S, D>, T, coord)`.
pub type OuterOff<S, D, T, Cd> = <LeafZippedDivide<S, D, T> as SliceOut<
    <Cd as OuterCoord<
        TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
        RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
    >>::Output,
>>::Off;

/// Everything `outer_partition` needs of its arguments (a bound alias).
pub trait OuterPartition<D, T, Cd>: Tuple {
    /// The partition's layout.
    type L: Copy;
    /// Its offset.
    type Off: Copy;
    /// `outer_partition`.
    fn outer_partition<const CHECK: u8>(l: Layout<Self, D>, t: T, c: Cd) -> (Self::L, Self::Off);
}
impl<S: Tuple, D: Tuple, T: Tuple, Cd> OuterPartition<D, T, Cd> for S
where
    S::H: ZipDivH<D::H, T::H>,
    LeafZippedDivide<S, D, T>: HasShape,
    <LeafZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    Cd: OuterCoord<
            TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
            RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
        >,
    LeafZippedDivide<S, D, T>: SliceOut<
        <Cd as OuterCoord<
            TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
            RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>,
        >>::Output,
    >,
{
    type L = OuterOut<S, D, T, Cd>;
    type Off = OuterOff<S, D, T, Cd>;
    #[inline(always)]
    fn outer_partition<const CHECK: u8>(l: Layout<S, D>, t: T, c: Cd) -> (Self::L, Self::Off) {
        let z = zipped_divide_checked::<CHECK, S, D, T>(l, t);
        z.slice_out(c.outer())
    }
}

/// `outer_partition(tensor_layout, tiler, coord)`: the rest modes at coordinate `coord` inside
/// each tile (an integer coordinate indexes the tile colexicographically).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((8i32, 6i32):(_1, 8i32));
/// let (part, off) = outer_partition(l, (_4, _2), (1i32, 0i32));
/// assert_eq!((part.to_string().as_str(), off), ("(2,3):(_4,16)", 1));
/// ```
#[inline(always)]
pub fn outer_partition<S: OuterPartition<D, T, Cd>, D, T, Cd>(
    l: Layout<S, D>,
    tiler: T,
    coord: Cd,
) -> (S::L, S::Off) {
    S::outer_partition::<{ CHECK_NONE }>(l, tiler, coord)
}

/// The thread coordinate type of `local_partition` for thread layout `Layout<TS, TD>` and index
/// type `I`.
pub type ThrCoord<TS, TD, I> = <<I as HierCoord<TS, TD>>::Output as FlatCoord<TS>>::Output;

/// `local_partition(tensor_layout, thr_layout, thr_idx)` over leaf modes, the form the tensor
/// methods use (see [`local_partition`](crate::cute::partition::local_partition) for every form): thread `thr_idx`'s elements when the
/// thread layout is tiled over the tensor (`outer_partition` by `product_each(shape(thr))` at
/// `thr.get_flat_coord(thr_idx)`). A static thread extent larger than a static tile mode fails
/// to compile.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let tile = layout!((_32, _8):(_1, 128i32));
/// let thr = layout!((_8, _4):(_1, _8));
/// let (part, off) = local_partition_leaf(tile, thr, 9u32);      // thread (1, 1)
/// assert_eq!(part.to_string(), "(_4,_2):(_8,512)");
/// assert_eq!(off, 1 + 128);
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_partition_leaf<S, D, TS, TD, I>(
    l: Layout<S, D>,
    thr: Layout<TS, TD>,
    idx: I,
) -> (
    <S as OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>>::L,
    <S as OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>>::Off,
)
where
    TS: IntTuple + ProductEach,
    TD: IntTuple,
    I: HierCoord<TS, TD>,
    I::Output: FlatCoord<TS>,
    S: OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>,
{
    let c = thr.get_flat_coord(idx);
    S::outer_partition::<{ CHECK_THREADS }>(l, thr.shape.product_each(), c)
}

/// [`local_partition_leaf`] with a projection, `local_partition(tensor_layout, thr_layout,
/// thr_idx, step)`: the thread layout projected by a `Step` first; the thread's coordinate in the kept modes comes from the full index (CuTe's
/// `local_partition(tensor, dice(step, thr), idx)`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((8i32, 6i32):(_1, 8i32));
/// let thr = layout!((_4, _2):(_1, _4));
/// let (p, _) = local_partition_proj_leaf(l, thr, 1u32, (_1, X));
/// assert_eq!(p.to_string(), "(2,6):(_4,8)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_partition_proj_leaf<S, D, TS, TD, I, P>(
    l: Layout<S, D>,
    thr: Layout<TS, TD>,
    idx: I,
    step: P,
) -> (
    <S as OuterPartition<
        D,
        <Diced<P, TS> as ProductEach>::Output,
        ThrCoord<Diced<P, TS>, Diced<P, TD>, I>,
    >>::L,
    <S as OuterPartition<
        D,
        <Diced<P, TS> as ProductEach>::Output,
        ThrCoord<Diced<P, TS>, Diced<P, TD>, I>,
    >>::Off,
)
where
    TS: IntTuple,
    TD: IntTuple,
    P: Copy + SliceT<TS, B0> + SliceT<TD, B0>,
    Diced<P, TS>: ProductEach + IntTuple,
    Diced<P, TD>: IntTuple,
    I: HierCoord<Diced<P, TS>, Diced<P, TD>>,
    <I as HierCoord<Diced<P, TS>, Diced<P, TD>>>::Output: FlatCoord<Diced<P, TS>>,
    S: OuterPartition<
            D,
            <Diced<P, TS> as ProductEach>::Output,
            ThrCoord<Diced<P, TS>, Diced<P, TD>, I>,
        >,
{
    local_partition_leaf(l, thr.dice(step), idx)
}

/// `local_tile` as a trait of the layout, so that generic code (the tensor methods) can name its
/// result with one bound.
pub trait LocalTile<T, Cd> {
    /// The tile's layout.
    type L: Copy;
    /// The tile's offset.
    type Off: Copy;
    /// `local_tile(self, tiler, coord)`.
    fn local_tile(self, tiler: T, coord: Cd) -> (Self::L, Self::Off);
}
impl<S: Tuple, D: Tuple, T: Tuple, Cd: Tuple> LocalTile<T, Cd> for Layout<S, D>
where
    S::H: ZipDivH<D::H, T::H>,
    LeafZippedDivide<S, D, T>: HasShape,
    <LeafZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<LeafZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<LeafZippedDivide<S, D, T> as HasShape>::S>: RepeatUnder,
    Cd::H: PadUnder<RestH<<LeafZippedDivide<S, D, T> as HasShape>::S>>,
    LeafZippedDivide<S, D, T>: SliceOut<InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>>,
{
    type L = <LeafZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::L;
    type Off = <LeafZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<LeafZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::Off;
    #[inline(always)]
    fn local_tile(self, tiler: T, coord: Cd) -> (Self::L, Self::Off) {
        local_tile_leaf(self, tiler, coord)
    }
}

/// `local_partition` as a trait of the layout (see [`LocalTile`]).
pub trait LocalPartition<Thr, I> {
    /// The partition's layout.
    type L: Copy;
    /// Its offset.
    type Off: Copy;
    /// `local_partition(self, thr, idx)`.
    fn local_partition(self, thr: Thr, idx: I) -> (Self::L, Self::Off);
}
impl<S, D, TS, TD, I> LocalPartition<Layout<TS, TD>, I> for Layout<S, D>
where
    TS: ProductEach + IntTuple,
    TD: IntTuple,
    I: HierCoord<TS, TD>,
    I::Output: FlatCoord<TS>,
    S: OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>,
{
    type L = <S as OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>>::L;
    type Off = <S as OuterPartition<D, TS::Output, ThrCoord<TS, TD, I>>>::Off;
    #[inline(always)]
    fn local_partition(self, thr: Layout<TS, TD>, idx: I) -> (Self::L, Self::Off) {
        local_partition_leaf(self, thr, idx)
    }
}

// ---------------------------------------------------------------------------------------------
// the divides by any tiler
// ---------------------------------------------------------------------------------------------

/// The shape of `coalesce(Layout<S, D>)`: the cotarget of the tiler's complement in a divide.
pub type CoalescedShape<S, D> = <Coalesce<S, D> as LayoutParts>::S;
/// `complement(Layout<TS, TD>, shape(coalesce(Layout<S, D>)))`.
pub type TilerComplement<TS, TD, S, D> =
    <Layout<TS, TD> as ComplementTo<CoalescedShape<S, D>>>::Output;
type TcS<TS, TD, S, D> = <TilerComplement<TS, TD, S, D> as LayoutParts>::S;
type TcD<TS, TD, S, D> = <TilerComplement<TS, TD, S, D> as LayoutParts>::D;

/// CuTe's `logical_divide(layout, tiler)` for a layout tiler `Layout<TS, TD>`:
/// `composition(layout, make_layout(tiler, complement(tiler, shape(coalesce(layout)))))`, a
/// rank-2 layout (the tile, the rest).
pub trait DivideByLayout<TS, TD> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn divide_by_layout(self, t: Layout<TS, TD>) -> Self::Output;
}
impl<S, D, TS, TD> DivideByLayout<TS, TD> for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    TS: IntTuple,
    TD: IntTuple,
    <S as FlatPairs<D>>::Output: BwCoalesce + CoalesceX,
    <<S as FlatPairs<D>>::Output as BwCoalesce>::Output: ToLayout,
    Coalesce<S, D>: LayoutParts,
    Layout<TS, TD>: ComplementTo<CoalescedShape<S, D>>,
    TilerComplement<TS, TD, S, D>: LayoutParts,
    TcS<TS, TD, S, D>: IntTuple,
    TcD<TS, TD, S, D>: IntTuple,
    (TS, TcS<TS, TD, S, D>):
        CompRhs<<<S as FlatPairs<D>>::Output as CoalesceX>::Output, (TD, TcD<TS, TD, S, D>)>,
    Composition<S, D, (TS, TcS<TS, TD, S, D>), (TD, TcD<TS, TD, S, D>)>:
        super::static_call::FromRecipe,
{
    type Output = Composition<S, D, (TS, TcS<TS, TD, S, D>), (TD, TcD<TS, TD, S, D>)>;
    #[inline(always)]
    fn divide_by_layout(self, t: Layout<TS, TD>) -> Self::Output {
        let cot = coalesce(self).parts().0;
        let (cs, cd) = t.complement_to(cot).parts();
        composition_layout(
            self,
            Layout {
                shape: (t.shape, cs),
                stride: (t.stride, cd),
            },
        )
    }
}

/// `logical_divide(self, tiler)` for any tiler (see [`super::tiler`]): a layout tiler divides
/// the whole layout; an integer `N` is the layout `N:_1`; `_` keeps the layout; a tuple divides
/// mode by mode.
#[diagnostic::on_unimplemented(
    message = "logical_divide: `{T}` cannot divide `{Self}` (a tuple tiler needs a tuple mode for each of its tuple modes; see the notes for the failing condition)"
)]
pub trait LogicalDivideBy<T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn logical_divide_by(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: TilerMode> LogicalDivideBy<T> for Layout<S, D>
where
    T::K: LogicalDivideK<S, D, T>,
    <T::K as LogicalDivideK<S, D, T>>::Output: super::static_call::FromRecipe,
{
    type Output = <T::K as LogicalDivideK<S, D, T>>::Output;
    #[inline(always)]
    fn logical_divide_by(self, t: T) -> Self::Output {
        static_call!(
            int: [S],
            tiler: [T],
            linear: D = self.stride,
            out: Self::Output,
            check: |d| crate::value::divide::logical_divide(&value_of(S::CONST, d), &T::TILER),
            <T::K as LogicalDivideK<S, D, T>>::f(self, t)
        )
    }
}
/// Dispatch of [`LogicalDivideBy`] on the tiler's kind (the kind is the `Self` type, so that an
/// unknown tiler type leaves the trait solver undecided instead of exploring every kind).
pub trait LogicalDivideK<S, D, T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn f(l: Layout<S, D>, t: T) -> Self::Output;
}
impl<S: IntTuple, D, T> LogicalDivideK<S, D, T> for IntK
where
    S::Kind: DivideIntK<S, D, T>,
{
    type Output = <S::Kind as DivideIntK<S, D, T>>::Output;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        <S::Kind as DivideIntK<S, D, T>>::f(l, t)
    }
}
impl<S, D, TS, TD> LogicalDivideK<S, D, Layout<TS, TD>> for LayK
where
    Layout<S, D>: DivideByLayout<TS, TD>,
{
    type Output = <Layout<S, D> as DivideByLayout<TS, TD>>::Output;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: Layout<TS, TD>) -> Self::Output {
        l.divide_by_layout(t)
    }
}
impl<S: Copy, D: Copy> LogicalDivideK<S, D, Underscore> for UnderK {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn f(l: Layout<S, D>, _: Underscore) -> Self::Output {
        l
    }
}
// a tuple tiler: mode by mode (a leaf layout is one mode)
impl<S, D, T> LogicalDivideK<S, D, T> for TupK
where
    T: TilerTuple,
    S: WrapH,
    D: WrapH,
    S::H: DivModesH<D::H, T::H>,
{
    type Output = Layout<
        <<S::H as DivModesH<D::H, T::H>>::S as HList>::Tuple,
        <<S::H as DivModesH<D::H, T::H>>::D as HList>::Tuple,
    >;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        let (s, d) = l.shape.wrap_h().div_modes(l.stride.wrap_h(), t.tiler_h());
        Layout {
            shape: s.into_tuple(),
            stride: d.into_tuple(),
        }
    }
}
/// An integer tiler `T`, dispatched on the kind of the divided shape: a leaf takes the short
/// form, a tuple is divided by the layout `make_layout(T)`.
pub trait DivideIntK<S, D, T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn f(l: Layout<S, D>, t: T) -> Self::Output;
}
impl<S: DivideLeaf<D, T>, D, T: Copy> DivideIntK<S, D, T> for IntK
where
    S::RestS: Copy,
{
    type Output = Layout<(T, S::RestS), (S::TileD, S::RestD)>;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        let (td, rs, rd) = l.shape.divide_leaf::<{ CHECK_NONE }>(l.stride, t);
        Layout {
            shape: (t, rs),
            stride: (td, rd),
        }
    }
}
impl<S, D, T> DivideIntK<S, D, T> for TupK
where
    T: CompactLeft<_1> + Copy,
    Layout<S, D>: DivideByLayout<T, T::Stride>,
{
    type Output = <Layout<S, D> as DivideByLayout<T, T::Stride>>::Output;
    #[inline(always)]
    fn f(l: Layout<S, D>, t: T) -> Self::Output {
        l.divide_by_layout(make_layout_left(t))
    }
}

/// The by-mode divide over the mode lists of a layout (shapes `Self`, strides `D`) and of a tuple
/// tiler (`T`): each tiled mode divided, the modes beyond the tiler kept.
#[diagnostic::on_unimplemented(
    message = "logical_divide: Too many modes in tiler (CuTe's static_assert: the tiler has more modes than the layout; tiler modes left over: `{T}`)"
)]
pub trait DivModesH<D, T> {
    /// The shapes of the modes.
    type S: HList;
    /// The strides of the modes.
    type D: HList;
    /// The modes.
    fn div_modes(self, d: D, t: T) -> (Self::S, Self::D);
}
impl DivModesH<HNil, HNil> for HNil {
    type S = HNil;
    type D = HNil;
    #[inline(always)]
    fn div_modes(self, _: HNil, _: HNil) -> (HNil, HNil) {
        (HNil, HNil)
    }
}
impl<S0, ST, D0, DT> DivModesH<HCons<D0, DT>, HNil> for HCons<S0, ST>
where
    HCons<S0, ST>: HList,
    HCons<D0, DT>: HList,
{
    type S = HCons<S0, ST>;
    type D = HCons<D0, DT>;
    #[inline(always)]
    fn div_modes(self, d: HCons<D0, DT>, _: HNil) -> (Self::S, Self::D) {
        (self, d)
    }
}
impl<S0, ST, D0, DT, T0, TT> DivModesH<HCons<D0, DT>, HCons<T0, TT>> for HCons<S0, ST>
where
    Layout<S0, D0>: LogicalDivideBy<T0>,
    <Layout<S0, D0> as LogicalDivideBy<T0>>::Output: LayoutParts,
    ST: DivModesH<DT, TT>,
    HCons<<<Layout<S0, D0> as LogicalDivideBy<T0>>::Output as LayoutParts>::S, ST::S>: HList,
    HCons<<<Layout<S0, D0> as LogicalDivideBy<T0>>::Output as LayoutParts>::D, ST::D>: HList,
{
    type S = HCons<<<Layout<S0, D0> as LogicalDivideBy<T0>>::Output as LayoutParts>::S, ST::S>;
    type D = HCons<<<Layout<S0, D0> as LogicalDivideBy<T0>>::Output as LayoutParts>::D, ST::D>;
    #[inline(always)]
    fn div_modes(self, d: HCons<D0, DT>, t: HCons<T0, TT>) -> (Self::S, Self::D) {
        let (s0, d0) = Layout {
            shape: self.0,
            stride: d.0,
        }
        .logical_divide_by(t.0)
        .parts();
        let (st, dt) = self.1.div_modes(d.1, t.1);
        (HCons(s0, st), HCons(d0, dt))
    }
}

/// A rank-2 tuple: its two modes.
#[diagnostic::on_unimplemented(
    message = "zip2_by: Mismatched ranks (CuTe's static_assert: `{Self}` is not a rank-2 mode; a tiler `_` keeps its mode, which must then be (tile, rest))"
)]
pub trait Rank2 {
    /// Mode 0.
    type A: Copy;
    /// Mode 1.
    type B: Copy;
    /// The two modes.
    fn split2(self) -> (Self::A, Self::B);
}
impl<A: Copy, B: Copy> Rank2 for (A, B) {
    type A = A;
    type B = B;
    #[inline(always)]
    fn split2(self) -> (A, B) {
        (self.0, self.1)
    }
}

/// CuTe's `zip2_by(layout, guide)` on a logically divided layout (or mode): the rank-2 modes at
/// the guide's (the tiler's) terminals gathered into `((tiles...), (rests..., other modes...))`.
/// The tile and the rest, as shapes and strides.
pub trait Zip2By<G> {
    /// Tile shape.
    type TS: IntTuple;
    /// Tile stride.
    type TD: IntTuple;
    /// Rest shape.
    type RS: IntTuple;
    /// Rest stride.
    type RD: IntTuple;
    /// `(tile shape, tile stride, rest shape, rest stride)`.
    fn zip2_by(self) -> (Self::TS, Self::TD, Self::RS, Self::RD);
}
impl<S, D, G: TilerMode> Zip2By<G> for Layout<S, D>
where
    G::K: Zip2ByK<S, D, G>,
{
    type TS = <G::K as Zip2ByK<S, D, G>>::TS;
    type TD = <G::K as Zip2ByK<S, D, G>>::TD;
    type RS = <G::K as Zip2ByK<S, D, G>>::RS;
    type RD = <G::K as Zip2ByK<S, D, G>>::RD;
    #[inline(always)]
    fn zip2_by(self) -> (Self::TS, Self::TD, Self::RS, Self::RD) {
        <G::K as Zip2ByK<S, D, G>>::f(self)
    }
}
/// Dispatch of [`Zip2By`] on the guide's kind.
pub trait Zip2ByK<S, D, G> {
    /// Tile shape.
    type TS: IntTuple;
    /// Tile stride.
    type TD: IntTuple;
    /// Rest shape.
    type RS: IntTuple;
    /// Rest stride.
    type RD: IntTuple;
    /// `(tile shape, tile stride, rest shape, rest stride)`.
    fn f(l: Layout<S, D>) -> (Self::TS, Self::TD, Self::RS, Self::RD);
}
macro_rules! zip2_by_leaf_guide {
    ($($k:ty),*) => {$(
        impl<S: Rank2, D: Rank2, G> Zip2ByK<S, D, G> for $k
        where
            S::A: IntTuple,
            S::B: IntTuple,
            D::A: IntTuple,
            D::B: IntTuple,
        {
            type TS = S::A;
            type TD = D::A;
            type RS = S::B;
            type RD = D::B;
            #[inline(always)]
            fn f(l: Layout<S, D>) -> (S::A, D::A, S::B, D::B) {
                let ((ts, rs), (td, rd)) = (l.shape.split2(), l.stride.split2());
                (ts, td, rs, rd)
            }
        }
    )*};
}
zip2_by_leaf_guide!(IntK, LayK, UnderK);
impl<S: Tuple, D: Tuple, G: TilerTuple> Zip2ByK<S, D, G> for TupK
where
    S::H: Zip2ByH<D::H, G::H>,
{
    type TS = <<S::H as Zip2ByH<D::H, G::H>>::TS as HList>::Tuple;
    type TD = <<S::H as Zip2ByH<D::H, G::H>>::TD as HList>::Tuple;
    type RS = <<S::H as Zip2ByH<D::H, G::H>>::RS as HList>::Tuple;
    type RD = <<S::H as Zip2ByH<D::H, G::H>>::RD as HList>::Tuple;
    #[inline(always)]
    fn f(l: Layout<S, D>) -> (Self::TS, Self::TD, Self::RS, Self::RD) {
        let (ts, td, rs, rd) = l.shape.into_h().zip2_by_h(l.stride.into_h());
        (
            ts.into_tuple(),
            td.into_tuple(),
            rs.into_tuple(),
            rd.into_tuple(),
        )
    }
}
/// [`Zip2By`] over the mode lists (shapes `Self`, strides `D`) guided by a tuple tiler's list `G`.
#[diagnostic::on_unimplemented(
    message = "zip2_by: Mismatched ranks (CuTe's static_assert: the tiler has more modes than the divided layout)"
)]
pub trait Zip2ByH<D, G> {
    /// Tile shapes.
    type TS: HList;
    /// Tile strides.
    type TD: HList;
    /// Rest shapes (then the other modes).
    type RS: HList;
    /// Rest strides (then the other modes).
    type RD: HList;
    /// The four lists.
    fn zip2_by_h(self, d: D) -> (Self::TS, Self::TD, Self::RS, Self::RD);
}
impl<S: HList, D: HList> Zip2ByH<D, HNil> for S {
    type TS = HNil;
    type TD = HNil;
    type RS = S;
    type RD = D;
    #[inline(always)]
    fn zip2_by_h(self, d: D) -> (HNil, HNil, S, D) {
        (HNil, HNil, self, d)
    }
}
impl<S0, ST, D0, DT, G0, GT> Zip2ByH<HCons<D0, DT>, HCons<G0, GT>> for HCons<S0, ST>
where
    Layout<S0, D0>: Zip2By<G0>,
    ST: Zip2ByH<DT, GT>,
    HCons<<Layout<S0, D0> as Zip2By<G0>>::TS, ST::TS>: HList,
    HCons<<Layout<S0, D0> as Zip2By<G0>>::TD, ST::TD>: HList,
    HCons<<Layout<S0, D0> as Zip2By<G0>>::RS, ST::RS>: HList,
    HCons<<Layout<S0, D0> as Zip2By<G0>>::RD, ST::RD>: HList,
{
    type TS = HCons<<Layout<S0, D0> as Zip2By<G0>>::TS, ST::TS>;
    type TD = HCons<<Layout<S0, D0> as Zip2By<G0>>::TD, ST::TD>;
    type RS = HCons<<Layout<S0, D0> as Zip2By<G0>>::RS, ST::RS>;
    type RD = HCons<<Layout<S0, D0> as Zip2By<G0>>::RD, ST::RD>;
    #[inline(always)]
    fn zip2_by_h(self, d: HCons<D0, DT>) -> (Self::TS, Self::TD, Self::RS, Self::RD) {
        let (ts, td, rs, rd) = Layout {
            shape: self.0,
            stride: d.0,
        }
        .zip2_by();
        let (ts2, td2, rs2, rd2) = self.1.zip2_by_h(d.1);
        (
            HCons(ts, ts2),
            HCons(td, td2),
            HCons(rs, rs2),
            HCons(rd, rd2),
        )
    }
}

/// The layout type of [`logical_divide`]`(Layout<S, D>, T)`.
pub type LogicalDivide<S, D, T> = <Layout<S, D> as LogicalDivideBy<T>>::Output;

/// `logical_divide(layout, tiler)`: each tiled mode (or, for a layout or integer tiler, the whole
/// layout) becomes `(tile, rest)`: `((t0,r0),(t1,r1),...,other modes...)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((_8, 6i64):(_1, _8));
/// assert_eq!(logical_divide(l, (_4, _2)).to_string(), "((_4,_2),(_2,3)):((_1,_4),(_8,_16))");
/// // by-mode layouts: every other row, 2 columns
/// let t = (layout!(_4:_2), layout!(_2:_1));
/// assert_eq!(logical_divide(l, t).to_string(), "((_4,_2),(_2,3)):((_2,_1),(_8,_16))");
/// // one layout for the whole: a 4x4 tile (the 8x6 layout is 48 contiguous elements), the rest
/// // are its 2x2 copies
/// let w = logical_divide(layout!((_8, _6):(_1, _8)), layout!((_4, _4):(_1, _8)));
/// assert_eq!(w.to_string(), "((_4,_4),(_2,_2)):((_1,_8),(_4,_32))");
/// ```
#[inline(always)]
pub fn logical_divide<S, D, T>(l: Layout<S, D>, tiler: T) -> LogicalDivide<S, D, T>
where
    Layout<S, D>: LogicalDivideBy<T>,
{
    l.logical_divide_by(tiler)
}

/// `zipped_divide(self, tiler)`: [`logical_divide`] with the tiles gathered in mode 0 and the
/// rests (then the untouched modes) in mode 1 (CuTe's `tile_unzip`).
pub trait ZippedDivideBy<T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn zipped_divide_by(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: TilerMode> ZippedDivideBy<T> for Layout<S, D>
where
    Layout<S, D>: LogicalDivideBy<T>,
    LogicalDivide<S, D, T>: Zip2By<T>,
{
    type Output = Layout<
        (
            <LogicalDivide<S, D, T> as Zip2By<T>>::TS,
            <LogicalDivide<S, D, T> as Zip2By<T>>::RS,
        ),
        (
            <LogicalDivide<S, D, T> as Zip2By<T>>::TD,
            <LogicalDivide<S, D, T> as Zip2By<T>>::RD,
        ),
    >;
    #[inline(always)]
    fn zipped_divide_by(self, t: T) -> Self::Output {
        static_call!(
            int: [S],
            tiler: [T],
            linear: D = self.stride,
            out: Self::Output,
            check: |d| crate::value::divide::zipped_divide(&value_of(S::CONST, d), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_divide_by(t).zip2_by();
                Layout {
                    shape: (ts, rs),
                    stride: (td, rd),
                }
            }
        )
    }
}

/// The layout type of [`zipped_divide`]`(Layout<S, D>, T)`.
pub type ZippedDivide<S, D, T> = <Layout<S, D> as ZippedDivideBy<T>>::Output;

/// `zipped_divide(layout, tiler)`: `((tiles...),(rests..., other modes...))`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let z = zipped_divide(layout!((_64, _16):(_16, _1)), (_8, _4));
/// assert_eq!(z.to_string(), "((_8,_4),(_8,_4)):((_16,_1),(_128,_4))");
/// // a nested shape tiler divides the sub-modes of a nested mode
/// let l = layout!(((_4, _6), _8):((_1, _4), _24));
/// assert_eq!(zipped_divide(l, ((_2, _3), _4)).to_string(), "(((_2,_3),_4),((_2,_2),_2)):(((_1,_4),_24),((_2,_12),_96))");
/// ```
#[inline(always)]
pub fn zipped_divide<S, D, T>(l: Layout<S, D>, tiler: T) -> ZippedDivide<S, D, T>
where
    Layout<S, D>: ZippedDivideBy<T>,
{
    l.zipped_divide_by(tiler)
}

/// `tiled_divide(self, tiler)`: the zipped divide with its rest mode unpacked.
pub trait TiledDivideBy<T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn tiled_divide_by(self, t: T) -> Self::Output;
}
type ZtS<S, D, T> = <LogicalDivide<S, D, T> as Zip2By<T>>::TS;
type ZtD<S, D, T> = <LogicalDivide<S, D, T> as Zip2By<T>>::TD;
type ZrS<S, D, T> = <LogicalDivide<S, D, T> as Zip2By<T>>::RS;
type ZrD<S, D, T> = <LogicalDivide<S, D, T> as Zip2By<T>>::RD;
impl<S: IntTuple, D: IntTuple, T: TilerMode> TiledDivideBy<T> for Layout<S, D>
where
    Layout<S, D>: LogicalDivideBy<T>,
    LogicalDivide<S, D, T>: Zip2By<T>,
    ZrS<S, D, T>: Unpack,
    ZrD<S, D, T>: Unpack,
    HCons<ZtS<S, D, T>, <ZrS<S, D, T> as Unpack>::H>: HList,
    HCons<ZtD<S, D, T>, <ZrD<S, D, T> as Unpack>::H>: HList,
{
    type Output = Layout<
        <HCons<ZtS<S, D, T>, <ZrS<S, D, T> as Unpack>::H> as HList>::Tuple,
        <HCons<ZtD<S, D, T>, <ZrD<S, D, T> as Unpack>::H> as HList>::Tuple,
    >;
    #[inline(always)]
    fn tiled_divide_by(self, t: T) -> Self::Output {
        static_call!(
            int: [S],
            tiler: [T],
            linear: D = self.stride,
            out: Self::Output,
            check: |d| crate::value::divide::tiled_divide(&value_of(S::CONST, d), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_divide_by(t).zip2_by();
                Layout {
                    shape: HCons(ts, rs.unpack()).into_tuple(),
                    stride: HCons(td, rd.unpack()).into_tuple(),
                }
            }
        )
    }
}

/// The layout type of [`tiled_divide`]`(Layout<S, D>, T)`.
pub type TiledDivide<S, D, T> = <Layout<S, D> as TiledDivideBy<T>>::Output;

/// `tiled_divide(layout, tiler)`: `((tiles...), rest0, rest1, ..., other modes...)` (CuTe's
/// `zipped_divide(layout, tiler)(_, repeat<R1>(_))`: a rest of rank 1 stays one mode).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let (m, n) = (100i64, 60i64);
/// let t = tiled_divide(layout!((m, n):(_1, m)), (_32, _8));
/// assert_eq!(t.to_string(), "((_32,_8),4,8):((_1,100),_32,800)");
/// ```
#[inline(always)]
pub fn tiled_divide<S, D, T>(l: Layout<S, D>, tiler: T) -> TiledDivide<S, D, T>
where
    Layout<S, D>: TiledDivideBy<T>,
{
    l.tiled_divide_by(tiler)
}

/// `flat_divide(self, tiler)`: the zipped divide with both modes unpacked.
pub trait FlatDivideBy<T> {
    /// The divided layout.
    type Output: Copy;
    /// The divided layout.
    fn flat_divide_by(self, t: T) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T: TilerMode> FlatDivideBy<T> for Layout<S, D>
where
    Layout<S, D>: LogicalDivideBy<T>,
    LogicalDivide<S, D, T>: Zip2By<T>,
    ZtS<S, D, T>: Unpack,
    ZtD<S, D, T>: Unpack,
    ZrS<S, D, T>: Unpack,
    ZrD<S, D, T>: Unpack,
    <ZtS<S, D, T> as Unpack>::H: Concat<<ZrS<S, D, T> as Unpack>::H>,
    <ZtD<S, D, T> as Unpack>::H: Concat<<ZrD<S, D, T> as Unpack>::H>,
    <<ZtS<S, D, T> as Unpack>::H as Concat<<ZrS<S, D, T> as Unpack>::H>>::Output: HList,
    <<ZtD<S, D, T> as Unpack>::H as Concat<<ZrD<S, D, T> as Unpack>::H>>::Output: HList,
{
    type Output = Layout<
        <<<ZtS<S, D, T> as Unpack>::H as Concat<<ZrS<S, D, T> as Unpack>::H>>::Output as HList>::Tuple,
        <<<ZtD<S, D, T> as Unpack>::H as Concat<<ZrD<S, D, T> as Unpack>::H>>::Output as HList>::Tuple,
    >;
    #[inline(always)]
    fn flat_divide_by(self, t: T) -> Self::Output {
        static_call!(
            int: [S],
            tiler: [T],
            linear: D = self.stride,
            out: Self::Output,
            check: |d| crate::value::divide::flat_divide(&value_of(S::CONST, d), &T::TILER),
            {
                let (ts, td, rs, rd) = self.logical_divide_by(t).zip2_by();
                Layout {
                    shape: ts.unpack().concat(rs.unpack()).into_tuple(),
                    stride: td.unpack().concat(rd.unpack()).into_tuple(),
                }
            }
        )
    }
}

/// The layout type of [`flat_divide`]`(Layout<S, D>, T)`.
pub type FlatDivide<S, D, T> = <Layout<S, D> as FlatDivideBy<T>>::Output;

/// `flat_divide(layout, tiler)`: `(tile0, tile1, ..., rest0, rest1, ..., other modes...)` (CuTe's
/// `zipped_divide(layout, tiler)(repeat<R0>(_), repeat<R1>(_))`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let f = flat_divide(layout!((_16, _12, _3):(_1, _16, _192)), (_4, _6));
/// assert_eq!(f.to_string(), "(_4,_6,_4,_2,_3):(_1,_16,_4,_96,_192)");
/// ```
#[inline(always)]
pub fn flat_divide<S, D, T>(l: Layout<S, D>, tiler: T) -> FlatDivide<S, D, T>
where
    Layout<S, D>: FlatDivideBy<T>,
{
    l.flat_divide_by(tiler)
}
