//! `TiledMMA` and `ThrMMA` over typed layouts, built as CuTe's `mma_atom.hpp` builds them.

use super::atoms::*;
use crate::cute::consts::*;
use crate::cute::divide::{LogicalDivideBy, RepeatUnder, SliceOut, ZippedDivideBy};
use crate::cute::int::*;
use crate::cute::inverse::RightInverseOf;
use crate::cute::layout::LayoutParts;
use crate::cute::layout::*;
use crate::cute::product::{ComposeWith, TiledProductBy};
use crate::cute::tensor::*;
use crate::cute::tuple::Underscore;
use crate::cute::tuple::*;

// ---------------------------------------------------------------------------------------------
// Permutations and atom layouts
// ---------------------------------------------------------------------------------------------

/// One mode of a TiledMMA's `PermutationMNK`: `_` (none: the tile is the atom's extent times
/// the atoms in that mode, `Dflt`), a static integer or a static layout.
pub trait PermMode<Dflt> {
    /// The tiler of the mode (`permutation_mnk<I>()`).
    type Tile: Copy + Default;
    /// `tile_size_mnk<I>()`: the mode's extent.
    type Size: StaticInt;
}
impl<Dflt: StaticInt> PermMode<Dflt> for Underscore {
    type Tile = Dflt;
    type Size = Dflt;
}
impl<T: typenum::Integer + 'static, Dflt> PermMode<Dflt> for C<T>
where
    C<T>: StaticInt,
{
    type Tile = C<T>;
    type Size = C<T>;
}
impl<S: Product + Default, D: Copy + Default, Dflt> PermMode<Dflt> for Layout<S, D>
where
    S::Output: StaticInt,
{
    type Tile = Layout<S, D>;
    type Size = S::Output;
}

/// A TiledMMA's `PermutationMNK`: `_` (none) or a tuple of three [`PermMode`]s.
pub trait PermMnk<D0, D1, D2>: Copy + Default {
    /// Tiler of M.
    type T0: Copy + Default;
    /// Tiler of N.
    type T1: Copy + Default;
    /// Tiler of K.
    type T2: Copy + Default;
    /// `tile_size<0>`.
    type S0: StaticInt;
    /// `tile_size<1>`.
    type S1: StaticInt;
    /// `tile_size<2>`.
    type S2: StaticInt;
}
impl<D0: StaticInt, D1: StaticInt, D2: StaticInt> PermMnk<D0, D1, D2> for Underscore {
    type T0 = D0;
    type T1 = D1;
    type T2 = D2;
    type S0 = D0;
    type S1 = D1;
    type S2 = D2;
}
impl<X0, X1, X2, D0, D1, D2> PermMnk<D0, D1, D2> for (X0, X1, X2)
where
    X0: PermMode<D0> + Copy + Default,
    X1: PermMode<D1> + Copy + Default,
    X2: PermMode<D2> + Copy + Default,
{
    type T0 = X0::Tile;
    type T1 = X1::Tile;
    type T2 = X2::Tile;
    type S0 = X0::Size;
    type S1 = X1::Size;
    type S2 = X2::Size;
}

/// `Tile<PermM>`: the other modes `_` (CuTe pads a shorter permutation with `_`).
impl<X0, D0, D1: StaticInt, D2: StaticInt> PermMnk<D0, D1, D2> for (X0,)
where
    X0: PermMode<D0> + Copy + Default,
{
    type T0 = X0::Tile;
    type T1 = D1;
    type T2 = D2;
    type S0 = X0::Size;
    type S1 = D1;
    type S2 = D2;
}
/// `Tile<PermM, PermN>`: K `_`.
impl<X0, X1, D0, D1, D2: StaticInt> PermMnk<D0, D1, D2> for (X0, X1)
where
    X0: PermMode<D0> + Copy + Default,
    X1: PermMode<D1> + Copy + Default,
{
    type T0 = X0::Tile;
    type T1 = X1::Tile;
    type T2 = D2;
    type S0 = X0::Size;
    type S1 = X1::Size;
    type S2 = D2;
}

/// A TiledMMA's `AtomLayoutMNK`: a static rank-3 layout `(M, N, K)` of atoms.
#[diagnostic::on_unimplemented(
    message = "TiledMMA requires a static rank-3 AtomLayoutMNK, got `{Self}`",
    label = "give a layout such as `layout!((_2, _2, _1):(_1, _2, _4))`"
)]
pub trait AtomLayoutMnk: Copy + Default {
    /// Atoms along M.
    type M: StaticInt;
    /// Atoms along N.
    type N: StaticInt;
    /// Atoms along K.
    type K: StaticInt;
}
impl<M: StaticInt, N: StaticInt, K: StaticInt, DM: StaticInt, DN: StaticInt, DK: StaticInt>
    AtomLayoutMnk for Layout<(M, N, K), (DM, DN, DK)>
{
    type M = M;
    type N = N;
    type K = K;
}

// ---------------------------------------------------------------------------------------------
// TiledMma
// ---------------------------------------------------------------------------------------------

/// CuTe's `TiledMMA<MMA_Atom<Atom>, AtomLayoutMNK, PermutationMNK>`: the atom repeated over an
/// `(M, N, K)` layout of atoms (threads), with an optional permutation of each mode. Zero-sized.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct TiledMma<A, AL, P = Underscore> {
    /// The atom.
    pub atom: A,
    /// `AtomLayoutMNK`.
    pub atom_layout: AL,
    /// `PermutationMNK` (`_`: none).
    pub permutation: P,
}

/// `make_tiled_mma(atom, atom_layout)`: no permutation (CuTe's `Tile<X,X,X>`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::mma::*;
/// let mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN::new(), layout!((_2, _4, _1):(_1, _2, _0)));
/// assert_eq!(mma.tile_shape().to_string_cute(), "(_32,_32,_8)");
/// assert_eq!(core::mem::size_of_val(&mma), 0);
/// ```
#[inline(always)]
pub fn make_tiled_mma<A: MmaAtom, AL: AtomLayoutMnk>(atom: A, atom_layout: AL) -> TiledMma<A, AL> {
    TiledMma {
        atom,
        atom_layout,
        permutation: Underscore,
    }
}

/// `make_tiled_mma(atom, atom_layout, permutation)`: `permutation` is `(M, N, K)` (or a prefix,
/// `(M,)` or `(M, N)`, the rest `_`), each mode `Underscore` (none), a static integer (a larger
/// tile) or a static layout (a permutation of the mode).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::mma::*;
/// let perm = (_32, layout!((_8, _2, _2):(_1, _16, _8)), _16);
/// let mma = make_tiled_mma_permuted(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)), perm);
/// assert_eq!(mma.tile_shape().to_string_cute(), "(_32,_32,_16)");
/// let wide = make_tiled_mma_permuted(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)), (Underscore, _64));
/// assert_eq!(wide.tile_shape().to_string_cute(), "(_32,_64,_16)");
/// ```
#[inline(always)]
pub fn make_tiled_mma_permuted<A: MmaAtom, AL: AtomLayoutMnk, P>(
    atom: A,
    atom_layout: AL,
    permutation: P,
) -> TiledMma<A, AL, P>
where
    TiledMma<A, AL, P>: TiledMmaT,
{
    TiledMma {
        atom,
        atom_layout,
        permutation,
    }
}

