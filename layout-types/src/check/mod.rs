//! Static checks of kernel parameters built from static layouts: shared-memory budget, thread
//! count, and vector width / contiguity of a tiled copy. Each is a zero-sized type whose
//! associated constant is computed (and checked) by the compiler; a violation fails the build
//! with a sentence naming the offending values, e.g.
//! `error[E0080]: evaluation panicked: shared memory: the tile needs 262144 bytes ...`.
//!
//! ```
//! use layout_types::prelude::*;
//! use layout_types::check::*;
//! // 128x64 f32 tile, 32 KiB: fits
//! const BYTES: i64 = SmemTile::<Layout<(_128, _64), (_1, _128)>, f32>::BYTES;
//! assert_eq!(BYTES, 32768);
//! // 256 threads, 8 contiguous 2-byte values each: 128-bit copies are fine
//! let t = tiled_copy::<u16, 128, _, _, _, _>(
//!     layout!((_128, _16):(_1, _128)),  // source tile (column-major)
//!     layout!((_128, _16):(_1, _128)),  // destination tile
//!     layout!((_16, _16):(_1, _16)),    // threads
//!     layout!((_8, _1):(_1, _0)),       // values per thread
//! );
//! assert_eq!(core::mem::size_of_val(&t), 0);
//! ```

pub mod bank;

use crate::cute::layout::StaticLayoutValue;
use crate::value::algebra::{self, coalesce, composition};
use crate::{Error, value::layout::DynLayout};
use const_panic::{FmtArg, PanicVal};
use core::fmt;
use core::marker::PhantomData;

use crate::value::swizzle::{ComposedLayout, StaticSwizzle};

/// Shared memory one thread block can use on Hopper (sm_90): 227 KB.
pub const SMEM_BYTES_MAX: i64 = 232448;
/// Most threads in one thread block.
pub const MAX_THREADS: i64 = 1024;

// The messages: text pieces with a value between each two.
const SMEM_BLOCK: &[&str] = &[
    "shared memory: the block needs ",
    " bytes, over the ",
    " bytes (227 KB) a Hopper (sm_90) block can use",
];
const SMEM_TILE: &[&str] = &[
    "shared memory: the tile needs ",
    " bytes (cosize ",
    " x ",
    "-byte elements), over the ",
    " bytes (227 KB) a Hopper (sm_90) block can use",
];
const THREADS_MAX: &[&str] = &[
    "thread layout: ",
    " threads, but a thread block has at most ",
    " threads",
];
const THREADS_MIN: &[&str] = &[
    "thread layout: ",
    " threads; a thread block needs at least one",
];
const VEC_ELEM: &[&str] = &[
    "tiled copy: a ",
    "-bit vector does not hold a whole number of ",
    "-byte elements",
];
const TV_RANGE: &[&str] = &[
    "tiled copy: the TV layout reaches ",
    " elements, beyond the tile of ",
    " elements",
];
const VEC_CONTIG: &[&str] = &[
    "tiled copy: a ",
    "-bit copy moves ",
    " contiguous elements of ",
    " bytes, but each thread's values are contiguous in both source and destination for only ",
    " element(s) (max_common_vector); the values step by ",
    " in the source and by ",
    " in the destination",
];
const ALIGN_THR_SRC: &[&str] = &[
    "tiled copy: ",
    "-bit vectors of ",
    " elements must start at multiples of ",
    " elements, but consecutive threads are ",
    " elements apart in the source",
];
const ALIGN_THR_DST: &[&str] = &[
    "tiled copy: ",
    "-bit vectors of ",
    " elements must start at multiples of ",
    " elements, but consecutive threads are ",
    " elements apart in the destination",
];
const ALIGN_VAL_SRC: &[&str] = &[
    "tiled copy: ",
    "-bit vectors of ",
    " elements must start at multiples of ",
    " elements, but a thread's vectors are ",
    " elements apart in the source",
];
const ALIGN_VAL_DST: &[&str] = &[
    "tiled copy: ",
    "-bit vectors of ",
    " elements must start at multiples of ",
    " elements, but a thread's vectors are ",
    " elements apart in the destination",
];

