//! CuTe's `local_tile` and `local_partition` over every tiler C++ CuTe takes: `zipped_divide`
//! by the tiler (any tiler of [`super::tiler`]: shapes over nested or dynamic modes, layouts,
//! by-mode tuples with `_`), then the slice CuTe's `inner_partition` / `outer_partition` takes. A
//! tile that does not divide its mode gives CuTe's `ceil_div` rest (the last tile is partial, as
//! in C++); what C++ CuTe rejects at compile time (the divide's conditions, more tiler modes than
//! layout modes) is a compile error here too.
//!
//! The tensor methods (`Tensor::local_tile`, `Tensor::local_partition`) keep the leaf form of
//! [`super::divide`] (shape tilers over leaf modes, a static tile must divide a static mode).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! // (M, N, L) with a run-time batch: the (BM, BN) tile of CTA (bm, bn) in batch l
//! let (m, n, l) = (256i32, 384i32, 5i32);
//! let mnl = layout!((m, n, l):(_1, m, m * n));
//! let (tile, off) = local_tile(mnl, (_128, _128), (1i32, 2i32, 3i32));
//! assert_eq!(tile.to_string(), "(_128,_128):(_1,256)");
//! assert_eq!(off, 128 + 2 * 128 * 256 + 3 * 256 * 384);
//! // a nested mode, a non-dividing tile
//! let (t, _) = local_tile(layout!(((_4, _16), _5):((_1, _4), _64)), (_32, _2), (1i32, Underscore));
//! assert_eq!(t.to_string(), "(_32,_2,_3):(_1,_64,_128)");      // 5 = 2 · 2 + 1: 3 tiles
//! ```

use super::divide::{
    Diced, PadUnder, ProductEach, RepeatUnder, SliceOut, ZippedDivide, ZippedDivideBy,
};
use super::layout::*;
use super::tuple::*;
use typenum::B0;

/// The tile and rest shapes of a zipped layout `((tile), (rest))`.
pub trait Zipped {
    /// The tile mode's shape.
    type TS;
    /// The rest mode's shape.
    type RS;
}
impl<A, B, C2, E> Zipped for Layout<(A, B), (C2, E)> {
    type TS = A;
    type RS = B;
}

/// The slice coordinate of CuTe's `inner_partition` (`local_tile`) on a zipped layout with tile
/// shape `TS` and rest shape `RS`: `(repeat<R0>(_), append<R1>(coord, _))`, or `(repeat<R0>(_),
/// coord)` for an integer coordinate (an index into the rest mode).
pub trait InnerCrd<TS, RS> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn inner_crd(self) -> Self::Output;
}
impl<Cd: IntTuple, TS: WrapH, RS> InnerCrd<TS, RS> for Cd
where
    TS::H: RepeatUnder,
    Cd::Kind: PadCrdK<Cd, RS>,
{
    type Output = (
        <TS::H as RepeatUnder>::Output,
        <Cd::Kind as PadCrdK<Cd, RS>>::Output,
    );
    #[inline(always)]
    fn inner_crd(self) -> Self::Output {
        (
            <TS::H as RepeatUnder>::repeat_under(),
            <Cd::Kind as PadCrdK<Cd, RS>>::f(self),
        )
    }
}
/// The slice coordinate of CuTe's `outer_partition` (`local_partition`): `(append<R0>(coord, _),
/// repeat<R1>(_))`, or `(coord, repeat<R1>(_))` for an integer coordinate.
pub trait OuterCrd<TS, RS> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn outer_crd(self) -> Self::Output;
}
impl<Cd: IntTuple, TS, RS: WrapH> OuterCrd<TS, RS> for Cd
where
    RS::H: RepeatUnder,
    Cd::Kind: PadCrdK<Cd, TS>,
{
    type Output = (
        <Cd::Kind as PadCrdK<Cd, TS>>::Output,
        <RS::H as RepeatUnder>::Output,
    );
    #[inline(always)]
    fn outer_crd(self) -> Self::Output {
        (
            <Cd::Kind as PadCrdK<Cd, TS>>::f(self),
            <RS::H as RepeatUnder>::repeat_under(),
        )
    }
}
/// A coordinate for one mode of shape `M`: a tuple padded with `_` to `M`'s rank (CuTe's
/// `append<R>(coord, _)`), an integer or `_` as it is.
pub trait PadCrdK<Cd, M> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn f(c: Cd) -> Self::Output;
}
impl<Cd: Copy, M> PadCrdK<Cd, M> for IntK {
    type Output = Cd;
    #[inline(always)]
    fn f(c: Cd) -> Cd {
        c
    }
}
impl<Cd: Copy, M> PadCrdK<Cd, M> for UnderK {
    type Output = Cd;
    #[inline(always)]
    fn f(c: Cd) -> Cd {
        c
    }
}
impl<Cd: Tuple, M: WrapH> PadCrdK<Cd, M> for TupK
where
    Cd::H: PadUnder<M::H>,
    <<Cd::H as PadUnder<M::H>>::Output as HList>::Tuple: Copy,
{
    type Output = <<Cd::H as PadUnder<M::H>>::Output as HList>::Tuple;
    #[inline(always)]
    fn f(c: Cd) -> Self::Output {
        c.into_h().pad().into_tuple()
    }
}

