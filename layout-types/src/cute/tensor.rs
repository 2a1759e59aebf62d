//! Tensors: an engine (a global- or shared-memory pointer, a register array, or the counting
//! engine of an identity tensor) plus a typed layout, with CuTe's `make_tensor`, access by
//! coordinate, slicing, `local_tile`, `local_partition`, `outer_partition`,
//! `make_identity_tensor` and `make_fragment_like`.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let mut buf = [0f32; 6 * 10];
//! let (m, n) = (6i32, 10i32);
//! let a = make_tensor(make_gmem_ptr(buf.as_mut_ptr()), layout!((m, n):(_1, m)));
//! let (tile, _) = (a.local_tile((_2, _4), (1i32, 2i32)), ());
//! assert_eq!(tile.layout.to_string(), "(_2,_4):(_1,6)");
//! unsafe { tile.write((1i32, 1i32), 7.0) };               // element (3, 9) of A
//! assert_eq!(buf[3 + 9 * 6], 7.0);
//! ```

use super::consts::{_0, _1};
use super::divide::*;
use super::int::*;
use super::layout::*;
use super::swizzle::{SwizzleIndex, SwizzleOffset, Swizzled, TensorSwizzle};
use super::tuple::*;
use crate::value::swizzle::StaticSwizzle;
use core::fmt;
use generic_array::{ArrayLength, GenericArray};
use typenum::{B0, NInt, PInt, Unsigned, Z0};

/// A tensor's storage: moved by an offset (the layout's index).
pub trait Engine: Copy {}

/// Moves an engine by an offset of type `Off`.
pub trait Advance<Off>: Engine {
    /// The moved engine's type (a pointer stays a pointer; a counting engine's origin changes).
    type Output: Engine;
    /// The engine moved by `off`.
    fn advance(self, off: Off) -> Self::Output;
}

macro_rules! pointer_engine {
    ($($(#[$m:meta])* $name:ident $make:ident;)*) => {$(
        $(#[$m])*
        ///
        /// Offsets of 32-bit (and static) layouts accumulate in a 32-bit index until the access,
        /// as hand-written kernels index with `int` (a tensor addressed through them must have
        /// fewer than 2^31 elements); 64-bit offsets move the pointer.
        #[derive(PartialEq, Eq)]
        pub struct $name<T> {
            /// The base pointer.
            pub base: *mut T,
            /// The accumulated 32-bit offset, in elements.
            pub off: i32,
        }
        impl<T> Clone for $name<T> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "({:p}+{})"), self.base, self.off)
            }
        }
        impl<T> Engine for $name<T> {}
        impl<T, I: Integral> Advance<I> for $name<T> {
            type Output = $name<T>;
            #[inline(always)]
            fn advance(self, off: I) -> Self {
                if I::IS_STATIC && I::STATIC_VALUE == 0 {
                    return self;
                }
                if I::WIDE {
                    $name { base: self.base.wrapping_offset(off.value() as isize), off: self.off }
                } else {
                    $name { base: self.base, off: self.off.wrapping_add(off.value() as i32) }
                }
            }
        }
        impl<T> PtrEngine for $name<T> {
            type Value = T;
            const SPACE: Space = Space::$name;
            #[inline(always)]
            fn ptr(self) -> *mut T {
                self.base.wrapping_offset(self.off as isize)
            }
        }
        #[doc = concat!("CuTe's `", stringify!($make), "(p)`: a [`", stringify!($name), "`] engine at `p`.")]
        ///
        /// ```
        /// use layout_types::cute::tensor::*;
        /// let mut v = [0f32; 4];
        #[doc = concat!("let e = ", stringify!($make), "(v.as_mut_ptr());")]
        /// assert_eq!(e.ptr(), v.as_mut_ptr());
        /// ```
        #[inline(always)]
        pub fn $make<T>(p: *mut T) -> $name<T> {
            $name { base: p, off: 0 }
        }
    )*};
}
pointer_engine! {
    /// A pointer into global memory (CuTe's `make_gmem_ptr`).
    Gmem make_gmem_ptr;
    /// A (generic-address) pointer into shared memory (CuTe's `make_smem_ptr`).
    Smem make_smem_ptr;
    /// A pointer into a thread's registers (a [`Fragment`]'s array).
    Reg make_reg_ptr;
}

