//! TiledCopy over typed tensors: `make_tiled_copy(atom, thr_layout, val_layout)`, a thread's
//! slice (`get_slice`), its `partition_S` / `partition_D` of a tile, and `copy` / `copy_if`
//! dispatching to the atom (`UniversalCopy`, 128-bit vectors, `cp.async` 16 B).
//!
//! The TV layout is CuTe's (`crate::value::copy::TvLayout`, computed by the value algebra in a
//! constant). Partitioning a tile composes the tile's *coordinates* with it: each of the
//! thread's values gets a compile-time coordinate offset, and the thread's own coordinate is a
//! few shifts and masks of its index; the element is then `tile(coord)` through the tile's typed
//! layout, so static strides fold and dynamic ones cost one multiply-add, as in hand-written
//! code. Partitioning an identity tensor the same way gives each value's coordinate, for
//! `copy_if` predicates.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let (m, n) = (5i32, 6i32);
//! let mut src: Vec<f32> = (0..30).map(|x| x as f32).collect();
//! let mut dst = vec![0f32; 30];
//! let a = make_tensor(make_gmem_ptr(src.as_mut_ptr()), layout!((m, n):(_1, m)));
//! let b = make_tensor(make_gmem_ptr(dst.as_mut_ptr()), layout!((m, n):(_1, m)));
//! let c = make_identity_tensor((m, n));
//! let tc = make_tiled_copy(UniversalCopy::<f32>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
//! for bm in 0..2i32 {
//!     for bn in 0..2i32 {
//!         let (ta, tb, tcrd) = (a.local_tile((_4, _4), (bm, bn)), b.local_tile((_4, _4), (bm, bn)), c.local_tile((_4, _4), (bm, bn)));
//!         for t in 0..8u32 {
//!             let thr = tc.get_slice(t);
//!             let (s, d, p) = (thr.partition_s(&ta), thr.partition_d(&tb), thr.partition_s(&tcrd));
//!             let pred = p.predicate((m, n));
//!             copy_if(&tc, &pred, &s, &d);
//!         }
//!     }
//! }
//! assert_eq!(src, dst);
//! ```

use crate::cute::arith::ElemLess;
use crate::cute::int::*;
use crate::cute::inverse::RightInverseOf;
use crate::cute::layout::Get;
use crate::cute::layout::*;
use crate::cute::swizzle::{SwizzleIndex, SwizzleOffset, Swizzled, TensorSwizzle};
use crate::cute::tensor::*;
use crate::cute::tuple::*;
use crate::value::copy::{CopyOp, TvLayout};
use crate::value::layout::DynLayout;
use crate::value::swizzle::StaticSwizzle;
use core::marker::PhantomData;
use device::vec::U32x4;

// ---------------------------------------------------------------------------------------------
// Atoms
// ---------------------------------------------------------------------------------------------

/// A copy atom: one thread moving `Vals` contiguous elements of `T` with one instruction.
pub trait CopyAtom: Copy + Default {
    /// The element type.
    type T: Copy;
    /// Elements per instruction (static).
    type Vals: StaticInt;
    /// The instruction.
    const OP: CopyOp;
    /// Whether [`CopyAtom::call`] takes shared memory as a 32-bit `.shared` address
    /// ([`Space::SmemAddr`]); `copy` refuses such partitions for the other atoms.
    const SMEM_ADDR: bool = false;
    /// Copies one atom: `Vals` elements from `src` (in `src_space`) to `dst` (in `dst_space`),
    /// CuTe's `Copy_Atom::call`. The default issues [`CopyAtom::OP`]'s instruction; an atom
    /// defined elsewhere (another load policy, another address form) overrides it, and
    /// [`copy`] / [`copy_if`] use it unchanged (see [`CopyAtom::call`]'s example).
    ///
    /// ```
    /// use layout_types::value::copy::CopyOp;
    /// use layout_types::cute::atom::copy::CopyAtom;
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::tensor::Space;
    /// /// Copies one element and negates it.
    /// #[derive(Clone, Copy, Default)]
    /// struct Negate;
    /// impl CopyAtom for Negate {
    ///     type T = f32;
    ///     type Vals = _1;
    ///     const OP: CopyOp = CopyOp::Element;
    ///     unsafe fn call(_: Space, src: *mut u8, _: Space, dst: *mut u8) {
    ///         unsafe { (dst as *mut f32).write(-(src as *const f32).read()) }
    ///     }
    /// }
    /// let mut a: Vec<f32> = (0..8).map(|x| x as f32).collect();
    /// let mut b = vec![0f32; 8];
    /// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_8, _1):(_1, _8)));
    /// let tb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((_8, _1):(_1, _8)));
    /// let tc = make_tiled_copy(Negate, layout!((_8, _1):(_1, _8)), layout!((_1, _1):(_0, _0)));
    /// for t in 0..8u32 {
    ///     let thr = tc.get_slice(t);
    ///     unsafe { copy(&tc, &thr.partition_s(&ta), &thr.partition_d(&tb)) };
    /// }
    /// assert_eq!(b[3], -3.0);
    /// ```
    ///
    /// # Safety
    /// `src` and `dst` are valid for one atom in their spaces, aligned as the atom needs.
    #[inline(always)]
    unsafe fn call(src_space: Space, src: *mut u8, dst_space: Space, dst: *mut u8) {
        unsafe { copy_atom::<Self>(src_space, src, dst_space, dst) }
    }
}

macro_rules! atom_struct {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        pub struct $name<T>(PhantomData<T>);
        impl<T> $name<T> {
            /// The atom.
            ///
            /// ```
            /// use layout_types::cute::prelude::*;
            /// let mut g: Vec<u32> = (0..32).collect();
            /// let mut s = vec![0u32; 32];
            /// let tg = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_8, _4):(_4, _1)));
            /// let ts = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_8, _4):(_4, _1)));
            /// // 8 threads, one row of 4 u32 (16 bytes) each
            #[doc = concat!("let tc = make_tiled_copy(", stringify!($name), "::<u32>::new(), layout!((_8, _1):(_1, _0)), layout!((_1, _4):(_0, _1)));")]
            /// for t in 0..8u32 {
            ///     let thr = tc.get_slice(t);
            ///     unsafe { copy(&tc, &thr.partition_s(&tg), &thr.partition_d(&ts)) };
            /// }
            /// assert_eq!(g, s);
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name(PhantomData)
            }
        }
        impl<T> Clone for $name<T> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> Default for $name<T> {
            #[inline(always)]
            fn default() -> Self {
                Self::new()
            }
        }
    )*};
}
atom_struct! {
    /// `UniversalCopy<T>`: one element per instruction.
    UniversalCopy;
    /// `UniversalCopy<uint128_t>`: 128-bit vector loads and stores (`ld.global.v4` /
    /// `st.shared.v4`, ...).
    Copy128;
    /// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`: `cp.async.cg` 16 bytes, global → shared.
    CpAsync16;
}
impl<T: Copy> CopyAtom for UniversalCopy<T> {
    type T = T;
    type Vals = crate::cute::consts::_1;
    const OP: CopyOp = CopyOp::Element;
}
macro_rules! vec_atoms {
    ($($t:ty => $n:ident),*) => {$(
        impl CopyAtom for Copy128<$t> {
            type T = $t;
            type Vals = crate::cute::consts::$n;
            const OP: CopyOp = CopyOp::Vec128;
        }
        impl CopyAtom for CpAsync16<$t> {
            type T = $t;
            type Vals = crate::cute::consts::$n;
            const OP: CopyOp = CopyOp::CpAsync16;
        }
    )*};
}
vec_atoms!(f32 => _4, u32 => _4, i32 => _4, f64 => _2, u64 => _2, i64 => _2, u16 => _8, i16 => _8, u8 => _16, i8 => _16);

