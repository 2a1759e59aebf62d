//! The TMA + GMMA mainloop collective (CUTLASS's `CollectiveMma` with the
//! `MainloopSm90TmaGmmaWarpSpecialized` policy, SS): A's `(128, 64)` and B's `(BN, 64)`
//! k-tiles stream through `STAGES` shared-memory stages, loaded by one producer thread with TMA
//! (B multicast across a cluster of 2 along M) and read by `wgmma.m64nBNk16` (16-bit) or
//! `wgmma.m64nBNk32` (FP8) of each consumer warpgroup.
//!
//! The type parameters are CUTLASS's: the element `E`; the majorities `MA`, `MB` (their tiles,
//! boxes and descriptors come from their [`SmemOperand`] bundles); the CTA tile's N, `BN`
//! ([`TileN`]: `_256` or `_128`, B's stage tile and the consumer's fragment); the accumulation
//! `Acc` ([`MmaAccumulation`]: [`PlainAccumulation`], the `wgmma`s straight into the
//! accumulators, or [`GmmaFp8Accumulation`], CUTLASS's `GmmaFP8Accumulation` with a temporary
//! promoted every k-tile and optional block scales); `STAGES`.

use core::marker::PhantomData;

use device::wgmma::{
    FenceOperand, MmaAsync, One, ScaleOut, commit_group, fence, fence_operand, mma_async_ss,
    wait_group,
};
use layout_types::cute::arch::tma::TmaDescriptor;
use layout_types::cute::gmma_operand::{SmemOperand, SmemOperandMulticast, SmemTile};
use layout_types::cute::pipeline::{
    ConsumerStage, PipelineConsumer, PipelineProducer, TransactionBytes,
};
use layout_types::cute::prelude::*;

/// One pipeline stage of an operand in shared memory ([`SmemTile`]).
pub trait StageTile {
    /// Its 16-bit elements.
    const ELEMS: usize;
    /// Its first element (a pointer, no reference taken).
    ///
    /// # Safety
    /// `this` points into live shared memory of the tile.
    unsafe fn ptr(this: *mut Self) -> *mut u16;
}
impl<const N: usize> StageTile for SmemTile<N> {
    const ELEMS: usize = N;
    #[inline(always)]
    unsafe fn ptr(this: *mut Self) -> *mut u16 {
        unsafe { SmemTile::ptr(this) }
    }
}

/// The CTA tile's N (CUTLASS's `TileShape` N): B's stage tile, the operand bundle's `Block`
/// of B, and a consumer warpgroup's `m64 × BN` fp32 fragment.
///
/// ```
/// use collective::mainloop::TileN;
/// use layout_types::cute::prelude::*;
/// assert_eq!((<_256 as TileN>::BN, <_128 as TileN>::BN), (256, 128));
/// // a 64 × 128 fragment goes to the epilogue as the first half of an m64n256 one
/// let (acc, n) = <_128 as TileN>::to_m64n256([1.0; 64], 1000, 896);
/// assert_eq!((acc[63], acc[64], n), (1.0, 0.0, 1000));
/// ```
pub trait TileN {
    /// N of the CTA tile.
    const BN: i32;
    /// The `Block` of B's [`SmemOperand`] bundle.
    type BBlock;
    /// B's stage tile (`BN × 64` 16-bit elements).
    type BTile: StageTile;
    /// A consumer warpgroup's accumulators (CuTe's `CLayout_64xBN` fragment).
    type Frag;
    /// The fragment of zeros (what a tile of K = 0 stores).
    fn zeroed() -> Self::Frag;
    /// The fragment as the epilogue's `m64n256` accumulators, and C's N clipped at the tile's
    /// end (an `m64n256` fragment is two `m64n128` ones along N: a 128-wide tile is the first
    /// half, zeros after, stored only up to column `n0 + 128`).
    fn to_m64n256(frag: Self::Frag, n: i32, n0: i32) -> ([f32; 128], i32);
}

impl TileN for _256 {
    const BN: i32 = 256;
    type BBlock = _256;
    type BTile = SmemTile<{ 256 * 64 }>;
    type Frag = [f32; 128];
    #[inline(always)]
    fn zeroed() -> [f32; 128] {
        // SAFETY: all-zero bits are the f32 value 0.0 (an array literal would be a store loop
        // that keeps the accumulators in local memory).
        unsafe { core::mem::zeroed() }
    }
    #[inline(always)]
    fn to_m64n256(frag: [f32; 128], n: i32, _: i32) -> ([f32; 128], i32) {
        (frag, n)
    }
}

