//! The TMA kernel family (`target/ptx/tma.ptx`): Hopper's Tensor Memory Accelerator on the typed
//! layer (issue #25).
//!
//! `tma_copy_{row,col}_{b4,b2}`: a 2-D copy `dst = src` of 4- or 2-byte elements entirely by
//! TMA: each CTA streams its tiles gmem → smem by TMA loads into a [`PipelineTmaAsync`] of
//! `STAGES` buffers (full barriers armed with the box's transaction bytes) and smem → gmem by TMA
//! stores, releasing a buffer when its store has finished reading it. The tensors are seen in
//! TMA order, `(contiguous extent C, strided extent S)`, so row- and column-major matrices are the
//! same kernel (the host encodes the maps). Edges: TMA zero-fills out-of-bounds loads and drops
//! out-of-bounds stores, so every tile is copied whole.
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

pub mod body;
pub mod config;

use device::shared::dynamic_shared_mem;
use device::thread::{block_idx_x, grid_dim_x, sync_threads, thread_idx_x};
use device::tma::TmaDescriptor;
use device::{cluster, mbarrier, tma};
#[allow(unused_imports)]
use layout_types::cutlass::pipeline::PipelineTmaAsync;

/// 128-byte aligned bytes: the alignment a TMA box in shared memory needs.
#[repr(C, align(128))]
pub struct A128([u8; 128]);

