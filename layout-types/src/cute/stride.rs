//! CuTe's `stride.hpp`: the major-ness tags [`LayoutLeft`] (`GenColMajor`) and [`LayoutRight`]
//! (`GenRowMajor`), compact strides in a mode order ([`TileOrder`]: CuTe's `compact_order`, of
//! a tag or a static `Step` tuple), and the layouts they make ([`make_layout_major`],
//! [`make_ordered_layout`]). Above [`layout`](super::layout) (the compact strides of a shape);
//! `tile_to_shape` ([`gmma`](super::atom::gmma)) orders its blocks by them.

use super::consts::*;
use super::int::*;
use super::layout::*;
use super::tuple::*;
use typenum::{B0, B1, Integer, IsLess, P1, Z0};

/// CuTe's `LayoutLeft` (`GenColMajor`) mode order for [`tile_to_shape`](super::atom::gmma::tile_to_shape): the block repeats down
/// the first mode first.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// let t = tile_to_shape(layout!((_2, _2):(_2, _1)), (_4, _4), LayoutLeft);
/// assert_eq!(t.to_string(), "((_2,_2),(_2,_2)):((_2,_4),(_1,_8))");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutLeft;
/// CuTe's `LayoutRight` (`GenRowMajor`) mode order for [`tile_to_shape`](super::atom::gmma::tile_to_shape): the last mode first.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// let t = tile_to_shape(layout!((_2, _2):(_2, _1)), (_4, _4), LayoutRight);
/// assert_eq!(t.to_string(), "((_2,_2),(_2,_2)):((_2,_8),(_1,_4))");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutRight;

/// `acc * s` when the bit is `B1`, `acc` when `B0`.
pub trait MulIf<Acc, S> {
    /// The result.
    type Output: Copy;
    /// The result.
    fn mul_if(acc: Acc, s: S) -> Self::Output;
}
impl<Acc: Copy, S> MulIf<Acc, S> for B0 {
    type Output = Acc;
    #[inline(always)]
    fn mul_if(acc: Acc, _: S) -> Acc {
        acc
    }
}
impl<Acc: IntMul<S>, S> MulIf<Acc, S> for B1
where
    Prod<Acc, S>: Copy,
{
    type Output = Prod<Acc, S>;
    #[inline(always)]
    fn mul_if(acc: Acc, s: S) -> Self::Output {
        acc.int_mul(s)
    }
}

/// CuTe's `compact_order` starting stride of a mode of order `K`: the product of the extents of
/// every mode whose order is smaller (`self` lists `(extent, C<order>)`).
pub trait StrideFor<K> {
    /// The stride.
    type Output: Copy;
    /// The stride.
    fn stride_for(self) -> Self::Output;
}
impl<K> StrideFor<K> for HNil {
    type Output = C<P1>;
    #[inline(always)]
    fn stride_for(self) -> C<P1> {
        C::new()
    }
}
impl<K, S: Copy, Kj: IsLess<K>, T: StrideFor<K>> StrideFor<K> for HCons<(S, C<Kj>), T>
where
    <Kj as IsLess<K>>::Output: MulIf<T::Output, S>,
{
    type Output = <<Kj as IsLess<K>>::Output as MulIf<T::Output, S>>::Output;
    #[inline(always)]
    fn stride_for(self) -> Self::Output {
        <<Kj as IsLess<K>>::Output as MulIf<T::Output, S>>::mul_if(self.1.stride_for(), (self.0).0)
    }
}

/// A compact leaf's stride: `_0` for a static `_1` extent, else the start.
pub trait LeafStride<Cur> {
    /// The stride.
    type Output: IntTuple;
    /// The stride.
    fn leaf_stride(cur: Cur) -> Self::Output;
}
impl<Cur> LeafStride<Cur> for B1 {
    type Output = C<Z0>;
    #[inline(always)]
    fn leaf_stride(_: Cur) -> C<Z0> {
        C::new()
    }
}
impl<Cur: IntTuple> LeafStride<Cur> for B0 {
    type Output = Cur;
    #[inline(always)]
    fn leaf_stride(cur: Cur) -> Cur {
        cur
    }
}