/// A TiledMMA's static parts, as types (implemented by every valid [`TiledMma`]).
pub trait TiledMmaT: Copy + Default {
    /// The atom.
    type Atom: MmaAtom;
    /// `tile_size<0>`.
    type TileM: StaticInt;
    /// `tile_size<1>`.
    type TileN: StaticInt;
    /// `tile_size<2>`.
    type TileK: StaticInt;
    /// `permutation_mnk<0>()`.
    type PermM: Copy + Default;
    /// `permutation_mnk<1>()`.
    type PermN: Copy + Default;
    /// `permutation_mnk<2>()`.
    type PermK: Copy + Default;
    /// Atoms (thread groups) along M: `size<1>(thr_layout_vmnk)`.
    type ThrM: StaticInt;
    /// `size<2>(thr_layout_vmnk)`.
    type ThrN: StaticInt;
    /// `size<3>(thr_layout_vmnk)`.
    type ThrK: StaticInt;
    /// `ThrLayoutVMNK = tiled_product(AtomThrID, AtomLayoutMNK)`.
    type ThrLayoutVmnk: Copy + Default;
}

impl<A, AL, P> TiledMmaT for TiledMma<A, AL, P>
where
    A: MmaAtom,
    AL: AtomLayoutMnk,
    A::M: IntMul<AL::M>,
    A::N: IntMul<AL::N>,
    A::K: IntMul<AL::K>,
    P: PermMnk<Prod<A::M, AL::M>, Prod<A::N, AL::N>, Prod<A::K, AL::K>>,
    A::ThrID: TiledProductBy<AL>,
{
    type Atom = A;
    type TileM = P::S0;
    type TileN = P::S1;
    type TileK = P::S2;
    type PermM = P::T0;
    type PermN = P::T1;
    type PermK = P::T2;
    type ThrM = AL::M;
    type ThrN = AL::N;
    type ThrK = AL::K;
    type ThrLayoutVmnk = <A::ThrID as TiledProductBy<AL>>::Output;
}

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

/// Operand A (`M × K`).
#[derive(Clone, Copy, Default, Debug)]
pub struct OperandA;
/// Operand B (`N × K`).
#[derive(Clone, Copy, Default, Debug)]
pub struct OperandB;
/// Operand C (`M × N`).
#[derive(Clone, Copy, Default, Debug)]
pub struct OperandC;

/// What `thrfrg_a/b/c` take from the TiledMMA for one operand.
pub trait MmaOperand<T: TiledMmaT> {
    /// `make_tile(permutation_mnk<i0>(), permutation_mnk<i1>())`.
    type Perm: Copy + Default;
    /// `make_tile(make_layout(size<i0>(AtomShape_MNK)), make_layout(size<i1>(AtomShape_MNK)))`.
    type AtomTile: Copy + Default;
    /// The atom's TV layout of the operand (`ALayout`, `BLayout`, `CLayout`).
    type AtomTv: Copy + Default;
    /// `make_tile(_, make_tile(make_layout(size<i0+1>(vmnk)), make_layout(size<i1+1>(vmnk))))`.
    type ThrTile: Copy + Default;
    /// Tile extent of the operand's first mode.
    type Tile0: StaticInt;
    /// Tile extent of the operand's second mode.
    type Tile1: StaticInt;
    /// The value type (`ValTypeA`/`B`/`C`).
    type Val: Copy + Default;
    /// Threads along the operand's first mode.
    type Thr0: StaticInt;
    /// Threads along the operand's second mode.
    type Thr1: StaticInt;
    /// The operand's name, for messages.
    const NAME: &'static str;
    /// `(i0, i1)`: the operand's modes of `(M, N, K)`.
    const MODES: (usize, usize);
}
type At<T> = <T as TiledMmaT>::Atom;
impl<T: TiledMmaT> MmaOperand<T> for OperandA {
    type Perm = (T::PermM, T::PermK);
    type AtomTile = (
        Layout<<At<T> as MmaAtom>::M, _1>,
        Layout<<At<T> as MmaAtom>::K, _1>,
    );
    type AtomTv = <At<T> as MmaAtom>::ALayout;
    type ThrTile = (Underscore, (Layout<T::ThrM, _1>, Layout<T::ThrK, _1>));
    type Tile0 = T::TileM;
    type Tile1 = T::TileK;
    type Val = <At<T> as MmaAtom>::ValTypeA;
    type Thr0 = T::ThrM;
    type Thr1 = T::ThrK;
    const NAME: &'static str = "A";
    const MODES: (usize, usize) = (0, 2);
}
impl<T: TiledMmaT> MmaOperand<T> for OperandB {
    type Perm = (T::PermN, T::PermK);
    type AtomTile = (
        Layout<<At<T> as MmaAtom>::N, _1>,
        Layout<<At<T> as MmaAtom>::K, _1>,
    );
    type AtomTv = <At<T> as MmaAtom>::BLayout;
    type ThrTile = (Underscore, (Layout<T::ThrN, _1>, Layout<T::ThrK, _1>));
    type Tile0 = T::TileN;
    type Tile1 = T::TileK;
    type Val = <At<T> as MmaAtom>::ValTypeB;
    type Thr0 = T::ThrN;
    type Thr1 = T::ThrK;
    const NAME: &'static str = "B";
    const MODES: (usize, usize) = (1, 2);
}
impl<T: TiledMmaT> MmaOperand<T> for OperandC {
    type Perm = (T::PermM, T::PermN);
    type AtomTile = (
        Layout<<At<T> as MmaAtom>::M, _1>,
        Layout<<At<T> as MmaAtom>::N, _1>,
    );
    type AtomTv = <At<T> as MmaAtom>::CLayout;
    type ThrTile = (Underscore, (Layout<T::ThrM, _1>, Layout<T::ThrN, _1>));
    type Tile0 = T::TileM;
    type Tile1 = T::TileN;
    type Val = <At<T> as MmaAtom>::ValTypeC;
    type Thr0 = T::ThrM;
    type Thr1 = T::ThrN;
    const NAME: &'static str = "C";
    const MODES: (usize, usize) = (0, 1);
}

/// `layout.compose(b, _)`: mode 0 of a rank-2 layout composed with `b`, mode 1 kept.
pub trait ComposeMode0<B> {
    /// The result.
    type Output: Copy;
    /// The result.
    fn compose_mode0(self, b: B) -> Self::Output;
}
impl<S0, S1: Copy, D0, D1: Copy, B> ComposeMode0<B> for Layout<(S0, S1), (D0, D1)>
where
    Layout<S0, D0>: ComposeWith<B>,
    <Layout<S0, D0> as ComposeWith<B>>::Output: LayoutParts,
    <<Layout<S0, D0> as ComposeWith<B>>::Output as LayoutParts>::S: Copy,
    <<Layout<S0, D0> as ComposeWith<B>>::Output as LayoutParts>::D: Copy,
{
    type Output = Layout<
        (
            <<Layout<S0, D0> as ComposeWith<B>>::Output as LayoutParts>::S,
            S1,
        ),
        (
            <<Layout<S0, D0> as ComposeWith<B>>::Output as LayoutParts>::D,
            D1,
        ),
    >;
    #[inline(always)]
    fn compose_mode0(self, b: B) -> Self::Output {
        let m0 = Layout {
            shape: self.shape.0,
            stride: self.stride.0,
        };
        let (s, d) = m0.compose_with(b).parts();
        Layout {
            shape: (s, self.shape.1),
            stride: (d, self.stride.1),
        }
    }
}

