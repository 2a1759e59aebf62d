//! The TMA + GMMA mainloop collective (CUTLASS's `CollectiveMma` with the
//! `MainloopSm90TmaGmmaWarpSpecialized` policy, SS): A's `(BM, 64)` and B's `(BN, 64)`
//! k-tiles stream through `STAGES` shared-memory stages, loaded by one producer warp with TMA
//! (A or B multicast across a cluster of 2: [`ClusterLoad`]) and read by `wgmma.m64nBNk16` (16-bit) or
//! `wgmma.m64nBNk32` (FP8) of each consumer warpgroup, one per `m64` block of its
//! [`WarpgroupTile`].
//!
//! The type parameters are CUTLASS's: the element `E`; the majorities `MA`, `MB` (their tiles,
//! boxes and descriptors come from their [`SmemOperand`] bundles); the CTA tile's M, `BM`
//! ([`TileM`]: `_128`, two 64-row blocks, or `_64`, A's stage tile); the CTA tile's N, `BN`
//! ([`TileN`]: `_256`, `_128`, or the promoted FP8 kernel's `_192` and `_160` (B's whole tile one block), B's
//! stage tile and the consumer's fragment); the accumulation `Acc` ([`MmaAccumulation`]:
//! [`PlainAccumulation`], the `wgmma`s straight into the accumulators, or
//! [`GmmaFp8Accumulation`], CUTLASS's `GmmaFP8Accumulation` with a temporary promoted every
//! k-tile and optional block scales); `STAGES`.
//!
//! As CUTLASS's, a consumer's [`mma`](CollectiveMma::mma) leaves the last k-tile's `wgmma`s in
//! flight and [`mma_tail`](CollectiveMma::mma_tail) waits for them and releases their stage:
//! the ping-pong schedule hands the tensor cores to the other consumer in between.

use core::marker::PhantomData;

use device::cluster::warp_uniform_u32;
use device::thread::{named_barrier_arrive, named_barrier_sync};
use device::tma::TmaDescriptor;
use device::wgmma::Major;
use device::wgmma::{
    MmaAsync, One, ScaleOut, commit_group, fence, fence_operand, mma_async_ss, wait_group,
};
use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaBox, TmaLoad};
use layout_types::cute::prelude::*;
use layout_types::cutlass::gmma_operand::{
    SCALE_BOX_A4_K_BLOCKS, ScaleBoxA, ScaleBoxA4, ScaleBoxB, SmemOperand, SmemScales, SmemTile,
};
use layout_types::cutlass::pipeline::{
    ConsumerStage, PipelineConsumer, PipelineProducer, TransactionBytes,
};

use crate::cluster::ClusterLoad;
use crate::scheduler::FixupOrder;
use crate::tile::{StageTile, TileN};

/// The tile of C one consumer warpgroup computes from a pipeline stage, `(M, N)` (CUTLASS: the
/// CTA tile over the consumer warpgroups that share a stage): its `m64` blocks along M, each
/// an `m64nN` fragment of CuTe's `CLayout_64xN` written by one `wgmma` per k-block, and how the
/// epilogue sees them (an `m64n256` fragment, [`to_epilogue`](Self::to_epilogue)).
///
/// - `(_64, _256)`: one `m64n256` block (the cooperative schedule's half of a 128×256 tile, the
///   64×256 ping-pong tile).
/// - `(_64, _128)`: one `m64n128` block (the promoted FP8 cooperative kernel's half of a 128×128
///   tile); the epilogue sees it as the first half of an `m64n256` fragment, C's N clipped at
///   the tile's end (so its epilogue must store by a bound-checked direct path: a TMA store of
///   the second half would write the next tile's columns).
/// - `(_128, _128)`: two `m64n128` blocks along M (CUTLASS's ping-pong tile: both 64-row blocks
///   of A's 128-row stage tile against B's 128 rows, two `wgmma`s per k-block, 128 accumulator
///   registers as one `m64n256`); the epilogue sees the blocks' 64-column halves interleaved
///   as the `m64n256` fragment's 64-column quarters — block 0's columns 0..64, block 1's,
///   block 0's 64..128, block 1's ([`M`](Self::M) 128 tells it so) — so a 64-column chunk
///   of the epilogue is one block's, and the chunks go along M first.
///
/// ```
/// use collective::mainloop::WarpgroupTile;
/// use layout_types::cute::prelude::*;
/// // a 64 × 128 fragment goes to the epilogue as the first half of an m64n256 one
/// let (acc, n) = <(_64, _128) as WarpgroupTile>::to_epilogue([1.0; 64], 1000, 896);
/// assert_eq!((acc[63], acc[64], n), (1.0, 0.0, 1000));
/// // of which a TMA epilogue stores the first 128 columns (a 64 × 192 tile: 192)
/// assert_eq!(<<(_64, _128) as WarpgroupTile>::EpiCols as StaticInt>::VALUE, 128);
/// assert_eq!(<<(_64, _192) as WarpgroupTile>::EpiCols as StaticInt>::VALUE, 192);
/// // a 128 × 128 tile: the blocks' 64-column halves interleaved, C's N as it is
/// type P = (_128, _128);
/// assert_eq!((<P as WarpgroupTile>::M, <P as WarpgroupTile>::BLOCKS), (128, 2));
/// let (acc, n) = <P as WarpgroupTile>::to_epilogue([[1.0; 64], [2.0; 64]], 1000, 896);
/// assert_eq!((acc[31], acc[32], acc[63], acc[64], acc[127], n), (1.0, 2.0, 2.0, 1.0, 2.0, 1000));
/// ```
pub trait WarpgroupTile {
    /// M of the tile: 64 or 128 (the epilogue's rows).
    const M: i32;
    /// The tile's `m64` blocks along M (`M / 64`).
    const BLOCKS: usize;
    /// The columns of the epilogue's `m64n256` fragment ([`to_epilogue`](Self::to_epilogue))
    /// that hold the tile, a static integer: `_256`, or N for a one-block tile of N < 256 (its
    /// first N columns). A TMA epilogue stores these only (a store of the others would write the
    /// next tile's columns).
    type EpiCols: StaticInt;
    /// One block's fragment: the accumulators of one `m64nN` `wgmma`.
    type Block;
    /// The warpgroup's accumulators: its blocks.
    type Frag;
    /// The fragment of zeros (what a tile of K = 0 stores).
    fn zeroed() -> Self::Frag;
    /// Block `i` of the accumulators (`i` a constant after unrolling).
    fn block(frag: &mut Self::Frag, i: usize) -> &mut Self::Block;
    /// `fence_operand` of every block.
    fn fence(frag: &mut Self::Frag);
    /// The accumulators as the epilogue's `m64n256` fragment, and C's N as the epilogue must
    /// clip it (see the impls above).
    fn to_epilogue(frag: Self::Frag, n: i32, n0: i32) -> ([f32; 128], i32);
}

impl WarpgroupTile for (_64, _256) {
    const M: i32 = 64;
    const BLOCKS: usize = 1;
    type EpiCols = _256;
    type Block = [f32; 128];
    type Frag = [f32; 128];
    #[inline(always)]
    fn zeroed() -> [f32; 128] {
        // SAFETY: all-zero bits are the f32 value 0.0 (an array literal would be a store loop
        // that keeps the accumulators in local memory).
        unsafe { core::mem::zeroed() }
    }
    #[inline(always)]
    fn block(frag: &mut [f32; 128], _: usize) -> &mut [f32; 128] {
        frag
    }
    #[inline(always)]
    fn fence(frag: &mut [f32; 128]) {
        fence_operand(frag);
    }
    #[inline(always)]
    fn to_epilogue(frag: [f32; 128], n: i32, _: i32) -> ([f32; 128], i32) {
        (frag, n)
    }
}

/// An `m64nN` fragment (N = `2V` < 256) as the first `V` values of an `m64n256` one: `CLayout_64xN`
/// is `CLayout_64x256`'s first N/8 8-column blocks (value `4·j + q` of block `j`), so the
/// epilogue sees the tile as the first N columns of a 64×256 one (C's N clipped at the tile's
/// end by the caller).
#[inline(always)]
fn first_of_m64n256<const V: usize>(frag: [f32; V]) -> [f32; 128] {
    // SAFETY: as for `(_64, _256)`
    let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
    device::unroll!(V / 4, |j| device::unroll!(4, |q| acc[4 * j + q] =
        frag[4 * j + q]));
    acc
}

/// `(_64, BN)` for BN < 256: one `m64nBN` block (the promoted FP8 kernel's 128-wide tile, and
/// its 160- and 192-wide variants), seen by the epilogue as the first BN columns of an
/// `m64n256` fragment ([`first_of_m64n256`]), C's N clipped at the tile's end.
macro_rules! wide_warpgroup_tile {
    ($bn:ty, $v:literal) => {
        impl WarpgroupTile for (_64, $bn) {
            const M: i32 = 64;
            const BLOCKS: usize = 1;
            type EpiCols = $bn;
            type Block = [f32; $v];
            type Frag = [f32; $v];
            #[inline(always)]
            fn zeroed() -> [f32; $v] {
                // SAFETY: as for `(_64, _256)`
                unsafe { core::mem::zeroed() }
            }
            #[inline(always)]
            fn block(frag: &mut [f32; $v], _: usize) -> &mut [f32; $v] {
                frag
            }
            #[inline(always)]
            fn fence(frag: &mut [f32; $v]) {
                fence_operand(frag);
            }
            #[inline(always)]
            fn to_epilogue(frag: [f32; $v], n: i32, n0: i32) -> ([f32; 128], i32) {
                (first_of_m64n256(frag), n.min(n0 + <$bn as TileN>::BN))
            }
        }
    };
}
wide_warpgroup_tile!(_128, 64);
wide_warpgroup_tile!(_160, 80);
wide_warpgroup_tile!(_192, 96);

impl WarpgroupTile for (_128, _128) {
    const M: i32 = 128;
    const BLOCKS: usize = 2;
    type EpiCols = _256;
    type Block = [f32; 64];
    type Frag = [[f32; 64]; 2];
    #[inline(always)]
    fn zeroed() -> [[f32; 64]; 2] {
        // SAFETY: as for `(_64, _256)`
        unsafe { core::mem::zeroed() }
    }
    #[inline(always)]
    fn block(frag: &mut [[f32; 64]; 2], i: usize) -> &mut [f32; 64] {
        &mut frag[i]
    }
    #[inline(always)]
    fn fence(frag: &mut [[f32; 64]; 2]) {
        fence_operand(&mut frag[0]);
        fence_operand(&mut frag[1]);
    }
    #[inline(always)]
    fn to_epilogue(frag: [[f32; 64]; 2], n: i32, _: i32) -> ([f32; 128], i32) {
        // (value of an m64n128 block, block) → the m64n256 fragment's value. A value is
        // (4 in an 8-column block, 8 such blocks, 2 halves of 64 columns) (`CLayout_64x128`);
        // the blocks' 64-column halves interleave (block 0's first, block 1's first, block 0's
        // second, block 1's second), so each 64-column chunk of the epilogue is one block's.
        let vals = Layout::<((_4, _8, _2), _2), ((_1, _4, _64), _32)>::default();
        // SAFETY: as for `(_64, _256)`
        let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
        device::unroll!(2, |b| device::unroll!(16, |j| device::unroll!(4, |q| {
            let v = 4 * j + q;
            acc[vals.crd2idx((v as i32, b as i32)) as usize] = frag[b][v];
        })));
        (acc, n)
    }
}

/// The CTA tile's M (CUTLASS's `TileShape` M): A's stage tile, read by `m64` `wgmma`s in
/// 64-row blocks — two for the cooperative schedule (one per consumer warpgroup) and the
/// 128×128 ping-pong schedule (both for the warpgroup that owns the tile), one for the 64×256
/// ping-pong schedule.
///
/// ```
/// use collective::mainloop::TileM;
/// use collective::tile::StageTile;
/// use layout_types::cute::prelude::*;
/// assert_eq!((<_128 as TileM>::BM, <<_128 as TileM>::ATile as StageTile>::ELEMS), (128, 8192));
/// assert_eq!((<_64 as TileM>::BM, <<_64 as TileM>::ATile as StageTile>::ELEMS), (64, 4096));
/// ```
pub trait TileM {
    /// M of the CTA tile.
    const BM: i32;
    /// A's stage tile (`BM × 64` 16-bit elements).
    type ATile: StageTile;
}

impl TileM for _128 {
    const BM: i32 = 128;
    type ATile = SmemTile<{ 128 * 64 }>;
}

impl TileM for _64 {
    const BM: i32 = 64;
    type ATile = SmemTile<{ 64 * 64 }>;
}

/// What an accumulation brings into shared memory with each pipeline stage (DeepGEMM's block
/// scales, loaded by TMA with the stage's A and B tiles and counted in its transaction bytes):
/// nothing (`()`, 0 bytes) but for [`GmmaFp8AccumulationStaged`].
pub trait AccumulationStage {
    /// A stage's storage (the kernel's `StagedSharedStorage` holds one per stage).
    type Stage;
    /// Its bytes in the stage's transaction (the full barrier's `expect_tx`).
    const STAGE_TX_BYTES: u32 = 0;
}

