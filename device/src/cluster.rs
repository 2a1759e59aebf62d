//! Thread-block clusters (sm_90, CuTe's `cute/arch/cluster_sm90.hpp`): the cluster special
//! registers, `barrier.cluster` arrive/wait, `elect.sync` and the warp-uniform broadcast.
//!
//! Off the GPU a launch has no clusters: every CTA is a cluster of one (rank 0 of 1, cluster id =
//! block id is the caller's business), [`elect_one_sync`] is lane 0 of the emulated warp, and the
//! cluster-wide barriers, which need the hardware's threads, panic with a message saying so.

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

macro_rules! sreg {
    ($(#[$doc:meta])* $name:ident = $reg:literal, host $host:expr) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            #[cfg(target_arch = "nvptx64")]
            {
                let r: u32;
                // SAFETY: reading a special register.
                unsafe {
                    asm!(concat!("mov.u32 {r}, ", $reg, ";"), r = out(reg32) r,
                        options(pure, nomem, nostack, preserves_flags))
                };
                r
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                $host
            }
        }
    };
}

sreg!(
    /// `%cluster_ctarank`: this CTA's rank in its cluster (CuTe's `block_rank_in_cluster`).
    /// Off the GPU: 0.
    ///
    /// ```
    /// assert_eq!(device::cluster::block_rank_in_cluster(), 0);
    /// ```
    block_rank_in_cluster = "%cluster_ctarank", host 0
);
sreg!(
    /// `%cluster_nctarank`: the number of CTAs in this cluster. Off the GPU: 1.
    ///
    /// ```
    /// assert_eq!(device::cluster::cluster_size(), 1);
    /// ```
    cluster_size = "%cluster_nctarank", host 1
);
sreg!(
    /// `%nclusterid.x`: the number of clusters in the grid along x (CuTe's
    /// `cluster_grid_dims().x`). Off the GPU: 1.
    ///
    /// ```
    /// assert_eq!(device::cluster::cluster_grid_dim_x(), 1);
    /// ```
    cluster_grid_dim_x = "%nclusterid.x", host 1
);
sreg!(
    /// `%clusterid.x`: this cluster's index in the grid along x (CuTe's `cluster_id_in_grid().x`).
    /// Off the GPU: 0.
    ///
    /// ```
    /// let _ = device::cluster::cluster_id_x();
    /// ```
    cluster_id_x = "%clusterid.x", host 0
);
sreg!(
    /// `%clusterid.y`. Off the GPU: 0.
    ///
    /// ```
    /// let _ = device::cluster::cluster_id_y();
    /// ```
    cluster_id_y = "%clusterid.y", host 0
);
sreg!(
    /// `%clusterid.z`. Off the GPU: 0.
    ///
    /// ```
    /// let _ = device::cluster::cluster_id_z();
    /// ```
    cluster_id_z = "%clusterid.z", host 0
);
sreg!(
    /// `%cluster_ctaid.x`: this CTA's index in its cluster along x (CuTe's
    /// `block_id_in_cluster().x`). Off the GPU: 0.
    ///
    /// ```
    /// assert_eq!(device::cluster::block_id_in_cluster_x(), 0);
    /// ```
    block_id_in_cluster_x = "%cluster_ctaid.x", host 0
);
sreg!(
    /// `%cluster_ctaid.y`. Off the GPU: 0.
    ///
    /// ```
    /// assert_eq!(device::cluster::block_id_in_cluster_y(), 0);
    /// ```
    block_id_in_cluster_y = "%cluster_ctaid.y", host 0
);
sreg!(
    /// `%cluster_ctaid.z`. Off the GPU: 0.
    ///
    /// ```
    /// assert_eq!(device::cluster::block_id_in_cluster_z(), 0);
    /// ```
    block_id_in_cluster_z = "%cluster_ctaid.z", host 0
);
sreg!(
    /// `%cluster_nctaid.x`: the cluster's extent along x (CuTe's `cluster_shape().x`). Off the
    /// GPU: 1.
    ///
    /// ```
    /// assert_eq!(device::cluster::cluster_dim_x(), 1);
    /// ```
    cluster_dim_x = "%cluster_nctaid.x", host 1
);
sreg!(
    /// `%cluster_nctaid.y`. Off the GPU: 1.
    ///
    /// ```
    /// assert_eq!(device::cluster::cluster_dim_y(), 1);
    /// ```
    cluster_dim_y = "%cluster_nctaid.y", host 1
);
sreg!(
    /// `%cluster_nctaid.z`. Off the GPU: 1.
    ///
    /// ```
    /// assert_eq!(device::cluster::cluster_dim_z(), 1);
    /// ```
    cluster_dim_z = "%cluster_nctaid.z", host 1
);