/// The memory space of a pointer engine, which picks the copy instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Global memory.
    Gmem,
    /// Shared memory.
    Smem,
    /// Registers.
    Reg,
    /// Shared memory through a 32-bit address in the `.shared` window (what `ld.shared` /
    /// `st.shared` take, CuTe's `cast_smem_ptr_to_uint`), carried in the bits of the engine's
    /// pointer: not a generic pointer, so only an atom that declares
    /// [`CopyAtom::SMEM_ADDR`](super::atom::copy::CopyAtom::SMEM_ADDR) copies to or from it (checked
    /// at compile time by `copy`).
    SmemAddr,
}

/// A pointer engine: gives the element pointer.
pub trait PtrEngine: Engine {
    /// The element type.
    type Value;
    /// The memory space.
    const SPACE: Space;
    /// The pointer.
    fn ptr(self) -> *mut Self::Value;
}

/// The engine of an identity tensor: its "elements" are coordinates (`origin + crd2idx`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counting<O>(pub O);
impl<O: Copy> Engine for Counting<O> {}
impl<O: IntAdd<Off> + Copy, Off> Advance<Off> for Counting<O>
where
    O::Output: Copy,
{
    type Output = Counting<O::Output>;
    #[inline(always)]
    fn advance(self, off: Off) -> Self::Output {
        Counting(self.0.int_add(off))
    }
}

/// A tensor: an engine and a typed layout (CuTe's `Tensor<Engine, Layout>`).
#[derive(Clone, Copy, Debug)]
pub struct Tensor<E, L> {
    /// Where index 0 is.
    pub engine: E,
    /// Coordinates to indices.
    pub layout: L,
}

/// `make_tensor(engine, layout)`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut v = [1u32, 2, 3, 4];
/// let t = make_tensor(make_gmem_ptr(v.as_mut_ptr()), layout!((_2, _2):(_2, _1)));
/// assert_eq!(unsafe { t.read((1i32, 0i32)) }, 3);
/// ```
#[inline(always)]
pub fn make_tensor<E: Engine, L>(engine: E, layout: L) -> Tensor<E, L> {
    Tensor { engine, layout }
}

