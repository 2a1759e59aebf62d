//! The cooperative schedule of the FP8 GEMM with promotion (CUTLASS's
//! `KernelTmaWarpSpecializedCooperativeFP8BlockScaledAccum`): the
//! [`gemm_tma_warpspecialized_cooperative`](crate::kernel::gemm_tma_warpspecialized_cooperative)
//! schedule over 128 × 128 tiles with [`CollectiveMmaFp8`]'s producer and consumers (one
//! producer warpgroup, two consumer warpgroups of 64 × 128; clusters of 1 or 2 CTAs along M
//! sharing B's k-tiles; persistent over the [`PersistentTileScheduler`]'s tiles).
//!
//! The epilogue is the family's [`CollectiveEpilogue`] of a warpgroup's 64 × 256 accumulators:
//! the 64 × 128 tile goes in as the first half (the second half zeros) with C's columns clipped
//! at the tile's end, so the epilogue must store by its bound-checked direct path (a TMA store of
//! the second half would write the next tile's columns); the family's entry asks for it.

use device::cluster::{
    block_rank_in_cluster, cluster_arrive_relaxed, cluster_grid_dim_x, cluster_id_x, cluster_size,
    cluster_wait,
};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{thread_idx_x, trap};
use device::tma::{TmaDescriptor, prefetch_descriptor};
use device::wgmma::{FenceOperand, MmaAsync, setmaxnreg_dec, setmaxnreg_inc};
use layout_types::cute::gmma_operand::{
    GemmSharedStorage, SmemOperand, SmemOperandMulticast, SmemTile,
};
use layout_types::cute::pipeline::PipelineTmaAsync;
use layout_types::cute::prelude::*;

use crate::epilogue::CollectiveEpilogue;
use crate::kernel::{A_ELEMS, BM, CONSUMER_WARPGROUPS};
use crate::mainloop_fp8::{CollectiveMmaFp8, ConsumerOrder, Fp8BlockScales};
use crate::scheduler::PersistentTileScheduler;

/// The CTA tile's N.
pub const BN_FP8: i32 = 128;
/// Elements (16-bit units) of B's stage tile (`128 × 64`: 128 FP8 elements of K).
pub const B_ELEMS_FP8: usize = 128 * 64;

/// The kernel's shared memory: the mainloop's stages, the epilogue's storage, the pipeline's
/// barriers (its `size_of` is the launch's dynamic shared memory).
pub type SharedStorageFp8<Epi, const STAGES: usize> = GemmSharedStorage<
    SmemTile<A_ELEMS>,
    SmemTile<B_ELEMS_FP8>,
    <Epi as CollectiveEpilogue>::Storage,
    STAGES,
>;

/// The kernel body: `C = epilogue(A·Bᵀ)` with fp32 promotion every k-tile and, with
/// `scales.a` not null, block scales ([`Fp8BlockScales`]); A and B K-major through their tensor
/// maps `tma = (A, B)` (K counted in 16-bit units: `k` is K/2), tiles in bands of `swizzle`
/// N-tiles; with `ORDERED`, the consumer warpgroups take turns issuing each k-tile's `wgmma`s
/// ([`ConsumerOrder`]); with `OVERLAPPED`, each promotes a k-tile while the next one's `wgmma`s
/// run ([`CollectiveMmaFp8::mma_overlapped`]).
///
/// # Safety
/// As [`gemm_tma_warpspecialized_cooperative`](crate::kernel::gemm_tma_warpspecialized_cooperative)
/// with `size_of::<SharedStorageFp8<Epi, STAGES>>()` bytes of shared memory and B's box of
/// `128/cs` rows; `epi` asks for the epilogue's direct path (module docs); `scales` as
/// [`CollectiveMmaFp8::mma`] requires.
#[inline(always)]
pub unsafe fn gemm_fp8_tma_warpspecialized_cooperative<
    E,
    MA: SmemOperand<_128, _64>,
    MB: SmemOperandMulticast<_128, _64>,
    Epi: CollectiveEpilogue,
    const STAGES: usize,
    const ORDERED: bool,
    const OVERLAPPED: bool,
