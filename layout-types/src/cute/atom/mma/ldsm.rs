//! `ldmatrix` copy atoms and the TiledCopy over a TiledMMA's operand (CuTe's
//! `atom/copy_traits_sm75.hpp` and `make_tiled_copy_A` / `_B` / `_C` of `atom/copy_atom.hpp`).
//!
//! The six atoms are zero-sized types with CuTe's names; on `nvptx64` their `call` issues the
//! instruction (`device::mma`, compiled for `nvptx64` only). [`make_tiled_copy_a`] (`_b`, `_c`)
//! tiles one over a typed [`TiledMma`](super::TiledMma): the TiledMMA's operand TV layout and
//! `(tile_size<0>, tile_size<2>)` tiler (A; B: `<1>, <2>`; C: `<0>, <1>`) with the atom's source
//! and destination layouts recast to the operand's element type. The result is zero-sized; its
//! `get_layoutS_TV` / `get_layoutD_TV` and tiler are constants computed by the value algebra
//! ([`crate::value::mma::make_tiled_copy_tv`]) from the typed TV layout, so a kernel pays nothing for
//! them, and an atom that does not fit the operand (a 16-bit transposing atom on 32-bit
//! elements, too few values) fails to compile with CuTe's condition.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::atom::mma::*;
//! use layout_types::value::layout::DynLayout;
//! let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
//! let s2r_a = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
//! assert_eq!(core::mem::size_of_val(&s2r_a), 0);
//! assert_eq!(s2r_a.tiler().to_string(), "(_32,_16)");
//! // thread t reads 8 contiguous halves (one 16-byte row) of the 32 x 16 tile of A ...
//! assert_eq!(s2r_a.layout_s_tv().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
//! // ... and receives the MMA's A fragment: the same (thread, value) -> index function
//! let (d, a): (DynLayout, DynLayout) = (s2r_a.layout_d_tv(), mma.layout_a_tv().to_string().parse().unwrap());
//! assert_eq!(d.size(), a.size());
//! assert!((0..d.size().v).all(|i| d.call(i) == a.call(i)));
//! ```

use super::MmaAtom;
use super::tiled::{LayoutTv, OperandA, OperandB, OperandC, TiledMmaT};
use crate::cute::int::StaticInt;
use crate::cute::layout::StaticLayoutValue;
use crate::value::mma::{LdsmOp, MmaTiledCopy, Operand, make_tiled_copy_tv};
use crate::{value::int_tuple::IntTuple, value::layout::DynLayout};
use core::marker::PhantomData;

/// An `ldmatrix` copy atom (CuTe's `Copy_Traits<SM75_*_LDSM_*>`): 32 threads, each giving one
/// 16-byte row of shared memory and receiving [`LdsmAtom::REGS`] 32-bit registers.
pub trait LdsmAtom: Copy + Default + 'static {
    /// The operation in the value algebra (its `SrcLayout` / `DstLayout` in bits).
    const OP: LdsmOp;
    /// 32-bit registers each thread receives.
    const REGS: usize;
    /// The registers each thread receives (`[u32; REGS]`).
    type Regs: Copy + Default + AsRef<[u32]>;
    /// Issues the `ldmatrix`: `row_addr` is this lane's 32-bit `.shared` address of its row.
    ///
    /// # Safety
    /// All 32 lanes of the warp execute it; `row_addr` is a valid, 16-byte aligned `.shared`
    /// address of 16 readable bytes.
    #[cfg(target_arch = "nvptx64")]
    unsafe fn call(row_addr: u32) -> Self::Regs;
}