impl TileN for _128 {
    const BN: i32 = 128;
    /// B's 128-row tile is read whole by `n128` `wgmma`s at block 0: A's bundle (`(128, 64)`).
    type BBlock = _64;
    type BTile = SmemTile<{ 128 * 64 }>;
    type Frag = [f32; 64];
    #[inline(always)]
    fn zeroed() -> [f32; 64] {
        // SAFETY: as for `_256`
        unsafe { core::mem::zeroed() }
    }
    #[inline(always)]
    fn to_m64n256(frag: [f32; 64], n: i32, n0: i32) -> ([f32; 128], i32) {
        // SAFETY: as for `_256`
        let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
        device::unroll!(16, |j| device::unroll!(4, |q| acc[4 * j + q] =
            frag[4 * j + q]));
        (acc, n.min(n0 + Self::BN))
    }
}

/// How a consumer warpgroup's `wgmma`s accumulate into its fragment `F` (CUTLASS: the
/// mainloop's accumulators, or `GmmaFP8Accumulation`'s `temp` and `promote`).
pub trait MmaAccumulation<F>: Sized {
    /// The run-time arguments (block scales, or none).
    type Args: Copy;
    /// k-tiles of `wgmma`s left in flight when a k-tile's stage is released (CUTLASS's
    /// `K_PIPE_MMAS`): 1 when the `wgmma`s add into the accumulators, 0 when each k-tile's
    /// result is read (promoted) before the next.
    const K_PIPE_MMAS: u32;
    /// The accumulation of one tile for consumer warpgroup `wg`'s thread `t`, whose rows of C
    /// start at `origin.0` and the tile's columns at `origin.1`, of `k_tiles` k-tiles.
    fn new(args: &Self::Args, thr: (i32, i32), origin: (i32, i32), k_tiles: i32) -> Self;
    /// The fragment a k-tile's `wgmma`s write.
    fn frag<'s>(&'s mut self, main: &'s mut F) -> &'s mut F;
    /// The scale-d of a k-tile's first `wgmma`, after `prev` was the previous one's last
    /// (the tile's first is [`ScaleOut::Zero`]).
    fn k_tile_scale(prev: ScaleOut) -> ScaleOut;
    /// After k-tile `kt`'s `wgmma`s are committed, while they run (block scales' loads).
    ///
    /// # Safety
    /// The arguments the accumulation was made with describe valid memory.
    unsafe fn issued(&mut self, kt: i32);
    /// After k-tile `kt`'s `wgmma`s are done: adds the fragment into `main` (promotion).
    fn promote(&mut self, main: &mut F);
}

/// The `wgmma`s add into the accumulators directly (16-bit inputs, and FP8 without promotion).
pub struct PlainAccumulation;

