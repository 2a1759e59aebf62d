//! The device side of CuTe's TMA atoms (`cute/atom/copy_traits_sm90_tma.hpp`): a [`TmaAtom`]
//! is the address of a tensor map (encoded on the host by `host::Context::make_tma_copy` from
//! the same shared-memory layout), the instruction ([`TmaLoad`], [`TmaLoadMulticast`],
//! [`TmaStore`]), the element type and the static shared-memory box layout, from which the
//! transaction bytes of a load are a constant ([`TmaAtom::TX_BYTES`], CuTe's
//! `tma_transaction_bytes`).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use device::tma::TmaDescriptor;
//! use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};
//! type Box = Layout<(_32, _128), (_128, _1)>;          // (TILE_M, TILE_N), n contiguous
//! let d = TmaDescriptor::default();
//! let atom = TmaAtom::<TmaLoad, f32, Box>::new(&d);
//! assert_eq!(TmaAtom::<TmaLoad, f32, Box>::TX_BYTES, 32 * 128 * 4);
//! let _ = atom;
//! ```

use core::marker::PhantomData;

use crate::cute::arith::ATup;
use crate::cute::consts::_0;
use crate::cute::int::Integral;
use crate::cute::layout::Layout;
use crate::cute::layout::StaticLayoutValue;
use crate::cute::swizzle::{SwizzleOffset, Swizzled};
use crate::cute::tensor::{Counting, IdentityStrides, Tensor, make_identity_tensor};
use crate::cute::tuple::{HCons, HNil, IntTuple};
use crate::value::swizzle::StaticSwizzle;
use device::mbarrier::SmemBarrier;
use device::tma::{TmaDescriptor, tma_load, tma_load_multicast, tma_store};

/// CuTe's `SM90_TMA_LOAD`: global → shared, completing bytes on an mbarrier.
#[derive(Clone, Copy, Debug, Default)]
pub struct TmaLoad;
/// CuTe's `SM90_TMA_LOAD_MULTICAST`: one CTA's slice of the box, written to every CTA of a mask.
#[derive(Clone, Copy, Debug, Default)]
pub struct TmaLoadMulticast;
/// CuTe's `SM90_TMA_STORE`: shared → global, in bulk groups.
#[derive(Clone, Copy, Debug, Default)]
pub struct TmaStore;

/// The shared-memory layout of one TMA box, CuTe's `ComposedLayout<Swizzle, _0, Layout>` that
/// `make_tma_copy` takes: the swizzle TMA applies (in element units) composed with the compact
/// box layout, in the kernel's coordinate order. A kernel names each box once as a
/// [`Swizzled`] type; its [`TmaAtom`] takes the box's [`Layout`](TmaBox::Layout)
/// ([`BoxLayout`]) and the host encodes the tensor map from the same type's text
/// (`B::default().to_string()`, CuTe's print, which the value algebra parses), so the two sides
/// cannot disagree about a box.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaBox, TmaLoad};
/// use layout_types::value::swizzle::Swizzle;
/// // 64 (K, contiguous) × 128 rows of 16-bit elements, 128-byte swizzle
/// type KBox = Swizzled<Swizzle<3, 3, 3>, Layout<(_64, _128), (_1, _64)>>;
/// assert_eq!(KBox::default().to_string(), "Sw<3,3,3> o _0 o (_64,_128):(_1,_64)");
/// assert_eq!(TmaAtom::<TmaLoad, u16, BoxLayout<KBox>>::TX_BYTES, 64 * 128 * 2);
/// assert_eq!(<KBox as TmaBox>::SIZE, 64 * 128);
/// ```
pub trait TmaBox: Copy + Default + core::fmt::Display {
    /// The box's layout without its swizzle: the `L` of the box's [`TmaAtom`]s.
    type Layout: StaticLayoutValue;
    /// Elements of the box (`size(Layout)`).
    const SIZE: i64 = <Self::Layout as StaticLayoutValue>::SIZE;
}

impl<Sw, S, D, O> TmaBox for Swizzled<Sw, Layout<S, D>, O>
where
    Sw: StaticSwizzle + core::fmt::Display,
    S: IntTuple,
    D: IntTuple,
    O: SwizzleOffset,
    Layout<S, D>: StaticLayoutValue,
{
    type Layout = Layout<S, D>;
}

