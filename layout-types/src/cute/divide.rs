//! Divides of typed layouts by shape tilers (`(_32, _8)`: one `N:_1` tile a mode; static or
//! dynamic extents), and the
//! partitions built on them: `zipped_divide`, `local_tile` (inner partition) and
//! `local_partition` / `outer_partition`, with `Step` projections.
//!
//! A mode `s:d` divided by `T` is `(T, ceil_div(s, T)):(_1·d, T·d)` (CuTe's
//! `logical_divide(s:d, T:_1)` = `composition(s:d, (T:_1, complement(T:_1, s)))`; a part whose
//! extent is the static `_1` gets the stride `_0`). The divided modes must be leaves (an integer extent,
//! static or dynamic): that covers tensors over matrices and tiles of any static/dynamic mix;
//! dividing a nested mode is done with the value algebra ([`crate::divide`]).
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
//! ```

use super::consts::_1;
use super::int::*;
use super::layout::*;
use super::tuple::*;
use crate::static_layout::Underscore;
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

/// `zipped_divide` over the modes of a layout: shape list `Self`, stride list `D`, tiler list `T`
/// (static extents). Returns the tile modes and the rest modes (the undivided modes after the
/// divided ones' rests), each as shape and stride lists.
#[diagnostic::on_unimplemented(
    message = "zipped_divide / local_tile / local_partition: the tiler has more modes than the layout, or a divided mode is not a leaf (typed divides split integer extents; nested modes go through the value algebra)"
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

/// The layout type of `zipped_divide(Layout<S, D>, T)`.
pub type ZippedDivide<S, D, T> = Layout<
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
) -> ZippedDivide<S, D, T>
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

/// `zipped_divide(layout, tiler)` with a static shape tiler: `((tiles...),(rests..., other
/// modes...))`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let z = zipped_divide(layout!((_64, _16):(_16, _1)), (_8, _4));
/// assert_eq!(z.to_string(), "((_8,_4),(_8,_4)):((_16,_1),(_128,_4))");
/// ```
#[inline(always)]
pub fn zipped_divide<S: Tuple, D: Tuple, T: Tuple>(l: Layout<S, D>, t: T) -> ZippedDivide<S, D, T>
where
    S::H: ZipDivH<D::H, T::H>,
{
    zipped_divide_checked::<{ CHECK_NONE }, S, D, T>(l, t)
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

/// `local_tile(tensor_layout, tiler, coord)`: the tile at tile coordinate `coord` (which may hold
/// `_` to keep all tiles of a mode), and its offset. A static tile that does not divide a static
/// mode fails to compile.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((100i32, 60i32):(_1, 128i32));
/// let (tile, off) = local_tile(a, (_32, _8), (1i32, 2i32));
/// assert_eq!((tile.to_string().as_str(), off), ("(_32,_8):(_1,128)", 32 + 16 * 128));
/// let (col, _) = local_tile(a, (_32, _8), (1i32, Underscore));   // all tiles along n
/// assert_eq!(col.to_string(), "(_32,_8,8):(_1,128,1024)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_tile<S: Tuple, D: Tuple, T: Tuple, Cd: Tuple>(
    l: Layout<S, D>,
    tiler: T,
    coord: Cd,
) -> (
    <ZippedDivide<S, D, T> as SliceOut<InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>>>::L,
    <ZippedDivide<S, D, T> as SliceOut<InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>>>::Off,
)
where
    S::H: ZipDivH<D::H, T::H>,
    ZippedDivide<S, D, T>: HasShape,
    <ZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<ZippedDivide<S, D, T> as HasShape>::S>: RepeatUnder,
    Cd::H: PadUnder<RestH<<ZippedDivide<S, D, T> as HasShape>::S>>,
    ZippedDivide<S, D, T>: SliceOut<InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>>,
{
    let z = zipped_divide_checked::<{ CHECK_TILE }, S, D, T>(l, tiler);
    let c = (
        <TileH<<ZippedDivide<S, D, T> as HasShape>::S> as RepeatUnder>::repeat_under(),
        coord.into_h().pad().into_tuple(),
    );
    z.slice_out(c)
}

