//! The typed, compile-time counterpart of [`crate::mma`] and [`crate::gmma`]: MMA atoms as
//! zero-sized types named as in CuTe, a static TiledMMA whose layouts are associated constants,
//! static partitions of a CTA tile, GMMA shared-memory atoms and `tile_to_shape`.
//!
//! Every value is computed by a `const fn` in an associated constant, so an invalid combination
//! fails `cargo build` with CuTe's condition and the values: a TiledMMA tile that does not divide
//! the CTA tile it partitions, a `tile_to_shape` target that is not a multiple of the block, a
//! `_RS` GMMA with an MN-major A, ...
//!
//! ```
//! use layout_types::prelude::*;
//! use layout_types::static_mma::*;
//! type Mma = TiledMMA<SM80_16x8x16_F32BF16BF16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
//! const TILE: [i64; 3] = Mma::TILE_MNK;
//! assert_eq!(TILE, [32, 16, 16]);
//! assert_eq!(Mma::THREADS, 128);
//! assert_eq!(Mma::LAYOUT_C_TV.to_string(),
//!            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
//! // each thread's accumulators of a 128x128 CTA tile: ((_2,_2),_4,_8), 128 values
//! type Acc = PartitionC<Mma, Layout<(_128, _128), (_1, _128)>>;
//! assert_eq!(Acc::VALUE.shape.to_string(), "((_2,_2),_4,_8)");
//! assert_eq!(<FragmentC<Mma, Layout<(_128, _128), (_1, _128)>>>::SIZE, 128);
//! ```

use crate::gmma::{GmmaSwizzle, Order, tile_to_shape};
use crate::int_tuple::IntTuple;
use crate::mma::{GmmaTypes, Major, MmaAtom, MmaOp, Operand, TiledMma};
use crate::static_layout::{StaticIntTuple, StaticLayout, StaticTiler, Underscore};
use crate::swizzle::{ComposedLayout, ComposedOffset, DynSwizzle, StaticSwizzle, SwizzledLayout};
use crate::{DynLayout, Error};
use core::fmt;
use core::marker::PhantomData;

const fn atom_or_panic(op: MmaOp) -> MmaAtom {
    match MmaAtom::new(op) {
        Ok(a) => a,
        Err(e) => e.panic(),
    }
}

/// A static MMA atom: a zero-sized type naming a CuTe `MMA_Atom`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MMA atom",
    label = "use an atom type such as `SM80_16x8x16_F32BF16BF16F32_TN` or `SM90_64xNx16_F32BF16BF16_SS<128, MajorK, MajorK>`"
)]
pub trait StaticMmaAtom: Copy + Default {
    /// The atom.
    const ATOM: MmaAtom;
}

macro_rules! sm80_atoms {
    ($($name:ident),*) => {$(
        #[doc = concat!("CuTe's `", stringify!($name), "` (`mma.sync`), as a type.")]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
        pub struct $name;
        impl StaticMmaAtom for $name {
            const ATOM: MmaAtom = atom_or_panic(MmaOp::$name);
        }
    )*};
}
sm80_atoms!(
    SM80_16x8x8_F16F16F16F16_TN,
    SM80_16x8x8_F32F16F16F32_TN,
    SM80_16x8x8_F32BF16BF16F32_TN,
    SM80_16x8x8_F32TF32TF32F32_TN,
    SM80_16x8x16_F16F16F16F16_TN,
    SM80_16x8x16_F32F16F16F32_TN,
    SM80_16x8x16_F32BF16BF16F32_TN
);

/// A GMMA operand major as a type ([`MajorK`], [`MajorMN`]).
pub trait StaticMajor: Copy + Default {
    /// The major.
    const MAJOR: Major;
}
/// `GMMA::Major::K`.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct MajorK;
/// `GMMA::Major::MN`.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct MajorMN;
impl StaticMajor for MajorK {
    const MAJOR: Major = Major::K;
}
impl StaticMajor for MajorMN {
    const MAJOR: Major = Major::MN;
}

