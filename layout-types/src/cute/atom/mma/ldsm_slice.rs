//! The thread slice of an `ldmatrix` TiledCopy (CuTe's `ThrCopy` of `atom/copy_atom.hpp`):
//! `get_slice(thr)`, `partition_s` of the shared-memory tile, `partition_d`, `retile_d` /
//! `retile_s` of a TiledMMA's register fragment, and [`copy`](crate::cute::atom::copy::copy), which
//! issues one `ldmatrix` per atom on `nvptx64` and emulates it on the host.
//!
//! A partition is CuTe's layout (`tidfrg_S(tensor)(thr, _, repeat<R>(_))`, computed by the value
//! algebra in a constant, [`crate::value::mma::MmaTiledCopy::partition_s`]) over the tensor's engine:
//! the thread's offset is a few shifts and masks of its index (the thread mode's static shape and
//! strides), each value's offset a constant. So the tensor's layout must be static (the
//! shared-memory tile and the register fragment of a mainloop are). A shared-memory tile may be
//! swizzled ([`LdsmTile`]: a GMMA atom tiled by `tile_to_shape`, CuTe's SM80
//! `composition(Swizzle<3,3,3>, layout)`): the offsets stay those of the layout without the
//! swizzle, and the swizzle applies to each final address, as CuTe's `swizzle_ptr` does
//! ([`ThrCopyMma::partition_s`]).
//!
//! The host emulation gives each register the element `ldmatrix` gives it: the element of the
//! source tile at the coordinate where the *destination* TV layout puts that register
//! (`tidfrg_D` of the source tile), which is what the warp-wide instruction computes from the
//! rows every lane points at (`tidfrg_S`); the tests check both against a warp model of the
//! instruction and against the TiledMMA's own `partition_a` / `partition_b`.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::atom::mma::*;
//! let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
//! let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
//! let mut smem: Vec<half_t> = (0..64 * 32).map(|i| half_t(i as u16)).collect(); // element i holds i
//! let s_a = make_tensor(make_smem_ptr(smem.as_mut_ptr()), layout!((_64, _32):(_32, _1))); // M x K, K-major
//! let c_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));
//! for t in 0..128u32 {
//!     let mut frag = mma.get_slice(t as i32).partition_fragment_a(&s_a); // (MMA, MMA_M, MMA_K)
//!     let thr = s2r.get_slice(t);
//!     let (src, dst) = (thr.partition_s(&s_a), thr.retile_d(&mut frag)); // (CPY, CPY_M, CPY_K)
//!     unsafe { copy(&s2r, &src, &dst) };
//!     // every register holds the element the MMA's partition_A expects there
//!     let want = mma.get_slice(t as i32).partition_a(&c_a);
//!     for i in 0..frag.len() {
//!         let r = frag.layout.call(i as i32) as usize; // register of element i
//!         assert_eq!(frag[r].0 as i32, want.engine.0 + want.layout.call(i as i32));
//!     }
//! }
//! ```

use super::ldsm::{CopyOperand, LdsmAtom, TiledCopyMma};
use super::tiled::TiledMmaT;
use crate::cute::atom::copy::{TiledCopyApply, unroll_const};
use crate::cute::int::Integral;
use crate::cute::layout::Layout;
use crate::cute::layout::StaticLayoutValue;
use crate::cute::swizzle::{SwizzleOffset, Swizzled};
use crate::cute::tensor::{Advance, Engine, Fragment, FragmentLayout, PtrEngine, Reg, Tensor};
use crate::value::layout::DynLayout;
use crate::value::swizzle::{DynSwizzle, StaticSwizzle};
use core::marker::PhantomData;

/// The layout of a shared-memory tile that [`ThrCopyMma::partition_s`] takes: a static
/// [`Layout`], or a swizzled one, [`Swizzled`]`<Sw, Layout, O>` (a GMMA atom tiled by
/// `tile_to_shape`, whose middle `smem_ptr_flag_bits<B>` makes the swizzle act on byte
/// addresses, or CuTe's SM80 `composition(Swizzle<B,M,S>, layout)`, built by
/// [`make_composed_layout`](crate::cute::swizzle::make_composed_layout), whose swizzle acts on
/// element offsets). The partition's offsets are constants of the unswizzled layout; a tensor
/// over a swizzled one places each element through the swizzle, as
/// [`Tensor::ptr`](crate::cute::tensor::Tensor) does
/// ([`TensorSwizzle`](crate::cute::swizzle::TensorSwizzle)).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::gmma::*;
/// use layout_types::cute::atom::mma::ldsm_slice::LdsmTile;
/// type Tile = Layout<(_64, _64), (_64, _1)>;
/// assert!(<Tile as LdsmTile>::SWIZZLE.is_none());
/// fn parts<L: LdsmTile>(_: L) -> String {
///     let (sw, flag) = L::SWIZZLE.unwrap();
///     format!("{sw} over {flag:?}-bit pointers, {}", <L::Plain as StaticLayoutValue>::LAYOUT)
/// }
/// let sw128 = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft);
/// assert_eq!(parts(sw128), "Sw<3,4,3> over Some(16)-bit pointers, ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))");
/// ```
pub trait LdsmTile: Copy {
    /// The layout without the swizzle (the partition's tables are computed from it, once for
    /// every swizzle of it).
    type Plain: StaticLayoutValue;
    /// The swizzle and, for a `smem_ptr_flag_bits<B>` middle, `Some(B)` (the swizzle acts on
    /// byte addresses); `None` for a plain layout.
    const SWIZZLE: Option<(DynSwizzle, Option<i64>)>;
}
impl<L: StaticLayoutValue> LdsmTile for L {
    type Plain = L;
    const SWIZZLE: Option<(DynSwizzle, Option<i64>)> = None;
}
impl<Sw, S, D, O> LdsmTile for Swizzled<Sw, Layout<S, D>, O>
where
    Sw: StaticSwizzle,
    O: SwizzleOffset,
    Layout<S, D>: StaticLayoutValue,
{
    type Plain = Layout<S, D>;
    const SWIZZLE: Option<(DynSwizzle, Option<i64>)> = Some((Sw::SW, O::FLAG_BITS));
}