type Ld<L, Op, T> = <L as LogicalDivideBy<<Op as MmaOperand<T>>::Perm>>::Output;
type Zd<L, Op, T> = <Ld<L, Op, T> as ZippedDivideBy<<Op as MmaOperand<T>>::AtomTile>>::Output;
type Tv<L, Op, T> = <Zd<L, Op, T> as ComposeMode0<<Op as MmaOperand<T>>::AtomTv>>::Output;

/// CuTe's `thrfrg_A` / `thrfrg_B` / `thrfrg_C` as a trait (`Op` is [`OperandA`], [`OperandB`]
/// or [`OperandC`]): a layout over `(M, K, ...)` (`(N, K, ...)`, `(M, N, ...)`) becomes
/// `((ThrV, (ThrM, ThrK)), (FrgV, (RestM, RestK, ...)))`.
pub trait Thrfrg<Op, L> {
    /// The tiled layout.
    type Output: Copy;
    /// The tiled layout.
    fn thrfrg(l: L) -> Self::Output;
}
impl<T: TiledMmaT, Op: MmaOperand<T>, L> Thrfrg<Op, L> for T
where
    L: LogicalDivideBy<Op::Perm>,
    Ld<L, Op, T>: ZippedDivideBy<Op::AtomTile>,
    Zd<L, Op, T>: ComposeMode0<Op::AtomTv>,
    Tv<L, Op, T>: ZippedDivideBy<Op::ThrTile>,
{
    type Output = <Tv<L, Op, T> as ZippedDivideBy<Op::ThrTile>>::Output;
    #[inline(always)]
    fn thrfrg(l: L) -> Self::Output {
        // Reorder the tensor for the TiledAtom: (PermM, PermN)
        let t = l.logical_divide_by(Op::Perm::default());
        // Tile the tensor for the Atom: ((AtomM, AtomN), (RestM, RestN))
        let c = t.zipped_divide_by(Op::AtomTile::default());
        // Transform the Atom mode from (M, N) to (Thr, Val): ((ThrV, FrgV), (RestM, RestN))
        let tv = c.compose_mode0(Op::AtomTv::default());
        // Tile the tensor for the threads: ((ThrV, (ThrM, ThrN)), (FrgV, (RestM, RestN)))
        tv.zipped_divide_by(Op::ThrTile::default())
    }
}

/// `thr_layout_vmnk.get_flat_coord(i)` as a trait.
pub trait FlatCoordOf<I> {
    /// The coordinate `(v, m, n, k)`.
    type Output: Copy;
    /// The coordinate.
    fn flat_coord_of(&self, i: I) -> Self::Output;
}
impl<S: IntTuple, D: IntTuple, I> FlatCoordOf<I> for Layout<S, D>
where
    I: HierCoord<S, D>,
    I::Output: FlatCoord<S>,
{
    type Output = <I::Output as FlatCoord<S>>::Output;
    #[inline(always)]
    fn flat_coord_of(&self, i: I) -> Self::Output {
        self.get_flat_coord(i)
    }
}