/// `local_tile(tensor_layout, tiler, coord, step)`: the tiler and the coordinate projected by a
/// `Step` first (`(_1, X, _1)` keeps modes 0 and 2), as CuTe's GEMM uses one `(BM, BN, BK)`
/// tiler for A, B and C.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((256i32, 64i32):(_1, 256i32));                  // A is (M, K)
/// let cta = (_128, _128, _8);
/// let (ta, _) = local_tile_proj(a, cta, (1i32, 0i32, Underscore), (_1, X, _1));
/// assert_eq!(ta.to_string(), "(_128,_8,8):(_1,256,2048)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_tile_proj<S: Tuple, D: Tuple, T, Cd, P>(
    l: Layout<S, D>,
    tiler: T,
    coord: Cd,
    step: P,
) -> (
    <ZippedDivide<S, D, Diced<P, T>> as SliceOut<
        InnerCoord<<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>,
    >>::L,
    <ZippedDivide<S, D, Diced<P, T>> as SliceOut<
        InnerCoord<<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>,
    >>::Off,
)
where
    P: Copy + SliceT<T, B0> + SliceT<Cd, B0>,
    Diced<P, T>: Tuple,
    Diced<P, Cd>: Tuple,
    S::H: ZipDivH<D::H, <Diced<P, T> as Tuple>::H>,
    ZippedDivide<S, D, Diced<P, T>>: HasShape,
    <ZippedDivide<S, D, Diced<P, T>> as HasShape>::S: Get<0> + Get<1>,
    <<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S as Get<0>>::Output: Tuple,
    <<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S>: RepeatUnder,
    <Diced<P, Cd> as Tuple>::H: PadUnder<RestH<<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S>>,
    ZippedDivide<S, D, Diced<P, T>>:
        SliceOut<InnerCoord<<ZippedDivide<S, D, Diced<P, T>> as HasShape>::S, Diced<P, Cd>>>,
{
    local_tile(l, step.slice_t(tiler), step.slice_t(coord))
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
pub type OuterOut<S, D, T, Cd> = <ZippedDivide<S, D, T> as SliceOut<
    <Cd as OuterCoord<
        TileH<<ZippedDivide<S, D, T> as HasShape>::S>,
        RestH<<ZippedDivide<S, D, T> as HasShape>::S>,
    >>::Output,
>>::L;
/// The offset of `outer_partition(Layout<S, D>, T, coord)`.
pub type OuterOff<S, D, T, Cd> = <ZippedDivide<S, D, T> as SliceOut<
    <Cd as OuterCoord<
        TileH<<ZippedDivide<S, D, T> as HasShape>::S>,
        RestH<<ZippedDivide<S, D, T> as HasShape>::S>,
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
    ZippedDivide<S, D, T>: HasShape,
    <ZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    Cd: OuterCoord<
            TileH<<ZippedDivide<S, D, T> as HasShape>::S>,
            RestH<<ZippedDivide<S, D, T> as HasShape>::S>,
        >,
    ZippedDivide<S, D, T>: SliceOut<
        <Cd as OuterCoord<
            TileH<<ZippedDivide<S, D, T> as HasShape>::S>,
            RestH<<ZippedDivide<S, D, T> as HasShape>::S>,
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

/// `local_partition(tensor_layout, thr_layout, thr_idx)`: thread `thr_idx`'s elements when the
/// thread layout is tiled over the tensor (`outer_partition` by `product_each(shape(thr))` at
/// `thr.get_flat_coord(thr_idx)`). A static thread extent larger than a static tile mode fails
/// to compile.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let tile = layout!((_32, _8):(_1, 128i32));
/// let thr = layout!((_8, _4):(_1, _8));
/// let (part, off) = local_partition(tile, thr, 9u32);      // thread (1, 1)
/// assert_eq!(part.to_string(), "(_4,_2):(_8,512)");
/// assert_eq!(off, 1 + 128);
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_partition<S, D, TS, TD, I>(
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

/// `local_partition(tensor_layout, thr_layout, thr_idx, step)`: the thread layout projected by a
/// `Step` first; the thread's coordinate in the kept modes comes from the full index (CuTe's
/// `local_partition(tensor, dice(step, thr), idx)`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((8i32, 6i32):(_1, 8i32));
/// let thr = layout!((_4, _2):(_1, _4));
/// let (p, _) = local_partition_proj(l, thr, 1u32, (_1, X));
/// assert_eq!(p.to_string(), "(2,6):(_4,8)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_partition_proj<S, D, TS, TD, I, P>(
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
    local_partition(l, thr.dice(step), idx)
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
    ZippedDivide<S, D, T>: HasShape,
    <ZippedDivide<S, D, T> as HasShape>::S: Get<0> + Get<1>,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<0>>::Output: Tuple,
    <<ZippedDivide<S, D, T> as HasShape>::S as Get<1>>::Output: Tuple,
    TileH<<ZippedDivide<S, D, T> as HasShape>::S>: RepeatUnder,
    Cd::H: PadUnder<RestH<<ZippedDivide<S, D, T> as HasShape>::S>>,
    ZippedDivide<S, D, T>: SliceOut<InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>>,
{
    type L = <ZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::L;
    type Off = <ZippedDivide<S, D, T> as SliceOut<
        InnerCoord<<ZippedDivide<S, D, T> as HasShape>::S, Cd>,
    >>::Off;
    #[inline(always)]
    fn local_tile(self, tiler: T, coord: Cd) -> (Self::L, Self::Off) {
        local_tile(self, tiler, coord)
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
        local_partition(self, thr, idx)
    }
}