/// The swizzle a partition of a tile applies to its ELEMENT offsets (`DynSwizzle::identity()`,
/// which moves nothing, for a plain tile), for operand elements of `bits` bits: CuTe's byte
/// swizzle of `swizzle_ptr` in element units for a `smem_ptr_flag_bits<B>` middle, the swizzle
/// itself for `_0`. `ldmatrix` reads 16 contiguous bytes per thread from the row's swizzled
/// address, so the swizzle must leave the low 16 bytes of an offset in place (CuTe's
/// `recast<uint128_t>` of the source: `upcast` of the swizzle with `NewM >= 0`).
const fn ldsm_swizzle(sw: Option<(DynSwizzle, Option<i64>)>, bits: i64) -> DynSwizzle {
    let Some((sw, flag)) = sw else {
        return DynSwizzle::identity();
    };
    if sw.bits == 0 {
        return DynSwizzle::identity();
    }
    // log2 of the bytes the swizzle keeps in place
    let kept = match flag {
        Some(_) => sw.base,
        None => sw.base + (bits / 8).trailing_zeros(),
    };
    if kept < 4 {
        crate::Error::with2(
            "partition_S of an ldmatrix TiledCopy: each thread's 16-byte row must stay contiguous under the tile's swizzle (CuTe's recast<uint128_t> of the source: upcast<uint128_t>(Swizzle<B,M,S>) needs NewM >= 0), but the swizzle keeps only the low {} bytes of an offset in place (M = {})",
            1i64 << kept,
            sw.base as i64,
        )
        .panic()
    }
    match flag {
        Some(b) => match sw.in_elements(b) {
            Ok(s) => s,
            Err(e) => e.panic(),
        },
        None => sw,
    }
}

/// The bits below a swizzle's period `2^(M + B + |S|)`, the only ones it reads and flips.
const fn swizzle_low_bits(sw: DynSwizzle) -> i32 {
    let e = sw.base + sw.bits + sw.shift.unsigned_abs();
    if e >= 31 { i32::MAX } else { (1 << e) - 1 }
}

/// `sw(x)` on a 32-bit offset (`x >= 0`): an AND, a shift and an XOR.
#[inline(always)]
const fn swizzle_i32(sw: DynSwizzle, x: i32) -> i32 {
    let y = x & sw.yyy_mask() as i32;
    x ^ if sw.shift >= 0 {
        y >> sw.shift
    } else {
        y << -sw.shift
    }
}

/// Most values of one thread's partition.
pub const MAX_SLICE_VALS: usize = 512;
/// Most leaves of the thread mode.
pub const MAX_THR_LEAVES: usize = 8;

/// A thread partition's constants: the layout `(CPY, CPY_M, CPY_N, ...)` (thread 0), the thread
/// mode's leaves and each value's offset.
#[derive(Clone, Copy, Debug)]
pub struct SliceTab {
    /// The partition's layout (the same for every thread; the thread only moves its origin).
    pub layout: DynLayout,
    /// Leaves of the thread mode.
    pub n_thr: usize,
    /// Their extents.
    pub thr_shape: [i64; MAX_THR_LEAVES],
    /// Their strides.
    pub thr_stride: [i64; MAX_THR_LEAVES],
    /// Values per thread (`size(partition)`).
    pub nv: usize,
    /// Each value's offset (`layout(v)`).
    pub off: [i64; MAX_SLICE_VALS],
    /// Values of one atom (`size<0,0>(partition)`): what one `ldmatrix` reads (source) or writes
    /// (destination) per thread.
    pub atom_vals: usize,
    /// `size<R-1>(partition)`: the blocks of the last mode ([`LdsmPartition::k_block`]).
    pub k_blocks: usize,
}