impl<F> MmaAccumulation<F> for PlainAccumulation {
    type Args = ();
    const K_PIPE_MMAS: u32 = 1;
    #[inline(always)]
    fn new(_: &(), _: (i32, i32), _: (i32, i32), _: i32) -> Self {
        PlainAccumulation
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, main: &'s mut F) -> &'s mut F {
        main
    }
    #[inline(always)]
    fn k_tile_scale(prev: ScaleOut) -> ScaleOut {
        prev
    }
    #[inline(always)]
    unsafe fn issued(&mut self, _: i32) {}
    #[inline(always)]
    fn promote(&mut self, _: &mut F) {}
}

/// The block scales of an FP8 GEMM (DeepGEMM's layout), or none (per-tensor scales, applied by
/// the epilogue as `alpha`).
///
/// - A's: `f32`, `(M, ⌈K/128⌉)` column-major (`(M, KB):(1, M)`): row `i`'s scale of k-block `kb`.
/// - B's: `f32`, `(⌈N/128⌉, ⌈K/128⌉)` row-major (`(NB, KB):(KB, 1)`): the 128 × 128 block
///   `(nb, kb)`'s scale.
#[derive(Clone, Copy)]
pub struct Fp8BlockScales {
    /// A's scales (null: no block scales, both pointers then unread).
    pub a: *const f32,
    /// B's scales.
    pub b: *const f32,
    /// C's `(M, N)` (the scale tensors' shapes with `k_tiles`).
    pub mn: (i32, i32),
}

/// The FP8 accumulation with promotion (CUTLASS's `GmmaFP8Accumulation`,
/// `cutlass/gemm/collective/fp8_accumulation.hpp`; DeepGEMM's schedule): Hopper's FP8 `wgmma`
/// adds its products into an accumulator of about 14 significant bits, so each k-tile's
/// (K = 128: four `wgmma.m64n128k32`) partial sums go into the temporary `temp`, which
/// [`promote`](MmaAccumulation::promote) adds into the fp32 accumulators, scaled by the
/// k-block's block scales (1 × 128 along K for A's rows, 128 × 128 for B) when the launch has
/// them. For 128 × 128 tiles (a 64 × 128 fragment: 64 main + 64 temporary registers; with
/// 64 × 256, ptxas spilled 80 bytes without block scales, 172 with them).
pub struct GmmaFp8Accumulation {
    /// The `m64n128` temporary (CuTe's `CLayout_64x128` fragment, as the main accumulator).
    pub temp: [f32; 64],
    scales: Fp8BlockScales,
    /// This thread's two rows of C (clamped into A) and the tile's N-block.
    rows: [i32; 2],
    nb: i32,
    k_tiles: i32,
    /// The k-tile's scales: A's two rows', B's N-block's.
    s: ([f32; 2], f32),
}

/// The thread part of `CLayout_64xN`'s row: thread `t = (t0, t1, t2)` of `(4, 8, 4)` holds rows
/// `t1 + 16·t2` and `+ 8` of the warpgroup's 64.
#[inline(always)]
fn acc_row_thr() -> Layout<(_4, _8, _4), (_0, _1, _16)> {
    Layout::default()
}
/// Which of a thread's two rows value `v` of an `m64n128` fragment is in (`(2, 2, 16)`: column
/// pair, row half, 8-column block).
#[inline(always)]
fn acc_row_half() -> Layout<(_2, _2, _16), (_0, _1, _0)> {
    Layout::default()
}

impl MmaAccumulation<[f32; 64]> for GmmaFp8Accumulation {
    type Args = Fp8BlockScales;
    const K_PIPE_MMAS: u32 = 0;
    #[inline(always)]
    fn new(scales: &Fp8BlockScales, (_, t): (i32, i32), (m0, n0): (i32, i32), k: i32) -> Self {
        let (m, n) = scales.mn;
        // this thread's rows (clamped into A: rows past M are zeros, any scale will do) and the
        // tile's N-block (the (128, NB) split of N)
        let r = m0 + acc_row_thr().crd2idx(t);
        let (_, nb): (i32, i32) = make_layout_left((_128, n.ceil_div(128))).idx2crd(n0);
        GmmaFp8Accumulation {
            // SAFETY: all-zero bits are 0.0 (never read before a scale-d 0 wgmma writes it)
            temp: unsafe { core::mem::zeroed() },
            scales: *scales,
            rows: [r.min(m - 1), (r + 8).min(m - 1)],
            nb,
            k_tiles: k,
            s: ([1.0; 2], 1.0),
        }
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, _: &'s mut [f32; 64]) -> &'s mut [f32; 64] {
        &mut self.temp
    }
    #[inline(always)]
    fn k_tile_scale(_: ScaleOut) -> ScaleOut {
        ScaleOut::Zero
    }
    /// Loads the k-tile's block scales of this thread's two rows and the tile's N-block (1
    /// without block scales).
    #[inline(always)]
    unsafe fn issued(&mut self, kt: i32) {
        let sc = &self.scales;
        if sc.a.is_null() {
            return;
        }
        let (m, n) = sc.mn;
        // the scale tensors: A's (M, KB):(1, M), B's (NB, KB):(KB, 1)
        let k_tiles = self.k_tiles;
        let sa = make_tensor(
            make_gmem_ptr(sc.a as *mut f32),
            make_layout((m, k_tiles), (_1, m)),
        );
        let sb = make_tensor(
            make_gmem_ptr(sc.b as *mut f32),
            make_layout((n.ceil_div(128), k_tiles), (k_tiles, _1)),
        );
        // SAFETY: inside the scale tensors (clamped coordinates; the caller's shapes)
        unsafe {
            let s_b = sb.read((self.nb, kt));
            self.s = (
                [sa.read((self.rows[0], kt)), sa.read((self.rows[1], kt))],
                s_b,
            );
        }
    }
    /// `main += scale[row half]·temp`, the scale the product of the row's and the N-block's.
    #[inline(always)]
    fn promote(&mut self, main: &mut [f32; 64]) {
        let ([s_a0, s_a1], s_b) = self.s;
        let scale = [s_a0 * s_b, s_a1 * s_b];
        let temp = &self.temp;
        device::unroll!(
            16,
            #[inline(always)]
            |j| device::unroll!(
                4,
                #[inline(always)]
                |q| {
                    let v = 4 * j + q;
                    let s = scale[acc_row_half().crd2idx(v as i32) as usize];
                    main[v] = device::math::fma(temp[v], s, main[v]);
                }
            )
        );
    }
}

/// The stage `i` tiles of A and B in `smem`: pointers, no references taken.
#[inline(always)]
fn stage_tiles<TA: StageTile, TB: StageTile, const STAGES: usize>(
    smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
    i: usize,
) -> (*mut u16, *mut u16) {
    unsafe {
        (
            TA::ptr((smem.0 as *mut TA).add(i)),
            TB::ptr((smem.1 as *mut TB).add(i)),
        )
    }
}

/// The mainloop over `E` inputs, A `MA`-major, B `MB`-major, tiles of N `BN`, accumulation
/// `Acc`, `STAGES` stages.
pub struct CollectiveMma<E, MA, MB, BN, Acc, const STAGES: usize> {
    _p: PhantomData<(E, MA, MB, BN, Acc)>,
}

impl<E, MA, MB, BN, Acc, const STAGES: usize> TransactionBytes
    for CollectiveMma<E, MA, MB, BN, Acc, STAGES>
where
    MA: SmemOperand<_128, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
{
    /// A stage's full barrier waits for A's and B's k-tiles.
    const TX_BYTES: u32 = (MA::BYTES + MB::BYTES) as u32;
}

/// The producer's handle of the mainloop's pipeline.
pub type Producer<E, MA, MB, BN, Acc, const STAGES: usize> =
    PipelineProducer<STAGES, CollectiveMma<E, MA, MB, BN, Acc, STAGES>>;
/// A consumer's handle of the mainloop's pipeline.
pub type Consumer<E, MA, MB, BN, Acc, const STAGES: usize> =
    PipelineConsumer<STAGES, CollectiveMma<E, MA, MB, BN, Acc, STAGES>>;

impl<E, MA, MB, BN, Acc, const STAGES: usize> CollectiveMma<E, MA, MB, BN, Acc, STAGES>
where
    MA: SmemOperand<_128, _64>,
    BN: TileN,
    MB: SmemOperandMulticast<BN, BN::BBlock>,
    BN::Frag: MmaAsync<E> + FenceOperand,
    Acc: MmaAccumulation<BN::Frag>,
{
    /// The producer's loads of one CTA tile: for each of the `k_tiles` k-tiles, acquire a
    /// stage, load A's rows `m0..` and B's rows `n0..` (B: this CTA's half, multicast, when the
    /// cluster has `cs = 2` CTAs) at column `64·kt`, commit.
    ///
    /// # Safety
    /// The one producer thread; the tensor maps are A's and B's with the boxes of `MA`, `MB`
    /// (B's half box when `cs = 2`); `smem` is the pipeline's stages.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn load<TA: StageTile, TB: StageTile>(
        prod: &mut Producer<E, MA, MB, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        mn0: (i32, i32),
        k_tiles: i32,
        cluster: (u32, i32),
    ) {
        unsafe { Self::load_k(prod, smem, tma, mn0, (0, k_tiles), k_tiles, cluster) }
    }

