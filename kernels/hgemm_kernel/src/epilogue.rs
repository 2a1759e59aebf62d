//! The epilogue: a warpgroup's 64×256 fp32 accumulators to C (column-major, `(M,N):(1,ldc)`),
//! stored as f32, bf16 or f16, on one of two paths the host picks (the `out` argument):
//!
//! - **TMA** ([`OUT_TMA`] set: a C that a tensor map can describe; with `beta ≠ 0` a 16-bit
//!   one): CuTe's sm90 TMA epilogue. The 64×256 tile goes out in 8 KiB chunks (64×64 of a 16-bit C, 64×32 of
//!   f32) through four shared-memory buffers per warpgroup: the warpgroup writes `alpha·acc`,
//!   converted to C's element, into a chunk laid out as the TMA box's 128-byte-swizzled layout
//!   (`Layout_MN_SW128_Atom`: M contiguous, as C), with `stmatrix.x4.trans` of packed
//!   `cvt.rn.{bf16,f16}x2.f32` pairs (16-bit C) or `st.shared` (f32); then
//!   `fence.proxy.async.shared::cta`, one named barrier of the warpgroup's 128 threads
//!   (`bar.sync`, never the whole CTA's), and one thread issues the chunk's TMA store and commits
//!   its bulk group. A buffer is written again only once that thread's
//!   `cp.async.bulk.wait_group.read` said the store four chunks back has read it, so the
//!   conversion of one chunk overlaps the stores of the three before (a 16-bit tile's four
//!   chunks wait only for the previous tile's stores), and the tile's stores drain while the
//!   next tile's `wgmma`s run. TMA clips the N edge and the M edge: no bound checks. But
//!   it clips M (the contiguous dimension) only to 16 bytes (an H100 writes the rows from M up
//!   to the next 16-byte boundary of each column, which are `ldc` padding), so a warpgroup
//!   tile that crosses M takes the direct path unless the host says M ends on a 16-byte
//!   boundary ([`OUT_TMA_EDGE`]). With `beta ≠ 0` one thread loads the warpgroup's tile of C
//!   into the chunks' buffers by TMA (a box a chunk, C's tensor map, on the warpgroup's barrier
//!   of [`SourceBarriers`]: CUTLASS's epilogue load pipeline) — requested halfway through the
//!   tile's mainloop ([`load`], the collective's `CollectiveEpilogue::load`), or at the
//!   epilogue's start where the kernel did not call it (a split tile's) — and each warp, once
//!   the barrier completes, reads its elements of a chunk with `ldmatrix.x4.trans` at the
//!   addresses its `stmatrix.x4.trans` then overwrites.
//! - **Direct** (otherwise: an `ldc`/address TMA cannot take, the M edge above, or `beta ≠ 0`
//!   on an f32 C or a tile with fewer buffers than chunks): through the same buffers without TMA
//!   (`store_staged`): 64×32 f32 chunks of `op(alpha·acc + beta·C)` (with `beta ≠ 0` the
//!   warpgroup first reads the chunk's C into the buffer by rows), each stored by the warpgroup
//!   with a warp's lanes on 32 consecutive rows of a column and a bound check per element; an
//!   f32 C with `beta ≠ 0`, or an epilogue without shared memory
//!   ([`crate::config::NoEpilogueStorage`]), from registers, element by element with a bound
//!   check each (`store_as`).
//!
//! Fused: each path applies an [`EpilogueOp`] to every element as it walks the accumulator
//! fragments (a `stmatrix`'s 8 values, a direct store's value): `D = op(alpha·acc + beta·C)` at
//! `(r, c)`, where [`LinComb`] is the plain GEMM's (nothing: the same code as without it) and
//! [`BiasAct`] adds a bias along M or N and applies an activation, a zero-sized type
//! parameter, so each monomorphization is one short body per path.
//!
//! Which thread holds which accumulator is CuTe's `CLayout_64x256` ([`acc_row`], [`acc_col`]);
//! which lane gives which `stmatrix` row address is the `stmatrix` atom's layout over those.

use device::mbarrier::SmemBarrier;
use device::mma::{
    ldmatrix_x4_trans, pack_bf16x2, pack_f16x2, stmatrix_x4_trans, unpack_bf16x2, unpack_f16x2,
};
use device::shared::dynamic_shared_addr_of;
use device::thread::{named_barrier_arrive, named_barrier_sync};
use device::tma::{TmaDescriptor, tma_store_arrive, tma_store_fence, tma_store_wait};
use layout_types::cute::atom::gmma::*;
use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaLoad, TmaStore};
use layout_types::cute::prelude::*;
use layout_types::cutlass::fusion::EpilogueOp;
#[cfg(doc)]
use layout_types::cutlass::fusion::{BiasAct, LinComb};

pub use super::config::{CHUNK_BARRIER, EPI_BARRIER};
pub use super::config::{
    CHUNK_BUFFERS, CHUNK_BYTES, CONSUMERS, OUT_TMA, OUT_TMA_EDGE, SMEM_EPI_BYTES, SMEM_EPI_BYTES_2,
};
use super::config::{ChunkBuffers, EpilogueBoxB16, EpilogueBoxF32, SourceBarriers, StoreSchedule};
#[cfg(doc)]
use super::config::{ChunkHandoff, OneMeeting};
// (`#[inline(always)]` closures: the unrolled bodies below must inline into the kernel so that
// the accumulators stay registers; LLVM's heuristics outline a large body called from many
// unrolled slots, which puts the accumulators in local memory)
// the layouts below spell a buffer with `_8192`
const _: () = assert!(CHUNK_BYTES == 8192);
/// [`store`]'s `ELEMS` of every element: f32, bf16 and f16.
pub const ELEMS_ALL: u32 = 0b111;
/// [`store`]'s `ELEMS` of a bf16 C only.
pub const ELEMS_BF16: u32 = 0b010;
/// Threads of a warpgroup.
const WG_THREADS: u32 = 128;