const fn tab(f: Result<DynLayout, crate::Error>, retile: bool) -> SliceTab {
    let f = match f {
        Ok(f) => f,
        Err(e) => e.panic(),
    };
    // f: (thr, val, (Rest...)) for a partition; (CPY, CPY_M, ...) for a retile
    let (thr, layout) = if retile {
        (DynLayout::trivial(), f)
    } else {
        let rest = f.get(2);
        let mut coord = crate::value::int_tuple::IntTuple::empty();
        let mut i = 0;
        while i < rest.rank() {
            coord.push(&crate::value::int_tuple::IntTuple::under());
            i += 1;
        }
        let c = crate::value::int_tuple::IntTuple::pair(
            &crate::value::int_tuple::IntTuple::st(0),
            &crate::value::int_tuple::IntTuple::under(),
        );
        let mut c = c;
        c.push(&coord);
        (f.get(0), f.slice(&c))
    };
    let fs = thr.shape.flatten_to_tuple();
    let fd = thr.stride.flatten_to_tuple();
    let n_thr = fs.rank();
    if n_thr > MAX_THR_LEAVES {
        crate::Error::with2(
            "ThrCopy: the thread mode has {} leaves (at most {})",
            n_thr as i64,
            MAX_THR_LEAVES as i64,
        )
        .panic()
    }
    let mut thr_shape = [1i64; MAX_THR_LEAVES];
    let mut thr_stride = [0i64; MAX_THR_LEAVES];
    let mut k = 0;
    while k < n_thr {
        thr_shape[k] = fs.get(k).val().v;
        thr_stride[k] = fd.get(k).val().v;
        k += 1;
    }
    let nv = layout.size().v as usize;
    if nv > MAX_SLICE_VALS {
        crate::Error::with2(
            "ThrCopy: {} values per thread (at most {})",
            nv as i64,
            MAX_SLICE_VALS as i64,
        )
        .panic()
    }
    let mut off = [0i64; MAX_SLICE_VALS];
    let mut v = 0;
    while v < nv {
        off[v] = layout.call(v as i64);
        v += 1;
    }
    let m0 = layout.get(0);
    let atom_vals = if m0.rank() > 1 {
        m0.get(0).size().v
    } else {
        m0.size().v
    } as usize;
    SliceTab {
        layout,
        n_thr,
        thr_shape,
        thr_stride,
        nv,
        off,
        atom_vals,
        k_blocks: layout.get(layout.rank() - 1).size().v as usize,
    }
}

/// Which partition a [`SliceOf`] table is: `tidfrg_S`, `tidfrg_D` or `retile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceKind {
    /// `partition_S`.
    Src,
    /// `partition_D`.
    Dst,
    /// `retile_S` / `retile_D`.
    Retile,
}

/// The constants of a partition of a tensor laid out by `L` (static, possibly swizzled:
/// [`LdsmTile`]) by the TiledCopy `TiledCopyMma<A, T, Op>`; `K` is 0 (`partition_S`), 1
/// (`partition_D`) or 2 (`retile`).
pub struct SliceOf<A, T, Op, L, const K: u8>(PhantomData<(A, T, Op, L)>);

/// A partition's tables, as a trait (what [`LdsmPartition`] carries as a type).
pub trait SliceTable {
    /// The TiledCopy it belongs to.
    type Copy;
    /// Its kind.
    const KIND: SliceKind;
    /// The partition's own table.
    const TAB: SliceTab;
    /// For a source partition, the *destination* view of the same tensor (`tidfrg_D`): where
    /// each register's element lies in the source (the host emulation of `ldmatrix`).
    const EMU: SliceTab;
    /// The swizzle of the tensor's element offsets (`DynSwizzle::identity()` for a plain
    /// layout): element `v` lies at `SW(thread offset + offset(v))` from the tensor's engine.
    const SW: DynSwizzle;
    /// `B` of a `smem_ptr_flag_bits<B>` middle (0 without one): the pointer's element bits.
    const FLAG_BITS: i64;
}
/// The tables of a partition of a plain static layout `L` (what [`SliceTable`] of any tile with
/// the same layout without its swizzle shares: computed once per layout).
trait PlainTables {
    const TAB: SliceTab;
    const EMU: SliceTab;
}
impl<A, T, Op, L, const K: u8> PlainTables for SliceOf<A, T, Op, L, K>
where
    A: LdsmAtom,
    T: TiledMmaT,
    Op: CopyOperand<T>,
    L: StaticLayoutValue,
{
    const TAB: SliceTab = {
        let tc = &TiledCopyMma::<A, T, Op>::VALUE;
        match K {
            0 => tab(tc.tidfrg_s(&L::LAYOUT), false),
            1 => tab(tc.tidfrg_d(&L::LAYOUT), false),
            _ => tab(tc.retile(&L::LAYOUT), true),
        }
    };
    const EMU: SliceTab = {
        let tc = &TiledCopyMma::<A, T, Op>::VALUE;
        tab(tc.tidfrg_d(&L::LAYOUT), false)
    };
}
impl<A, T, Op, L, const K: u8> SliceTable for SliceOf<A, T, Op, L, K>
where
    A: LdsmAtom,
    T: TiledMmaT,
    Op: CopyOperand<T>,
    L: LdsmTile,
{
    type Copy = TiledCopyMma<A, T, Op>;
    const KIND: SliceKind = match K {
        0 => SliceKind::Src,
        1 => SliceKind::Dst,
        _ => SliceKind::Retile,
    };
    const TAB: SliceTab = <SliceOf<A, T, Op, L::Plain, K> as PlainTables>::TAB;
    const EMU: SliceTab = <SliceOf<A, T, Op, L::Plain, K> as PlainTables>::EMU;
    const SW: DynSwizzle = ldsm_swizzle(L::SWIZZLE, Op::BITS);
    const FLAG_BITS: i64 = match L::SWIZZLE {
        Some((_, Some(b))) => b,
        _ => 0,
    };
}