/// The zipped layout of `Layout<S, D>` by `T`, and the slice coordinate `Cd` of its partition.
type Z<S, D, T> = ZippedDivide<S, D, T>;
type ZtS<S, D, T> = <Z<S, D, T> as Zipped>::TS;
type ZrS<S, D, T> = <Z<S, D, T> as Zipped>::RS;
type Inner<S, D, T, Cd> = <Cd as InnerCrd<ZtS<S, D, T>, ZrS<S, D, T>>>::Output;
type Outer<S, D, T, Cd> = <Cd as OuterCrd<ZtS<S, D, T>, ZrS<S, D, T>>>::Output;

/// `local_tile(self, tiler, coord)` for any tiler (see [`local_tile`]).
#[diagnostic::on_unimplemented(
    message = "local_tile: `{Self}` cannot be tiled by `{T}` at `{Cd}` (the zipped_divide by the tiler, or the slice at the coordinate, fails; see the notes)"
)]
pub trait LocalTileBy<T, Cd> {
    /// The tile's layout.
    type L: Copy;
    /// The tile's offset.
    type Off: Copy;
    /// The tile and its offset.
    fn local_tile_by(self, tiler: T, coord: Cd) -> (Self::L, Self::Off);
}
impl<S, D, T, Cd> LocalTileBy<T, Cd> for Layout<S, D>
where
    Layout<S, D>: ZippedDivideBy<T>,
    Z<S, D, T>: Zipped + SliceOut<Inner<S, D, T, Cd>>,
    Cd: InnerCrd<ZtS<S, D, T>, ZrS<S, D, T>>,
{
    type L = <Z<S, D, T> as SliceOut<Inner<S, D, T, Cd>>>::L;
    type Off = <Z<S, D, T> as SliceOut<Inner<S, D, T, Cd>>>::Off;
    #[inline(always)]
    fn local_tile_by(self, tiler: T, coord: Cd) -> (Self::L, Self::Off) {
        self.zipped_divide_by(tiler).slice_out(coord.inner_crd())
    }
}

/// CuTe's `local_tile(tensor_layout, tiler, coord)` (`inner_partition`): the tile at tile
/// coordinate `coord` of `zipped_divide(layout, tiler)`, and its offset. `coord` is a tuple (one
/// coordinate a divided mode, then the modes beyond the tiler; `_` keeps all tiles of a mode,
/// missing trailing coordinates are `_`) or an integer (an index into all the tiles). The tiler is
/// any CuTe tiler: a shape, a layout, a by-mode tuple of layouts, integers and `_`, over nested
/// and dynamic modes; a tile that does not divide its mode has CuTe's `ceil_div` rest.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((100i32, 60i32):(_1, 128i32));
/// let (tile, off) = local_tile(a, (_32, _8), (1i32, 2i32));   // 100 = 3 · 32 + 4: 4 tiles
/// assert_eq!((tile.to_string().as_str(), off), ("(_32,_8):(_1,128)", 32 + 16 * 128));
/// let (col, _) = local_tile(a, (_32, _8), (1i32, Underscore)); // all tiles along n
/// assert_eq!(col.to_string(), "(_32,_8,8):(_1,128,1024)");
/// // a by-mode tiler of layouts: every other row
/// let (t, _) = local_tile(layout!((_8, _8):(_8, _1)), (layout!(_4:_2), _8), (0i32, 0i32));
/// assert_eq!(t.to_string(), "(_4,_8):(_16,_1)");
/// ```
#[inline(always)]
pub fn local_tile<L: LocalTileBy<T, Cd>, T, Cd>(l: L, tiler: T, coord: Cd) -> (L::L, L::Off) {
    l.local_tile_by(tiler, coord)
}

/// CuTe's `local_tile(tensor_layout, tiler, coord, step)`: [`local_tile`] with the tiler and the
/// coordinate projected by a `Step` first (`(_1, X, _1)` keeps modes 0 and 2), as CuTe's GEMM
/// uses one `(BM, BN, BK)` tiler for A, B and C.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let a = layout!((256i32, 64i32):(_1, 256i32));                  // A is (M, K)
/// let (ta, _) = local_tile_proj(a, (_128, _128, _8), (1i32, 0i32, Underscore), (_1, X, _1));
/// assert_eq!(ta.to_string(), "(_128,_8,8):(_1,256,2048)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_tile_proj<L, T, Cd, P>(
    l: L,
    tiler: T,
    coord: Cd,
    step: P,
) -> (
    <L as LocalTileBy<Diced<P, T>, Diced<P, Cd>>>::L,
    <L as LocalTileBy<Diced<P, T>, Diced<P, Cd>>>::Off,
)
where
    P: Copy + SliceT<T, B0> + SliceT<Cd, B0>,
    L: LocalTileBy<Diced<P, T>, Diced<P, Cd>>,
{
    l.local_tile_by(step.slice_t(tiler), step.slice_t(coord))
}

