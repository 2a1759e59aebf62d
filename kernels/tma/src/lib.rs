//! The TMA kernel family (`target/ptx/tma.ptx`): Hopper's Tensor Memory Accelerator on the typed
//! layer (issue #25).
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

use device::shared::dynamic_shared_mem;
use device::thread::{sync_threads, thread_idx_x};
use device::tma::TmaDescriptor;
use device::{cluster, mbarrier, tma};

/// 128-byte aligned bytes: the alignment a TMA box in shared memory needs.
#[repr(C, align(128))]
pub struct A128([u8; 128]);

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
            tma::prefetch_descriptor(src);
            mbarrier::init(bar, 1);
            mbarrier::fence_init();
        }
        sync_threads();
        if cluster::elect_one_sync() && thread_idx_x() < 32 {
            mbarrier::arrive_expect_tx(bar, 16384);
            tma::load(src, bar, smem, [x, 0]);
            tma::load(src, bar, smem, [x]);
            tma::load(src, bar, smem, [x, 0, 0]);
            tma::load(src, bar, smem, [x, 0, 0, 1]);
            tma::load(src, bar, smem, [x, 0, 0, 1, 2]);
            tma::load_multicast(src, bar, smem, 3, [x, 0, 0, 1, 2]);
            tma::load_multicast(src, bar, smem, 3, [x, 0]);
            mbarrier::expect_tx(bar, 4);
            mbarrier::complete_tx(bar, 4);
            mbarrier::arrive_cluster(bar, cluster::block_rank_in_cluster() ^ 1);
        }
        mbarrier::wait_parity(bar, 0);
        tma::fence_proxy_async_shared_cta();
        sync_threads();
        if thread_idx_x() == 0 {
            tma::store(dst, smem, [x, 0]);
            tma::store(dst, smem, [x, 0, 3, 4, 5]);
            tma::commit_group();
            tma::wait_group_read::<0>();
            mbarrier::inval(bar);
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