/// One k-block of a partition's table: CuTe's `partition(_, _, k)` layout (the last mode
/// sliced away), the values of one block, one block; the offsets stay the whole partition's
/// (the view keeps its block's index).
const fn block_tab(t: &SliceTab) -> SliceTab {
    let r = t.layout.rank();
    let mut c = crate::value::int_tuple::IntTuple::empty();
    let mut i = 0;
    while i + 1 < r {
        c.push(&crate::value::int_tuple::IntTuple::under());
        i += 1;
    }
    c.push(&crate::value::int_tuple::IntTuple::st(0));
    SliceTab {
        layout: t.layout.slice(&c),
        nv: t.nv / t.k_blocks,
        k_blocks: 1,
        ..*t
    }
}

/// The table of one k-block of a partition whose table is `Tab`
/// ([`LdsmPartition::k_block`]): a type of its own, so that `copy` checks the sizes of the
/// blocks it is given, whatever the blocks of the partitions they come from (a shared-memory
/// stage of four k-blocks into a register ring of two).
pub struct KBlockOf<Tab>(PhantomData<Tab>);
impl<Tab: SliceTable> SliceTable for KBlockOf<Tab> {
    type Copy = Tab::Copy;
    const KIND: SliceKind = Tab::KIND;
    const TAB: SliceTab = block_tab(&Tab::TAB);
    const EMU: SliceTab = Tab::EMU;
    const SW: DynSwizzle = Tab::SW;
    const FLAG_BITS: i64 = Tab::FLAG_BITS;
}

/// The offset of thread `tid` in a partition's thread mode (shifts and masks for the static
/// power-of-two extents).
#[inline(always)]
fn thr_offset(t: &SliceTab, tid: u32) -> i32 {
    let mut off = 0i32;
    let mut div = 1u32;
    let mut k = 0;
    while k < t.n_thr {
        let s = t.thr_shape[k] as u32;
        let q = tid / div;
        let c = if k + 1 == t.n_thr { q } else { q % s };
        off += c as i32 * t.thr_stride[k] as i32;
        div *= s;
        k += 1;
    }
    off
}

/// One thread's view of an `ldmatrix` TiledCopy (CuTe's `ThrCopy`).
pub struct ThrCopyMma<A, T, Op> {
    tid: u32,
    _tc: PhantomData<(A, T, Op)>,
}
impl<A, T, Op> Clone for ThrCopyMma<A, T, Op> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, T, Op> Copy for ThrCopyMma<A, T, Op> {}

/// A thread's partition (CuTe's `partition_S` / `partition_D` / `retile_D` tensor): the engine
/// at the thread's origin, and as a type the constants of the layout `(CPY, CPY_M, CPY_N, ...)`
/// (and of the tile's swizzle, for a `partition_s` of a swizzled tile).
pub struct LdsmPartition<E, Tab> {
    /// The engine at the thread's origin: the tensor's engine moved by the thread's offset in
    /// the (unswizzled) layout. For a swizzled tile that is CuTe's `swizzle_ptr` iterator: the
    /// swizzle applies at the access ([`LdsmPartition::at`]).
    pub engine: E,
    base: E,
    thr: i32,
    // the thread index, for the host emulation of `copy` (its own tables' thread offset)
    #[cfg_attr(target_arch = "nvptx64", allow(dead_code))]
    tid: u32,
    // the k-block a `k_block` view selects (0 for a whole partition)
    k0: u32,
    _t: PhantomData<Tab>,
}
impl<E: Copy, Tab> Clone for LdsmPartition<E, Tab> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<E: Copy, Tab> Copy for LdsmPartition<E, Tab> {}

impl<A: LdsmAtom, T: TiledMmaT, Op: CopyOperand<T>> TiledCopyMma<A, T, Op> {
    /// `tiled_copy.get_slice(thr_idx)`: thread `thr_idx`'s view ([`ThrCopyMma`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let thr = make_tiled_copy_b(SM75_U32x2_LDSM_N::new(), &mma).get_slice(37u32);
    /// let s_b = make_tensor(Counting(0i32), layout!((_32, _32):(_32, _1))); // N x K
    /// assert_eq!(thr.partition_s(&s_b).layout().to_string(), "((_8,_1),_2,_2):((_1,_0),_512,_16)");
    /// ```
    #[inline(always)]
    pub fn get_slice<I: Integral>(&self, thr_idx: I) -> ThrCopyMma<A, T, Op> {
        ThrCopyMma {
            tid: thr_idx.value() as u32,
            _tc: PhantomData,
        }
    }
}

