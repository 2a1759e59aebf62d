//! Hopper GMMA shared-memory layouts on the typed layer: CuTe's
//! `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, `tile_to_shape` (to build a CTA's
//! shared-memory tile from an atom) and `make_gmma_desc` (the 64-bit `wgmma` operand descriptor)
//! with the descriptor iterator / tensor that walks k blocks and pipeline stages.
//!
//! Every atom is a zero-sized [`Swizzled`] layout; a static `tile_to_shape` of it is zero-sized
//! too, and its descriptor is a compile-time constant but for the 14-bit start address.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::atom::gmma::*;
//! let atom = Layout_K_SW128_Atom::<u16>::new();          // CuTe: Layout_K_SW128_Atom<half_t>
//! assert_eq!(atom.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
//! let smem = tile_to_shape(atom, (_128, _64, _4), LayoutLeft);
//! assert_eq!(smem.to_string(),
//!     "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_4)):((_64,_512),(_1,_0),(_0,_8192))");
//! assert_eq!(core::mem::size_of_val(&smem), 0);
//! ```

use crate::cute::int::*;
use crate::cute::layout::LayoutParts;
use crate::cute::layout::*;
use crate::cute::product::*;
use crate::cute::static_call::{static_call, value_of};
use crate::cute::stride::*;
use crate::cute::swizzle::*;
use crate::cute::tensor::*;
use crate::cute::tuple::*;
use crate::value::mma::Major;
use crate::value::swizzle::{DynSwizzle, StaticSwizzle, Swizzle};
use crate::{Error, value::layout::DynLayout};
use core::fmt;
use device::wgmma::GmmaMajor;
use typenum::{Integer, P1, P8, P16, P32, P64, P128, P256, P512, P1024, Z0};

// ---------------------------------------------------------------------------------------------
// element widths
// ---------------------------------------------------------------------------------------------

/// CuTe's `sizeof_bits<T>` as a typenum integer, for the GMMA atoms' element type. Implemented for
/// the primitive integers and floats; `half`/`bfloat16` elements are `u16`-sized (use `u16`).
///
/// ```
/// use layout_types::cute::atom::gmma::SizeofBits;
/// assert_eq!(<u16 as SizeofBits>::BITS, 16);
/// assert_eq!(<f64 as SizeofBits>::BITS, 64);
/// ```
pub trait SizeofBits: Copy + 'static {
    /// The width in bits (a typenum integer: `P16`).
    type Bits: Integer + 'static;
    /// The width in bits.
    const BITS: i64 = <Self::Bits as Integer>::I64;
}
macro_rules! sizeof_bits {
    ($($t:ty => $b:ty),* $(,)?) => {$( impl SizeofBits for $t { type Bits = $b; } )*};
}
sizeof_bits! {
    u8 => P8, i8 => P8, u16 => P16, i16 => P16, u32 => P32, i32 => P32, f32 => P32,
    u64 => P64, i64 => P64, f64 => P64, u128 => P128, i128 => P128,
}

/// `sizeof_bits<T>` (a typenum integer).
pub type BitsOf<T> = <T as SizeofBits>::Bits;

// ---------------------------------------------------------------------------------------------
// layout atoms
// ---------------------------------------------------------------------------------------------

/// Columns of a GMMA atom: `W / sizeof_bits<T>` for a swizzle width of `W` bits.
type Cols<W, T> = C<<W as core::ops::Div<BitsOf<T>>>::Output>;

/// CuTe's K-major GMMA atom over `W`-bit rows (`W = 128 · 2^B`) of `T`:
/// `Sw<B,4,3> o smem_ptr[sizeof_bits<T>] o (_8, W/bits):(W/bits, _1)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::typenum::P1024;
/// assert_eq!(GmmaAtomK::<3, P1024, u8>::new().to_string(), "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
/// ```
pub type GmmaAtomK<const B: u32, W, T> = Swizzled<
    Swizzle<B, 4, 3>,
    Layout<(C<P8>, Cols<W, T>), (Cols<W, T>, C<P1>)>,
    SmemPtrFlag<BitsOf<T>>,
>;
/// CuTe's MN-major GMMA atom: `Sw<B,4,3> o smem_ptr[sizeof_bits<T>] o (W/bits, _8):(_1, W/bits)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::typenum::P512;
/// assert_eq!(GmmaAtomMN::<2, P512, f32>::new().to_string(), "Sw<2,4,3> o smem_ptr[32b](unset) o (_16,_8):(_1,_16)");
/// ```
pub type GmmaAtomMN<const B: u32, W, T> = Swizzled<
    Swizzle<B, 4, 3>,
    Layout<(Cols<W, T>, C<P8>), (C<P1>, Cols<W, T>)>,
    SmemPtrFlag<BitsOf<T>>,
>;