/// `SM90_BULK_COPY_S2G`: one thread copies `N` contiguous elements of `T` from shared to global
/// memory with one `cp.async.bulk` (the TMA unit; `N·size_of::<T>()` a multiple of 16 bytes,
/// checked when a copy uses it). Asynchronous: the threads that wrote the shared memory call
/// [`tma_store_fence`](device::tma::tma_store_fence) before the barrier that precedes the copy,
/// and the copying thread calls [`tma_store_arrive`](device::tma::tma_store_arrive) and
/// [`tma_store_wait`](device::tma::tma_store_wait) before the shared memory is reused or the
/// block exits.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::copy::BulkCopyS2G;
/// let mut s: Vec<u32> = (0..128).collect();
/// let mut g = vec![0u32; 128];
/// // 2 threads, one 64-element row each (256 bytes)
/// let tc = make_tiled_copy(BulkCopyS2G::<u32, _64>::new(), layout!((_2, _1):(_1, _0)), layout!((_1, _64):(_0, _1)));
/// let ts = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_2, _64):(_64, _1)));
/// let tg = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_2, _64):(_64, _1)));
/// for t in 0..2u32 {
///     let thr = tc.get_slice(t);
///     unsafe { copy(&tc, &thr.partition_s(&ts), &thr.partition_d(&tg)) };
///     tma_store_arrive();
///     tma_store_wait::<0>();
/// }
/// assert_eq!(s, g);
/// ```
pub struct BulkCopyS2G<T, N>(PhantomData<(T, N)>);
impl<T, N> BulkCopyS2G<T, N> {
    /// The atom.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::copy::{BulkCopyS2G, CopyAtom};
    /// use layout_types::value::copy::CopyOp;
    /// let a = BulkCopyS2G::<f32, _32>::new();               // 32 floats: one 128-byte cp.async.bulk
    /// assert_eq!(core::mem::size_of_val(&a), 0);
    /// assert_eq!(<BulkCopyS2G<f32, _32> as CopyAtom>::OP, CopyOp::BulkS2G(128));
    /// ```
    #[inline(always)]
    pub const fn new() -> Self {
        BulkCopyS2G(PhantomData)
    }
}
impl<T, N> Clone for BulkCopyS2G<T, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, N> Copy for BulkCopyS2G<T, N> {}
impl<T, N> Default for BulkCopyS2G<T, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}
impl<T: Copy, N: StaticInt> CopyAtom for BulkCopyS2G<T, N> {
    type T = T;
    type Vals = N;
    const OP: CopyOp = CopyOp::BulkS2G(N::VALUE * core::mem::size_of::<T>() as i64);
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

/// Most leaves of a thread mode.
pub const MAX_THR_LEAVES: usize = 8;
/// Most values per thread in one partition.
pub const MAX_VALS: usize = 256;
const BIG: i64 = 1 << 20;

/// A thread's partition of a `(TILE_M, TILE_N)` tile by a TiledCopy, as constants: the thread
/// mode's leaves (extent and coordinate steps) and every value's coordinate offset.
#[derive(Clone, Copy, Debug)]
pub struct CopyTables {
    /// Number of threads.
    pub threads: i64,
    /// Leaves of the thread mode.
    pub n_thr: usize,
    /// Extent of each thread leaf.
    pub thr_shape: [i64; MAX_THR_LEAVES],
    /// Step along m of each thread leaf.
    pub thr_m: [i64; MAX_THR_LEAVES],
    /// Step along n of each thread leaf.
    pub thr_n: [i64; MAX_THR_LEAVES],
    /// Values per thread.
    pub nv: usize,
    /// Coordinate offset along m of each value.
    pub dm: [i64; MAX_VALS],
    /// Coordinate offset along n of each value.
    pub dn: [i64; MAX_VALS],
    /// Elements per atom.
    pub atom: usize,
    /// The mode along which an atom's elements are contiguous (0: m, 1: n; 2 for 1-element atoms).
    pub vec_mode: u8,
}

const fn ok<T: Copy>(r: Result<T, crate::Error>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => e.panic(),
    }
}
const fn fail2(msg: &'static str, a: i64, b: i64) -> ! {
    crate::Error::with2(msg, a, b).panic()
}

/// Builds the [`CopyTables`] of a TiledCopy (thread and value layouts, atom width) over a
/// `(tile_m, tile_n)` tile; fails (at compile time, in a constant) with the values when the
/// TiledCopy does not tile the tile or a vector atom's elements are not contiguous and aligned.
///
/// ```
/// use layout_types::{value::layout::DynLayout, cute::atom::copy::copy_tables};
/// let thr: DynLayout = "(_32,_8):(_8,_1)".parse().unwrap();
/// let val: DynLayout = "(_1,_4):(_0,_1)".parse().unwrap();
/// let t = copy_tables(&thr, &val, 4, 64, 32);
/// assert_eq!((t.nv, t.vec_mode), (8, 1));                // 4 values x 2 tiles along m; vectors along n
/// assert_eq!((t.dm[4], t.dn[4]), (32, 0));
/// ```
pub const fn copy_tables(
    thr: &DynLayout,
    val: &DynLayout,
    atom: i64,
    tile_m: i64,
    tile_n: i64,
) -> CopyTables {
    let tv = ok(TvLayout::new(thr, val));
    if tv.tiler.rank() != 2 {
        fail2(
            "TiledCopy: the thread and value layouts must have rank 2 (rank {} found, {} expected)",
            tv.tiler.rank() as i64,
            2,
        );
    }
    let tm = tv.tiler.get(0).val().v;
    let tn = tv.tiler.get(1).val().v;
    if tile_m % tm != 0 {
        fail2(
            "TiledCopy: the copy tiles {} rows at a time, which does not divide the tile's {} rows",
            tm,
            tile_m,
        );
    }
    if tile_n % tn != 0 {
        fail2(
            "TiledCopy: the copy tiles {} columns at a time, which does not divide the tile's {} columns",
            tn,
            tile_n,
        );
    }
    if tv.values % atom != 0 {
        fail2(
            "TiledCopy: {} values per thread are not a whole number of {}-element atoms",
            tv.values,
            atom,
        );
    }
    // (thr, (atom_val, rest_val)) -> index in the (tm, tn) tile, composed with the tile's
    // coordinates (m, n) encoded as m + BIG * n.
    let shape = crate::value::int_tuple::IntTuple::pair(
        &crate::value::int_tuple::IntTuple::st(tv.threads),
        &crate::value::int_tuple::IntTuple::pair(
            &crate::value::int_tuple::IntTuple::st(atom),
            &crate::value::int_tuple::IntTuple::st(tv.values / atom),
        ),
    );
    let tv_atoms = ok(crate::value::algebra::composition(
        &tv.layout_tv,
        &DynLayout::make_layout(&shape, false),
    ));
    let coords = DynLayout::raw(
        crate::value::int_tuple::IntTuple::pair(
            &crate::value::int_tuple::IntTuple::st(tm),
            &crate::value::int_tuple::IntTuple::st(tn),
        ),
        crate::value::int_tuple::IntTuple::pair(
            &crate::value::int_tuple::IntTuple::st(1),
            &crate::value::int_tuple::IntTuple::st(BIG),
        ),
    );
    let comp = ok(crate::value::algebra::composition(&coords, &tv_atoms));
    let thr_mode = comp.get(0);
    let fs = thr_mode.shape.flatten_to_tuple();
    let fd = thr_mode.stride.flatten_to_tuple();
    let n_thr = fs.rank();
    if n_thr > MAX_THR_LEAVES {
        fail2(
            "TiledCopy: the thread mode has {} leaves (at most {})",
            n_thr as i64,
            MAX_THR_LEAVES as i64,
        );
    }
    let mut thr_shape = [1i64; MAX_THR_LEAVES];
    let mut thr_m = [0i64; MAX_THR_LEAVES];
    let mut thr_n = [0i64; MAX_THR_LEAVES];
    let mut k = 0;
    while k < n_thr {
        let d = fd.get(k).val().v;
        thr_shape[k] = fs.get(k).val().v;
        thr_m[k] = d % BIG;
        thr_n[k] = d / BIG;
        k += 1;
    }
    let val_mode = comp.get(1);
    let (rm, rn) = (tile_m / tm, tile_n / tn);
    let v1 = tv.values;
    let nv = (v1 * rm * rn) as usize;
    if nv > MAX_VALS {
        fail2(
            "TiledCopy: {} values per thread (at most {})",
            nv as i64,
            MAX_VALS as i64,
        );
    }
    let mut dm = [0i64; MAX_VALS];
    let mut dn = [0i64; MAX_VALS];
    let mut v = 0;
    while v < nv {
        let vv = v as i64 % v1;
        let r = v as i64 / v1;
        let d = val_mode.call(vv);
        dm[v] = d % BIG + (r % rm) * tm;
        dn[v] = d / BIG + (r / rm) * tn;
        v += 1;
    }
    let a = atom as usize;
    let mut vec_mode = 2u8;
    if a > 1 {
        let along_m = dm[1] - dm[0] == 1 && dn[1] == dn[0];
        vec_mode = if along_m { 0 } else { 1 };
        let mut i = 0;
        while i < nv {
            let mut j = 1;
            while j < a {
                let (sm, sn) = (dm[i + j] - dm[i], dn[i + j] - dn[i]);
                let ok = if along_m {
                    sm == j as i64 && sn == 0
                } else {
                    sn == j as i64 && sm == 0
                };
                if !ok {
                    fail2(
                        "TiledCopy: a vector atom moves {} contiguous elements, but a thread's values are contiguous along one mode of the tile for only {}",
                        atom,
                        j as i64,
                    );
                }
                j += 1;
            }
            let start = if along_m { dm[i] } else { dn[i] };
            if start % atom != 0 {
                fail2(
                    "TiledCopy: vectors of {} elements must start at multiples of {} elements, but a thread's vector starts at a different offset",
                    atom,
                    atom,
                );
            }
            i += a;
        }
        let mut k = 0;
        while k < n_thr {
            let step = if along_m { thr_m[k] } else { thr_n[k] };
            if thr_shape[k] > 1 && step % atom != 0 {
                fail2(
                    "TiledCopy: vectors of {} elements must start at multiples of {} elements, but consecutive threads' vectors are not",
                    atom,
                    atom,
                );
            }
            k += 1;
        }
    }
    CopyTables {
        threads: tv.threads,
        n_thr,
        thr_shape,
        thr_m,
        thr_n,
        nv,
        dm,
        dn,
        atom: a,
        vec_mode,
    }
}

// ---------------------------------------------------------------------------------------------
// TiledCopy, ThrCopy, partitions
// ---------------------------------------------------------------------------------------------

/// A TiledCopy: an atom tiled over threads and values (CuTe's `make_tiled_copy(atom, Thr, Val)`);
/// zero-sized.
pub struct TiledCopy<A, Thr, Val>(PhantomData<(A, Thr, Val)>);
impl<A, Thr, Val> Clone for TiledCopy<A, Thr, Val> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, Thr, Val> Copy for TiledCopy<A, Thr, Val> {}