impl<A: MmaAtom, AL: AtomLayoutMnk, P> TiledMma<A, AL, P>
where
    Self: TiledMmaT,
{
    /// `tile_shape(mma)`: `(tile_size<0>, tile_size<1>, tile_size<2>)`, static.
    ///
    /// ```
    /// use device::wgmma::{MajorK, MajorMN};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let wg = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS::<MajorK, MajorMN>::new(), layout!((_2, _1, _1):(_1, _0, _0)));
    /// assert_eq!(wg.tile_shape().to_string_cute(), "(_128,_128,_16)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn tile_shape(
        &self,
    ) -> (
        <Self as TiledMmaT>::TileM,
        <Self as TiledMmaT>::TileN,
        <Self as TiledMmaT>::TileK,
    ) {
        Default::default()
    }
    /// `tile_size<I>(mma)`: the extent of mode `I` (0: M, 1: N, 2: K) of the TiledMMA's tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// assert_eq!(mma.tile_size::<1>(), 16);
    /// ```
    #[inline(always)]
    pub fn tile_size<const I: usize>(&self) -> i64 {
        match I {
            0 => <<Self as TiledMmaT>::TileM as StaticInt>::VALUE,
            1 => <<Self as TiledMmaT>::TileN as StaticInt>::VALUE,
            _ => <<Self as TiledMmaT>::TileK as StaticInt>::VALUE,
        }
    }
    /// `thr_layout_vmnk`: `(thread in atom, atom m, atom n, atom k) → thread index`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// assert_eq!(mma.thr_layout_vmnk().to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_128)");
    /// ```
    #[inline(always)]
    pub fn thr_layout_vmnk(&self) -> <Self as TiledMmaT>::ThrLayoutVmnk {
        Default::default()
    }
    /// `size(mma)`: the number of threads.
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let wg = make_tiled_mma(SM90_64x64x16_F32F16F16_RS::<MajorK, MajorK>::new(), layout!((_2, _1, _1):(_1, _0, _0)));
    /// assert_eq!(wg.size(), 256);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> i64 {
        <<A::ThrID as LayoutSize>::Size as StaticInt>::VALUE
            * <<Self as TiledMmaT>::ThrM as StaticInt>::VALUE
            * <<Self as TiledMmaT>::ThrN as StaticInt>::VALUE
            * <<Self as TiledMmaT>::ThrK as StaticInt>::VALUE
    }

    /// CuTe's `thrfrg_A(layout)`: `(M, K, ...)` → `((ThrV, (ThrM, ThrK)), (FrgV, (RestM, RestK, ...)))`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let f = mma.thrfrg_a(layout!((_64, _32):(_32, _1)));
    /// assert_eq!(f.shape().to_string_cute(), "(((_4,_8),(_2,_1)),((_2,_2,_2),(_2,_2)))");
    /// ```
    #[inline(always)]
    pub fn thrfrg_a<L>(&self, l: L) -> <Self as Thrfrg<OperandA, L>>::Output
    where
        Self: Thrfrg<OperandA, L>,
    {
        <Self as Thrfrg<OperandA, L>>::thrfrg(l)
    }
    /// CuTe's `thrfrg_B(layout)` (see [`TiledMma::thrfrg_a`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let f = mma.thrfrg_b(layout!((_64, _32):(_1, _64)));
    /// assert_eq!(f.shape().to_string_cute(), "(((_4,_8),(_2,_1)),((_2,_2),(_4,_2)))");
    /// ```
    #[inline(always)]
    pub fn thrfrg_b<L>(&self, l: L) -> <Self as Thrfrg<OperandB, L>>::Output
    where
        Self: Thrfrg<OperandB, L>,
    {
        <Self as Thrfrg<OperandB, L>>::thrfrg(l)
    }
    /// CuTe's `thrfrg_C(layout)`: `(M, N, ...)` → `((ThrV, (ThrM, ThrN)), (FrgV, (RestM, RestN, ...)))`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let f = mma.thrfrg_c(layout!((_64, _32):(_1, _64)));
    /// assert_eq!(f.to_string(),
    ///            "(((_4,_8),(_2,_2)),((_2,_2),(_2,_2))):(((_128,_1),(_16,_512)),((_64,_8),(_32,_1024)))");
    /// ```
    #[inline(always)]
    pub fn thrfrg_c<L>(&self, l: L) -> <Self as Thrfrg<OperandC, L>>::Output
    where
        Self: Thrfrg<OperandC, L>,
    {
        <Self as Thrfrg<OperandC, L>>::thrfrg(l)
    }

    /// `get_slice(thr_idx)` / `get_thread_slice`: thread `thr_idx`'s view ([`ThrMma`]), holding
    /// its coordinate `thr_layout_vmnk.get_flat_coord(thr_idx)` (shifts and masks of the index).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// assert_eq!(mma.get_slice(77i32).thr_vmnk.to_string_cute(), "(13,0,1,_0)");
    /// ```
    #[inline(always)]
    pub fn get_slice<I>(
        &self,
        thr_idx: I,
    ) -> ThrMma<Self, <<Self as TiledMmaT>::ThrLayoutVmnk as FlatCoordOf<I>>::Output>
    where
        <Self as TiledMmaT>::ThrLayoutVmnk: FlatCoordOf<I>,
    {
        ThrMma {
            mma: *self,
            thr_vmnk: self.thr_layout_vmnk().flat_coord_of(thr_idx),
        }
    }

    /// `partition_fragment_C(tensor)` for the whole TiledMMA (the fragment is the same for every
    /// thread): a register fragment of `ValTypeC` with the (static) shape of a thread's
    /// `partition_c(tensor)`, compact column-major. A TiledMMA tile that does not divide the
    /// tensor's extents fails to compile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let c = make_tensor(Counting(0i32), layout!((_64, _64):(_1, _64)));
    /// let f = mma.partition_fragment_c(&c);
    /// assert_eq!(f.layout.to_string(), "((_2,_2),_2,_4):((_1,_2),_4,_8)");
    /// assert_eq!(f.len(), 32);
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn partition_fragment_c<E, L>(
        &self,
        t: &Tensor<E, L>,
    ) -> Fragment<
        <OperandC as MmaOperand<Self>>::Val,
        Layout<
            <Self as PartitionShape<OperandC, L>>::Shape,
            <<Self as PartitionShape<OperandC, L>>::Shape as CompactLeft<_1>>::Stride,
        >,
    >
    where
        Self: PartitionShape<OperandC, L>,
        <Self as PartitionShape<OperandC, L>>::Shape: CompactLeft<_1> + Copy,
        Layout<
            <Self as PartitionShape<OperandC, L>>::Shape,
            <<Self as PartitionShape<OperandC, L>>::Shape as CompactLeft<_1>>::Stride,
        >: FragmentLayout,
        L: Copy,
    {
        let _ = t;
        Fragment::new(make_layout_left(
            <Self as PartitionShape<OperandC, L>>::shape(),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// ThrMma and the partitions
// ---------------------------------------------------------------------------------------------

/// One thread's view of a TiledMMA (CuTe's `ThrMMA`): the TiledMMA and the thread's coordinate
/// `(v, m, n, k)` in `thr_layout_vmnk`.
#[derive(Clone, Copy, Debug)]
pub struct ThrMma<T, Crd> {
    /// The TiledMMA.
    pub mma: T,
    /// `thr_layout_vmnk.get_flat_coord(thr_idx)`.
    pub thr_vmnk: Crd,
}

/// The thread part of the slice coordinate of an operand: `(v, (m, k))` for A, `(v, (n, k))`
/// for B, `(v, (m, n))` for C.
pub trait ThrCoord<Crd> {
    /// The coordinate.
    type Output: Copy;
    /// The coordinate.
    fn thr_coord(c: Crd) -> Self::Output;
}
impl<V: Copy, M: Copy, N: Copy, K: Copy> ThrCoord<(V, M, N, K)> for OperandA {
    type Output = (V, (M, K));
    #[inline(always)]
    fn thr_coord(c: (V, M, N, K)) -> Self::Output {
        (c.0, (c.1, c.3))
    }
}
impl<V: Copy, M: Copy, N: Copy, K: Copy> ThrCoord<(V, M, N, K)> for OperandB {
    type Output = (V, (N, K));
    #[inline(always)]
    fn thr_coord(c: (V, M, N, K)) -> Self::Output {
        (c.0, (c.2, c.3))
    }
}
impl<V: Copy, M: Copy, N: Copy, K: Copy> ThrCoord<(V, M, N, K)> for OperandC {
    type Output = (V, (M, N));
    #[inline(always)]
    fn thr_coord(c: (V, M, N, K)) -> Self::Output {
        (c.0, (c.1, c.2))
    }
}

/// `make_coord(_, repeat<rank<1,1>(thr_tensor)>(_))`: the value part of the slice coordinate
/// of a `thrfrg` layout.
pub trait ValCoord {
    /// The coordinate.
    type Output: Copy + Default;
}
impl<TS, FS, RS: Tuple, TD, FD, RD> ValCoord for Layout<(TS, (FS, RS)), (TD, (FD, RD))>
where
    RS::H: RepeatUnder,
    <RS::H as RepeatUnder>::Output: Default,
{
    type Output = (Underscore, <RS::H as RepeatUnder>::Output);
}

/// `partition_A/B/C` on layouts: the thread's `(FrgV, RestM, RestK, ...)` layout and offset.
pub trait PartitionLayout<Op, L, Crd> {
    /// The partitioned layout.
    type Layout: Copy;
    /// The thread's offset.
    type Off: Copy;
    /// Layout and offset.
    fn partition_layout(crd: Crd, l: L) -> (Self::Layout, Self::Off);
}
type Frg<T, Op, L> = <T as Thrfrg<Op, L>>::Output;
type PCoord<T, Op, L, Crd> = (
    <Op as ThrCoord<Crd>>::Output,
    <Frg<T, Op, L> as ValCoord>::Output,
);
impl<T, Op, L, Crd> PartitionLayout<Op, L, Crd> for T
where
    T: Thrfrg<Op, L> + TiledMmaT,
    Op: ThrCoord<Crd> + MmaOperand<T>,
    L: ModeExtents,
    Frg<T, Op, L>: ValCoord + SliceOut<PCoord<T, Op, L, Crd>>,
{
    type Layout = <Frg<T, Op, L> as SliceOut<PCoord<T, Op, L, Crd>>>::L;
    type Off = <Frg<T, Op, L> as SliceOut<PCoord<T, Op, L, Crd>>>::Off;
    #[inline(always)]
    fn partition_layout(crd: Crd, l: L) -> (Self::Layout, Self::Off) {
        const {
            check_divides(
                Op::MODES,
                <Op::Tile0 as StaticInt>::VALUE,
                <Op::Tile1 as StaticInt>::VALUE,
                L::EXTENTS,
            )
        };
        let f = <T as Thrfrg<Op, L>>::thrfrg(l);
        let c = (
            <Op as ThrCoord<Crd>>::thr_coord(crd),
            <Frg<T, Op, L> as ValCoord>::Output::default(),
        );
        f.slice_out(c)
    }
}

/// The static extents of a tensor's first two modes (`None` for a dynamic one), for the
/// divisibility check of the partitions.
pub trait ModeExtents {
    /// `(size<0>, size<1>)` where static.
    const EXTENTS: (Option<i64>, Option<i64>);
}
impl<S: Get<0> + Get<1>, D> ModeExtents for Layout<S, D>
where
    <S as Get<0>>::Output: Product,
    <S as Get<1>>::Output: Product,
{
    const EXTENTS: (Option<i64>, Option<i64>) = (
        static_of::<<<S as Get<0>>::Output as Product>::Output>(),
        static_of::<<<S as Get<1>>::Output as Product>::Output>(),
    );
}
const fn static_of<I: Integral>() -> Option<i64> {
    if I::IS_STATIC {
        Some(I::STATIC_VALUE)
    } else {
        None
    }
}

/// The divisibility a partition needs (CuTe does not check it: a non-dividing tile reads past
/// the tensor): the TiledMMA's tile extent must divide each static extent of the tensor's two
/// modes. Fails (at compile time, in a constant) with the values.
///
/// ```
/// use layout_types::cute::atom::mma::check_divides;
/// check_divides((0, 1), 32, 16, (Some(128), None)); // ok: 32 divides 128, N is dynamic
/// ```
pub const fn check_divides(
    modes: (usize, usize),
    t0: i64,
    t1: i64,
    ext: (Option<i64>, Option<i64>),
) {
    const MSG: [&str; 3] = [
        "TiledMMA: the TiledMMA tile's M extent {} does not divide the tensor's M extent {}",
        "TiledMMA: the TiledMMA tile's N extent {} does not divide the tensor's N extent {}",
        "TiledMMA: the TiledMMA tile's K extent {} does not divide the tensor's K extent {}",
    ];
    if let Some(e) = ext.0
        && e % t0 != 0
    {
        crate::Error::with2(MSG[modes.0], t0, e).panic()
    }
    if let Some(e) = ext.1
        && e % t1 != 0
    {
        crate::Error::with2(MSG[modes.1], t1, e).panic()
    }
}

/// `partition_shape_A/B/C(mma, shape)`: the (static) shape of a thread's partition of a tensor
/// laid out by `L`, the same for every thread.
pub trait PartitionShape<Op, L> {
    /// The shape.
    type Shape: Copy;
    /// The shape.
    fn shape() -> Self::Shape;
}
impl<T: TiledMmaT, Op, L> PartitionShape<Op, L> for T
where
    L: Copy + Default,
    T: PartitionLayout<Op, L, (_0, _0, _0, _0)>,
    <T as PartitionLayout<Op, L, (_0, _0, _0, _0)>>::Layout: LayoutParts,
    <<T as PartitionLayout<Op, L, (_0, _0, _0, _0)>>::Layout as LayoutParts>::S: Copy,
{
    type Shape = <<T as PartitionLayout<Op, L, (_0, _0, _0, _0)>>::Layout as LayoutParts>::S;
    #[inline(always)]
    fn shape() -> Self::Shape {
        <T as PartitionLayout<Op, L, (_0, _0, _0, _0)>>::partition_layout(
            (_0, _0, _0, _0),
            L::default(),
        )
        .0
        .parts()
        .0
    }
}

/// The tensor type of `partition_a/b/c`.
pub type Partitioned<T, Op, E, L, Crd> = Tensor<
    <E as Advance<<T as PartitionLayout<Op, L, Crd>>::Off>>::Output,
    <T as PartitionLayout<Op, L, Crd>>::Layout,
>;

impl<T: TiledMmaT, Crd: Copy> ThrMma<T, Crd> {
    /// The partition of `t` for operand `Op` at this thread, the tensor's engine advanced to it.
    #[inline(always)]
    fn partition_operand<Op, E, L>(&self, t: &Tensor<E, L>) -> Partitioned<T, Op, E, L, Crd>
    where
        T: PartitionLayout<Op, L, Crd>,
        E: Advance<<T as PartitionLayout<Op, L, Crd>>::Off>,
        L: Copy,
    {
        let (layout, off) = T::partition_layout(self.thr_vmnk, t.layout);
        Tensor {
            engine: t.engine.advance(off),
            layout,
        }
    }
    /// `thr_mma.partition_A(tensor)`: this thread's `(MMA, MMA_M, MMA_K, ...)` part of an
    /// `(M, K, ...)` tensor.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1))); // row-major M x K
    /// let p = mma.get_slice(5i32).partition_a(&s_a);
    /// assert_eq!(p.layout.to_string(), "((_2,_2,_2),_2,_2):((_1,_256,_8),_1024,_16)");
    /// assert_eq!(p.engine.0, 32 + 2); // thread 5: row 1, column 2
    /// ```
    #[inline(always)]
    pub fn partition_a<E, L>(&self, t: &Tensor<E, L>) -> Partitioned<T, OperandA, E, L, Crd>
    where
        T: PartitionLayout<OperandA, L, Crd>,
        E: Advance<<T as PartitionLayout<OperandA, L, Crd>>::Off>,
        L: Copy,
    {
        self.partition_operand::<OperandA, E, L>(t)
    }
    /// `thr_mma.partition_B(tensor)`: this thread's `(MMA, MMA_N, MMA_K, ...)` part of an
    /// `(N, K, ...)` tensor.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let p = mma.get_slice(0i32).partition_b(&make_tensor(Counting(0i32), layout!((_64, _32):(_1, _64))));
    /// assert_eq!(p.layout.shape().to_string_cute(), "((_2,_2),_4,_2)");
    /// ```
    #[inline(always)]
    pub fn partition_b<E, L>(&self, t: &Tensor<E, L>) -> Partitioned<T, OperandB, E, L, Crd>
    where
        T: PartitionLayout<OperandB, L, Crd>,
        E: Advance<<T as PartitionLayout<OperandB, L, Crd>>::Off>,
        L: Copy,
    {
        self.partition_operand::<OperandB, E, L>(t)
    }
    /// `thr_mma.partition_C(tensor)`: this thread's `(MMA, MMA_M, MMA_N, ...)` part of an
    /// `(M, N, ...)` tensor; the tensor's strides (static or run time) are kept.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let c = make_tensor(Counting(0i32), layout!((_64, _64):(_64, _1))); // row-major
    /// let p = mma.get_slice(37i32).partition_c(&c);       // atom (1, 0), lane 5
    /// assert_eq!(p.layout.to_string(), "((_2,_2),_2,_4):((_1,_512),_2048,_16)");
    /// assert_eq!(p.engine.0, 17 * 64 + 2);                // row 17, column 2
    /// ```
    #[inline(always)]
    pub fn partition_c<E, L>(&self, t: &Tensor<E, L>) -> Partitioned<T, OperandC, E, L, Crd>
    where
        T: PartitionLayout<OperandC, L, Crd>,
        E: Advance<<T as PartitionLayout<OperandC, L, Crd>>::Off>,
        L: Copy,
    {
        self.partition_operand::<OperandC, E, L>(t)
    }
    /// `thr_mma.partition_fragment_C(tensor)`: the thread's accumulators for `partition_c(tensor)`
    /// (a register fragment of `ValTypeC`, compact column-major, static size).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let acc = mma.get_slice(3i32).partition_fragment_c(&make_tensor(Counting(0i32), layout!((_128, _128):(_1, _128))));
    /// assert_eq!(acc.layout.to_string(), "((_2,_2),_4,_8):((_1,_2),_4,_16)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn partition_fragment_c<E, L>(
        &self,
        t: &Tensor<E, L>,
    ) -> Fragment<
        <OperandC as MmaOperand<T>>::Val,
        Layout<
            <T as PartitionShape<OperandC, L>>::Shape,
            <<T as PartitionShape<OperandC, L>>::Shape as CompactLeft<_1>>::Stride,
        >,
    >
    where
        T: PartitionShape<OperandC, L>,
        <T as PartitionShape<OperandC, L>>::Shape: CompactLeft<_1> + Copy,
        Layout<
            <T as PartitionShape<OperandC, L>>::Shape,
            <<T as PartitionShape<OperandC, L>>::Shape as CompactLeft<_1>>::Stride,
        >: FragmentLayout,
        L: Copy,
    {
        let _ = t;
        Fragment::new(make_layout_left(<T as PartitionShape<OperandC, L>>::shape()))
    }
}

// ---------------------------------------------------------------------------------------------
// The TV layouts of the whole TiledMMA
// ---------------------------------------------------------------------------------------------

use crate::cute::coalesce::{BwCoalesce, FlatPairs};
use crate::cute::complement::{
    ComplementDefault, ComplementImpl, CosizePairs, FilterZerosH, Filtered, complement_default,
};

/// `complement(layout)` as a trait.
pub trait ComplementDefaultOf {
    /// The complement.
    type Output: Copy;
    /// The complement.
    fn complement_default_of(self) -> Self::Output;
}
impl<S, D> ComplementDefaultOf for Layout<S, D>
where
    S: IntTuple + FlatPairs<D>,
    D: IntTuple,
    <S as FlatPairs<D>>::Output: FilterZerosH,
    <<S as FlatPairs<D>>::Output as FilterZerosH>::Output: BwCoalesce,
    Filtered<S, D>: CosizePairs + ComplementImpl<Sum<<Filtered<S, D> as CosizePairs>::Span, _1>>,
    <Filtered<S, D> as CosizePairs>::Span: IntAdd<_1>,
    Sum<<Filtered<S, D> as CosizePairs>::Span, _1>: Integral,
    ComplementDefault<S, D>: Copy,
{
    type Output = ComplementDefault<S, D>;
    #[inline(always)]
    fn complement_default_of(self) -> Self::Output {
        complement_default(self)
    }
}

/// CuTe's `thridx_2_thrid`: `thr_idx → (ThrV, ThrM, ThrN, ThrK)`,
/// `composition((size(vmnk), _1):(_1, _0), right_inverse(make_layout(vmnk, complement(vmnk))))`.
pub trait Thridx2Thrid {
    /// The layout.
    type Output: Copy;
    /// The layout.
    fn thridx_2_thrid(self) -> Self::Output;
}
impl<S: Product, D> Thridx2Thrid for Layout<S, D>
where
    Layout<S, D>: ComplementDefaultOf + Copy,
    <Layout<S, D> as ComplementDefaultOf>::Output: LayoutParts,
    Layout<
        (
            S,
            <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::S,
        ),
        (
            D,
            <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::D,
        ),
    >: RightInverseOf,
    Layout<(S::Output, _1), (_1, _0)>: ComposeWith<
        <Layout<
            (
                S,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::S,
            ),
            (
                D,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::D,
            ),
        > as RightInverseOf>::Output,
    >,
    <Layout<(S::Output, _1), (_1, _0)> as ComposeWith<
        <Layout<
            (
                S,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::S,
            ),
            (
                D,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::D,
            ),
        > as RightInverseOf>::Output,
    >>::Output: Copy,
    S::Output: Default,
{
    type Output = <Layout<(S::Output, _1), (_1, _0)> as ComposeWith<
        <Layout<
            (
                S,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::S,
            ),
            (
                D,
                <<Layout<S, D> as ComplementDefaultOf>::Output as LayoutParts>::D,
            ),
        > as RightInverseOf>::Output,
    >>::Output;
    #[inline(always)]
    fn thridx_2_thrid(self) -> Self::Output {
        let (cs, cd) = self.complement_default_of().parts();
        let both = Layout {
            shape: (self.shape, cs),
            stride: (self.stride, cd),
        };
        let outer: Layout<(S::Output, _1), (_1, _0)> = Layout {
            shape: (S::Output::default(), C::new()),
            stride: (C::new(), C::new()),
        };
        outer.compose_with(both.right_inverse_of())
    }
}

/// The `atile` step of `get_layoutA_TV` / `get_layoutB_TV`: `(ThrV, (ThrM, ThrK))` becomes
/// `(ThrV, (ThrM, ThrN, ThrK))` by composing the `ThrM` (`ThrN`) mode with
/// `(size<1>(vmnk), size<2>(vmnk)):(_1, _0)` (`(_0, _1)` for B). Identity for C.
pub trait AtileOf<T: TiledMmaT>: MmaOperand<T> {
    /// The broadcast layout (`()` for C).
    type Bcast: Copy + Default;
    /// Applies it.
    #[inline(always)]
    fn atile<F: AtileApply<Self::Bcast>>(f: F) -> F::Output {
        f.atile_apply(Self::Bcast::default())
    }
}
/// Applies the `atile` composition of [`AtileOf`] to a `thrfrg` layout.
pub trait AtileApply<B> {
    /// The result.
    type Output: Copy;
    /// The result.
    fn atile_apply(self, b: B) -> Self::Output;
}
impl<F: Copy> AtileApply<()> for F {
    type Output = F;
    #[inline(always)]
    fn atile_apply(self, _: ()) -> F {
        self
    }
}
impl<V: Copy, M, K: Copy, R: Copy, DV: Copy, DM, DK: Copy, DR: Copy, SB, DB>
    AtileApply<Layout<SB, DB>> for Layout<((V, (M, K)), R), ((DV, (DM, DK)), DR)>
where
    Layout<M, DM>: ComposeWith<Layout<SB, DB>>,
    <Layout<M, DM> as ComposeWith<Layout<SB, DB>>>::Output: LayoutParts,
    <<Layout<M, DM> as ComposeWith<Layout<SB, DB>>>::Output as LayoutParts>::S: Copy,
    <<Layout<M, DM> as ComposeWith<Layout<SB, DB>>>::Output as LayoutParts>::D: Copy,
{
    type Output = Layout<
        (
            (
                V,
                (
                    <<Layout<M, DM> as ComposeWith<Layout<SB, DB>>>::Output as LayoutParts>::S,
                    K,
                ),
            ),
            R,
        ),
        (
            (
                DV,
                (
                    <<Layout<M, DM> as ComposeWith<Layout<SB, DB>>>::Output as LayoutParts>::D,
                    DK,
                ),
            ),
            DR,
        ),
    >;
    #[inline(always)]
    fn atile_apply(self, b: Layout<SB, DB>) -> Self::Output {
        let ((v, (m, k)), r) = self.shape;
        let ((dv, (dm, dk)), dr) = self.stride;
        let (s, d) = Layout {
            shape: m,
            stride: dm,
        }
        .compose_with(b)
        .parts();
        Layout {
            shape: ((v, (s, k)), r),
            stride: ((dv, (d, dk)), dr),
        }
    }
}
impl<T: TiledMmaT> AtileOf<T> for OperandA {
    type Bcast = Layout<(T::ThrM, T::ThrN), (_1, _0)>;
}
impl<T: TiledMmaT> AtileOf<T> for OperandB {
    type Bcast = Layout<(T::ThrM, T::ThrN), (_0, _1)>;
}
impl<T: TiledMmaT> AtileOf<T> for OperandC {
    type Bcast = ();
}

/// The reference layout of an operand's tile: `make_layout((tile_i0, tile_i1))`.
pub type RefLayout<T, Op> = Layout<
    (<Op as MmaOperand<T>>::Tile0, <Op as MmaOperand<T>>::Tile1),
    (_1, <Op as MmaOperand<T>>::Tile0),
>;
type Atiled<T, Op> =
    <Frg<T, Op, RefLayout<T, Op>> as AtileApply<<Op as AtileOf<T>>::Bcast>>::Output;
type Thridx<T> = <<T as TiledMmaT>::ThrLayoutVmnk as Thridx2Thrid>::Output;

/// CuTe's `get_layoutA_TV` / `B` / `C` as a trait: `(thread index, value) → index` in the
/// column-major `(tile_M, tile_K)` (`(tile_N, tile_K)`, `(tile_M, tile_N)`) tile.
pub trait LayoutTv<Op> {
    /// The TV layout.
    type Output: Copy;
    /// The TV layout.
    fn layout_tv() -> Self::Output;
}
impl<T: TiledMmaT, Op: AtileOf<T>> LayoutTv<Op> for T
where
    RefLayout<T, Op>: Default,
    T: Thrfrg<Op, RefLayout<T, Op>>,
    Frg<T, Op, RefLayout<T, Op>>: AtileApply<Op::Bcast>,
    T::ThrLayoutVmnk: Thridx2Thrid,
    Atiled<T, Op>: ComposeMode0<Thridx<T>>,
{
    type Output = <Atiled<T, Op> as ComposeMode0<Thridx<T>>>::Output;
    #[inline(always)]
    fn layout_tv() -> Self::Output {
        let f = <T as Thrfrg<Op, RefLayout<T, Op>>>::thrfrg(RefLayout::<T, Op>::default());
        let f = f.atile_apply(Op::Bcast::default());
        f.compose_mode0(T::ThrLayoutVmnk::default().thridx_2_thrid())
    }
}

impl<A: MmaAtom, AL: AtomLayoutMnk, P> TiledMma<A, AL, P>
where
    Self: TiledMmaT,
{
    /// `get_layoutA_TV()`: `(thread index, value) → index` in the column-major
    /// `(tile_M, tile_K)` tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    /// assert_eq!(mma.layout_a_tv().to_string(),
    ///            "((_4,_8),((_2,_2,_2),(_1,_1))):((_32,_1),((_16,_8,_128),(_0,_0)))");
    /// ```
    #[inline(always)]
    pub fn layout_a_tv(&self) -> <Self as LayoutTv<OperandA>>::Output
    where
        Self: LayoutTv<OperandA>,
    {
        <Self as LayoutTv<OperandA>>::layout_tv()
    }
    /// `get_layoutB_TV()` (see [`TiledMma::layout_a_tv`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let b = mma.layout_b_tv();
    /// assert_eq!(b.shape().to_string_cute(), "((_4,_8,_2,_2),(_2,(_1,_1)))");
    /// assert_eq!(b.call(32i32 * 2), 8);   // thread 64 (atom n = 1), value 0: B(8, 0)
    /// ```
    #[inline(always)]
    pub fn layout_b_tv(&self) -> <Self as LayoutTv<OperandB>>::Output
    where
        Self: LayoutTv<OperandB>,
    {
        <Self as LayoutTv<OperandB>>::layout_tv()
    }
    /// `get_layoutC_TV()`: `(thread index, value) → index` in the column-major
    /// `(tile_M, tile_N)` tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// assert_eq!(mma.layout_c_tv().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
    /// ```
    #[inline(always)]
    pub fn layout_c_tv(&self) -> <Self as LayoutTv<OperandC>>::Output
    where
        Self: LayoutTv<OperandC>,
    {
        <Self as LayoutTv<OperandC>>::layout_tv()
    }
}

// ---------------------------------------------------------------------------------------------
// partition_fragment_a / partition_fragment_b
// ---------------------------------------------------------------------------------------------

use super::super::gmma::{GmmaDescSource, make_gmma_desc_tensor};
use crate::cute::swizzle::Swizzled;
use device::wgmma::GmmaMajor;

/// The fragment kind of an operand: `FrgTypeA` for A, `FrgTypeB` for B.
pub trait OperandFrg<T: TiledMmaT> {
    /// [`Registers`] or [`SmemDesc`].
    type Frg: FrgKind;
}
impl<T: TiledMmaT> OperandFrg<T> for OperandA {
    type Frg = <At<T> as MmaAtom>::FrgTypeA;
}
impl<T: TiledMmaT> OperandFrg<T> for OperandB {
    type Frg = <At<T> as MmaAtom>::FrgTypeB;
}

/// CuTe's `make_fragment_A/B(partition)` by the atom's fragment kind (`K` is [`Registers`] or
/// [`SmemDesc`]): what `partition_fragment_a/b` makes of a thread's partition of `Src`.
pub trait MakeFragment<T, Op, Src, Crd> {
    /// The fragment.
    type Output;
    /// The fragment of thread `crd`'s partition of `src`.
    fn make_fragment(crd: Crd, src: &Src) -> Self::Output;
}

/// A GMMA shared-memory operand: the thread's partition of the swizzled shared-memory tensor
/// (`(MMA tile, MMA_M, MMA_K, ...)`), as the tensor of `wgmma` descriptors
/// ([`make_gmma_desc_tensor`]).
impl<T, Op, M, E, Sw, L, O, Crd> MakeFragment<T, Op, Tensor<Smem<E>, Swizzled<Sw, L, O>>, Crd>
    for SmemDesc<M>
where
    M: GmmaMajor,
    T: PartitionLayout<Op, L, Crd>,
    L: Copy,
    Sw: Copy,
    O: Copy,
    Smem<E>: Advance<<T as PartitionLayout<Op, L, Crd>>::Off, Output = Smem<E>>,
    Tensor<Smem<E>, Swizzled<Sw, <T as PartitionLayout<Op, L, Crd>>::Layout, O>>: GmmaDescSource<M>,
{
    type Output = <Tensor<Smem<E>, Swizzled<Sw, <T as PartitionLayout<Op, L, Crd>>::Layout, O>> as GmmaDescSource<M>>::Output;
    #[inline(always)]
    fn make_fragment(crd: Crd, src: &Tensor<Smem<E>, Swizzled<Sw, L, O>>) -> Self::Output {
        let (layout, off) = T::partition_layout(crd, src.layout.layout);
        let part = Tensor {
            engine: src.engine.advance(off),
            layout: Swizzled {
                sw: src.layout.sw,
                layout,
                offset: src.layout.offset,
            },
        };
        make_gmma_desc_tensor(M::default(), part)
    }
}

impl<T: TiledMmaT, Crd: Copy> ThrMma<T, Crd> {
    /// `thr_mma.partition_fragment_A(tensor)`: the A operand as the atom takes it. For a GMMA
    /// `_SS` atom, the tensor of `wgmma` descriptors of this thread's partition of the swizzled
    /// shared-memory tensor (CuTe's `GMMA::smem_desc<Major>`: one descriptor per
    /// `(MMA_M, MMA_K, ...)` tile; the tile must be a canonical GMMA layout, checked at compile
    /// time by `make_gmma_desc`).
    ///
    /// ```
    /// use device::wgmma::MajorK;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM90_64x64x16_F32BF16BF16_SS::<MajorK, MajorK>::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    /// let s = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft);
    /// let mut buf = [0u16; 64 * 64];
    /// let s_a = make_tensor(make_smem_ptr(buf.as_mut_ptr()), s);
    /// let d = mma.get_slice(3i32).partition_fragment_a(&s_a);   // (_1, MMA_M, MMA_K)
    /// assert_eq!(d.layout.to_string(), "(_1,_1,_4):(_0,_0,_2)");
    /// ```
    ///
    /// For a register operand (SM80 `mma.sync`, a GMMA `_RS` A), CuTe's
    /// `make_fragment_like<ValTypeA>(partition_a(tensor))`: mode 0 column-major, the other modes
    /// compact in the order of the partition's strides, a static size:
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));
    /// let f = mma.get_slice(0i32).partition_fragment_a(&s_a);
    /// assert_eq!(f.layout.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)");
    /// assert_eq!(f.len(), 32);
    /// ```
    #[inline(always)]
    pub fn partition_fragment_a<Src>(
        &self,
        t: &Src,
    ) -> <<OperandA as OperandFrg<T>>::Frg as MakeFragment<T, OperandA, Src, Crd>>::Output
    where
        OperandA: OperandFrg<T>,
        <OperandA as OperandFrg<T>>::Frg: MakeFragment<T, OperandA, Src, Crd>,
    {
        <<OperandA as OperandFrg<T>>::Frg as MakeFragment<T, OperandA, Src, Crd>>::make_fragment(
            self.thr_vmnk,
            t,
        )
    }
    /// `thr_mma.partition_fragment_B(tensor)` (see [`ThrMma::partition_fragment_a`]).
    ///
    /// ```
    /// use device::wgmma::{MajorK, MajorMN};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS::<MajorK, MajorMN>::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    /// // B (N, K, PIPE) MN-major: N contiguous
    /// let s = tile_to_shape(Layout_MN_SW128_Atom::<u16>::new(), (_128, _64, _2), LayoutLeft);
    /// let mut buf = [0u16; 128 * 64 * 2];
    /// let s_b = make_tensor(make_smem_ptr(buf.as_mut_ptr()), s);
    /// let d = mma.get_slice(0i32).partition_fragment_b(&s_b);   // (_1, MMA_N, MMA_K, PIPE)
    /// assert_eq!(d.layout.shape().to_string_cute(), "(_1,_1,_4,(_1,_2))"); // the stages as tile_to_shape made them
    /// ```
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s_b = make_tensor(Counting(0i32), layout!((_64, _32):(_1, _64)));
    /// let f = mma.get_slice(0i32).partition_fragment_b(&s_b);
    /// assert_eq!(f.layout.shape().to_string_cute(), "((_2,_2),_4,_2)");
    /// assert_eq!(f.len(), 32);
    /// ```
    #[inline(always)]
    pub fn partition_fragment_b<Src>(
        &self,
        t: &Src,
    ) -> <<OperandB as OperandFrg<T>>::Frg as MakeFragment<T, OperandB, Src, Crd>>::Output
    where
        OperandB: OperandFrg<T>,
        <OperandB as OperandFrg<T>>::Frg: MakeFragment<T, OperandB, Src, Crd>,
    {
        <<OperandB as OperandFrg<T>>::Frg as MakeFragment<T, OperandB, Src, Crd>>::make_fragment(
            self.thr_vmnk,
            t,
        )
    }
}