macro_rules! gmma_atoms {
    ($($name:ident => $types:ident, $rs:literal;)*) => {$(
        #[doc = concat!("CuTe's `", stringify!($name), "<A, B>` with N from 8 to 256 in steps of 8 ",
                        "(`SM90_64x<N>x16_...`), as a type: `", stringify!($name), "<128, MajorK, MajorMN>`.")]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
        pub struct $name<const N: i64, A, B>(PhantomData<(A, B)>);
        impl<const N: i64, A: StaticMajor, B: StaticMajor> StaticMmaAtom for $name<N, A, B> {
            const ATOM: MmaAtom = atom_or_panic(MmaOp::Gmma {
                n: N,
                types: GmmaTypes::$types,
                rs: $rs,
                a: A::MAJOR,
                b: B::MAJOR,
            });
        }
    )*};
}
gmma_atoms! {
    SM90_64xNx16_F32BF16BF16_SS => F32BF16BF16, false;
    SM90_64xNx16_F32BF16BF16_RS => F32BF16BF16, true;
    SM90_64xNx16_F32F16F16_SS => F32F16F16, false;
    SM90_64xNx16_F32F16F16_RS => F32F16F16, true;
}

/// A static TiledMMA: CuTe's `TiledMMA<MMA_Atom<Atom>, AtomLayoutMNK, PermutationMNK>` (built by
/// `make_tiled_mma(Atom{}, AtomLayout{}, Perm{})`), evaluated at compile time. `Perm` is
/// [`Underscore`] (none) or a by-mode tuple of static modes (`(_32, Layout<...>, Underscore)`).
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::static_mma::*;
/// type Wg = TiledMMA<SM90_64xNx16_F32BF16BF16_SS<128, MajorK, MajorMN>, Layout<(_2, _1, _1), (_1, _0, _0)>>;
/// assert_eq!(Wg::TILE_MNK, [128, 128, 16]);
/// assert_eq!(Wg::THREADS, 256);
/// assert_eq!(Wg::LAYOUT_B_TV.to_string(), "(_256,((_128,_16),(_1,_1))):(_0,((_1,_128),(_0,_0)))");
/// type P = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>, (_32, _32, _16)>;
/// assert_eq!(P::TILE_MNK, [32, 32, 16]);
/// ```
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct TiledMMA<Atom, AtomLayout, Perm = Underscore>(PhantomData<(Atom, AtomLayout, Perm)>);

/// Access to a static TiledMMA's value (for the partition types).
pub trait StaticTiledMma: Copy + Default {
    /// The TiledMMA.
    const MMA: TiledMma;
}

const fn ok_layout(r: Result<DynLayout, Error>) -> DynLayout {
    match r {
        Ok(l) => l,
        Err(e) => e.panic(),
    }
}

impl<Atom: StaticMmaAtom, L: StaticLayout, P: StaticTiler> StaticTiledMma for TiledMMA<Atom, L, P> {
    const MMA: TiledMma = match TiledMma::new(&Atom::ATOM, &L::VALUE, &P::TILER) {
        Ok(m) => m,
        Err(e) => e.panic(),
    };
}

impl<Atom: StaticMmaAtom, L: StaticLayout, P: StaticTiler> TiledMMA<Atom, L, P> {
    /// `(tile_size<0>, tile_size<1>, tile_size<2>)`.
    pub const TILE_MNK: [i64; 3] = {
        let m = <Self as StaticTiledMma>::MMA;
        [m.tile_size(0), m.tile_size(1), m.tile_size(2)]
    };
    /// Number of threads.
    pub const THREADS: i64 = <Self as StaticTiledMma>::MMA.size();
    /// `get_layoutA_TV()`.
    pub const LAYOUT_A_TV: DynLayout = ok_layout(<Self as StaticTiledMma>::MMA.layout_a_tv());
    /// `get_layoutB_TV()`.
    pub const LAYOUT_B_TV: DynLayout = ok_layout(<Self as StaticTiledMma>::MMA.layout_b_tv());
    /// `get_layoutC_TV()`.
    pub const LAYOUT_C_TV: DynLayout = ok_layout(<Self as StaticTiledMma>::MMA.layout_c_tv());
    /// `ThrLayoutVMNK`.
    pub const THR_LAYOUT_VMNK: DynLayout = <Self as StaticTiledMma>::MMA.thr_layout_vmnk;
}