/// `make_tiled_copy(atom, thr_layout, val_layout)` for static thread and value layouts (rank 2).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_32, _8):(_8, _1)), layout!((_1, _4):(_0, _1)));
/// assert_eq!(core::mem::size_of_val(&tc), 0);
/// ```
#[inline(always)]
pub fn make_tiled_copy<A: CopyAtom, Thr: StaticLayoutValue, Val: StaticLayoutValue>(
    _: A,
    _: Thr,
    _: Val,
) -> TiledCopy<A, Thr, Val> {
    TiledCopy(PhantomData)
}

impl<A: CopyAtom, Thr: StaticLayoutValue, Val: StaticLayoutValue> TiledCopy<A, Thr, Val> {
    /// `tiled_copy.get_slice(thr_idx)`: thread `thr_idx`'s view.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(UniversalCopy::<u8>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// let c = make_identity_tensor((_8, _4));
    /// let p = tc.get_slice(5u32).partition_s(&c);
    /// assert_eq!(p.get(_0).0.to_string_cute(), "(1,1)");   // thread 5 = (1,1) of the 4x2 threads
    /// ```
    #[inline(always)]
    pub fn get_slice<I: Integral>(&self, thr_idx: I) -> ThrCopy<A, Thr, Val> {
        ThrCopy {
            tid: thr_idx.value() as i32,
            _tc: PhantomData,
        }
    }
}

/// One thread's view of a TiledCopy (CuTe's `ThrCopy`).
pub struct ThrCopy<A, Thr, Val> {
    tid: i32,
    _tc: PhantomData<(A, Thr, Val)>,
}
impl<A, Thr, Val> Clone for ThrCopy<A, Thr, Val> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, Thr, Val> Copy for ThrCopy<A, Thr, Val> {}

/// The tables of a TiledCopy over a tile of static shape `(M, N)`.
pub struct Tables<A, Thr, Val, M, N>(PhantomData<(A, Thr, Val, M, N)>);
impl<A: CopyAtom, Thr: StaticLayoutValue, Val: StaticLayoutValue, M: StaticInt, N: StaticInt>
    Tables<A, Thr, Val, M, N>
{
    /// The tables (a constant).
    pub const T: CopyTables = copy_tables(
        &Thr::LAYOUT,
        &Val::LAYOUT,
        <A::Vals as StaticInt>::VALUE,
        M::VALUE,
        N::VALUE,
    );
}

/// A tile layout a TiledCopy can partition: a rank-2 layout of static extents `(M, N)` (a typed
/// [`Layout`], or a swizzled one), evaluated at a `(m, n)` coordinate.
pub trait TileLayout: Copy {
    /// Rows.
    type M: StaticInt;
    /// Columns.
    type N: StaticInt;
    /// The index type.
    type Off: Copy;
    /// Whether mode 0 / mode 1 has the static stride `_1`.
    const UNIT: [bool; 2];
    /// The swizzle's base bits (elements within `2^base` stay contiguous); 31 when unswizzled.
    const SWIZZLE_BASE: u32 = 31;
    /// Whether the index is linear in the coordinate (`eval(a + b) = eval(a) + eval(b)`: a plain
    /// rank-2 layout; a swizzled one is not).
    const LINEAR: bool = false;
    /// The index of `(m, n)`.
    fn eval(&self, c: (i32, i32)) -> Self::Off;
    /// The index of `(t.0 + d.0, t.1 + d.1)`, `t` a thread's coordinate and `d` a constant
    /// (a value's place in the thread's partition, after unrolling); both non-negative. The same
    /// as `eval` of the sum; a swizzled layout adds the part of `d`'s offset that is a multiple
    /// of the swizzle's period after the swizzle (CuTe's `swizzle_ptr` arithmetic).
    #[inline(always)]
    fn eval_at(&self, t: (i32, i32), d: (i32, i32)) -> Self::Off {
        self.eval((t.0 + d.0, t.1 + d.1))
    }
}
/// Whether a stride is the static `_1`.
pub trait UnitStride {
    /// `true` for `_1`.
    const UNIT: bool;
}
impl<T: typenum::Integer> UnitStride for C<T> {
    const UNIT: bool = T::I64 == 1;
}
macro_rules! dyn_unit {
    ($($t:ty),*) => {$( impl UnitStride for $t { const UNIT: bool = false; } )*};
}
dyn_unit!(i32, i64, u32, u64, usize, isize);
impl<H> UnitStride for crate::cute::arith::ATup<H> {
    const UNIT: bool = false;
}
impl<S, D> TileLayout for Layout<S, D>
where
    S: Tile2 + IntTuple,
    D: IntTuple + Get<0> + Get<1>,
    <D as Get<0>>::Output: UnitStride,
    <D as Get<1>>::Output: UnitStride,
    (i32, i32): Crd2Idx<S, D>,
{
    type M = S::M;
    type N = S::N;
    type Off = <(i32, i32) as Crd2Idx<S, D>>::Output;
    const LINEAR: bool = true;
    const UNIT: [bool; 2] = [
        <<D as Get<0>>::Output as UnitStride>::UNIT,
        <<D as Get<1>>::Output as UnitStride>::UNIT,
    ];
    #[inline(always)]
    fn eval(&self, c: (i32, i32)) -> Self::Off {
        self.crd2idx(c)
    }
}

/// A thread's partition of a tile (CuTe's `partition_S` / `partition_D` result): the tile, the
/// thread's coordinate in it, and (as a type) the tables of its values. Element `v` is
/// `tile(m_t + dm[v], n_t + dn[v])`.
pub struct ThrPartition<E, L, A, Thr, Val> {
    /// The tile's engine.
    pub engine: E,
    /// The tile's layout.
    pub layout: L,
    /// The thread's coordinate along m.
    pub mt: i32,
    /// The thread's coordinate along n.
    pub nt: i32,
    _t: PhantomData<(A, Thr, Val)>,
}
impl<E: Copy, L: Copy, A, Thr, Val> Clone for ThrPartition<E, L, A, Thr, Val> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<E: Copy, L: Copy, A, Thr, Val> Copy for ThrPartition<E, L, A, Thr, Val> {}

/// The static extents of a rank-2 tile.
pub trait Tile2 {
    /// Rows.
    type M: StaticInt;
    /// Columns.
    type N: StaticInt;
}
impl<S0: StaticInt, S1: StaticInt> Tile2 for (S0, S1) {
    type M = S0;
    type N = S1;
}

impl<A: CopyAtom, Thr: StaticLayoutValue, Val: StaticLayoutValue> ThrCopy<A, Thr, Val> {
    /// `thr_copy.partition_S(tile)`: this thread's values of a source tile of static shape
    /// `(M, N)` (any strides: static, dynamic, or an identity tensor's).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_8, _4):(_4, _1)), layout!((_1, _4):(_0, _1)));
    /// let c = make_identity_tensor((_16, _16));
    /// let p = tc.get_slice(6u32).partition_s(&c);          // thread (1, 2)
    /// assert_eq!(p.size(), 8);
    /// assert_eq!(p.get(_0).0.to_string_cute(), "(1,8)");
    /// assert_eq!(p.get(_4).0.to_string_cute(), "(9,8)");
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn partition_s<E: Copy, L: TileLayout>(
        &self,
        t: &Tensor<E, L>,
    ) -> ThrPartition<E, L, A, Thr, Val> {
        let tab = const { &Tables::<A, Thr, Val, L::M, L::N>::T };
        let mut mt = 0i32;
        let mut nt = 0i32;
        let mut k = 0;
        let mut div = 1i32;
        while k < tab.n_thr {
            let s = tab.thr_shape[k] as i32;
            let c = if k + 1 == tab.n_thr {
                self.tid / div
            } else {
                (self.tid / div) % s
            };
            mt += c * tab.thr_m[k] as i32;
            nt += c * tab.thr_n[k] as i32;
            div *= s;
            k += 1;
        }
        ThrPartition {
            engine: t.engine,
            layout: t.layout,
            mt,
            nt,
            _t: PhantomData,
        }
    }
    /// `thr_copy.partition_D(tile)`: as [`ThrCopy::partition_s`], for the destination.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut a: Vec<u32> = (0..32).collect();
    /// let mut b = vec![0u32; 32];
    /// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_8, _4):(_1, _8))); // column-major
    /// let tb = make_tensor(make_smem_ptr(b.as_mut_ptr()), layout!((_8, _4):(_4, _1))); // row-major
    /// let tc = make_tiled_copy(UniversalCopy::<u32>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// for t in 0..8u32 {
    ///     let thr = tc.get_slice(t);
    ///     unsafe { copy(&tc, &thr.partition_s(&ta), &thr.partition_d(&tb)) };
    /// }
    /// assert_eq!((b[1], b[4]), (8, 1));                 // (0, 1) and (1, 0): the same coordinates
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn partition_d<E: Copy, L: TileLayout>(
        &self,
        t: &Tensor<E, L>,
    ) -> ThrPartition<E, L, A, Thr, Val> {
        self.partition_s(t)
    }
}