/// The layout a register fragment of a tensor is shaped by (what `partition_fragment_a/b` of a
/// register operand partitions): the tensor's layout, or for a swizzled shared-memory tile
/// ([`Swizzled`], e.g. `tile_to_shape` of a GMMA atom or CuTe's SM80
/// `composition(Swizzle<3,3,3>, layout)`) its layout without the swizzle, as CuTe's
/// `partition_fragment_A(sA)` takes only the partition's shape.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::atom::mma::*;
/// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
/// let mut buf = vec![half_t(0); 64 * 64];
/// let s_a = make_tensor(make_smem_ptr(buf.as_mut_ptr()), tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft));
/// let f = mma.get_slice(0i32).partition_fragment_a(&s_a);  // the registers ldmatrix fills
/// assert_eq!(f.layout.to_string(), "((_2,_2,_2),_2,_4):((_1,_2,_4),_32,_8)");
/// ```
pub trait FragmentShapeOf: Copy {
    /// The layout without a swizzle.
    type Layout: Copy;
}
impl<S: Copy, D: Copy> FragmentShapeOf for Layout<S, D> {
    type Layout = Self;
}
impl<Sw: Copy, L: Copy, O: Copy> FragmentShapeOf for Swizzled<Sw, L, O> {
    type Layout = L;
}
/// [`FragmentShapeOf::Layout`].
type FragShape<L> = <L as FragmentShapeOf>::Layout;