/// Panics (a compile error in constant evaluation) with `text[0] vals[0] text[1] vals[1] ...`.
#[track_caller]
const fn fail(text: &[&str], vals: &[i64]) -> ! {
    let mut pv = [PanicVal::EMPTY; 16];
    let mut n = 0;
    while n < text.len() && 2 * n < pv.len() {
        pv[2 * n] = PanicVal::write_str(text[n]);
        if n < vals.len() {
            pv[2 * n + 1] = PanicVal::from_i64(vals[n], FmtArg::DISPLAY);
        }
        n += 1;
    }
    const_panic::concat_panic(&[&pv])
}

/// Checks a total shared-memory size in bytes against [`SMEM_BYTES_MAX`] (for a sum of tiles:
/// `const _: i64 = smem_budget(SmemTile::<A, u16>::BYTES + SmemTile::<B, u16>::BYTES);`).
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::{SmemTile, smem_budget};
/// type A = Layout<(_128, _64), (_64, _1)>; // 128x64 halves: 16 KiB
/// type B = Layout<(_256, _64), (_64, _1)>; // 256x64 halves: 32 KiB
/// const BYTES: i64 = smem_budget(4 * (SmemTile::<A, u16>::BYTES + SmemTile::<B, u16>::BYTES));
/// assert_eq!(BYTES, 4 * 49152); // 4 stages: 192 KiB
/// ```
///
/// Over the budget, the constant fails to evaluate:
///
/// ```compile_fail,E0080
/// const BYTES: i64 = layout_types::check::smem_budget(5 * 49152); // 240 KiB
/// ```
pub const fn smem_budget(bytes: i64) -> i64 {
    if bytes > SMEM_BYTES_MAX {
        fail(SMEM_BLOCK, &[bytes, SMEM_BYTES_MAX]);
    }
    bytes
}

/// A static shared-memory tile of `T` laid out by `L`: it occupies `cosize(L) * size_of::<T>()`
/// bytes, which must fit the 227 KB a Hopper block can use.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct SmemTile<L, T>(PhantomData<(L, T)>);
impl<L: StaticLayoutValue, T> SmemTile<L, T> {
    /// Bytes the tile occupies (checked).
    pub const BYTES: i64 = {
        let elem = core::mem::size_of::<T>() as i64;
        let bytes = L::COSIZE * elem;
        if bytes > SMEM_BYTES_MAX {
            fail(SMEM_TILE, &[bytes, L::COSIZE, elem, SMEM_BYTES_MAX]);
        }
        bytes
    };
}

/// `SmemTile::<L, T>::BYTES` as a function of a layout value: `smem_tile::<f32, _>(layout)`.
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::smem_tile;
/// // a 64x64 f32 tile with columns padded to 65: cosize 63 + 63·65 + 1 = 4159 elements
/// assert_eq!(smem_tile::<f32, _>(layout!((_64, _64):(_1, _65))), 4159 * 4);
/// ```
#[inline(always)]
pub fn smem_tile<T, L: StaticLayoutValue>(_: L) -> i64 {
    const { SmemTile::<L, T>::BYTES }
}

/// A static thread layout: its size is the number of threads of a block, at most 1024.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadLayout<L>(PhantomData<L>);
impl<L: StaticLayoutValue> ThreadLayout<L> {
    /// Number of threads (checked).
    pub const THREADS: i64 = check_threads(L::SIZE);
}

const fn check_threads(n: i64) -> i64 {
    if n > MAX_THREADS {
        fail(THREADS_MAX, &[n, MAX_THREADS]);
    }
    if n < 1 {
        fail(THREADS_MIN, &[n]);
    }
    n
}

