//! The persistent tile scheduler (CUTLASS's `PersistentTileSchedulerSm90`): the cluster tiles of
//! C in an L2-friendly order ([`SwizzledRaster`]), dealt out round-robin to the resident
//! clusters — cluster `c` of `C` takes tiles `c, c + C, c + 2C, ...`.

use layout_types::cute::prelude::*;
use layout_types::cute::tile_scheduler::SwizzledRaster;
use layout_types::cute::tma::TmaCoord;

/// The tiles a cluster computes, and where each CTA's tile of a cluster tile lies in C.
///
/// ```
/// use collective::scheduler::PersistentTileScheduler;
/// // C of 1000 × 600 in 128 × 256 CTA tiles, clusters of 1, this cluster 1 of 4
/// let s = PersistentTileScheduler::<1, 128, 256>::new((1000, 600), 1, 0, 1, 4);
/// assert_eq!(s.tiles(), 8 * 3);
/// let t: Vec<_> = s.iter().map(|t| s.origin(t)).collect();
/// assert_eq!(t.len(), 6);
/// assert_eq!(t[0], ((128, 0), 1)); // tile 1: M-tile 1, N-tile 0
/// ```
#[derive(Clone, Copy)]
pub struct PersistentTileScheduler<const SWIZZLE: i32, const BM: i32, const BN: i32> {
    raster: SwizzledRaster<SWIZZLE>,
    mn: (i32, i32),
    cluster: (i32, i32),
    first: i32,
    step: i32,
}

impl<const SWIZZLE: i32, const BM: i32, const BN: i32> PersistentTileScheduler<SWIZZLE, BM, BN> {
    /// The scheduler of C `(m, n)` for CTA `rank` of clusters of `cs` CTAs along M, this
    /// cluster `first` of `step` resident clusters.
    #[inline(always)]
    pub fn new((m, n): (i32, i32), cs: i32, rank: i32, first: i32, step: i32) -> Self {
        PersistentTileScheduler {
            raster: SwizzledRaster::new(m.ceil_div(BM * cs), n.ceil_div(BN)),
            mn: (m, n),
            cluster: (cs, rank),
            first,
            step,
        }
    }
    /// Cluster tiles of C.
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        self.raster.tiles()
    }
    /// This cluster's tiles.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = i32> {
        (self.first..self.tiles()).step_by(self.step.max(1) as usize)
    }
    /// Whether `tile` is this cluster's last.
    #[inline(always)]
    pub fn is_last(&self, tile: i32) -> bool {
        tile + self.step >= self.tiles()
    }
    /// This CTA's tile of cluster tile `tile`: its origin `(m0, n0)` in C and its M-tile index
    /// (cluster tile `(cm, cn)` holds CTA M-tiles `(rank, cm)` of the `(cs, ·)` split).
    #[inline(always)]
    pub fn origin(&self, tile: i32) -> ((i32, i32), i32) {
        let (cm, cn) = self.raster.tile(tile);
        let (cs, rank) = self.cluster;
        let bx = make_layout_left((cs, self.mn.0.ceil_div(BM * cs))).crd2idx((rank, cm));
        let o = make_identity_tensor(self.mn)
            .local_tile((BM, BN), (bx, cn))
            .at((_0, _0));
        let [m0, n0] = o.0.tma_coord();
        ((m0, n0), bx)
    }
}