/// `GMMA::Layout_K_INTER_Atom<T>`: `Sw<0,4,3> o smem_ptr o (_8, 128/bits):(128/bits, _1)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_K_INTER_Atom::<u32>::new().to_string(), "Sw<0,4,3> o smem_ptr[32b](unset) o (_8,_4):(_4,_1)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_K_INTER_Atom<T> = GmmaAtomK<0, P128, T>;
/// `GMMA::Layout_K_SW32_Atom<T>`: `Sw<1,4,3> o smem_ptr o (_8, 256/bits):(256/bits, _1)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_K_SW32_Atom::<u16>::new().to_string(), "Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_K_SW32_Atom<T> = GmmaAtomK<1, P256, T>;
/// `GMMA::Layout_K_SW64_Atom<T>`: `Sw<2,4,3> o smem_ptr o (_8, 512/bits):(512/bits, _1)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_K_SW64_Atom::<u8>::new().to_string(), "Sw<2,4,3> o smem_ptr[8b](unset) o (_8,_64):(_64,_1)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_K_SW64_Atom<T> = GmmaAtomK<2, P512, T>;
/// `GMMA::Layout_K_SW128_Atom<T>`: `Sw<3,4,3> o smem_ptr o (_8, 1024/bits):(1024/bits, _1)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_K_SW128_Atom::<u16>::new().to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_K_SW128_Atom<T> = GmmaAtomK<3, P1024, T>;
/// `GMMA::Layout_MN_INTER_Atom<T>`: `Sw<0,4,3> o smem_ptr o (128/bits, _8):(_1, 128/bits)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_MN_INTER_Atom::<u16>::new().to_string(), "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_MN_INTER_Atom<T> = GmmaAtomMN<0, P128, T>;
/// `GMMA::Layout_MN_SW32_Atom<T>`: `Sw<1,4,3> o smem_ptr o (256/bits, _8):(_1, 256/bits)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_MN_SW32_Atom::<u16>::new().to_string(), "Sw<1,4,3> o smem_ptr[16b](unset) o (_16,_8):(_1,_16)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_MN_SW32_Atom<T> = GmmaAtomMN<1, P256, T>;
/// `GMMA::Layout_MN_SW64_Atom<T>`: `Sw<2,4,3> o smem_ptr o (512/bits, _8):(_1, 512/bits)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_MN_SW64_Atom::<u16>::new().to_string(), "Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_8):(_1,_32)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_MN_SW64_Atom<T> = GmmaAtomMN<2, P512, T>;
/// `GMMA::Layout_MN_SW128_Atom<T>`: `Sw<3,4,3> o smem_ptr o (1024/bits, _8):(_1, 1024/bits)`.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// assert_eq!(Layout_MN_SW128_Atom::<f32>::new().to_string(), "Sw<3,4,3> o smem_ptr[32b](unset) o (_32,_8):(_1,_32)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_MN_SW128_Atom<T> = GmmaAtomMN<3, P1024, T>;

// ---------------------------------------------------------------------------------------------
// tile_to_shape
// ---------------------------------------------------------------------------------------------

/// `product_each(t)` of a list: each element's product.
pub trait ProductEachH {
    /// The products.
    type Output: Copy;
    /// The products.
    fn product_each_h(self) -> Self::Output;
}
impl ProductEachH for HNil {
    type Output = HNil;
    #[inline(always)]
    fn product_each_h(self) -> HNil {
        HNil
    }
}
impl<H: Product, T: ProductEachH> ProductEachH for HCons<H, T> {
    type Output = HCons<H::Output, T::Output>;
    #[inline(always)]
    fn product_each_h(self) -> Self::Output {
        HCons(self.0.product(), self.1.product_each_h())
    }
}

/// `ceil_div(target_shape, block_shape)` element by element, with CuTe's
/// `evenly_divides(target_shape, block_shape)` facts for a static target.
pub trait CeilDivEachH<B> {
    /// The quotients.
    type Output: Copy;
    /// Every target extent is static.
    const ALL_STATIC: bool;
    /// The first (target, block) pair whose target is not a multiple of the block (static pairs).
    const NOT_DIVIDING: Option<(i64, i64)>;
    /// The quotients, rounded up.
    fn ceil_div_each(self, b: B) -> Self::Output;
}
impl CeilDivEachH<HNil> for HNil {
    type Output = HNil;
    const ALL_STATIC: bool = true;
    const NOT_DIVIDING: Option<(i64, i64)> = None;
    #[inline(always)]
    fn ceil_div_each(self, _: HNil) -> HNil {
        HNil
    }
}
impl<T0, TT, B0, BT> CeilDivEachH<HCons<B0, BT>> for HCons<T0, TT>
where
    T0: Integral + CeilDiv<B0>,
    B0: Integral,
    TT: CeilDivEachH<BT>,
    <T0 as CeilDiv<B0>>::Output: Copy,
{
    type Output = HCons<<T0 as CeilDiv<B0>>::Output, TT::Output>;
    const ALL_STATIC: bool = T0::IS_STATIC && TT::ALL_STATIC;
    const NOT_DIVIDING: Option<(i64, i64)> = if T0::IS_STATIC
        && B0::IS_STATIC
        && (B0::STATIC_VALUE == 0 || T0::STATIC_VALUE % B0::STATIC_VALUE != 0)
    {
        Some((T0::STATIC_VALUE, B0::STATIC_VALUE))
    } else {
        TT::NOT_DIVIDING
    };
    #[inline(always)]
    fn ceil_div_each(self, b: HCons<B0, BT>) -> Self::Output {
        HCons(self.0.ceil_div(b.0), self.1.ceil_div_each(b.1))
    }
}

/// `blocked_product(self, b)` as a trait (for naming its result in bounds).
pub trait BlockedProductOf<B> {
    /// The product.
    type Output: Copy;
    /// `blocked_product(self, b)`.
    fn blocked_product_of(self, b: B) -> Self::Output;
}
impl<SA: IntTuple, DA: IntTuple, SB: IntTuple, DB: IntTuple> BlockedProductOf<Layout<SB, DB>>
    for Layout<SA, DA>
