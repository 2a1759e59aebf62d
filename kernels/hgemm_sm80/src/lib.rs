//! The bf16/fp16 GEMM for Ampere and Ada (issue #35): `C = alpha·op(A)·op(B) + beta·C`,
//! column-major as BLAS, fp32 accumulation, C stored as f32, bf16 or f16 (chosen at run time).
//! Built for `sm_80`; it runs on every later GPU from that build (the host can force it on
//! Hopper).
//!
//! CuTe's sm80 GEMM (`examples/cute/tutorial/sgemm_sm80.cu`, CUTLASS's `MainloopSm80CpAsync`)
//! on the typed layer, one generic body ([`hgemm_sm80`]) over the input element and the
//! majorities of A and B; each entry is one line.
//!
//! - **TiledMMA**: `make_tiled_mma(SM80_16x8x16_F32{BF16BF16,F16F16}F32_TN, (_2,_2,_1),
//!   Tile<_,_32,_>)` ([`Warps`], [`PermN`]): 4 warps (2×2), a 32×32×16 tile, repeated 4×4
//!   over the 128×128 CTA tile (each warp 64×64 of C, each thread 128 f32 accumulators,
//!   `partition_fragment_c`).
//! - **Shared memory**: [`STAGES`] k-tiles of A `(128, 32)` and B `(128, 32)`, swizzled so that
//!   both the 16-byte `cp.async` writes and the `ldmatrix` reads are free of bank conflicts:
//!   K-major operands `composition(Swizzle<2,3,3>, (R,_32):(_32,_1))` (CuTe's SM80 tile of
//!   64-byte rows), MN-major ones `composition(Swizzle<3,3,log2 R−3>, (R,_32):(_1,R))` for R =
//!   128 rows of A and of B ([`Rows`]).
//! - **gmem → smem**: `make_tiled_copy(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, thr, val)`, 8
//!   contiguous elements a copy along the operand's contiguous mode. A CTA tile inside C with K a
//!   multiple of 8 (the common case) runs a *whole-tile* mainloop: its first k-tile holds
//!   k-columns `0..K mod BK` (or a whole `BK`), zero-filled past them, and every later k-tile is
//!   copied with plain 16-byte `cp.async`s, no predicate and no size arithmetic (CUTLASS's
//!   residue-first k-tile). Other CTAs (C's edges) give each copy the number of bytes inside the
//!   matrix and zero-fill the rest (`cp.async ... 16, src_size`), so any M, N, K works.
//! - **smem → registers**: `make_tiled_copy_a/b` of `ldmatrix` (`SM75_U32x4_LDSM_N` for K-major
//!   operands, `SM75_U16x8_LDSM_T` for MN-major ones), `partition_s` of the swizzled stage and
//!   `retile_d` of the TiledMMA's fragments; the next k-block's fragments load while the
//!   current one's `mma.sync`s run.
//! - **Pipeline**: CuTe's multistage loop: `STAGES − 1` k-tiles in flight; per k-tile one
//!   `cp.async.wait_group STAGES−2` and one `__syncthreads` before its last k-block reads the next
//!   stage, the refill of the stage just consumed issued at its first k-block, unconditionally
//!   (past the last k-tile the last one again, as the tutorial does: no branch in the loop body).
//! - **Epilogue**: `alpha·acc + beta·C` (C not read when `beta = 0`) from registers,
//!   `partition_c` of C and of the tile's row and column coordinates: a tile inside C with
//!   `beta = 0` straight from the registers, C's element chosen once (16-bit C through two warp
//!   shuffles per atom, 4 rows of a column in one 8-byte store a lane); other tiles (C's edges,
//!   or C read) through an f32 tile in shared memory and one loop, a bound check per element.
//!
//! BLAS names as [`kernels-hgemm`]: A "N" = `(M,K):(1,lda)` MN-major, "T" = `(M,K):(lda,1)`
//! K-major; B "N" = `(N,K):(ldb,1)` K-major, "T" = `(N,K):(1,ldb)` MN-major. Entries
//! `hgemm_sm80_{bf16,f16}_{ab}`.
//!
//! Launch: grid `(ceil(M/TILE.0), ceil(N/TILE.1))`, [`THREADS`] threads, [`SMEM_BYTES`] of dynamic
//! shared memory, one [`HgemmSm80Params`] by value; `lda`, `ldb` multiples of [`VECTOR`] and A,
//! B 16-byte aligned (the host checks).
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

pub mod config;
pub mod epilogue;

use device::cp_async::{cp_async_cg_16, cp_async_cg_16_zfill, cp_async_fence, cp_async_wait};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{block_idx_x, block_idx_y, sync_threads, thread_idx_x};
use layout_types::cute::atom::copy::{TileLayout, unroll};
use layout_types::cute::atom::mma::ldsm_slice::LdsmTile;
use layout_types::cute::atom::mma::*;
use layout_types::cute::layout::StaticLayoutValue;
use layout_types::cute::prelude::*;
use layout_types::cute::swizzle::{Swizzled, make_composed_layout};
use layout_types::cute::tensor::Advance;
use layout_types::cutlass::pipeline::PipelineState;
use layout_types::value::swizzle::Swizzle;