impl<E: Engine, S: IntTuple, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// `size(tensor)`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let t = make_identity_tensor((_4, 6i32));
    /// assert_eq!(t.size(), 24);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> S::Output
    where
        S: Product,
    {
        self.layout.size()
    }
    /// `shape(tensor)`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(make_identity_tensor((_4, 6i32)).shape().to_string_cute(), "(_4,6)");
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.layout.shape
    }
    /// The engine at a coordinate (`&tensor(coord)`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((_4, _8));
    /// assert_eq!(c.at((2i32, 5i32)).0.to_string_cute(), "(2,5)");
    /// ```
    #[inline(always)]
    pub fn at<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> E::Output
    where
        E: Advance<Cd::Output>,
    {
        self.engine.advance(self.layout.crd2idx(c))
    }
    /// `tensor(coord)` with `_` in some modes: the sub-tensor (CuTe's slicing).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((_4, 6i32));
    /// let col = c.slice((Underscore, 2i32));
    /// assert_eq!(col.layout.to_string(), "(_4):((_1))");
    /// assert_eq!(col.engine.0.to_string_cute(), "(_0,2)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn slice<Cd>(
        &self,
        c: Cd,
    ) -> Tensor<
        <E as Advance<<Layout<S, D> as SliceOut<Cd>>::Off>>::Output,
        <Layout<S, D> as SliceOut<Cd>>::L,
    >
    where
        Layout<S, D>: SliceOut<Cd>,
        E: Advance<<Layout<S, D> as SliceOut<Cd>>::Off>,
    {
        let (l, off) = self.layout.slice_out(c);
        Tensor {
            engine: self.engine.advance(off),
            layout: l,
        }
    }
    /// `local_tile(tensor, tiler, coord)` (see [`local_tile`](crate::cute::partition::local_tile)).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((100i32, 60i32));
    /// let t = c.local_tile((_32, _8), (3i32, 7i32));
    /// assert_eq!(t.engine.0.to_string_cute(), "(96,56)");
    /// assert!(!elem_less(t.at((_4, _0)).0, (100i32, 60i32)));   // row 100: outside
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn local_tile<T, Cd>(
        &self,
        tiler: T,
        coord: Cd,
    ) -> Tensor<
        <E as Advance<<Layout<S, D> as LocalTile<T, Cd>>::Off>>::Output,
        <Layout<S, D> as LocalTile<T, Cd>>::L,
    >
    where
        Layout<S, D>: LocalTile<T, Cd>,
        E: Advance<<Layout<S, D> as LocalTile<T, Cd>>::Off>,
    {
        let (l, off) = self.layout.local_tile(tiler, coord);
        Tensor {
            engine: self.engine.advance(off),
            layout: l,
        }
    }
    /// `local_tile(tensor, tiler, coord, step)`: tiler and coordinate projected by a `Step`
    /// first (see [`local_tile_proj`](crate::cute::partition::local_tile_proj)).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((256i32, 64i32));              // A: (M, K)
    /// let g = c.local_tile_proj((_128, _128, _8), (1i32, 0i32, Underscore), (_1, X, _1));
    /// assert_eq!(g.layout.to_string(), "(_128,_8,8):((_1),(_0,_1),(_0,_8))");
    /// assert_eq!(g.engine.0.to_string_cute(), "(128)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn local_tile_proj<T, Cd, P>(
        &self,
        tiler: T,
        coord: Cd,
        step: P,
    ) -> Tensor<
        <E as Advance<<Layout<S, D> as LocalTile<Diced<P, T>, Diced<P, Cd>>>::Off>>::Output,
        <Layout<S, D> as LocalTile<Diced<P, T>, Diced<P, Cd>>>::L,
    >
    where
        P: Copy + SliceT<T, B0> + SliceT<Cd, B0>,
        Layout<S, D>: LocalTile<Diced<P, T>, Diced<P, Cd>>,
        E: Advance<<Layout<S, D> as LocalTile<Diced<P, T>, Diced<P, Cd>>>::Off>,
    {
        self.local_tile(step.slice_t(tiler), step.slice_t(coord))
    }
    /// `local_partition(tensor, thr_layout, thr_idx)` (see [`local_partition`](crate::cute::partition::local_partition)).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((_32, _8));
    /// let p = c.local_partition(layout!((_8, _4):(_1, _8)), 9u32);
    /// assert_eq!(p.layout.to_string(), "(_4,_2):((_8),(_0,_4))");
    /// assert_eq!(p.engine.0.to_string_cute(), "(1,1)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn local_partition<Thr, I>(
        &self,
        thr: Thr,
        idx: I,
    ) -> Tensor<
        <E as Advance<<Layout<S, D> as LocalPartition<Thr, I>>::Off>>::Output,
        <Layout<S, D> as LocalPartition<Thr, I>>::L,
    >
    where
        Layout<S, D>: LocalPartition<Thr, I>,
        E: Advance<<Layout<S, D> as LocalPartition<Thr, I>>::Off>,
    {
        let (l, off) = self.layout.local_partition(thr, idx);
        Tensor {
            engine: self.engine.advance(off),
            layout: l,
        }
    }
    /// `local_partition(tensor, thr_layout, thr_idx, step)`: the thread layout projected by a
    /// `Step` (see [`local_partition_proj`](crate::cute::partition::local_partition_proj)).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((_128, _8));                       // sA: (BLK_M, BLK_K)
    /// let p = c.local_partition_proj(layout!((_16, _16):(_1, _16)), 17u32, (_1, X));
    /// assert_eq!(p.layout.to_string(), "(_8,_8):((_16),(_0,_1))");   // (THR_M, BLK_K)
    /// assert_eq!(p.engine.0.to_string_cute(), "(1)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn local_partition_proj<TS, TD, I, P>(
        &self,
        thr: Layout<TS, TD>,
        idx: I,
        step: P,
    ) -> Tensor<
        <E as Advance<
            <Layout<S, D> as LocalPartition<Layout<Diced<P, TS>, Diced<P, TD>>, I>>::Off,
        >>::Output,
        <Layout<S, D> as LocalPartition<Layout<Diced<P, TS>, Diced<P, TD>>, I>>::L,
    >
    where
        TS: IntTuple,
        TD: IntTuple,
        P: Copy + SliceT<TS, B0> + SliceT<TD, B0>,
        Layout<S, D>: LocalPartition<Layout<Diced<P, TS>, Diced<P, TD>>, I>,
        E: Advance<<Layout<S, D> as LocalPartition<Layout<Diced<P, TS>, Diced<P, TD>>, I>>::Off>,
    {
        self.local_partition(thr.dice(step), idx)
    }
    /// `outer_partition(tensor, tiler, coord)` (see [`outer_partition`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let c = make_identity_tensor((8i32, 6i32));
    /// let p = c.outer_partition((_4, _2), (1i32, 1i32));
    /// assert_eq!(p.engine.0.to_string_cute(), "(1,1)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn outer_partition<T, Cd>(
        &self,
        tiler: T,
        coord: Cd,
    ) -> Tensor<
        <E as Advance<<S as OuterPartition<D, T, Cd>>::Off>>::Output,
        <S as OuterPartition<D, T, Cd>>::L,
    >
    where
        S: OuterPartition<D, T, Cd>,
        E: Advance<<S as OuterPartition<D, T, Cd>>::Off>,
    {
        let (l, off) = outer_partition(self.layout, tiler, coord);
        Tensor {
            engine: self.engine.advance(off),
            layout: l,
        }
    }
}