where
    Layout<SA, DA>: PaddedProduct<Layout<SB, DB>>,
    <Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::A: LayoutParts,
    <<Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::A as LayoutParts>::S:
        ZipWith<<<Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::R as LayoutParts>::S>,
    <<Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::A as LayoutParts>::D:
        ZipWith<<<Layout<SA, DA> as PaddedProduct<Layout<SB, DB>>>::R as LayoutParts>::D>,
    BlockedProduct<Layout<SA, DA>, Layout<SB, DB>>: Copy,
{
    type Output = BlockedProduct<Layout<SA, DA>, Layout<SB, DB>>;
    #[inline(always)]
    fn blocked_product_of(self, b: Layout<SB, DB>) -> Self::Output {
        blocked_product(self, b)
    }
}

/// The block padded to the target's rank.
type Pad<S, D, T> = <Layout<S, D> as PadTo<<T as RankDepth>::Rank>>::Output;
/// `product_each(shape(padded_block))`.
type BlockShapeH<S, D, T> =
    <<<Pad<S, D, T> as LayoutParts>::S as Tuple>::H as ProductEachH>::Output;
/// `product_each(trg_shape)`.
type TargetShapeH<T> = <<T as Tuple>::H as ProductEachH>::Output;
/// `ceil_div(target_shape, block_shape)` as a list.
type ProductShapeH<S, D, T> = <TargetShapeH<T> as CeilDivEachH<BlockShapeH<S, D, T>>>::Output;
/// `ceil_div(target_shape, block_shape)`.
type ProductShape<S, D, T> = <ProductShapeH<S, D, T> as HList>::Tuple;
/// `make_ordered_layout(product_shape, order)`.
type Ordered<S, D, T, O> =
    Layout<ProductShape<S, D, T>, <O as TileOrder<ProductShape<S, D, T>>>::Stride>;

/// CuTe's `tile_to_shape(block, trg_shape, ord_shape)` as a trait: implemented for typed layouts
/// and swizzled layouts (the swizzle and its middle stay, the layout is tiled). See
/// [`tile_to_shape`].
pub trait TileToShape<T, O> {
    /// The tiled layout.
    type Output: Copy;
    /// The tiled layout.
    fn tile_to_shape(self, trg_shape: T, ord: O) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, T, O> TileToShape<T, O> for Layout<S, D>
where
    T: Tuple + RankDepth,
    T::H: ProductEachH,
    Layout<S, D>: PadTo<T::Rank>,
    Pad<S, D, T>: LayoutParts + BlockedProductOf<Ordered<S, D, T, O>>,
    <Pad<S, D, T> as LayoutParts>::S: Tuple,
    <<Pad<S, D, T> as LayoutParts>::S as Tuple>::H: ProductEachH,
    TargetShapeH<T>: CeilDivEachH<BlockShapeH<S, D, T>>,
    ProductShapeH<S, D, T>: HList,
    O: TileOrder<ProductShape<S, D, T>>,
{
    type Output = <Pad<S, D, T> as BlockedProductOf<Ordered<S, D, T, O>>>::Output;
    #[inline(always)]
    fn tile_to_shape(self, trg_shape: T, ord: O) -> Self::Output {
        const {
            if <TargetShapeH<T> as CeilDivEachH<BlockShapeH<S, D, T>>>::ALL_STATIC
                && let Some((t, b)) =
                    <TargetShapeH<T> as CeilDivEachH<BlockShapeH<S, D, T>>>::NOT_DIVIDING
            {
                Error::with2(
                    "tile_to_shape: block shape does not divide the target shape: a target extent of {} is not a multiple of the block's {}",
                    t,
                    b,
                )
                .panic()
            }
        };
        static_call!(
            int: [S, D, T],
            tiler: [],
            // the divisibility condition above has its own message
            check: if <TargetShapeH<T> as CeilDivEachH<BlockShapeH<S, D, T>>>::NOT_DIVIDING.is_some() {
                Ok(())
            } else {
                match crate::value::gmma::tile_to_shape(
                    &value_of(S::CONST, D::CONST),
                    &T::CONST,
                    &<O as TileOrder<ProductShape<S, D, T>>>::ORDER,
                ) {
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                }
            },
            {
                let padded = self.pad_to();
                let (ps, _) = padded.parts();
                let block_shape = ps.into_h().product_each_h();
                let target_shape = trg_shape.into_h().product_each_h();
                let product_shape = target_shape.ceil_div_each(block_shape).into_tuple();
                let stride = ord.ordered_stride(product_shape);
                padded.blocked_product_of(Layout {
                    shape: product_shape,
                    stride,
                })
            }
        )
    }
}
impl<Sw: Copy, L: TileToShape<T, O> + Copy, Off: Copy, T, O> TileToShape<T, O>
    for Swizzled<Sw, L, Off>
{
    type Output = Swizzled<Sw, L::Output, Off>;
    #[inline(always)]
    fn tile_to_shape(self, trg_shape: T, ord: O) -> Self::Output {
        let layout = self.layout.tile_to_shape(trg_shape, ord);
        self.with_layout(layout)
    }
}

/// CuTe's `tile_to_shape(block, trg_shape, ord_shape)`: `block` (padded to the target's rank with
/// `_1:_0`) repeated by `blocked_product` over `ceil_div(product_each(trg_shape), block_shape)`,
/// the repeats visited in the order `ord` ([`LayoutLeft`], [`LayoutRight`] or a `Step` tuple such
/// as `(_2, _1, _3)`). A swizzled block (a GMMA atom) keeps its swizzle. For a static target the
/// block must divide it in every mode, else a compile error names CuTe's condition ("tile_to_shape:
/// block shape does not divide the target shape") and the two extents.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// let t = tile_to_shape(layout!((_8, _32):(_32, _1)), (_256, _64, _4), LayoutLeft);
/// assert_eq!(t.to_string(), "((_8,_32),(_32,_2),(_1,_4)):((_32,_256),(_1,_8192),(_0,_16384))");
/// let r = tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_16, _32), LayoutRight);
/// assert_eq!(r.to_string(), "Sw<1,4,3> o smem_ptr[16b](unset) o ((_8,_2),(_16,_2)):((_16,_256),(_1,_128))");
/// let s = tile_to_shape(layout!((_8, _8, _2):(_16, _2, _1)), (_24, _64, _8), (_1, _2, _3));
/// assert_eq!(s.to_string(), "((_8,_3),(_8,_8),(_2,_4)):((_16,_128),(_2,_384),(_1,_3072))");
/// ```
#[inline(always)]
pub fn tile_to_shape<B: TileToShape<T, O>, T, O>(block: B, trg_shape: T, ord: O) -> B::Output {
    block.tile_to_shape(trg_shape, ord)
}

// ---------------------------------------------------------------------------------------------
// compile-time values of static layouts
// ---------------------------------------------------------------------------------------------

/// The value algebra's [`crate::value::int_tuple::IntTuple`] of a static typed IntTuple, as a constant (only for
/// static leaves: a dynamic leaf has no compile-time value).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::ConstValue;
/// const V: layout_types::value::int_tuple::IntTuple = <(_8, (_2, _4)) as ConstValue>::VALUE;
/// assert_eq!(V.to_string(), "(_8,(_2,_4))");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static IntTuple: make_gmma_desc needs the shared-memory tile's layout known at compile time"
)]
pub trait ConstValue: IntTuple {
    /// The value ([`IntTuple::CONST`], here known to be meaningful).
    const VALUE: crate::value::int_tuple::IntTuple = <Self as IntTuple>::CONST;
}
impl<T: Integer + 'static> ConstValue for C<T> {}
macro_rules! const_value_tuples {
    ($(($($n:ident)+))*) => {$(
        impl<$($n: ConstValue),+> ConstValue for ($($n,)+) {}
    )*};
}
const_value_tuples! {
    (A) (A B) (A B C2) (A B C2 D) (A B C2 D E) (A B C2 D E F) (A B C2 D E F G) (A B C2 D E F G H)
}

