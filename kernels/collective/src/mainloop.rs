//! The TMA + GMMA mainloop collective (CUTLASS's `CollectiveMma` with the
//! `MainloopSm90TmaGmmaWarpSpecialized` policy, SS): A's `(128, 64)` and B's `(256, 64)`
//! k-tiles stream through `STAGES` shared-memory stages, loaded by one producer thread with TMA
//! (B multicast across a cluster of 2 along M) and read by `wgmma.m64n256k16` of each consumer
//! warpgroup. The element `E` and the majorities `MA`, `MB` are type parameters: the
//! majorities' tiles, boxes and descriptors come from their
//! [`SmemOperand`] bundles.

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

/// The mainloop over `E` inputs, A `MA`-major, B `MB`-major, `STAGES` stages.
pub struct CollectiveMma<E, MA, MB, const STAGES: usize> {
    _p: PhantomData<(E, MA, MB)>,
}

impl<E, MA, MB, const STAGES: usize> TransactionBytes for CollectiveMma<E, MA, MB, STAGES>
where
    MA: SmemOperand<_128, _64>,
    MB: SmemOperand<_256, _256>,
{
    /// A stage's full barrier waits for A's and B's k-tiles.
    const TX_BYTES: u32 = (MA::BYTES + MB::BYTES) as u32;
}

/// The producer's handle of the mainloop's pipeline.
pub type Producer<E, MA, MB, const STAGES: usize> =
    PipelineProducer<STAGES, CollectiveMma<E, MA, MB, STAGES>>;
/// A consumer's handle of the mainloop's pipeline.
pub type Consumer<E, MA, MB, const STAGES: usize> =
    PipelineConsumer<STAGES, CollectiveMma<E, MA, MB, STAGES>>;

impl<E, MA, MB, const STAGES: usize> CollectiveMma<E, MA, MB, STAGES>
where
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<_256, _256>,
    [f32; 128]: MmaAsync<E> + FenceOperand,
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
    pub unsafe fn load<const NA: usize, const NB: usize>(
        prod: &mut Producer<E, MA, MB, STAGES>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
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
    pub unsafe fn load_k<const NA: usize, const NB: usize>(
        prod: &mut Producer<E, MA, MB, STAGES>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        (m0, n0): (i32, i32),
        (k_begin, k_count): (i32, i32),
        k_tiles: i32,
        (cs, rank): (u32, i32),
    ) {
        let () = Fits::<MA, MB, NA, NB>::OK;
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

    /// A consumer warpgroup's `wgmma`s over one tile's `k_tiles` k-tiles into `acc` (its 64-row
    /// block `wg` of A's tile times B's tile): the first `wgmma` has scale-d 0; each k-tile's
    /// stage is released once `wgmma.wait_group 1` says the next k-tile's `wgmma`s are the only
    /// ones in flight (CUTLASS's `mma` with `K_PIPE_MMAS = 1`).
    ///
    /// # Safety
    /// All 128 threads of the consumer warpgroup; a producer fills the stages.
    #[inline(always)]
    pub unsafe fn mma<const NA: usize, const NB: usize>(
        cons: &mut Consumer<E, MA, MB, STAGES>,
        smem: (*mut [SmemTile<NA>; STAGES], *mut [SmemTile<NB>; STAGES]),
        acc: &mut [f32; 128],
        wg: i32,
        k_tiles: i32,
    ) {
        let () = Fits::<MA, MB, NA, NB>::OK;
        let mut pending: Option<ConsumerStage<STAGES>> = None;
        // the tile's first wgmma overwrites the accumulators (scale-d 0); the zeros the caller
        // gives are what a tile of K = 0 stores
        let mut scale = ScaleOut::Zero;
        for _ in 0..k_tiles {
            let full = unsafe { cons.consumer_wait() };
            let i = full.index() as usize;
            let (a, b) = stage_tiles(smem, i);
            fence_operand(acc);
            fence();
            device::unroll!(4, |kb| {
                // SAFETY: the whole warpgroup; canonical layouts in this CTA's shared memory,
                // loaded (the full barrier's phase completed).
                unsafe {
                    mma_async_ss::<E, MA, MB, One, One, _>(
                        MA::gmma_desc(a, wg, kb as i32),
                        MB::gmma_desc(b, 0, kb as i32),
                        acc,
                        scale,
                    )
                };
                scale = ScaleOut::One;
            });
            commit_group();
            wait_group::<1>(); // the previous k-tile's wgmmas have read their stage
            fence_operand(acc);
            if let Some(done) = pending.replace(full) {
                unsafe { cons.consumer_release(done) };
            }
        }
        wait_group::<0>();
        fence_operand(acc);
        if let Some(done) = pending {
            unsafe { cons.consumer_release(done) };
        }
    }
}

/// The storage's tiles are the operands' (a compile-time check).
pub struct Fits<MA, MB, const NA: usize, const NB: usize>(PhantomData<(MA, MB)>);
impl<MA: SmemOperand<_128, _64>, MB: SmemOperand<_256, _256>, const NA: usize, const NB: usize>
    Fits<MA, MB, NA, NB>
{
    /// `NA == MA::ELEMS && NB == MB::ELEMS`.
    pub const OK: () = assert!(
        NA == MA::ELEMS && NB == MB::ELEMS,
        "MainloopStorage: the stage tiles must hold the operands' tiles"
    );
}