macro_rules! tma_copy_entry {
    ($(#[$doc:meta])* $kernel:ident = $cfg:ident) => {
        device::kernel! {
        $(#[$doc])*
        ///
        /// Launch with 32 threads, `body::<cfg>::SMEM_BYTES` of dynamic shared memory and any
        /// grid: CTA `b` copies tiles `b, b + grid, ...` (one tile per CTA when the grid has a
        /// CTA per tile, persistent otherwise).
        ///
        /// # Safety
        /// `src` / `dst_map` are tensor maps (host `make_tma_copy`, TMA load / store) of the
        /// `(c, s)` and `(c_tma, s)` tensors with the configuration's box, `c_tma` the
        /// contiguous extent rounded down to 16 bytes; `dst` (leading dimension `ldd`) is the
        /// destination, where the last `c - c_tma` columns are written by plain stores.
        pub unsafe fn $kernel(
            src: TmaDescriptor,
            dst_map: TmaDescriptor,
            c: i32,
            s: i32,
            c_tma: i32,
            dst: *mut u8,
            ldd: i64,
        ) {
            let src = device::grid_constant!($kernel, 0, src);
            let dst_map = device::grid_constant!($kernel, 1, dst_map);
            unsafe { body::$cfg::run(this_cta(), src, dst_map, c, s, c_tma, dst as *mut _, ldd) }
        }
        }
    };
}

// One entry per storage order so that tables name them apart; the body is the same (the host
// encodes row-major `(M, N)` as `(C, S) = (N, M)` and column-major as `(M, N)`).
tma_copy_entry!(
    /// `dst = src`, row-major 4-byte elements: 128x32 boxes (32 rows of 128), 4 stages.
    tma_copy_row_b4 = B4
);
tma_copy_entry!(
    /// `dst = src`, column-major 4-byte elements: 128x32 boxes (32 columns of 128), 4 stages.
    tma_copy_col_b4 = B4
);
tma_copy_entry!(
    /// `dst = src`, row-major 2-byte elements: 256x32 boxes, 4 stages.
    tma_copy_row_b2 = B2
);
tma_copy_entry!(
    /// `dst = src`, column-major 2-byte elements: 256x32 boxes, 4 stages.
    tma_copy_col_b2 = B2
);
// The same bodies under the names the host launches with a persistent grid (as many CTAs as
// fit, each streaming tiles through all 4 stages), so checks and benchmarks name them apart.
tma_copy_entry!(
    /// [`tma_copy_row_b4`], launched persistent.
    tma_copy_row_b4_persistent = B4
);
tma_copy_entry!(
    /// [`tma_copy_col_b4`], launched persistent.
    tma_copy_col_b4_persistent = B4
);
tma_copy_entry!(
    /// [`tma_copy_row_b2`], launched persistent.
    tma_copy_row_b2_persistent = B2
);
tma_copy_entry!(
    /// [`tma_copy_col_b2`], launched persistent.
    tma_copy_col_b2_persistent = B2
);

/// This CTA's context on the GPU.
#[inline(always)]
fn this_cta() -> body::Cta<fn()> {
    body::Cta {
        block: block_idx_x(),
        grid: grid_dim_x(),
        leader: cluster::elect_one_sync() && thread_idx_x() < 32,
        smem: dynamic_shared_mem::<A128>() as *mut u8,
        sync: sync_threads,
    }
}

device::kernel! {
/// Not launched: every Hopper data-movement wrapper of `device::{mbarrier, tma, cluster}` once
/// (TMA loads of rank 1 to 5, multicast, stores, mbarrier arrive/expect/complete/remote arrive,
/// `elect.sync`, the cluster registers and barriers), so that `cargo xtask build-kernels` runs
/// ptxas over their exact syntax and `tests/ptx_tma.rs` checks the by-value tensor maps
/// (`.param .align 64`, no `.local` copy).
///
/// # Safety
/// Not meant to run.
pub unsafe fn tma_instruction_probe(src: TmaDescriptor, dst: TmaDescriptor, x: i32) {
    unsafe {
        let src = device::grid_constant!(tma_instruction_probe, 0, src);
        let dst = device::grid_constant!(tma_instruction_probe, 1, dst);
        let smem = dynamic_shared_mem::<A128>() as *mut u8;
        let bar = smem.add(16384) as *mut u64;
        if thread_idx_x() == 0 {
            tma::prefetch_tma_descriptor(src);
            mbarrier::mbarrier_init(bar, 1);
            mbarrier::fence_barrier_init();
        }
        sync_threads();
        if cluster::elect_one_sync() && thread_idx_x() < 32 {
            mbarrier::mbarrier_arrive_expect_tx(bar, 16384);
            tma::tma_load(src, bar, smem, [x, 0]);
            tma::tma_load(src, bar, smem, [x]);
            tma::tma_load(src, bar, smem, [x, 0, 0]);
            tma::tma_load(src, bar, smem, [x, 0, 0, 1]);
            tma::tma_load(src, bar, smem, [x, 0, 0, 1, 2]);
            tma::tma_load_multicast(src, bar, smem, 3, [x, 0, 0, 1, 2]);
            tma::tma_load_multicast(src, bar, smem, 3, [x, 0]);
            mbarrier::mbarrier_expect_tx(bar, 4);
            mbarrier::mbarrier_complete_tx(bar, 4);
            mbarrier::mbarrier_arrive_cluster(bar, cluster::block_rank_in_cluster() ^ 1);
        }
        mbarrier::mbarrier_wait_parity(bar, 0);
        tma::tma_store_fence();
        sync_threads();
        if thread_idx_x() == 0 {
            tma::tma_store(dst, smem, [x, 0]);
            tma::tma_store(dst, smem, [x, 0, 3, 4, 5]);
            tma::tma_store_arrive();
            tma::tma_store_wait::<0>();
            mbarrier::mbarrier_inval(bar);
            let v = cluster::cluster_size() + cluster::cluster_id_x() + cluster::cluster_id_y() + cluster::cluster_id_z()
              + cluster::block_id_in_cluster_x() + cluster::block_id_in_cluster_y() + cluster::block_id_in_cluster_z()
              + cluster::cluster_dim_x() + cluster::cluster_dim_y() + cluster::cluster_dim_z();
            *(smem as *mut u32) = v;
        }
        cluster::cluster_arrive_relaxed();
        cluster::cluster_wait();
        cluster::cluster_arrive();
        cluster::cluster_wait();
    }
}
}

/// The tile [`tma_multicast_cluster2`] moves: 32 rows of 32 4-byte elements, row-major in
/// shared memory (the TMA box; the host encodes the map of a 32×32 row-major `u32` matrix with
/// it).
pub type MulticastBox = layout_types::cute::layout::Layout<
    (
        layout_types::cute::consts::_32,
        layout_types::cute::consts::_32,
    ),
    (
        layout_types::cute::consts::_32,
        layout_types::cute::consts::_1,
    ),
>;

device::kernel! {
/// The cluster proof (issue #25): a cluster of 2 CTAs, where CTA rank 0 loads one 32×32 `u32`
/// tile by `tma_load_multicast` into the shared memory of both CTAs (mask `0b11`), each CTA
/// waiting on its own mbarrier (the multicast completes the tile's bytes on the barrier at the
/// same offset in every CTA of the mask); both then write their copy to `dst[rank]`.
/// `barrier.cluster` arrive/wait orders the barriers' initialization before the multicast and
/// keeps both CTAs alive until every copy has landed.
///
/// Launch a grid of 2 CTAs as ONE cluster of 2 (`cuLaunchKernelEx` with the cluster-dimension
/// attribute; without it the multicast names a CTA that does not exist), 128 threads, 4096 + 8
/// bytes of dynamic shared memory.
///
/// # Safety
/// `src`: the tensor map of a 32×32 row-major `u32` matrix with box [`MulticastBox`], no
/// swizzle; `dst`: 2·32·32 `u32`.
pub unsafe fn tma_multicast_cluster2(src: TmaDescriptor, dst: *mut u32) {
    use layout_types::cute::prelude::*;
    use layout_types::cute::atom::tma::{TmaAtom, TmaLoadMulticast};
    let src = device::grid_constant!(tma_multicast_cluster2, 0, src);
    let tid = thread_idx_x() as i32;
    let rank = cluster::block_rank_in_cluster() as i32;
    let smem = dynamic_shared_mem::<A128>() as *mut u32;
    let tile = make_tensor(make_smem_ptr(smem), MulticastBox::default());
    // SAFETY: the barrier follows the 4 KiB tile in the launch's shared memory.
    let bar = unsafe { smem.add(32 * 32) } as *mut u64;
    let atom = TmaAtom::<TmaLoadMulticast, u32, MulticastBox>::new(src);
    if tid == 0 {
        unsafe { mbarrier::mbarrier_init(bar, 1) };
        mbarrier::fence_barrier_init();
    }
    // the CTA converges first: `barrier.cluster.*.aligned` must be executed by every thread of
    // a warp at the same instruction, and without a convergent barrier here LLVM duplicates the
    // asm into both sides of the `tid == 0` branch (a hang on the GPU)
    sync_threads();
    // both CTAs' barriers are initialized before rank 0's multicast can complete bytes on them
    cluster::cluster_arrive_relaxed();
    cluster::cluster_wait();
    if tid == 0 {
        unsafe {
            mbarrier::mbarrier_arrive_expect_tx(bar, TmaAtom::<TmaLoadMulticast, u32, MulticastBox>::TX_BYTES);
            if rank == 0 {
                tma::prefetch_tma_descriptor(src);
                atom.copy(bar, smem, 0b11, [0, 0]);
            }
        }
    }
    unsafe { mbarrier::mbarrier_wait_parity(bar, 0) };
    // dst[rank] = this CTA's copy, through the tile's layout
    let out = make_tensor(make_gmem_ptr(dst), make_layout((32, 32, 2), (32, 1, 1024)));
    for i in (tid..32 * 32).step_by(128) {
        let (r, c): (i32, i32) = make_layout_left((32, 32)).idx2crd(i);
        // SAFETY: inside the tile and inside `dst`.
        unsafe { *out.ptr((r, c, rank)) = *tile.ptr((r, c)) };
    }
    // neither CTA leaves while the cluster's shared memory or barriers may still be in use
    cluster::cluster_arrive();
    cluster::cluster_wait();
}
}