impl<A: LdsmAtom, T: TiledMmaT, Op: CopyOperand<T>> ThrCopyMma<A, T, Op> {
    #[inline(always)]
    fn part<E: Advance<i32, Output = E>, Tab: SliceTable>(
        &self,
        engine: E,
    ) -> LdsmPartition<E, Tab> {
        let t = const { &Tab::TAB };
        // the swizzle's precondition (a compile error naming CuTe's condition)
        let _ = const { Tab::SW };
        let thr = thr_offset(t, self.tid);
        LdsmPartition {
            engine: engine.advance(thr),
            base: engine,
            thr,
            tid: self.tid,
            k0: 0,
            _t: PhantomData,
        }
    }
    /// `thr_copy.partition_S(tensor)`: this thread's `(CPY, CPY_M, CPY_N, ...)` of a source
    /// tensor (shared memory, a static layout, a multiple of the tiler): the rows it points
    /// `ldmatrix` at.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// let s_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));
    /// let p = tc.get_slice(37u32).partition_s(&s_a);
    /// assert_eq!(p.layout().to_string(), "((_8,_1),_2,_2):((_1,_0),_1024,_16)");
    /// assert_eq!(p.engine.0, (16 + 5) * 32);  // lane 5 of warp 1 (the second atom along M): row 21
    /// ```
    ///
    /// The layout may be swizzled ([`LdsmTile`]): a GMMA atom tiled by `tile_to_shape`, or CuTe's
    /// SM80 `composition(Swizzle<3,3,3>, layout)` ([`make_composed_layout`]). As in CuTe, the
    /// partition's layout and offsets are those of the layout without the swizzle (constants),
    /// and the swizzle applies to the final address: value `v` lies at
    /// `swizzle(thread offset + offset(v))` from the tensor's base (in bytes for a GMMA atom,
    /// CuTe's `swizzle_ptr`), which must be aligned to the swizzle's period. `ldmatrix` reads
    /// each thread's 16-byte row from the swizzled address of its first element, so the swizzle
    /// must keep 16-byte rows contiguous (a compile error naming CuTe's condition otherwise).
    ///
    /// [`make_composed_layout`]: crate::cute::swizzle::make_composed_layout
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::gmma::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// let mut smem = vec![half_t(0); 64 * 64 + 512];    // in a kernel: 1024-byte aligned smem
    /// let base = smem.as_mut_ptr().wrapping_add(smem.as_ptr().align_offset(1024));
    /// // (M, K) = (64, 64), K-major, 128-byte swizzle: Sw<3,4,3> o smem_ptr[16b] o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))
    /// let s_a = make_tensor(make_smem_ptr(base), tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft));
    /// let p = tc.get_slice(37u32).partition_s(&s_a);           // lane 5 of warp 1: row 21
    /// assert_eq!(p.layout().to_string(), "((_8,_1),_2,_4):((_1,_0),_2048,_16)");
    /// // value 8 (the second atom along M: row 53, columns 0..8) lies in 16-byte chunk
    /// // 0 ^ (53 % 8) = 5 of row 53: element 53 * 64 + 5 * 8
    /// assert_eq!(p.offset(8), 2048);                              // unswizzled, a constant
    /// assert_eq!(p.at(8).ptr(), base.wrapping_add(53 * 64 + 5 * 8));
    /// assert_eq!(p.at(8).ptr(), s_a.ptr((53i32, 0i32)));          // where the tensor stores (53, 0)
    /// ```
    #[inline(always)]
    pub fn partition_s<E, L>(&self, t: &Tensor<E, L>) -> LdsmPartition<E, SliceOf<A, T, Op, L, 0>>
    where
        E: Advance<i32, Output = E>,
        L: LdsmTile,
    {
        self.part(t.engine)
    }
    /// `thr_copy.partition_D(tensor)`: this thread's `(CPY, CPY_M, CPY_N, ...)` of a
    /// destination tensor: the registers `ldmatrix` gives it.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// let t = make_tensor(Counting(0i32), layout!((_32, _16):(_1, _32)));
    /// let p = tc.get_slice(0u32).partition_d(&t);
    /// assert_eq!(p.layout().to_string(), "(((_2,_2,_2),_1),_1,_1):(((_32,_8,_256),_0),_0,_0)");
    /// ```
    #[inline(always)]
    pub fn partition_d<E, L>(&self, t: &Tensor<E, L>) -> LdsmPartition<E, SliceOf<A, T, Op, L, 1>>
    where
        E: Advance<i32, Output = E>,
        L: StaticLayoutValue,
    {
        self.part(t.engine)
    }
    /// `thr_copy.retile_D(fragment)`: a TiledMMA register fragment (`partition_fragment_a` ...,
    /// `(MMA, MMA_M, MMA_K)`) as the copy's `(CPY, CPY_M, CPY_K)`, over the same registers: the
    /// destination of [`copy`](crate::cute::atom::copy::copy).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_b(SM75_U32x2_LDSM_N::new(), &mma);
    /// let s_b = make_tensor(Counting(0i32), layout!((_64, _32):(_1, _64)));
    /// let mut frag = mma.get_slice(0i32).partition_fragment_b(&s_b);
    /// assert_eq!(frag.layout.to_string(), "((_2,_2),_4,_2):((_1,_2),_4,_16)");
    /// assert_eq!(tc.get_slice(0u32).retile_d(&mut frag).layout().to_string(), "((_4,_1),_4,_2):((_1,_0),_4,_16)");
    /// ```
    #[inline(always)]
    pub fn retile_d<V, L>(
        &self,
        frg: &mut Fragment<V, L>,
    ) -> LdsmPartition<Reg<V>, SliceOf<A, T, Op, L, 2>>
    where
        L: FragmentLayout + StaticLayoutValue,
    {
        self.part(frg.engine())
    }
    /// `thr_copy.retile_S(fragment)`: as [`ThrCopyMma::retile_d`] (CuTe's two are the same
    /// function of the layout).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// let mut f = Fragment::<u16, _>::new(layout!(((_2, _2, _2), _2, _2):((_1, _2, _4), _8, _16)));
    /// assert_eq!(tc.get_slice(0u32).retile_s(&mut f).layout().to_string(), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
    /// ```
    #[inline(always)]
    pub fn retile_s<V, L>(
        &self,
        frg: &mut Fragment<V, L>,
    ) -> LdsmPartition<Reg<V>, SliceOf<A, T, Op, L, 2>>
    where
        L: FragmentLayout + StaticLayoutValue,
    {
        self.part(frg.engine())
    }
}