pub use config::{
    HgemmSm80Params, OUT_BF16, OUT_F16, OUT_F32, SMEM_BYTES, STAGES, SharedStorage, THREADS, TILE,
    VECTOR,
};

/// The CTA tile's rows of A ([`TILE`]`.0`), as a static integer.
pub type BM = _128;
/// The CTA tile's rows of B ([`TILE`]`.1`).
pub type BN = _128;
/// The k-tile's depth ([`TILE`]`.2`).
#[cfg(not(feature = "hgemm-sm80-k64"))]
pub type BK = _32;
/// The k-tile's depth (the candidate `hgemm-sm80-k64`).
#[cfg(feature = "hgemm-sm80-k64")]
pub type BK = _64;
/// The k-columns of the register fragments: two k-blocks of 16, a ring that the k-tile's
/// `BK / 16` k-blocks pass through (the next k-block loads while this one's `mma.sync`s run;
/// four k-blocks of fragments beside 128 accumulators would not fit in 255 registers).
pub type KRing = _32;
/// The warps of the TiledMMA along M and N (`WARPS_M × WARPS_N` = [`THREADS`] / 32), each
/// computing `(BM / WARPS_M) × (BN / WARPS_N)` of C.
pub type Warps = Layout<(_2, _2, _1), (_1, _2, _4)>;
/// The TiledMMA's N permutation: two atoms (16 columns) per warp in each such tile, so that one
/// `ldmatrix.x4` loads a warp's 16×16 of B.
pub type PermN = _32;
/// The 16-byte chunks of a K-major k-tile's row: `BK / 8`.
#[cfg(not(feature = "hgemm-sm80-k64"))]
pub type KChunks = _4;
/// The 16-byte chunks of a K-major k-tile's row (the candidate `hgemm-sm80-k64`).
#[cfg(feature = "hgemm-sm80-k64")]
pub type KChunks = _8;
/// `cp.async` thread layout of a K-major k-tile: `(THREADS / (BK/8), BK/8):(BK/8, 1)`, 8
/// elements each along K (a row's 16-byte chunks to consecutive threads).
pub type ThrK = Layout<(ThrRowsK, KChunks), (KChunks, _1)>;
/// The rows a K-major `cp.async` pass covers: `THREADS / (BK/8)`.
#[cfg(not(feature = "hgemm-sm80-k64"))]
pub type ThrRowsK = _32;
/// The rows a K-major `cp.async` pass covers (the candidate `hgemm-sm80-k64`).
#[cfg(feature = "hgemm-sm80-k64")]
pub type ThrRowsK = _16;
/// `cp.async` thread layout of an MN-major k-tile: `(16, THREADS/16):(1, 16)`, 8 elements each
/// along M (N): 128 contiguous rows of each k-column.
pub type ThrMN = Layout<(_16, ThrColsMN), (_1, _16)>;
/// The k-columns an MN-major `cp.async` pass covers: `THREADS / 16`.
pub type ThrColsMN = _8;
/// The swizzle of a K-major k-tile (rows of `BK` elements): CuTe's SM80 atoms,
/// `Swizzle<2,3,3>` for 64-byte rows (BK = 32), `Swizzle<3,3,3>` for 128-byte rows (BK = 64):
/// chunk `k/8` of row `r` at `k/8 ^ (r / (128 bytes / row bytes) % (BK/8))`.
pub type SwK = Swizzle<{ (TILE.2 / 8).trailing_zeros() }, 3, 3>;
const WARPS_M: usize = 2;
/// CTAs per SM the registers are sized for (`__launch_bounds__`' second argument): two of 4
/// warps (255 registers a thread; the 64 K register file holds two).
const MIN_CTAS: u32 = 2;
const WARPS_N: usize = THREADS as usize / 32 / WARPS_M;

// the types above are the numbers of config.rs (which the host launches with)
const _: () = {
    assert!(BM::VALUE == TILE.0 as i64 && BN::VALUE == TILE.1 as i64 && BK::VALUE == TILE.2 as i64);
    assert!(WARPS_M * WARPS_N * 32 == THREADS as usize && VECTOR == 8 && STAGES >= 2);
    assert!(PermN::VALUE == 16 * WARPS_N as i64 && TILE.1.is_multiple_of(16 * WARPS_N));
    assert!(TILE.0.is_multiple_of(16 * WARPS_M) && TILE.2.is_multiple_of(16));
    assert!(KChunks::VALUE * 8 == BK::VALUE && ThrRowsK::VALUE * KChunks::VALUE == THREADS as i64);
    assert!(ThrColsMN::VALUE * 16 == THREADS as i64 && TILE.2 as i64 % ThrColsMN::VALUE == 0);
    assert!(TILE.0 as i64 % ThrRowsK::VALUE == 0 && TILE.1 as i64 % ThrRowsK::VALUE == 0);
    assert!(TILE.0.is_multiple_of(128) && TILE.1.is_multiple_of(128));
};