impl<E: PtrEngine, S: IntTuple, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// The element pointer at a coordinate.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut v = [0u8; 16];
    /// let t = make_tensor(make_smem_ptr(v.as_mut_ptr()), layout!((_4, _4):(_4, _1)));
    /// assert_eq!(t.ptr((1i32, 2i32)), v.as_mut_ptr().wrapping_add(6));
    /// ```
    #[inline(always)]
    pub fn ptr<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> *mut E::Value
    where
        E: Advance<Cd::Output>,
        <E as Advance<Cd::Output>>::Output: PtrEngine<Value = E::Value>,
    {
        self.at(c).ptr()
    }
    /// Reads the element at a coordinate.
    ///
    /// # Safety
    /// The element must lie inside the tensor's allocation.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut v = [5i64, 6, 7];
    /// let t = make_tensor(make_gmem_ptr(v.as_mut_ptr()), layout!(_3:_1));
    /// assert_eq!(unsafe { t.read(2i32) }, 7);
    /// ```
    #[inline(always)]
    pub unsafe fn read<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> E::Value
    where
        E: Advance<Cd::Output>,
        <E as Advance<Cd::Output>>::Output: PtrEngine<Value = E::Value>,
    {
        unsafe { self.ptr(c).read() }
    }
    /// Writes the element at a coordinate.
    ///
    /// # Safety
    /// The element must lie inside the tensor's allocation.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut v = [0i64; 3];
    /// let t = make_tensor(make_gmem_ptr(v.as_mut_ptr()), layout!(_3:_1));
    /// unsafe { t.write(1i32, 9) };
    /// assert_eq!(v, [0, 9, 0]);
    /// ```
    #[inline(always)]
    pub unsafe fn write<Cd: Crd2Idx<S, D>>(&self, c: Cd, v: E::Value)
    where
        E: Advance<Cd::Output>,
        <E as Advance<Cd::Output>>::Output: PtrEngine<Value = E::Value>,
    {
        unsafe { self.ptr(c).write(v) }
    }
}

/// The strides of an identity layout: `E0`, `E1`, `E2` per mode.
pub trait IdentityStrides: Tuple {
    /// `(E0, E1, ...)`.
    type D: IntTuple;
}
impl<A: IntTuple> IdentityStrides for (A,) {
    type D = (super::arith::E0,);
}
impl<A: IntTuple, B: IntTuple> IdentityStrides for (A, B) {
    type D = (super::arith::E0, super::arith::E1);
}
impl<A: IntTuple, B: IntTuple, C2: IntTuple> IdentityStrides for (A, B, C2) {
    type D = (super::arith::E0, super::arith::E1, super::arith::E2);
}