/// Checks a thread layout (at most 1024 threads) and returns it.
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::{ThreadLayout, thread_layout};
/// type Thr = Layout<(_32, _4), (_1, _32)>; // 4 warps
/// let _thr: Thr = thread_layout(layout!((_32, _4):(_1, _32)));
/// assert_eq!(ThreadLayout::<Thr>::THREADS, 128);
/// ```
///
/// More than 1024 threads do not build:
///
/// ```compile_fail,E0080
/// use layout_types::prelude::*;
/// let _ = layout_types::check::thread_layout(layout!((_32, _64):(_1, _32)));
/// ```
#[inline(always)]
pub fn thread_layout<L: StaticLayoutValue>(l: L) -> L {
    let _: i64 = const { ThreadLayout::<L>::THREADS };
    l
}

/// [`algebra::max_common_vector`]'s count (CuTe's `max_common_vector(a, b)`), for the checks.
const fn max_common_vector(a: &DynLayout, b: &DynLayout) -> Result<i64, Error> {
    match algebra::max_common_vector(a, b) {
        Ok(v) => Ok(v.v),
        Err(e) => Err(e),
    }
}

/// The stride of the leading mode of a (coalesced) layout.
const fn leading_stride(c: &DynLayout) -> i64 {
    if c.shape.is_tuple() {
        c.stride.get(0).val().v
    } else {
        c.stride.val().v
    }
}

/// First stride (of a mode of size > 1) that is not a multiple of `vec`, skipping a leading
/// stride-1 run of `skip_run` elements; 0 if none.
const fn misaligned_stride(c: &DynLayout, vec: i64, skip_leading: bool) -> i64 {
    let fs = c.shape.flatten_to_tuple();
    let fd = c.stride.flatten_to_tuple();
    let mut i = if skip_leading { 1 } else { 0 };
    while i < fs.rank() {
        let (s, d) = (fs.get(i).val().v, fd.get(i).val().v);
        if s > 1 && d % vec != 0 {
            return d;
        }
        i += 1;
    }
    0
}

/// The TV layout of a static TiledCopy `make_tiled_copy(atom, Thr, Val)` as a zero-sized static
/// layout (see [`crate::value::copy::TvLayout`]): `(thread, value) -> column-major index in the tile`.
///
/// ```
/// use layout_types::check::TiledCopyTv;
/// use layout_types::prelude::*;
/// type Tv = TiledCopyTv<Layout<(_2, _2), (_1, _2)>, Layout<(_2, _1), (_1, _0)>>;
/// assert_eq!(<Tv as StaticLayoutValue>::LAYOUT.to_string(), "(_4,_2):(_2,_1)");
/// assert_eq!(<Tv as StaticLayoutValue>::SIZE, 8);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct TiledCopyTv<Thr, Val>(PhantomData<(Thr, Val)>);
impl<Thr: StaticLayoutValue, Val: StaticLayoutValue> TiledCopyTv<Thr, Val> {
    /// The TV layout and tiler.
    pub const TV: crate::value::copy::TvLayout =
        match crate::value::copy::TvLayout::new(&Thr::LAYOUT, &Val::LAYOUT) {
            Ok(t) => t,
            Err(e) => e.panic(),
        };
}
impl<Thr: StaticLayoutValue, Val: StaticLayoutValue> StaticLayoutValue for TiledCopyTv<Thr, Val> {
    const LAYOUT: DynLayout = Self::TV.layout_tv;
}

/// A tiled copy of `T` elements in `BITS`-bit vectors from a tile laid out by `Src` to one laid
/// out by `Dst` (both of the tile's `(M,N)` shape), with the TV layout `Tv` (`(thread, value) ->
/// column-major index in the tile`, e.g. [`TiledCopyTv`]). Checked at compile time:
/// - `BITS` holds a whole number of elements;
/// - each thread's values are contiguous in both source and destination for a multiple of the
///   vector's element count (`max_common_vector`);
/// - every vector starts at a multiple of the vector's element count (alignment).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct VectorCopy<Src, Dst, Tv, T, const BITS: i64>(PhantomData<(Src, Dst, Tv, T)>);