/// Thread `thr`'s part of a static CTA tile, checked and computed at compile time (the layout
/// is the same for every thread; [`Self::offset`] gives the thread's start).
const fn static_partition(mma: &TiledMma, op: Operand, cta: &DynLayout) -> DynLayout {
    if let Err(e) = mma.check_divides(op, &cta.shape) {
        e.panic()
    }
    match mma.get_slice(0).partition(op, cta) {
        Ok((l, _)) => l,
        Err(e) => e.panic(),
    }
}

const fn static_fragment(mma: &TiledMma, op: Operand, cta: &DynLayout) -> DynLayout {
    if let Err(e) = mma.check_divides(op, &cta.shape) {
        e.panic()
    }
    ok_layout(mma.get_slice(0).partition_fragment(op, cta))
}

macro_rules! partition_types {
    ($($(#[$doc:meta])* $name:ident => $op:ident, $f:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq)]
        pub struct $name<Mma, Cta>(PhantomData<(Mma, Cta)>);
        impl<Mma: StaticTiledMma, Cta: StaticLayout> StaticLayout for $name<Mma, Cta> {
            const VALUE: DynLayout = $f(&Mma::MMA, Operand::$op, &Cta::VALUE);
        }
        impl<Mma: StaticTiledMma, Cta: StaticLayout> $name<Mma, Cta> {
            /// The offset in the CTA tile of thread `thr`'s first element (run time).
            pub fn offset(thr: i64) -> i64 {
                let _ = <Self as StaticLayout>::VALUE;
                match Mma::MMA.get_slice(thr).partition(Operand::$op, &Cta::VALUE) {
                    Ok((_, off)) => off.v,
                    Err(e) => e.panic(),
                }
            }
        }
        impl<Mma: StaticTiledMma, Cta: StaticLayout> fmt::Display for $name<Mma, Cta> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&<Self as StaticLayout>::VALUE, f)
            }
        }
        impl<Mma: StaticTiledMma, Cta: StaticLayout> fmt::Debug for $name<Mma, Cta> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&<Self as StaticLayout>::VALUE, f)
            }
        }
    )*};
}

partition_types! {
    /// `thr_mma.partition_A(sA)` of a static `(M, K)` CTA tile: `(MMA, MMA_M, MMA_K, ...)`. The
    /// TiledMMA tile must divide the CTA tile (a compile error otherwise).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// type A = PartitionA<Mma, Layout<(_64, _32), (_32, _1)>>;
    /// assert_eq!(A::VALUE.to_string(), "((_2,_2,_2),_2,_2):((_1,_256,_8),_1024,_16)");
    /// assert_eq!(A::offset(5), 32 + 2);
    /// ```
    PartitionA => A, static_partition;
    /// `thr_mma.partition_B(sB)` of a static `(N, K)` CTA tile (see [`PartitionA`]).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// assert_eq!(<PartitionB<Mma, Layout<(_64, _32), (_1, _64)>>>::VALUE.shape.to_string(), "((_2,_2),_4,_2)");
    /// ```
    PartitionB => B, static_partition;
    /// `thr_mma.partition_C(gC)` of a static `(M, N)` CTA tile (see [`PartitionA`]).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// assert_eq!(<PartitionC<Mma, Layout<(_64, _64), (_64, _1)>>>::VALUE.to_string(), "((_2,_2),_2,_4):((_1,_512),_2048,_16)");
    /// ```
    PartitionC => C, static_partition;
    /// `thr_mma.partition_fragment_A(sA)`: the layout of a thread's A fragment (registers, or a
    /// GMMA descriptor tensor) for a static CTA tile.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// assert_eq!(<FragmentA<Mma, Layout<(_64, _32), (_32, _1)>>>::VALUE.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)");
    /// ```
    FragmentA => A, static_fragment;
    /// `thr_mma.partition_fragment_B(sB)` (see [`FragmentA`]).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// assert_eq!(<FragmentB<Mma, Layout<(_64, _32), (_1, _64)>>>::SIZE, 32);
    /// ```
    FragmentB => B, static_fragment;
    /// `thr_mma.partition_fragment_C(gC)`: a thread's accumulators (column-major, compact).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::static_mma::*;
    /// type Mma = TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<(_2, _2, _1), (_1, _2, _0)>>;
    /// assert_eq!(<FragmentC<Mma, Layout<(_64, _64), (_64, _1)>>>::VALUE.to_string(), "((_2,_2),_2,_4):((_1,_2),_4,_8)");
    /// ```
    FragmentC => C, static_fragment;
}