/// How a consumer warpgroup's `wgmma`s accumulate into its fragment `F` (CUTLASS: the
/// mainloop's accumulators, or `GmmaFP8Accumulation`'s `temp` and `promote`).
pub trait MmaAccumulation<F>: AccumulationStage + Sized {
    /// The run-time arguments (block scales, or none).
    type Args: Copy;
    /// k-tiles of `wgmma`s left in flight when a k-tile's stage is released (CUTLASS's
    /// `K_PIPE_MMAS`): 1 when the `wgmma`s add into the accumulators, 0 when each k-tile's
    /// result is read (promoted) before the next.
    const K_PIPE_MMAS: u32;
    /// The accumulation of one tile for thread `t` of the consumer warpgroup that computes
    /// 64-row block `block` of the CTA tile (`thr = (block, t)`: the kernel schedule's
    /// `m_block`, the warpgroup in the cooperative schedule, 0 in the ping-pong one), whose rows
    /// of C start at `origin.0` and the tile's columns at `origin.1`, of `k_tiles` k-tiles.
    fn new(args: &Self::Args, thr: (i32, i32), origin: (i32, i32), k_tiles: i32) -> Self;
    /// The fragment a k-tile's `wgmma`s write.
    fn frag<'s>(&'s mut self, main: &'s mut F) -> &'s mut F;
    /// The scale-d of a k-tile's first `wgmma`, after `prev` was the previous one's last
    /// (the tile's first is [`ScaleOut::Zero`]).
    fn k_tile_scale(prev: ScaleOut) -> ScaleOut;
    /// The consumer warpgroups take turns issuing their k-tiles' `wgmma`s ([`ConsumerOrder`]).
    const TURNS: bool = false;
    /// Consumer warpgroup 1 (the CTA tile's second m64 block, cooperative schedule) promotes
    /// in windows shifted by half a k-tile against warpgroup 0's
    /// (`CollectiveMma::mma_offset`), so the two warpgroups' `wait_group 0` and promotion
    /// fall at different times instead of together with the tensor core idle. Per-tensor
    /// scales only (a window straddles two k-tiles); neither paired nor in turns.
    const OFFSET: bool = false;
    /// The k-tiles go in pairs, the second into a second temporary ([`frag_b`](Self::frag_b)),
    /// the first promoted while the second's `wgmma`s run
    /// ([`CollectiveMma::mma`]'s paired schedule).
    const PAIRED: bool = false;
    /// Four k-tiles an iteration ([`CollectiveMma::mma`]'s quad schedule): pairs as
    /// [`PAIRED`](Self::PAIRED), each k-tile's scales in a queue slot of its own (`kt` mod 4),
    /// reloaded four k-tiles ahead into the slot its promotion has just read
    /// ([`promote_slot`](Self::promote_slot)), so no queued value moves (a move waits for its
    /// load).
    const QUAD: bool = false;
    /// The k-tiles whose stage data ([`load_stage`](Self::load_stage)) the first of them
    /// brings: 1, or (a [`QUAD`](Self::QUAD) accumulation) 4. Above 1 a tile's k-tiles come in
    /// whole groups — K a multiple of `K_GROUP` k-tiles, the host's check — so that every
    /// tile's first k-tile takes a stage whose index is a multiple of `K_GROUP` (given whole
    /// k-ranges). (Session 56 completed a group cut short with empty stages; under memcheck
    /// those hung where a CTA took two tiles: doc/fp8-gemm.md, session 58.)
    const K_GROUP: i32 = 1;
    /// The order of the accumulators in a split tile's partial (the scheduler's
    /// [`fixup`](crate::scheduler::TileScheduler::fixup), whose 16-byte rows put four
    /// accumulators in four registers in a row): [`FixupOrder::InOrder`] by default, where the
    /// accumulators are the `wgmma` fragment's own registers; a promoted accumulation, whose
    /// `main` is apart from the fragment, [`FixupOrder::PairsSwapped`], so that
    /// `main[v] += s · temp[v]` reads `main[v]` and `temp[v]` from registers of two parities
    /// (with a scale in a register, three sources of one parity cost a bank conflict: 32 of
    /// the 64 promotion `FFMA`s of the 128 × 128 block entry on the split-K scheduler, none
    /// with this order; doc/fp8-gemm.md, session 64).
    const FIXUP_ORDER: FixupOrder = FixupOrder::InOrder;
    /// `QUAD`: promotes [`frag`](Self::frag) (`b`: [`frag_b`](Self::frag_b)) with the scales
    /// of queue slot `slot` (a constant), the queue unmoved.
    fn promote_slot(&mut self, main: &mut F, b: bool, slot: usize) {
        let _ = slot;
        if b {
            self.promote_b(main)
        } else {
            self.promote(main)
        }
    }
    /// Queues k-tile `kt`'s block scales at position `slot` (0..3, a constant) of the
    /// promotions' queue, `kt` clamped into the tile (a load a k-tile or a pair ahead of its
    /// promotion, issued while `wgmma`s run).
    ///
    /// # Safety
    /// The arguments the accumulation was made with describe valid memory.
    unsafe fn prefetch(&mut self, kt: i32, slot: usize);
    /// After a k-tile's `wgmma`s into [`frag`](Self::frag) are done: adds the fragment into
    /// `main` (promotion) with the queue's first scales, and moves the queue on.
    fn promote(&mut self, main: &mut F);
    /// The paired schedule's second fragment ([`frag`](Self::frag)'s unless `PAIRED`).
    fn frag_b<'s>(&'s mut self, main: &'s mut F) -> &'s mut F {
        self.frag(main)
    }
    /// [`promote`](Self::promote) of [`frag_b`](Self::frag_b).
    fn promote_b(&mut self, main: &mut F) {
        self.promote(main)
    }
    /// The producer's loads of k-tile `kt`'s [`Stage`](AccumulationStage::Stage) storage into
    /// `stage`, completing on the stage's full barrier `bar` (nothing by default), for the CTA
    /// tile at `mn0` of a problem of `k_tiles` k-tiles.
    ///
    /// # Safety
    /// The one producer thread, after acquiring the stage; `args` describe valid memory.
    #[inline(always)]
    unsafe fn load_stage(
        _args: &Self::Args,
        _bar: *mut u64,
        _stage: *mut Self::Stage,
        _mn0: (i32, i32),
        _kt: i32,
        _k_tiles: i32,
    ) {
    }
    /// Reads k-tile `kt`'s waited stage's storage (its full barrier passed, not yet released)
    /// into the promotions' queue at `slot` (nothing by default): the mainloop calls it before
    /// the k-tile's `wgmma`s, whose completion precedes the stage's release.
    ///
    /// # Safety
    /// `stage` is the stage's storage in this CTA's shared memory.
    #[inline(always)]
    unsafe fn read_stage(&mut self, _stage: *const Self::Stage, _slot: usize, _kt: i32) {}
}

/// The named barrier of consumer warpgroup 0's turn in [`ConsumerOrder`]; warpgroup 1's is the
/// next id (the epilogue's are 8 and 9).
pub const ORDER_BARRIER: u32 = 1;

/// The two consumer warpgroups take turns issuing their k-tiles' `wgmma`s (CUTLASS's
/// `OrderedSequenceBarrier` between the math warpgroups, FlashAttention 3's warp scheduler
/// barrier), so that the tensor core runs one warpgroup's `wgmma`s, then the other's: with
/// promotion, one warpgroup promotes while the other's run, instead of both waiting and
/// promoting at once with the tensor core idle. Off ([`MmaAccumulation::TURNS`] false): no-ops.
///
/// Each warpgroup [`wait`](Self::wait)s for its turn before issuing and
/// [`arrive`](Self::arrive)s on the other's after: named barriers [`ORDER_BARRIER`] (warpgroup
/// 0's turn) and `+ 1` (warpgroup 1's) of 256 threads. Both warpgroups must issue as many
/// times (they run the same work tiles).
#[derive(Clone, Copy)]
pub struct ConsumerOrder {
    /// The consumer warpgroup (0 or 1), warp-uniform.
    wg: i32,
    on: bool,
}

impl ConsumerOrder {
    /// Consumer warpgroup `wg`'s handle: warpgroup 0 has the first turn (warpgroup 1 arrives on
    /// warpgroup 0's barrier once, as FlashAttention 3's `mma_init`).
    ///
    /// Two warpgroups (256 threads; named barriers need the GPU) append to a log in turns, so
    /// it reads `[0, 1, 0, 1]`:
    ///
    /// ```no_run
    /// use collective::mainloop::ConsumerOrder;
    /// device::kernel! {
    ///     pub unsafe fn turns(log: *mut u32, len: *mut u32) {
    ///         let t = device::thread::thread_idx_x();
    ///         let order = ConsumerOrder::new((t / 128) as i32, true);
    ///         for _ in 0..2 {
    ///             order.wait();
    ///             if t % 128 == 0 {
    ///                 unsafe { *log.add(*len as usize) = t / 128; *len += 1 };
    ///             }
    ///             order.arrive();
    ///         }
    ///     }
    /// }
    /// ```
    #[inline(always)]
    pub fn new(wg: i32, on: bool) -> Self {
        if on && wg == 1 {
            named_barrier_arrive::<ORDER_BARRIER, 256>();
        }
        ConsumerOrder { wg, on }
    }
    /// Waits for this warpgroup's turn.
    ///
    /// ```no_run
    /// # use collective::mainloop::ConsumerOrder;
    /// # let wg = 0;
    /// let order = ConsumerOrder::new(wg, true);
    /// order.wait(); // warpgroup 0: at once (warpgroup 1 arrived in `new`); 1: after 0's `arrive`
    /// // ... this warpgroup's `wgmma`s ...
    /// order.arrive();
    /// ```
    #[inline(always)]
    pub fn wait(&self) {
        if self.on {
            if self.wg == 0 {
                named_barrier_sync::<ORDER_BARRIER, 256>();
            } else {
                named_barrier_sync::<{ ORDER_BARRIER + 1 }, 256>();
            }
        }
    }
    /// Hands the turn to the other warpgroup.
    ///
    /// ```no_run
    /// # use collective::mainloop::ConsumerOrder;
    /// # let wg = 1;
    /// let order = ConsumerOrder::new(wg, true);
    /// order.wait();
    /// // ... this warpgroup's `wgmma`s, issued ...
    /// order.arrive(); // the other warpgroup's turn, without waiting for them to finish
    /// ```
    #[inline(always)]
    pub fn arrive(&self) {
        if self.on {
            if self.wg == 0 {
                named_barrier_arrive::<{ ORDER_BARRIER + 1 }, 256>();
            } else {
                named_barrier_arrive::<ORDER_BARRIER, 256>();
            }
        }
    }
}

/// The `wgmma`s add into the accumulators directly (16-bit inputs, and FP8 without promotion);
/// a k-tile's stage is released once at most `K_PIPE_MMAS` k-tiles' `wgmma`s are in flight
/// (1: the next k-tile's issue overlaps this one's; 0: each k-tile waited for and its stage
/// released at once, fast.cu's kernel 12 — the cooperative 128×256 entries of `kernels/hgemm`,
/// where the other consumer warpgroup's `wgmma`s fill the wait: 0.3–0.9 % faster, runs s48a–s48b).
pub struct PlainAccumulation<const K_PIPE_MMAS: u32 = 1>;

impl<const K_PIPE_MMAS: u32> AccumulationStage for PlainAccumulation<K_PIPE_MMAS> {
    type Stage = ();
}