/// An input element: its `mma.sync`.
pub trait Element: Copy + Default + 'static {
    /// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32`: `D = A·B + C` for one
    /// warp (CuTe's `SM80_16x8x16_F32BF16BF16F32_TN::fma` / `SM80_16x8x16_F32F16F16F32_TN::fma`).
    ///
    /// # Safety
    /// Executed by all 32 lanes of the warp.
    unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4];
}
/// bf16 inputs.
#[derive(Clone, Copy, Default)]
pub struct Bf16;
/// fp16 inputs.
#[derive(Clone, Copy, Default)]
pub struct F16;
impl Element for Bf16 {
    #[inline(always)]
    unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        unsafe { device::mma::mma_m16n8k16_bf16_f32(a, b, c) }
    }
}
impl Element for F16 {
    #[inline(always)]
    unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        unsafe { device::mma::mma_m16n8k16_f16_f32(a, b, c) }
    }
}

/// The TiledMMA: [`Warps`] of the `m16n8k16` atom, N permuted to [`PermN`] (each warp two atoms along
/// N, so that one `ldmatrix.x4` loads a warp's 16×16 of B). It partitions the operands and the
/// accumulators for both elements: `SM80_16x8x16_F32BF16BF16F32_TN` has the same thread ID and
/// A, B, C layouts as the fp16 atom (asserted below, as types), so the fragments are the same
/// registers, 16-bit values each; only the instruction differs ([`Element::mma`]).
pub type Mma = TiledMma<SM80_16x8x16_F32F16F16F32_TN, Warps, (Underscore, PermN, Underscore)>;

// the bf16 atom's traits are the fp16 atom's (a type mismatch fails to compile)
const _: () = {
    type F = SM80_16x8x16_F32F16F16F32_TN;
    type B = SM80_16x8x16_F32BF16BF16F32_TN;
    let _thr: fn(<B as MmaAtom>::ThrID) -> <F as MmaAtom>::ThrID = |x| x;
    let _a: fn(<B as MmaAtom>::ALayout) -> <F as MmaAtom>::ALayout = |x| x;
    let _b: fn(<B as MmaAtom>::BLayout) -> <F as MmaAtom>::BLayout = |x| x;
    let _c: fn(<B as MmaAtom>::CLayout) -> <F as MmaAtom>::CLayout = |x| x;
    let _mnk: fn(<B as MmaAtom>::Shape_MNK) -> <F as MmaAtom>::Shape_MNK = |x| x;
};

/// [`Mma`].
#[inline(always)]
pub fn tiled_mma() -> Mma {
    make_tiled_mma_permuted(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        Warps::default(),
        (Underscore, PermN::default(), Underscore),
    )
}

/// K-major operand (BLAS: A "T", B "N"): K contiguous.
#[derive(Clone, Copy, Default)]
pub struct MajorK;
/// MN-major operand (BLAS: A "N", B "T"): M (or N) contiguous.
#[derive(Clone, Copy, Default)]
pub struct MajorMN;

/// The k-tiles of an operand with `Self` rows (A: [`BM`], B: [`BN`]), in global and in shared
/// memory, for both majorities.
///
/// - K-major: `composition(SwK, (R, BK):(BK, 1))` (CuTe's SM80 tile: [`SwK`] spreads the
///   16-byte chunks of the 8 rows an `ldmatrix` reads over the banks).
/// - MN-major: `composition(Swizzle<3,3,log2 R − 3>, (R, BK):(1, R))`: chunk `r/8` of k-column
///   `k` lies at chunk `r/8 ^ (k % 8)` of its 8-chunk group, so the 8 k-columns an
///   `ldmatrix.trans` reads meet 8 different banks.
pub trait Rows: StaticInt {
    /// `(R, BK):(ld, 1)`.
    type GK: TileLayout<Off: Integral> + Copy;
    /// `(R, BK):(1, ld)`.
    type GMN: TileLayout<Off: Integral> + Copy;
    /// The swizzled K-major shared-memory k-tile.
    type SK: TileLayout<Off: Integral> + LdsmTile + Copy;
    /// The swizzled MN-major shared-memory k-tile.
    type SMN: TileLayout<Off: Integral> + LdsmTile + Copy;
    /// [`Rows::GK`] with leading dimension `ld`.
    fn g_k(ld: i64) -> Self::GK;
    /// [`Rows::GMN`] with leading dimension `ld`.
    fn g_mn(ld: i64) -> Self::GMN;
    /// [`Rows::SK`].
    fn s_k() -> Self::SK;
    /// [`Rows::SMN`].
    fn s_mn() -> Self::SMN;
}

