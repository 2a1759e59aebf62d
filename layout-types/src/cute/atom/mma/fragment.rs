//! CuTe's `make_fragment_like(layout)` for the register fragments of a TiledMMA's A and B
//! operands: mode 0 (the atom's values) compact column-major with its static-zero strides kept
//! (`compact_major<LayoutLeft>(filter_zeros(stride<0>, shape<0>))`), the other modes compact in
//! the order of the partition's strides (`make_ordered_layout`), joined by `tiled_product`.

use super::super::gmma::SplitFirst;
use crate::cute::consts::*;
use crate::cute::int::*;
use crate::cute::layout::*;
use crate::cute::product::TiledProductBy;
use crate::cute::tuple::*;
use typenum::{B0, B1, Bit, IsLess, IsLessOrEqual};

/// `filter_zeros(stride, shape)`: the leaves of a shape whose stride is the static `_0` become
/// `_1`.
pub trait FilterZerosOf<D> {
    /// The filtered shape.
    type Output: IntTuple + Default;
}
impl<S: IntTuple, D> FilterZerosOf<D> for S
where
    S::Kind: FilterZerosK<S, D>,
{
    type Output = <S::Kind as FilterZerosK<S, D>>::Output;
}
/// Kind dispatch of [`FilterZerosOf`].
pub trait FilterZerosK<S, D> {
    /// The filtered shape.
    type Output: IntTuple + Default;
}
impl<S: IntTuple + Default, D: IntFacts> FilterZerosK<S, D> for IntK
where
    D::IsZero: ZeroOr<S>,
{
    type Output = <D::IsZero as ZeroOr<S>>::Output;
}
/// `_1` for `B1`, the shape for `B0`.
pub trait ZeroOr<S> {
    /// The shape.
    type Output: IntTuple + Default;
}
impl<S> ZeroOr<S> for B1 {
    type Output = _1;
}
impl<S: IntTuple + Default> ZeroOr<S> for B0 {
    type Output = S;
}
impl<S: Tuple, D: Tuple> FilterZerosK<S, D> for TupK
where
    S::H: FilterZerosH<D::H>,
    <<S::H as FilterZerosH<D::H>>::Output as HList>::Tuple: IntTuple + Default,
{
    type Output = <<S::H as FilterZerosH<D::H>>::Output as HList>::Tuple;
}
/// [`FilterZerosOf`] over a list.
pub trait FilterZerosH<D> {
    /// The filtered list.
    type Output: HList;
}
impl FilterZerosH<HNil> for HNil {
    type Output = HNil;
}
impl<S0: FilterZerosOf<D0>, ST: FilterZerosH<DT>, D0, DT> FilterZerosH<HCons<D0, DT>>
    for HCons<S0, ST>
where
    HCons<S0::Output, ST::Output>: HList,
{
    type Output = HCons<S0::Output, ST::Output>;
}

/// CuTe's `compact_order` comparison of two strides of a fragment's modes: `Dj` comes before
/// `Self` (`Lt`: strictly, `Le`: or equal); dynamic strides come after every static one, in mode
/// order.
pub trait OrderCmp<Dj> {
    /// `Dj < Self`.
    type Lt: Bit;
    /// `Dj <= Self`.
    type Le: Bit;
}
impl<A, B> OrderCmp<C<B>> for C<A>
where
    B: IsLess<A> + IsLessOrEqual<A>,
    <B as IsLess<A>>::Output: Bit,
    <B as IsLessOrEqual<A>>::Output: Bit,
{
    type Lt = <B as IsLess<A>>::Output;
    type Le = <B as IsLessOrEqual<A>>::Output;
}
macro_rules! dyn_order {
    ($($t:ty),*) => {$(
        impl<A> OrderCmp<$t> for C<A> { type Lt = B0; type Le = B0; }
        impl<B> OrderCmp<C<B>> for $t { type Lt = B1; type Le = B1; }
        impl<B: DynInt> OrderCmp<B> for $t { type Lt = B0; type Le = B1; }
    )*};
}
dyn_order!(i32, i64, u32, u64, usize, isize);

/// `S` when the bit is `B1`, `_1` otherwise.
pub trait PickShape<S> {
    /// The factor.
    type Output;
}
impl<S> PickShape<S> for B1 {
    type Output = S;
}
impl<S> PickShape<S> for B0 {
    type Output = _1;
}

/// The product of the shapes of the modes of a list that come before a mode of stride `Di`
/// (`Strict`: strictly before, for the modes after it in mode order; `Le` for those before it).
pub trait ProductBefore<Di, Strict> {
    /// The product.
    type Output: Copy + Default;
}
impl<Di, Strict> ProductBefore<Di, Strict> for HNil {
    type Output = _1;
}
impl<Sj, Dj, T, Di> ProductBefore<Di, B1> for HCons<(Sj, Dj), T>
where
    Di: OrderCmp<Dj>,
    <Di as OrderCmp<Dj>>::Lt: PickShape<Sj>,
    T: ProductBefore<Di, B1>,
    <<Di as OrderCmp<Dj>>::Lt as PickShape<Sj>>::Output:
        IntMul<<T as ProductBefore<Di, B1>>::Output>,
    Prod<<<Di as OrderCmp<Dj>>::Lt as PickShape<Sj>>::Output, <T as ProductBefore<Di, B1>>::Output>:
        Default,
{
    type Output = Prod<
        <<Di as OrderCmp<Dj>>::Lt as PickShape<Sj>>::Output,
        <T as ProductBefore<Di, B1>>::Output,
    >;
}
impl<Sj, Dj, T, Di> ProductBefore<Di, B0> for HCons<(Sj, Dj), T>
where
    Di: OrderCmp<Dj>,
    <Di as OrderCmp<Dj>>::Le: PickShape<Sj>,
    T: ProductBefore<Di, B0>,
    <<Di as OrderCmp<Dj>>::Le as PickShape<Sj>>::Output:
        IntMul<<T as ProductBefore<Di, B0>>::Output>,
    Prod<<<Di as OrderCmp<Dj>>::Le as PickShape<Sj>>::Output, <T as ProductBefore<Di, B0>>::Output>:
        Default,
{
    type Output = Prod<
        <<Di as OrderCmp<Dj>>::Le as PickShape<Sj>>::Output,
        <T as ProductBefore<Di, B0>>::Output,
    >;
}