/// A shared-memory layout a GMMA descriptor can describe: a static typed layout (swizzle
/// `Sw<0,4,3>`, INTERLEAVE) or a static [`Swizzled`] layout (a GMMA atom tiled by
/// [`tile_to_shape`]), with its compile-time value.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// type A = Layout_MN_SW64_Atom<u16>;
/// assert_eq!((A::SWIZZLE.bits, A::LAYOUT.to_string(), A::FLAG_BITS), (2, "(_32,_8):(_1,_32)".into(), Some(16)));
/// ```
pub trait GmmaSmemLayout: Copy {
    /// The swizzle.
    const SWIZZLE: DynSwizzle;
    /// The layout (in elements).
    const LAYOUT: DynLayout;
    /// The element width of its `smem_ptr` flag, if it has one.
    const FLAG_BITS: Option<i64>;
}
impl<S: ConstValue + Copy, D: ConstValue + Copy> GmmaSmemLayout for Layout<S, D> {
    const SWIZZLE: DynSwizzle = match DynSwizzle::new(0, 4, 3) {
        Ok(s) => s,
        Err(e) => e.panic(),
    };
    const LAYOUT: DynLayout = DynLayout::raw(S::VALUE, D::VALUE);
    const FLAG_BITS: Option<i64> = None;
}
impl<Sw: StaticSwizzle, S: ConstValue + Copy, D: ConstValue + Copy, O: SwizzleOffset> GmmaSmemLayout
    for Swizzled<Sw, Layout<S, D>, O>
{
    const SWIZZLE: DynSwizzle = Sw::SW;
    const LAYOUT: DynLayout = DynLayout::raw(S::VALUE, D::VALUE);
    const FLAG_BITS: Option<i64> = O::FLAG_BITS;
}

// ---------------------------------------------------------------------------------------------
// descriptors
// ---------------------------------------------------------------------------------------------

/// The value algebra's major of a GMMA operand major type ([`device::wgmma::MajorK`] or
/// [`device::wgmma::MajorMN`], CuTe's `GMMA::Major`, which the architecture layer defines).
///
/// ```
/// use device::wgmma::{MajorK, MajorMN};
/// use layout_types::cute::atom::gmma::value_major;
/// use layout_types::value::mma::Major;
/// assert_eq!((value_major::<MajorK>(), value_major::<MajorMN>()), (Major::K, Major::MN));
/// ```
pub const fn value_major<M: GmmaMajor>() -> Major {
    match M::MAJOR {
        device::wgmma::Major::K => Major::K,
        device::wgmma::Major::MN => Major::MN,
    }
}