/// Declares [`Rows`] for `$r` rows, the MN-major swizzle shifting by `$s` = log2 `$r` − 3 (an
/// impl table, no kernel body).
macro_rules! rows_impl {
    ($r:ty, $s:literal) => {
        const _: () = assert!(1i64 << ($s + 3) == <$r as StaticInt>::VALUE);
        impl Rows for $r {
            type GK = Layout<($r, BK), (i64, _1)>;
            type GMN = Layout<($r, BK), (_1, i64)>;
            type SK = Swizzled<SwK, Layout<($r, BK), (BK, _1)>>;
            type SMN = Swizzled<Swizzle<3, 3, $s>, Layout<($r, BK), (_1, $r)>>;
            #[inline(always)]
            fn g_k(ld: i64) -> Self::GK {
                make_layout((<$r>::default(), BK::default()), (ld, _1))
            }
            #[inline(always)]
            fn g_mn(ld: i64) -> Self::GMN {
                make_layout((<$r>::default(), BK::default()), (_1, ld))
            }
            #[inline(always)]
            fn s_k() -> Self::SK {
                make_composed_layout(
                    SwK::default(),
                    make_layout((<$r>::default(), BK::default()), (BK::default(), _1)),
                )
            }
            #[inline(always)]
            fn s_mn() -> Self::SMN {
                make_composed_layout(
                    Swizzle::<3, 3, $s>,
                    make_layout((<$r>::default(), BK::default()), (_1, <$r>::default())),
                )
            }
        }
    };
}
rows_impl!(_128, 4);

/// How an operand of a majority is laid out and moved: its global tile, its shared-memory tile,
/// the `cp.async` TiledCopy between them and the `ldmatrix` atom that reads the fragments.
pub trait Major: Copy + Default + 'static {
    /// An `(R, BK)` k-tile in global memory with leading dimension `ld`.
    type GTile<R: Rows>: TileLayout<Off: Integral> + Copy;
    /// The swizzled shared-memory k-tile.
    type STile<R: Rows>: TileLayout<Off: Integral> + LdsmTile + Copy;
    /// Thread layout of the `cp.async` TiledCopy ([`THREADS`] threads).
    type Thr: StaticLayoutValue + Default;
    /// Value layout: 8 elements along the contiguous mode.
    type Val: StaticLayoutValue + Default;
    /// The `ldmatrix` atom.
    type Ldsm: LdsmAtom + Default;
    /// The k-tile layout in global memory.
    fn g_tile<R: Rows>(ld: i64) -> Self::GTile<R>;
    /// The shared-memory layout.
    fn s_tile<R: Rows>() -> Self::STile<R>;
    /// Elements of the 8-element vector at `(row, k)` inside `(rows, depth)` (0 to 8): the
    /// bytes a zero-filling `cp.async` copies.
    fn inside(at: (i32, i32), bounds: (i32, i32)) -> i32;
}

/// `clamp(n, 0, VECTOR)`.
#[inline(always)]
fn vector_part(n: i32) -> i32 {
    n.clamp(0, VECTOR as i32)
}

impl Major for MajorK {
    type GTile<R: Rows> = R::GK;
    type STile<R: Rows> = R::SK;
    type Thr = ThrK;
    type Val = Layout<(_1, _8), (_0, _1)>;
    type Ldsm = SM75_U32x4_LDSM_N;
    #[inline(always)]
    fn g_tile<R: Rows>(ld: i64) -> R::GK {
        R::g_k(ld)
    }
    #[inline(always)]
    fn s_tile<R: Rows>() -> R::SK {
        R::s_k()
    }
    #[inline(always)]
    fn inside((r, k): (i32, i32), (rows, depth): (i32, i32)) -> i32 {
        if r < rows { vector_part(depth - k) } else { 0 }
    }
}

impl Major for MajorMN {
    type GTile<R: Rows> = R::GMN;
    type STile<R: Rows> = R::SMN;
    type Thr = ThrMN;
    type Val = Layout<(_8, _1), (_1, _0)>;
    type Ldsm = SM75_U16x8_LDSM_T;
    #[inline(always)]
    fn g_tile<R: Rows>(ld: i64) -> R::GMN {
        R::g_mn(ld)
    }
    #[inline(always)]
    fn s_tile<R: Rows>() -> R::SMN {
        R::s_mn()
    }
    #[inline(always)]
    fn inside((r, k): (i32, i32), (rows, depth): (i32, i32)) -> i32 {
        if k < depth { vector_part(rows - r) } else { 0 }
    }
}

/// One operand's k-tile loads: `copy(g2s, tAgA(_,_,k_tile), tAsA(_,_,stage))`, either whole
/// (16 bytes a copy, no predicate) or at the operand's edges, each 16-byte `cp.async` told how
/// many of its bytes lie inside the operand (the rest zero-filled).
struct Loader<M: Major, R: Rows> {
    /// The operand's base address.
    base: *const u16,
    /// Its leading dimension.
    ld: i64,
    /// Its rows (M or N).
    rows: i32,
    /// The CTA's first row.
    row0: i32,
    /// Stage 0 of its shared-memory tiles, and the `.shared` address of that pointer.
    smem: (*mut u16, u32),
    /// Elements between stages.
    stage_elems: usize,
    tid: u32,
    _m: core::marker::PhantomData<(M, R)>,
}