/// An element type C may have.
pub trait OutElem: Copy {
    /// Rounded to nearest even.
    fn from_f32(x: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
}

impl OutElem for f32 {
    #[inline(always)]
    fn from_f32(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self
    }
}

/// bfloat16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct Bf16Bits(pub u16);

impl OutElem for Bf16Bits {
    /// Round to nearest even; NaN stays NaN (quiet).
    ///
    /// ```
    /// use kernels_emu::hgemm_epilogue::{Bf16Bits, OutElem};
    /// assert_eq!(Bf16Bits::from_f32(1.0).0, 0x3f80);
    /// assert_eq!(Bf16Bits::from_f32(f32::from_bits(0x3f80_8000)).0, 0x3f80); // tie to even
    /// assert_eq!(Bf16Bits::from_f32(f32::from_bits(0x3f81_8000)).0, 0x3f82);
    /// assert!(Bf16Bits::from_f32(f32::NAN).to_f32().is_nan());
    /// ```
    #[inline(always)]
    fn from_f32(x: f32) -> Bf16Bits {
        let b = x.to_bits();
        if x.is_nan() {
            return Bf16Bits(((b >> 16) | 0x40) as u16);
        }
        Bf16Bits(((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from_bits(u32::from(self.0) << 16)
    }
}

/// IEEE binary16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct F16Bits(pub u16);

impl OutElem for F16Bits {
    /// `cvt.rn.f16.f32`.
    ///
    /// ```
    /// use kernels_emu::hgemm_epilogue::{F16Bits, OutElem};
    /// assert_eq!(F16Bits::from_f32(1.0).0, 0x3c00);
    /// assert_eq!(F16Bits::from_f32(-2.5).to_f32(), -2.5);
    /// assert_eq!(F16Bits::from_f32(65520.0).0, 0x7c00); // rounds to infinity
    /// assert_eq!(F16Bits(0x0001).to_f32(), 2f32.powi(-24)); // subnormal
    /// ```
    #[inline(always)]
    fn from_f32(x: f32) -> F16Bits {
        F16Bits(device::mma::pack_f16x2(x, 0.0) as u16)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        let h = u32::from(self.0);
        let sign = (h & 0x8000) << 16;
        let exp = (h >> 10) & 0x1f;
        let man = h & 0x3ff;
        let mag = if exp == 0x1f {
            f32::from_bits(0x7f80_0000 | (man << 13))
        } else if exp == 0 {
            man as f32 * f32::from_bits(0x3380_0000) // 2^-24
        } else {
            f32::from_bits(((exp + 112) << 23) | (man << 13))
        };
        f32::from_bits(mag.to_bits() | sign)
    }
}

/// A 16-bit element of C, in the pairs that `stmatrix` stores and `ldmatrix` loads.
pub trait Out16: OutElem {
    /// `lo` and `hi` rounded to nearest even, `lo` in bits 0..16 (`cvt.rn.{bf16,f16}x2.f32`).
    fn pack2(lo: f32, hi: f32) -> u32;
    /// The pair `w` holds, exactly (`lo` first).
    fn unpack2(w: u32) -> [f32; 2];
}

impl Out16 for Bf16Bits {
    #[inline(always)]
    fn pack2(lo: f32, hi: f32) -> u32 {
        pack_bf16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack2(w: u32) -> [f32; 2] {
        unpack_bf16x2(w)
    }
}

impl Out16 for F16Bits {
    #[inline(always)]
    fn pack2(lo: f32, hi: f32) -> u32 {
        pack_f16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack2(w: u32) -> [f32; 2] {
        unpack_f16x2(w)
    }
}

/// The `(thread, value)` layouts of the accumulator: `((4,8,4),(2,2,32))` with i32 strides.
pub type AccLayout = Layout<((i32, i32, i32), (i32, i32, i32)), ((i32, i32, i32), (i32, i32, i32))>;

/// `((4,8,4),(2,2,32)) → row` of the `m64n256k16` accumulator (CuTe's `CLayout_64x256`,
/// `(t,v) → m + 64·n` with strides `((128,1,16),(64,8,512))`), split into its row part.
///
/// ```
/// use kernels_emu::hgemm_epilogue::{acc_col, acc_row};
/// // thread 37 (warp 1, lane 5), value 6: row 16 + 1 + 8, column 2 + 8
/// assert_eq!((acc_row().crd2idx((37, 6)), acc_col().crd2idx((37, 6))), (25, 10));
/// ```
#[inline(always)]
pub fn acc_row() -> AccLayout {
    make_layout(((4, 8, 4), (2, 2, 32)), ((0, 1, 16), (0, 8, 0)))
}
/// The column part of the same layout ([`acc_row`]).
///
/// ```
/// use kernels_emu::hgemm_epilogue::acc_col;
/// assert_eq!(acc_col().crd2idx((3, 127)), 6 + 1 + 8 * 31);
/// ```
#[inline(always)]
pub fn acc_col() -> AccLayout {
    make_layout(((4, 8, 4), (2, 2, 32)), ((2, 0, 0), (1, 0, 8)))
}

/// The value mode of [`acc_row`] (`(2,2,32):(0,8,0)`), static: a thread's row of value `v` is
/// `acc_row().crd2idx((t, 0)) + acc_row_v().crd2idx(v)`, the second a constant per unrolled
/// value (the dynamic layout's `crd2idx` per element left LLVM thousands of folded division
/// checks to delete, a quadratic cost in the fused entries).
///
/// ```
/// use kernels_emu::hgemm_epilogue::{acc_row, acc_row_v};
/// assert_eq!(acc_row().crd2idx((37, 6)), acc_row().crd2idx((37, 0)) + acc_row_v().crd2idx(6));
/// ```
#[inline(always)]
pub fn acc_row_v() -> Layout<(_2, _2, _32), (_0, _8, _0)> {
    Layout::default()
}
/// The value mode of [`acc_col`] (`(2,2,32):(1,0,8)`), static ([`acc_row_v`]).
///
/// ```
/// use kernels_emu::hgemm_epilogue::{acc_col, acc_col_v};
/// assert_eq!(acc_col().crd2idx((3, 127)), acc_col().crd2idx((3, 0)) + acc_col_v().crd2idx(127));
/// ```
#[inline(always)]
pub fn acc_col_v() -> Layout<(_2, _2, _32), (_1, _0, _8)> {
    Layout::default()
}

/// Where the fragment's column `c` (of CuTe's `CLayout_64x256`, `0..256`) lies in a warpgroup
/// tile of `tile_m` rows: `(row offset, column)`. A 64-row tile is the fragment itself,
/// `(0, c)`; a 128-row tile (two `m64n128` blocks, `collective::mainloop::WarpgroupTile`'s
/// `(_128, _128)`) has the blocks' 64-column halves interleaved — the fragment's columns
/// `(64, 2 blocks, 2 halves)` — the layouts `(64,2,2):(0,64,0)` and `(64,2,2):(1,0,64)`.
/// `tile_m` is a constant of the instantiation (the branch folds).
///
/// ```
/// use kernels_emu::hgemm_epilogue::frag_col_to_tile;
/// assert_eq!(frag_col_to_tile(64, 200), (0, 200));
/// // the 16-bit chunks (64 columns): block 0's left half, block 1's, block 0's right, block 1's
/// let chunks: Vec<_> = (0..4).map(|j| frag_col_to_tile(128, 64 * j)).collect();
/// assert_eq!(chunks, [(0, 0), (64, 0), (0, 64), (64, 64)]);
/// assert_eq!(frag_col_to_tile(128, 200), (64, 72));
/// ```
#[inline(always)]
pub fn frag_col_to_tile(tile_m: i32, c: i32) -> (i32, i32) {
    if tile_m == 128 {
        (
            Layout::<(_64, _2, _2), (_0, _64, _0)>::default().crd2idx(c),
            Layout::<(_64, _2, _2), (_1, _0, _64)>::default().crd2idx(c),
        )
    } else {
        (0, c)
    }
}

/// Accumulator `v`'s element of C and its product before `beta·C`: `((r, c), alpha·s·acc[v])`
/// (`s` the operation's [`EpilogueOp::acc_scale`] where [`EpilogueOp::SCALED`]), for the
/// thread whose first element is `(rt, ct)` on a tile of `TILE_M` rows; `v` a constant of the
/// unrolled epilogue, so the coordinate is the thread's plus constants (the fused operations'
/// per-thread forms fold their row choice on it).
#[inline(always)]
fn product<O: EpilogueOp, const TILE_M: i32>(
    op: &O,
    acc: &[f32; 128],
    v: usize,
    alpha: f32,
    (rt, ct): (i32, i32),
) -> ((i32, i32), f32) {
    let (dr, dc) = frag_col_to_tile(TILE_M, acc_col_v().crd2idx(v as i32));
    let rc = (rt + acc_row_v().crd2idx(v as i32) + dr, ct + dc);
    // the product's factor (per-row/column scales), for an op that has one (a constant: the
    // unscaled ops compile as before)
    let x = if const { O::SCALED } {
        alpha * op.acc_scale(rc) * acc[v]
    } else {
        alpha * acc[v]
    };
    (rc, x)
}

/// `O::AT_COORD` of an operation passed as `impl EpilogueOp` (a constant of the instantiation).
#[inline(always)]
fn at_coord<O: EpilogueOp>(_: &O) -> bool {
    O::AT_COORD
}

/// The direct path from registers, for an epilogue without shared memory (no buffers): each
/// thread stores its accumulators element by element with a bound check each.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_as<T: OutElem, O: EpilogueOp, const TILE_M: i32>(
    acc: &[f32; 128],
    c: *mut T,
    ldc: i64,
    (m, n): (i32, i32),
    (r0, c0): (i32, i32),
    alpha: f32,
    beta: f32,
    t: i32,
    op: O,
) {
    let g = make_tensor(make_gmem_ptr(c), make_layout((m, n), (_1, ldc))); // (M,N)
    // the thread's first element; the values' offsets are constants
    let first = (
        r0 + acc_row().crd2idx((t, 0)),
        c0 + acc_col().crd2idx((t, 0)),
    );
    let read_c = beta != 0.0;
    device::unroll!(
        32,
        #[inline(always)]
        |j| device::unroll!(
            4,
            #[inline(always)]
            |q| {
                let ((r, col), mut x) = product::<O, TILE_M>(&op, acc, 4 * j + q, alpha, first);
                if r < m && col < n {
                    if read_c {
                        // `beta·C` fused into the sum (one FFMA), as on the TMA path
                        x = device::math::fma(beta, unsafe { g.read((r, col)) }.to_f32(), x);
                    }
                    unsafe { g.write((r, col), T::from_f32(op.apply(x, (r, col)))) };
                }
            }
        )
    );
}

/// One warpgroup tile's store beside its accumulators and operation ([`store`]'s arguments,
/// CUTLASS's epilogue `Params` with the tile's place): C and the path the host chose for it,
/// the tile, the scalars, the warpgroup's thread and buffers.
#[derive(Clone, Copy)]
pub struct TileStore {
    /// C: `mn` of the element `out` names, leading dimension `ldc` (column-major).
    pub c: *mut u8,
    /// C's leading dimension, in elements.
    pub ldc: i64,
    /// C's element (0 f32, 1 bf16, 2 f16), plus [`OUT_TMA`] (and [`OUT_TMA_EDGE`]).
    pub out: u32,
    /// C's tensor map for the TMA path (its box [`stage_blocks_b16`]'s or [`stage_chunk_f32`]'s).
    pub tma_c: *const TmaDescriptor,
    /// C's `(M, N)` (the caller clips N at a narrow tile's end).
    pub mn: (i32, i32),
    /// The tile's first element `(row, column)` of C.
    pub origin: (i32, i32),
    /// The product's scale.
    pub alpha: f32,
    /// C's scale (0: C is not read).
    pub beta: f32,
    /// The thread's index in the warpgroup.
    pub t: i32,
    /// The epilogue's storage: the storage type's chunk buffers a consumer warpgroup
    /// ([`ChunkBuffers::PER_WARPGROUP`], a type parameter of [`store`] and [`load`]), the
    /// warpgroups' that many apart (0: none, the direct path from registers).
    pub smem: *mut u8,
    /// The source loads' barriers ([`SourceBarriers`], initialized: [`init_source`]):
    /// warpgroup 0's, warpgroup 1's the next; none where the TMA path never reads C (no
    /// buffers, or no source).
    pub source: Option<SmemBarrier>,
    /// The consumer warpgroup (0, 1).
    pub wg: i32,
    /// Whether this is the warpgroup's last tile (its TMA stores' reads are waited for).
    pub last: bool,
    /// Whether [`load`] ran for this tile (where the TMA path reads C, it then finds the tile
    /// of C requested, its barrier owing thread 0's arrival, instead of loading it).
    pub loaded: bool,
}

/// The direct path for a C of `T`: from registers without shared memory (`S` none) or for an f32
/// C with `beta ≠ 0` ([`store_as`]), else through the buffers ([`store_staged`], with `beta ≠ 0`
/// too: C read by rows into the chunk ran 3 % faster than the registers' element-by-element
/// path on a 16-bit C off 16 bytes, run s47c; read at the accumulators' places four at a time
/// it had run 0.40 of cuBLAS against their 0.49, run s39c).
///
/// # Safety
/// As [`store`]'s direct path.
#[inline(always)]
unsafe fn store_direct<
    T: OutElem,
    O: EpilogueOp,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
>(
    acc: &[f32; 128],
    d: &TileStore,
    op: O,
) {
    let c = d.c as *mut T;
    // an f32 C with `beta ≠ 0` (every tile of it direct: its chunks share buffers on the TMA
    // path) keeps the registers' path: through the buffers it ran 14–16 % slower and the module
    // grew 45 KB (run s48a: 8 KiB of f32 C in and out a 64 × 32 chunk and two more meetings,
    // against one read and one write of each element in place)
    let wide = const { core::mem::size_of::<T>() == 4 };
    unsafe {
        if S::PER_WARPGROUP == 0 || (wide && d.beta != 0.0) {
            store_as::<T, O, TILE_M>(acc, c, d.ldc, d.mn, d.origin, d.alpha, d.beta, d.t, op)
        } else {
            store_staged::<T, O, TILE_M, Cols>(
                acc, c, d.ldc, d.mn, d.origin, d.alpha, d.beta, d.t, d.smem, d.wg, op,
            )
        }
    }
}

/// The direct path through shared memory (a C that TMA cannot store: an `ldc` or address off 16
/// bytes, a tile across an M that does not end on 16 bytes; or the host's choice): registers to
/// shared memory, then coalesced rows to C. The warpgroup's tile goes in 64 × 32 chunks of f32
/// (the fragment's columns `32·chunk..`, laid out as [`stage_chunk_f32`]'s) through two of its
/// buffers in turn: with `beta ≠ 0`, thread `t` first writes C's elements of row `t mod 64`,
/// columns `t / 64 + 2k`, `k < 16`, into the chunk (zeros outside C), and the warpgroup meets;
/// each thread writes its 16 accumulators' `op(alpha·s·acc + beta·C)` at their places (C read
/// there); the warpgroup meets; thread `t` stores the elements it read (a warp's lanes on 32
/// consecutive elements of one column). A chunk's buffer was last read two chunks back, before
/// the warpgroup's last meeting of the chunk in between.
///
/// C's element type lives in the rolled loops that read and write C only: the unrolled staging
/// is the same for every element, and `beta ≠ 0` costs it one shared load and one `FFMA` a value.
///
/// Its code is the chunk loop's, not a store and a bound check per accumulator
/// ([`store_as`]): those are 5,000 SASS instructions an element type that run once a tile (for
/// bf16 and f16 with `beta ≠ 0` a third of the 16-bit module's PTX until session 47), and a
/// 64 × 128 tile of 128 × 7168 × 16384 took 24 µs longer on them than on TMA's, its warps waiting
/// for instructions (run s39b; through shared memory 0.86–0.87 of TMA's speed, runs s39c and s39d).
///
/// # Safety
/// As [`store`]'s direct path; `smem` is this warpgroup's first two buffers (1024-byte
/// aligned); the whole warpgroup calls it.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_staged<T: OutElem, O: EpilogueOp, const TILE_M: i32, Cols: StaticInt>(
    acc: &[f32; 128],
    c: *mut T,
    ldc: i64,
    (m, n): (i32, i32),
    (r0, c0): (i32, i32),
    alpha: f32,
    beta: f32,
    t: i32,
    smem: *mut u8,
    wg: i32,
    op: O,
) {
    const {
        assert!(
            Cols::VALUE % 32 == 0 && Cols::VALUE <= 256,
            "store_staged: the tile's fragment columns are whole 32-column chunks"
        )
    };
    // (opaque: nothing of the epilogue's is computed before the mainloop and held across it)
    // SAFETY: `t` is the thread's index in its warpgroup (0..128)
    let t = unsafe { device::hint::opaque_index::<128>(t) };
    let g = make_tensor(make_gmem_ptr(c), make_layout((m, n), (_1, ldc))); // (M,N)
    let first = (
        r0 + acc_row().crd2idx((t, 0)),
        c0 + acc_col().crd2idx((t, 0)),
    );
    // the copy's thread: row `i` of the chunk, columns `j0 + 2·k`, `k < 16`, in a loop (rolled:
    // its registers are few beside the accumulators)
    let (i, j0): (i32, i32) = make_layout_left((_64, _2)).idx2crd(t);
    let copy_cols = make_layout(_16, _2); // k → column − j0
    let ks = device::hint::opaque(16);
    // (chunk) → its buffer: two in turn
    let buffer = make_layout((_2, _4), (_8192, _0));
    // the previous tile's TMA stores (if it took that path) have read the buffers, and every
    // thread has left the previous tile's copies
    if t == 0 {
        tma_store_wait::<0>();
    }
    warpgroup_sync(wg);
    let read_c = beta != 0.0;
    device::unroll!(
        (Cols::VALUE / 32) as usize,
        #[inline(always)]
        |chunk| {
            let chunk = chunk as i32;
            let buf = unsafe { smem.add(buffer.crd2idx(chunk) as usize) } as *mut f32;
            let s = make_tensor(
                make_smem_ptr(buf),
                tile_to_shape(Layout_MN_SW128_Atom::<f32>::new(), (_64, _32), (_2, _1)),
            ); // (64,32) chunk, M contiguous
            let (dr, dc) = frag_col_to_tile(TILE_M, 32 * chunk);
            let (r, c1) = (r0 + dr + i, c0 + dc + j0); // the copy's first element
            // with a source, C's elements of the chunk (zeros outside C) first
            if read_c {
                for k in 0..ks {
                    let j = copy_cols.crd2idx(k);
                    let x = if r < m && c1 + j < n {
                        unsafe { g.read((r, c1 + j)) }.to_f32()
                    } else {
                        0.0
                    };
                    unsafe { *s.ptr((i, j0 + j)) = x };
                }
                warpgroup_sync(wg);
            }
            unsafe {
                for_chunk_f32(buf, chunk, t, |v, p| {
                    let (rc, x) = product::<O, TILE_M>(&op, acc, v, alpha, first);
                    // `beta·C` fused into the sum, as on the other paths (a constant `false`
                    // where the epilogue has no source: nothing of it compiled)
                    let x = if read_c {
                        device::math::fma(beta, *p, x)
                    } else {
                        x
                    };
                    *p = op.apply(x, rc);
                })
            };
            warpgroup_sync(wg);
            for k in 0..ks {
                let j = copy_cols.crd2idx(k);
                let x = unsafe { *s.ptr((i, j0 + j)) };
                if r < m && c1 + j < n {
                    unsafe { g.write((r, c1 + j), T::from_f32(x)) };
                }
            }
        }
    );
}

/// `stmatrix.x4.trans`'s row addresses in accumulator terms: lane `l = (l0, l1, q)` of shape
/// `(2,4,4)` gives the address of column `2·l1 + l0` of 8×8 matrix `q`, whose first element is
/// held by lane `l1` of the same warp (thread offset, this layout) as value `l0 + 2q` of the
/// stmatrix's 8 (value offset, [`stsm_val`]): the inverse of the fragment `stmatrix` stores
/// (lane `4i + j/2` holds element `(i, j)` of each matrix, register `q` matrix `q`).
#[inline(always)]
fn stsm_thr() -> Layout<(_2, _4, _4), (_0, _1, _0)> {
    Layout::default()
}
/// The value part of [`stsm_thr`].
#[inline(always)]
fn stsm_val() -> Layout<(_2, _4, _4), (_1, _0, _2)> {
    Layout::default()
}

/// Writes the 64 fragment columns from 16-column block `block0` (columns `16·block0..` of the
/// warpgroup's 64×256 tile: chunk `c` of a tile of whole 64-column chunks is block `4c`, a
/// 160-wide tile's third chunk block 6, [`chunk_block0`]) as 16-bit C into
/// `buf`, the value of accumulator `v` being `value(v)` (the caller's `op(alpha·acc[v])`), laid out as the chunk's TMA box: CuTe's `Layout_MN_SW128_Atom`
/// tiled to 64×64 (`Sw<3,4,3>` on bytes over `(64,64):(1,64)`). Each thread packs its value
/// pairs with `pack` (`cvt.rn.bf16x2.f32` / `cvt.rn.f16x2.f32`) and each warp stores four
/// `stmatrix.x4.trans` (its 16 rows × 64 columns); the 128-byte swizzle keeps them free of bank
/// conflicts. `t` is the thread's index in the warpgroup; all 128 threads call it.
///
/// On the emulator: a warpgroup stages the chunk from block 4 (columns 64..128) and from block 6
/// (columns 96..160) of accumulators that number their elements, and every element lands at its
/// swizzled place (byte `2·(m + 64·n)` with bits 4..7 XOR bits 7..10).
///
/// ```
/// use kernels_emu::hgemm_epilogue::{acc_col, acc_row, stage_blocks_b16};
/// device::kernel! {
///     pub unsafe fn stage(out: *mut u16, block0: i32) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[u16; 4096]>() as *mut u16;
///         let mut acc = [0f32; 128];
///         for (v, a) in acc.iter_mut().enumerate() {
///             // the element's place (m, n) in the chunk from column 16·block0, numbered m + 64·n
///             let (m, n) = (acc_row().crd2idx((t, v as i32)), acc_col().crd2idx((t, v as i32)));
///             *a = if n >= 16 * block0 { (m + 64 * (n - 16 * block0)) as f32 / 2.0 } else { -1.0 };
///         }
///         // alpha 2 and a "conversion" that keeps the numbers as 16-bit integers
///         let ints = |lo: f32, hi: f32| lo as u32 | (hi as u32) << 16;
///         unsafe { stage_blocks_b16(smem, block0, t, |v| 2.0 * acc[v], ints) };
///         device::thread::sync_threads();
///         for i in 0..32 {
///             let e = 32 * t as usize + i;
///             unsafe { *out.add(e) = *smem.add(e) };
///         }
///     }
/// }
/// for block0 in [4, 6] {
///     let mut got = vec![0u16; 4096];
///     let p = got.as_mut_ptr() as usize;
///     // SAFETY: one warpgroup, 8 KiB of shared memory, 4096 outputs.
///     unsafe { device::emu::launch((1, 1, 1), (128, 1, 1), 8192, || stage(p as *mut u16, block0)) };
///     for n in 0..64usize {
///         for m in 0..64usize {
///             let byte = 2 * (m + 64 * n);
///             let at = (byte ^ (((byte >> 7) & 7) << 4)) / 2;
///             assert_eq!(got[at] as usize, m + 64 * n, "block {block0} m {m} n {n}");
///         }
///     }
/// }
/// ```
///
/// # Safety
/// `buf` is 1024-byte aligned shared memory of [`CHUNK_BYTES`]; the whole warpgroup calls it.
#[inline(always)]
pub unsafe fn stage_blocks_b16(
    buf: *mut u16,
    block0: i32,
    t: i32,
    value: impl Fn(usize) -> f32,
    pack: impl Fn(f32, f32) -> u32,
) {
    unsafe {
        for_blocks_b16(
            buf,
            block0,
            t,
            #[inline(always)]
            |v, row| {
                let regs = [
                    pack(value(v[0]), value(v[1])),
                    pack(value(v[2]), value(v[3])),
                    pack(value(v[4]), value(v[5])),
                    pack(value(v[6]), value(v[7])),
                ];
                // SAFETY: the whole warp; the row address is in `buf` and 16-byte aligned (8 rows of
                // one column, kept together by the swizzle)
                stmatrix_x4_trans(row, regs)
            },
        )
    }
}

/// `f(vals, row)` for each of the thread's four `stmatrix.x4.trans` of the chunk from 16-column
/// block `block0` (columns `16·block0..` of the 64×256 fragment; chunk `c` is block `4c`) in `buf`
/// laid out as [`stage_blocks_b16`]'s: `row` the
/// lane's row address, `vals` the accumulator indices its registers' halves hold (register `q`:
/// `vals[2q]` low, `vals[2q + 1]` high) — the same for an `ldmatrix.x4.trans` of `row`, its
/// inverse.
///
/// # Safety
/// As [`stage_blocks_b16`]; `f` is called by the whole warp.
#[inline(always)]
unsafe fn for_blocks_b16(buf: *mut u16, block0: i32, t: i32, f: impl Fn([usize; 8], u32)) {
    let s = make_tensor(
        make_smem_ptr(buf),
        tile_to_shape(Layout_MN_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft),
    ); // (64,64) chunk, M contiguous
    let (rows, cols) = (acc_row(), acc_col());
    let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
    // the thread and value (of this stmatrix's 8) whose element this lane's address is
    let src_t = make_layout_left((_32, _4)).crd2idx((stsm_thr().crd2idx(lane), warp));
    let src_v = stsm_val().crd2idx(lane);
    // (value in a stmatrix, 16-column block) → accumulator index
    let vals = make_layout_left((_8, _16));
    device::unroll!(
        4,
        #[inline(always)]
        |j| {
            let v = #[inline(always)]
            |i: i32| vals.crd2idx((i, block0 + j as i32)) as usize;
            let first = vals.crd2idx((src_v, block0 + j as i32));
            let (r, c) = (
                rows.crd2idx((src_t, first)),
                cols.crd2idx((src_t, first)) - 16 * block0,
            );
            f(
                [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7)],
                dynamic_shared_addr_of(s.ptr((r, c))),
            );
        }
    );
}

/// [`stage_blocks_b16`] over a chunk that holds C already (its TMA box load, waited for on the
/// warpgroup's barrier by each thread): each warp reads its elements of C with `ldmatrix.x4.trans`
/// at the addresses its `stmatrix.x4.trans` then writes, so element `v`'s new value is
/// `value(v, C)` (the caller's `op(alpha·acc[v] + beta·C)`).
///
/// On the emulator (which has no TMA unit: the warpgroup writes the box's swizzled layout
/// itself, as the load would): a 64×64 chunk of a bf16 C with `ldc` 136 (a tile of 128 rows:
/// the chunk from block 4 is rows 64.. of columns 0..64, [`frag_col_to_tile`]) whose columns past 50 lie
/// outside C (TMA fills them with zeros), staged as `2·acc − C`: inside C every element is
/// `2·acc − C`, outside it `2·acc`.
///
/// ```
/// use kernels_emu::hgemm_epilogue::{
///     Bf16Bits, OutElem, acc_col, acc_row, stage_blocks_b16_source,
/// };
/// const LDC: usize = 136;
/// // the box's element (m, n) in the chunk: `Sw<3,3,3> o (64,64):(1,64)` (EpilogueBoxB16)
/// fn at(m: usize, n: usize) -> usize {
///     let byte = 2 * (m + 64 * n);
///     (byte ^ (((byte >> 7) & 7) << 4)) / 2
/// }
/// device::kernel! {
///     pub unsafe fn stage(c: *const Bf16Bits, out: *mut u16) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[u16; 4096]>() as *mut u16;
///         for e in 32 * t as usize..32 * t as usize + 32 {
///             let (m, n) = (e % 64, e / 64);
///             let v = if n < 50 { unsafe { (*c.add(64 + m + LDC * n)).0 } } else { 0 };
///             unsafe { *smem.add(at(m, n)) = v };
///         }
///         device::thread::sync_threads();
///         let mut acc = [0f32; 128];
///         for (v, a) in acc.iter_mut().enumerate() {
///             let (m, n) = (acc_row().crd2idx((t, v as i32)), acc_col().crd2idx((t, v as i32)));
///             *a = (m + 64 * (n - 64)) as f32; // the chunk's element (m, n - 64)
///         }
///         unsafe { stage_blocks_b16_source::<Bf16Bits>(smem, 4, t, |v, c| 2.0 * acc[v] - c) };
///         device::thread::sync_threads();
///         for i in 0..32 {
///             let e = 32 * t as usize + i;
///             unsafe { *out.add(e) = *smem.add(e) };
///         }
///     }
/// }
/// // C(r, j) = r - 2j (small integers: exact in bf16)
/// let c: Vec<Bf16Bits> =
///     (0..LDC * 50).map(|e| Bf16Bits::from_f32((e % LDC) as f32 - 2.0 * (e / LDC) as f32)).collect();
/// let mut got = vec![0u16; 4096];
/// let (pc, p) = (c.as_ptr() as usize, got.as_mut_ptr() as usize);
/// // SAFETY: one warpgroup, 8 KiB of shared memory, C of 50 columns of 136, 4096 outputs.
/// unsafe {
///     device::emu::launch((1, 1, 1), (128, 1, 1), 8192, || stage(pc as *const Bf16Bits, p as *mut u16))
/// };
/// for n in 0..64usize {
///     for m in 0..64usize {
///         let acc = (m + 64 * n) as f32;
///         let want = if n < 50 { 2.0 * acc - ((64 + m) as f32 - 2.0 * n as f32) } else { 2.0 * acc };
///         assert_eq!(Bf16Bits(got[at(m, n)]).to_f32(), Bf16Bits::from_f32(want).to_f32(), "m {m} n {n}");
///     }
/// }
/// ```
///
/// # Safety
/// As [`stage_blocks_b16`].
#[inline(always)]
pub unsafe fn stage_blocks_b16_source<T: Out16>(
    buf: *mut u16,
    block0: i32,
    t: i32,
    value: impl Fn(usize, f32) -> f32,
) {
    unsafe {
        for_blocks_b16(
            buf,
            block0,
            t,
            #[inline(always)]
            |v, row| {
                // SAFETY: as the stmatrix below, whose registers these are
                let c = ldmatrix_x4_trans(row);
                let pair = #[inline(always)]
                |q: usize| {
                    let [lo, hi] = T::unpack2(c[q]);
                    T::pack2(value(v[2 * q], lo), value(v[2 * q + 1], hi))
                };
                stmatrix_x4_trans(row, [pair(0), pair(1), pair(2), pair(3)])
            },
        )
    }
}

/// Writes chunk `chunk` (columns `32·chunk..` of the warpgroup's 64×256 tile) as f32 C into
/// `buf`, the value of accumulator `v` being `value(v)`, laid out as two TMA boxes of 32×32: CuTe's `Layout_MN_SW128_Atom<float>`
/// (`(32,8):(1,32)`) tiled to 64×32 N first (`Step<_2,_1>`), so box `i` holds rows `32·i..` at
/// element `1024·i`. One `st.shared.f32` per value, conflict-free under the 128-byte swizzle.
///
/// ```
/// use kernels_emu::hgemm_epilogue::{acc_col, acc_row, stage_chunk_f32};
/// device::kernel! {
///     pub unsafe fn stage(out: *mut f32) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[f32; 2048]>() as *mut f32;
///         let mut acc = [0f32; 128];
///         for (v, a) in acc.iter_mut().enumerate() {
///             let (m, n) = (acc_row().crd2idx((t, v as i32)), acc_col().crd2idx((t, v as i32)));
///             *a = (m + 64 * n) as f32;
///         }
///         unsafe { stage_chunk_f32(smem, 7, t, |v| -acc[v]) };
///         device::thread::sync_threads();
///         for i in 0..16 {
///             let e = 16 * t as usize + i;
///             unsafe { *out.add(e) = *smem.add(e) };
///         }
///     }
/// }
/// let mut got = vec![0f32; 2048];
/// let p = got.as_mut_ptr() as usize;
/// // SAFETY: one warpgroup, 8 KiB of shared memory, 2048 outputs.
/// unsafe { device::emu::launch((1, 1, 1), (128, 1, 1), 8192, || stage(p as *mut f32)) };
/// for n in 0..32usize {
///     for m in 0..64usize {
///         let (b, mb) = (m / 32, m % 32); // box b, row mb of the box
///         let byte = 4 * (mb + 32 * n);
///         let at = 1024 * b + (byte ^ (((byte >> 7) & 7) << 4)) / 4;
///         assert_eq!(got[at], -((m + 64 * (224 + n)) as f32), "m {m} n {n}");
///     }
/// }
/// ```
///
/// # Safety
/// `buf` is 1024-byte aligned shared memory of [`CHUNK_BYTES`]; `t` in `0..128`.
#[inline(always)]
pub unsafe fn stage_chunk_f32(buf: *mut f32, chunk: i32, t: i32, value: impl Fn(usize) -> f32) {
    // SAFETY: each place is inside `buf` (the chunk's layout)
    unsafe { for_chunk_f32(buf, chunk, t, |v, p| *p = value(v)) }
}

/// `f(v, place)` for each of thread `t`'s 16 accumulators `v` of chunk `chunk` (columns
/// `32·chunk..` of the 64×256 fragment), `place` its element in `buf` laid out as
/// [`stage_chunk_f32`]'s chunk.
///
/// # Safety
/// `buf` is shared memory of [`CHUNK_BYTES`]; `t` in `0..128`; `f` may read and write `place`.
#[inline(always)]
unsafe fn for_chunk_f32(buf: *mut f32, chunk: i32, t: i32, f: impl Fn(usize, *mut f32)) {
    let s = make_tensor(
        make_smem_ptr(buf),
        tile_to_shape(Layout_MN_SW128_Atom::<f32>::new(), (_64, _32), (_2, _1)),
    ); // (64,32) chunk: two (32,32) boxes
    let (rows, cols) = (acc_row(), acc_col());
    let vals = make_layout_left((_16, _8)); // (value in a chunk, chunk) → accumulator index
    device::unroll!(
        16,
        #[inline(always)]
        |i| {
            let v = vals.crd2idx((i as i32, chunk));
            let (r, c) = (rows.crd2idx((t, v)), cols.crd2idx((t, v)) - 32 * chunk);
            f(v as usize, s.ptr((r, c)));
        }
    );
}

/// `bar.sync` of warpgroup `wg`'s 128 threads ([`EPI_BARRIER`] + `wg`).
#[inline(always)]
fn warpgroup_sync(wg: i32) {
    if wg == 0 {
        named_barrier_sync::<EPI_BARRIER, WG_THREADS>();
    } else {
        named_barrier_sync::<{ EPI_BARRIER + 1 }, WG_THREADS>();
    }
}

/// Warpgroup `wg`'s hand-off of its staged chunk `chunk` (thread `t` of the warpgroup) to the
/// thread that stores it ([`ChunkHandoff`]): warp 0, whose thread 0 issues the chunk's TMA
/// store, waits until the other three warps have staged it (and fenced: [`tma_store_fence`]
/// first); those three arrive and go on staging the next chunk. A barrier a chunk
/// ([`CHUNK_BARRIER`]), so that warps ahead by a chunk or more never count toward an earlier
/// chunk's barrier; within a tile only: the next tile's epilogue starts with the warpgroup's
/// meeting, which warp 0 reaches after every hand-off of this one.
///
/// The ids are immediates (a table of `CHUNK_BARRIER`'s layout; the chunk is a constant of the
/// unrolled loop, the warpgroup a branch): with the id in a register (`barrier.sync %r`) the
/// e4m3 4096³ launch ran 1.5 % slower (H100 run s79c).
#[inline(always)]
fn chunk_handoff(wg: i32, t: i32, chunk: i32) {
    #[inline(always)]
    fn h<const ID: u32>(t: i32) {
        if t < 32 {
            named_barrier_sync::<ID, WG_THREADS>();
        } else {
            named_barrier_arrive::<ID, WG_THREADS>();
        }
    }
    const B: u32 = CHUNK_BARRIER;
    // (chunk, warpgroup) → id − B in (4, 2):(1, 4), as the arms spell it
    const {
        assert!(
            B + 8 <= 16,
            "chunk_handoff: eight named barriers from CHUNK_BARRIER"
        )
    };
    match (wg, chunk) {
        (0, 0) => h::<B>(t),
        (0, 1) => h::<{ B + 1 }>(t),
        (0, 2) => h::<{ B + 2 }>(t),
        (0, 3) => h::<{ B + 3 }>(t),
        (_, 0) => h::<{ B + 4 }>(t),
        (_, 1) => h::<{ B + 5 }>(t),
        (_, 2) => h::<{ B + 6 }>(t),
        _ => h::<{ B + 7 }>(t),
    }
}

/// Initializes the source loads' barriers at `s` ([`SourceBarriers`]): a full barrier of one
/// arrival (the loading thread's, with the tile's bytes) a consumer warpgroup. The epilogue's
/// `CollectiveEpilogue::init`.
///
/// On the emulator: a barrier starts in phase 0, which one arrival and a tile's four chunks'
/// bytes complete.
///
/// ```
/// use kernels_emu::config::SourceBarriers;
/// use kernels_emu::hgemm_epilogue::init_source;
/// let mut s = SourceBarriers { full: [7; 2] };
/// unsafe { init_source(&raw mut s) };
/// let bar = &raw mut s.full[1];
/// unsafe {
///     assert_eq!(device::mbarrier::mbarrier_phase(bar), 0);
///     device::mbarrier::mbarrier_arrive_expect_tx(bar, 4 * 8192);
///     device::mbarrier::mbarrier_complete_tx(bar, 3 * 8192);
///     assert!(!device::mbarrier::mbarrier_try_wait_parity(bar, 0));
///     device::mbarrier::mbarrier_complete_tx(bar, 8192);
///     assert!(device::mbarrier::mbarrier_try_wait_parity(bar, 0));
///     assert_eq!(device::mbarrier::mbarrier_phase(bar), 1);
/// }
/// ```
///
/// # Safety
/// `s` is the epilogue's pipeline storage; one thread, before any `store` reads C.
#[inline(always)]
pub unsafe fn init_source(s: *mut SourceBarriers) {
    for wg in 0..CONSUMERS {
        // SAFETY: in the storage, before any use
        unsafe { device::mbarrier::mbarrier_init(&raw mut (*s).full[wg], 1) };
    }
}

/// Whether the TMA path takes a warpgroup tile of `Cols` fragment columns: 128 to 256 in 32s
/// ([`store_chunks`]'s tiles; a 160-wide one's last 16-bit chunk overlaps the one before,
/// [`chunk_block0`]). Other widths take the direct path.
///
/// ```text
/// tma_cols::<_192>() && tma_cols::<_160>() && !tma_cols::<_64>()
/// ```
const fn tma_cols<Cols: StaticInt>() -> bool {
    Cols::VALUE % 32 == 0 && Cols::VALUE >= 128 && Cols::VALUE <= 256
}

/// The chunks of `CHUNK_COLS` columns that cover a tile of `Cols` (a multiple of 32):
/// `⌈Cols / CHUNK_COLS⌉` (a 160-wide tile's 16-bit chunks: three).
#[inline(always)]
const fn chunks_of<Cols: StaticInt, const CHUNK_COLS: i32>() -> i32 {
    (Cols::VALUE as u32).div_ceil(CHUNK_COLS as u32) as i32
}

/// Whether the storage `S` has a buffer for each of a `Cols`-wide tile's chunks of
/// `CHUNK_COLS` (a 16-bit tile in [`SMEM_EPI_BYTES`]; not an f32 tile's eight chunks, nor a
/// 256-wide 16-bit tile's four in two buffers): then [`store_chunks`] stores them as the
/// schedule says ([`ChunkHandoff`], [`OneMeeting`]), no chunk waiting for another's store.
///
/// ```text
/// buffer_per_chunk::<_256, 64, EpilogueStorage>()  == true    // 4 chunks, 4 buffers
/// buffer_per_chunk::<_256, 64, EpilogueStorage2>() == false   // 4 chunks, 2 buffers
/// buffer_per_chunk::<_256, 32, EpilogueStorage>()  == false   // 8 f32 chunks, 4 buffers
/// ```
#[inline(always)]
const fn buffer_per_chunk<Cols: StaticInt, const CHUNK_COLS: i32, S: ChunkBuffers>() -> bool {
    chunks_of::<Cols, CHUNK_COLS>() as usize <= S::PER_WARPGROUP
}

/// The first 16-column block (a `stmatrix.x4.trans`'s columns) of chunk `chunk` of a tile of
/// `Cols`: `CHUNK_COLS / 16 · chunk`, the last chunk moved back to end at the tile's end where
/// `Cols` is no multiple of `CHUNK_COLS` (a 160-wide tile's 16-bit chunks start at blocks 0, 4
/// and 6 — columns 0, 64 and 96: columns 96..128 are stored twice, with the same values).
///
/// ```text
/// chunk_block0::<_192, 64>(2) == 8
/// chunk_block0::<_160, 64>(2) == 6
/// ```
#[inline(always)]
fn chunk_block0<Cols: StaticInt, const CHUNK_COLS: i32>(chunk: i32) -> i32 {
    let per_chunk = const { CHUNK_COLS / 16 };
    (per_chunk * chunk).min(const { Cols::VALUE as i32 / 16 } - per_chunk)
}

/// Thread 0's loads of C's tile into the warpgroup's buffers at `smem` (a buffer a chunk of
/// `CHUNK_COLS` columns, [`store_chunks`]'s), all in flight at once on the warpgroup's barrier
/// `bar`: the tile's bytes expected on it (with thread 0's arrival where `arrive`; else the
/// arrival is owed, and the phase cannot complete before it), then `load(buffer, chunk, bar)`
/// a chunk.
///
/// # Safety
/// Thread 0 of the warpgroup, the buffers free (the previous tile's stores have read them), a
/// buffer for each chunk; `bar` the warpgroup's source barrier, its phase's arrival not yet
/// made, and with `arrive` every waiter has read that phase.
#[inline(always)]
unsafe fn request_source<Cols: StaticInt, const CHUNK_COLS: i32, S: ChunkBuffers>(
    smem: *mut u8,
    bar: SmemBarrier,
    arrive: bool,
    load: &impl Fn(*mut u8, i32, SmemBarrier),
) {
    let per_tile = chunks_of::<Cols, 64>();
    let buffer = make_layout(per_tile.min(S::PER_WARPGROUP as i32), _8192);
    let bytes = chunks_of::<Cols, CHUNK_COLS>() as u32 * CHUNK_BYTES as u32;
    if arrive {
        unsafe { device::mbarrier::mbarrier_arrive_expect_tx(bar, bytes) };
    } else {
        unsafe { device::mbarrier::mbarrier_expect_tx(bar, bytes) };
    }
    device::unroll!(
        chunks_of::<Cols, CHUNK_COLS>() as usize,
        #[inline(always)]
        |chunk| load(
            unsafe { smem.add(buffer.crd2idx(chunk as i32) as usize) },
            chunk as i32,
            bar
        )
    );
}

/// Where the TMA path's C comes from ([`store_chunks`]), with `beta ≠ 0`.
#[derive(Clone, Copy)]
enum Source {
    /// No C (`beta` 0).
    None,
    /// Loaded now, on this barrier of the warpgroup's.
    Load(SmemBarrier),
    /// Requested by [`load`] under the mainloop on this barrier, which owes thread 0's arrival.
    Loaded(SmemBarrier),
}

/// The TMA path's chunk loop over the warpgroup's fragment columns `Cols` (a static
/// multiple of 64 from 128 to 256: the collective's `WarpgroupTile::EpiCols`) in
/// chunks of `CHUNK_COLS` (64 for a 16-bit C, 32 for f32), through `Cols / 64` of the
/// warpgroup's [`CHUNK_BUFFERS`] buffers at `smem`, in turn (one a 16-bit chunk; an f32 tile's
/// chunks go round them twice); `stage(buffer, chunk)` writes one, `issue(buffer, chunk)`
/// (thread 0 only) stores it. With a [`Source::Load`], `load(buffer, chunk, barrier)` (thread 0
/// only) loads C's chunk into its buffer, completing its [`CHUNK_BYTES`] on `barrier`.
///
/// First, thread 0 waits until the previous tile's stores have read their buffers
/// (`cp.async.bulk.wait_group.read 0`: they were issued a whole mainloop ago, so this does
/// not wait), and the warpgroup meets (a named barrier of its 128 threads, never the CTA's).
/// With [`Source::Load`], thread 0 then loads the tile's chunks ([`request_source`]), and
/// every thread waits for the barrier's phase, which it read before the meeting (nothing
/// completes it until thread 0 arrives after the meeting; the wait makes the tile of C visible
/// to the thread). With [`Source::Loaded`] ([`load`] issued them under the mainloop, after the
/// wait for the previous stores, its arrival owed) thread 0 only arrives after the meeting,
/// and the phase completes once the loads have landed (long since, as a rule). Then, with a
/// buffer for each chunk (a 16-bit tile in [`SMEM_EPI_BYTES`], and always with a source),
/// per chunk: every thread writes the chunk, `fence.proxy.async.shared::cta`, and hands it to
/// warp 0 ([`chunk_handoff`]: warp 0 waits for the other three, which go on), whose thread 0
/// issues its store; the tile's stores commit as one group. Otherwise per chunk:
/// every thread writes the chunk, `fence.proxy.async.shared::cta`; where the
/// *next* chunk of this tile goes to a buffer this tile has used, thread 0 waits until at most
/// `B − 2` of its stores still read (`B` the buffers in turn: the store `B − 1` chunks back, the
/// last one in that buffer, has read it); the warpgroup meets; thread 0 issues and commits this
/// chunk's store. Either way a tile with a buffer per chunk never waits for its own stores:
/// they drain under the next tile's mainloop (doc/hopper-gemm.md,
/// "The store's cost, located"). After the tile's last chunk its stores are in flight;
/// [`store`] waits for them after the CTA's last tile.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_chunks<
    Cols: StaticInt,
    const CHUNK_COLS: i32,
    S: ChunkBuffers,
    Sch: StoreSchedule,
>(
    smem: *mut u8,
    wg: i32,
    t: i32,
    source: Source,
    load: impl Fn(*mut u8, i32, SmemBarrier),
    stage: impl Fn(*mut u8, i32),
    issue: impl Fn(*mut u8, i32),
) {
    // (chunk) → buffer offset: one buffer per 64 columns or the storage's buffers, fewer, in
    // turn (a 256-wide tile's four chunks go round two buffers; the next tile's first chunk
    // waits for every store of this one first; constants, so the checks fold)
    let per_tile = chunks_of::<Cols, 64>();
    let buffers = per_tile.min(S::PER_WARPGROUP as i32);
    // at least two buffers: the wait below is for the store `B − 1` chunks back, issued before
    // this chunk's staging; with one buffer the next chunk would overwrite the store still
    // reading it (session 27's one-buffer variants failed `--check`)
    if buffers < 2 {
        device::thread::trap();
    }
    let buffer = make_layout((buffers, per_tile / buffers * 2), (_8192, _0));
    const {
        assert!(
            tma_cols::<Cols>() && chunks_of::<Cols, CHUNK_COLS>() as usize <= 2 * CHUNK_BUFFERS,
            "store_chunks: two to four 64-column buffers a warpgroup"
        )
    };
    let chunks = chunks_of::<Cols, CHUNK_COLS>();
    // with a source, C goes into the buffers first, a buffer per chunk (so a chunk's buffer is
    // never written again in this tile)
    if !matches!(source, Source::None) && chunks > buffers {
        device::thread::trap();
    }
    // with a source: the phase its barrier is in (every thread waited for the previous one;
    // thread 0 arrives on this one after the meeting below, its loads issued here or by `load`)
    let bar = match source {
        Source::None => None,
        Source::Load(bar) | Source::Loaded(bar) => Some(bar),
    };
    // SAFETY: the warpgroup's barrier, initialized by the kernel's prologue
    let phase = bar.map(|bar| unsafe { device::mbarrier::mbarrier_phase(bar) });
    // the previous tile's stores have read every buffer (issued a mainloop ago: no wait; with
    // `load`'s request, waited for before it)
    if t == 0 && !matches!(source, Source::Loaded(_)) {
        tma_store_wait::<0>();
    }
    warpgroup_sync(wg);
    if let (Some(bar), Some(phase)) = (bar, phase) {
        if t == 0 {
            match source {
                Source::Loaded(_) => unsafe { device::mbarrier::mbarrier_arrive(bar) },
                _ => unsafe { request_source::<Cols, CHUNK_COLS, S>(smem, bar, true, &load) },
            }
        }
        // C's tile has landed, and the wait makes it visible to this thread
        unsafe { device::mbarrier::mbarrier_wait_parity(bar, phase) };
    }
    // a buffer for each chunk, so nothing waits between chunks; the schedule `Sch` says when
    // their stores go. [`ChunkHandoff`]: each chunk staged and fenced, then handed to warp 0
    // ([`chunk_handoff`]), whose thread 0 stores it at once, the tile's stores one bulk group.
    // [`OneMeeting`]: every chunk staged, then one proxy fence, one meeting and thread 0's
    // stores in one bulk group. Either saves the per-chunk meetings of the loop below (H100
    // run s78v: bf16 4096³ 1.00 → 1.01 of cuBLAS); the hand-off also starts a chunk's store
    // under the next one's staging (run s79a: one meeting lost 6 % at 8192²×512 against the
    // loop, the hand-off none, run s79c), but the FP8 entries ran 1.5–3 % slower with it (runs
    // s79b, s79c). A chunk staged from its source reads and writes the same addresses, a warp's
    // own. Decided on the types alone, so one form is compiled: decided on a run-time `bufs`
    // that folded only after inlining, LLVM optimized both forms until then, and the two GEMM
    // modules took 2 minutes longer to build.
    if const { buffer_per_chunk::<Cols, CHUNK_COLS, S>() } {
        if const { Sch::HANDOFF } {
            const {
                assert!(
                    !buffer_per_chunk::<Cols, CHUNK_COLS, S>()
                        || !Sch::HANDOFF
                        || chunks_of::<Cols, CHUNK_COLS>() <= 4,
                    "store_chunks: four hand-off barriers a warpgroup (CHUNK_BARRIER's layout)"
                )
            };
            device::unroll!(
                chunks_of::<Cols, CHUNK_COLS>() as usize,
                #[inline(always)]
                |chunk| {
                    let chunk = chunk as i32;
                    let buf = unsafe { smem.add(buffer.crd2idx(chunk) as usize) };
                    stage(buf, chunk);
                    tma_store_fence();
                    chunk_handoff(wg, t, chunk);
                    if t == 0 {
                        issue(buf, chunk);
                    }
                }
            );
            if t == 0 {
                tma_store_arrive();
            }
            return;
        }
        device::unroll!(
            chunks_of::<Cols, CHUNK_COLS>() as usize,
            #[inline(always)]
            |chunk| {
                let chunk = chunk as i32;
                stage(unsafe { smem.add(buffer.crd2idx(chunk) as usize) }, chunk);
            }
        );
        tma_store_fence();
        warpgroup_sync(wg);
        if t == 0 {
            device::unroll!(
                chunks_of::<Cols, CHUNK_COLS>() as usize,
                #[inline(always)]
                |chunk| {
                    let chunk = chunk as i32;
                    issue(unsafe { smem.add(buffer.crd2idx(chunk) as usize) }, chunk);
                }
            );
            tma_store_arrive();
        }
        return;
    }
    // fewer buffers than chunks (an f32 tile; a 256-wide 16-bit tile in two buffers): a chunk at
    // a time, unrolled: the chunk picks the accumulators, which must stay registers
    device::unroll!(
        chunks_of::<Cols, CHUNK_COLS>() as usize,
        #[inline(always)]
        |chunk| {
            let chunk = chunk as i32;
            let buf = unsafe { smem.add(buffer.crd2idx(chunk) as usize) };
            stage(buf, chunk);
            tma_store_fence();
            // the next chunk's buffer has had a store of this tile: at most B − 2 stores
            // reading (B and the chunk are constants: the test folds, one arm is compiled)
            if t == 0 && chunk + 1 < chunks && chunk + 1 >= buffers {
                match buffers {
                    4 => tma_store_wait::<2>(),
                    3 => tma_store_wait::<1>(),
                    _ => tma_store_wait::<0>(),
                }
            }
            warpgroup_sync(wg);
            if t == 0 {
                issue(buf, chunk);
                tma_store_arrive();
            }
        }
    );
}

/// The load of C's 16-bit chunk `chunk` of the tile at `origin` into `buf` on `bar`, where the
/// chunk's store will write it (TMA fills past C's edges with zeros): [`request_source`]'s
/// `load` on the TMA path.
#[inline(always)]
fn load_chunk_b16<const TILE_M: i32, Cols: StaticInt>(
    tma_c: *const TmaDescriptor,
    (r0, c0): (i32, i32),
) -> impl Fn(*mut u8, i32, SmemBarrier) + Copy {
    type Load = TmaAtom<TmaLoad, u16, BoxLayout<EpilogueBoxB16>>;
    const { assert!(Load::TX_BYTES as usize == CHUNK_BYTES, "a chunk is one box") };
    #[inline(always)]
    move |buf, chunk, bar| {
        let (dr, dc) = frag_col_to_tile(TILE_M, 16 * chunk_block0::<Cols, 64>(chunk));
        // SAFETY: (the caller's) thread 0, `buf` a free chunk buffer, `tma_c` C's tensor map
        unsafe { Load::new(tma_c).copy(bar, buf as *mut u16, [r0 + dr, c0 + dc]) }
    }
}

/// The 16-bit TMA path: the tile's `Cols` columns in 64×64 chunks ([`store_chunks`]), each
/// staged with `value(v)` ([`stage_blocks_b16`]); with `beta ≠ 0` C is loaded into the chunks'
/// buffers first (by TMA: C's tensor map with the stores' box, one thread, every chunk in
/// flight at once, on the warpgroup's barrier of `d.source`) and each chunk staged with
/// `source(v, C)` ([`stage_blocks_b16_source`]).
///
/// # Safety
/// As [`store`]'s TMA path for a 16-bit C; with `beta ≠ 0` a buffer for each of the tile's
/// chunks and `d.source` initialized ([`init_source`]).
#[inline(always)]
unsafe fn store_b16<
    T: Out16,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
    Sch: StoreSchedule,
>(
    d: &TileStore,
    t: i32,
    tma_c: *const TmaDescriptor,
    value: impl Fn(usize) -> f32 + Copy,
    source: impl Fn(usize, f32) -> f32 + Copy,
) {
    let atom = TmaAtom::<TmaStore, u16, BoxLayout<EpilogueBoxB16>>::new(tma_c);
    let (r0, c0) = d.origin;
    let read_c = d.beta != 0.0;
    // the warpgroup's barrier, made here per tile
    let src = match (read_c, d.source, d.loaded) {
        (false, _, _) => Source::None,
        (true, Some(bar), false) => Source::Load(warpgroup_source(bar, d.wg)),
        (true, Some(bar), true) => Source::Loaded(warpgroup_source(bar, d.wg)),
        // (a source read through buffers always has barriers)
        (true, None, _) => device::thread::trap(),
    };
    unsafe {
        store_chunks::<Cols, 64, S, Sch>(
            d.smem,
            d.wg,
            t,
            src,
            load_chunk_b16::<TILE_M, Cols>(tma_c, d.origin),
            #[inline(always)]
            |buf, chunk| {
                let block0 = chunk_block0::<Cols, 64>(chunk);
                if read_c {
                    stage_blocks_b16_source::<T>(buf as *mut u16, block0, t, source)
                } else {
                    stage_blocks_b16(buf as *mut u16, block0, t, value, T::pack2)
                }
            },
            #[inline(always)]
            |buf, chunk| {
                let (dr, dc) = frag_col_to_tile(TILE_M, 16 * chunk_block0::<Cols, 64>(chunk));
                atom.copy(buf as *const u16, [r0 + dr, c0 + dc])
            },
        )
    }
}

/// The warpgroup's buffers (`S`'s) in `a.smem` (the warpgroup opaque: the buffers' addresses
/// are computed where they are used, per tile — with `beta ≠ 0`'s loads they were hoisted out
/// of the tile loop, held across the mainloop, and ptxas spilled).
///
/// # Safety
/// `a.smem` holds both warpgroups' buffers.
#[inline(always)]
unsafe fn warpgroup_buffers<S: ChunkBuffers>(a: &TileStore) -> *mut u8 {
    let wg = device::hint::opaque(a.wg);
    unsafe {
        a.smem
            .add(make_layout(_2, S::PER_WARPGROUP as i32 * CHUNK_BYTES as i32).crd2idx(wg) as usize)
    }
}

/// Warpgroup `wg`'s source barrier of the [`SourceBarriers`] at `bar` (warpgroup 0's; `wg`
/// opaque, as in [`warpgroup_buffers`]: the address is made where it is used, per tile, not
/// held across the mainloop).
///
/// ```text
/// warpgroup_source(bar, 1) == bar.offset(1)    // warpgroup 1's barrier, the next
/// ```
#[inline(always)]
fn warpgroup_source(bar: SmemBarrier, wg: i32) -> SmemBarrier {
    bar.offset(device::hint::opaque(wg) as u32)
}

/// `a.beta`, opaque (its test is made where it is used, not held across the mainloop); without
/// a source the constant 0, so that no code reading C is compiled.
#[inline(always)]
fn beta_of<const SOURCE: bool>(a: &TileStore) -> f32 {
    if SOURCE {
        f32::from_bits(device::hint::opaque(a.beta.to_bits() as i32) as u32)
    } else {
        0.0
    }
}

/// The path [`store`] takes for the tile `a` with `beta`: C's element code plus [`OUT_TMA`]
/// where `a.out` has it, the tile's rows end inside M (or M on a 16-byte boundary,
/// [`OUT_TMA_EDGE`]), and with `beta ≠ 0` C is 16-bit with a buffer for each of the tile's
/// chunks (C is read into them); else the element code alone, the direct path. [`load`] asks
/// the same, so the two agree on every tile.
#[inline(always)]
fn path<const TILE_M: i32, Cols: StaticInt, S: ChunkBuffers>(a: &TileStore, beta: f32) -> u32 {
    // the tile's rows all inside M, or M ends on a 16-byte boundary
    let edge_ok = a.out & OUT_TMA_EDGE != 0 || a.origin.0 + TILE_M <= a.mn.0;
    // `beta ≠ 0` on the TMA path: a 16-bit C whose tile has a buffer a chunk (a constant but
    // for `beta`)
    let source_ok = beta == 0.0
        || (crate::config::tma_reads_source(a.out)
            && Cols::VALUE as usize <= 64 * S::PER_WARPGROUP);
    if edge_ok && source_ok {
        a.out & (OUT_TMA | 3)
    } else {
        a.out & 3
    }
}

/// Whether [`store`] reads the tile's C through the buffers by TMA ([`path`]: a 16-bit C of
/// `ELEMS` on the TMA path, `beta ≠ 0`, `SOURCE`), which [`load`] may request ahead.
///
/// ```
/// use kernels_emu::config::{EpilogueStorage, EpilogueStorage2, OUT_TMA};
/// use kernels_emu::hgemm_epilogue::{reads_source_by_tma, TileStore, ELEMS_ALL, ELEMS_BF16};
/// use layout_types::cute::prelude::_256;
/// let tile = |out: u32, beta: f32, m: i32| TileStore {
///     c: core::ptr::null_mut(), ldc: 1024, out, tma_c: core::ptr::null(), mn: (m, 1024),
///     origin: (64, 256), alpha: 1.0, beta, t: 0, smem: core::ptr::null_mut(),
///     source: None, wg: 0, last: false, loaded: false,
/// };
/// let by_tma = |a: &TileStore| reads_source_by_tma::<ELEMS_ALL, true, 64, _256, EpilogueStorage>(a);
/// assert!(by_tma(&tile(1 | OUT_TMA, 1.0, 1024))); // bf16, beta 1, inside M
/// assert!(by_tma(&tile(2 | OUT_TMA, -0.5, 1024))); // f16
/// assert!(!by_tma(&tile(1 | OUT_TMA, 0.0, 1024))); // beta 0: C is not read
/// assert!(!by_tma(&tile(OUT_TMA, 1.0, 1024))); // f32: C read from registers
/// assert!(!by_tma(&tile(1, 1.0, 1024))); // the direct path
/// assert!(!by_tma(&tile(1 | OUT_TMA, 1.0, 100))); // the tile crosses M: the direct path
/// // an instantiation that stores bf16 only, or has no source
/// assert!(!reads_source_by_tma::<ELEMS_BF16, true, 64, _256, EpilogueStorage>(&tile(2 | OUT_TMA, 1.0, 1024)));
/// assert!(!reads_source_by_tma::<ELEMS_ALL, false, 64, _256, EpilogueStorage>(&tile(1 | OUT_TMA, 1.0, 1024)));
/// // two buffers a warpgroup for the tile's four chunks: C is read on the direct path
/// assert!(!reads_source_by_tma::<ELEMS_ALL, true, 64, _256, EpilogueStorage2>(&tile(1 | OUT_TMA, 1.0, 1024)));
/// ```
#[inline(always)]
pub fn reads_source_by_tma<
    const ELEMS: u32,
    const SOURCE: bool,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
>(
    a: &TileStore,
) -> bool {
    let beta = beta_of::<SOURCE>(a);
    let has = |code: u32| ELEMS & (1 << code) != 0;
    let tma = const { tma_cols::<Cols>() };
    let p = path::<TILE_M, Cols, S>(a, beta);
    beta != 0.0 && tma && ((p == (OUT_TMA | 1) && has(1)) || (p == (OUT_TMA | 2) && has(2)))
}

/// Requests the tile's C ahead of [`store`] where `store` reads it through the buffers by TMA
/// ([`reads_source_by_tma`]): the collective's `CollectiveEpilogue::load`, which the kernel
/// calls under the tile's mainloop. Thread 0 waits until the previous tile's stores have read
/// the buffers, raises the warpgroup's source barrier's expected bytes by the tile's, and
/// issues the chunks' loads ([`request_source`]) without arriving: the barrier's phase cannot
/// complete before the tile's `store` (told so by [`TileStore::loaded`]) has every thread read
/// it and thread 0 arrive, so no state is kept across the mainloop. Nothing elsewhere (the
/// other threads, or where `store` reads no C that way).
///
/// On the emulator (thread 0's loads of a tile it reads need the TMA unit): a tile whose C
/// `store` reads otherwise, or not at all, and every thread but 0, issue nothing, so the
/// warpgroup's source barrier owes no bytes and one arrival completes its phase.
///
/// ```
/// use device::mbarrier::{SmemBarrier, mbarrier_arrive, mbarrier_try_wait_parity};
/// use kernels_emu::config::{EpilogueStorage, SourceBarriers, OUT_TMA};
/// use kernels_emu::hgemm_epilogue::{init_source, load, TileStore, ELEMS_ALL};
/// use layout_types::cute::prelude::_256;
/// let mut s = SourceBarriers { full: [0; 2] };
/// unsafe { init_source(&raw mut s) };
/// let bar = &raw mut s.full[0];
/// let tile = |t: i32, beta: f32, m: i32| TileStore {
///     c: core::ptr::null_mut(), ldc: 1024, out: 1 | OUT_TMA, tma_c: core::ptr::null(), mn: (m, 1024),
///     origin: (64, 256), alpha: 1.0, beta, t, smem: core::ptr::null_mut(),
///     source: Some(SmemBarrier::new(bar)), wg: 0, last: false, loaded: false,
/// };
/// unsafe {
///     load::<ELEMS_ALL, true, 64, _256, EpilogueStorage>(&tile(0, 0.0, 1024)); // beta 0: C is not read
///     load::<ELEMS_ALL, true, 64, _256, EpilogueStorage>(&tile(0, 1.0, 100)); // crosses M: the direct path
///     load::<ELEMS_ALL, true, 64, _256, EpilogueStorage>(&tile(5, 1.0, 1024)); // read by TMA: thread 0 loads it
///     mbarrier_arrive(bar);
///     assert!(mbarrier_try_wait_parity(bar, 0));
/// }
/// ```
///
/// # Safety
/// The whole warpgroup calls it, once a tile at most, on a tile it then stores with
/// `loaded` true and the same `a` otherwise (its `acc` need not be final); `a` as for [`store`].
#[inline(always)]
pub unsafe fn load<
    const ELEMS: u32,
    const SOURCE: bool,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
>(
    a: &TileStore,
) {
    if a.t != 0 || !reads_source_by_tma::<ELEMS, SOURCE, TILE_M, Cols, S>(a) {
        return;
    }
    // (a source read through buffers always has barriers)
    let Some(bar) = a.source else { return };
    let bar = warpgroup_source(bar, a.wg);
    // the previous tile's stores have read every buffer (issued before this mainloop)
    tma_store_wait::<0>();
    // SAFETY: thread 0, the buffers free, the barrier's phase owing thread 0's arrival
    unsafe {
        request_source::<Cols, 64, S>(
            warpgroup_buffers::<S>(a),
            bar,
            false,
            &load_chunk_b16::<TILE_M, Cols>(a.tma_c, a.origin),
        )
    };
}

/// Stores the warpgroup's tile at `a.origin` of the `a.mn` C ([`TileStore`]), a tile of
/// `TILE_M` rows (64: the fragment's 64×256; 128: 128×128, its 64-column chunks along M first,
/// [`frag_col_to_tile`]) held in the fragment's first `Cols` columns (`_256`; a 64 × N tile's
/// N: the TMA path stores those only, the direct path clips at `mn`'s N, which the caller clips
/// at the tile's end). The path is `a.out`'s: with [`OUT_TMA`] the TMA path (`tma_c` C's
/// tensor map with the chunk's box; with `beta ≠ 0` a 16-bit C's tile read into the buffers
/// first where the warpgroup has one a 64-column chunk, else the direct path), with
/// [`OUT_TMA_EDGE`] also for the tiles that cross M; else (and for those tiles without it) the
/// direct path. `a.smem` is the epilogue's storage `S`, [`ChunkBuffers::PER_WARPGROUP`] chunk
/// buffers a warpgroup (4 in [`SMEM_EPI_BYTES`], 2 in [`SMEM_EPI_BYTES_2`]; the warpgroups'
/// buffers lie that many apart, a TMA tile's chunks go through `min(B, Cols / 64)` of them in
/// turn, whole rounds, a direct tile's through two; none: no shared memory, the direct path
/// from registers; a type, so only the paths it allows are compiled); with `last` every path waits for its TMA stores' reads; with
/// `loaded` the TMA path finds its C requested by [`load`] (else it loads C itself); `Sch`, when
/// a tile whose chunks each have a buffer stores them ([`StoreSchedule`]). `op` is
/// the element-wise operation after `alpha·acc + beta·C` (its [`EpilogueOp::acc_scale`] scales the
/// product first, where [`EpilogueOp::SCALED`]). `ELEMS`: the elements of C this
/// instantiation stores, a bit mask over the element codes ([`ELEMS_ALL`]; the 16-bit fused
/// entries [`ELEMS_BF16`], bf16 only: each element is two more unrolled bodies, a fused one
/// long, and their compile time grew faster than their number); another element traps.
/// `SOURCE` false: no source, `a.beta` taken as 0 (`D = op(alpha·acc)`), and no code that
/// reads C is compiled (the FP8 entries', `Fp8EpilogueOf`). (An
/// entry whose `out` never has [`OUT_TMA`], as the promoted FP8 ones' `config::out_direct`,
/// compiles the direct arms only: LLVM folds the others away.)
///
/// On the emulator: the direct path (from registers: no buffers, or `beta ≠ 0`; through shared
/// memory: two buffers and `beta` 0) of a warpgroup's 64×256 tile at the edges of a 40×200 f32 C with the fused FP8 entries' operation (per-row and per-column scales, a bias along N,
/// ReLU, each thread's form as `FusedEpilogue` builds it): every stored element
/// is `relu(alpha·s_row·s_col·acc + beta·C + bias)` — the scales on the product only — and
/// nothing past the edges is written.
///
/// ```
/// use kernels_emu::config::{ChunkHandoff, EpilogueStorage2, NoEpilogueStorage};
/// use kernels_emu::hgemm_epilogue::{acc_col, acc_row, acc_row_v, store, TileStore};
/// use layout_types::cutlass::fusion::{act, BiasAct, BiasMode, RowColScale, ScaleKind, Scaled};
/// use layout_types::cute::prelude::_256;
/// const M: usize = 40;
/// const N: usize = 200;
/// const LD: usize = 48;
/// device::kernel! {
///     pub unsafe fn fused(c: *mut f32, vecs: *const f32, bufs: usize, beta: f32) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[u8; 16384]>() as *mut u8;
///         let mut acc = [0f32; 128];
///         for (v, a) in acc.iter_mut().enumerate() {
///             let (r, c) = (acc_row().crd2idx((t, v as i32)), acc_col().crd2idx((t, v as i32)));
///             *a = ((r * 7 + c * 3) % 11) as f32 - 5.0;
///         }
///         let mn = (M as i32, N as i32);
///         let (row, col, bias) = (vecs, unsafe { vecs.add(M) }, unsafe { vecs.add(M + N) });
///         let (rt, ct) = (acc_row().crd2idx((t, 0)), acc_col().crd2idx((t, 0)));
///         let rows = [rt, rt + acc_row_v().crd2idx(2i32)];
///         let op = unsafe {
///             let s = RowColScale::from_vectors(row, col, mn);
///             let b = BiasAct::<act::Relu>::new(bias, BiasMode::N, mn);
///             Scaled::new(s.for_rows(rows, ct), b.for_rows(rows, ct))
///         };
///         let tile = TileStore {
///             c: c as *mut u8, ldc: LD as i64, out: 0, tma_c: core::ptr::null(), mn,
///             origin: (0, 0), alpha: 0.5, beta, t, smem, wg: 0, last: false,
///             source: None, loaded: false,
///         };
///         // (f32 only: each element is two more unrolled bodies on the emulator's stack)
///         if bufs == 0 {
///             unsafe { store::<0b001, true, 64, _256, NoEpilogueStorage, ChunkHandoff>(&acc, &tile, op) };
///         } else {
///             unsafe { store::<0b001, true, 64, _256, EpilogueStorage2, ChunkHandoff>(&acc, &tile, op) };
///         }
///     }
/// }
/// let c0 = |r: usize, c: usize| (r as f32 - 20.0) * 0.125 + c as f32 * 0.01;
/// let row: Vec<f32> = (0..M).map(|r| 0.5 + 0.25 * (r % 5) as f32).collect();
/// let col: Vec<f32> = (0..N).map(|j| 2.0 - 0.125 * (j % 9) as f32).collect();
/// let bias: Vec<f32> = (0..N).map(|j| (j % 13) as f32 * 0.5 - 3.0).collect();
/// let vecs: Vec<f32> = row.iter().chain(&col).chain(&bias).copied().collect();
/// for (bufs, beta) in [(0usize, 0.25f32), (2, 0.25), (2, 0.0)] {
///     let mut c: Vec<f32> = (0..LD * (N + 8)).map(|i| c0(i % LD, i / LD)).collect();
///     let (pc, pv) = (c.as_mut_ptr() as usize, vecs.as_ptr() as usize);
///     // SAFETY: one warpgroup, two 8 KiB buffers; C holds 48 × 208 f32, the vectors M + 2·N.
///     unsafe { device::emu::launch((1, 1, 1), (128, 1, 1), 16384, || fused(pc as *mut f32, pv as *const f32, bufs, beta)) };
///     for j in 0..N + 8 {
///         for i in 0..LD {
///             let got = c[i + LD * j];
///             if i >= M || j >= N {
///                 assert_eq!(got, c0(i, j), "({i}, {j}) outside C was written");
///                 continue;
///             }
///             let acc = ((i * 7 + j * 3) % 11) as f32 - 5.0;
///             let z = 0.5 * row[i] * col[j] * acc + beta * c0(i, j) + bias[j];
///             assert!((got - z.max(0.0)).abs() <= 1e-5 * (1.0 + z.abs()), "({i}, {j}): {got} vs {z}");
///         }
///     }
/// }
/// ```
///
/// And the path through shared memory on a 128-row tile (two `m64` blocks, their 64-column
/// halves interleaved in the fragment, [`frag_col_to_tile`]) of a bf16 C whose `ldc` (131) puts
/// its columns off 16 bytes, at C's corner (98 × 120 of the tile's 128 × 128): every element
/// lands at its place, rounded to bf16, and nothing past the edges is written.
///
/// ```
/// use kernels_emu::config::{ChunkHandoff, EpilogueStorage2};
/// use kernels_emu::hgemm_epilogue::{
///     acc_col, acc_row, frag_col_to_tile, store, Bf16Bits, OutElem, TileStore, ELEMS_BF16,
/// };
/// use layout_types::cutlass::fusion::LinComb;
/// use layout_types::cute::prelude::_256;
/// const LD: usize = 131;
/// const N: usize = 140;
/// device::kernel! {
///     pub unsafe fn corner(c: *mut u16) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[u8; 16384]>() as *mut u8;
///         let mut acc = [0f32; 128];
///         for (v, a) in acc.iter_mut().enumerate() {
///             let (r, fc) = (acc_row().crd2idx((t, v as i32)), acc_col().crd2idx((t, v as i32)));
///             let (dr, dc) = frag_col_to_tile(128, fc);
///             *a = ((r + dr) * 1000 + dc) as f32; // the element's (row, column) in the tile
///         }
///         // the tile at (32, 20) of a 130 × 140 C: rows 32..130, columns 20..140 inside
///         let tile = TileStore {
///             c: c as *mut u8, ldc: LD as i64, out: 1, tma_c: core::ptr::null(),
///             mn: (130, N as i32), origin: (32, 20), alpha: 2.0, beta: 0.0, t, smem,
///             wg: 0, last: false, source: None, loaded: false,
///         };
///         unsafe { store::<ELEMS_BF16, true, 128, _256, EpilogueStorage2, ChunkHandoff>(&acc, &tile, LinComb) };
///     }
/// }
/// let mut c = vec![0xdeadu16; LD * (N + 4)];
/// let p = c.as_mut_ptr() as usize;
/// // SAFETY: one warpgroup, two 8 KiB buffers; C holds 131 × 144 bf16.
/// unsafe { device::emu::launch((1, 1, 1), (128, 1, 1), 16384, || corner(p as *mut u16)) };
/// for j in 0..N + 4 {
///     for i in 0..LD {
///         let got = c[i + LD * j];
///         if i < 32 || i >= 130 || j < 20 || j >= N {
///             assert_eq!(got, 0xdead, "({i}, {j}) outside the tile or C was written");
///         } else {
///             let want = Bf16Bits::from_f32(2.0 * ((i - 32) * 1000 + (j - 20)) as f32).0;
///             assert_eq!(got, want, "({i}, {j})");
///         }
///     }
/// }
/// ```
///
/// # Safety
/// Of `a`: on the direct path, `c` holds `(m, n)` with leading dimension `ldc` of that element;
/// `smem` as for the TMA path unless `S` has no buffers. On the TMA path, `tma_c` is a tensor map of
/// C as `(M,N)` of that element with the box of [`stage_blocks_b16`]
/// (16-bit: 64×64, 128-byte swizzle) or [`stage_chunk_f32`] (32×32); `smem` 1024-byte aligned.
/// The whole warpgroup calls it.
#[inline(always)]
pub unsafe fn store<
    const ELEMS: u32,
    const SOURCE: bool,
    const TILE_M: i32,
    Cols: StaticInt,
    S: ChunkBuffers,
    Sch: StoreSchedule,
>(
    acc: &[f32; 128],
    a: &TileStore,
    op: impl EpilogueOp,
) {
    let TileStore {
        tma_c,
        origin,
        alpha,
        t,
        wg,
        last,
        ..
    } = *a;
    let smem = unsafe { warpgroup_buffers::<S>(a) };
    let beta = beta_of::<SOURCE>(a);
    let (r0, c0) = origin;
    // the TMA path's thread: on a tile narrower than the fragment (the promoted FP8 kernels',
    // 192 registers of accumulators in their mainloop) its addresses computed here, per tile —
    // hoisted out of the tile loop, they were held across the mainloop, and ptxas spilled them
    // (the direct path's `t` as before). `opaque_index` gives the optimizer `t`'s range back
    // (0..128), so the swizzled addresses take shifts and masks, not signed divisions: on
    // 128 × 128 the bf16 TMA path is 181 SASS instructions a tile and warp, not 400; on 128 × 192
    // a 64-column chunk 85–102, not 179–227 (since session 54: before, the range made ptxas
    // rebuild B's descriptor base in every k-tile, which the descriptors' broadcast base now
    // prevents; doc/fp8-gemm.md)
    let t_tma = if const { Cols::VALUE < 256 } {
        // SAFETY: `t` is the thread's index in its warpgroup (0..128)
        unsafe { device::hint::opaque_index::<128>(t) }
    } else {
        t
    };
    // the stored value of accumulator `v` on the TMA path (beta 0): `op(alpha·acc[v])` at its
    // element of C (`apply_acc`: the op may fold `alpha·` into its addition; the coordinates are
    // dead code for `LinComb`). For an op that reads them (`EpilogueOp::AT_COORD`) the
    // coordinates come from the thread's own `t`, not `t_tma`: a fused op's per-thread form
    // (`BiasActRows`, `RowColScaleRows`) holds its first row and column made from `t`, so an
    // element's offset from them folds to a constant (a load at a constant offset, a row chosen
    // at compile time); from the opaque `t_tma` each element computed its offset, compare and
    // address at run time (the 128 × 192 fused FP8 entries' TMA path: 620 SASS instructions a
    // 64-column chunk of bf16, session 53). The addresses use `t_tma` either way.
    let t_op = if at_coord(&op) { t } else { t_tma };
    let (rt, ct) = (
        r0 + acc_row().crd2idx((t_op, 0)),
        c0 + acc_col().crd2idx((t_op, 0)),
    );
    let (rows, cols) = (acc_row_v(), acc_col_v());
    let value = #[inline(always)]
    |v: usize| {
        let (dr, dc) = frag_col_to_tile(TILE_M, cols.crd2idx(v as i32));
        op.apply_acc(alpha, acc[v], (rt + rows.crd2idx(v as i32) + dr, ct + dc))
    };
    // with `beta ≠ 0` (a 16-bit C): `op(alpha·s·acc[v] + beta·C)`, C from the chunk
    let source = #[inline(always)]
    |v: usize, c: f32| {
        let (rc, x) = product::<_, TILE_M>(&op, acc, v, alpha, (rt, ct));
        // `beta·C` fused into the sum: one FFMA a value, not an FMUL and an FADD (the epilogue
        // runs while the tensor cores wait: its instructions are the cost of `beta ≠ 0`)
        op.apply(device::math::fma(beta, c, x), rc)
    };
    unsafe {
        // the warpgroup's buffers and the opaque `beta` in place of the caller's
        let direct = TileStore { smem, beta, ..*a };
        let path = path::<TILE_M, Cols, S>(a, beta);
        // (the element's bit of ELEMS, a constant: the arms of other elements are not compiled)
        let has = |code: u32| ELEMS & (1 << code) != 0;
        // the TMA arms: a tile of 128 to 256 columns, a multiple of 32 (the host never asks for
        // another; a 160-wide tile's last 16-bit chunk overlaps the one before, `chunk_block0`)
        let tma = const { tma_cols::<Cols>() };
        match path {
            // the direct path
            0 if has(0) => store_direct::<f32, _, TILE_M, Cols, S>(acc, &direct, op),
            1 if has(1) => store_direct::<Bf16Bits, _, TILE_M, Cols, S>(acc, &direct, op),
            2 if has(2) => store_direct::<F16Bits, _, TILE_M, Cols, S>(acc, &direct, op),
            4 if has(0) && tma => {
                let t = t_tma;
                let atom = TmaAtom::<TmaStore, f32, BoxLayout<EpilogueBoxF32>>::new(tma_c);
                let chunk_tile =
                    tile_to_shape(Layout_MN_SW128_Atom::<f32>::new(), (_64, _32), (_2, _1));
                store_chunks::<Cols, 32, S, Sch>(
                    smem,
                    wg,
                    t,
                    Source::None,
                    |_, _, _| {},
                    #[inline(always)]
                    |buf, chunk| stage_chunk_f32(buf as *mut f32, chunk, t, value),
                    #[inline(always)]
                    |buf, chunk| {
                        device::unroll!(
                            2,
                            #[inline(always)]
                            |i| {
                                let at = chunk_tile.layout.crd2idx((32 * i as i32, 0i32)) as usize;
                                let (dr, dc) = frag_col_to_tile(TILE_M, 32 * chunk);
                                atom.copy(
                                    (buf as *const f32).add(at),
                                    [r0 + dr + 32 * i as i32, c0 + dc],
                                );
                            }
                        )
                    },
                )
            }
            5 if has(1) && tma => {
                store_b16::<Bf16Bits, TILE_M, Cols, S, Sch>(&direct, t_tma, tma_c, value, source)
            }
            6 if has(2) && tma => {
                store_b16::<F16Bits, TILE_M, Cols, S, Sch>(&direct, t_tma, tma_c, value, source)
            }
            // an element this instantiation does not store (the host never asks)
            _ => device::thread::trap(),
        }
    }
    // the CTA's last tile, whichever path it took: the shared memory must outlive the reads of
    // the TMA stores still in flight (up to three chunks of the tile before a direct-path tile)
    if last && t == 0 {
        tma_store_wait::<0>();
    }
}