/// The layout of the box `B` (its [`TmaBox::Layout`]): the `L` of a [`TmaAtom`] moving `B`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::tma::BoxLayout;
/// use layout_types::value::swizzle::Swizzle;
/// type B = Swizzled<Swizzle<0, 4, 3>, Layout<_4, _1>>;
/// let l: BoxLayout<B> = Layout::<_4, _1>::default();
/// assert_eq!(l.to_string(), "_4:_1");
/// ```
pub type BoxLayout<B> = <B as TmaBox>::Layout;

/// A TMA copy atom on the device: `Op` on the tensor map at `desc`, moving boxes of `T` laid out
/// in shared memory as the static layout `L` (compact: the box TMA writes).
pub struct TmaAtom<Op, T, L> {
    desc: *const TmaDescriptor,
    _p: PhantomData<(Op, T, L)>,
}

impl<Op, T, L> Clone for TmaAtom<Op, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Op, T, L> Copy for TmaAtom<Op, T, L> {}

impl<Op, T, L: StaticLayoutValue> TmaAtom<Op, T, L> {
    /// Bytes of one box in shared memory: `size(L) * sizeof(T)`, checked at compile time to be
    /// a compact layout (`cosize == size`) of fewer than 2^20 bytes (an mbarrier phase's
    /// transaction count).
    pub const TX_BYTES: u32 = {
        let (size, cosize) = (L::LAYOUT.size().v, L::LAYOUT.cosize().v);
        if size != cosize {
            crate::Error::with2(
                "TmaAtom: the smem box layout must be compact, as TMA writes it (size, cosize)",
                size,
                cosize,
            )
            .panic()
        }
        let bytes = size * core::mem::size_of::<T>() as i64;
        if bytes >= 1 << 20 {
            crate::Error::with2(
                "TmaAtom: a box of (bytes) exceeds the mbarrier transaction count (limit)",
                bytes,
                1 << 20,
            )
            .panic()
        }
        bytes as u32
    };

    /// The atom on the tensor map at `desc` (a kernel parameter's address from
    /// `device::grid_constant!`, or a map in global memory).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaStore};
    /// let d = device::tma::TmaDescriptor::default();
    /// let _s = TmaAtom::<TmaStore, u16, Layout<(_8, _64), (_64, _1)>>::new(&d);
    /// ```
    #[inline(always)]
    pub fn new(desc: *const TmaDescriptor) -> Self {
        let _ = Self::TX_BYTES;
        TmaAtom {
            desc,
            _p: PhantomData,
        }
    }
    /// The tensor map's address.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};
    /// let d = device::tma::TmaDescriptor::default();
    /// let a = TmaAtom::<TmaLoad, u8, Layout<_16, _1>>::new(&d);
    /// assert_eq!(a.desc(), &raw const d);
    /// ```
    #[inline(always)]
    pub fn desc(&self) -> *const TmaDescriptor {
        self.desc
    }
}

impl<Op, T, L> TmaAtom<Op, T, L> {
    /// CuTe's `get_tma_tensor(shape)`: the tensor of TMA coordinates over the global tensor's
    /// shape (an identity tensor, in TMA dimension order). Tile and slice it exactly like the
    /// data (`local_tile(box, tile)`) to find the coordinates a CTA loads or stores; its element
    /// at a tile's origin, through [`TmaCoord::tma_coord`], is the instruction's operand.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaCoord, TmaLoad};
    /// let d = device::tma::TmaDescriptor::default();
    /// let atom = TmaAtom::<TmaLoad, f32, Layout<(_128, _32), (_1, _128)>>::new(&d);
    /// let g = atom.get_tma_tensor((1000i32, 300i32)); // (C,S)
    /// let tile = g.local_tile((_128, _32), (2i32, 3i32)); // the box at tile (2,3)
    /// assert_eq!(tile.at((_0, _0)).0.tma_coord(), [256, 96]);
    /// ```
    #[inline(always)]
    pub fn get_tma_tensor<S: IdentityStrides>(
        &self,
        shape: S,
    ) -> Tensor<Counting<_0>, Layout<S, S::D>>
    where
        S::D: Default,
    {
        make_identity_tensor(shape)
    }
}

/// A coordinate of a TMA coordinate tensor ([`TmaAtom::get_tma_tensor`]) as the instruction's
/// operand: `R` 32-bit coordinates, innermost first.
pub trait TmaCoord<const R: usize> {
    /// The coordinates.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::TmaCoord;
    /// let c = make_identity_tensor((8i32, 4i32)).at((3i32, 2i32)).0;
    /// assert_eq!(c.tma_coord(), [3, 2]);
    /// ```
    fn tma_coord(self) -> [i32; R];
}