/// `local_partition(self, thr, idx)` for any thread layout (see [`local_partition`]).
#[diagnostic::on_unimplemented(
    message = "local_partition: `{Self}` cannot be partitioned by the thread layout `{Thr}` with an index `{I}` (see the notes)"
)]
pub trait LocalPartitionBy<Thr, I> {
    /// The partition's layout.
    type L: Copy;
    /// Its offset.
    type Off: Copy;
    /// The partition and its offset.
    fn local_partition_by(self, thr: Thr, idx: I) -> (Self::L, Self::Off);
}
/// The thread's coordinate in `Layout<TS, TD>` (its flat coordinate).
type Thr<TS, TD, I> = super::divide::ThrCoord<TS, TD, I>;
type PE<TS> = <TS as ProductEach>::Output;
impl<S, D, TS, TD, I> LocalPartitionBy<Layout<TS, TD>, I> for Layout<S, D>
where
    TS: IntTuple + ProductEach,
    TD: IntTuple,
    I: HierCoord<TS, TD>,
    I::Output: FlatCoord<TS>,
    Layout<S, D>: ZippedDivideBy<PE<TS>>,
    Z<S, D, PE<TS>>: Zipped + SliceOut<Outer<S, D, PE<TS>, Thr<TS, TD, I>>>,
    Thr<TS, TD, I>: OuterCrd<ZtS<S, D, PE<TS>>, ZrS<S, D, PE<TS>>>,
{
    type L = <Z<S, D, PE<TS>> as SliceOut<Outer<S, D, PE<TS>, Thr<TS, TD, I>>>>::L;
    type Off = <Z<S, D, PE<TS>> as SliceOut<Outer<S, D, PE<TS>, Thr<TS, TD, I>>>>::Off;
    #[inline(always)]
    fn local_partition_by(self, thr: Layout<TS, TD>, idx: I) -> (Self::L, Self::Off) {
        let c = thr.get_flat_coord(idx);
        self.zipped_divide_by(thr.shape.product_each())
            .slice_out(c.outer_crd())
    }
}

/// CuTe's `local_partition(tensor_layout, thr_layout, thr_idx)` (`outer_partition`): thread
/// `thr_idx`'s elements when the thread layout is tiled over the tensor — `zipped_divide` by
/// `product_each(shape(thr))`, sliced at `thr.get_flat_coord(thr_idx)` in the tile mode. Over
/// nested and dynamic modes, and thread extents that do not divide the mode (CuTe's `ceil_div`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let tile = layout!((_32, _8):(_1, 128i32));
/// let (part, off) = local_partition(tile, layout!((_8, _4):(_1, _8)), 9u32); // thread (1, 1)
/// assert_eq!((part.to_string().as_str(), off), ("(_4,_2):(_8,512)", 1 + 128));
/// // a nested tile mode
/// let (p, _) = local_partition(layout!(((_4, _8), _8):((_1, _4), _32)), layout!((_8, _2):(_1, _8)), 0u32);
/// assert_eq!(p.to_string(), "(_4,_4):(_8,_64)");
/// ```
#[inline(always)]
pub fn local_partition<L: LocalPartitionBy<Thr, I>, Thr, I>(
    l: L,
    thr: Thr,
    idx: I,
) -> (L::L, L::Off) {
    l.local_partition_by(thr, idx)
}

/// CuTe's `local_partition(tensor_layout, thr_layout, thr_idx, step)`: [`local_partition`] by the
/// thread layout projected by a `Step` (`local_partition(tensor, dice(step, thr), idx)`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((8i32, 6i32):(_1, 8i32));
/// let (p, _) = local_partition_proj(l, layout!((_4, _2):(_1, _4)), 1u32, (_1, X));
/// assert_eq!(p.to_string(), "(2,6):(_4,8)");
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn local_partition_proj<L, TS, TD, I, P>(
    l: L,
    thr: Layout<TS, TD>,
    idx: I,
    step: P,
) -> (
    <L as LocalPartitionBy<Layout<Diced<P, TS>, Diced<P, TD>>, I>>::L,
    <L as LocalPartitionBy<Layout<Diced<P, TS>, Diced<P, TD>>, I>>::Off,
)
where
    TS: IntTuple,
    TD: IntTuple,
    P: Copy + SliceT<TS, B0> + SliceT<TD, B0>,
    L: LocalPartitionBy<Layout<Diced<P, TS>, Diced<P, TD>>, I>,
{
    l.local_partition_by(thr.dice(step), idx)
}
