//! How a cluster's CTAs lie over C's CTA tiles, and so which operand their TMA loads share
//! (CUTLASS's `ClusterShape`, `Shape<_2,_1,_1>` or `Shape<_1,_2,_1>`, of the mainloop's dispatch
//! policy): [`ClusterM`], the cluster's CTAs on neighbouring M-tiles of one N-tile, B's tile
//! multicast; [`ClusterN`], on neighbouring N-tiles of one M-tile, A's tile multicast. The
//! cluster's size `cs` (1 or 2, `%cluster_nctarank`) is the launch's; each CTA loads `1/cs` of
//! the shared tile's rows and multicasts them to the cluster, every CTA the other operand whole.
//!
//! ```
//! use collective::cluster::{ClusterM, ClusterN, ClusterShape};
//! assert_eq!((ClusterM::shape(2), ClusterN::shape(2), ClusterN::shape(1)), ((2, 1), (1, 2), (1, 1)));
//! assert_eq!((ClusterM::coord(1), ClusterN::coord(1)), ((1, 0), (0, 1)));
//! ```

use device::tma::TmaDescriptor;
use layout_types::cute::prelude::*;
use layout_types::cutlass::gmma_operand::{SmemOperand, SmemOperandMulticast};
use layout_types::cutlass::tile_scheduler::ClusterAxis;

use crate::tile::TileN;

/// The shape of a cluster of `cs` CTAs over C's CTA tiles.
pub trait ClusterShape {
    /// The mode its CTAs lie along (the host's name for it).
    const AXIS: ClusterAxis;
    /// `(cm, cn)`: the cluster's CTAs along M and along N.
    #[inline(always)]
    fn shape(cs: i32) -> (i32, i32) {
        Self::AXIS.shape(cs)
    }
    /// The coordinate `(x, y)` in the cluster's shape of the CTA of rank `rank`
    /// (`%cluster_ctarank`): its index along the cluster's mode (no division).
    #[inline(always)]
    fn coord(rank: i32) -> (i32, i32) {
        Self::AXIS.coord(rank)
    }
}

/// Clusters along M: the CTAs of a cluster compute neighbouring M-tiles of one N-tile and
/// share B's tile (each loads `BN/cs` of its rows, multicast).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClusterM;

/// Clusters along N: the CTAs of a cluster compute neighbouring N-tiles of one M-tile and
/// share A's tile (each loads `BM/cs` of its rows, multicast): where C has one row of M-tiles
/// (small M), the only operand a cluster can share.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClusterN;

impl ClusterShape for ClusterM {
    const AXIS: ClusterAxis = ClusterAxis::M;
}

impl ClusterShape for ClusterN {
    const AXIS: ClusterAxis = ClusterAxis::N;
}

/// The producer's TMA loads of one k-tile's A (`MA`-major, `BM` rows) and B (`MB`-major, `BN`
/// rows) for a cluster shape: the shared operand's share multicast, the other loaded whole.
pub trait ClusterLoad<MA, MB, BM, BN: TileN>: ClusterShape {
    /// Loads A's rows `m0..` into `a` and B's rows `n0..` into `b` at column `k0`, completing
    /// on `bar`, as CTA `rank` of a cluster of `cs`.
    ///
    /// # Safety
    /// The one producer thread; `tma` are A's and B's tensor maps with the boxes of `MA` and
    /// `MB` (the shared operand's `1/cs` box with `cs = 2`); `a`, `b` are one stage's tiles in
    /// shared memory and `bar` its full barrier, expecting both tiles' bytes.
    #[allow(clippy::too_many_arguments)]
    unsafe fn load(
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        bar: *mut u64,
        ab: (*mut u16, *mut u16),
        mn0: (i32, i32),
        k0: i32,
        cluster: (u32, i32),
    );
}

impl<MA, MB, BM, BN> ClusterLoad<MA, MB, BM, BN> for ClusterM
where
    MA: SmemOperand<BM, _64>,
    BN: TileN,
    MB: SmemOperandMulticast<BN, BN::BBlock>,
{
    #[inline(always)]
    unsafe fn load(
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        bar: *mut u64,
        (a, b): (*mut u16, *mut u16),
        (m0, n0): (i32, i32),
        k0: i32,
        cluster: (u32, i32),
    ) {
        unsafe {
            MA::tma_load(tma.0, bar, a, m0, k0);
            load_shared::<MB, BN, BN::BBlock>(tma.1, bar, b, n0, k0, cluster);
        }
    }
}

impl<MA, MB, BM, BN> ClusterLoad<MA, MB, BM, BN> for ClusterN
where
    MA: SmemOperandMulticast<BM, _64>,
    BN: TileN,
    MB: SmemOperand<BN, BN::BBlock>,
{
    #[inline(always)]
    unsafe fn load(
        tma: (*const TmaDescriptor, *const TmaDescriptor),
        bar: *mut u64,
        (a, b): (*mut u16, *mut u16),
        (m0, n0): (i32, i32),
        k0: i32,
        cluster: (u32, i32),
    ) {
        unsafe {
            load_shared::<MA, BM, _64>(tma.0, bar, a, m0, k0, cluster);
            MB::tma_load(tma.1, bar, b, n0, k0);
        }
    }
}

/// The shared operand's k-tile: the whole tile in a cluster of `cs = 1`, else this CTA's
/// (`rank`'s) share, multicast to the cluster.
///
/// # Safety
/// As [`ClusterLoad::load`], for the one operand `M` and its tensor map `desc`.
#[inline(always)]
unsafe fn load_shared<M: SmemOperandMulticast<Rows, Block>, Rows, Block>(
    desc: *const TmaDescriptor,
    bar: *mut u64,
    buf: *mut u16,
    mn0: i32,
    k0: i32,
    (cs, rank): (u32, i32),
) {
    unsafe {
        if cs == 1 {
            M::tma_load(desc, bar, buf, mn0, k0);
        } else {
            M::tma_load_multicast(desc, bar, buf, mn0, k0, rank);
        }
    }
}