impl<F, const K_PIPE_MMAS: u32> MmaAccumulation<F> for PlainAccumulation<K_PIPE_MMAS> {
    type Args = ();
    const K_PIPE_MMAS: u32 = K_PIPE_MMAS;
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
    unsafe fn prefetch(&mut self, _: i32, _: usize) {}
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
/// them. For 128 × 128 tiles (a 64 × 128 fragment: 64 main + 64 temporary registers, + 64 with
/// `PAIRED`; with 64 × 256, ptxas spilled 80 bytes without block scales, 172 with them).
///
/// The consumers' schedule: `PAIRED`, k-tiles in pairs into `temp` and `temp_b`, the first
/// promoted while the second's `wgmma`s run (FlashAttention 3's intra-warpgroup overlap);
/// `TURNS`, the two consumer warpgroups take turns issuing ([`ConsumerOrder`]). The block
/// scales are loaded a k-tile (a pair) ahead of their promotion.
///
/// `BLOCK` false: per-tensor scales only (the launch's block scales are ignored): no scale loads
/// or queue in the k-tile loop (a measuring variant; each k-tile's promotion is `main += temp`).
///
/// `V`: a consumer's fragment, `m64n(2V)`: 64 (128-wide tiles) by default; 80 and 96 for the
/// 160- and 192-wide tiles (per-tensor scales only, `BLOCK` false: such a tile straddles B's
/// 128-column scale blocks).
///
/// `OFFSET`: consumer warpgroup 1's promotion windows shifted by half a k-tile
/// ([`MmaAccumulation::OFFSET`], `CollectiveMma::mma_offset`; per-tensor, one temporary).
pub struct GmmaFp8Accumulation<
    const PAIRED: bool,
    const TURNS: bool,
    const BLOCK: bool = true,
    const V: usize = 64,
    const OFFSET: bool = false,
> {
    /// The `m64n(2V)` temporary (CuTe's `CLayout_64xN` fragment, as the main accumulator).
    pub temp: [f32; V],
    /// The paired schedule's second temporary.
    pub temp_b: [f32; V],
    scales: Fp8BlockScales,
    /// This thread's two rows of C (clamped into A) and the tile's N-block.
    rows: [i32; 2],
    nb: i32,
    k_tiles: i32,
    /// The queued k-tiles' scales, the next promotion's first: A's two rows', B's N-block's.
    queue: [[f32; 3]; 3],
}

/// Paired k-tiles, the consumers taking turns (measured 6–8 % slower than paired alone on the
/// H200, doc/fp8-gemm.md; the hgemm entries use `GmmaFp8Accumulation<true, false>`).
pub type GmmaFp8AccumulationPaired = GmmaFp8Accumulation<true, true>;

/// The thread part of `CLayout_64xN`'s row: thread `t = (t0, t1, t2)` of `(4, 8, 4)` holds rows
/// `t1 + 16·t2` and `+ 8` of the warpgroup's 64.
#[inline(always)]
fn acc_row_thr() -> Layout<(_4, _8, _4), (_0, _1, _16)> {
    Layout::default()
}
/// Which of a thread's two rows value `v = 4·j + q` of an `m64nN` fragment is in, by `q`
/// (`(2, 2)`: column pair, row half; the 8-column block `j` does not change the row).
#[inline(always)]
fn acc_row_half() -> Layout<(_2, _2), (_0, _1)> {
    Layout::default()
}

impl<const PAIRED: bool, const TURNS: bool, const BLOCK: bool, const V: usize, const OFFSET: bool>
    GmmaFp8Accumulation<PAIRED, TURNS, BLOCK, V, OFFSET>
{
    /// `main += scale[row half]·temp`, the scale the product of the queue's first row's and
    /// N-block's; the queue moves on.
    #[inline(always)]
    fn promote_from(main: &mut [f32; V], temp: &[f32; V], queue: &mut [[f32; 3]; 3]) {
        Self::promote_scaled(main, temp, queue[0]);
        *queue = [queue[1], queue[2], queue[2]];
    }
    /// `main += scale[row half]·temp`, the scale the product of the thread's row's
    /// (`s_a0`, `s_a1`: its two rows) and the N-block's (`s_b`).
    #[inline(always)]
    fn promote_scaled(main: &mut [f32; V], temp: &[f32; V], [s_a0, s_a1, s_b]: [f32; 3]) {
        let scale = [s_a0 * s_b, s_a1 * s_b];
        device::unroll!(
            V / 4,
            #[inline(always)]
            |j| device::unroll!(
                4,
                #[inline(always)]
                |q| {
                    let v = 4 * j + q;
                    let s = scale[acc_row_half().crd2idx(q as i32) as usize];
                    main[v] = device::math::fma(temp[v], s, main[v]);
                }
            )
        );
    }
    /// K-tile `kt`'s (clamped into the tile) block scales of this thread's rows and the tile's
    /// N-block from global memory: `[s_a0, s_a1, s_b]`.
    ///
    /// # Safety
    /// `self.scales` describe valid memory (non-null).
    #[inline(always)]
    unsafe fn load_scales(&self, kt: i32) -> [f32; 3] {
        let sc = &self.scales;
        let k_tiles = self.k_tiles;
        let (la, lb) = scale_layouts(sc.mn, k_tiles);
        let sa = make_tensor(make_gmem_ptr(sc.a as *mut f32), la);
        let sb = make_tensor(make_gmem_ptr(sc.b as *mut f32), lb);
        let kt = kt.min(k_tiles - 1);
        // SAFETY: inside the scale tensors (clamped coordinates; the caller's shapes)
        unsafe {
            [
                sa.read((self.rows[0], kt)),
                sa.read((self.rows[1], kt)),
                sb.read((self.nb, kt)),
            ]
        }
    }
}

impl<const PAIRED: bool, const TURNS: bool, const BLOCK: bool, const V: usize, const OFFSET: bool>
    AccumulationStage for GmmaFp8Accumulation<PAIRED, TURNS, BLOCK, V, OFFSET>
{
    type Stage = ();
}

impl<const PAIRED: bool, const TURNS: bool, const BLOCK: bool, const V: usize, const OFFSET: bool>
    MmaAccumulation<[f32; V]> for GmmaFp8Accumulation<PAIRED, TURNS, BLOCK, V, OFFSET>
{
    type Args = Fp8BlockScales;
    const K_PIPE_MMAS: u32 = 0;
    const FIXUP_ORDER: FixupOrder = FixupOrder::PairsSwapped;
    const TURNS: bool = TURNS;
    const PAIRED: bool = PAIRED;
    const OFFSET: bool = OFFSET;
    #[inline(always)]
    fn new(scales: &Fp8BlockScales, (_, t): (i32, i32), (m0, n0): (i32, i32), k: i32) -> Self {
        const {
            assert!(
                V == 64 || !BLOCK,
                "GmmaFp8Accumulation: block scales with 128-wide tiles only (V = 64)"
            );
            assert!(
                !OFFSET || !(BLOCK || PAIRED || TURNS),
                "GmmaFp8Accumulation: offset windows with per-tensor scales, one temporary, no turns"
            )
        };
        let (m, n) = scales.mn;
        // this thread's rows (clamped into A: rows past M are zeros, any scale will do) and the
        // tile's N-block (the (128, NB) split of N)
        let r = m0 + acc_row_thr().crd2idx(t);
        let (_, nb): (i32, i32) = make_layout_left((_128, n.ceil_div(128))).idx2crd(n0);
        GmmaFp8Accumulation {
            // SAFETY: all-zero bits are 0.0 (never read before a scale-d 0 wgmma writes them)
            temp: unsafe { core::mem::zeroed() },
            temp_b: unsafe { core::mem::zeroed() },
            scales: *scales,
            rows: [r.min(m - 1), (r + 8).min(m - 1)],
            nb,
            k_tiles: k,
            queue: [[1.0; 3]; 3],
        }
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, _: &'s mut [f32; V]) -> &'s mut [f32; V] {
        &mut self.temp
    }
    #[inline(always)]
    fn frag_b<'s>(&'s mut self, _: &'s mut [f32; V]) -> &'s mut [f32; V] {
        &mut self.temp_b
    }
    #[inline(always)]
    fn k_tile_scale(_: ScaleOut) -> ScaleOut {
        ScaleOut::Zero
    }
    /// Loads k-tile `kt`'s block scales of this thread's two rows and the tile's N-block into
    /// the queue (nothing without block scales: the queue stays 1).
    #[inline(always)]
    unsafe fn prefetch(&mut self, kt: i32, slot: usize) {
        if !BLOCK || self.scales.a.is_null() {
            return;
        }
        // SAFETY: the scales are the caller's (non-null)
        self.queue[slot] = unsafe { self.load_scales(kt) };
    }
    #[inline(always)]
    fn promote(&mut self, main: &mut [f32; V]) {
        Self::promote_from(main, &self.temp, &mut self.queue)
    }
    #[inline(always)]
    fn promote_b(&mut self, main: &mut [f32; V]) {
        Self::promote_from(main, &self.temp_b, &mut self.queue)
    }
}

/// The block scales' tensor maps of [`GmmaFp8AccumulationStaged`] (DeepGEMM's layout, as
/// [`Fp8BlockScales`], each seen by TMA as one 1-D tensor of `f32`): A's `(M, ⌈K/128⌉)`
/// column-major (a stage's 128 rows of one k-block are contiguous: one box of 128; `M` a
/// multiple of 4, as a box must start 16-byte aligned), B's `(⌈N/128⌉, ⌈K/128⌉)` row-major
/// (the aligned box of 4 holding the tile's `(nb, kb)`: 16 bytes, TMA's least).
#[derive(Clone, Copy)]
pub struct Fp8StagedScales {
    /// A's scales' tensor map (1-D, box 128).
    pub a: *const TmaDescriptor,
    /// B's (1-D, box 4).
    pub b: *const TmaDescriptor,
    /// B's scales in global memory ([`Fp8BlockScales::b`]'s layout; read by
    /// [`GmmaFp8AccumulationStaged`]'s consumers, a k-tile or a pair ahead).
    pub b_global: *const f32,
    /// C's `(M, N)` (the scale tensors' shapes with `k_tiles`).
    pub mn: (i32, i32),
}

/// A stage's block scales in shared memory: A's 128 rows of the CTA tile and B's box.
pub type Fp8ScaleStage = SmemScales<128, 4>;
/// A 64-row tile's stage of block scales (the ping-pong schedule's `_staged_pp64`): A's 64 rows,
/// no B box (its paired consumers read B's scales from global memory), so that the tile keeps
/// the per-tensor entry's 8 stages beside the epilogue's buffers.
pub type Fp8ScaleStage64 = SmemScales<64, 0>;
/// The TMA atom of A's scales: 128 `f32` of one k-block (CuTe's `SM90_TMA_LOAD`).
type ScaleAtomA = TmaAtom<TmaLoad, f32, BoxLayout<ScaleBoxA<_128>>>;

/// What a stage of [`GmmaFp8AccumulationStaged`] holds: A's box of the CTA tile's rows of one
/// k-block (`BoxA`, from the tile's first row) and, where [`B_BOX`](Self::B_BOX), B's box of 4.
///
/// ```
/// use collective::mainloop::{Fp8ScaleStage, Fp8ScaleStage64, Fp8StageScales};
/// assert!(<Fp8ScaleStage as Fp8StageScales>::B_BOX && !<Fp8ScaleStage64 as Fp8StageScales>::B_BOX);
/// assert_eq!(core::mem::size_of::<Fp8ScaleStage64>(), 256); // 8 stages: 2 KiB
/// ```
pub trait Fp8StageScales {
    /// A's box in shared memory: the tile's rows, contiguous ([`ScaleBoxA`]).
    type BoxA: TmaBox;
    /// Whether the stage holds B's box (a consumer with one temporary reads B's scale there).
    const B_BOX: bool;
    /// A's scales in the stage at `this`.
    ///
    /// # Safety
    /// `this` points to a stage (no reference is taken).
    unsafe fn a(this: *mut Self) -> *mut f32;
    /// B's box in the stage at `this` (empty where not [`B_BOX`](Self::B_BOX)).
    ///
    /// # Safety
    /// As [`a`](Self::a).
    unsafe fn b(this: *mut Self) -> *mut f32;
}

macro_rules! fp8_stage_scales {
    ($($rows:ty, $a:literal, $b:literal;)+) => {$(
        impl Fp8StageScales for SmemScales<$a, $b> {
            type BoxA = ScaleBoxA<$rows>;
            const B_BOX: bool = $b != 0;
            #[inline(always)]
            unsafe fn a(this: *mut Self) -> *mut f32 {
                // SAFETY: a field's address, no reference taken (the caller's stage)
                unsafe { (&raw mut (*this).a) as *mut f32 }
            }
            #[inline(always)]
            unsafe fn b(this: *mut Self) -> *mut f32 {
                // SAFETY: as `a`
                unsafe { (&raw mut (*this).b) as *mut f32 }
            }
        }
    )+};
}
fp8_stage_scales! {
    _128, 128, 4;
    _64, 64, 0;
}
/// B's: a box of 4 `f32` from the tile's block scale.
type ScaleAtomB = TmaAtom<TmaLoad, f32, BoxLayout<ScaleBoxB>>;

/// [`GmmaFp8Accumulation`] with block scales (128 × 128 tiles) that come **with each stage**
/// through shared memory (DeepGEMM's `sm90_fp8_gemm_1d2d`; CUTLASS's blockwise-scaled
/// mainloop): the producer loads the stage's 128 row scales of A and B's block scale by TMA
/// beside A's and B's k-tiles, counted in the stage's transaction bytes
/// ([`AccumulationStage::STAGE_TX_BYTES`]); a consumer reads its two rows' scales and B's
/// after the stage's full barrier, before releasing it. No global loads or scale queue in
/// the k-tile loop; the promotion is [`GmmaFp8Accumulation`]'s. `PAIRED` as there.
///
/// The stage `S` ([`Fp8StageScales`]) holds A's box of row scales from the CTA tile's first
/// row: a consumer's rows are those of its 64-row block (the cooperative schedule's warpgroup
/// `wg`: `64·wg..` of [`Fp8ScaleStage`]'s 128; the ping-pong schedule's 64-row tiles: the first
/// 64, all of [`Fp8ScaleStage64`]'s). With one temporary the stage holds B's box too; paired,
/// B's scales come from global memory, a pair ahead (`prefetch`).
pub struct GmmaFp8AccumulationStaged<const PAIRED: bool, S = Fp8ScaleStage> {
    acc: GmmaFp8Accumulation<PAIRED, false, true, 64>,
    /// This thread's two rows in the stage's box (clamping is the TMA box's: rows past M read
    /// other k-blocks' scales or zeros, A's rows there are zeros).
    rows: [i32; 2],
    /// B's scale `(nb, 0)` of the tile's N-block in the 1-D tensor (k-tile `kt`'s is `+ kt`).
    b0: i32,
    /// B's scales (global) and the queue of the next k-tiles' (as the promotions' queue).
    b_global: *const f32,
    k_tiles: i32,
    bq: [f32; 3],
    _stage: PhantomData<S>,
}

/// The block scales' layouts for C's `(m, n)` and `k_tiles` k-blocks (DeepGEMM's, as
/// [`Fp8BlockScales`] documents them): A's `(M, KB):(1, M)` (a k-block's row scales contiguous)
/// and B's `(⌈N/128⌉, KB):(KB, 1)`.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn scale_layouts(
    (m, n): (i32, i32),
    k_tiles: i32,
) -> (Layout<(i32, i32), (_1, i32)>, Layout<(i32, i32), (i32, _1)>) {
    (
        make_layout((m, k_tiles), (_1, m)),
        make_layout((n.ceil_div(128), k_tiles), (k_tiles, _1)),
    )
}

/// B's scales' 1-D tensor split into TMA's aligned boxes of 4: `(position in the box, box)`.
#[inline(always)]
fn scale_b_boxes(len: i32) -> Layout<(_4, i32), (_1, _4)> {
    make_layout_left((_4, len.ceil_div(4)))
}

impl<const PAIRED: bool, S: Fp8StageScales> AccumulationStage
    for GmmaFp8AccumulationStaged<PAIRED, S>
{
    type Stage = S;
    /// A's box, and B's unless `PAIRED` (whose consumers read B's scales from global memory, a
    /// pair ahead: a 16-byte box with every stage cost the small-M entry 10 %, doc/fp8-gemm.md
    /// session 36; the one-temporary schedule's load would be one k-tile ahead, too close).
    const STAGE_TX_BYTES: u32 = {
        assert!(
            PAIRED || S::B_BOX,
            "GmmaFp8AccumulationStaged: one temporary reads B's scale from the stage (a stage with B's box, Fp8StageScales::B_BOX)"
        );
        TmaAtom::<TmaLoad, f32, BoxLayout<S::BoxA>>::TX_BYTES
            + if PAIRED { 0 } else { ScaleAtomB::TX_BYTES }
    };
}

impl<const PAIRED: bool, S: Fp8StageScales> MmaAccumulation<[f32; 64]>
    for GmmaFp8AccumulationStaged<PAIRED, S>
{
    type Args = Fp8StagedScales;
    const K_PIPE_MMAS: u32 = 0;
    const FIXUP_ORDER: FixupOrder = FixupOrder::PairsSwapped;
    const PAIRED: bool = PAIRED;
    #[inline(always)]
    fn new(s: &Fp8StagedScales, (block, t): (i32, i32), origin: (i32, i32), k: i32) -> Self {
        // the inner accumulation without global scales (its queue is filled from the stages)
        let none = Fp8BlockScales {
            a: core::ptr::null(),
            b: core::ptr::null(),
            mn: s.mn,
        };
        // this thread's rows of the stage's 128: (row in the 64-row block, block)
        let r = make_layout_left((_64, _2)).crd2idx((acc_row_thr().crd2idx(t), block));
        let (_, nb): (i32, i32) = make_layout_left((_128, s.mn.1.ceil_div(128))).idx2crd(origin.1);
        GmmaFp8AccumulationStaged {
            acc: GmmaFp8Accumulation::new(&none, (block, t), origin, k),
            rows: [r, r + 8],
            b0: scale_layouts(s.mn, k).1.crd2idx((nb, 0i32)).value() as i32,
            b_global: s.b_global,
            k_tiles: k,
            bq: [1.0; 3],
            _stage: PhantomData,
        }
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, main: &'s mut [f32; 64]) -> &'s mut [f32; 64] {
        self.acc.frag(main)
    }
    #[inline(always)]
    fn frag_b<'s>(&'s mut self, main: &'s mut [f32; 64]) -> &'s mut [f32; 64] {
        self.acc.frag_b(main)
    }
    #[inline(always)]
    fn k_tile_scale(prev: ScaleOut) -> ScaleOut {
        <GmmaFp8Accumulation<PAIRED, false, true, 64> as MmaAccumulation<[f32; 64]>>::k_tile_scale(
            prev,
        )
    }
    /// `PAIRED`: B's scale of k-tile `kt` (clamped into the tile) from global memory into the
    /// queue.
    #[inline(always)]
    unsafe fn prefetch(&mut self, kt: i32, slot: usize) {
        if !PAIRED {
            return;
        }
        let kt = kt.min(self.k_tiles - 1);
        // SAFETY: inside B's scales ((nb, kt) of the caller's shapes)
        self.bq[slot] = unsafe { *self.b_global.add((self.b0 + kt) as usize) };
    }
    #[inline(always)]
    fn promote(&mut self, main: &mut [f32; 64]) {
        self.acc.promote(main);
        self.bq = [self.bq[1], self.bq[2], self.bq[2]];
    }
    #[inline(always)]
    fn promote_b(&mut self, main: &mut [f32; 64]) {
        self.acc.promote_b(main);
        self.bq = [self.bq[1], self.bq[2], self.bq[2]];
    }
    #[inline(always)]
    unsafe fn load_stage(
        s: &Fp8StagedScales,
        bar: *mut u64,
        stage: *mut S,
        (m0, n0): (i32, i32),
        kt: i32,
        k_tiles: i32,
    ) {
        let nbs = s.mn.1.ceil_div(128);
        // the scale tensors as the maps see them (1-D)
        let (sa, sb) = scale_layouts(s.mn, k_tiles);
        let (_, nb): (i32, i32) = make_layout_left((_128, nbs)).idx2crd(n0);
        // B's box (one temporary): the aligned 4 holding (nb, kt) (a box starts 16-byte aligned)
        let boxes = scale_b_boxes(nbs * k_tiles);
        let (_, b_box): (i32, i32) = boxes.idx2crd(sb.crd2idx((nb, kt)).value() as i32);
        unsafe {
            TmaAtom::<TmaLoad, f32, BoxLayout<S::BoxA>>::new(s.a).copy(
                bar,
                S::a(stage),
                [sa.crd2idx((m0, kt)).value() as i32],
            );
            if !PAIRED {
                ScaleAtomB::new(s.b).copy(
                    bar,
                    S::b(stage),
                    [boxes.crd2idx((0i32, b_box)).value() as i32],
                );
            }
        }
    }
    #[inline(always)]
    unsafe fn read_stage(&mut self, stage: *const S, slot: usize, kt: i32) {
        // B's scale's position in its box of 4 (the box's length is immaterial here)
        let (j, _): (i32, i32) = scale_b_boxes(i32::MAX).idx2crd(self.b0 + kt);
        // SAFETY: the stage's scales landed (its full barrier passed); rows within A's box (a
        // consumer's rows are its 64-row block's), j < 4 (read only with B's box)
        unsafe {
            let a = S::a(stage as *mut S) as *const f32;
            let b = S::b(stage as *mut S) as *const f32;
            let s_b = if PAIRED {
                self.bq[slot]
            } else {
                *b.add(j as usize)
            };
            self.acc.queue[slot] = [
                *a.add(self.rows[0] as usize),
                *a.add(self.rows[1] as usize),
                s_b,
            ];
        }
    }
}

/// The quad schedule's promotion ([`GmmaFp8AccumulationQuad`]'s paired temporaries of a 64 ×
/// 128 warpgroup tile, with block scales), which a [`QuadScales`] makes with itself.
pub type QuadPromotion = GmmaFp8Accumulation<true, false, true, 64>;

/// Where [`GmmaFp8AccumulationQuad`]'s block scales come from: k-tile `kt`'s `[s_a0, s_a1,
/// s_b]` (the thread's two rows', the tile's N-block's) into a queue slot, from global memory
/// ([`GlobalScales`]) or A's from the stage ([`StagedScales64`]).
pub trait QuadScales: Sized {
    /// The run-time arguments.
    type Args: Copy;
    /// What rides with each pipeline stage ([`AccumulationStage::Stage`]).
    type Stage;
    /// Its bytes ([`AccumulationStage::STAGE_TX_BYTES`]).
    const STAGE_TX_BYTES: u32;
    /// The k-tiles one stage brings the scales of ([`MmaAccumulation::K_GROUP`]).
    const K_GROUP: i32 = 1;
    /// The source and the promotion's temporaries (with the thread's rows and the tile's
    /// N-block) of one tile, as [`MmaAccumulation::new`].
    fn new(args: &Self::Args, thr: (i32, i32), origin: (i32, i32), k: i32)
    -> (Self, QuadPromotion);
    /// The scales of k-tile `kt` (clamped into the tile) that come from global memory, into
    /// `slots[slot]`.
    ///
    /// # Safety
    /// As [`MmaAccumulation::prefetch`].
    unsafe fn prefetch(
        &mut self,
        acc: &QuadPromotion,
        slots: &mut [[f32; 3]; 4],
        kt: i32,
        slot: usize,
    );
    /// The producer's loads of a stage ([`MmaAccumulation::load_stage`]).
    ///
    /// # Safety
    /// As [`MmaAccumulation::load_stage`].
    unsafe fn load_stage(
        args: &Self::Args,
        bar: *mut u64,
        stage: *mut Self::Stage,
        mn0: (i32, i32),
        kt: i32,
        k_tiles: i32,
    );
    /// The scales of a waited stage into `slots[slot]` ([`MmaAccumulation::read_stage`]).
    ///
    /// # Safety
    /// As [`MmaAccumulation::read_stage`].
    unsafe fn read_stage(
        &mut self,
        stage: *const Self::Stage,
        slots: &mut [[f32; 3]; 4],
        slot: usize,
    );
}

/// [`QuadScales`] from global memory: A's rows and B's N-block of each k-tile
/// ([`Fp8BlockScales`], [`GmmaFp8Accumulation`]'s loads); nothing with the stages.
pub struct GlobalScales;

impl QuadScales for GlobalScales {
    type Args = Fp8BlockScales;
    type Stage = ();
    const STAGE_TX_BYTES: u32 = 0;
    #[inline(always)]
    fn new(
        args: &Fp8BlockScales,
        thr: (i32, i32),
        origin: (i32, i32),
        k: i32,
    ) -> (Self, QuadPromotion) {
        (GlobalScales, GmmaFp8Accumulation::new(args, thr, origin, k))
    }
    /// Nothing without block scales (the slots stay 1).
    #[inline(always)]
    unsafe fn prefetch(
        &mut self,
        acc: &QuadPromotion,
        slots: &mut [[f32; 3]; 4],
        kt: i32,
        slot: usize,
    ) {
        if acc.scales.a.is_null() {
            return;
        }
        // SAFETY: the scales are the caller's (non-null)
        slots[slot] = unsafe { acc.load_scales(kt) };
    }
    #[inline(always)]
    unsafe fn load_stage(
        _: &Fp8BlockScales,
        _: *mut u64,
        _: *mut (),
        _: (i32, i32),
        _: i32,
        _: i32,
    ) {
    }
    #[inline(always)]
    unsafe fn read_stage(&mut self, _: *const (), _: &mut [[f32; 3]; 4], _: usize) {}
}

/// [`QuadScales`] of the 64-row ping-pong tile with A's 64 row scales in each stage
/// ([`Fp8ScaleStage64`], [`GmmaFp8AccumulationStaged`]'s box) and B's from global memory by
/// slot (the paired 3-deep queue's move of a fresh B scale waited for its load: 4.6 % of the
/// entry's warp samples, doc/fp8-gemm.md session 38).
pub struct StagedScales64 {
    /// This thread's two rows in the stage's box.
    rows: [i32; 2],
    /// B's scale `(nb, 0)` of the tile's N-block in the 1-D tensor, B's scales, the k-tiles.
    b0: i32,
    b_global: *const f32,
    k_tiles: i32,
    /// B's scales by slot.
    b: [f32; 4],
}

impl QuadScales for StagedScales64 {
    type Args = Fp8StagedScales;
    type Stage = Fp8ScaleStage64;
    const STAGE_TX_BYTES: u32 =
        <GmmaFp8AccumulationStaged<true, Fp8ScaleStage64> as AccumulationStage>::STAGE_TX_BYTES;
    #[inline(always)]
    fn new(
        s: &Fp8StagedScales,
        thr: (i32, i32),
        origin: (i32, i32),
        k: i32,
    ) -> (Self, QuadPromotion) {
        // the staged accumulation's rows, B's scales and temporaries (its queues unused)
        let GmmaFp8AccumulationStaged {
            acc,
            rows,
            b0,
            b_global,
            k_tiles,
            ..
        } = GmmaFp8AccumulationStaged::<true, Fp8ScaleStage64>::new(s, thr, origin, k);
        let src = StagedScales64 {
            rows,
            b0,
            b_global,
            k_tiles,
            b: [1.0; 4],
        };
        (src, acc)
    }
    /// B's scale (the stage holds A's).
    #[inline(always)]
    unsafe fn prefetch(&mut self, _: &QuadPromotion, _: &mut [[f32; 3]; 4], kt: i32, slot: usize) {
        let kt = kt.min(self.k_tiles - 1);
        // SAFETY: inside B's scales ((nb, kt) of the caller's shapes)
        self.b[slot] = unsafe { *self.b_global.add((self.b0 + kt) as usize) };
    }
    #[inline(always)]
    unsafe fn load_stage(
        s: &Fp8StagedScales,
        bar: *mut u64,
        stage: *mut Fp8ScaleStage64,
        mn0: (i32, i32),
        kt: i32,
        k_tiles: i32,
    ) {
        unsafe {
            <GmmaFp8AccumulationStaged<true, Fp8ScaleStage64> as MmaAccumulation<[f32; 64]>>::load_stage(
                s, bar, stage, mn0, kt, k_tiles,
            )
        }
    }
    #[inline(always)]
    unsafe fn read_stage(
        &mut self,
        stage: *const Fp8ScaleStage64,
        slots: &mut [[f32; 3]; 4],
        slot: usize,
    ) {
        let rows = self.rows;
        // SAFETY: the stage's scales landed (its full barrier passed); rows within A's box
        unsafe {
            let a = Fp8ScaleStage64::a(stage as *mut Fp8ScaleStage64) as *const f32;
            slots[slot] = [
                *a.add(rows[0] as usize),
                *a.add(rows[1] as usize),
                self.b[slot],
            ];
        }
    }
}

/// [`QuadScales`] of the 64-row ping-pong tile with A's row scales of four k-tiles in one TMA
/// box ([`ScaleBoxA4`], 1 KiB) that rides with the stage of the first of them, B's from global
/// memory by slot as [`StagedScales64`]'s: a box with one stage in four instead of a 256-byte
/// box with every stage (each stage's full barrier waits for its boxes: at small M the boxes
/// are what the stages wait for, doc/fp8-gemm.md sessions 36–38).
///
/// The four k-tiles' box lands in the [`Fp8ScaleStage64`]s of the four stages from the first
/// one's — k-tile `kt + j`'s rows in stage `i + j`'s — and is read whole, into registers, by
/// the consumer of the first (queue slot 0) before it releases that stage: the producer
/// writes a box only after acquiring its first stage, so the box it overwrites (loaded
/// `STAGES` stages before) has been read. That needs every tile's k-tiles in whole fours
/// from a stage `i ≡ 0 (mod 4)`: `K_GROUP` 4 with K a multiple of 4 k-tiles (the host's
/// check), `STAGES` a multiple of 4 and whole k-ranges (the data-parallel scheduler): the
/// last two compile-time checks ([`Composes`](crate::kernel::Composes)).
///
/// ```
/// use collective::mainloop::*;
/// assert_eq!(<GmmaFp8AccumulationStagedQuad4 as AccumulationStage>::STAGE_TX_BYTES, 0);
/// assert_eq!(StagedScales64x4::BOX_TX_BYTES, 1024);
/// ```
pub struct StagedScales64x4 {
    /// B's and the rows as [`StagedScales64`]'s.
    inner: StagedScales64,
    /// The four k-tiles' scales of the thread's two rows, by slot (read at slot 0).
    a: [[f32; 2]; 4],
}

/// The TMA atom of [`StagedScales64x4`]'s box.
type ScaleAtomA4 = TmaAtom<TmaLoad, f32, BoxLayout<ScaleBoxA4<_64>>>;

impl StagedScales64x4 {
    /// The bytes of a box of four k-tiles' row scales, announced on its stage's full barrier
    /// beside the stage's tiles.
    pub const BOX_TX_BYTES: u32 = ScaleAtomA4::TX_BYTES;
}

impl QuadScales for StagedScales64x4 {
    type Args = Fp8StagedScales;
    type Stage = Fp8ScaleStage64;
    /// None every stage: [`BOX_TX_BYTES`](StagedScales64x4::BOX_TX_BYTES) with one in four.
    const STAGE_TX_BYTES: u32 = 0;
    /// The box's k-blocks ([`SCALE_BOX_A4_K_BLOCKS`]).
    const K_GROUP: i32 = SCALE_BOX_A4_K_BLOCKS as i32;
    #[inline(always)]
    fn new(
        s: &Fp8StagedScales,
        thr: (i32, i32),
        origin: (i32, i32),
        k: i32,
    ) -> (Self, QuadPromotion) {
        let (inner, acc) = <StagedScales64 as QuadScales>::new(s, thr, origin, k);
        (
            StagedScales64x4 {
                inner,
                a: [[1.0; 2]; 4],
            },
            acc,
        )
    }
    /// B's scale ([`StagedScales64`]'s).
    #[inline(always)]
    unsafe fn prefetch(
        &mut self,
        acc: &QuadPromotion,
        slots: &mut [[f32; 3]; 4],
        kt: i32,
        slot: usize,
    ) {
        unsafe { self.inner.prefetch(acc, slots, kt, slot) }
    }
    /// With the first of four k-tiles: the box of their row scales, from the tile's first row
    /// and k-block `kt`, onto the stage's full barrier (its bytes announced first: the
    /// stage's own loads, issued after, keep the barrier's phase open until then).
    #[inline(always)]
    unsafe fn load_stage(
        s: &Fp8StagedScales,
        bar: *mut u64,
        stage: *mut Fp8ScaleStage64,
        (m0, _): (i32, i32),
        kt: i32,
        k_tiles: i32,
    ) {
        // the box's first k-tile: kt's place in the (4, ⌈k_tiles / 4⌉) split of the k-tiles
        let (j, _): (i32, i32) = make_layout_left((_4, k_tiles.ceil_div(4))).idx2crd(kt);
        if j != 0 {
            return;
        }
        unsafe {
            device::mbarrier::mbarrier_expect_tx(bar, Self::BOX_TX_BYTES);
            ScaleAtomA4::new(s.a).copy(bar, Fp8ScaleStage64::a(stage), [m0, kt]);
        }
    }
    #[inline(always)]
    unsafe fn read_stage(
        &mut self,
        stage: *const Fp8ScaleStage64,
        slots: &mut [[f32; 3]; 4],
        slot: usize,
    ) {
        const {
            assert!(
                core::mem::size_of::<Fp8ScaleStage64>() * 4 == ScaleAtomA4::TX_BYTES as usize,
                "StagedScales64x4: a box of four k-tiles fills four stages' scales"
            )
        };
        let rows = self.inner.rows;
        if slot == 0 {
            // SAFETY: the box landed with this stage (its full barrier passed) in its and the
            // next three stages' scales (the stage index ≡ 0 mod 4); rows within a 64-row box
            unsafe {
                let box_a: BoxLayout<ScaleBoxA4<_64>> = Layout::default();
                let a = Fp8ScaleStage64::a(stage as *mut Fp8ScaleStage64) as *const f32;
                device::unroll!(4, |j| {
                    self.a[j] = [
                        *a.add(box_a.crd2idx((rows[0], j as i32)).value() as usize),
                        *a.add(box_a.crd2idx((rows[1], j as i32)).value() as usize),
                    ];
                });
            }
        }
        slots[slot] = [self.a[slot][0], self.a[slot][1], self.inner.b[slot]];
    }
}

/// [`GmmaFp8AccumulationQuad`] with A's scales in boxes of four k-tiles
/// ([`StagedScales64x4`]).
pub type GmmaFp8AccumulationStagedQuad4 = GmmaFp8AccumulationQuad<StagedScales64x4>;

/// FP8 promotion with block scales on the quad schedule ([`MmaAccumulation::QUAD`]): paired
/// temporaries, each k-tile's scales loaded four k-tiles ahead into a queue slot of its own
/// (`kt` mod 4) from `S` ([`QuadScales`]) and promoted from there, so no queued value moves —
/// the paired schedule's 3-deep queue moves each freshly loaded scale on at the next
/// promotion, and the move waits for the load (ncu, doc/fp8-gemm.md session 38). 64 × 128
/// warpgroup tiles (`V` 64).
///
/// ```
/// use collective::mainloop::*;
/// // global scales ride with no stage; the staged source brings A's 64 row scales (256 bytes)
/// assert_eq!(<GmmaFp8AccumulationQuad as AccumulationStage>::STAGE_TX_BYTES, 0);
/// assert_eq!(<GmmaFp8AccumulationStagedQuad as AccumulationStage>::STAGE_TX_BYTES, 256);
/// assert!(<GmmaFp8AccumulationQuad as MmaAccumulation<[f32; 64]>>::QUAD);
/// ```
pub struct GmmaFp8AccumulationQuad<S = GlobalScales> {
    acc: QuadPromotion,
    src: S,
    /// The four k-tiles' scales, `[s_a0, s_a1, s_b]` each, by `kt` mod 4.
    slots: [[f32; 3]; 4],
}

/// [`GmmaFp8AccumulationQuad`] with A's scales through the stages ([`StagedScales64`]).
pub type GmmaFp8AccumulationStagedQuad = GmmaFp8AccumulationQuad<StagedScales64>;

impl<S: QuadScales> AccumulationStage for GmmaFp8AccumulationQuad<S> {
    type Stage = S::Stage;
    const STAGE_TX_BYTES: u32 = S::STAGE_TX_BYTES;
}

impl<S: QuadScales> MmaAccumulation<[f32; 64]> for GmmaFp8AccumulationQuad<S> {
    type Args = S::Args;
    const K_PIPE_MMAS: u32 = 0;
    const FIXUP_ORDER: FixupOrder = FixupOrder::PairsSwapped;
    const PAIRED: bool = true;
    const QUAD: bool = true;
    const K_GROUP: i32 = S::K_GROUP;
    #[inline(always)]
    fn new(args: &S::Args, thr: (i32, i32), origin: (i32, i32), k: i32) -> Self {
        let (src, acc) = S::new(args, thr, origin, k);
        GmmaFp8AccumulationQuad {
            acc,
            src,
            slots: [[1.0; 3]; 4],
        }
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, main: &'s mut [f32; 64]) -> &'s mut [f32; 64] {
        self.acc.frag(main)
    }
    #[inline(always)]
    fn frag_b<'s>(&'s mut self, main: &'s mut [f32; 64]) -> &'s mut [f32; 64] {
        self.acc.frag_b(main)
    }
    #[inline(always)]
    fn k_tile_scale(_: ScaleOut) -> ScaleOut {
        ScaleOut::Zero
    }
    #[inline(always)]
    unsafe fn prefetch(&mut self, kt: i32, slot: usize) {
        unsafe { self.src.prefetch(&self.acc, &mut self.slots, kt, slot) };
    }
    #[inline(always)]
    fn promote(&mut self, main: &mut [f32; 64]) {
        self.promote_slot(main, false, 0)
    }
    #[inline(always)]
    fn promote_b(&mut self, main: &mut [f32; 64]) {
        self.promote_slot(main, true, 1)
    }
    #[inline(always)]
    fn promote_slot(&mut self, main: &mut [f32; 64], b: bool, slot: usize) {
        // (one call a temporary: a reference chosen between the two kept them in local memory)
        let scales = self.slots[slot];
        if b {
            QuadPromotion::promote_scaled(main, &self.acc.temp_b, scales)
        } else {
            QuadPromotion::promote_scaled(main, &self.acc.temp, scales)
        }
    }
    #[inline(always)]
    unsafe fn load_stage(
        args: &S::Args,
        bar: *mut u64,
        stage: *mut S::Stage,
        mn0: (i32, i32),
        kt: i32,
        k_tiles: i32,
    ) {
        unsafe { S::load_stage(args, bar, stage, mn0, kt, k_tiles) }
    }
    #[inline(always)]
    unsafe fn read_stage(&mut self, stage: *const S::Stage, slot: usize, _kt: i32) {
        unsafe { self.src.read_stage(stage, &mut self.slots, slot) };
    }
}

/// A stage's block scales for tiles that straddle two of B's 128-column N-blocks
/// ([`GmmaFp8AccumulationStagedWide`]): A's 128 row scales, then B's two boxes of 4
/// (`scale_b_stage`: 128 bytes apart, each a TMA destination at a 128-byte boundary).
pub type Fp8ScaleStageWide = SmemScales<128, 36>;

/// B's scales in a [`Fp8ScaleStageWide`]: `(position in a box of 4, the tile's N-block 0 or 1)`
/// → the element of its `b` (the second box 32 `f32`, 128 bytes, after the first).
#[inline(always)]
fn scale_b_stage() -> Layout<(_4, _2), (_1, _32)> {
    Layout::default()
}

/// The 64-column chunk of value `v = 4·j + q` of an `m64nN` fragment: `(q, j in the chunk,
/// chunk)` → chunk (eight 8-column blocks a chunk; at most three chunks: N ≤ 192).
#[inline(always)]
fn acc_chunk() -> Layout<(_4, _8, _3), (_0, _0, _1)> {
    Layout::default()
}

/// FP8 promotion with block scales through shared memory ([`GmmaFp8AccumulationStaged`]'s
/// staging) on a tile of `2V` columns that straddles two of B's 128-column N-blocks: the 128 ×
/// 192 tile (`V` 96, one `m64n192k32` temporary; DeepGEMM's `BLOCK_N = 192`). A tile at `n0`
/// covers N-blocks `nb` and `nb + 1` (clamped into B's scales: columns past N are zeros), the
/// boundary at a 64-column chunk of the tile (tile origins are multiples of 64); each chunk
/// takes the scale of its own N-block, found once per tile from the tile's origin by the
/// `(128, NB)` split of N. Per stage the producer loads A's 128 row scales and the two blocks'
/// boxes of B's scales ([`Fp8ScaleStageWide`]); a consumer reads its two rows' and the two
/// blocks' scales after the stage's full barrier, and its promotion is
/// `main += s_a[row]·s_b[chunk's block]·temp`. One temporary (`V` main + `V` temporary
/// registers: 192 for the 128 × 192 tile), no pairs, no turns.
pub struct GmmaFp8AccumulationStagedWide<const V: usize> {
    /// The `m64n(2V)` temporary.
    temp: [f32; V],
    /// This thread's two rows in the stage's 128 (as [`GmmaFp8AccumulationStaged`]'s).
    rows: [i32; 2],
    /// B's scale `(nb, 0)` of the tile's two N-blocks in the 1-D tensor (k-tile `kt`'s: `+ kt`).
    b0: [i32; 2],
    /// Whether each 64-column chunk of the tile lies in the second N-block.
    second: [bool; 3],
    /// The waited k-tile's scales: A's two rows', B's two N-blocks'.
    queue: [f32; 4],
}

/// The tile at column `n0` of a problem of `n` columns in B's N-blocks: its offset in its first
/// block and the block (the `(128, NB)` split of `n0`), and the second block, clamped into the
/// `NB` blocks.
#[inline(always)]
fn wide_tile_blocks(n0: i32, n: i32) -> (i32, [i32; 2]) {
    let nbs = n.ceil_div(128);
    let (off, nb): (i32, i32) = make_layout_left((_128, nbs)).idx2crd(n0);
    (off, [nb, (nb + 1).min(nbs - 1)])
}

impl<const V: usize> AccumulationStage for GmmaFp8AccumulationStagedWide<V> {
    type Stage = Fp8ScaleStageWide;
    const STAGE_TX_BYTES: u32 = ScaleAtomA::TX_BYTES + 2 * ScaleAtomB::TX_BYTES;
}

impl<const V: usize> MmaAccumulation<[f32; V]> for GmmaFp8AccumulationStagedWide<V> {
    type Args = Fp8StagedScales;
    const K_PIPE_MMAS: u32 = 0;
    const FIXUP_ORDER: FixupOrder = FixupOrder::PairsSwapped;
    #[inline(always)]
    fn new(s: &Fp8StagedScales, (block, t): (i32, i32), (_, n0): (i32, i32), k: i32) -> Self {
        const {
            assert!(
                V.is_multiple_of(32) && V <= 96,
                "GmmaFp8AccumulationStagedWide: tiles of whole 64-column chunks, N ≤ 192 (two N-blocks)"
            )
        };
        // SAFETY: a tile's first column and the k-tile count are not negative (so the splits
        // below are shifts and masks)
        unsafe { core::hint::assert_unchecked(n0 >= 0 && k >= 0) };
        // this thread's rows of the stage's 128: (row in the 64-row block, block)
        let r = make_layout_left((_64, _2)).crd2idx((acc_row_thr().crd2idx(t), block));
        let (off, nb) = wide_tile_blocks(n0, s.mn.1);
        let (_, sb) = scale_layouts(s.mn, k);
        // (chunk) → its first column from the first N-block's start: the tile's offset in that
        // block + 64·chunk; in the (128, 2) split of that, its block (0 or 1: tiles of at most
        // 192 columns from a 64-column boundary)
        let chunks = make_layout(_3, _64);
        let mut second = [false; 3];
        device::unroll!(V / 32, |c| {
            let col = off + chunks.crd2idx(c as i32).value() as i32;
            let (_, b): (i32, i32) = make_layout_left((_128, _2)).idx2crd(col);
            second[c] = b != 0;
        });
        GmmaFp8AccumulationStagedWide {
            // SAFETY: all-zero bits are 0.0 (never read before a scale-d 0 wgmma writes them)
            temp: unsafe { core::mem::zeroed() },
            rows: [r, r + 8],
            b0: [
                sb.crd2idx((nb[0], 0i32)).value() as i32,
                sb.crd2idx((nb[1], 0i32)).value() as i32,
            ],
            second,
            queue: [1.0; 4],
        }
    }
    #[inline(always)]
    fn frag<'s>(&'s mut self, _: &'s mut [f32; V]) -> &'s mut [f32; V] {
        &mut self.temp
    }
    #[inline(always)]
    fn k_tile_scale(_: ScaleOut) -> ScaleOut {
        ScaleOut::Zero
    }
    #[inline(always)]
    unsafe fn prefetch(&mut self, _: i32, _: usize) {}
    #[inline(always)]
    fn promote(&mut self, main: &mut [f32; V]) {
        let [s_a0, s_a1, s_b0, s_b1] = self.queue;
        // [chunk][row half] → the product of the row's and the chunk's N-block's scales
        let mut scale = [[0.0f32; 2]; 3];
        device::unroll!(V / 32, |c| {
            let s_b = if self.second[c] { s_b1 } else { s_b0 };
            scale[c] = [s_a0 * s_b, s_a1 * s_b];
        });
        let temp = &self.temp;
        device::unroll!(
            V / 4,
            #[inline(always)]
            |j| device::unroll!(
                4,
                #[inline(always)]
                |q| {
                    let v = 4 * j + q;
                    let c = acc_chunk().crd2idx(v as i32) as usize;
                    let s = scale[c][acc_row_half().crd2idx(q as i32) as usize];
                    main[v] = device::math::fma(temp[v], s, main[v]);
                }
            )
        );
    }
    #[inline(always)]
    unsafe fn load_stage(
        s: &Fp8StagedScales,
        bar: *mut u64,
        stage: *mut Fp8ScaleStageWide,
        (m0, n0): (i32, i32),
        kt: i32,
        k_tiles: i32,
    ) {
        let n = s.mn.1;
        // SAFETY: a tile's first column and a k-tile are not negative
        unsafe { core::hint::assert_unchecked(n0 >= 0 && kt >= 0 && k_tiles >= 0) };
        // the scale tensors as the maps see them (1-D)
        let (sa, sb) = scale_layouts(s.mn, k_tiles);
        let (_, nb) = wide_tile_blocks(n0, n);
        let boxes = scale_b_boxes(n.ceil_div(128) * k_tiles);
        unsafe {
            let b = (&raw mut (*stage).b) as *mut f32;
            ScaleAtomA::new(s.a).copy(
                bar,
                (&raw mut (*stage).a) as *mut f32,
                [sa.crd2idx((m0, kt)).value() as i32],
            );
            // each N-block's box: the aligned 4 holding (nb, kt)
            device::unroll!(2, |i| {
                let x = sb.crd2idx((nb[i], kt)).value() as i32;
                // SAFETY: an index into B's scales
                core::hint::assert_unchecked(x >= 0);
                let (_, b_box): (i32, i32) = boxes.idx2crd(x);
                ScaleAtomB::new(s.b).copy(
                    bar,
                    b.add(scale_b_stage().crd2idx((0i32, i as i32)) as usize),
                    [boxes.crd2idx((0i32, b_box)).value() as i32],
                );
            });
        }
    }
    #[inline(always)]
    unsafe fn read_stage(&mut self, stage: *const Fp8ScaleStageWide, _slot: usize, kt: i32) {
        // B's scales' positions in their boxes of 4 (the boxes' count is immaterial here)
        let x = [self.b0[0] + kt, self.b0[1] + kt];
        // SAFETY: indices into B's scales
        unsafe { core::hint::assert_unchecked(x[0] >= 0 && x[1] >= 0) };
        let (j0, _): (i32, i32) = scale_b_boxes(i32::MAX).idx2crd(x[0]);
        let (j1, _): (i32, i32) = scale_b_boxes(i32::MAX).idx2crd(x[1]);
        // SAFETY: the stage's scales landed (its full barrier passed); rows < 128, j < 4
        unsafe {
            let a = (&raw const (*stage).a) as *const f32;
            let b = (&raw const (*stage).b) as *const f32;
            self.queue = [
                *a.add(self.rows[0] as usize),
                *a.add(self.rows[1] as usize),
                *b.add(scale_b_stage().crd2idx((j0, 0i32)) as usize),
                *b.add(scale_b_stage().crd2idx((j1, 1i32)) as usize),
            ];
        }
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

/// The mainloop over `E` inputs, A `MA`-major, B `MB`-major, tiles of M `BM` and N `BN`,
/// accumulation `Acc`, `STAGES` stages.
pub struct CollectiveMma<E, MA, MB, BM, BN, Acc, const STAGES: usize> {
    _p: PhantomData<(E, MA, MB, BM, BN, Acc)>,
}

/// What [`CollectiveMma::mma`] leaves for [`CollectiveMma::mma_tail`]: the last k-tile's stage,
/// its `wgmma`s perhaps still in flight (CUTLASS's `K_PIPE_MMAS` k-tiles).
#[must_use = "the last k-tile's stage is released by mma_tail"]
pub struct MmaTail<const STAGES: usize>(Option<ConsumerStage<STAGES>>);

impl<E, MA, MB, BM, BN, Acc, const STAGES: usize> TransactionBytes
    for CollectiveMma<E, MA, MB, BM, BN, Acc, STAGES>
where
    MA: SmemOperand<BM, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
    Acc: AccumulationStage,
{
    /// A stage's full barrier waits for A's and B's k-tiles and what the accumulation brings
    /// with the stage ([`AccumulationStage::STAGE_TX_BYTES`]).
    const TX_BYTES: u32 = (MA::BYTES + MB::BYTES) as u32 + Acc::STAGE_TX_BYTES;
    /// The barriers from a 32-bit shared base (measured: the k-tile's SASS 79 → 56
    /// instructions, bf16 TN; doc/typed-gmma.md).
    const BARRIER_BASE: bool = true;
}

/// The producer's handle of the mainloop's pipeline.
pub type Producer<E, MA, MB, BM, BN, Acc, const STAGES: usize> =
    PipelineProducer<STAGES, CollectiveMma<E, MA, MB, BM, BN, Acc, STAGES>>;
/// A consumer's handle of the mainloop's pipeline.
pub type Consumer<E, MA, MB, BM, BN, Acc, const STAGES: usize> =
    PipelineConsumer<STAGES, CollectiveMma<E, MA, MB, BM, BN, Acc, STAGES>>;

/// The per-stage storage of accumulation `Acc` over the pipeline's stages (stage 0's: a
/// pointer into the kernel's `StagedSharedStorage`) and its run-time arguments: what the
/// producer's [`load_k`](CollectiveMma::load_k) loads with each stage.
pub type StageStorage<'a, Acc, F> = (
    *mut <Acc as AccumulationStage>::Stage,
    &'a <Acc as MmaAccumulation<F>>::Args,
);

impl<E, MA, MB, BM, BN, Acc, const STAGES: usize> CollectiveMma<E, MA, MB, BM, BN, Acc, STAGES>
where
    MA: SmemOperand<BM, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
    Acc: AccumulationStage,
{
    /// The producer's loads of one CTA tile: for each of the `k_tiles` k-tiles, acquire a
    /// stage, load A's rows `m0..` and B's rows `n0..` at column `64·kt` as cluster shape `Cl`
    /// shares them (when the cluster has `cs = 2` CTAs, this CTA's half of the shared
    /// operand, multicast: [`ClusterLoad`]), commit.
    ///
    /// Every lane of the producer warp walks the stages; off the GPU only a lane the election
    /// did not pick can run it (the leader's loads need the TMA unit): three k-tiles take
    /// stages 0, 1 and 2 of four.
    ///
    /// ```
    /// use collective::cluster::ClusterM;
    /// use collective::mainloop::{CollectiveMma, PlainAccumulation};
    /// use device::tma::TmaDescriptor;
    /// use device::wgmma::{Bf16, MajorK};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cutlass::gmma_operand::SmemTile;
    /// use layout_types::cutlass::pipeline::{PipelineStorage, PipelineTmaAsync};
    /// type M = CollectiveMma<Bf16, MajorK, MajorK, _128, _256, PlainAccumulation, 4>;
    /// let mut bars = PipelineStorage::<4>::new();
    /// // SAFETY: this thread initializes the barriers, nothing else uses them
    /// let pipe = unsafe { PipelineTmaAsync::<4, M>::init(&mut bars, true, 2, || ()) };
    /// let mut prod = pipe.producer_warp(false);
    /// let mut a = Box::<[SmemTile<{ 128 * 64 }>; 4]>::new_zeroed();
    /// let mut b = Box::<[SmemTile<{ 256 * 64 }>; 4]>::new_zeroed();
    /// let tma: (*const TmaDescriptor, _) = (core::ptr::null(), core::ptr::null());
    /// let smem = (a.as_mut_ptr(), b.as_mut_ptr());
    /// // the CTA tile at (128, 256) of a problem of 3 k-tiles, a cluster of one CTA
    /// // SAFETY: a follower lane touches neither the maps nor the tiles
    /// unsafe { M::load::<ClusterM, _, _, [f32; 128]>(&mut prod, smem, tma, (core::ptr::null_mut(), &()), (128, 256), 3, (1, 0)) };
    /// assert_eq!((prod.state().index(), prod.state().count()), (3, 3));
    /// ```
    ///
    /// # Safety
    /// Every lane of the producer warp with `prod` from
    /// [`producer_warp`](layout_types::cutlass::pipeline::PipelineTmaAsync::producer_warp) (the
    /// leader issues the loads), or the one producer thread with `prod` from `producer`; the
    /// tensor maps are A's and B's with the boxes of `MA`, `MB`
    /// (the shared operand's half box when `cs = 2`); `smem` is the pipeline's stages.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn load<Cl: ClusterLoad<MA, MB, BM, BN>, TA: StageTile, TB: StageTile, F>(
        prod: &mut Producer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        stages: StageStorage<'_, Acc, F>,
        mn0: (i32, i32),
        k_tiles: i32,
        cluster: (u32, i32),
    ) where
        Acc: MmaAccumulation<F>,
    {
        unsafe {
            Self::load_k::<Cl, TA, TB, F>(
                prod,
                smem,
                tma,
                stages,
                mn0,
                (0, k_tiles),
                k_tiles,
                cluster,
            )
        }
    }

    /// [`load`](Self::load) of the k-tiles `k_begin..k_begin + k_count` of a tile of
    /// `k_tiles` (a stream-K unit's share; CUTLASS's `load` from a `k_tile_iter` for a
    /// `k_tile_count`).
    ///
    /// A unit of a tile's last four of eight k-tiles where the stages come in groups of four
    /// ([`GmmaFp8AccumulationStagedQuad4`]: the group's box with its first stage, here the
    /// ring's fifth), by a lane the election did not pick, as in [`load`](Self::load)'s
    /// example.
    ///
    /// ```
    /// use collective::cluster::ClusterM;
    /// use collective::mainloop::{CollectiveMma, Fp8StagedScales, GmmaFp8AccumulationStagedQuad4};
    /// use device::tma::TmaDescriptor;
    /// use device::wgmma::{E4M3, MajorK};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cutlass::gmma_operand::SmemTile;
    /// use layout_types::cutlass::pipeline::{PipelineStorage, PipelineTmaAsync};
    /// type M = CollectiveMma<E4M3, MajorK, MajorK, _64, _128, GmmaFp8AccumulationStagedQuad4, 8>;
    /// let mut bars = PipelineStorage::<8>::new();
    /// // SAFETY: this thread initializes the barriers, nothing else uses them
    /// let pipe = unsafe { PipelineTmaAsync::<8, M>::init(&mut bars, true, 1, || ()) };
    /// let mut prod = pipe.producer_warp(false);
    /// # let mut a = Box::<[SmemTile<{ 64 * 64 }>; 8]>::new_zeroed();
    /// # let mut b = Box::<[SmemTile<{ 128 * 64 }>; 8]>::new_zeroed();
    /// # let smem = (a.as_mut_ptr(), b.as_mut_ptr());
    /// let tma: (*const TmaDescriptor, _) = (core::ptr::null(), core::ptr::null());
    /// let scales = Fp8StagedScales { a: tma.0, b: tma.1, b_global: core::ptr::null(), mn: (64, 128) };
    /// let stages = (core::ptr::null_mut(), &scales);
    /// // SAFETY: a follower lane touches neither the maps nor the tiles nor the scales
    /// unsafe { M::load_k::<ClusterM, _, _, [f32; 64]>(&mut prod, smem, tma, stages, (0, 0), (0, 4), 8, (1, 0)) };
    /// unsafe { M::load_k::<ClusterM, _, _, [f32; 64]>(&mut prod, smem, tma, stages, (0, 0), (4, 4), 8, (1, 0)) };
    /// assert_eq!((prod.state().index(), prod.state().phase(), prod.state().count()), (0, 0, 8));
    /// ```
    ///
    /// # Safety
    /// As [`load`](Self::load); `0 ≤ k_begin ≤ k_begin + k_count ≤ k_tiles`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn load_k<Cl: ClusterLoad<MA, MB, BM, BN>, TA: StageTile, TB: StageTile, F>(
        prod: &mut Producer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        (stages, args): StageStorage<'_, Acc, F>,
        (m0, n0): (i32, i32),
        (k_begin, k_count): (i32, i32),
        k_tiles: i32,
        cluster: (u32, i32),
    ) where
        Acc: MmaAccumulation<F>,
    {
        let () = Fits::<MA, MB, BM, BN, TA, TB>::OK;
        for kt in k_begin..k_begin + k_count {
            let stage = unsafe { prod.producer_acquire() };
            let bar = stage.full_barrier();
            let i = stage.index() as usize;
            let (a, b) = stage_tiles(smem, i);
            // the k-tile's first column: k-tile kt of the (64, k_tiles) split of K
            let k0 = make_layout_left((_64, k_tiles)).crd2idx((0i32, kt));
            if stage.is_leader() {
                unsafe {
                    // what the accumulation brings with the stage (block scales), same barrier:
                    // first, so that its small boxes do not queue behind the tiles' requests
                    Acc::load_stage(args, bar, stages.add(i), (m0, n0), kt, k_tiles);
                    Cl::load(tma, bar, (a, b), (m0, n0), k0, cluster);
                }
            }
            stage.producer_commit();
        }
    }

    /// A consumer warpgroup's `wgmma`s over the k-tiles `k_begin..k_begin + k_count` of one
    /// tile into `acc` (its [`WarpgroupTile`] `W`: the `W::BLOCKS` 64-row blocks of A's tile
    /// from block `wg` on, each times B's tile) through `accum`
    /// (CUTLASS's `mma`): the tile's first `wgmma` has scale-d 0 (with promotion, each
    /// k-tile's first); a k-tile's stage is released once `wgmma.wait_group K_PIPE_MMAS` says
    /// at most the next k-tile's `wgmma`s are in flight; with promotion, the next k-tile's
    /// scales load while this one's `wgmma`s run and the temporary is promoted after the
    /// release. Each k-tile is issued in this warpgroup's turn (`order`). With
    /// [`MmaAccumulation::PAIRED`], `mma_paired`. The last k-tile's
    /// `wgmma`s may still be in flight: [`mma_tail`](Self::mma_tail) (before `acc` is read)
    /// waits for them and releases their stage. `(at, during)`: `during` runs once where the
    /// unit has a k-tile `at` (`0 ≤ at < k_count`), never otherwise: right after that k-tile's
    /// `wgmma`s are issued, under them (the epilogue's source load,
    /// [`CollectiveEpilogue::load`](crate::epilogue::CollectiveEpilogue::load)); in the paired,
    /// quad and offset mainloops (the promoted FP8 accumulations, whose epilogues read no
    /// source today) before their first k-tile.
    ///
    /// A consumer warpgroup's half of a cooperative 128 × 256 tile (on the GPU only: `wgmma`):
    ///
    /// ```no_run
    /// use collective::mainloop::*;
    /// use device::wgmma::{Bf16, MajorK};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cutlass::gmma_operand::SmemTile;
    /// type M = CollectiveMma<Bf16, MajorK, MajorK, _128, _256, PlainAccumulation, 4>;
    /// type W = (_64, _256);
    /// # unsafe fn f(cons: &mut Consumer<Bf16, MajorK, MajorK, _128, _256, PlainAccumulation, 4>,
    /// #     smem: (*mut [SmemTile<8192>; 4], *mut [SmemTile<16384>; 4]), wg: i32, k_tiles: i32) {
    /// // all 128 threads of consumer warpgroup `wg` (its 64-row block), a tile's k-tiles
    /// let mut acc = W::zeroed();
    /// let mut accum = PlainAccumulation;
    /// let order = ConsumerOrder::new(wg, false); // no turns
    /// let during = (-1, &mut || ()); // nothing under the mainloop
    /// let tail = unsafe {
    ///     M::mma::<W, _, _>(cons, smem, core::ptr::null(), &mut acc, &mut accum, &order, wg, (0, k_tiles), during)
    /// };
    /// unsafe { M::mma_tail::<W>(cons, &mut acc, tail) };
    /// # }
    /// ```
    ///
    /// # Safety
    /// All 128 threads of the consumer warpgroup; a producer fills the stages; `accum`'s
    /// arguments describe valid memory; with turns, the other consumer warpgroup issues as
    /// many k-tiles.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn mma<W: WarpgroupTile, TA: StageTile, TB: StageTile>(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        stages: *const Acc::Stage,
        acc: &mut W::Frag,
        accum: &mut Acc,
        order: &ConsumerOrder,
        wg: i32,
        (k_begin, k_count): (i32, i32),
        (at, during): (i32, &mut impl FnMut()),
    ) -> MmaTail<STAGES>
    where
        W::Block: MmaAsync<E>,
        Acc: MmaAccumulation<W::Frag>,
    {
        let () = Fits::<MA, MB, BM, BN, TA, TB>::OK;
        if (Acc::QUAD || Acc::PAIRED || (Acc::OFFSET && wg == 1)) && (0..k_count).contains(&at) {
            during();
        }
        if Acc::QUAD {
            unsafe {
                Self::mma_quad::<W, TA, TB>(
                    cons,
                    smem,
                    stages,
                    acc,
                    accum,
                    order,
                    wg,
                    (k_begin, k_count),
                )
            };
            return MmaTail(None);
        }
        if Acc::PAIRED {
            unsafe {
                Self::mma_paired::<W, TA, TB>(
                    cons,
                    smem,
                    stages,
                    acc,
                    accum,
                    order,
                    wg,
                    (k_begin, k_count),
                )
            };
            return MmaTail(None);
        }
        if Acc::OFFSET && wg == 1 {
            unsafe {
                Self::mma_offset::<W, TA, TB>(cons, smem, acc, accum, wg, (k_begin, k_count))
            };
            return MmaTail(None);
        }
        let pipelined = Acc::K_PIPE_MMAS > 0;
        let descs = Self::stage_descs(smem, wg);
        let mut pending: Option<ConsumerStage<STAGES>> = None;
        if k_count > 0 {
            unsafe { accum.prefetch(k_begin, 0) };
        }
        // one k-tile: wait for its stage (and the turn), its `wgmma`s from scale-d `scale`, the
        // release of the stage the `wgmma`s before have read, the promotion
        // (`hook`: whether `during` runs here; a constant `false` in the plain loops below, so
        // that their k-tiles carry no test and no divergent branch of it)
        let mut k_tile = #[inline(always)]
        |i: i32, scale: ScaleOut, hook: bool| {
            let (full, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), 0, k_begin + i) };
            unsafe { Self::issue::<W>(descs, order, accum.frag(acc), st, scale) };
            if hook {
                during();
            }
            unsafe { accum.prefetch(k_begin + i + 1, 1) };
            if pipelined {
                wait_group::<1>(); // the previous k-tile's wgmmas have read their stage
            } else {
                wait_group::<0>();
            }
            W::fence(accum.frag(acc));
            if !pipelined {
                unsafe { cons.consumer_release(full) };
            } else if let Some(done) = pending.replace(full) {
                unsafe { cons.consumer_release(done) };
            }
            accum.promote(acc);
        };
        if matches!(Acc::k_tile_scale(ScaleOut::One), ScaleOut::One) {
            // the `wgmma`s accumulate across k-tiles (plain): the tile's first k-tile peeled,
            // so that its first `wgmma` overwrites the accumulators with an immediate scale-d 0
            // (the loop's run-time scale-d made ptxas keep the caller's zeros, what a unit
            // without k-tiles stores, in 128 `CS2R` a tile and warp; now 64, `CS2R` of register
            // pairs: doc/hopper-gemm.md, session 16)
            if k_count > 0 {
                k_tile(0, Acc::k_tile_scale(ScaleOut::Zero), at == 0);
            }
            // k-tile `at` out of the loop (its copy of the body alone tests nothing: in the
            // loop, the test and `during`'s divergent branch put 2–4 instructions between a
            // k-tile's `wait_group` and the next one's issue, 0.2–0.5 % at 4096³, run s49c)
            let mid = at.clamp(1, k_count.max(1));
            for i in 1..mid {
                k_tile(i, ScaleOut::One, false);
            }
            if mid < k_count {
                k_tile(mid, ScaleOut::One, at == mid);
            }
            for i in mid + 1..k_count {
                k_tile(i, ScaleOut::One, false);
            }
        } else {
            // each k-tile's first `wgmma` has scale-d 0 (promotion: a constant already, so
            // nothing to peel; peeled anyway, the fused `_n192tma` entries spilled 4 bytes)
            let mut scale = ScaleOut::Zero;
            for i in 0..k_count {
                scale = Acc::k_tile_scale(scale);
                k_tile(i, scale, i == at);
                scale = ScaleOut::One;
            }
        }
        MmaTail(pending)
    }

    /// After [`mma`](Self::mma) (CUTLASS's `mma_tail`): waits for the last k-tile's `wgmma`s
    /// and releases its stage; `acc` is then the tile's result.
    ///
    /// Ping-pong: the turn goes to the other warpgroup with the tile's last k-tile still in
    /// flight; then this one waits for it (on the GPU only: `wgmma`).
    ///
    /// ```no_run
    /// use collective::mainloop::*;
    /// use device::wgmma::{Bf16, MajorK};
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cutlass::gmma_operand::SmemTile;
    /// type M = CollectiveMma<Bf16, MajorK, MajorK, _64, _256, PlainAccumulation, 4>;
    /// type W = (_64, _256);
    /// # unsafe fn f(cons: &mut Consumer<Bf16, MajorK, MajorK, _64, _256, PlainAccumulation, 4>,
    /// #     smem: (*mut [SmemTile<4096>; 4], *mut [SmemTile<16384>; 4]), wg: i32, k_tiles: i32) {
    /// let (mut acc, mut accum) = (W::zeroed(), PlainAccumulation);
    /// let turns = ConsumerOrder::new(wg, true);
    /// let no_turns = ConsumerOrder::new(wg, false);
    /// turns.wait();
    /// let tail = unsafe {
    ///     M::mma::<W, _, _>(cons, smem, core::ptr::null(), &mut acc, &mut accum, &no_turns, 0, (0, k_tiles), (-1, &mut || ()))
    /// };
    /// turns.arrive();
    /// unsafe { M::mma_tail::<W>(cons, &mut acc, tail) }; // the last k-tile done, its stage released
    /// // `acc` is the tile's result: the epilogue's
    /// # }
    /// ```
    ///
    /// # Safety
    /// As [`mma`](Self::mma): the same consumer warpgroup, `tail` its `mma`'s.
    #[inline(always)]
    pub unsafe fn mma_tail<W: WarpgroupTile>(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
        acc: &mut W::Frag,
        tail: MmaTail<STAGES>,
    ) where
        Acc: MmaAccumulation<W::Frag>,
    {
        // unconditional (a constant per accumulation): a `wgmma.wait_group` on a path that
        // depends on the k-tile count made ptxas serialize every `wgmma` (C7518)
        if Acc::K_PIPE_MMAS > 0 {
            wait_group::<0>();
            W::fence(acc);
        }
        if let Some(done) = tail.0 {
            unsafe { cons.consumer_release(done) };
        }
    }

    /// The descriptor tensors of A's and B's stages ([`SmemOperand::gmma_descs`] of stage 0's
    /// tiles; CuTe's `tCrA(_, m, kb, stage)`, `tCrB(_, n, kb, stage)`), A's from the warpgroup's
    /// first m64 block `wg`: built once per tile, outside the k-loop; a k-tile's descriptors
    /// are 32-bit adds on them (doc/typed-gmma.md). `wg` is broadcast from lane 0 (CUTLASS's
    /// `canonical_warp_group_idx`) so the bases live in uniform registers.
    #[inline(always)]
    #[allow(clippy::type_complexity)] // two closures' `impl Fn` (no type alias can name them)
    fn stage_descs<TA: StageTile, TB: StageTile>(
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        wg: i32,
    ) -> (
        impl Fn(i32, i32, u32) -> u64 + Copy,
        impl Fn(i32, i32, u32) -> u64 + Copy,
    ) {
        const { assert!(size_of::<TA>() == 2 * TA::ELEMS && size_of::<TB>() == 2 * TB::ELEMS) };
        let (a0, b0) = stage_tiles(smem, 0);
        let wg = warp_uniform_u32(wg as u32) as i32;
        let da = MA::gmma_descs(a0, STAGES as u32, TA::ELEMS as i32);
        (
            move |blk, kb, st| da(wg + blk, kb, st),
            MB::gmma_descs(b0, STAGES as u32, TB::ELEMS as i32),
        )
    }

    /// Waits for the next k-tile's stage: the stage and its index (warp-uniform). The stage's
    /// accumulation storage is read ([`MmaAccumulation::read_stage`]) between this and
    /// [`issue`](Self::issue), CUTLASS's order (the block-scaled mainloop copies its scales to
    /// registers before `warpgroup_arrive`): every warp's reads then come before its `wgmma`s,
    /// whose completion warp 0 waits for before it releases the stage. Read after the issue,
    /// a lagging warp read the next k-tile's scales once warp 0 had released the stage (wrong
    /// results under compute-sanitizer memcheck, session 25).
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    unsafe fn wait_stage(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
    ) -> (ConsumerStage<STAGES>, u32) {
        // the stage index broadcast from lane 0 (issued before the wait, so its latency hides
        // behind it): ptxas does not see the consumer's state as warp-uniform through the
        // loop, and the descriptors are then uniform arithmetic, not `R2UR` moves
        let st = warp_uniform_u32(cons.state().index());
        let full = unsafe { cons.consumer_wait() };
        (full, st)
    }

    /// One k-tile's issue in this warpgroup's turn on waited stage `st`
    /// ([`wait_stage`](Self::wait_stage)): wait for the turn, four `wgmma`s into `frag` (the
    /// first with scale-d `scale`), commit, hand the turn over.
    ///
    /// # Safety
    /// As [`mma`](Self::mma); stage `st`'s full barrier's phase completed.
    #[inline(always)]
    unsafe fn issue<W: WarpgroupTile>(
        (da, db): (
            impl Fn(i32, i32, u32) -> u64 + Copy,
            impl Fn(i32, i32, u32) -> u64 + Copy,
        ),
        order: &ConsumerOrder,
        frag: &mut W::Frag,
        st: u32,
        scale: ScaleOut,
    ) where
        W::Block: MmaAsync<E>,
    {
        order.wait();
        W::fence(frag);
        // SAFETY: the stage's full barrier's phase completed
        unsafe { Self::issue_kblocks::<W, 0, 4>((da, db), frag, st, scale) };
        commit_group();
        order.arrive();
    }

    /// `N` k-blocks of stage `st` from k-block `KB0` on, into `frag` (the first with scale-d
    /// `scale`), after a `wgmma.fence`; the caller commits. The stage has been waited for.
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    unsafe fn issue_kblocks<W: WarpgroupTile, const KB0: usize, const N: usize>(
        (da, db): (
            impl Fn(i32, i32, u32) -> u64 + Copy,
            impl Fn(i32, i32, u32) -> u64 + Copy,
        ),
        frag: &mut W::Frag,
        st: u32,
        mut scale: ScaleOut,
    ) where
        W::Block: MmaAsync<E>,
    {
        fence();
        device::unroll!(N, |i| {
            let kb = (KB0 + i) as i32;
            // the warpgroup's m64 blocks of A's stage tile (from block `wg`), each against B
            device::unroll!(W::BLOCKS, |blk| {
                // SAFETY: the whole warpgroup; canonical layouts in this CTA's shared memory,
                // loaded (the full barrier's phase completed).
                unsafe {
                    mma_async_ss::<E, MA, MB, One, One, _>(
                        da(blk as i32, kb, st),
                        db(0, kb, st),
                        W::block(frag, blk),
                        scale,
                    )
                };
            });
            scale = ScaleOut::One;
        });
    }

    /// [`mma`](Self::mma)'s schedule for consumer warpgroup 1 when [`MmaAccumulation::OFFSET`]:
    /// promotion windows of four `wgmma`s shifted by half a k-tile against warpgroup 0's (which
    /// promotes each k-tile), so that one warpgroup's `wgmma`s are queued on the tensor core
    /// while the other waits for its own and promotes. The windows: the first k-tile's first
    /// two k-blocks; then each k-tile's last two with the next k-tile's first two (the held
    /// k-tile's half issued and committed before the wait for the next stage, so that a late
    /// stage leaves this warpgroup's half running rather than re-aligning the two); the last
    /// k-tile's last two. A stage is released after the window holding its second half (one
    /// arrival per consumer warpgroup, as every schedule's): this warpgroup holds one stage
    /// more than warpgroup 0 across a promotion. Per-tensor scales only: the promotion is
    /// `main += temp`, with no k-tile's scales to apply. Nothing in flight across the loop's
    /// back edge.
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    unsafe fn mma_offset<W: WarpgroupTile, TA: StageTile, TB: StageTile>(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        acc: &mut W::Frag,
        accum: &mut Acc,
        wg: i32,
        (k_begin, k_count): (i32, i32),
    ) where
        W::Block: MmaAsync<E>,
        Acc: MmaAccumulation<W::Frag>,
    {
        const {
            assert!(
                !Acc::OFFSET || (!Acc::PAIRED && !Acc::TURNS && Acc::K_PIPE_MMAS == 0),
                "offset windows: one temporary, promoted each window, no turns"
            )
        };
        let _ = k_begin; // per-tensor: the window's k-tiles need no scales
        if k_count == 0 {
            return;
        }
        let descs = Self::stage_descs(smem, wg);
        // window 0: the first k-tile's first half
        let st = warp_uniform_u32(cons.state().index());
        let mut held = unsafe { cons.consumer_wait() };
        let mut st = st;
        unsafe { Self::issue_kblocks::<W, 0, 2>(descs, accum.frag(acc), st, ScaleOut::Zero) };
        commit_group();
        wait_group::<0>();
        W::fence(accum.frag(acc));
        accum.promote(acc);
        for _ in 1..k_count {
            // the held k-tile's second half, then (its stage waited for) the next k-tile's first
            W::fence(accum.frag(acc));
            unsafe { Self::issue_kblocks::<W, 2, 2>(descs, accum.frag(acc), st, ScaleOut::Zero) };
            commit_group();
            let st_next = warp_uniform_u32(cons.state().index());
            let next = unsafe { cons.consumer_wait() };
            unsafe {
                Self::issue_kblocks::<W, 0, 2>(descs, accum.frag(acc), st_next, ScaleOut::One)
            };
            commit_group();
            wait_group::<0>();
            W::fence(accum.frag(acc));
            unsafe { cons.consumer_release(held) };
            held = next;
            st = st_next;
            accum.promote(acc);
        }
        // the last window: the last k-tile's second half
        W::fence(accum.frag(acc));
        unsafe { Self::issue_kblocks::<W, 2, 2>(descs, accum.frag(acc), st, ScaleOut::Zero) };
        commit_group();
        wait_group::<0>();
        W::fence(accum.frag(acc));
        unsafe { cons.consumer_release(held) };
        accum.promote(acc);
    }

    /// [`mma`](Self::mma)'s paired schedule (promotion only): k-tiles `kt` and `kt + 1` go into
    /// [`frag`](MmaAccumulation::frag) and [`frag_b`](MmaAccumulation::frag_b);
    /// `wait_group 1`, the first is promoted while the second's `wgmma`s run; `wait_group 0`,
    /// the second is promoted (an odd last k-tile alone); the next pair's scales load while
    /// `wgmma`s run. Nothing is in flight across the loop's back edge: copies of in-flight
    /// accumulators there serialize every `wgmma` (ptxas C7514, seen with a loop that carried
    /// one).
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn mma_paired<W: WarpgroupTile, TA: StageTile, TB: StageTile>(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        stages: *const Acc::Stage,
        acc: &mut W::Frag,
        accum: &mut Acc,
        order: &ConsumerOrder,
        wg: i32,
        (k_begin, k_count): (i32, i32),
    ) where
        W::Block: MmaAsync<E>,
        Acc: MmaAccumulation<W::Frag>,
    {
        let end = k_begin + k_count;
        let descs = Self::stage_descs(smem, wg);
        if k_count == 0 {
            return;
        }
        unsafe {
            accum.prefetch(k_begin, 0);
            accum.prefetch(k_begin + 1, 1);
        }
        let mut kt = k_begin;
        while kt + 1 < end {
            let (first, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), 0, kt) };
            unsafe { Self::issue::<W>(descs, order, accum.frag(acc), st, ScaleOut::Zero) };
            let (second, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), 1, kt + 1) };
            unsafe { Self::issue::<W>(descs, order, accum.frag_b(acc), st, ScaleOut::Zero) };
            unsafe { accum.prefetch(kt + 2, 2) };
            wait_group::<1>();
            W::fence(accum.frag(acc));
            unsafe { cons.consumer_release(first) };
            accum.promote(acc);
            // (the queue moved on: k-tile kt + 3's scales go after kt + 2's)
            unsafe { accum.prefetch(kt + 3, 2) };
            wait_group::<0>();
            W::fence(accum.frag_b(acc));
            unsafe { cons.consumer_release(second) };
            accum.promote_b(acc);
            kt += 2;
        }
        if kt < end {
            let (last, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), 0, kt) };
            unsafe { Self::issue::<W>(descs, order, accum.frag(acc), st, ScaleOut::Zero) };
            wait_group::<0>();
            W::fence(accum.frag(acc));
            unsafe { cons.consumer_release(last) };
            accum.promote(acc);
        }
    }

    /// [`mma`](Self::mma)'s quad schedule ([`MmaAccumulation::QUAD`]): the paired schedule's
    /// pairs, two an iteration, each k-tile's scales in queue slot `kt` mod 4 (the tile's first
    /// four loaded before the loop), promoted from there with
    /// [`promote_slot`](MmaAccumulation::promote_slot), the slot then reloaded with the scales
    /// four k-tiles on: a loaded value stays where it landed until its promotion reads it.
    ///
    /// # Safety
    /// As [`mma`](Self::mma).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn mma_quad<W: WarpgroupTile, TA: StageTile, TB: StageTile>(
        cons: &mut Consumer<E, MA, MB, BM, BN, Acc, STAGES>,
        smem: (*mut [TA; STAGES], *mut [TB; STAGES]),
        stages: *const Acc::Stage,
        acc: &mut W::Frag,
        accum: &mut Acc,
        order: &ConsumerOrder,
        wg: i32,
        (k_begin, k_count): (i32, i32),
    ) where
        W::Block: MmaAsync<E>,
        Acc: MmaAccumulation<W::Frag>,
    {
        let end = k_begin + k_count;
        let descs = Self::stage_descs(smem, wg);
        if k_count == 0 {
            return;
        }
        device::unroll!(4, |s| unsafe { accum.prefetch(k_begin + s as i32, s) });
        // k-tile `kt` from slot `s` alone (`pair` false), or k-tiles `kt`, `kt + 1` from slots
        // `s`, `s + 1`; with `reload`, the slots then take k-tiles `kt + 4`, `kt + 5` (every
        // argument a constant at each call: a slot chosen at run time put the accumulation's
        // registers in local memory)
        let mut step = #[inline(always)]
        |kt: i32, s: usize, pair: bool, reload: bool| {
            let (first, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), s, kt) };
            unsafe { Self::issue::<W>(descs, order, accum.frag(acc), st, ScaleOut::Zero) };
            if !pair {
                wait_group::<0>();
                W::fence(accum.frag(acc));
                unsafe { cons.consumer_release(first) };
                accum.promote_slot(acc, false, s);
                return;
            }
            let (second, st) = unsafe { Self::wait_stage(cons) };
            unsafe { accum.read_stage(stages.add(st as usize), s + 1, kt + 1) };
            unsafe { Self::issue::<W>(descs, order, accum.frag_b(acc), st, ScaleOut::Zero) };
            wait_group::<1>();
            W::fence(accum.frag(acc));
            unsafe { cons.consumer_release(first) };
            accum.promote_slot(acc, false, s);
            if reload {
                unsafe { accum.prefetch(kt + 4, s) };
            }
            wait_group::<0>();
            W::fence(accum.frag_b(acc));
            unsafe { cons.consumer_release(second) };
            accum.promote_slot(acc, true, s + 1);
            if reload {
                unsafe { accum.prefetch(kt + 5, s + 1) };
            }
        };
        let mut kt = k_begin;
        while kt + 3 < end {
            step(kt, 0, true, true);
            step(kt + 2, 2, true, true);
            kt += 4;
        }
        // the last 0..3 k-tiles: their scales are in slots 0.. already
        match end - kt {
            1 => step(kt, 0, false, false),
            2 => step(kt, 0, true, false),
            3 => {
                step(kt, 0, true, false);
                step(kt + 2, 2, false, false);
            }
            _ => {}
        }
    }
}