#[cfg(not(target_arch = "nvptx64"))]
#[cold]
fn needs_gpu(what: &str) -> ! {
    panic!("{what} needs the GPU's threads (nvptx64 only)")
}

/// `barrier.cluster.arrive.aligned` (CuTe's `cluster_arrive`): this thread arrives on the
/// cluster barrier, with release semantics; every thread of every CTA of the cluster arrives
/// once before [`cluster_wait`]. Off the GPU: a panic.
///
/// ```no_run
/// use device::cluster::{cluster_arrive, cluster_wait};
/// cluster_arrive(); // on the GPU: every thread of the cluster
/// cluster_wait();
/// ```
#[inline(always)]
pub fn cluster_arrive() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "barrier.cluster.arrive.aligned;",
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    needs_gpu("barrier.cluster.arrive")
}

/// `barrier.cluster.arrive.relaxed.aligned` (CuTe's `cluster_arrive_relaxed`): as
/// [`cluster_arrive`] without ordering this thread's memory accesses. Off the GPU: a panic.
///
/// ```no_run
/// device::cluster::cluster_arrive_relaxed();
/// device::cluster::cluster_wait();
/// ```
#[inline(always)]
pub fn cluster_arrive_relaxed() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "barrier.cluster.arrive.relaxed.aligned;",
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    needs_gpu("barrier.cluster.arrive.relaxed")
}

/// `barrier.cluster.wait.aligned` (CuTe's `cluster_wait`): waits until every thread of the
/// cluster has arrived (acquire semantics). Off the GPU: a panic.
///
/// ```no_run
/// device::cluster::cluster_arrive();
/// device::cluster::cluster_wait();
/// ```
#[inline(always)]
pub fn cluster_wait() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "barrier.cluster.wait.aligned;",
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    needs_gpu("barrier.cluster.wait")
}

/// [`cluster_arrive`] then [`cluster_wait`] (CuTe's `cluster_sync`).
///
/// ```no_run
/// device::cluster::cluster_sync();
/// ```
#[inline(always)]
pub fn cluster_sync() {
    cluster_arrive();
    cluster_wait();
}

/// `elect.sync _|p, 0xffffffff` (CuTe's `elect_one_sync`): true in exactly one lane of the
/// (fully active) warp, the same lane for every caller. In the emulator: lane 0 (the leader of a
/// full warp).
///
/// ```no_run
/// if device::cluster::elect_one_sync() {
///     // one lane of the warp issues the TMA copy
/// }
/// ```
#[inline(always)]
pub fn elect_one_sync() -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let e: u32;
        // SAFETY: warp-synchronous; every lane of the warp executes it.
        unsafe {
            asm!("{{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 {e}, 1, 0, p; }}",
                e = out(reg32) e, options(nostack, preserves_flags))
        };
        e != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::thread::lane_id() == 0
    }
}

/// `v` as lane 0 of the warp holds it (`shfl.sync.idx.b32 v, v, 0, 0x1f, 0xffffffff`): for a
/// value every lane already holds the same, the broadcast changes nothing but tells ptxas it is
/// warp-uniform, so it can live in a uniform register (CUTLASS's
/// `canonical_warp_group_idx` does this with the warpgroup index). Every lane of the warp
/// executes it. Off the GPU: `v` (one thread's view of a warp-uniform value).
///
/// ```
/// assert_eq!(device::cluster::warp_uniform_u32(7), 7);
/// ```
#[inline(always)]
pub fn warp_uniform_u32(v: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: warp-synchronous; every lane of the warp executes it.
        unsafe {
            asm!("shfl.sync.idx.b32 {r}, {v}, 0, 0x1f, 0xffffffff;",
                r = out(reg32) r, v = in(reg32) v, options(nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        v
    }
}