/// CuTe's `GmmaDescriptor`: the 64-bit shared-memory matrix descriptor a `wgmma` takes.
/// Bits 0..14: the start address in 16-byte units; 16..30: the leading byte offset and 32..46:
/// the stride byte offset, both in 16-byte units; 49..52: the base offset; 62..64: the layout
/// type (`INTERLEAVE = 0`, `B128 = 1`, `B64 = 2`, `B32 = 3`).
///
/// ```
/// use layout_types::cute::atom::gmma::GmmaDescriptor;
/// let d = GmmaDescriptor { desc: (1 << 62) | (64 << 32) | (1 << 16) | 0x40 };
/// assert_eq!((d.start_address(), d.leading_byte_offset(), d.stride_byte_offset()), (0x40, 1, 64));
/// assert_eq!((d.base_offset(), d.layout_type()), (0, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct GmmaDescriptor {
    /// The 64-bit word (CuTe's `desc_`).
    pub desc: u64,
}
impl GmmaDescriptor {
    /// `start_address_`: the shared-memory address in 16-byte units (14 bits).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// // a 64 x 16 K-major tile of Layout_K_SW32_Atom<half_t> at shared address 0x400 (off the
    /// // GPU the address is the pointer's low 32 bits)
    /// let tile = tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_64, _16), LayoutLeft);
    /// let d = make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile));
    /// assert_eq!(d.start_address(), 0x40);
    /// ```
    pub const fn start_address(self) -> u32 {
        (self.desc & 0x3FFF) as u32
    }
    /// `leading_byte_offset_` in 16-byte units (14 bits).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// // a 64 x 16 K-major INTERLEAVE tile of half_t: ((8,8),(8,2)):((8,64),(1,512)) elements;
    /// // the second 8-element group along K starts 512 halves = 1024 bytes on
    /// let tile = tile_to_shape(Layout_K_INTER_Atom::<u16>::new(), (_64, _16), LayoutLeft);
    /// let d = make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile));
    /// assert_eq!(d.leading_byte_offset(), 1024 / 16);
    /// ```
    pub const fn leading_byte_offset(self) -> u32 {
        ((self.desc >> 16) & 0x3FFF) as u32
    }
    /// `stride_byte_offset_` in 16-byte units (14 bits).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// // K-major SW32 half_t: rows of 16 halves (32 bytes); the next group of 8 rows starts
    /// // 8 * 32 = 256 bytes on
    /// let tile = tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_64, _16), LayoutLeft);
    /// let d = make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile));
    /// assert_eq!(d.stride_byte_offset(), 256 / 16);
    /// ```
    pub const fn stride_byte_offset(self) -> u32 {
        ((self.desc >> 32) & 0x3FFF) as u32
    }
    /// `base_offset_` (3 bits).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// // CuTe's make_gmma_desc leaves it 0 (the tile starts at its swizzle pattern's origin)
    /// let tile = tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_64, _16), LayoutLeft);
    /// let d = make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile));
    /// assert_eq!(d.base_offset(), 0);
    /// // bits 49..52: bits 17..20 of the high word
    /// assert_eq!(GmmaDescriptor::from_reg32([0, 5 << 17]).base_offset(), 5);
    /// ```
    pub const fn base_offset(self) -> u32 {
        ((self.desc >> 49) & 0x7) as u32
    }
    /// `layout_type_` (2 bits): `INTERLEAVE = 0`, `B128 = 1`, `B64 = 2`, `B32 = 3`.
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// fn layout_type<L: GmmaSmemLayout>(tile: L) -> u32 {
    ///     make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile)).layout_type()
    /// }
    /// // 64 x 16 K-major half_t tiles (one MMA's K) with rows of 8, 64, 32 and 16 halves (the
    /// // SW128 and SW64 ones: the first k-block of tile_to_shape(atom, (_64, _64)))
    /// let sw128 = Layout_K_SW128_Atom::<u16>::new().with_layout(layout!(((_8, _8), (_16, _1)):((_64, _512), (_1, _0))));
    /// let sw64 = Layout_K_SW64_Atom::<u16>::new().with_layout(layout!(((_8, _8), (_16, _1)):((_32, _256), (_1, _0))));
    /// assert_eq!(layout_type(tile_to_shape(Layout_K_INTER_Atom::<u16>::new(), (_64, _16), LayoutLeft)), 0);
    /// assert_eq!(layout_type(sw128), 1);
    /// assert_eq!(layout_type(sw64), 2);
    /// assert_eq!(layout_type(tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_64, _16), LayoutLeft)), 3);
    /// ```
    pub const fn layout_type(self) -> u32 {
        (self.desc >> 62) as u32
    }
    /// CuTe's `reg32_`: the two 32-bit words, low first (the low one holds the start address and
    /// the leading byte offset, the high one the stride byte offset, base offset and layout
    /// type).
    ///
    /// ```
    /// use layout_types::cute::atom::gmma::GmmaDescriptor;
    /// let d = GmmaDescriptor { desc: (1 << 62) | (64 << 32) | 0x40 };
    /// assert_eq!(d.reg32(), [0x40, (1 << 30) | 64]);
    /// assert_eq!(GmmaDescriptor::from_reg32(d.reg32()), d);
    /// ```
    #[inline(always)]
    pub const fn reg32(self) -> [u32; 2] {
        [self.desc as u32, (self.desc >> 32) as u32]
    }
    /// The descriptor of the words `reg32` (low first; CuTe's `reg32_` written).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// // start 0x40 and leading offset 1 (low word); B32 and stride offset 16 (high word)
    /// let d = GmmaDescriptor::from_reg32([0x40 | (1 << 16), (3 << 30) | 16]);
    /// let tile = tile_to_shape(Layout_K_SW32_Atom::<u16>::new(), (_64, _16), LayoutLeft);
    /// assert_eq!(d, make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(0x400usize as *mut u16), tile)));
    /// ```
    #[inline(always)]
    pub const fn from_reg32([lo, hi]: [u32; 2]) -> Self {
        GmmaDescriptor {
            desc: ((hi as u64) << 32) | lo as u64,
        }
    }
}
impl fmt::Display for GmmaDescriptor {
    /// CuTe's `print(GmmaDescriptor)` fields on one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GmmaDescriptor: 0x{:016x} (start_addr 0x{:04x}, leading_off 0x{:04x} ({}), stride_off 0x{:04x} ({}), base_offset 0x{:01x}, layout_type 0x{:01x})",
            self.desc,
            self.start_address(),
            self.leading_byte_offset(),
            self.leading_byte_offset(),
            self.stride_byte_offset(),
            self.stride_byte_offset(),
            self.base_offset(),
            self.layout_type()
        )
    }
}