impl<Src: StaticLayoutValue, Dst: StaticLayoutValue, Tv: StaticLayoutValue, T, const BITS: i64>
    VectorCopy<Src, Dst, Tv, T, BITS>
{
    const ELEM: i64 = core::mem::size_of::<T>() as i64;
    /// Elements per vector (checked).
    pub const VECTOR_ELEMS: i64 = vcheck(&Src::LAYOUT, &Dst::LAYOUT, &Tv::LAYOUT, Self::ELEM, BITS);
    /// `max_common_vector` of one thread's values in source and destination.
    pub const MAX_COMMON_VECTOR: i64 = {
        let _ = Self::VECTOR_ELEMS;
        let (s, d) = thread_values(&Src::LAYOUT, &Dst::LAYOUT, &Tv::LAYOUT);
        match max_common_vector(&s, &d) {
            Ok(v) => v,
            Err(e) => e.panic(),
        }
    };
}

/// One thread's value layouts in source and destination memory.
const fn thread_values(src: &DynLayout, dst: &DynLayout, tv: &DynLayout) -> (DynLayout, DynLayout) {
    let val = tv.get(1);
    let s = match composition(src, &val) {
        Ok(s) => s,
        Err(e) => e.panic(),
    };
    let d = match composition(dst, &val) {
        Ok(d) => d,
        Err(e) => e.panic(),
    };
    (s, d)
}

const fn vcheck(src: &DynLayout, dst: &DynLayout, tv: &DynLayout, elem: i64, bits: i64) -> i64 {
    if bits <= 0 || elem <= 0 || bits % (8 * elem) != 0 {
        fail(VEC_ELEM, &[bits, elem]);
    }
    let vec = bits / (8 * elem);
    // the smaller tile is the one the thread/value layout overruns
    let tile = if src.size().v < dst.size().v {
        src.size().v
    } else {
        dst.size().v
    };
    if tv.cosize().v > tile {
        fail(TV_RANGE, &[tv.cosize().v, tile]);
    }
    let (s, d) = thread_values(src, dst, tv);
    let mcv = match max_common_vector(&s, &d) {
        Ok(v) => v,
        Err(e) => e.panic(),
    };
    let (cs, cd) = (coalesce(&s), coalesce(&d));
    if mcv % vec != 0 {
        let vals = [
            bits,
            vec,
            elem,
            mcv,
            leading_stride(&cs),
            leading_stride(&cd),
        ];
        fail(VEC_CONTIG, &vals);
    }
    let thr = tv.get(0);
    let mut k = 0;
    while k < 2 {
        let mem = if k == 0 { src } else { dst };
        let t = match composition(mem, &thr) {
            Ok(t) => coalesce(&t),
            Err(e) => e.panic(),
        };
        let bad = misaligned_stride(&t, vec, false);
        if bad != 0 {
            let msg = if k == 0 { ALIGN_THR_SRC } else { ALIGN_THR_DST };
            fail(msg, &[bits, vec, vec, bad]);
        }
        let v = if k == 0 { cs } else { cd };
        let bad = misaligned_stride(&v, vec, true);
        if bad != 0 {
            let msg = if k == 0 { ALIGN_VAL_SRC } else { ALIGN_VAL_DST };
            fail(msg, &[bits, vec, vec, bad]);
        }
        k += 1;
    }
    vec
}