    /// [`load`](Self::load) of the k-tiles `k_begin..k_begin + k_count` of a tile of
    /// `k_tiles` (a stream-K unit's share; CUTLASS's `load` from a `k_tile_iter` for a
    /// `k_tile_count`).
    ///
    /// # Safety
    /// As [`load`](Self::load); `0 ≤ k_begin ≤ k_begin + k_count ≤ k_tiles`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn load_k<TA: StageTile, TB: StageTile>(
        prod: &mut Producer<E, MA, MB, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        (m0, n0): (i32, i32),
        (k_begin, k_count): (i32, i32),
        k_tiles: i32,
        (cs, rank): (u32, i32),
    ) {
        let () = Fits::<MA, MB, BN, TA, TB>::OK;
        for kt in k_begin..k_begin + k_count {
            let stage = unsafe { prod.producer_acquire() };
            let bar = stage.full_barrier();
            let i = stage.index() as usize;
            let (a, b) = stage_tiles(smem, i);
            // the k-tile's first column: k-tile kt of the (64, k_tiles) split of K
            let k0 = make_layout_left((_64, k_tiles)).crd2idx((0i32, kt));
            unsafe {
                MA::tma_load(tma.0, bar, a, m0, k0);
                if cs == 1 {
                    MB::tma_load(tma.1, bar, b, n0, k0);
                } else {
                    MB::tma_load_multicast(tma.1, bar, b, n0, k0, rank);
                }
            }
            stage.producer_commit();
        }
    }