impl<E: Engine, Tab: SliceTable> LdsmPartition<E, Tab> {
    /// The layout `(CPY, CPY_M, CPY_N, ...)` (a constant; the engine is at the thread's origin).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));   // row-major A
    /// let p = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma).get_slice(0u32).partition_s(&s_a);
    /// // a 16-byte row of 8 halves, 2 copies along M (32 rows on), 2 along K (16 columns on)
    /// assert_eq!(p.layout().to_string(), "((_8,_1),_2,_2):((_1,_0),_1024,_16)");
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> DynLayout {
        const { Tab::TAB.layout }
    }
    /// Values per thread (`size(partition)`; of one block for a [`LdsmPartition::k_block`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let tc = make_tiled_copy_b(SM75_U32x2_LDSM_N::new(), &mma);
    /// let s_b = make_tensor(Counting(0i32), layout!((_64, _32):(_1, _64)));
    /// let mut frag = mma.get_slice(0i32).partition_fragment_b(&s_b);      // ((_2,_2),_4,_2)
    /// let r = tc.get_slice(0u32).retile_d(&mut frag);
    /// assert_eq!((r.size(), frag.len()), (32, 32));            // the same registers, regrouped
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        Tab::TAB.nv
    }
    /// `partition(_, _, k)` (`_` in every mode but the last): block `k` of the last mode (a
    /// mainloop's k-block), as CuTe's `tCsA(_, _, k)`; `k` below `size<R-1>(partition)`. The
    /// view is a partition of its own type ([`KBlockOf`]), whose layout is CuTe's
    /// `tCsA(_, _, k)` (rank R − 1): `copy` checks that the blocks it is given have the same
    /// size, so a k-block of a shared-memory stage may go to any k-block of a fragment with
    /// fewer of them (CuTe's `copy(s2r, tCsA(_,_,k), tCrA(_,_,k % 2))`: a ring of two k-blocks
    /// of registers fed from a stage of four).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s_a = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));
    /// let p = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma).get_slice(0u32).partition_s(&s_a);
    /// assert_eq!((p.size(), p.k_block(1).size()), (32, 16));
    /// assert_eq!(p.k_block(1).offset(0), 16);     // value 0 of block 1: column 16
    /// assert_eq!(p.k_block(1).layout().to_string(), "((_8,_1),_2):((_1,_0),_1024)");
    /// ```
    ///
    /// A stage of 64 k-columns (four k-blocks) read through a register ring of two:
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    /// let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    /// let mut smem: Vec<half_t> = (0..64 * 64).map(|i| half_t(i as u16)).collect(); // element i holds i
    /// let s_a = make_tensor(make_smem_ptr(smem.as_mut_ptr()), layout!((_64, _64):(_64, _1))); // 4 k-blocks
    /// let ring = make_tensor(Counting(0i32), layout!((_64, _32):(_32, _1)));              // 2 k-blocks
    /// let c_a = make_tensor(Counting(0i32), layout!((_64, _64):(_64, _1)));
    /// for t in 0..128u32 {
    ///     let mut frag = mma.get_slice(t as i32).partition_fragment_a(&ring); // (MMA, MMA_M, 2)
    ///     let thr = s2r.get_slice(t);
    ///     let (src, dst) = (thr.partition_s(&s_a), thr.retile_d(&mut frag));
    ///     let want = mma.get_slice(t as i32).partition_a(&c_a); // (MMA, MMA_M, 4)
    ///     let block = frag.len() / 2;
    ///     for k in 0..4 {
    ///         unsafe { copy(&s2r, &src.k_block(k), &dst.k_block(k % 2)) };
    ///         for i in 0..block {
    ///             let r = frag.layout.call((block * (k % 2) + i) as i32) as usize;
    ///             let w = want.engine.0 + want.layout.call((block * k + i) as i32);
    ///             assert_eq!(frag[r].0 as i32, w); // what partition_A puts at (v, m, k)
    ///         }
    ///     }
    /// }
    /// ```
    #[inline(always)]
    pub fn k_block(&self, k: usize) -> LdsmPartition<E, KBlockOf<Tab>> {
        debug_assert!(
            k < Tab::TAB.k_blocks,
            "k_block: block {k} of a partition of {} blocks",
            Tab::TAB.k_blocks
        );
        LdsmPartition {
            engine: self.engine,
            base: self.base,
            thr: self.thr,
            tid: self.tid,
            k0: self.k0 + k as u32,
            _t: PhantomData,
        }
    }
    /// The offset of value `v` of the selected blocks from the thread's origin in the layout
    /// `(CPY, CPY_M, CPY_N, ...)` (a constant after unrolling). For a swizzled tile it is the
    /// offset without the swizzle (CuTe's partition layout); [`LdsmPartition::at`] applies it.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// use layout_types::value::swizzle::Swizzle;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    /// let tc = make_tiled_copy_b(SM75_U32x2_LDSM_N::new(), &mma);          // an (8, 16) tile of B
    /// // CuTe's SM80 smem layout: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})
    /// let s_b = make_composed_layout(Swizzle::<3, 3, 3>, layout!((_8, _64):(_64, _1)));
    /// let p = tc.get_slice(0u32).partition_s(&make_tensor(Counting(0i32), s_b));
    /// assert_eq!(p.layout().to_string(), "((_8,_1),_1,_4):((_1,_0),_0,_16)");
    /// assert_eq!(p.offset(8), 16);                  // value 8: k block 1, row 0, columns 16..24
    /// ```
    #[inline(always)]
    pub fn offset(&self, v: usize) -> i32 {
        let t = const { &Tab::TAB };
        t.off[self.k0 as usize * (t.nv / t.k_blocks) + v] as i32
    }
    /// The engine at value `v` of the selected blocks: the tensor's engine moved by
    /// `swizzle(thread offset + offset(v))` (CuTe's `&partition(v)`; without a swizzle, the
    /// origin [`LdsmPartition::engine`] moved by [`LdsmPartition::offset`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::atom::mma::*;
    /// use layout_types::value::swizzle::Swizzle;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    /// let tc = make_tiled_copy_b(SM75_U32x2_LDSM_N::new(), &mma);
    /// let s_b = make_composed_layout(Swizzle::<3, 3, 3>, layout!((_8, _64):(_64, _1)));
    /// let p = tc.get_slice(3u32).partition_s(&make_tensor(Counting(0i32), s_b));
    /// assert_eq!(p.engine.0, 3 * 64);               // lane 3: row 3, unswizzled
    /// // k block 2 (columns 32..40, 16-byte chunk 4) of row 3 is chunk 4 ^ 3 = 7
    /// assert_eq!(p.at(16).0, 3 * 64 + 7 * 8);
    /// assert_eq!(p.k_block(2).at(0).0, 3 * 64 + 7 * 8);
    /// ```
    #[inline(always)]
    pub fn at(&self, v: usize) -> E
    where
        E: Advance<i32, Output = E>,
    {
        if const { Tab::SW.bits == 0 } {
            self.engine.advance(self.offset(v))
        } else {
            self.base.advance(self.swizzled_offset(v))
        }
    }
    /// `swizzle(thread offset + offset(v))`: where value `v` lies from the tensor's engine, in
    /// elements (what `at` and the `ldmatrix` row address of a swizzled tile use). The swizzle
    /// reads and flips only bits below its period `P` (`2^(M+B+|S|)` elements), so the part of
    /// the constant `offset(v)` that is a multiple of `P` is added after it: `sw(t + c) =
    /// sw(t + c mod P) + (c - c mod P)`, the same value, and one `sw(t + c mod P)` serves every
    /// value whose offsets differ by multiples of the period (the rows of the next M or N block).
    #[inline(always)]
    fn swizzled_offset(&self, v: usize) -> i32 {
        let (sw, low) = const { (Tab::SW, swizzle_low_bits(Tab::SW)) };
        let c = self.offset(v);
        swizzle_i32(sw, self.thr + (c & low)) + (c & !low)
    }
}