/// The descriptor bits of `make_gmma_desc::<M>` for a tensor of `T` over `L`, all but the start
/// address; a compile error names CuTe's failed condition.
///
/// ```
/// use device::wgmma::MajorMN;
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::prelude::*;
/// fn desc_bits<L: GmmaSmemLayout>(_: L) -> u64 {
///     DescBits::<MajorMN, u16, L>::BITS
/// }
/// // a 64x16 MN-major tile of Layout_MN_INTER_Atom<half_t>
/// let d = GmmaDescriptor {
///     desc: desc_bits(tile_to_shape(Layout_MN_INTER_Atom::<u16>::new(), (_64, _16), LayoutLeft)),
/// };
/// assert_eq!((d.layout_type(), d.leading_byte_offset(), d.stride_byte_offset()), (0, 64, 8));
/// ```
pub struct DescBits<M, T, L>(core::marker::PhantomData<(M, T, L)>);
impl<M: GmmaMajor, T: SizeofBits, L: GmmaSmemLayout> DescBits<M, T, L> {
    /// The 64-bit descriptor with `start_address_ = 0`.
    pub const BITS: u64 = {
        // CuTe's `layout_type` reads GMMA's swizzle from the tensor's `swizzle_ptr`: a swizzle
        // on element offsets (a composed layout without the flag) is not one (a tensor over it
        // would place its elements elsewhere than the descriptor says)
        if L::FLAG_BITS.is_none() && L::SWIZZLE.bits != 0 {
            Error::with2(
                "make_gmma_desc: the tile's swizzle Sw<{},{},_> acts on element offsets, GMMA's on the shared-memory address (CuTe: a swizzle_ptr, smem_ptr_flag_bits): build the tile from a GMMA Layout_*_Atom, or give it the flag (with_offset(SmemPtrFlag))",
                L::SWIZZLE.bits as i64,
                L::SWIZZLE.base as i64,
            )
            .panic()
        }
        if let Some(b) = L::FLAG_BITS
            && b != T::BITS
        {
            Error::with2(
                "make_gmma_desc: the layout's smem_ptr flag is for {}-bit elements but the tensor's elements have {} bits",
                b,
                T::BITS,
            )
            .panic()
        }
        match crate::value::gmma::gmma_desc(&L::LAYOUT, L::SWIZZLE, value_major::<M>(), T::BITS) {
            Ok(d) => d,
            Err(e) => e.panic(),
        }
    };
}

/// CuTe's `make_gmma_desc<Major>(tensor)`: the `wgmma` descriptor of a rank-2 shared-memory tile
/// (one MMA's `(MN, K)` operand tile, e.g. `tensor<0>` of a partition). Everything but the start
/// address is a compile-time constant; a tile that is not one of the canonical GMMA layouts of
/// its swizzle is a compile error naming CuTe's condition ("Not a canonical GMMA_K Layout:
/// Expected stride failure", ...) and the values.
///
/// ```
/// use device::wgmma::MajorK;
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::swizzle::SmemPtrFlag;
/// use layout_types::value::swizzle::Swizzle;
/// // one 64x16 MMA tile of tile_to_shape(Layout_K_SW128_Atom<half_t>, (_64,_64)): the swizzle
/// // on the shared-memory address (CuTe's smem_ptr_flag_bits), as the atom has it
/// let tile = make_composed_layout(Swizzle::<3, 4, 3>, layout!(((_8, _8), (_16, _1)):((_64, _512), (_1, _0))))
///     .with_offset(SmemPtrFlag::<BitsOf<u16>>::default());
/// let mut smem = [0u16; 64 * 64];
/// let t = make_tensor(make_smem_ptr(smem.as_mut_ptr()), tile);
/// let d = make_gmma_desc(MajorK, &t);
/// assert_eq!((d.layout_type(), d.stride_byte_offset(), d.leading_byte_offset()), (1, 64, 1));
/// assert_eq!(d.start_address(), ((smem.as_ptr() as usize as u32) >> 4) & 0x3FFF);
/// ```
#[inline(always)]
pub fn make_gmma_desc<M: GmmaMajor, T: SizeofBits, L: GmmaSmemLayout>(
    _major: M,
    tensor: &Tensor<Smem<T>, L>,
) -> GmmaDescriptor {
    let bits = const { DescBits::<M, T, L>::BITS };
    let addr = device::shared::cast_smem_ptr_to_uint(tensor.engine.ptr());
    GmmaDescriptor {
        desc: bits | ((addr >> 4) & 0x3FFF) as u64,
    }
}