>(
    tma: (*const TmaDescriptor, *const TmaDescriptor),
    (m, n, k): (i32, i32, i32),
    swizzle: i32,
    scales: Fp8BlockScales,
    epi: Epi::Args,
) where
    [f32; 64]: MmaAsync<E> + FenceOperand,
{
    let smem = dynamic_shared_mem::<SharedStorageFp8<Epi, STAGES>>();
    if to_shared_addr(smem as *mut u8) & 1023 != 0 {
        trap();
    }
    let tid = thread_idx_x() as i32;
    let mainloop = unsafe { (&raw mut (*smem).a, &raw mut (*smem).b) };
    let (cs, rank) = (cluster_size(), block_rank_in_cluster());
    let pipe = unsafe {
        PipelineTmaAsync::<STAGES, CollectiveMmaFp8<E, MA, MB, STAGES>>::init(
            &raw mut (*smem).pipeline,
            tid == 0,
            CONSUMER_WARPGROUPS * cs,
            || {
                cluster_arrive_relaxed();
                cluster_wait();
            },
        )
    };
    let sched = PersistentTileScheduler::<BM, BN_FP8>::new(
        (m, n),
        cs as i32,
        rank as i32,
        cluster_id_x() as i32,
        cluster_grid_dim_x() as i32,
        swizzle,
    );
    let k_tiles = k.ceil_div(64);
    // (thread in warpgroup, warpgroup)
    let (t, wg): (i32, i32) = make_layout_left((_128, _3)).idx2crd(tid);
    if wg == 0 {
        setmaxnreg_dec::<40>();
        if t == 0 {
            unsafe {
                prefetch_descriptor(tma.0);
                prefetch_descriptor(tma.1);
            }
            let mut prod = pipe.producer();
            for tile in sched.iter() {
                let (mn0, _) = sched.origin(tile);
                unsafe {
                    CollectiveMmaFp8::<E, MA, MB, STAGES>::load(
                        &mut prod,
                        mainloop,
                        tma,
                        mn0,
                        k_tiles,
                        (cs, rank as i32),
                    )
                };
            }
            unsafe { prod.producer_tail() };
        }
        return;
    }
    setmaxnreg_inc::<232>();
    let wg = wg - 1;
    let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
    let mut cons = pipe.consumer_cluster(lane == 0 && (warp as u32) < cs, warp as u32);
    // the consumers take turns issuing (both run every tile's k-tiles)
    let order = ConsumerOrder::<ORDERED>::init(wg);
    for tile in sched.iter() {
        let ((m0, n0), _) = sched.origin(tile);
        let wg_m0 = m0 + make_layout_left((_64, _2)).crd2idx((0i32, wg)).value() as i32;
        // SAFETY: all-zero bits are 0.0 (the value a tile of K = 0 stores)
        let mut main: [f32; 64] = unsafe { core::mem::zeroed() };
        if OVERLAPPED {
            unsafe {
                CollectiveMmaFp8::<E, MA, MB, STAGES>::mma_overlapped(
                    &mut cons,
                    &order,
                    mainloop,
                    &mut main,
                    (wg, t),
                    (wg_m0, n0),
                    k_tiles,
                    &scales,
                )
            };
        } else {
            unsafe {
                CollectiveMmaFp8::<E, MA, MB, STAGES>::mma(
                    &mut cons,
                    &order,
                    mainloop,
                    &mut main,
                    (wg, t),
                    (wg_m0, n0),
                    k_tiles,
                    &scales,
                )
            };
        }
        // the 64 × 128 tile as the first half of the epilogue's 64 × 256 (m64n256's fragment is
        // m64n128's twice along N), C's columns clipped at the tile's end
        let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
        device::unroll!(16, |j| device::unroll!(4, |q| acc[4 * j + q] =
            main[4 * j + q]));
        let n_end = n.min(n0 + BN_FP8);
        unsafe {
            Epi::store(
                &epi,
                &acc,
                (m, n_end),
                (wg_m0, n0),
                t,
                &raw mut (*smem).epilogue,
                wg,
                sched.is_last(tile),
            )
        };
    }
}