/// `copy(tiled_copy, src, dst)` for an `ldmatrix` TiledCopy: `src` a thread's
/// [`partition_s`](ThrCopyMma::partition_s) of shared memory, `dst` its
/// [`retile_d`](ThrCopyMma::retile_d) of a register fragment (or a `partition_d`), of the same
/// TiledCopy; one `ldmatrix` per atom. The element must have the atom's 16 bits (or 32 for the
/// `_N` atoms over 32-bit elements). Mismatched sizes fail to compile.
impl<A, T, Op, SE, ST, DE, DT> TiledCopyApply<LdsmPartition<SE, ST>, LdsmPartition<DE, DT>>
    for TiledCopyMma<A, T, Op>
where
    A: LdsmAtom,
    T: TiledMmaT,
    Op: CopyOperand<T>,
    SE: PtrEngine + Advance<i32, Output = SE>,
    DE: PtrEngine<Value = SE::Value> + Advance<i32, Output = DE>,
    ST: SliceTable<Copy = Self>,
    DT: SliceTable<Copy = Self>,
{
    #[inline(always)]
    unsafe fn apply(&self, src: &LdsmPartition<SE, ST>, dst: &LdsmPartition<DE, DT>) {
        let () = const {
            check_copy(
                &ST::TAB,
                &DT::TAB,
                ST::KIND,
                DT::KIND,
                ST::FLAG_BITS,
                size_of::<SE::Value>(),
                A::REGS,
            )
        };
        let (s, d) = (const { &ST::TAB }, const { &DT::TAB });
        let (sav, dav) = (s.atom_vals, d.atom_vals);
        // the tile's swizzle of element offsets (none: the identity)
        let sw = const { ST::SW };
        #[cfg(target_arch = "nvptx64")]
        let (origin, elem) = (
            device::shared::cast_smem_ptr_to_uint(if sw.bits == 0 {
                src.engine.ptr()
            } else {
                src.base.ptr()
            }),
            size_of::<SE::Value>() as u32,
        );
        let mut kb = 0;
        while kb < s.k_blocks {
            // the atoms of one block of the last mode, as straight-line code
            let (s0, d0) = (kb * (s.nv / s.k_blocks), kb * (d.nv / d.k_blocks));
            unroll_const!(
                ST::TAB.nv / ST::TAB.k_blocks / ST::TAB.atom_vals,
                #[inline(always)]
                |c: usize| {
                    #[cfg(target_arch = "nvptx64")]
                    {
                        // the thread's origin once, each row a constant byte offset from it;
                        // with a swizzle, the swizzled offset of the row's first element from
                        // the tile's base (the row stays contiguous: `ldsm_swizzle`)
                        let v = s0 + c * sav;
                        let row = if sw.bits == 0 {
                            origin + (src.offset(v) as u32) * elem
                        } else {
                            origin + (src.swizzled_offset(v) as u32) * elem
                        };
                        // SAFETY: the warp executes the copy together; the row is the caller's
                        // valid shared memory (`copy`'s contract), 16-byte aligned by the atom.
                        let regs = unsafe { A::call(row) };
                        let regs = regs.as_ref();
                        let mut j = 0;
                        while j < dav {
                            let p = dst.at(d0 + c * dav + j).ptr();
                            // SAFETY: the destination is the caller's valid memory.
                            unsafe {
                                if size_of::<SE::Value>() == 2 {
                                    (p as *mut u16).write((regs[j / 2] >> (16 * (j % 2))) as u16)
                                } else {
                                    (p as *mut u32).write(regs[j])
                                }
                            }
                            j += 1;
                        }
                    }
                    #[cfg(not(target_arch = "nvptx64"))]
                    {
                        let e = const { &ST::EMU };
                        let thr = thr_offset(e, src.tid);
                        let e0 = (src.k0 as usize + kb) * (e.nv / e.k_blocks);
                        let mut j = 0;
                        while j < dav {
                            let at = swizzle_i32(sw, thr + e.off[e0 + c * dav + j] as i32);
                            let from = src.base.advance(at).ptr();
                            let to = dst.at(d0 + c * dav + j).ptr();
                            // SAFETY: both are the caller's valid memory (`copy`'s contract).
                            unsafe { to.write(from.read()) };
                            j += 1;
                        }
                        let _ = (s0, sav);
                    }
                }
            );
            kb += 1;
        }
    }
}