/// CuTe's `compact_order(shape, order)` of a flat shape with static orders: `self` lists
/// `(extent, C<order>)`, `all` is the whole list.
pub trait OrderedH<All> {
    /// The strides.
    type Output;
    /// The strides.
    fn ordered_h(self, all: All) -> Self::Output;
}
impl<All> OrderedH<All> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn ordered_h(self, _: All) -> HNil {
        HNil
    }
}
impl<All, S, K, T> OrderedH<All> for HCons<(S, C<K>), T>
where
    All: Copy + StrideFor<K>,
    S: IntFacts,
    S::IsOne: LeafStride<All::Output>,
    T: OrderedH<All>,
{
    type Output = HCons<<S::IsOne as LeafStride<All::Output>>::Output, T::Output>;
    #[inline(always)]
    fn ordered_h(self, all: All) -> Self::Output {
        HCons(
            <S::IsOne as LeafStride<All::Output>>::leaf_stride(all.stride_for()),
            self.1.ordered_h(all),
        )
    }
}

/// Pairs each extent with its order for `LayoutRight`: order `I`, `I - 1`, ... (the last mode
/// has the smallest).
pub trait KeyDesc<I> {
    /// `(extent, C<order>)` list.
    type Output: Copy;
    /// The keyed list.
    fn key_desc(self) -> Self::Output;
}
impl<I> KeyDesc<I> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn key_desc(self) -> HNil {
        HNil
    }
}
impl<
    I: Integer + core::ops::Sub<P1> + 'static,
    S: Copy,
    T: KeyDesc<<I as core::ops::Sub<P1>>::Output>,
> KeyDesc<I> for HCons<S, T>
{
    type Output = HCons<(S, C<I>), T::Output>;
    #[inline(always)]
    fn key_desc(self) -> Self::Output {
        HCons((self.0, C::new()), self.1.key_desc())
    }
}

/// Pairs each extent with the static order of a `Step` tuple (ranks must agree).
#[diagnostic::on_unimplemented(
    message = "tile_to_shape: Need equal rank of shape and order (the order `{Self}` must have one static integer per mode of the target shape)"
)]
pub trait KeyStep<O> {
    /// `(extent, C<order>)` list.
    type Output: Copy;
    /// The keyed list.
    fn key_step(self, o: O) -> Self::Output;
}
impl KeyStep<HNil> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn key_step(self, _: HNil) -> HNil {
        HNil
    }
}
impl<S: Copy, T: KeyStep<OT>, K: Integer + 'static, OT> KeyStep<HCons<C<K>, OT>> for HCons<S, T> {
    type Output = HCons<(S, C<K>), T::Output>;
    #[inline(always)]
    fn key_step(self, o: HCons<C<K>, OT>) -> Self::Output {
        HCons((self.0, o.0), self.1.key_step(o.1))
    }
}

/// A mode order for [`tile_to_shape`](super::atom::gmma::tile_to_shape): [`LayoutLeft`], [`LayoutRight`] or a `Step` tuple of
/// static integers (`(_2, _1, _3)`: CuTe's `Step<_2,_1,_3>`, the second mode first). Gives the
/// compact strides of the (flat) product shape in that order (CuTe's `make_ordered_layout`; a
/// static `_1` extent gets stride `_0`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::stride::TileOrder;
/// assert_eq!((_2, _1, _3).ordered_stride((4i32, _5, _6)).to_string_cute(), "(_5,_1,20)");
/// assert_eq!((_2, _1, _3).ordered_stride((_4, _1, _6)).to_string_cute(), "(_1,_0,_4)");
/// assert_eq!(LayoutRight.ordered_stride((_4, _5, _6)).to_string_cute(), "(_30,_6,_1)");
/// ```
pub trait TileOrder<PS> {
    /// The strides.
    type Stride: IntTuple;
    /// The order in the value algebra.
    const ORDER: crate::value::gmma::Order;
    /// The strides of `make_ordered_layout(ps, self)`.
    fn ordered_stride(self, ps: PS) -> Self::Stride;
}
impl<PS: CompactLeft<C<P1>>> TileOrder<PS> for LayoutLeft {
    type Stride = PS::Stride;
    const ORDER: crate::value::gmma::Order = crate::value::gmma::Order::ColMajor;
    #[inline(always)]
    fn ordered_stride(self, ps: PS) -> Self::Stride {
        ps.compact_left(C::new()).0
    }
}
impl<PS: Tuple> TileOrder<PS> for LayoutRight
where
    PS::H: KeyDesc<Z0>,
    <PS::H as KeyDesc<Z0>>::Output: OrderedH<<PS::H as KeyDesc<Z0>>::Output>,
    <<PS::H as KeyDesc<Z0>>::Output as OrderedH<<PS::H as KeyDesc<Z0>>::Output>>::Output: HList,
{
    type Stride =
        <<<PS::H as KeyDesc<Z0>>::Output as OrderedH<<PS::H as KeyDesc<Z0>>::Output>>::Output as HList>::Tuple;
    const ORDER: crate::value::gmma::Order = crate::value::gmma::Order::RowMajor;
    #[inline(always)]
    fn ordered_stride(self, ps: PS) -> Self::Stride {
        let k = ps.into_h().key_desc();
        k.ordered_h(k).into_tuple()
    }
}
impl<PS: Tuple, O: Tuple> TileOrder<PS> for O
where
    PS::H: KeyStep<O::H>,
    <PS::H as KeyStep<O::H>>::Output: OrderedH<<PS::H as KeyStep<O::H>>::Output>,
    <<PS::H as KeyStep<O::H>>::Output as OrderedH<<PS::H as KeyStep<O::H>>::Output>>::Output: HList,
{
    type Stride = <<<PS::H as KeyStep<O::H>>::Output as OrderedH<
        <PS::H as KeyStep<O::H>>::Output,
    >>::Output as HList>::Tuple;
    const ORDER: crate::value::gmma::Order = crate::value::gmma::Order::Step(O::CONST);
    #[inline(always)]
    fn ordered_stride(self, ps: PS) -> Self::Stride {
        let k = ps.into_h().key_step(self.into_h());
        k.ordered_h(k).into_tuple()
    }
}