/// A register operand (SM80 `mma.sync` A and B, a GMMA `_RS` A): CuTe's
/// `make_fragment_like<ValType>(partition)` (see [`super::fragment`]), a fragment of static size,
/// of a plain or a swizzled tensor ([`FragmentShapeOf`]).
impl<T, Op, E, L, Crd> MakeFragment<T, Op, Tensor<E, L>, Crd> for Registers
where
    L: FragmentShapeOf,
    T: PartitionShape<Op, FragShape<L>> + PartitionLayout<Op, FragShape<L>, (_0, _0, _0, _0)>,
    Op: MmaOperand<T>,
    T: TiledMmaT,
    <T as PartitionLayout<Op, FragShape<L>, (_0, _0, _0, _0)>>::Layout:
        super::fragment::FragmentLike,
    <<T as PartitionLayout<Op, FragShape<L>, (_0, _0, _0, _0)>>::Layout as super::fragment::FragmentLike>::Output:
        FragmentLayout,
{
    type Output = Fragment<
        <Op as MmaOperand<T>>::Val,
        <<T as PartitionLayout<Op, FragShape<L>, (_0, _0, _0, _0)>>::Layout as super::fragment::FragmentLike>::Output,
    >;
    #[inline(always)]
    fn make_fragment(_: Crd, _: &Tensor<E, L>) -> Self::Output {
        Fragment::new(Default::default())
    }
}