// ------------------------------------------------------------------------------------------------
// GMMA shared-memory atoms and tile_to_shape

/// A static shared-memory block for [`TileToShape`]: a static layout, a [`SwizzledLayout`] or a
/// GMMA layout atom.
pub trait StaticSmemBlock: Copy + Default {
    /// The swizzle and pointer flag, if the block is a composed layout.
    const SWIZZLE: Option<(DynSwizzle, ComposedOffset)>;
    /// The (inner) layout.
    const LAYOUT: DynLayout;
}
impl<L: StaticLayout> StaticSmemBlock for L {
    const SWIZZLE: Option<(DynSwizzle, ComposedOffset)> = None;
    const LAYOUT: DynLayout = L::VALUE;
}
impl<Sw: StaticSwizzle, L: StaticLayout> StaticSmemBlock for SwizzledLayout<Sw, L> {
    const SWIZZLE: Option<(DynSwizzle, ComposedOffset)> = Some((Sw::SW, ComposedOffset::Int(0)));
    const LAYOUT: DynLayout = L::VALUE;
}

/// CuTe's `GMMA::Layout_<K|MN>_<INTER|SW32|SW64|SW128>_Atom<T>` for `BITS`-bit elements (use the
/// aliases [`Layout_K_SW128_Atom`] etc.).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct GmmaSmemAtom<const K_MAJOR: bool, const SW: u32, const BITS: i64>;

impl<const K_MAJOR: bool, const SW: u32, const BITS: i64> GmmaSmemAtom<K_MAJOR, SW, BITS> {
    /// The atom.
    pub const VALUE: ComposedLayout = {
        let sw = match SW {
            0 => GmmaSwizzle::INTER,
            1 => GmmaSwizzle::SW32,
            2 => GmmaSwizzle::SW64,
            3 => GmmaSwizzle::SW128,
            _ => panic!(
                "GMMA layout atom: the swizzle is 0 (INTER), 1 (SW32), 2 (SW64) or 3 (SW128)"
            ),
        };
        let major = if K_MAJOR { Major::K } else { Major::MN };
        match crate::gmma::gmma_smem_atom(major, sw, BITS) {
            Ok(c) => c,
            Err(e) => e.panic(),
        }
    };
}
impl<const K_MAJOR: bool, const SW: u32, const BITS: i64> StaticSmemBlock
    for GmmaSmemAtom<K_MAJOR, SW, BITS>
{
    const SWIZZLE: Option<(DynSwizzle, ComposedOffset)> = {
        let v = Self::VALUE;
        Some((v.swizzle, v.offset))
    };
    const LAYOUT: DynLayout = Self::VALUE.layout;
}
impl<const K_MAJOR: bool, const SW: u32, const BITS: i64> fmt::Display
    for GmmaSmemAtom<K_MAJOR, SW, BITS>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Self::VALUE, f)
    }
}

