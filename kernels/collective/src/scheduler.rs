//! The persistent tile scheduler (CUTLASS's `PersistentTileSchedulerSm90`): the cluster tiles of
//! C in an L2-friendly order ([`SwizzledRaster`](layout_types::cute::tile_scheduler::SwizzledRaster)'s, its band chosen at run time), dealt out round-robin to the resident
//! clusters — cluster `c` of `C` takes tiles `c, c + C, c + 2C, ...`.

use layout_types::cute::prelude::*;
use layout_types::cute::tma::TmaCoord;

/// The tiles a cluster computes, and where each CTA's tile of a cluster tile lies in C. The
/// order is [`SwizzledRaster`](layout_types::cute::tile_scheduler::SwizzledRaster)'s (M fastest within bands of `band` N-tiles), with the band a
/// run-time value (the kernel's parameter, so one build can measure several).
///
/// ```
/// use collective::scheduler::PersistentTileScheduler;
/// // C of 1000 × 600 in 128 × 256 CTA tiles, clusters of 1, this cluster 1 of 4, bands of 1
/// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), 1, 0, 1, 4, 1);
/// assert_eq!(s.tiles(), 8 * 3);
/// let t: Vec<_> = s.iter().map(|t| s.origin(t)).collect();
/// assert_eq!(t.len(), 6);
/// assert_eq!(t[0], ((128, 0), 1)); // tile 1: M-tile 1, N-tile 0
/// // bands of 2 N-tiles: tile 1 is M-tile 0, N-tile 1 (SwizzledRaster::<2>'s order)
/// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), 1, 0, 1, 4, 2);
/// assert_eq!(s.origin(1), ((0, 256), 0));
/// ```
#[derive(Clone, Copy)]
pub struct PersistentTileScheduler<const BM: i32, const BN: i32> {
    /// (M-tiles, N-tiles) of clusters
    tiles_mn: (i32, i32),
    band: i32,
    mn: (i32, i32),
    cluster: (i32, i32),
    first: i32,
    step: i32,
}

impl<const BM: i32, const BN: i32> PersistentTileScheduler<BM, BN> {
    /// The scheduler of C `(m, n)` for CTA `rank` of clusters of `cs` CTAs along M, this
    /// cluster `first` of `step` resident clusters, bands of `band` (≥ 1; less is taken as 1)
    /// N-tiles.
    #[inline(always)]
    pub fn new((m, n): (i32, i32), cs: i32, rank: i32, first: i32, step: i32, band: i32) -> Self {
        PersistentTileScheduler {
            tiles_mn: (m.ceil_div(BM * cs), n.ceil_div(BN)),
            band: band.max(1),
            mn: (m, n),
            cluster: (cs, rank),
            first,
            step,
        }
    }
    /// Cluster tiles of C.
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        make_layout_left(self.tiles_mn).size()
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
    /// Cluster tile `i`'s `(M-tile, N-tile)`: `SwizzledRaster::tile` with the run-time band
    /// (full bands of `band` columns M-fastest within each, then the last band's columns).
    #[inline(always)]
    fn raster(&self, i: i32) -> (i32, i32) {
        let ((mt, nt), s) = (self.tiles_mn, self.band);
        let bands = nt / s; // a count of full bands, not an index
        let full = make_layout_left((s, mt, bands));
        let band_col = make_layout_left((s, bands + 1));
        if i < full.size() {
            let (o, m, b): (i32, i32, i32) = full.idx2crd(i);
            (m, band_col.crd2idx((o, b)))
        } else {
            let rest = make_layout_left((nt - band_col.crd2idx((0, bands)), mt));
            let (o, m): (i32, i32) = rest.idx2crd(i - full.size());
            (m, band_col.crd2idx((o, bands)))
        }
    }
    /// This CTA's tile of cluster tile `tile`: its origin `(m0, n0)` in C and its M-tile index
    /// (cluster tile `(cm, cn)` holds CTA M-tiles `(rank, cm)` of the `(cs, ·)` split).
    #[inline(always)]
    pub fn origin(&self, tile: i32) -> ((i32, i32), i32) {
        let (cm, cn) = self.raster(tile);
        let (cs, rank) = self.cluster;
        let bx = make_layout_left((cs, self.mn.0.ceil_div(BM * cs))).crd2idx((rank, cm));
        let o = make_identity_tensor(self.mn)
            .local_tile((BM, BN), (bx, cn))
            .at((_0, _0));
        let [m0, n0] = o.0.tma_coord();
        ((m0, n0), bx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use layout_types::cute::tile_scheduler::SwizzledRaster;

    /// The run-time band gives `SwizzledRaster`'s order for its const band.
    #[test]
    fn raster_is_swizzled_rasters() {
        fn check<const S: i32>(mt: i32, nt: i32) {
            let r = SwizzledRaster::<S>::new(mt, nt);
            let s = PersistentTileScheduler::<128, 256>::new((128 * mt, 256 * nt), 1, 0, 0, 1, S);
            for i in 0..r.tiles() {
                assert_eq!(s.raster(i), r.tile(i), "S={S} {mt}x{nt} tile {i}");
            }
        }
        for mt in 1..9 {
            for nt in 1..13 {
                check::<1>(mt, nt);
                check::<2>(mt, nt);
                check::<4>(mt, nt);
                check::<8>(mt, nt);
            }
        }
    }
}
