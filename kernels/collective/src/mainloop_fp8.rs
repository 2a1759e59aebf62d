//! The FP8 mainloop with fp32 promotion (CUTLASS's
//! `KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum` mainloop with its
//! `GmmaFP8Accumulation`, `cutlass/gemm/collective/fp8_accumulation.hpp`; DeepGEMM's schedule):
//! Hopper's FP8 `wgmma` adds its products into an accumulator of about 14 significant bits, so
//! each k-tile's (K = 128: four `wgmma.m64n128k32`) partial sums go into a temporary accumulator
//! that is then added into the fp32 main accumulator, scaled by the k-block's block scales
//! (1 × 128 along K for A's rows, 128 × 128 for B) when the launch has them.
//!
//! The tile is 128 × 128 (two consumer warpgroups of 64 × 128: 64 main + 64 temporary
//! registers), not the 16-bit kernel's 128 × 256: a warpgroup's 64 × 256 main accumulator (128
//! registers) with a 64 × 128 temporary over N-halves needs ~250 registers where the
//! cooperative kernel's consumers have 232 (measured: ptxas spilled 80 bytes without block
//! scales, 172 with them). The other consumer warpgroup's `wgmma`s fill the tensor core while
//! one promotes (DeepGEMM's argument for its two math warpgroups): [`ConsumerOrder`] makes them
//! take turns, so that the two do not wait and promote at the same time.

use core::marker::PhantomData;

use device::thread::{named_barrier_arrive, named_barrier_sync};
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

/// The consumer's temporary accumulator and its promotion (CUTLASS's `GmmaFP8Accumulation`):
/// `temp` takes a k-tile's `wgmma`s, [`promote`](Self::promote) adds it into the main
/// accumulator, scaled per row.
pub struct GmmaFp8Accumulation<'a> {
    main: &'a mut [f32; 64],
    /// The `m64n128` temporary (CuTe's `CLayout_64x128` fragment, as the main accumulator).
    pub temp: [f32; 64],
}

/// The named barrier of consumer warpgroup 0's turn in [`ConsumerOrder`]; warpgroup 1's is the
/// next id (the epilogue's are 8 and 9).
pub const ORDER_BARRIER: u32 = 1;

/// The two consumer warpgroups take turns issuing their k-tile's `wgmma`s (CUTLASS's
/// `OrderedSequenceBarrier` between the math warpgroups, FlashAttention 3's warp scheduler
/// barrier), so that the tensor core runs one warpgroup's four `wgmma`s, then the other's: the
/// first warpgroup's finish half a k-tile earlier and it promotes while the second's run,
/// instead of both waiting and promoting at once with the tensor core idle. `ON = false`:
/// no-ops (both issue as soon as the stage is full).
///
/// Each warpgroup [`wait`](Self::wait)s for its turn before issuing and
/// [`arrive`](Self::arrive)s on the other's after: named barriers [`ORDER_BARRIER`] (warpgroup
/// 0's turn) and `+ 1` (warpgroup 1's) of 256 threads. Both warpgroups must issue the same
/// number of times (they run the same tiles and k-tiles).
#[derive(Clone, Copy)]
pub struct ConsumerOrder<const ON: bool> {
    /// The consumer warpgroup (0 or 1), warp-uniform.
    wg: i32,
}