/// CuTe's `GMMA::DescriptorIterator`: a descriptor moved by offsets in 16-byte units (added to
/// the low 32 bits, as CuTe does); the engine of a descriptor tensor.
///
/// ```
/// use layout_types::cute::atom::gmma::*;
/// let it = DescriptorIterator { desc: GmmaDescriptor { desc: (1 << 62) | 0x10 } };
/// assert_eq!(it.at(4i32).desc, (1 << 62) | 0x14);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DescriptorIterator {
    /// The descriptor at offset 0.
    pub desc: GmmaDescriptor,
}
impl DescriptorIterator {
    /// `iter[i]`: the descriptor `i` 16-byte units on.
    ///
    /// ```
    /// use layout_types::cute::atom::gmma::*;
    /// // a K-major SW128 half_t descriptor at 0x400; its next k-block (16 halves, 32 bytes) is
    /// // 2 units on, with the same offsets and layout type
    /// let it = DescriptorIterator { desc: GmmaDescriptor::from_reg32([0x40 | (1 << 16), (1 << 30) | 64]) };
    /// let d = it.at(2i32);
    /// assert_eq!((d.start_address(), d.leading_byte_offset(), d.stride_byte_offset(), d.layout_type()), (0x42, 1, 64, 1));
    /// ```
    #[inline(always)]
    pub fn at<I: Integral>(self, i: I) -> GmmaDescriptor {
        let [lo, hi] = self.desc.reg32();
        GmmaDescriptor::from_reg32([lo.wrapping_add(i.value() as u32), hi])
    }
    /// The iterator with its base descriptor's start-address word as lane 0 of the warp holds it
    /// ([`device::cluster::warp_uniform_u32`], CUTLASS's `__shfl_sync(0xffffffff, x, 0)`): the
    /// same descriptors, but neither the optimizer nor ptxas can make the base again from the
    /// address it came from. Made per tile before a mainloop, the base is then held (in a uniform
    /// register) across the k-loop; from a visible base, ptxas under register pressure rebuilt it
    /// from the shared-memory address in every k-tile (the generic-to-shared conversion, shift,
    /// mask and stage offset: 13 instructions a k-tile in the fused FP8 `_n192tma` entries,
    /// session 54). The layout-type, stride and leading-offset bits stay constants. Every lane
    /// of the warp calls it, with the same descriptor.
    ///
    /// ```
    /// use layout_types::cute::atom::gmma::*;
    /// let it = DescriptorIterator { desc: GmmaDescriptor { desc: (1 << 62) | 0x10 } };
    /// assert_eq!(it.warp_uniform().at(3), it.at(3));
    /// ```
    #[inline(always)]
    pub fn warp_uniform(self) -> DescriptorIterator {
        let [lo, hi] = self.desc.reg32();
        DescriptorIterator {
            desc: GmmaDescriptor::from_reg32([device::cluster::warp_uniform_u32(lo), hi]),
        }
    }
}
impl<L> Tensor<DescriptorIterator, L> {
    /// The descriptor tensor with its base broadcast from lane 0
    /// ([`DescriptorIterator::warp_uniform`]): the same descriptors at every coordinate, the base
    /// held rather than rebuilt. Every lane of the warp calls it.
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64, _2), LayoutLeft);
    /// let part = smem.with_layout(zipped_divide(smem.layout, (_64, _16)));
    /// let mut buf = [0u16; 64 * 64 * 2];
    /// let d = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(buf.as_mut_ptr()), part));
    /// let c = (_0, (0i32, 3i32, 1i32));
    /// assert_eq!(d.warp_uniform().at(c), d.at(c));
    /// ```
    #[inline(always)]
    pub fn warp_uniform(self) -> Self {
        Tensor {
            engine: self.engine.warp_uniform(),
            layout: self.layout,
        }
    }
}
impl Engine for DescriptorIterator {}
impl<I: Integral> Advance<I> for DescriptorIterator {
    type Output = DescriptorIterator;
    #[inline(always)]
    fn advance(self, off: I) -> DescriptorIterator {
        if I::IS_STATIC && I::STATIC_VALUE == 0 {
            return self;
        }
        DescriptorIterator { desc: self.at(off) }
    }
}

/// A stride in elements of `B` bits as a stride in 128-bit units (CuTe's `upcast<128/B>` of a
/// stride that is a multiple of the ratio, or `_0`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::UpcastStride;
/// use layout_types::cute::typenum::P8;
/// let s = UpcastStride::<P8>::upcast_stride((_0, (_512, 1024i32)));
/// assert_eq!(s.to_string_cute(), "(_0,(_64,128))");
/// ```
pub trait UpcastStride<N> {
    /// The stride in 128-bit units.
    type Output: IntTuple;
    /// The stride in 128-bit units.
    fn upcast_stride(self) -> Self::Output;
}
impl<T: Integer + core::ops::Div<N> + core::ops::Rem<N> + 'static, N: Integer> UpcastStride<N>
    for C<T>
where
    <T as core::ops::Div<N>>::Output: Integer + 'static,
{
    type Output = C<<T as core::ops::Div<N>>::Output>;
    #[inline(always)]
    fn upcast_stride(self) -> Self::Output {
        const {
            if T::I64 % N::I64 != 0 {
                Error::with2(
                    "recast<uint128_t>: Divisibility condition: a stride of {} elements is not a multiple of the {} elements of 128 bits",
                    T::I64,
                    N::I64,
                )
                .panic()
            }
        };
        C::new()
    }
}
macro_rules! upcast_dyn {
    ($($t:ty),*) => {$(
        impl<N: Integer> UpcastStride<N> for $t {
            type Output = $t;
            #[inline(always)]
            fn upcast_stride(self) -> $t { self / (N::I64 as $t) }
        }
    )*};
}
upcast_dyn!(i32, i64, u32, u64, usize, isize);
impl<N, X: Tuple> UpcastStride<N> for X
where
    X::H: UpcastStrideH<N>,
    <X::H as UpcastStrideH<N>>::Output: HList,
{
    type Output = <<X::H as UpcastStrideH<N>>::Output as HList>::Tuple;
    #[inline(always)]
    fn upcast_stride(self) -> Self::Output {
        self.into_h().upcast_h().into_tuple()
    }
}
/// [`UpcastStride`] over a list.
pub trait UpcastStrideH<N> {
    /// The strides.
    type Output;
    /// The strides.
    fn upcast_h(self) -> Self::Output;
}
impl<N> UpcastStrideH<N> for HNil {
    type Output = HNil;
    #[inline(always)]
    fn upcast_h(self) -> HNil {
        HNil
    }
}
impl<N, H: UpcastStride<N>, T: UpcastStrideH<N>> UpcastStrideH<N> for HCons<H, T> {
    type Output = HCons<H::Output, T::Output>;
    #[inline(always)]
    fn upcast_h(self) -> Self::Output {
        HCons(self.0.upcast_stride(), self.1.upcast_h())
    }
}