macro_rules! ldsm_atoms {
    ($($(#[$m:meta])* $name:ident, $n:literal, $f:ident;)*) => {$(
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug)]
        pub struct $name;
        impl $name {
            /// The atom.
            ///
            /// ```
            /// use layout_types::cute::atom::mma::*;
            #[doc = concat!("let a = ", stringify!($name), "::new();")]
            /// assert_eq!(core::mem::size_of_val(&a), 0);
            /// // a thread receives REGS registers: the value algebra's DstLayout maps
            /// // (32 threads, 32 * REGS bits)
            #[doc = concat!("let (_, dst) = <", stringify!($name), " as LdsmAtom>::OP.bit_layouts();")]
            #[doc = concat!("assert_eq!(dst.size().v, 32 * 32 * <", stringify!($name), " as LdsmAtom>::REGS as i64);")]
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name
            }
        }
        impl LdsmAtom for $name {
            const OP: LdsmOp = LdsmOp::$name;
            const REGS: usize = $n;
            type Regs = [u32; $n];
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn call(row_addr: u32) -> [u32; $n] {
                unsafe { device::mma::$f(row_addr) }
            }
        }
    )*};
}
ldsm_atoms! {
    /// `SM75_U32x1_LDSM_N`: `ldmatrix.x1`, one 8×8 matrix of 16-bit elements, one register.
    SM75_U32x1_LDSM_N, 1, ldmatrix_x1;
    /// `SM75_U32x2_LDSM_N`: `ldmatrix.x2`, two matrices, two registers.
    SM75_U32x2_LDSM_N, 2, ldmatrix_x2;
    /// `SM75_U32x4_LDSM_N`: `ldmatrix.x4`, four matrices, four registers.
    SM75_U32x4_LDSM_N, 4, ldmatrix_x4;
    /// `SM75_U16x2_LDSM_T`: `ldmatrix.x1.trans`, one matrix transposed (16-bit elements only).
    SM75_U16x2_LDSM_T, 1, ldmatrix_x1_trans;
    /// `SM75_U16x4_LDSM_T`: `ldmatrix.x2.trans`, two matrices transposed.
    SM75_U16x4_LDSM_T, 2, ldmatrix_x2_trans;
    /// `SM75_U16x8_LDSM_T`: `ldmatrix.x4.trans`, four matrices transposed.
    SM75_U16x8_LDSM_T, 4, ldmatrix_x4_trans;
}

/// A TiledMMA operand a TiledCopy can load ([`OperandA`], [`OperandB`], [`OperandC`]).
pub trait CopyOperand<T: TiledMmaT>: Copy + Default + 'static {
    /// The operand in the value algebra.
    const WHICH: Operand;
    /// Bits of the operand's element (`ValTypeA` / `B` / `C`).
    const BITS: i64;
    /// The tiler: `(tile_size<i0>, tile_size<i1>)` of the two modes the operand spans.
    const TILER: IntTuple;
    /// The TiledMMA's TV layout of the operand (`get_layoutA_TV` ...).
    const LAYOUT_TV: DynLayout;
}
const fn atom_value<A: MmaAtom>() -> crate::value::mma::MmaAtom {
    match crate::value::mma::MmaAtom::new(A::OP) {
        Ok(a) => a,
        Err(e) => e.panic(),
    }
}
macro_rules! copy_operand {
    ($($op:ident, $which:ident, $bits:ident, $t0:ident, $t1:ident;)*) => {$(
        impl<T: TiledMmaT + LayoutTv<$op>> CopyOperand<T> for $op
        where
            <T as LayoutTv<$op>>::Output: StaticLayoutValue,
        {
            const WHICH: Operand = Operand::$which;
            const BITS: i64 = atom_value::<T::Atom>().$bits;
            const TILER: IntTuple = IntTuple::pair(
                &IntTuple::st(<T::$t0 as StaticInt>::VALUE),
                &IntTuple::st(<T::$t1 as StaticInt>::VALUE),
            );
            const LAYOUT_TV: DynLayout = <<T as LayoutTv<$op>>::Output as StaticLayoutValue>::LAYOUT;
        }
    )*};
}
copy_operand! {
    OperandA, A, bits_a, TileM, TileK;
    OperandB, B, bits_b, TileN, TileK;
    OperandC, C, bits_c, TileM, TileN;
}

/// A TiledCopy of an `ldmatrix` atom `A` over operand `Op` of the TiledMMA `T` (CuTe's
/// `make_tiled_copy_A(Copy_Atom<A, ValType>{}, tiled_mma)`); zero-sized.
pub struct TiledCopyMma<A, T, Op>(PhantomData<(A, T, Op)>);
impl<A, T, Op> Clone for TiledCopyMma<A, T, Op> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, T, Op> Copy for TiledCopyMma<A, T, Op> {}