/// `make_tiled_copy` with `BITS`-bit vectors of `T`, checked against the source and destination
/// tile layouts: at most 1024 threads, values contiguous and aligned for the vector width.
/// Returns the (zero-sized) TV layout.
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::tiled_copy;
/// // float4 copies from a row-major 32x32 tile into one padded to rows of 36 floats
/// let tv = tiled_copy::<f32, 128, _, _, _, _>(
///     layout!((_32, _32):(_32, _1)),
///     layout!((_32, _32):(_36, _1)),
///     layout!((_32, _8):(_8, _1)), // 256 threads, 8 along each row
///     layout!((_1, _4):(_0, _1)),  // 4 values along n
/// );
/// # fn layout_of<L: StaticLayoutValue>(_: L) -> String { L::LAYOUT.to_string() }
/// assert_eq!(layout_of(tv), "((_8,_32),_4):((_128,_1),_32)"); // as make_tiled_copy's
/// ```
#[inline(always)]
pub fn tiled_copy<
    T,
    const BITS: i64,
    Src: StaticLayoutValue,
    Dst: StaticLayoutValue,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
>(
    _src: Src,
    _dst: Dst,
    _thr: Thr,
    _val: Val,
) -> TiledCopyTv<Thr, Val> {
    let _: i64 = const { ThreadLayout::<Thr>::THREADS };
    let _: i64 = const { VectorCopy::<Src, Dst, TiledCopyTv<Thr, Val>, T, BITS>::VECTOR_ELEMS };
    TiledCopyTv::default()
}

const BANK_CONFLICT: &[&str] = &[
    "shared-memory bank conflict (each phase of a warp access must touch every bank in at most one word): in warp ",
    ", lanes ",
    " and ",
    " of one phase hit bank ",
    " at tile bytes ",
    " and ",
    " (",
    "-way); swizzle or pad the shared-memory layout",
];

/// Bank-conflict freedom, at compile time, of the shared-memory side of a TiledCopy
/// `make_tiled_copy(atom, Thr, Val)` over a smem tile laid out by `Sw ∘ Smem` (`Swizzle<0,4,3>`
/// for none), each lane moving `VEC` consecutive `T`s per instruction (the atom's width for a
/// vector copy, 1 for element-wise loads/stores). Opt-in: a kernel names
/// `BankConflictFree::<..>::CHECK` in a `const` item, and a conflicting layout fails to build,
/// naming the warp, the two lanes, the bank and their byte addresses (see [`crate::check::bank`]).
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::BankConflictFree;
/// use layout_types::value::swizzle::Swizzle;
/// // 128-bit stores of a 16x16 thread block into a 64x64 f32 tile, swizzled Sw<3,2,6>
/// type Thr = Layout<(_16, _16), (_16, _1)>;
/// type Val = Layout<(_1, _4), (_0, _1)>;
/// type Tile = Layout<(_64, _64), (_64, _1)>;
/// const _: () = BankConflictFree::<Tile, Swizzle<3, 2, 6>, Thr, Val, f32, 4>::CHECK;
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct BankConflictFree<Smem, Sw, Thr, Val, T, const VEC: i64>(
    PhantomData<(Smem, Sw, Thr, Val, T)>,
);

impl<
    Smem: StaticLayoutValue,
    Sw: crate::value::swizzle::StaticSwizzle,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    T,
    const VEC: i64,
> BankConflictFree<Smem, Sw, Thr, Val, T, VEC>
{
    /// Fails to evaluate (a compile error) at the first bank conflict.
    pub const CHECK: () = {
        let elem = core::mem::size_of::<T>() as i64;
        let tc = match crate::value::copy::make_tiled_copy(
            crate::value::copy::DynCopyAtom::new(crate::value::copy::CopyOp::Element, elem),
            &Thr::LAYOUT,
            &Val::LAYOUT,
        ) {
            Ok(tc) => tc,
            Err(e) => e.panic(),
        };
        match crate::check::bank::conflicts(&tc, &Smem::LAYOUT, Sw::SW, elem, VEC) {
            Ok(None) => {}
            Ok(Some(c)) => fail(
                BANK_CONFLICT,
                &[
                    c.warp, c.lanes.0, c.lanes.1, c.bank, c.bytes.0, c.bytes.1, c.ways,
                ],
            ),
            Err(e) => e.panic(),
        }
    };
}