macro_rules! tma_coord {
    ($r:literal: $($a:ident)+) => {
        impl<$($a: Integral),+> TmaCoord<$r> for ATup<tma_coord!(@list $($a)+)> {
            #[inline(always)]
            #[allow(non_snake_case)]
            fn tma_coord(self) -> [i32; $r] {
                let tma_coord!(@pat $($a)+) = self.0;
                [$($a.value() as i32),+]
            }
        }
    };
    (@list $a:ident $($r:ident)*) => { HCons<$a, tma_coord!(@list $($r)*)> };
    (@list) => { HNil };
    (@pat $a:ident $($r:ident)*) => { HCons($a, tma_coord!(@pat $($r)*)) };
    (@pat) => { HNil };
}
tma_coord!(1: A);
tma_coord!(2: A B);
tma_coord!(3: A B C2);
tma_coord!(4: A B C2 D);
tma_coord!(5: A B C2 D E);

impl<T, L: StaticLayoutValue> TmaAtom<TmaLoad, T, L> {
    /// Loads the box at TMA coordinates `crd` (elements, dimension 0 the contiguous one) into
    /// `smem`, completing [`Self::TX_BYTES`] on `bar` (a pipeline stage's full barrier).
    ///
    /// # Safety
    /// As [`tma_load`]: `smem` is 128-byte aligned shared memory of the box, `bar` an
    /// initialized mbarrier expecting the bytes.
    ///
    /// ```no_run
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};
    /// # let (d, bar, smem) = (device::tma::TmaDescriptor::default(), core::ptr::null_mut::<u64>(), core::ptr::null_mut());
    /// let a = TmaAtom::<TmaLoad, f32, Layout<(_32, _128), (_128, _1)>>::new(&d);
    /// unsafe { a.copy(bar, smem, [128, 32]) }; // on the GPU: the tile at (m, n) = (32, 128)
    /// ```
    #[inline(always)]
    pub unsafe fn copy<const R: usize>(
        &self,
        bar: impl Into<SmemBarrier>,
        smem: *mut T,
        crd: [i32; R],
    ) {
        unsafe { tma_load(self.desc, bar, smem as *mut u8, crd) }
    }
}

impl<T, L: StaticLayoutValue> TmaAtom<TmaLoadMulticast, T, L> {
    /// Loads this CTA's slice of the box at `crd` and writes it into every CTA of the cluster
    /// in `mask`, completing its bytes on each one's `bar`.
    ///
    /// # Safety
    /// As [`tma_load_multicast`].
    ///
    /// ```no_run
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaLoadMulticast};
    /// # let (d, bar, smem) = (device::tma::TmaDescriptor::default(), core::ptr::null_mut::<u64>(), core::ptr::null_mut());
    /// let a = TmaAtom::<TmaLoadMulticast, u16, Layout<(_64, _64), (_64, _1)>>::new(&d);
    /// unsafe { a.copy(bar, smem, 0b11, [0, 32]) };
    /// ```
    #[inline(always)]
    pub unsafe fn copy<const R: usize>(
        &self,
        bar: impl Into<SmemBarrier>,
        smem: *mut T,
        mask: u16,
        crd: [i32; R],
    ) {
        unsafe { tma_load_multicast(self.desc, bar, smem as *mut u8, mask, crd) }
    }
}

impl<T, L: StaticLayoutValue> TmaAtom<TmaStore, T, L> {
    /// Stores the box in `smem` to the tensor at `crd` (out-of-bounds elements dropped).
    ///
    /// # Safety
    /// As [`tma_store`].
    ///
    /// ```no_run
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::tma::{TmaAtom, TmaStore};
    /// # let (d, smem) = (device::tma::TmaDescriptor::default(), core::ptr::null());
    /// let a = TmaAtom::<TmaStore, f32, Layout<(_32, _128), (_128, _1)>>::new(&d);
    /// unsafe { a.copy(smem, [128, 32]) };
    /// ```
    #[inline(always)]
    pub unsafe fn copy<const R: usize>(&self, smem: *const T, crd: [i32; R]) {
        unsafe { tma_store(self.desc, smem as *const u8, crd) }
    }
}