/// The descriptor tensor of [`make_gmma_desc_tensor`]: mode 0 (one MMA's tile) is `_1:_0`, the
/// other modes keep their shapes with strides in 128-bit units.
pub type DescTensor<ST, DT, N> = Tensor<
    DescriptorIterator,
    Layout<
        <HCons<C<P1>, ST> as HList>::Tuple,
        <HCons<C<Z0>, <DT as UpcastStrideH<N>>::Output> as HList>::Tuple,
    >,
>;

/// The element layout and type of a partitioned shared-memory tensor whose descriptor tensor
/// [`make_gmma_desc_tensor`] builds.
pub trait GmmaDescSource<M> {
    /// The descriptor tensor.
    type Output;
    /// The descriptor tensor.
    fn desc_tensor(self) -> Self::Output;
}
/// The element ratio `128 / sizeof_bits<T>`.
pub type U128Ratio<T> = <P128 as core::ops::Div<BitsOf<T>>>::Output;
impl<M, T, Sw, S, D, O> GmmaDescSource<M> for Tensor<Smem<T>, Swizzled<Sw, Layout<S, D>, O>>
where
    M: GmmaMajor,
    T: SizeofBits,
    Sw: StaticSwizzle,
    O: SwizzleOffset,
    S: Tuple,
    D: Tuple,
    P128: core::ops::Div<BitsOf<T>>,
    <S as Tuple>::H: SplitFirst,
    <D as Tuple>::H: SplitFirst,
    Swizzled<Sw, Layout<<S::H as SplitFirst>::First, <D::H as SplitFirst>::First>, O>:
        GmmaSmemLayout,
    <D::H as SplitFirst>::Rest: UpcastStrideH<U128Ratio<T>>,
    HCons<C<P1>, <S::H as SplitFirst>::Rest>: HList,
    HCons<C<Z0>, <<D::H as SplitFirst>::Rest as UpcastStrideH<U128Ratio<T>>>::Output>: HList,
{
    type Output = DescTensor<<S::H as SplitFirst>::Rest, <D::H as SplitFirst>::Rest, U128Ratio<T>>;
    #[inline(always)]
    fn desc_tensor(self) -> Self::Output {
        let (s0, st) = self.layout.layout.shape.into_h().split_first();
        let (d0, dt) = self.layout.layout.stride.into_h().split_first();
        let tile = Tensor {
            engine: self.engine,
            layout: self.layout.with_layout(Layout {
                shape: s0,
                stride: d0,
            }),
        };
        let desc = make_gmma_desc(M::default(), &tile);
        Tensor {
            engine: DescriptorIterator { desc },
            layout: static_call!(int: [S, D], tiler: [], check: Ok::<(), Error>(()), {
                Layout {
                    shape: HCons(C::new(), st).into_tuple(),
                    stride: HCons(C::new(), dt.upcast_h()).into_tuple(),
                }
            }),
        }
    }
}

/// Splits a list into its head and tail.
pub trait SplitFirst {
    /// The head.
    type First: Copy;
    /// The tail.
    type Rest: Copy;
    /// `(head, tail)`.
    fn split_first(self) -> (Self::First, Self::Rest);
}
impl<H: Copy, T: Copy> SplitFirst for HCons<H, T> {
    type First = H;
    type Rest = T;
    #[inline(always)]
    fn split_first(self) -> (H, T) {
        (self.0, self.1)
    }
}

/// CuTe's `partition_fragment_A/B` of a GMMA SS operand (`MakeTensor<GMMA::smem_desc<Major>>`):
/// for a shared-memory tensor whose mode 0 is one MMA's `(MN, K)` tile and whose other modes walk
/// MMA tiles, k blocks and pipeline stages, the tensor of descriptors:
/// `DescriptorIterator{make_gmma_desc<Major>(tensor<0>(t))}` over
/// `replace<0>(recast<uint128_t>(t).layout(), _1:_0)`. `.at((_0, (m, k, stage))).desc` is the
/// descriptor of that tile: the base descriptor plus the tile's offset in 16-byte units.
///
/// ```
/// use device::wgmma::MajorK;
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
/// // one 64x16 MMA tile in mode 0, then (m, k, stage)
/// let part = smem.with_layout(zipped_divide(smem.layout, (_64, _16)));
/// let mut buf = [0u16; 128 * 64 * 4];
/// let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), part);
/// let d = make_gmma_desc_tensor(MajorK, t);
/// assert_eq!(d.layout.to_string(), "(_1,(_2,_4,(_1,_4))):(_0,(_512,_2,(_0,_1024)))");
/// let base = d.engine.desc.desc;
/// assert_eq!(d.at((_0, (1i32, 2i32, 3i32))).desc.desc, base + 512 + 2 * 2 + 3 * 1024);
/// ```
#[inline(always)]
pub fn make_gmma_desc_tensor<M: GmmaMajor, Src: GmmaDescSource<M>>(
    _major: M,
    t: Src,
) -> Src::Output {
    t.desc_tensor()
}