impl<M: Major, R: Rows> Loader<M, R> {
    /// Issues the copies of the k-tile whose first k-column is `k0` into stage `stage` (the
    /// caller commits the group). `WHOLE`: the tile lies inside the operand (every copy 16 bytes,
    /// no predicate); otherwise each copy zero-fills what lies past row `rows` or k-column
    /// `depth`.
    #[inline(always)]
    unsafe fn load<const WHOLE: bool>(&self, k0: i32, depth: i32, stage: usize) {
        let tc = make_tiled_copy(
            CpAsync16::<u16>::new(),
            M::Thr::default(),
            M::Val::default(),
        );
        let thr = tc.get_slice(self.tid);
        let origin = (self.row0, k0);
        let g_tile = M::g_tile::<R>(self.ld);
        // gA(_,_,kt): the k-tile's origin through the operand's layout
        let g = make_tensor(
            make_gmem_ptr(self.base as *mut u16).advance(g_tile.eval(origin)),
            g_tile,
        );
        let s_ptr = self.smem.0.wrapping_add(stage * self.stage_elems);
        let s = make_tensor(make_smem_ptr(s_ptr), M::s_tile::<R>());
        let (t_g, t_s) = (thr.partition_s(&g), thr.partition_d(&s));
        unroll(t_g.atoms(), |a| {
            let v = a * VECTOR;
            let src = t_g.at(v).ptr() as *const u8;
            // the destination's `.shared` address: stage 0's plus the pointer's distance from it
            let dst = self.smem.1 + (t_s.at(v).ptr() as usize - self.smem.0 as usize) as u32;
            if WHOLE {
                // SAFETY: `dst` is 16-byte aligned shared memory of this CTA (8 elements along
                // the swizzle's unit rows); `src` 16-byte aligned (`ld` a multiple of 8, the base
                // aligned: checked on the host) and inside the operand (the caller's `WHOLE`).
                unsafe { cp_async_cg_16(dst, src) };
            } else {
                let (r, k) = t_g.coord(v);
                let n = M::inside((origin.0 + r, origin.1 + k), (self.rows, depth));
                // SAFETY: as above, with `src` holding the `n` elements inside the operand;
                // nothing is read when `n` is 0 (the 16 bytes zero-filled, the address unused).
                unsafe { cp_async_cg_16_zfill(dst, src, 2 * n as u32) };
            }
        });
    }
}

/// Gives a closure its `FnMut(bool)` signature, in a position where it may be marked
/// `#[inline(always)]`.
#[inline(always)]
fn inlined<F: FnMut(bool)>(f: F) -> F {
    f
}

/// Gives the k-tile load closure its `Fn(k-tile, stage)` signature, in a position where it may
/// be marked `#[inline(always)]` (LLVM outlines it otherwise: a `.local` frame of its captures).
#[inline(always)]
fn inlined_load<F: Fn(i32, usize)>(f: F) -> F {
    f
}

/// This CTA's tile of C, `(M tile, N tile)`: the block index (grid `(M tiles, N tiles)`,
/// launched M fastest).
#[cfg(not(feature = "hgemm-sm80-raster"))]
#[inline(always)]
fn cta_tile() -> (i32, i32) {
    (block_idx_x() as i32, block_idx_y() as i32)
}

/// The M tiles of a rasterization group (`cta_tile`).
#[cfg(feature = "hgemm-sm80-raster")]
pub type RasterM = _16;

/// This CTA's tile of C, `(M tile, N tile)`, rasterized for L2 (the measuring candidate
/// `hgemm-sm80-raster`; Triton's grouped order, CUTLASS's threadblock swizzle): the CTAs in
/// launch order (`x + y · gridDim.x`) walk groups of [`RasterM`] M tiles, M fastest within a
/// group, then N, so that the CTAs resident at once share fewer A and B panels (at 4096³ a wave
/// of 264 CTAs reads 16 A panels and ~17 B panels instead of 32 and ~8; at 8192³ 16 and ~17
/// instead of 64 and ~4). The M tiles past the last whole group form one group of their own.
#[cfg(feature = "hgemm-sm80-raster")]
#[inline(always)]
fn cta_tile() -> (i32, i32) {
    let (gm, gn) = (
        device::thread::grid_dim_x() as i32,
        device::thread::grid_dim_y() as i32,
    );
    raster_tile(block_idx_x() as i32 + block_idx_y() as i32 * gm, (gm, gn))
}

/// `cta_tile`'s order: the tile `(M tile, N tile)` of the `pid`-th CTA launched on a grid of
/// `(gm, gn)` tiles (a bijection of the grid; the emulator's tests check it).
#[cfg(feature = "hgemm-sm80-raster")]
#[inline(always)]
pub fn raster_tile(pid: i32, (gm, gn): (i32, i32)) -> (i32, i32) {
    let g = RasterM::VALUE as i32;
    let (groups, rest) = (gm / g, gm % g);
    if pid < groups * g * gn {
        // (M in the group, N, group) -> M tile / N tile
        let shape = (RasterM::default(), gn, groups);
        (
            make_layout(shape, (_1, _0, RasterM::default())).call(pid),
            make_layout(shape, (_0, _1, _0)).call(pid),
        )
    } else {
        // the last, partial group: (M in it, N)
        let shape = (rest, gn);
        let q = pid - groups * g * gn;
        (
            groups * g + make_layout(shape, (_1, _0)).call(q),
            make_layout(shape, (_0, _1)).call(q),
        )
    }
}