/// The storage's tiles are the operands' (a compile-time check).
pub struct Fits<MA, MB, BM, BN, TA, TB>(PhantomData<(MA, MB, BM, BN, TA, TB)>);
impl<MA, MB, BM, BN, TA, TB> Fits<MA, MB, BM, BN, TA, TB>
where
    MA: SmemOperand<BM, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
    TA: StageTile,
    TB: StageTile,
{
    /// `TA::ELEMS == MA::ELEMS && TB::ELEMS == MB::ELEMS`, and B K-major unless the tile's
    /// block reads an MN-major B right ([`TileN::MN_MAJOR_B`]).
    pub const OK: () = {
        assert!(
            TA::ELEMS == MA::ELEMS && TB::ELEMS == MB::ELEMS,
            "MainloopStorage: the stage tiles must hold the operands' tiles"
        );
        assert!(
            matches!(MB::MAJOR, Major::K) || BN::MN_MAJOR_B,
            "CollectiveMma: an MN-major B needs TileN::MN_MAJOR_B (its wgmma descriptors from the whole tile's block; TileN<_128>'s BBlock is _64)"
        );
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// The quad schedule's queue: k-tile `kt`'s scales of the thread's two rows and the tile's
    /// N-block land in the slot they are loaded into (clamped into the tile past its last
    /// k-tile) and stay there; a slot's promotion scales each accumulator by its row's scale
    /// times the N-block's.
    #[test]
    fn quad_slots_hold_their_k_tiles_scales() {
        let (m, n, k_tiles) = (64, 256, 6);
        // A's (M, KB) column-major, B's (NB, KB) row-major (DeepGEMM's layouts)
        let sa: std::vec::Vec<f32> = (0..m * k_tiles).map(|i| 1.0 + i as f32).collect();
        let sb: std::vec::Vec<f32> = (0..2 * k_tiles).map(|i| 1000.0 + i as f32).collect();
        let scales = Fp8BlockScales {
            a: sa.as_ptr(),
            b: sb.as_ptr(),
            mn: (m, n),
        };
        for t in [0, 5, 127] {
            // the tile at columns 128.. (N-block 1)
            let mut q = <GmmaFp8AccumulationQuad>::new(&scales, (0, t), (0, 128), k_tiles);
            let r0 = acc_row_thr().crd2idx(t);
            let want = |kt: i32| {
                let kt = kt.min(k_tiles - 1);
                [
                    sa[(r0 + m * kt) as usize],
                    sa[(r0 + 8 + m * kt) as usize],
                    sb[(k_tiles + kt) as usize],
                ]
            };
            for (kt, slot) in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 0), (7, 1)] {
                unsafe { q.prefetch(kt, slot) };
                assert_eq!(q.slots[slot], want(kt), "thread {t}, k-tile {kt}");
            }
            q.acc.temp = [1.0; 64];
            q.acc.temp_b = [2.0; 64];
            let (mut main, mut main_b) = ([0.0f32; 64], [0.0f32; 64]);
            q.promote_slot(&mut main, false, 3);
            q.promote_slot(&mut main_b, true, 1);
            let ([a0, a1, b], [c0, c1, d]) = (want(3), want(7));
            for v in 0..64 {
                let half = (v % 4) / 2;
                assert_eq!(main[v], [a0, a1][half] * b);
                assert_eq!(main_b[v], 2.0 * [c0, c1][half] * d);
            }
        }
    }

    /// The box of four k-tiles' row scales ([`StagedScales64x4`]): laid in eight stages as TMA
    /// lays a `(64, 4):(1, 64)` box (k-tile `kt + j`'s rows in stage `i + j`'s), read whole at
    /// slot 0 — each slot then holds its k-tile's two row scales of the thread and the B scale
    /// prefetched into it, the later slots reading no stage.
    #[test]
    fn four_k_tile_boxes_fill_the_slots() {
        let (m, n, k_tiles) = (128, 256, 8);
        let sb: std::vec::Vec<f32> = (0..2 * k_tiles).map(|i| 1000.0 + i as f32).collect();
        let s = Fp8StagedScales {
            a: core::ptr::null(),
            b: core::ptr::null(),
            b_global: sb.as_ptr(),
            mn: (m, n),
        };
        // A's scales as (M, KB):(1, M); the box from row 0 and k-block 4 in stages 4..8
        let sa = |r: i32, kb: i32| (r + m * kb) as f32;
        let mut stages: std::vec::Vec<Fp8ScaleStage64> = (0..8)
            .map(|_| Fp8ScaleStage64 {
                a: [0.0; 64],
                b: [],
            })
            .collect();
        let box_a: BoxLayout<ScaleBoxA4<_64>> = Layout::default();
        for r in 0..64i32 {
            for j in 0..4i32 {
                let e = box_a.crd2idx((r, j)).value() as usize;
                stages[4 + e / 64].a[e % 64] = sa(r, 4 + j);
            }
        }
        for t in [0, 9, 127] {
            // the tile at columns 128.. (N-block 1), k-tiles 4..8 in slots 0..3
            let (mut src, acc) =
                <StagedScales64x4 as QuadScales>::new(&s, (0, t), (0, 128), k_tiles);
            let mut slots = [[0.0f32; 3]; 4];
            for slot in 0..4 {
                unsafe { src.prefetch(&acc, &mut slots, 4 + slot as i32, slot) };
            }
            for slot in 0..4 {
                // only slot 0's stage holds the box; the later ones' stages are never read
                let stage = if slot == 0 { 4 } else { 0 };
                unsafe { src.read_stage(stages.as_ptr().add(stage), &mut slots, slot) };
            }
            let r0 = acc_row_thr().crd2idx(t);
            for (j, got) in slots.iter().enumerate() {
                let kt = 4 + j as i32;
                let want = [sa(r0, kt), sa(r0 + 8, kt), sb[(k_tiles + kt) as usize]];
                assert_eq!(*got, want, "thread {t}, slot {j}");
            }
        }
        assert_eq!(
            StagedScales64x4::BOX_TX_BYTES as usize,
            4 * size_of::<Fp8ScaleStage64>()
        );
    }

    /// A 128 × 192 tile's promotion scales each accumulator by its row's scale and the scale of
    /// its column's own 128-column N-block (the stage's first or second box), at both offsets of
    /// a 192-wide tile in the N-blocks and where its second block lies past N (whose box the
    /// producer loads from the first block's scales: clamped): the layouts against plain
    /// arithmetic on the columns.
    #[test]
    fn wide_tile_promotion_takes_each_columns_block() {
        let n = 1000; // 8 N-blocks; tiles at 0, 192, ..., 960 (the last one's second block past N)
        let s = Fp8StagedScales {
            a: core::ptr::null(),
            b: core::ptr::null(),
            b_global: core::ptr::null(),
            mn: (256, n),
        };
        let (s_a, s_b) = ([3.0f32, 5.0], [7.0f32, 11.0]);
        for n0 in (0..n).step_by(192) {
            for t in [0, 1, 6, 127] {
                let mut acc = GmmaFp8AccumulationStagedWide::<96>::new(&s, (0, t), (0, n0), 8);
                acc.temp = [1.0; 96];
                acc.queue = [s_a[0], s_a[1], s_b[0], s_b[1]];
                let mut main = [0.0f32; 96];
                acc.promote(&mut main);
                for (v, &got) in main.iter().enumerate() {
                    // CLayout_64xN: value v = 4·j + q of thread t: column 8·j + 2·(t % 4) + q % 2,
                    // row half q / 2
                    let col = n0 + 8 * (v as i32 / 4) + 2 * (t % 4) + (v as i32 % 4) % 2;
                    // (past N, the second box holds the first block's scale again: clamped)
                    let second = usize::from(col / 128 != n0 / 128);
                    let want = s_a[(v % 4) / 2] * s_b[second];
                    assert_eq!(got, want, "n0 {n0}, thread {t}, value {v} (column {col})");
                }
            }
        }
    }
}