/// A major-ness for [`make_layout_major`]: CuTe's `LayoutLeft` (`GenColMajor`) or `LayoutRight`
/// (`GenRowMajor`).
pub trait Major<S> {
    /// The compact strides of `S`.
    type Stride: IntTuple;
    /// The compact strides of `s`.
    fn compact(self, s: S) -> Self::Stride;
}
impl<S: CompactLeft<_1>> Major<S> for LayoutLeft {
    type Stride = S::Stride;
    #[inline(always)]
    fn compact(self, s: S) -> S::Stride {
        s.compact_left(C::new()).0
    }
}
impl<S: CompactRight<_1>> Major<S> for LayoutRight {
    type Stride = S::Stride;
    #[inline(always)]
    fn compact(self, s: S) -> S::Stride {
        s.compact_right(C::new()).0
    }
}
/// CuTe's `GenColMajor` (`LayoutLeft`).
pub type GenColMajor = LayoutLeft;
/// CuTe's `GenRowMajor` (`LayoutRight`).
pub type GenRowMajor = LayoutRight;

/// `make_layout(shape, major)` with CuTe's tag: [`LayoutLeft`] /
/// [`GenColMajor`] or [`LayoutRight`] / [`GenRowMajor`].
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(make_layout_major((_4, (_2, 3i32)), LayoutRight).to_string(), "(_4,(_2,3)):(6,(3,_1))");
/// assert_eq!(make_layout_major((_4, _2), GenColMajor::default()).to_string(), "(_4,_2):(_1,_4)");
/// ```
#[inline(always)]
pub fn make_layout_major<S: Copy, M: Major<S>>(shape: S, major: M) -> Layout<S, M::Stride> {
    Layout {
        shape,
        stride: major.compact(shape),
    }
}

/// CuTe's `make_ordered_layout(shape, order)`: compact strides assigned in the order of a static
/// `Step` tuple (`(_1, _0, _2)`: mode 1 fastest, then mode 0, then mode 2; a static `_1` extent
/// gets `_0`), or of [`LayoutLeft`] / [`LayoutRight`].
/// The shape is flat (one extent a mode).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = make_ordered_layout((_2, _2, _2, _2), (_0, _2, _3, _1));
/// assert_eq!(l.to_string(), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
/// let m = 6i32;
/// assert_eq!(make_ordered_layout((m, _4), (_1, _0)).to_string(), "(6,_4):(_4,_1)");
/// ```
#[inline(always)]
pub fn make_ordered_layout<S: Copy, O: TileOrder<S>>(shape: S, order: O) -> Layout<S, O::Stride> {
    Layout {
        shape,
        stride: order.ordered_stride(shape),
    }
}