impl<E, L, A, Thr, Val> ThrPartition<E, L, A, Thr, Val>
where
    E: Copy,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
{
    const TAB: CopyTables = Tables::<A, Thr, Val, L::M, L::N>::T;
    /// Values per thread (`size(partition)`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_8, _4):(_4, _1)), layout!((_1, _4):(_0, _1)));
    /// let c = make_identity_tensor((_32, _16));               // the copy covers 8 x 16 at a time
    /// assert_eq!(tc.get_slice(0u32).partition_s(&c).size(), 4 * 4);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        Self::TAB.nv
    }
    /// Atoms per thread (`size(partition) / atom width`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let (thr, val) = (layout!((_8, _4):(_4, _1)), layout!((_1, _4):(_0, _1)));
    /// let c = make_identity_tensor((_32, _16));
    /// let vec4 = make_tiled_copy(Copy128::<f32>::new(), thr, val).get_slice(0u32).partition_s(&c);
    /// let elem = make_tiled_copy(UniversalCopy::<f32>::new(), thr, val).get_slice(0u32).partition_s(&c);
    /// assert_eq!((vec4.atoms(), elem.atoms()), (4, 16));     // 16 values: 4 vectors, or 16 elements
    /// ```
    #[inline(always)]
    pub fn atoms(&self) -> usize {
        Self::TAB.nv / Self::TAB.atom
    }
    /// The tile coordinate of value `v` (a run-time index; constant after unrolling).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(UniversalCopy::<u8>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// let c = make_identity_tensor((_8, _4));
    /// let p = tc.get_slice(5u32).partition_s(&c);           // thread (1, 1) of 4x2
    /// assert_eq!((p.size(), p.atoms()), (4, 4));
    /// assert_eq!([p.coord(0), p.coord(1), p.coord(3)], [(1, 1), (5, 1), (5, 3)]);
    /// ```
    #[inline(always)]
    pub fn coord(&self, v: usize) -> (i32, i32) {
        let t = Self::TAB;
        (self.mt + t.dm[v] as i32, self.nt + t.dn[v] as i32)
    }
    /// The engine at value `v` (`&partition(v)`).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut a: Vec<u32> = (0..32).collect();                // 8 x 4, column-major: a(m, n) = m + 8n
    /// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_8, _4):(_1, _8)));
    /// let tc = make_tiled_copy(UniversalCopy::<u32>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// let p = tc.get_slice(5u32).partition_s(&ta);            // thread (1, 1)
    /// assert_eq!(unsafe { [*p.at(0).ptr(), *p.at(1).ptr(), *p.at(3).ptr()] }, [9, 13, 29]); // (1,1), (5,1), (5,3)
    /// ```
    #[inline(always)]
    pub fn at(&self, v: usize) -> <E as Advance<L::Off>>::Output
    where
        E: Advance<L::Off>,
    {
        let t = Self::TAB;
        let d = (t.dm[v] as i32, t.dn[v] as i32);
        self.engine
            .advance(self.layout.eval_at((self.mt, self.nt), d))
    }
    /// The engine at a static value index; an index outside the partition fails to compile.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(UniversalCopy::<u8>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// let p = tc.get_slice(5u32).partition_s(&make_identity_tensor((_8, _4)));  // 4 values
    /// assert_eq!(p.get(_2).0.to_string_cute(), "(1,3)");     // p.get(_4) would not compile
    /// ```
    #[inline(always)]
    pub fn get<I: StaticInt>(&self, _: I) -> <E as Advance<L::Off>>::Output
    where
        E: Advance<L::Off>,
    {
        const {
            if I::VALUE < 0 || I::VALUE as usize >= Self::TAB.nv {
                crate::Error::with2(
                    "partition index {} is outside the {} values of the thread's partition",
                    I::VALUE,
                    Self::TAB.nv as i64,
                )
                .panic()
            }
        };
        self.at(I::VALUE as usize)
    }
    /// The predicate of each atom of an identity-tensor partition: `elem_less(coord, shape)` of
    /// the atom's first element (CuTe's `tApA(i) = elem_less(tAcA(i), shape)`), as a register
    /// fragment with one flag per atom.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let tc = make_tiled_copy(UniversalCopy::<u8>::new(), layout!((_4, _2):(_1, _4)), layout!((_1, _1):(_0, _0)));
    /// let p = tc.get_slice(5u32).partition_s(&make_identity_tensor((_8, _4))); // (1,1) (5,1) (1,3) (5,3)
    /// let pred = p.predicate((6i32, 3i32));                   // a 6 x 3 matrix: column 3 is outside
    /// assert_eq!([pred.get(0), pred.get(1), pred.get(2), pred.get(3)], [true, true, false, false]);
    /// ```
    #[inline(always)]
    pub fn predicate<B: Copy>(&self, bounds: B) -> Predicate<Self>
    where
        E: Advance<L::Off>,
        <E as Advance<L::Off>>::Output: CountingEngine,
        <<E as Advance<L::Off>>::Output as CountingEngine>::Coord: ElemLess<B>,
    {
        let mut bits = 0u64;
        let t = Self::TAB;
        let mut a = 0;
        while a < t.nv / t.atom {
            if self.at(a * t.atom).coord().elem_less(bounds) {
                bits |= 1 << a;
            }
            a += 1;
        }
        Predicate {
            bits,
            _p: PhantomData,
        }
    }
    /// The predicate of each *element* of an identity-tensor partition against `bounds`, for
    /// [`copy_if`] at the edges of a matrix whose contiguous extent need not be a multiple of
    /// the vector width: an atom whose elements all lie inside is copied whole (one vector
    /// instruction), an atom that straddles the bounds element by element (only the elements
    /// inside), an atom outside not at all. Nothing outside `bounds` is read or written.
    /// (CuTe's `copy_if` takes one predicate per atom, as [`ThrPartition::predicate`]; this is
    /// the element-wise `copy_if(pred, src, dst)` fallback for the partial vectors.) The
    /// coordinates are computed where `copy_if` tests them, so nothing is stored per element.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let (m, n) = (2i32, 6i32);                                   // 2 x 6, row-major
    /// let mut a: Vec<u32> = (0..12).collect();
    /// let mut b = vec![0u32; 12];
    /// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((m, n):(n, _1)));
    /// let tb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((m, n):(n, _1)));
    /// let id = make_identity_tensor((m, n));
    /// let tc = make_tiled_copy(Copy128::<u32>::new(), layout!((_2, _2):(_2, _1)), layout!((_1, _4):(_0, _1)));
    /// let (ga, gb, gc) = (ta.local_tile((_2, _8), (0i32, 0i32)), tb.local_tile((_2, _8), (0i32, 0i32)), id.local_tile((_2, _8), (0i32, 0i32)));
    /// for t in 0..4u32 {
    ///     let thr = tc.get_slice(t);
    ///     let pred = thr.partition_s(&gc).elem_predicate((m, n)); // columns 4, 5 of 4..8 inside
    ///     copy_if(&tc, &pred, &thr.partition_s(&ga), &thr.partition_d(&gb));
    /// }
    /// assert_eq!(a, b);
    /// ```
    #[inline(always)]
    pub fn elem_predicate<B: Copy>(&self, bounds: B) -> ElemPredicate<Self, B>
    where
        E: Advance<L::Off>,
        <E as Advance<L::Off>>::Output: CountingEngine,
        <<E as Advance<L::Off>>::Output as CountingEngine>::Coord: ElemLess<B>,
    {
        ElemPredicate {
            part: *self,
            bounds,
        }
    }
}

/// An identity-tensor engine: gives the coordinate.
pub trait CountingEngine {
    /// The coordinate type.
    type Coord: Copy;
    /// The coordinate.
    fn coord(self) -> Self::Coord;
}
impl<O: Copy> CountingEngine for Counting<O> {
    type Coord = O;
    #[inline(always)]
    fn coord(self) -> O {
        self.0
    }
}

/// One predicate flag per atom of a partition (at most 64 atoms), as a register mask.
pub struct Predicate<P> {
    bits: u64,
    _p: PhantomData<P>,
}
impl<P> Clone for Predicate<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for Predicate<P> {}
impl<P> Predicate<P> {
    /// Whether atom `a` is on.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// // 4 threads, one row each, two 4-element vectors per row
    /// let tc = make_tiled_copy(Copy128::<u32>::new(), layout!((_4, _1):(_1, _0)), layout!((_1, _4):(_0, _1)));
    /// let c = make_identity_tensor((_4, _8));
    /// let (q0, q3) = (tc.get_slice(0u32).partition_s(&c).predicate((3i32, 4i32)),
    ///                 tc.get_slice(3u32).partition_s(&c).predicate((3i32, 4i32)));
    /// assert_eq!((q0.get(0), q0.get(1)), (true, false));     // row 0: columns 0..4 in, 4..8 out
    /// assert_eq!((q3.get(0), q3.get(1)), (false, false));    // row 3 is outside
    /// ```
    #[inline(always)]
    pub fn get(&self, a: usize) -> bool {
        self.bits >> a & 1 != 0
    }
}

/// An element-wise predicate (see [`ThrPartition::elem_predicate`]): an identity-tensor
/// partition and the bounds its coordinates are tested against.
pub struct ElemPredicate<P, B> {
    part: P,
    bounds: B,
}
impl<P: Copy, B: Copy> Clone for ElemPredicate<P, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: Copy, B: Copy> Copy for ElemPredicate<P, B> {}