/// A static swizzled layout `Sw ∘ _0 ∘ L` as a constant of the value algebra, for compile-time
/// checks of a kernel's shared-memory configuration (kernels index the typed
/// [`crate::cute::swizzle::Swizzled`] layouts).
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::SwizzledLayout;
/// use layout_types::value::swizzle::Swizzle;
/// type S = SwizzledLayout<Swizzle<3, 2, 6>, Layout<(_64, _64), (_64, _1)>>;
/// assert_eq!(S::VALUE.call(4), 4 * 64 + 4); // row 4: (4 >> 2) & 7 = 1 xors the 16-byte unit
/// assert!(S::check_in_span().is_ok());
/// assert_eq!(S::default().to_string(), "Sw<3,2,6> o _0 o (_64,_64):(_64,_1)");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct SwizzledLayout<Sw, L>(core::marker::PhantomData<(Sw, L)>);

impl<Sw: StaticSwizzle, L: StaticLayoutValue> SwizzledLayout<Sw, L> {
    /// The value.
    pub const VALUE: ComposedLayout = ComposedLayout::new(Sw::SW, L::LAYOUT);
    /// `size`.
    pub const SIZE: i64 = L::SIZE;
    /// `cosize` of the inner layout (a swizzle keeps offsets inside the enclosing power of 2;
    /// [`Self::check_in_span`] checks they stay inside this span).
    pub const COSIZE: i64 = L::COSIZE;
    /// Checks (for use in `const`) that the swizzle maps `[0, cosize)` into itself, so a buffer of
    /// `COSIZE` elements is enough.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// use layout_types::check::SwizzledLayout;
    /// use layout_types::value::swizzle::Swizzle;
    /// type Dense = SwizzledLayout<Swizzle<3, 2, 3>, Layout<(_8, _8), (_8, _1)>>;
    /// assert!(Dense::check_in_span().is_ok());
    /// // rows padded to 9: cosize 71, but offset 64 (bit 6) xors bit 3 into 72
    /// type Padded = SwizzledLayout<Swizzle<3, 2, 3>, Layout<(_8, _8), (_9, _1)>>;
    /// assert_eq!(Padded::check_in_span().unwrap_err().vals, [72, 71]);
    /// ```
    pub const fn check_in_span() -> Result<(), Error> {
        let mut i = 0;
        while i < L::COSIZE {
            let o = Sw::SW.apply(i);
            if o < 0 || o >= L::COSIZE {
                return Err(Error::with2(
                    "swizzled offset leaves the layout's cosize (offset, cosize)",
                    o,
                    L::COSIZE,
                ));
            }
            i += 1;
        }
        Ok(())
    }
}

impl<Sw: StaticSwizzle, L: StaticLayoutValue> fmt::Display for SwizzledLayout<Sw, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Self::VALUE, f)
    }
}

/// `composition(Swizzle<B,M,S>{}, layout)` for static operands: a zero-sized [`SwizzledLayout`].
///
/// ```
/// use layout_types::prelude::*;
/// use layout_types::check::composition_swizzle;
/// use layout_types::value::swizzle::Swizzle;
/// let s = composition_swizzle(Swizzle::<3, 2, 6>, layout!((_64, _64):(_64, _1)));
/// assert_eq!(core::mem::size_of_val(&s), 0);
/// assert_eq!(s.to_string(), "Sw<3,2,6> o _0 o (_64,_64):(_64,_1)");
/// ```
pub fn composition_swizzle<Sw: StaticSwizzle, L: StaticLayoutValue>(
    _: Sw,
    _: L,
) -> SwizzledLayout<Sw, L> {
    SwizzledLayout(core::marker::PhantomData)
}