    /// A consumer warpgroup's `wgmma`s over the k-tiles `k_begin..k_begin + k_count` of one
    /// tile into `acc` (its 64-row block `wg` of A's tile times B's tile) through `accum`
    /// (CUTLASS's `mma`): the tile's first `wgmma` has scale-d 0 (with promotion, each
    /// k-tile's first); a k-tile's stage is released once `wgmma.wait_group K_PIPE_MMAS` says
    /// at most the next k-tile's `wgmma`s are in flight; with promotion, the k-tile's scales
    /// load while its `wgmma`s run and the temporary is promoted after the release.
    ///
    /// # Safety
    /// All 128 threads of the consumer warpgroup; a producer fills the stages; `accum`'s
    /// arguments describe valid memory.
    #[inline(always)]
    pub unsafe fn mma<TA: StageTile, TB: StageTile>(
        cons: &mut Consumer<E, MA, MB, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        acc: &mut BN::Frag,
        accum: &mut Acc,
        wg: i32,
        (k_begin, k_count): (i32, i32),
    ) {
        let () = Fits::<MA, MB, BN, TA, TB>::OK;
        let pipelined = Acc::K_PIPE_MMAS > 0;
        let mut pending: Option<ConsumerStage<STAGES>> = None;
        // the tile's first wgmma overwrites the accumulators (scale-d 0); the zeros the caller
        // gives are what a tile of K = 0 stores
        let mut scale = ScaleOut::Zero;
        for i in 0..k_count {
            let full = unsafe { cons.consumer_wait() };
            let (a, b) = stage_tiles(smem, full.index() as usize);
            fence_operand(accum.frag(acc));
            fence();
            scale = Acc::k_tile_scale(scale);
            device::unroll!(4, |kb| {
                // SAFETY: the whole warpgroup; canonical layouts in this CTA's shared memory,
                // loaded (the full barrier's phase completed).
                unsafe {
                    mma_async_ss::<E, MA, MB, One, One, _>(
                        MA::gmma_desc(a, wg, kb as i32),
                        MB::gmma_desc(b, 0, kb as i32),
                        accum.frag(acc),
                        scale,
                    )
                };
                scale = ScaleOut::One;
            });
            commit_group();
            unsafe { accum.issued(k_begin + i) };
            if pipelined {
                wait_group::<1>(); // the previous k-tile's wgmmas have read their stage
            } else {
                wait_group::<0>();
            }
            fence_operand(accum.frag(acc));
            if !pipelined {
                unsafe { cons.consumer_release(full) };
            } else if let Some(done) = pending.replace(full) {
                unsafe { cons.consumer_release(done) };
            }
            accum.promote(acc);
        }
        if pipelined {
            wait_group::<0>();
            fence_operand(acc);
            if let Some(done) = pending {
                unsafe { cons.consumer_release(done) };
            }
        }
    }
}

/// The storage's tiles are the operands' (a compile-time check).
pub struct Fits<MA, MB, BN, TA, TB>(PhantomData<(MA, MB, BN, TA, TB)>);
impl<MA, MB, BN, TA, TB> Fits<MA, MB, BN, TA, TB>
where
    MA: SmemOperand<_128, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
    TA: StageTile,
    TB: StageTile,
{
    /// `TA::ELEMS == MA::ELEMS && TB::ELEMS == MB::ELEMS`.
    pub const OK: () = assert!(
        TA::ELEMS == MA::ELEMS && TB::ELEMS == MB::ELEMS,
        "MainloopStorage: the stage tiles must hold the operands' tiles"
    );
}