/// What `copy` of two `ldmatrix` partitions needs, at compile time.
const fn check_copy(
    s: &SliceTab,
    d: &SliceTab,
    sk: SliceKind,
    dk: SliceKind,
    flag_bits: i64,
    elem: usize,
    regs: usize,
) {
    if !matches!(sk, SliceKind::Src) {
        crate::Error::with1(
            "copy: the source of an ldmatrix copy must be a partition_s of shared memory (kind {})",
            sk as i64,
        )
        .panic()
    }
    if matches!(dk, SliceKind::Src) {
        crate::Error::with1(
            "copy: the destination of an ldmatrix copy must be a retile_d of a fragment or a partition_d (kind {})",
            dk as i64,
        )
        .panic()
    }
    if s.nv / s.atom_vals != d.nv / d.atom_vals {
        crate::Error::with2(
            "copy: the source partition has {} ldmatrix atoms per thread but the destination has {}; source and destination tiles must have the same size",
            (s.nv / s.atom_vals) as i64,
            (d.nv / d.atom_vals) as i64,
        )
        .panic()
    }
    if s.k_blocks != d.k_blocks {
        crate::Error::with2(
            "copy: the source partition has {} k-blocks but the destination has {}; copy one k_block of each",
            s.k_blocks as i64,
            d.k_blocks as i64,
        )
        .panic()
    }
    if flag_bits != 0 && flag_bits != 8 * elem as i64 {
        crate::Error::with2(
            "make_tensor(smem_ptr<T>, ComposedLayout<Sw, smem_ptr_flag_bits<B>, L>): expected a B-bit pointer type, but B = {} and sizeof_bits<T> = {}",
            flag_bits,
            8 * elem as i64,
        )
        .panic()
    }
    // each atom's values are one row of 16 contiguous bytes (CuTe's recast<uint128_t> of the
    // source in Copy_Traits::copy_unpack); the thread's offset moves all of them alike
    let mut v = 0;
    while v < s.nv {
        if s.off[v] != s.off[v - v % s.atom_vals] + (v % s.atom_vals) as i64 {
            crate::Error::with2(
                "Copy_Traits: src failed to vectorize into registers. Layout is incompatible with this CopyOp. (value {} of an ldmatrix row is not next to value {} in the source tile: the row's 16 bytes must be contiguous)",
                (v % s.atom_vals) as i64,
                (v % s.atom_vals) as i64 - 1,
            )
            .panic()
        }
        v += 1;
    }
    if elem * d.atom_vals != 4 * regs {
        crate::Error::with2(
            "copy: the ldmatrix atom gives {} bytes per thread, but the destination's atom holds {} bytes",
            (4 * regs) as i64,
            (elem * d.atom_vals) as i64,
        )
        .panic()
    }
}