impl<A: LdsmAtom, T: TiledMmaT, Op: CopyOperand<T>> TiledCopyMma<A, T, Op> {
    /// The TiledCopy in the value algebra (a constant; an atom that does not fit the operand
    /// fails here, at compile time, with CuTe's condition and the values).
    pub const VALUE: MmaTiledCopy =
        match make_tiled_copy_tv(A::OP, Op::BITS, &Op::LAYOUT_TV, &Op::TILER) {
            Ok(tc) => tc,
            Err(e) => e.panic(),
        };
    const LAYOUT_S_TV: DynLayout = match Self::VALUE.layout_s_tv() {
        Ok(l) => l,
        Err(e) => e.panic(),
    };
    const LAYOUT_D_TV: DynLayout = match Self::VALUE.layout_d_tv() {
        Ok(l) => l,
        Err(e) => e.panic(),
    };
    /// `get_layoutS_TV()`: `(thread, value) → index` of the column-major tile (the tiler's
    /// shape), by the source side of the atom: the 16-byte rows each thread points `ldmatrix` at.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_b(SM75_U16x4_LDSM_T::new(), &mma);
    /// assert_eq!(tc.layout_s_tv().to_string(), "((_16,_4,_2),(_8,_1)):((_16,_0,_8),(_1,_0))");
    /// ```
    #[inline(always)]
    pub fn layout_s_tv(&self) -> DynLayout {
        const { Self::LAYOUT_S_TV }
    }
    /// `get_layoutD_TV()`: by the destination side, the registers each thread receives.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_b(SM75_U16x4_LDSM_T::new(), &mma);
    /// assert_eq!(tc.layout_d_tv().to_string(), "((_4,_8,_2,_2),((_2,_2),_1)):((_32,_1,_0,_8),((_16,_128),_0))");
    /// ```
    #[inline(always)]
    pub fn layout_d_tv(&self) -> DynLayout {
        const { Self::LAYOUT_D_TV }
    }
    /// `Tiler_MN`: the tile the TiledCopy covers, `(tile_size<0>, tile_size<2>)` of the
    /// TiledMMA for A (B: `<1>, <2>`; C: `<0>, <1>`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// assert_eq!(make_tiled_copy_c(SM75_U32x2_LDSM_N::new(), &mma).tiler().to_string(), "(_32,_16)");
    /// ```
    #[inline(always)]
    pub fn tiler(&self) -> IntTuple {
        const { Self::VALUE.tiler }
    }
}

macro_rules! make_fns {
    ($($(#[$m:meta])* $f:ident, $op:ident;)*) => {$(
        $(#[$m])*
        #[inline(always)]
        pub fn $f<A: LdsmAtom, T: TiledMmaT>(_: A, _: &T) -> TiledCopyMma<A, T, $op>
        where
            $op: CopyOperand<T>,
        {
            const { TiledCopyMma::<A, T, $op>::VALUE };
            TiledCopyMma(PhantomData)
        }
    )*};
}
make_fns! {
    /// `make_tiled_copy_A(copy_atom, tiled_mma)`: the `ldmatrix` TiledCopy that loads the
    /// TiledMMA's A fragments from a `(tile_size<0>, tile_size<2>)` tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// assert_eq!(tc.tiler().to_string(), "(_32,_16)");
    /// ```
    make_tiled_copy_a, OperandA;
    /// `make_tiled_copy_B(copy_atom, tiled_mma)`: the TiledCopy for the B fragments of a
    /// `(tile_size<1>, tile_size<2>)` tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_b(SM75_U16x4_LDSM_T::new(), &mma);     // B: 4 values per thread
    /// let (d, b): (layout_types::value::layout::DynLayout, _) = (tc.layout_d_tv(), mma.layout_b_tv().to_string().parse::<layout_types::value::layout::DynLayout>().unwrap());
    /// assert!((0..d.size().v).all(|i| d.call(i) == b.call(i)));
    /// ```
    make_tiled_copy_b, OperandB;
    /// `make_tiled_copy_C(copy_atom, tiled_mma)`: the TiledCopy for the C fragments of a
    /// `(tile_size<0>, tile_size<1>)` tile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_c(SM75_U32x1_LDSM_N::new(), &mma);
    /// assert_eq!(tc.tiler().to_string(), "(_32,_16)");
    /// ```
    make_tiled_copy_c, OperandC;
}

/// The user guide `doc/typed-ldsm.md`, whose examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../../../doc/typed-ldsm.md")]
pub struct TypedLdsmGuide;