/// `GMMA::Layout_K_INTER_Atom<T>` (`BITS = sizeof_bits<T>`).
#[allow(non_camel_case_types)]
pub type Layout_K_INTER_Atom<const BITS: i64> = GmmaSmemAtom<true, 0, BITS>;
/// `GMMA::Layout_K_SW32_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_K_SW32_Atom<const BITS: i64> = GmmaSmemAtom<true, 1, BITS>;
/// `GMMA::Layout_K_SW64_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_K_SW64_Atom<const BITS: i64> = GmmaSmemAtom<true, 2, BITS>;
/// `GMMA::Layout_K_SW128_Atom<T>`.
///
/// ```
/// use layout_types::static_mma::Layout_K_SW128_Atom;
/// assert_eq!(Layout_K_SW128_Atom::<16>::default().to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
/// ```
#[allow(non_camel_case_types)]
pub type Layout_K_SW128_Atom<const BITS: i64> = GmmaSmemAtom<true, 3, BITS>;
/// `GMMA::Layout_MN_INTER_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_MN_INTER_Atom<const BITS: i64> = GmmaSmemAtom<false, 0, BITS>;
/// `GMMA::Layout_MN_SW32_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_MN_SW32_Atom<const BITS: i64> = GmmaSmemAtom<false, 1, BITS>;
/// `GMMA::Layout_MN_SW64_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_MN_SW64_Atom<const BITS: i64> = GmmaSmemAtom<false, 2, BITS>;
/// `GMMA::Layout_MN_SW128_Atom<T>`.
#[allow(non_camel_case_types)]
pub type Layout_MN_SW128_Atom<const BITS: i64> = GmmaSmemAtom<false, 3, BITS>;

/// `tile_to_shape(Block{}, Shape{})` at compile time: the block repeated (column-major order of
/// the repeats) to a static target shape, typically with a stage mode. The block's extent must
/// divide the target's in every mode (CuTe: "tile_to_shape: block shape does not divide the
/// target shape"), a compile error otherwise.
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::static_mma::*;
/// type SA = TileToShape<Layout_K_SW128_Atom<16>, (_128, _64, _3)>;
/// assert_eq!(SA::default().to_string(),
///            "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_0),(_0,_8192))");
/// assert_eq!(SA::COSIZE, 128 * 64 * 3);
/// type Plain = TileToShape<Layout<(_8, _8), (_8, _1)>, (_32, _16)>;
/// assert_eq!(Plain::VALUE.to_string(), "((_8,_4),(_8,_2)):((_8,_64),(_1,_256))");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct TileToShape<Block, Shape>(PhantomData<(Block, Shape)>);

impl<B: StaticSmemBlock, S: StaticIntTuple> TileToShape<B, S> {
    /// The tiled (inner) layout.
    pub const LAYOUT: DynLayout = {
        let t: IntTuple = S::VALUE;
        ok_layout(tile_to_shape(&B::LAYOUT, &t, &Order::ColMajor))
    };
    /// `cosize` of the tiled layout: the elements a buffer needs.
    pub const COSIZE: i64 = Self::LAYOUT.cosize().v;
    /// The swizzled result (`composition(swizzle, offset, tile_to_shape(layout, shape))`), if the
    /// block is swizzled.
    pub const COMPOSED: Option<ComposedLayout> = match B::SWIZZLE {
        Some((swizzle, offset)) => Some(ComposedLayout {
            swizzle,
            offset,
            layout: Self::LAYOUT,
        }),
        None => None,
    };
}
impl<B: StaticSmemBlock + StaticLayout, S: StaticIntTuple> StaticLayout for TileToShape<B, S> {
    const VALUE: DynLayout = Self::LAYOUT;
}
impl<B: StaticSmemBlock, S: StaticIntTuple> fmt::Display for TileToShape<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Self::COMPOSED {
            Some(c) => fmt::Display::fmt(&c, f),
            None => fmt::Display::fmt(&Self::LAYOUT, f),
        }
    }
}
impl<B: StaticSmemBlock, S: StaticIntTuple> fmt::Debug for TileToShape<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