/// `make_identity_tensor(shape)`: a tensor whose element at each coordinate is that coordinate
/// (rank 1 to 3). Tile and partition it like the data tensor, then compare its elements with the
/// bounds (`elem_less`) to predicate the edges.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let c = make_identity_tensor((5i32, 7i32));
/// let t = c.local_tile((_4, _4), (1i32, 1i32));
/// assert_eq!(t.at((_0, _0)).0.to_string_cute(), "(4,4)");
/// assert!(!elem_less(t.at((1i32, 1i32)).0, (5i32, 7i32)));  // (5,5): row 5 is outside
/// ```
#[inline(always)]
pub fn make_identity_tensor<S: IdentityStrides>(shape: S) -> Tensor<Counting<_0>, Layout<S, S::D>>
where
    S::D: Default,
{
    Tensor {
        engine: Counting(C::new()),
        layout: Layout {
            shape,
            stride: S::D::default(),
        },
    }
}

/// The length (typenum unsigned) of a static size: `_N` → `UN`.
pub trait ToLen {
    /// The unsigned length.
    type Len: Unsigned;
}
impl ToLen for Z0 {
    type Len = typenum::U0;
}
impl<U: Unsigned + typenum::NonZero> ToLen for PInt<U> {
    type Len = U;
}
impl<U: Unsigned + typenum::NonZero> ToLen for NInt<U> {
    type Len = typenum::U0;
}

/// The array length of a static size type.
pub type LenOf<N> = <<N as StaticInt>::N as ToLen>::Len;

/// A register fragment: `size(L)` values of `T` in a thread's registers, with a static
/// (compact) layout; sized from the layout's static size in generic code (a `GenericArray`).
pub struct Fragment<T, L: FragmentLayout> {
    /// The values.
    pub data: GenericArray<T, L::Len>,
    /// The layout.
    pub layout: L,
}

/// A static layout that can size a fragment.
pub trait FragmentLayout: Copy {
    /// Number of values.
    type Len: ArrayLength;
}
impl<S: Product, D: IntTuple> FragmentLayout for Layout<S, D>
where
    S::Output: StaticInt,
    <S::Output as StaticInt>::N: ToLen,
    LenOf<S::Output>: ArrayLength,
{
    type Len = LenOf<S::Output>;
}

impl<T: Copy + Default, L: FragmentLayout> Fragment<T, L> {
    /// A fragment of default values.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let f = Fragment::<f32, _>::new(make_layout_left((_4, _2)));
    /// assert_eq!(f.len(), 8);
    /// ```
    #[inline(always)]
    pub fn new(layout: L) -> Self {
        Fragment {
            data: GenericArray::default(),
            layout,
        }
    }
}
impl<T, L: FragmentLayout> Fragment<T, L> {
    /// Number of values (`size(fragment)`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let f = Fragment::<f32, _>::new(layout!((_2, (_2, _3)):(_1, (_2, _4))));
    /// assert_eq!(f.len(), 12);
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        L::Len::USIZE
    }
    /// Whether the fragment holds no value.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert!(!Fragment::<f32, _>::new(make_layout_left((_4,))).is_empty());
    /// assert!(Fragment::<f32, _>::new(make_layout_left((_4, _0))).is_empty()); // size 4 * 0
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        L::Len::USIZE == 0
    }
    /// The value at a static index; an index outside the fragment fails to compile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut f = Fragment::<u32, _>::new(make_layout_left((_4,)));
    /// *f.at_mut(_3) = 7;
    /// assert_eq!(*f.at(_3), 7);
    /// ```
    #[inline(always)]
    pub fn at<I: StaticInt>(&self, _: I) -> &T {
        const {
            if I::VALUE < 0 || I::VALUE as usize >= L::Len::USIZE {
                crate::Error::with2(
                    "fragment index {} is outside the fragment of {} values",
                    I::VALUE,
                    L::Len::I64,
                )
                .panic()
            }
        };
        &self.data[I::VALUE as usize]
    }
    /// The value at a static index, mutably (see [`Fragment::at`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut f = Fragment::<u32, _>::new(make_layout_left((_2, _2)));
    /// *f.at_mut(_2) += 7;
    /// assert_eq!(unsafe { f.tensor().read((0i32, 1i32)) }, 7); // value 2: (0, 1) of the 2 x 2
    /// ```
    #[inline(always)]
    pub fn at_mut<I: StaticInt>(&mut self, i: I) -> &mut T {
        let _ = self.at(i);
        &mut self.data[I::VALUE as usize]
    }
    /// A register engine over the values (for copies into and out of the fragment).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut f = Fragment::<u32, _>::new(make_layout_left((_2, _2)));  // column-major
    /// let t = make_tensor(f.engine(), layout!((_2, _2):(_2, _1)));    // a row-major view
    /// unsafe { t.write((0i32, 1i32), 9) };
    /// assert_eq!((f[1], f[2]), (9, 0));                              // the view's (0, 1): register 1
    /// ```
    #[inline(always)]
    pub fn engine(&mut self) -> Reg<T> {
        make_reg_ptr(self.data.as_mut_ptr())
    }
    /// The fragment as a tensor over its registers.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut f = Fragment::<u32, _>::new(make_layout_left((_2, _2)));
    /// let t = f.tensor();
    /// unsafe { t.write((1i32, 1i32), 5) };
    /// assert_eq!(f[3], 5);
    /// ```
    #[inline(always)]
    pub fn tensor(&mut self) -> Tensor<Reg<T>, L> {
        Tensor {
            engine: self.engine(),
            layout: self.layout,
        }
    }
}
impl<T, L: FragmentLayout> core::ops::Index<usize> for Fragment<T, L> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.data[i]
    }
}
impl<T, L: FragmentLayout> core::ops::IndexMut<usize> for Fragment<T, L> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.data[i]
    }
}