/// The generic kernel body: element `E`, A `MA`-major, B `MB`-major (see the crate docs).
///
/// # Safety
/// Launched as the crate docs say, with `p` describing valid A, B and C.
#[inline(always)]
pub unsafe fn hgemm_sm80<E: Element, MA: Major, MB: Major>(p: HgemmSm80Params) {
    let tid = thread_idx_x();
    let (tm, tn) = cta_tile();
    let (m0, n0) = (tm * TILE.0 as i32, tn * TILE.1 as i32);
    let storage = dynamic_shared_mem::<SharedStorage>();
    // SAFETY: the CTA's dynamic shared memory is one `SharedStorage` (SMEM_BYTES at launch).
    let (sa, sb) = unsafe { (&raw mut (*storage).a, &raw mut (*storage).b) };
    let (sa, sb) = (sa as *mut u16, sb as *mut u16);
    let load_a = Loader::<MA, BM> {
        base: p.a as *const u16,
        ld: p.lda,
        rows: p.m,
        row0: m0,
        smem: (sa, to_shared_addr(sa)),
        stage_elems: TILE.0 * TILE.2,
        tid,
        _m: core::marker::PhantomData,
    };
    let load_b = Loader::<MB, BN> {
        base: p.b as *const u16,
        ld: p.ldb,
        rows: p.n,
        row0: n0,
        smem: (sb, to_shared_addr(sb)),
        stage_elems: TILE.1 * TILE.2,
        tid,
        _m: core::marker::PhantomData,
    };
    let k_tiles = (p.k + TILE.2 as i32 - 1) / TILE.2 as i32;
    // the thread's atoms: TILE.0 / (16 WARPS_M) along M, TILE.1 / (8 WARPS_N) along N (two per
    // warp in each PermN-wide N tile)
    const MMA_M: usize = TILE.0 / (16 * WARPS_M);
    const MMA_N: usize = TILE.1 / (8 * WARPS_N);

    // the TiledMMA, this thread's fragments (shaped by K-major (BM, BK) and (BN, BK) tiles: the
    // fragments' registers do not depend on the operands' smem strides) and accumulators
    let mma = tiled_mma();
    let thr_mma = mma.get_slice(tid as i32);
    let (bm, bn, kr) = (BM::default(), BN::default(), KRing::default());
    let shape_ak = make_tensor(Counting(0i32), make_layout((bm, kr), (kr, _1)));
    let shape_bk = make_tensor(Counting(0i32), make_layout((bn, kr), (kr, _1)));
    let mut t_cr_a = thr_mma.partition_fragment_a(&shape_ak); // (MMA, MMA_M, MMA_K)
    let mut t_cr_b = thr_mma.partition_fragment_b(&shape_bk); // (MMA, MMA_N, MMA_K)
    let shape_c = make_tensor(Counting(0i32), make_layout((bm, bn), (_1, bm)));
    // the accumulators (MMA, MMA_M, MMA_N): the layout of `partition_fragment_c` over a plain
    // array (a register fragment moved or filled by a loop would stay in local memory)
    let acc_layout = mma.partition_fragment_c(&shape_c).layout;
    const ACC: usize = TILE.0 * TILE.1 / THREADS as usize;
    // SAFETY: all-zero bits are 0.0 (a memset, which LLVM splits into registers; the array
    // repeat `[0f32; ACC]` is a loop here, which it does not)
    let mut acc: [f32; ACC] = unsafe { core::mem::zeroed() };
    // the ldmatrix TiledCopies and this thread's views of the fragments
    let s2r_a = make_tiled_copy_a(MA::Ldsm::default(), &mma);
    let s2r_b = make_tiled_copy_b(MB::Ldsm::default(), &mma);
    let (thr_s2r_a, thr_s2r_b) = (s2r_a.get_slice(tid), s2r_b.get_slice(tid));
    let t_cr_a_view = thr_s2r_a.retile_d(&mut t_cr_a); // (CPY, CPY_M, CPY_K)
    let t_cr_b_view = thr_s2r_b.retile_d(&mut t_cr_b); // (CPY, CPY_N, CPY_K)
    // tCsA(_,_,_,stage) / tCsB: the ldmatrix rows of a stage
    let t_cs_a = |stage: usize| {
        let s = sa.wrapping_add(stage * TILE.0 * TILE.2) as *mut half_t;
        thr_s2r_a.partition_s(&make_tensor(make_smem_ptr(s), MA::s_tile::<BM>()))
    };
    let t_cs_b = |stage: usize| {
        let s = sb.wrapping_add(stage * TILE.1 * TILE.2) as *mut half_t;
        thr_s2r_b.partition_s(&make_tensor(make_smem_ptr(s), MB::s_tile::<BN>()))
    };

    // The k-tiles' origins and depths. A CTA tile inside C with K a multiple of 8 (`whole`) reads
    // its first k-tile zero-filled past k-column `r` = K − BK·(k_tiles − 1) and every later one
    // whole, from k-column r + BK·(t − 1): the steady state copies without predicates. Otherwise
    // (C's edges) k-tile t is k-columns BK·t.. and every copy is told what lies inside.
    let r = p.k - TILE.2 as i32 * (k_tiles - 1);
    let whole_cta = m0 + TILE.0 as i32 <= p.m && n0 + TILE.1 as i32 <= p.n && p.k % 8 == 0;
    // the k-loop refills unconditionally (below): a whole CTA's refills are then k-tiles 1..
    // (never the residue-first k-tile 0), so it needs two k-tiles or more; one k-tile goes the
    // edge way
    let whole_cta = whole_cta && k_tiles >= 2;
    // CuTe's multistage mainloop, for one kind of CTA (`whole` is a constant in each call)
    let mut mainloop = inlined(
        #[inline(always)]
        |whole: bool| {
            // k-tile t into stage `stage`, all of A's and B's copies
            let load = inlined_load(
                #[inline(always)]
                |t: i32, stage: usize| unsafe {
                    if !whole {
                        let k0 = t * TILE.2 as i32;
                        load_a.load::<false>(k0, p.k, stage);
                        load_b.load::<false>(k0, p.k, stage);
                    } else if t == 0 {
                        load_a.load::<false>(0, r, stage);
                        load_b.load::<false>(0, r, stage);
                    } else {
                        let k0 = r + (t - 1) * TILE.2 as i32;
                        load_a.load::<true>(k0, p.k, stage);
                        load_b.load::<true>(k0, p.k, stage);
                    }
                },
            );
            // prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end)
            let mut kt_next = 0i32;
            for stage in 0..STAGES - 1 {
                if kt_next < k_tiles {
                    load(kt_next, stage);
                }
                cp_async_fence();
                kt_next += 1;
            }
            // the stage the next k-tile is read from, and the stage the next load refills
            let mut read = PipelineState::<STAGES>::new(0);
            let mut write = read;
            for _ in 0..STAGES - 1 {
                write.advance();
            }
            cp_async_wait::<{ STAGES as u32 - 2 }>();
            sync_threads();
            let (mut cs_a, mut cs_b) =
                (t_cs_a(read.index() as usize), t_cs_b(read.index() as usize));
            // k-block 0's fragments
            unsafe {
                copy(&s2r_a, &cs_a.k_block(0), &t_cr_a_view.k_block(0));
                copy(&s2r_b, &cs_b.k_block(0), &t_cr_b_view.k_block(0));
            }
            const K_BLOCKS: usize = TILE.2 / 16;
            const RING: usize = KRing::VALUE as usize / 16;
            let mut kt = 0;
            while kt < k_tiles {
                device::unroll!(
                    K_BLOCKS,
                    #[inline(always)]
                    |kb: usize| {
                        if kb == K_BLOCKS - 1 {
                            // the next k-tile's stage: its copies done (this thread's) and seen (all)
                            cs_a = t_cs_a(read.index() as usize);
                            cs_b = t_cs_b(read.index() as usize);
                            cp_async_wait::<{ STAGES as u32 - 2 }>();
                            sync_threads();
                        }
                        // the next k-block's fragments (k-block 0 of the next stage after the last)
                        let kb_next = if kb + 1 == K_BLOCKS { 0 } else { kb + 1 };
                        unsafe {
                            copy(
                                &s2r_a,
                                &cs_a.k_block(kb_next),
                                &t_cr_a_view.k_block(kb_next % RING),
                            );
                            copy(
                                &s2r_b,
                                &cs_b.k_block(kb_next),
                                &t_cr_b_view.k_block(kb_next % RING),
                            );
                        }
                        if kb == 0 {
                            // refill the stage consumed last: k-tile kt + STAGES - 1, and past the
                            // last k-tile the last one again, into a stage no read reaches (CuTe's
                            // tutorial): the loop body has no branch, so ptxas interleaves the
                            // copies with the `mma.sync`s (a branch kept them apart: round 7 of
                            // doc/ampere-gemm.md); a whole CTA's k-tile here is never the first
                            unsafe {
                                let stage = write.index() as usize;
                                if whole {
                                    // k-tile kt_next's first k-column, at most the last one's (K − BK)
                                    let k0 = (r + (kt_next - 1) * TILE.2 as i32)
                                        .min(p.k - TILE.2 as i32);
                                    load_a.load::<true>(k0, p.k, stage);
                                    load_b.load::<true>(k0, p.k, stage);
                                } else {
                                    load(kt_next.min(k_tiles - 1), stage);
                                }
                            }
                            cp_async_fence();
                            kt_next += 1;
                            write = read;
                            read.advance();
                        }
                        // gemm(mma, tCrA(_,_,kb), tCrB(_,_,kb), tCrC): one `mma.sync` per (m, n) atom
                        let (a, b) = (&t_cr_a, &t_cr_b);
                        let kbi = (kb % RING) as i32;
                        device::unroll!(
                            MMA_M,
                            #[inline(always)]
                            |m: usize| {
                                device::unroll!(
                                    MMA_N,
                                    #[inline(always)]
                                    |n: usize| {
                                        let (mi, ni) = (m as i32, n as i32);
                                        let pair = |lo: half_t, hi: half_t| {
                                            lo.0 as u32 | (hi.0 as u32) << 16
                                        };
                                        let av = |r: i32| {
                                            pair(
                                                a[a.layout.crd2idx((2 * r, mi, kbi)) as usize],
                                                a[a.layout.crd2idx((2 * r + 1, mi, kbi)) as usize],
                                            )
                                        };
                                        let bv = |r: i32| {
                                            pair(
                                                b[b.layout.crd2idx((2 * r, ni, kbi)) as usize],
                                                b[b.layout.crd2idx((2 * r + 1, ni, kbi)) as usize],
                                            )
                                        };
                                        let ci = |v: i32| acc_layout.crd2idx((v, mi, ni)) as usize;
                                        // SAFETY: every thread of the CTA runs the k-block (warp-synchronous).
                                        let d = unsafe {
                                            E::mma(
                                                [av(0), av(1), av(2), av(3)],
                                                [bv(0), bv(1)],
                                                [acc[ci(0)], acc[ci(1)], acc[ci(2)], acc[ci(3)]],
                                            )
                                        };
                                        device::unroll!(
                                            4,
                                            #[inline(always)]
                                            |v: usize| acc[ci(v as i32)] = d[v]
                                        );
                                    }
                                );
                            }
                        );
                    }
                );
                kt += 1;
            }
        },
    );
    if whole_cta {
        mainloop(true);
    } else {
        mainloop(false);
    }
    // no copy may still write shared memory when the CTA exits (the candidate
    // `hgemm-sm80-latewait` waits in the epilogue: after a whole tile's stores from the registers,
    // before the staged path writes shared memory)
    if !cfg!(feature = "hgemm-sm80-latewait") {
        cp_async_wait::<0>();
    }

    // the epilogue: value i of the accumulators, its offset in C's tile (tCgC) and its row and
    // column in the tile (partition_C of the tile's coordinates)
    let t_cg_c = thr_mma.partition_c(&make_tensor(
        Counting(0i64),
        make_layout((bm, bn), (_1, p.ldc)),
    ));
    let t_cr = thr_mma.partition_c(&make_tensor(
        Counting(0i32),
        make_layout((bm, bn), (_1, _0)),
    ));
    let t_cc = thr_mma.partition_c(&make_tensor(
        Counting(0i32),
        make_layout((bm, bn), (_0, _1)),
    ));
    let at = |i: usize| {
        let i32_ = i as i32;
        (
            acc[acc_layout.call(i32_) as usize],
            t_cg_c.engine.0 + t_cg_c.layout.call(i32_) as i64,
            t_cr.engine.0 + t_cr.layout.call(i32_),
            t_cc.engine.0 + t_cc.layout.call(i32_),
        )
    };
    let out = epilogue::Tile {
        c: p.c,
        ldc: p.ldc,
        origin: (m0, n0),
        bounds: (p.m, p.n),
        alpha: p.alpha,
        beta: p.beta,
    };
    let staging = epilogue::Staging {
        smem: storage as *mut f32,
        tid,
    };
    // SAFETY: C as the parameters describe it (the caller's contract); every thread of the CTA
    // stores, after its last `cp.async` (`wait_group 0` above, or in `store` with
    // `hgemm-sm80-latewait`); the shared memory holds the f32 tile (asserted in `epilogue`).
    unsafe { out.store::<ACC>(p.out, at, staging) };
}