/// What [`copy_if`] asks a predicate: whether the atom of values `v .. v + atom` is copied
/// whole, and (for predicates with [`CopyPredicate::PARTIAL`]) whether value `v` alone is.
pub trait CopyPredicate {
    /// Whether an atom that is not whole may be copied element by element.
    const PARTIAL: bool;
    /// Whether atom `a` (values `v .. v + atom`) is copied with one atom instruction.
    fn whole(&self, a: usize, v: usize, atom: usize) -> bool;
    /// Whether value `v` is copied (asked only for atoms that are not whole).
    fn elem(&self, v: usize) -> bool;
}
impl<P> CopyPredicate for Predicate<P> {
    const PARTIAL: bool = false;
    #[inline(always)]
    fn whole(&self, a: usize, _: usize, _: usize) -> bool {
        self.get(a)
    }
    #[inline(always)]
    fn elem(&self, _: usize) -> bool {
        false
    }
}
impl<E, L, A, Thr, Val, B> CopyPredicate for ElemPredicate<ThrPartition<E, L, A, Thr, Val>, B>
where
    E: Copy + Advance<L::Off>,
    <E as Advance<L::Off>>::Output: CountingEngine,
    <<E as Advance<L::Off>>::Output as CountingEngine>::Coord: ElemLess<B>,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    B: Copy,
{
    const PARTIAL: bool = true;
    /// The first and the last element inside (the atom's elements are contiguous along one
    /// mode, so every element between is inside too).
    #[inline(always)]
    fn whole(&self, _: usize, v: usize, atom: usize) -> bool {
        self.elem(v) & self.elem(v + atom - 1)
    }
    #[inline(always)]
    fn elem(&self, v: usize) -> bool {
        self.part.at(v).coord().elem_less(self.bounds)
    }
}
/// The predicate of [`copy`]: every atom whole.
struct Always;
impl CopyPredicate for Always {
    const PARTIAL: bool = false;
    #[inline(always)]
    fn whole(&self, _: usize, _: usize, _: usize) -> bool {
        true
    }
    #[inline(always)]
    fn elem(&self, _: usize) -> bool {
        false
    }
}

/// Pointer engines that a copy atom can read and write.
pub trait CopyEngine<T>: PtrEngine<Value = T> {}
impl<T, E: PtrEngine<Value = T>> CopyEngine<T> for E {}

/// Calls `f(0)`, ..., `f(n - 1)` as straight-line code (`n` a constant after inlining, at most
/// 64), so that every `f(i)` sees a literal `i`.
///
/// ```
/// use layout_types::cute::atom::copy::unroll;
/// let mut sum = 0;
/// unroll(5, |i| sum += i);
/// assert_eq!(sum, 10);
/// ```
#[inline(always)]
pub fn unroll<F: FnMut(usize)>(n: usize, mut f: F) {
    macro_rules! seq {
        ($($i:literal)*) => { $( if $i < n { f($i) } )* };
    }
    assert!(n <= 64, "unroll: at most 64 iterations");
    seq!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
         32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
}

/// `f(0)`, ..., `f(N - 1)` as straight-line code; see [`unroll_const!`].
///
/// ```
/// use layout_types::cute::atom::copy::unroll_n;
/// let mut v = [0usize; 4];
/// unroll_n::<3, _>(|i| v[i] = i * i);
/// assert_eq!(v, [0, 1, 4, 0]);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn unroll_n<const N: usize, F: FnMut(usize)>(mut f: F) {
    macro_rules! seq {
        ($($i:literal)*) => { $( if const { $i < N } { f($i) } )* };
    }
    seq!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
         32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
}

/// Gives a closure its `FnMut(usize)` signature (and keeps an `#[inline(always)]` on it in
/// argument position).
///
/// ```
/// use layout_types::cute::atom::copy::{unroll_body, unroll_n};
/// let mut sum = 0;
/// unroll_n::<4, _>(unroll_body(|i| sum += i));
/// assert_eq!(sum, 6);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn unroll_body<F: FnMut(usize)>(f: F) -> F {
    f
}

/// `f(0)`, ..., `f(n - 1)` as a loop (counts above 64).
///
/// ```
/// use layout_types::cute::atom::copy::unroll_loop;
/// let mut sum = 0;
/// unroll_loop(100, |i| sum += i);
/// assert_eq!(sum, 4950);
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn unroll_loop<F: FnMut(usize)>(n: usize, mut f: F) {
    let mut i = 0;
    while i < n {
        f(i);
        i += 1;
    }
}

/// `unroll_const!(N, f)`: `f(0)`, ..., `f(N - 1)` as straight-line code for a constant
/// expression `N` (it may use the caller's generic parameters; at most 64, a loop above).
/// `match const { N }` picks `unroll_n::<N>` after monomorphization and `unroll_n` guards its
/// slots with `if const { i < N }`, so LLVM sees exactly the `N` calls that run (an
/// `#[inline(always)]` closure is then inlined into each, whatever its size), as
/// `device::unroll!` does for the kernels.
macro_rules! unroll_const {
    ($n:expr, $f:expr) => {
        unroll_const!(@arms $n, $f; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
            25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53
            54 55 56 57 58 59 60 61 62 63 64)
    };
    (@arms $n:expr, $f:expr; $($k:literal)*) => {{
        let f = $crate::cute::atom::copy::unroll_body($f);
        match const { $n } {
            0 => {}
            $( $k => $crate::cute::atom::copy::unroll_n::<$k, _>(f), )*
            _ => $crate::cute::atom::copy::unroll_loop(const { $n }, f),
        }
    }};
}
pub(crate) use unroll_const;

/// Whether atom `A` can copy between these spaces: a 32-bit shared address
/// ([`Space::SmemAddr`]) on either side only if the atom declares [`CopyAtom::SMEM_ADDR`] (the
/// rule `copy` and `copy_with` check at compile time).
pub(crate) const fn atom_takes_spaces<A: CopyAtom>(src: Space, dst: Space) -> bool {
    !(matches!(src, Space::SmemAddr) || matches!(dst, Space::SmemAddr)) || A::SMEM_ADDR
}

/// Copies one atom.
#[inline(always)]
unsafe fn copy_atom<A: CopyAtom>(src_space: Space, src: *mut u8, dst_space: Space, dst: *mut u8) {
    unsafe {
        match A::OP {
            CopyOp::Element => (dst as *mut A::T).write((src as *const A::T).read()),
            CopyOp::Vec128 => store16(dst_space, dst, load16(src_space, src)),
            CopyOp::CpAsync16 => device::cp_async::cp_async_cg_16_generic(src, dst),
            CopyOp::BulkS2G(bytes) => device::tma::bulk_s2g(src, dst, bytes as u32),
        }
    }
}

/// The 128-bit load of [`CopyOp::Vec128`] from memory space `space`: the architecture layer's
/// instruction for that space (CuTe's `UniversalCopy<uint128_t>` on a `gmem_ptr` / `smem_ptr`).
///
/// # Safety
/// `p` is 16-byte aligned and valid for 16 bytes in that space.
#[inline(always)]
unsafe fn load16(space: Space, p: *const u8) -> U32x4 {
    unsafe {
        match space {
            Space::Gmem => device::vec::ld_global_v4_u32_generic(p),
            Space::Smem => device::vec::ld_shared_v4_u32_generic(p),
            Space::Reg => (p as *const U32x4).read_unaligned(),
            // refused at compile time by `copy` (`CopyAtom::SMEM_ADDR`)
            Space::SmemAddr => unreachable!("a 32-bit shared address needs its own atom"),
        }
    }
}

/// The 128-bit store of [`CopyOp::Vec128`] to memory space `space`.
///
/// # Safety
/// `p` is 16-byte aligned and valid for 16 bytes in that space.
#[inline(always)]
unsafe fn store16(space: Space, p: *mut u8, v: U32x4) {
    unsafe {
        match space {
            Space::Gmem => device::vec::st_global_v4_u32_generic(p, v),
            Space::Smem => device::vec::st_shared_v4_u32_generic(p, v),
            Space::Reg => (p as *mut U32x4).write_unaligned(v),
            // refused at compile time by `copy` (`CopyAtom::SMEM_ADDR`)
            Space::SmemAddr => unreachable!("a 32-bit shared address needs its own atom"),
        }
    }
}

/// Checks (at compile time) what a copy between two partitions needs: the same number of
/// values, vector atoms along a mode whose stride is the static `_1` in both tiles, and
/// `cp.async` only from global to shared memory.
struct CopyCheck<A, SA, SB, DA, DB, const NS: usize, const ND: usize>(
    PhantomData<(A, SA, SB, DA, DB)>,
);

/// `copy(tiled_copy, src, dst)`: every value of the thread's source partition to its destination
/// partition, one atom at a time.
///
/// # Safety
/// Every element of both partitions must be valid memory (no predicate: see [`copy_if`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut a: Vec<u32> = (0..64).collect();
/// let mut b = vec![0u32; 64];
/// let tc = make_tiled_copy(Copy128::<u32>::new(), layout!((_2, _4):(_4, _1)), layout!((_1, _4):(_0, _1)));
/// let sa = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_4, _16):(_16, _1)));
/// let sb = make_tensor(make_smem_ptr(b.as_mut_ptr()), layout!((_4, _16):(_16, _1)));
/// for t in 0..8u32 {
///     let thr = tc.get_slice(t);
///     unsafe { copy(&tc, &thr.partition_s(&sa), &thr.partition_d(&sb)) };
/// }
/// assert_eq!(a, b);
/// ```
///
/// The `ldmatrix` TiledCopies of a TiledMMA (`cute::atom::mma::make_tiled_copy_a` ...) copy their
/// thread slices with the same `copy` (see [`TiledCopyApply`]).
#[inline(always)]
pub unsafe fn copy<TC: TiledCopyApply<SP, DP>, SP, DP>(tc: &TC, src: &SP, dst: &DP) {
    unsafe { tc.apply(src, dst) }
}