/// `make_fragment_like<T>(tensor)`: a register fragment with the tensor's (static) shape and a
/// compact column-major layout.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let c = make_identity_tensor((_8, _4));
/// let f = make_fragment_like::<f32, _, _, _>(&c);
/// assert_eq!(f.len(), 32);
/// assert_eq!(f.layout.to_string(), "(_8,_4):(_1,_8)");
/// ```
#[inline(always)]
pub fn make_fragment_like<T: Copy + Default, E, S, D>(
    t: &Tensor<E, Layout<S, D>>,
) -> Fragment<T, Layout<S, <S as CompactLeft<_1>>::Stride>>
where
    S: CompactLeft<_1> + Copy,
    Layout<S, <S as CompactLeft<_1>>::Stride>: FragmentLayout,
{
    Fragment::new(make_layout_left(t.layout.shape))
}

impl<E: PtrEngine, Sw: StaticSwizzle, S: IntTuple, D: IntTuple, O: SwizzleOffset>
    Tensor<E, Swizzled<Sw, Layout<S, D>, O>>
{
    /// The element pointer at a coordinate: the layout's offset through [`TensorSwizzle`] (for a
    /// GMMA atom or tile, `smem_ptr_flag_bits<B>` in the middle, CuTe's byte swizzle). The
    /// engine's base must be aligned to the swizzle's period (1024 bytes for `Sw<3,4,3>`), as
    /// CuTe's `swizzle_ptr` and the hardware (wgmma, TMA) require; `B` must equal
    /// `sizeof_bits<T>` of the pointer (CuTe's `static_assert`), a compile error otherwise.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// let mut buf = [0u16; 512];
    /// let atom = Layout_K_SW128_Atom::<u16>::new();
    /// let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), atom);
    /// assert_eq!(atom.crd2idx((1i32, 8i32)), 72);                     // the layout function
    /// assert_eq!(t.ptr((1i32, 8i32)), buf.as_mut_ptr().wrapping_add(64)); // byte 144 -> 128
    /// ```
    #[inline(always)]
    pub fn ptr<Cd: Crd2Idx<S, D>>(&self, c: Cd) -> *mut E::Value
    where
        Cd::Output: SwizzleIndex,
        E: Advance<<Cd::Output as SwizzleIndex>::Output>,
        <E as Advance<<Cd::Output as SwizzleIndex>::Output>>::Output: PtrEngine<Value = E::Value>,
    {
        const {
            if let Some(b) = O::FLAG_BITS
                && b != 8 * core::mem::size_of::<E::Value>() as i64
            {
                crate::Error::with2(
                    "make_tensor(smem_ptr<T>, ComposedLayout<Sw, smem_ptr_flag_bits<B>, L>): expected a B-bit pointer type, but B = {} and sizeof_bits<T> = {}",
                    b,
                    8 * core::mem::size_of::<E::Value>() as i64,
                )
                .panic();
            }
        }
        self.engine
            .advance(
                self.layout
                    .layout
                    .crd2idx(c)
                    .swizzle::<TensorSwizzle<Sw, O>>(),
            )
            .ptr()
    }
}