/// Declares entry `$name`: [`hgemm_sm80`] for `$e` inputs, A `$ma`-major, B `$mb`-major (an
/// entry point, no kernel body).
macro_rules! hgemm_sm80_entry {
    ($name:ident, $e:ty, $ma:ty, $mb:ty) => {
        device::kernel! {
        #[doc = concat!("The Ampere GEMM for ", stringify!($e), " inputs, A ", stringify!($ma),
                        ", B ", stringify!($mb), " (see the crate docs).\n\n# Safety\n",
                        "`p` describes valid A, B, C; launched as the crate docs say.")]
        pub unsafe fn $name(p: HgemmSm80Params) {
            unsafe { hgemm_sm80::<$e, $ma, $mb>(p) }
        }
        }
        device::launch_bounds!($name, THREADS, MIN_CTAS);
    };
}

hgemm_sm80_entry!(hgemm_sm80_bf16_nn, Bf16, MajorMN, MajorK);
hgemm_sm80_entry!(hgemm_sm80_bf16_nt, Bf16, MajorMN, MajorMN);
hgemm_sm80_entry!(hgemm_sm80_bf16_tn, Bf16, MajorK, MajorK);
hgemm_sm80_entry!(hgemm_sm80_bf16_tt, Bf16, MajorK, MajorMN);
hgemm_sm80_entry!(hgemm_sm80_f16_nn, F16, MajorMN, MajorK);
hgemm_sm80_entry!(hgemm_sm80_f16_nt, F16, MajorMN, MajorMN);
hgemm_sm80_entry!(hgemm_sm80_f16_tn, F16, MajorK, MajorK);
hgemm_sm80_entry!(hgemm_sm80_f16_tt, F16, MajorK, MajorMN);
