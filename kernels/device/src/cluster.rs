//! Thread-block clusters (sm_90) under `cuda_std`-like names: the special registers,
//! `barrier.cluster` and `elect.sync` of `layout_types::cute::arch::cluster`. In the emulator
//! every CTA is a cluster of one; [`elect_one_sync`] is lane 0 there (the leader of a full warp).
//!
//! ```
//! assert_eq!(device::cluster::cluster_size(), 1); // off the GPU
//! ```

pub use layout_types::cute::arch::cluster::{
    block_id_in_cluster_x, block_id_in_cluster_y, block_id_in_cluster_z, block_rank_in_cluster,
    cluster_arrive, cluster_arrive_relaxed, cluster_dim_x, cluster_dim_y, cluster_dim_z,
    cluster_grid_dim_x, cluster_id_x, cluster_id_y, cluster_id_z, cluster_size, cluster_sync,
    cluster_wait,
};

/// `elect.sync`: true in exactly one lane of the full warp (CuTe's `elect_one_sync`); in the
/// emulator, lane 0.
///
/// ```no_run
/// if device::cluster::elect_one_sync() {
///     // one lane issues the warp's TMA copy
/// }
/// ```
#[inline(always)]
pub fn elect_one_sync() -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        layout_types::cute::arch::cluster::elect_one_sync()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::thread::lane_id() == 0
    }
}