/// A TiledCopy that [`copy`] can run on a thread's source and destination partitions `SP`, `DP`
/// (the partitions must come from this TiledCopy).
pub trait TiledCopyApply<SP, DP> {
    /// Copies every value of `src` to `dst`.
    ///
    /// # Safety
    /// As [`copy`]: every element of both partitions is valid memory.
    unsafe fn apply(&self, src: &SP, dst: &DP);
}
impl<A, Thr, Val, SP, DP> TiledCopyApply<SP, DP> for TiledCopy<A, Thr, Val>
where
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    SP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
    DP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
{
    #[inline(always)]
    unsafe fn apply(&self, src: &SP, dst: &DP) {
        let tc = self;
        unsafe { copy_pred(tc, &Always, src, dst) }
    }
}

/// `copy_if(tiled_copy, pred, src, dst)`: [`copy`] of the atoms whose predicate is on.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut a: Vec<u16> = (0..24).collect();
/// let mut b = vec![0u16; 24];
/// let (m, n) = (3i32, 8i32);                                   // a 3 x 8 matrix, column-major
/// let ta = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((m, n):(_1, m)));
/// let tb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((m, n):(_1, m)));
/// let tc = make_tiled_copy(UniversalCopy::<u16>::new(), layout!((_4, _4):(_1, _4)), layout!((_1, _2):(_0, _1)));
/// let id = make_identity_tensor((m, n));
/// let (ga, gb, gc) = (ta.local_tile((_4, _8), (0i32, 0i32)), tb.local_tile((_4, _8), (0i32, 0i32)), id.local_tile((_4, _8), (0i32, 0i32)));
/// for t in 0..16u32 {
///     let thr = tc.get_slice(t);
///     let pred = thr.partition_s(&gc).predicate((m, n));        // row 3 is outside
///     copy_if(&tc, &pred, &thr.partition_s(&ga), &thr.partition_d(&gb));
/// }
/// assert_eq!(a, b);
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn copy_if<A, Thr, Val, Pr, SP, DP>(tc: &TiledCopy<A, Thr, Val>, pred: &Pr, src: &SP, dst: &DP)
where
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    Pr: CopyPredicate,
    SP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
    DP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
{
    // SAFETY: the predicate keeps the accesses inside the tensors (the caller built it from the
    // bounds of the identity tensor partitioned like the data).
    unsafe { copy_pred(tc, pred, src, dst) }
}

/// A partition made by (a thread slice of) the TiledCopy `(A, Thr, Val)`: [`copy`] takes only
/// partitions of the TiledCopy it is given.
pub trait PartitionOf<A, Thr, Val> {}
impl<E, L, A, Thr, Val> PartitionOf<A, Thr, Val> for ThrPartition<E, L, A, Thr, Val> {}
impl<T, E, L, A, Thr, Val> PartitionOf<A, Thr, Val>
    for FragmentPartition<T, ThrPartition<E, L, A, Thr, Val>>
{
}

/// A partition over a pointer engine (what [`copy`] reads and writes).
pub trait PtrPartition<T> {
    /// Values per thread.
    const NV: usize;
    /// The memory space.
    const SPACE: Space;
    /// Whether mode `j` of the tile has the static stride `_1`.
    const UNIT: [bool; 2];
    /// The tile's swizzle base bits (31 when unswizzled).
    const SWIZZLE_BASE: u32;
    /// The tables.
    const TAB: CopyTables;
    /// The element pointer of value `v`.
    fn ptr(&self, v: usize) -> *mut u8;
}
impl<T, E, L, A, Thr, Val> PtrPartition<T> for ThrPartition<E, L, A, Thr, Val>
where
    E: PtrEngine<Value = T> + Advance<L::Off>,
    <E as Advance<L::Off>>::Output: PtrEngine + Advance<L::Off>,
    <<E as Advance<L::Off>>::Output as Advance<L::Off>>::Output: PtrEngine,
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
{
    const NV: usize = Tables::<A, Thr, Val, L::M, L::N>::T.nv;
    const SPACE: Space = E::SPACE;
    const UNIT: [bool; 2] = L::UNIT;
    const SWIZZLE_BASE: u32 = L::SWIZZLE_BASE;
    const TAB: CopyTables = Tables::<A, Thr, Val, L::M, L::N>::T;
    #[inline(always)]
    /// For a linear tile (a plain layout), `tile(thread) + tile(value)`: the thread's part is
    /// common to all its values (computed once), the value's a constant times the strides.
    fn ptr(&self, v: usize) -> *mut u8 {
        if L::LINEAR {
            let t = const { &Tables::<A, Thr, Val, L::M, L::N>::T };
            let base = self.engine.advance(self.layout.eval((self.mt, self.nt)));
            let d = self.layout.eval((t.dm[v] as i32, t.dn[v] as i32));
            base.advance(d).ptr() as *mut u8
        } else {
            self.at(v).ptr() as *mut u8
        }
    }
}

impl<A: CopyAtom, SP: PtrPartition<A::T>, DP: PtrPartition<A::T>>
    CopyCheck<A, SP, DP, (), (), 0, 0>
{
    const OK: () = {
        if SP::NV != DP::NV {
            fail2(
                "copy: the source partition has {} values per thread but the destination has {}; source and destination tiles must have the same static size",
                SP::NV as i64,
                DP::NV as i64,
            );
        }
        let t = SP::TAB;
        if t.atom > 1 {
            let j = t.vec_mode as usize;
            let a = t.atom as i64;
            if (SP::SWIZZLE_BASE < 31 && a > 1i64 << SP::SWIZZLE_BASE)
                || (DP::SWIZZLE_BASE < 31 && a > 1i64 << DP::SWIZZLE_BASE)
            {
                fail2(
                    "copy: a vector atom of {} elements crosses the swizzle's unchanged low {} bits",
                    a,
                    if SP::SWIZZLE_BASE < DP::SWIZZLE_BASE {
                        SP::SWIZZLE_BASE as i64
                    } else {
                        DP::SWIZZLE_BASE as i64
                    },
                );
            }
            if !SP::UNIT[j] || !DP::UNIT[j] {
                fail2(
                    "copy: a vector atom of {} elements runs along mode {} of the tile, whose stride must be the static _1 in both source and destination",
                    t.atom as i64,
                    j as i64,
                );
            }
        }
        if !atom_takes_spaces::<A>(SP::SPACE, DP::SPACE) {
            fail2(
                "copy: a partition's engine is a 32-bit shared address (Space::SmemAddr), which this atom ({} elements, {} atoms) does not take; use an atom that declares CopyAtom::SMEM_ADDR",
                t.atom as i64,
                (t.nv / t.atom) as i64,
            );
        }
        if let CopyOp::BulkS2G(bytes) = A::OP {
            if !(matches!(SP::SPACE, Space::Smem) && matches!(DP::SPACE, Space::Gmem)) {
                fail2(
                    "copy: cp.async.bulk (BulkCopyS2G) copies from shared to global memory only (atom of {} elements, {} atoms)",
                    t.atom as i64,
                    (t.nv / t.atom) as i64,
                );
            }
            if bytes < 16 || bytes % 16 != 0 {
                fail2(
                    "copy: a cp.async.bulk copy moves a multiple of 16 bytes, not {} ({} elements)",
                    bytes,
                    t.atom as i64,
                );
            }
        }
        if matches!(A::OP, CopyOp::CpAsync16)
            && !(matches!(SP::SPACE, Space::Gmem) && matches!(DP::SPACE, Space::Smem))
        {
            fail2(
                "copy: cp.async copies from global to shared memory only (atom of {} elements, {} atoms)",
                t.atom as i64,
                (t.nv / t.atom) as i64,
            );
        }
    };
}