impl<const ON: bool> ConsumerOrder<ON> {
    /// Consumer warpgroup `wg`'s handle: warpgroup 0 has the first turn (warpgroup 1 arrives on
    /// warpgroup 0's barrier once, as FlashAttention 3's `mma_init`).
    #[inline(always)]
    pub fn init(wg: i32) -> Self {
        if ON && wg == 1 {
            named_barrier_arrive::<ORDER_BARRIER, 256>();
        }
        ConsumerOrder { wg }
    }
    /// Waits for this warpgroup's turn.
    #[inline(always)]
    pub fn wait(&self) {
        if ON {
            if self.wg == 0 {
                named_barrier_sync::<ORDER_BARRIER, 256>();
            } else {
                named_barrier_sync::<{ ORDER_BARRIER + 1 }, 256>();
            }
        }
    }
    /// Hands the turn to the other warpgroup.
    #[inline(always)]
    pub fn arrive(&self) {
        if ON {
            if self.wg == 0 {
                named_barrier_arrive::<{ ORDER_BARRIER + 1 }, 256>();
            } else {
                named_barrier_arrive::<ORDER_BARRIER, 256>();
            }
        }
    }
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

impl<'a> GmmaFp8Accumulation<'a> {
    /// A temporary for `main`.
    #[inline(always)]
    pub fn new(main: &'a mut [f32; 64]) -> Self {
        GmmaFp8Accumulation {
            main,
            // SAFETY: all-zero bits are 0.0 (never read before a scale-d 0 wgmma writes it)
            temp: unsafe { core::mem::zeroed() },
        }
    }
    /// `main += scale[row half]·temp`: the promotion of one k-tile, with the product of the
    /// row's and the N-block's scales (1 without block scales).
    #[inline(always)]
    pub fn promote(&mut self, scale: [f32; 2]) {
        promote(self.main, &self.temp, scale)
    }
}

/// `main += scale[row half]·temp` ([`GmmaFp8Accumulation::promote`] of any temporary).
#[inline(always)]
fn promote(main: &mut [f32; 64], temp: &[f32; 64], scale: [f32; 2]) {
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

/// The FP8 mainloop with promotion every k-tile (4 `wgmma`s, K = 128) and optional block
/// scales, for 128 × 128 tiles: A's `(128, 64)` and B's `(128, 64)` k-tiles (16-bit units:
/// 128 FP8 elements of K) through `STAGES` stages, loaded by one producer thread with TMA (B
/// multicast across a cluster of 2 along M), read by `wgmma.m64n128k32` of each consumer
/// warpgroup.
pub struct CollectiveMmaFp8<E, MA, MB, const STAGES: usize> {
    _p: PhantomData<(E, MA, MB)>,
}

impl<E, MA, MB, const STAGES: usize> TransactionBytes for CollectiveMmaFp8<E, MA, MB, STAGES>
where
    MA: SmemOperand<_128, _64>,
    MB: SmemOperand<_128, _64>,
{
    /// A stage's full barrier waits for A's and B's k-tiles.
    const TX_BYTES: u32 = (MA::BYTES + MB::BYTES) as u32;
}

/// The producer's handle of the FP8 mainloop's pipeline.
pub type ProducerFp8<E, MA, MB, const STAGES: usize> =
    PipelineProducer<STAGES, CollectiveMmaFp8<E, MA, MB, STAGES>>;
/// A consumer's handle of the FP8 mainloop's pipeline.
pub type ConsumerFp8<E, MA, MB, const STAGES: usize> =
    PipelineConsumer<STAGES, CollectiveMmaFp8<E, MA, MB, STAGES>>;

impl<E, MA, MB, const STAGES: usize> CollectiveMmaFp8<E, MA, MB, STAGES>
where
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<_128, _64>,
    [f32; 64]: MmaAsync<E> + FenceOperand,
{
    /// The producer's loads of one CTA tile (as [`CollectiveMma::load`](crate::mainloop::CollectiveMma::load)
    /// with B's 128-row tile): for each of the `k_tiles` k-tiles, acquire a stage, load A's rows
    /// `m0..` and B's rows `n0..` (B: this CTA's half, multicast, when the cluster has `cs = 2`
    /// CTAs) at column `64·kt`, commit.
    ///
    /// # Safety
    /// The one producer thread; the tensor maps are A's and B's with the boxes of `MA`, `MB`
    /// (B's half box when `cs = 2`); `smem` is the pipeline's stages.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn load<const NA: usize, const NB: usize>(
        prod: &mut ProducerFp8<E, MA, MB, STAGES>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        (m0, n0): (i32, i32),
        k_tiles: i32,
        (cs, rank): (u32, i32),
    ) {
        let () = FitsFp8::<MA, MB, NA, NB>::OK;
        for kt in 0..k_tiles {
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

    /// A consumer warpgroup's mainloop over one tile's `k_tiles` k-tiles into `acc` (zero on
    /// entry; rows `64·wg..` of A's tile times B's tile; `t` the thread in the warpgroup, whose
    /// rows of C start at `origin.0`, the tile's columns at `origin.1`). Per k-tile: the block
    /// scales of this thread's two rows and the tile's N-block (loaded a k-tile ahead), four
    /// `wgmma.m64n128k32` into the temporary (the first with scale-d 0) in this warpgroup's turn
    /// (`order`), `wait_group 0`, the stage released, the promotion.
    ///
    /// # Safety
    /// All 128 threads of the consumer warpgroup; a producer fills the stages; with `ORDERED`,
    /// the other consumer warpgroup runs as many k-tiles with its own `order`; with block
    /// scales (`scales.a` not null), `scales.a` and `scales.b` hold the shapes
    /// [`Fp8BlockScales`] documents for `K = 128·k_tiles` (the last block partial).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn mma<const NA: usize, const NB: usize, const ORDERED: bool>(
        cons: &mut ConsumerFp8<E, MA, MB, STAGES>,
        order: &ConsumerOrder<ORDERED>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        acc: &mut [f32; 64],
        (wg, t): (i32, i32),
        (m0, n0): (i32, i32),
        k_tiles: i32,
        scales: &Fp8BlockScales,
    ) {
        let () = FitsFp8::<MA, MB, NA, NB>::OK;
        let scales_of = block_scales_of(scales, t, (m0, n0), k_tiles);
        let mut accum = GmmaFp8Accumulation::new(acc);
        // loaded a k-tile ahead: the loads' latency hides under a whole k-tile's wgmmas
        let mut s_now = if k_tiles > 0 { scales_of(0) } else { [1f32; 3] };
        for kt in 0..k_tiles {
            let full = unsafe { Self::issue(cons, order, smem, wg, &mut accum.temp) };
            // the next k-tile's scales (the last k-tile's again after it)
            let s_next = scales_of((kt + 1).min(k_tiles - 1));
            wait_group::<0>();
            fence_operand(&mut accum.temp);
            unsafe { cons.consumer_release(full) };
            accum.promote([s_now[0] * s_now[2], s_now[1] * s_now[2]]);
            s_now = s_next;
        }
    }

    /// One k-tile's issue: wait for the stage, this warpgroup's turn, four
    /// `wgmma.m64n128k32` into `temp` (the first with scale-d 0), commit, hand the turn over.
    #[inline(always)]
    unsafe fn issue<const NA: usize, const NB: usize, const ORDERED: bool>(
        cons: &mut ConsumerFp8<E, MA, MB, STAGES>,
        order: &ConsumerOrder<ORDERED>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        wg: i32,
        temp: &mut [f32; 64],
    ) -> ConsumerStage<STAGES> {
        let full = unsafe { cons.consumer_wait() };
        let (a, b) = stage_tiles(smem, full.index() as usize);
        order.wait();
        fence_operand(temp);
        fence();
        let mut scale = ScaleOut::Zero;
        device::unroll!(4, |kb| {
            // SAFETY: the whole warpgroup; canonical layouts in this CTA's shared memory,
            // loaded (the full barrier's phase completed).
            unsafe {
                mma_async_ss::<E, MA, MB, One, One, _>(
                    MA::gmma_desc(a, wg, kb as i32),
                    MB::gmma_desc(b, 0, kb as i32),
                    temp,
                    scale,
                )
            };
            scale = ScaleOut::One;
        });
        commit_group();
        order.arrive();
        full
    }

    /// [`mma`](Self::mma) with two temporaries, k-tiles in pairs (FlashAttention 3's
    /// intra-warpgroup overlap of S and O): k-tiles `kt` and `kt + 1` are issued into one
    /// temporary each, `wait_group 1`, the first promoted while the second's `wgmma`s run,
    /// `wait_group 0`, the second promoted (an odd last k-tile alone). Nothing is in flight
    /// across the loop's back edge: copies of in-flight accumulators there serialize every
    /// `wgmma` (ptxas C7514).
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn mma_overlapped<const NA: usize, const NB: usize, const ORDERED: bool>(
        cons: &mut ConsumerFp8<E, MA, MB, STAGES>,
        order: &ConsumerOrder<ORDERED>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        acc: &mut [f32; 64],
        (wg, t): (i32, i32),
        (m0, n0): (i32, i32),
        k_tiles: i32,
        scales: &Fp8BlockScales,
    ) {
        let () = FitsFp8::<MA, MB, NA, NB>::OK;
        let scales_of = block_scales_of(scales, t, (m0, n0), k_tiles);
        let product = |s: [f32; 3]| [s[0] * s[2], s[1] * s[2]];
        // SAFETY: all-zero bits are 0.0 (each is written by a scale-d 0 wgmma before a read)
        let (mut t0, mut t1): ([f32; 64], [f32; 64]) = unsafe { core::mem::zeroed() };
        // a pair's scales, loaded a pair ahead (clamped: the last k-tile's again after it)
        let pair_scales = |kt: i32| {
            (
                scales_of(kt.min(k_tiles - 1)),
                scales_of((kt + 1).min(k_tiles - 1)),
            )
        };
        if k_tiles == 0 {
            return;
        }
        let mut s_pair = pair_scales(0);
        let mut kt = 0;
        while kt + 1 < k_tiles {
            let f0 = unsafe { Self::issue(cons, order, smem, wg, &mut t0) };
            let f1 = unsafe { Self::issue(cons, order, smem, wg, &mut t1) };
            let (s0, s1) = s_pair;
            s_pair = pair_scales(kt + 2);
            wait_group::<1>();
            fence_operand(&mut t0);
            unsafe { cons.consumer_release(f0) };
            promote(acc, &t0, product(s0));
            wait_group::<0>();
            fence_operand(&mut t1);
            unsafe { cons.consumer_release(f1) };
            promote(acc, &t1, product(s1));
            kt += 2;
        }
        if kt < k_tiles {
            let f0 = unsafe { Self::issue(cons, order, smem, wg, &mut t0) };
            let s0 = s_pair.0;
            wait_group::<0>();
            fence_operand(&mut t0);
            unsafe { cons.consumer_release(f0) };
            promote(acc, &t0, product(s0));
        }
    }
}

/// k-tile `kt`'s block scales of thread `t`'s two rows and the tile's N-block (`[a_row0,
/// a_row1, b]`; all 1 without block scales): reads of the scale tensors
/// [`Fp8BlockScales`] documents.
#[inline(always)]
fn block_scales_of(
    scales: &Fp8BlockScales,
    t: i32,
    (m0, n0): (i32, i32),
    k_tiles: i32,
) -> impl Fn(i32) -> [f32; 3] {
    let block = !scales.a.is_null();
    let (m, n) = scales.mn;
    // the scale tensors: A's (M, KB):(1, M), B's (NB, KB):(KB, 1)
    let nbs = n.ceil_div(128);
    let sa = make_tensor(
        make_gmem_ptr(scales.a as *mut f32),
        make_layout((m, k_tiles), (_1, m)),
    );
    let sb = make_tensor(
        make_gmem_ptr(scales.b as *mut f32),
        make_layout((nbs, k_tiles), (k_tiles, _1)),
    );
    // this thread's rows (clamped into A: rows past M are zeros, any scale will do) and the
    // tile's N-block (the (128, NB) split of N)
    let r = m0 + acc_row_thr().crd2idx(t);
    let rows = [r.min(m - 1), (r + 8).min(m - 1)];
    let (_, nb): (i32, i32) = make_layout_left((_128, nbs)).idx2crd(n0);
    move |kt: i32| {
        if block {
            // SAFETY: inside the scale tensors (clamped coordinates; the caller's shapes)
            unsafe { [sa.read((rows[0], kt)), sa.read((rows[1], kt)), sb.read((nb, kt))] }
        } else {
            [1f32; 3]
        }
    }
}

/// The stage `i` tiles of A and B in `smem`: pointers, no references taken.
#[inline(always)]
fn stage_tiles<const STAGES: usize, const NA: usize, const NB: usize>(
    smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
    i: usize,
) -> (*mut u16, *mut u16) {
    unsafe {
        (
            SmemTile::ptr((smem.0 as *mut SmemTile<NA>).add(i)),
            SmemTile::ptr((smem.1 as *mut SmemTile<NB>).add(i)),
        )
    }
}

/// The storage's tiles are the operands' (a compile-time check).
pub struct FitsFp8<MA, MB, const NA: usize, const NB: usize>(PhantomData<(MA, MB)>);
impl<MA: SmemOperand<_128, _64>, MB: SmemOperand<_128, _64>, const NA: usize, const NB: usize>
    FitsFp8<MA, MB, NA, NB>
{
    /// `NA == MA::ELEMS && NB == MB::ELEMS`.
    pub const OK: () = assert!(
        NA == MA::ELEMS && NB == MB::ELEMS,
        "CollectiveMmaFp8: the stage tiles must hold the operands' tiles"
    );
}