/// The strides of `make_ordered_layout(shape, stride)` for a list of leaf modes `(shape, stride)`
/// (`Prefix`: the modes before, in any order).
pub trait OrderedStrides<Prefix> {
    /// The strides.
    type Output: HList + Default;
}
impl<Prefix> OrderedStrides<Prefix> for HNil {
    type Output = HNil;
}
impl<Si, Di, T, Prefix> OrderedStrides<Prefix> for HCons<(Si, Di), T>
where
    Si: IntFacts,
    Prefix: ProductBefore<Di, B0>,
    T: ProductBefore<Di, B1> + OrderedStrides<HCons<(Si, Di), Prefix>>,
    <Prefix as ProductBefore<Di, B0>>::Output: IntMul<<T as ProductBefore<Di, B1>>::Output>,
    Si::IsOne: UnitOr<
        Prod<<Prefix as ProductBefore<Di, B0>>::Output, <T as ProductBefore<Di, B1>>::Output>,
    >,
    HCons<
        <Si::IsOne as UnitOr<
            Prod<<Prefix as ProductBefore<Di, B0>>::Output, <T as ProductBefore<Di, B1>>::Output>,
        >>::Output,
        <T as OrderedStrides<HCons<(Si, Di), Prefix>>>::Output,
    >: HList + Default,
{
    type Output = HCons<
        <Si::IsOne as UnitOr<
            Prod<<Prefix as ProductBefore<Di, B0>>::Output, <T as ProductBefore<Di, B1>>::Output>,
        >>::Output,
        <T as OrderedStrides<HCons<(Si, Di), Prefix>>>::Output,
    >;
}

/// The stride of a compact mode: `_0` for a static `_1` extent (`B1`), as CuTe's compact
/// layouts give it.
pub trait UnitOr<D> {
    /// The stride.
    type Output;
}
impl<D> UnitOr<D> for B1 {
    type Output = _0;
}
impl<D> UnitOr<D> for B0 {
    type Output = D;
}

/// Pairs two lists.
pub trait ZipPairs<D> {
    /// The pairs.
    type Output;
}
impl ZipPairs<HNil> for HNil {
    type Output = HNil;
}
impl<S0, ST: ZipPairs<DT>, D0, DT> ZipPairs<HCons<D0, DT>> for HCons<S0, ST> {
    type Output = HCons<(S0, D0), ST::Output>;
}

/// CuTe's `make_fragment_like(layout)` of a partition `(FrgV, Rest...)` with a static shape and
/// leaf rest modes: the register layout, static and compact.
pub trait FragmentLike {
    /// The fragment's layout.
    type Output: Copy + Default;
}
impl<S: Tuple, D: Tuple> FragmentLike for Layout<S, D>
where
    S::H: SplitFirst,
    D::H: SplitFirst,
    (): FragmentLikeImpl<
            <S::H as SplitFirst>::First,
            <D::H as SplitFirst>::First,
            <S::H as SplitFirst>::Rest,
            <D::H as SplitFirst>::Rest,
        >,
{
    type Output = <() as FragmentLikeImpl<
        <S::H as SplitFirst>::First,
        <D::H as SplitFirst>::First,
        <S::H as SplitFirst>::Rest,
        <D::H as SplitFirst>::Rest,
    >>::Output;
}

/// The steps of [`FragmentLike`].
pub trait FragmentLikeImpl<S0, D0, SR, DR> {
    /// The fragment's layout.
    type Output: Copy + Default;
}
impl<S0, D0, SR, DR> FragmentLikeImpl<S0, D0, SR, DR> for ()
where
    S0: FilterZerosOf<D0> + IntTuple + Default,
    <S0 as FilterZerosOf<D0>>::Output: CompactLeft<_1>,
    <<S0 as FilterZerosOf<D0>>::Output as CompactLeft<_1>>::Stride: Default,
    SR: ZipPairs<DR> + HList,
    <SR as ZipPairs<DR>>::Output: OrderedStrides<HNil>,
    Layout<S0, <<S0 as FilterZerosOf<D0>>::Output as CompactLeft<_1>>::Stride>: TiledProductBy<
        Layout<
            <SR as HList>::Tuple,
            <<<SR as ZipPairs<DR>>::Output as OrderedStrides<HNil>>::Output as HList>::Tuple,
        >,
    >,
    <SR as HList>::Tuple: Default,
    <<<SR as ZipPairs<DR>>::Output as OrderedStrides<HNil>>::Output as HList>::Tuple: Default,
{
    type Output = <Layout<
        S0,
        <<S0 as FilterZerosOf<D0>>::Output as CompactLeft<_1>>::Stride,
    > as TiledProductBy<
        Layout<
            <SR as HList>::Tuple,
            <<<SR as ZipPairs<DR>>::Output as OrderedStrides<HNil>>::Output as HList>::Tuple,
        >,
    >>::Output;
}