/// The copy loop: each atom whole where `pred` says so, else (for a partial predicate)
/// element by element where it says so.
#[inline(always)]
unsafe fn copy_pred<A, Thr, Val, Pr, SP, DP>(
    _: &TiledCopy<A, Thr, Val>,
    pred: &Pr,
    src: &SP,
    dst: &DP,
) where
    A: CopyAtom,
    Pr: CopyPredicate,
    SP: PtrPartition<A::T>,
    DP: PtrPartition<A::T>,
{
    #[allow(clippy::let_unit_value)]
    let () = CopyCheck::<A, SP, DP, (), (), 0, 0>::OK;
    let atom = const { SP::TAB.atom };
    const {
        // the element-wise fallback below reads and writes through generic pointers
        if Pr::PARTIAL
            && SP::TAB.atom > 1
            && (matches!(SP::SPACE, Space::SmemAddr) || matches!(DP::SPACE, Space::SmemAddr))
        {
            fail2(
                "copy_if: an element-wise predicate splits vectors of {} elements into plain accesses, which a 32-bit shared address (Space::SmemAddr, {} atoms) cannot take",
                SP::TAB.atom as i64,
                (SP::TAB.nv / SP::TAB.atom) as i64,
            );
        }
    };
    unroll_const!(
        SP::TAB.nv / SP::TAB.atom,
        #[inline(always)]
        |a: usize| {
            let v = a * atom;
            if pred.whole(a, v, atom) {
                unsafe { A::call(SP::SPACE, src.ptr(v), DP::SPACE, dst.ptr(v)) };
            } else if Pr::PARTIAL && atom > 1 {
                // The atom's elements are contiguous in both partitions (checked by `CopyCheck`):
                // element `j` is `j` past the atom's first.
                let (s, d) = (src.ptr(v) as *const A::T, dst.ptr(v) as *mut A::T);
                unroll_const!(
                    SP::TAB.atom,
                    #[inline(always)]
                    |j: usize| {
                        if pred.elem(v + j) {
                            unsafe { d.wrapping_add(j).write(s.wrapping_add(j).read()) };
                        }
                    }
                );
            }
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Register fragments of a partition
// ---------------------------------------------------------------------------------------------

/// The static number of values of a thread's partition of an `(M, N)` tile by a TiledCopy with
/// thread layout `Thr` and value layout `Val` (rank 2): `size(Val) · (M / TM) · (N / TN)`, where
/// `(TM, TN) = (size<0>(Thr) · size<0>(Val), size<1>(Thr) · size<1>(Val))` is the copy's tiler.
pub trait PartitionSize {
    /// The number of values, as an array length.
    type Len: generic_array::ArrayLength;
}
/// `size<I>(layout)` of a rank-2 static layout, as a type.
pub type ModeSize<L, const I: usize> = <<<L as HasShape2>::S as Get<I>>::Output as Product>::Output;
/// The shape of a layout (for [`ModeSize`]).
pub trait HasShape2 {
    /// The shape.
    type S;
}
impl<S, D> HasShape2 for Layout<S, D> {
    type S = S;
}
/// The copy's tiler extent along mode `I`.
pub type TilerExtent<Thr, Val, const I: usize> = Prod<ModeSize<Thr, I>, ModeSize<Val, I>>;
/// The number of values of the partition.
pub type PartitionValues<Thr, Val, M, N> = Prod<
    <<Val as HasShape2>::S as Product>::Output,
    Prod<Quot<M, TilerExtent<Thr, Val, 0>>, Quot<N, TilerExtent<Thr, Val, 1>>>,
>;
impl<E, L, A, Thr, Val> PartitionSize for ThrPartition<E, L, A, Thr, Val>
where
    L: TileLayout,
    Thr: HasShape2,
    Val: HasShape2,
    Thr::S: Get<0> + Get<1>,
    Val::S: Get<0> + Get<1> + Product,
    <Thr::S as Get<0>>::Output: Product,
    <Thr::S as Get<1>>::Output: Product,
    <Val::S as Get<0>>::Output: Product,
    <Val::S as Get<1>>::Output: Product,
    ModeSize<Thr, 0>: IntMul<ModeSize<Val, 0>>,
    ModeSize<Thr, 1>: IntMul<ModeSize<Val, 1>>,
    L::M: IntDiv<TilerExtent<Thr, Val, 0>>,
    L::N: IntDiv<TilerExtent<Thr, Val, 1>>,
    Quot<L::M, TilerExtent<Thr, Val, 0>>: IntMul<Quot<L::N, TilerExtent<Thr, Val, 1>>>,
    <Val::S as Product>::Output:
        IntMul<Prod<Quot<L::M, TilerExtent<Thr, Val, 0>>, Quot<L::N, TilerExtent<Thr, Val, 1>>>>,
    PartitionValues<Thr, Val, L::M, L::N>: StaticInt,
    <PartitionValues<Thr, Val, L::M, L::N> as StaticInt>::N: ToLen,
    LenOf<PartitionValues<Thr, Val, L::M, L::N>>: generic_array::ArrayLength,
{
    type Len = LenOf<PartitionValues<Thr, Val, L::M, L::N>>;
}

/// A register fragment with one value per element of a thread's partition (CuTe's
/// `make_fragment_like(tAgA)`), in the partition's value order: a [`copy`] source or destination
/// beside the partition it was made from (atom by atom, so 128-bit atoms stay whole).
pub struct PartitionFragment<T, P: PartitionSize> {
    /// The values, in the partition's order.
    pub data: generic_array::GenericArray<T, P::Len>,
    /// The partition whose tables order the values.
    pub tab: PhantomData<P>,
}

/// `make_fragment_like<T>(partition)`: a register fragment sized by the partition's static size.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let mut g: Vec<f32> = (0..64).map(|x| x as f32).collect();
/// let a = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_8, _8):(_1, _8)));
/// let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_2, _8):(_1, _2)), layout!((_4, _1):(_1, _0)));
/// let thr = tc.get_slice(3u32);                                 // thread (1, 1)
/// let src = thr.partition_s(&a);
/// let mut frag = make_fragment_like_partition::<f32, _>(&src);
/// assert_eq!(frag.data.len(), 4);
/// unsafe { copy(&tc, &src, &frag.partition()) };                // gmem -> registers
/// assert_eq!(&frag.data[..], &[12.0, 13.0, 14.0, 15.0]);       // rows 4..8 of column 1
/// ```
#[inline(always)]
pub fn make_fragment_like_partition<T: Copy + Default, P: PartitionSize>(
    _: &P,
) -> PartitionFragment<T, P> {
    PartitionFragment {
        data: generic_array::GenericArray::default(),
        tab: PhantomData,
    }
}

/// A [`PartitionFragment`] viewed as a copy partition (registers, values in order).
pub struct FragmentPartition<T, P> {
    base: *mut T,
    _p: PhantomData<P>,
}
impl<T, P: PartitionSize> PartitionFragment<T, P> {
    /// The fragment as a copy source or destination.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut g = vec![0f32; 64];
    /// let a = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_8, _8):(_1, _8)));
    /// let tc = make_tiled_copy(Copy128::<f32>::new(), layout!((_2, _8):(_1, _2)), layout!((_4, _1):(_1, _0)));
    /// let dst = tc.get_slice(3u32).partition_d(&a);             // thread (1, 1): rows 4..8 of column 1
    /// let mut frag = make_fragment_like_partition::<f32, _>(&dst);
    /// frag.data.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
    /// unsafe { copy(&tc, &frag.partition(), &dst) };            // registers -> gmem
    /// assert_eq!(&g[12..16], &[1.0, 2.0, 3.0, 4.0]);
    /// ```
    #[inline(always)]
    pub fn partition(&mut self) -> FragmentPartition<T, P> {
        FragmentPartition {
            base: self.data.as_mut_ptr(),
            _p: PhantomData,
        }
    }
}
impl<T, E, L, A, Thr, Val> PtrPartition<T> for FragmentPartition<T, ThrPartition<E, L, A, Thr, Val>>
where
    L: TileLayout,
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    ThrPartition<E, L, A, Thr, Val>: PartitionSize,
{
    const NV: usize = Tables::<A, Thr, Val, L::M, L::N>::T.nv;
    const SPACE: Space = Space::Reg;
    const UNIT: [bool; 2] = [true, true];
    const SWIZZLE_BASE: u32 = 31;
    const TAB: CopyTables = Tables::<A, Thr, Val, L::M, L::N>::T;
    #[inline(always)]
    fn ptr(&self, v: usize) -> *mut u8 {
        self.base.wrapping_add(v) as *mut u8
    }
}

impl<A2: CopyAtom, Thr: StaticLayoutValue, Val: StaticLayoutValue> ThrCopy<A2, Thr, Val> {
    /// `thr_copy.retile_S(fragment)`: a register fragment made from a partition of *another*
    /// TiledCopy with the same thread and value layouts (another atom) as a source of this one,
    /// e.g. values read from shared memory element by element (`UniversalCopy`) and written to
    /// global memory as 128-bit vectors (`Copy128`). The values keep their order (a TV layout's
    /// value order does not depend on the atom); this copy's atom checks the vectors.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut s: Vec<f32> = (0..64).map(|x| x as f32).collect();          // 8 x 8, row-major
    /// let mut d = vec![0f32; 64];
    /// let s_t = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_8, _8):(_1, _8))); // its transpose
    /// let g = make_tensor(make_gmem_ptr(d.as_mut_ptr()), layout!((_8, _8):(_8, _1)));
    /// let (thr, val) = (layout!((_8, _2):(_2, _1)), layout!((_1, _4):(_0, _1)));
    /// let s2r = make_tiled_copy(UniversalCopy::<f32>::new(), thr, val);  // column reads
    /// let r2g = make_tiled_copy(Copy128::<f32>::new(), thr, val);        // 128-bit row writes
    /// for t in 0..16u32 {
    ///     let ts = s2r.get_slice(t).partition_s(&s_t);
    ///     let mut frag = make_fragment_like_partition::<f32, _>(&ts);
    ///     unsafe { copy(&s2r, &ts, &frag.partition()) };
    ///     let thr_g = r2g.get_slice(t);
    ///     unsafe { copy(&r2g, &thr_g.retile_s(&mut frag), &thr_g.partition_d(&g)) };
    /// }
    /// let (d_rm, s_rm) = (layout!((_8, _8):(_8, _1)), layout!((_8, _8):(_8, _1)));
    /// assert!((0..8i32).all(|i| (0..8i32).all(|j| d[d_rm.crd2idx((i, j)) as usize] == s[s_rm.crd2idx((j, i)) as usize])));
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn retile_s<T, E, L, A>(
        &self,
        frag: &mut PartitionFragment<T, ThrPartition<E, L, A, Thr, Val>>,
    ) -> FragmentPartition<T, ThrPartition<E, L, A2, Thr, Val>>
    where
        ThrPartition<E, L, A, Thr, Val>: PartitionSize,
    {
        FragmentPartition {
            base: frag.data.as_mut_ptr(),
            _p: PhantomData,
        }
    }
    /// `thr_copy.retile_D(fragment)`: [`ThrCopy::retile_s`] for a destination.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let mut g: Vec<f32> = (0..64).map(|x| x as f32).collect();          // 8 x 8, row-major
    /// let mut s = vec![0f32; 64];
    /// let tg = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_8, _8):(_8, _1)));
    /// let s_t = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_8, _8):(_1, _8))); // its transpose
    /// let (thr, val) = (layout!((_8, _2):(_2, _1)), layout!((_1, _4):(_0, _1)));
    /// let g2r = make_tiled_copy(Copy128::<f32>::new(), thr, val);        // 128-bit row reads
    /// let r2s = make_tiled_copy(UniversalCopy::<f32>::new(), thr, val);  // column writes
    /// for t in 0..16u32 {
    ///     let ts = r2s.get_slice(t).partition_d(&s_t);
    ///     let mut frag = make_fragment_like_partition::<f32, _>(&ts);
    ///     let thr_g = g2r.get_slice(t);
    ///     unsafe { copy(&g2r, &thr_g.partition_s(&tg), &thr_g.retile_d(&mut frag)) };
    ///     unsafe { copy(&r2s, &frag.partition(), &ts) };
    /// }
    /// assert!((0..64).all(|i| s[i] == g[(i % 8) * 8 + i / 8]));
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn retile_d<T, E, L, A>(
        &self,
        frag: &mut PartitionFragment<T, ThrPartition<E, L, A, Thr, Val>>,
    ) -> FragmentPartition<T, ThrPartition<E, L, A2, Thr, Val>>
    where
        ThrPartition<E, L, A, Thr, Val>: PartitionSize,
    {
        self.retile_s(frag)
    }
}

// ---------------------------------------------------------------------------------------------
// make_layout_tv: the TiledCopy's TV layout and tiler as typed layouts
// ---------------------------------------------------------------------------------------------

/// `raked_product(self, b)` as a trait, so that [`make_tiled_copy_tv`] can name its result.
pub trait RakedProductWith<B> {
    /// The product.
    type Output: Copy;
    /// The product.
    fn raked_product_with(self, b: B) -> Self::Output;
}
impl<SA, DA, SB, DB> RakedProductWith<Layout<SB, DB>> for Layout<SA, DA>
where
    SA: IntTuple,
    DA: IntTuple,
    SB: IntTuple,
    DB: IntTuple,
    Layout<SA, DA>: crate::cute::product::PaddedProduct<Layout<SB, DB>>,
    <Layout<SA, DA> as crate::cute::product::PaddedProduct<Layout<SB, DB>>>::A:
        crate::cute::layout::LayoutParts,
    crate::cute::product::RestS<Layout<SA, DA>, Layout<SB, DB>>:
        crate::cute::product::ZipWith<crate::cute::product::PadS<Layout<SA, DA>, Layout<SB, DB>>>,
    crate::cute::product::RestD<Layout<SA, DA>, Layout<SB, DB>>:
        crate::cute::product::ZipWith<crate::cute::product::PadD<Layout<SA, DA>, Layout<SB, DB>>>,
    crate::cute::product::RakedProduct<Layout<SA, DA>, Layout<SB, DB>>: Copy,
{
    type Output = crate::cute::product::RakedProduct<Layout<SA, DA>, Layout<SB, DB>>;
    #[inline(always)]
    fn raked_product_with(self, b: Layout<SB, DB>) -> Self::Output {
        crate::cute::product::raked_product(self, b)
    }
}

/// The `(size(thr), size(val))` shape of a TV layout.
type TvShape<TS, VS> = (<TS as Product>::Output, <VS as Product>::Output);
type Mn<TS, TD, VS, VD> = <Layout<TS, TD> as RakedProductWith<Layout<VS, VD>>>::Output;
type MnShape<TS, TD, VS, VD> = <Mn<TS, TD, VS, VD> as crate::cute::layout::LayoutParts>::S;
/// The tiler of [`make_tiled_copy_tv`]: `product_each(shape(layout_mn))`, a tuple (`(_16)` for
/// a rank-1 product, as C++ CuTe prints it).
pub type TvTiler<TS, TD, VS, VD> =
    <<<MnShape<TS, TD, VS, VD> as WrapH>::H as crate::cute::divide::ProductEachH>::Output as HList>::Tuple;
type Inv<TS, TD, VS, VD> = <Mn<TS, TD, VS, VD> as RightInverseOf>::Output;
type TvCompact<TS, VS> =
    Layout<TvShape<TS, VS>, <TvShape<TS, VS> as CompactLeft<crate::cute::consts::_1>>::Stride>;

/// CuTe's `make_layout_tv(thr_layout, val_layout)` (what `make_tiled_copy(atom, thr, val)` builds
/// its TiledCopy from), as typed layouts: `layout_mn = raked_product(thr, val)`, the TV layout
/// `right_inverse(layout_mn).with_shape(size(thr), size(val))` ((thread, value) → coordinate in
/// the tile), and the tiler `product_each(shape(layout_mn))`. Returns `(tiler, layout_tv)`; for
/// static layouts both are types (zero-sized), computed by the compiler.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let (tiler, tv) = make_tiled_copy_tv(layout!((_4, _4):(_1, _4)), layout!((_4, _4, _2):(_1, _4, _16)));
/// assert_eq!(tv.to_string(), "((_4,_4),(_4,_4,_2)):((_4,_64),(_1,_16,_256))");
/// assert_eq!(tiler.to_string_cute(), "(_16,_16,_2)");
/// assert_eq!(core::mem::size_of_val(&tv), 0);
/// ```
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn make_tiled_copy_tv<TS, TD, VS, VD>(
    thr: Layout<TS, TD>,
    val: Layout<VS, VD>,
) -> (
    TvTiler<TS, TD, VS, VD>,
    <Inv<TS, TD, VS, VD> as crate::cute::product::ComposeWith<TvCompact<TS, VS>>>::Output,
)
where
    TS: Product + Copy,
    VS: Product + Copy,
    Layout<TS, TD>: RakedProductWith<Layout<VS, VD>>,
    Mn<TS, TD, VS, VD>: RightInverseOf + crate::cute::layout::LayoutParts,
    MnShape<TS, TD, VS, VD>: WrapH,
    <MnShape<TS, TD, VS, VD> as WrapH>::H: crate::cute::divide::ProductEachH,
    TvShape<TS, VS>: CompactLeft<crate::cute::consts::_1> + Copy,
    Inv<TS, TD, VS, VD>: crate::cute::product::ComposeWith<TvCompact<TS, VS>>,
{
    use crate::cute::divide::ProductEachH;
    use crate::cute::layout::LayoutParts;
    use crate::cute::product::ComposeWith;
    let tv_shape = (thr.shape.product(), val.shape.product());
    let mn = thr.raked_product_with(val);
    let tv = mn
        .right_inverse_of()
        .compose_with(make_layout_left(tv_shape));
    (mn.parts().0.wrap_h().product_each_h().into_tuple(), tv)
}

/// A tensor's element placement over a swizzled layout is [`TensorSwizzle`] of the layout's
/// offsets: in bytes for an [`SmemPtrFlag`](crate::cute::swizzle::SmemPtrFlag) middle (CuTe's `swizzle_ptr`), so a TiledCopy
/// partition of a GMMA tile stores where `wgmma` and TMA read.
impl<Sw: StaticSwizzle, L: TileLayout, O: SwizzleOffset> TileLayout for Swizzled<Sw, L, O>
where
    L::Off: SwizzleIndex,
{
    type M = L::M;
    type N = L::N;
    type Off = <L::Off as SwizzleIndex>::Output;
    const UNIT: [bool; 2] = L::UNIT;
    const SWIZZLE_BASE: u32 = <TensorSwizzle<Sw, O> as StaticSwizzle>::SW.base;
    #[inline(always)]
    fn eval(&self, c: (i32, i32)) -> Self::Off {
        self.layout.eval(c).swizzle::<TensorSwizzle<Sw, O>>()
    }
    /// A linear layout's offsets add (`L(t + d) = L(t) + L(d)`), so the swizzle's period splits
    /// off the constant part ([`SwizzleIndex::swizzle_plus`]): the copies of a thread whose
    /// offsets differ by multiples of the period get one swizzled register and immediates.
    #[inline(always)]
    fn eval_at(&self, t: (i32, i32), d: (i32, i32)) -> Self::Off {
        if L::LINEAR {
            self.layout
                .eval(t)
                .swizzle_plus::<TensorSwizzle<Sw, O>>(self.layout.eval(d))
        } else {
            self.eval((t.0 + d.0, t.1 + d.1))
        }
    }
}
