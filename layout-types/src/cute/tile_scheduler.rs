//! The tile order of a persistent kernel: CUTLASS's persistent tile scheduler
//! (`PersistentTileSchedulerSm90`, `include/cutlass/gemm/kernel/sm90_tile_scheduler.hpp`) with
//! raster along M and a swizzle of `S` N-tiles: the tiles
//! of C are visited in bands of `S` N-columns, and inside a band the `S` tiles of one M-row
//! come one after another, then the next M-row. The tiles one wave of CTAs works on at the same
//! time then span about `√wave` rows and columns of C instead of whole columns, so their A and B
//! k-slabs overlap more in L2.
//!
//! Linear tile `i` → `(m, n)`: the full bands through the layout `(S, Mt, Nt/S)` (colex), the
//! last partial band of `r = Nt mod S` columns through `(r, Mt)`; `n = S·band + offset`
//! through `(S, bands)`. No padding: every linear index below `Mt·Nt` is one tile.
//!
//! ```
//! use layout_types::cute::tile_scheduler::SwizzledRaster;
//! let s = SwizzledRaster::<2>::new(3, 3); // 3 M-tiles × 3 N-tiles, bands of 2 columns
//! let order: Vec<_> = (0..s.tiles()).map(|i| s.tile(i)).collect();
//! assert_eq!(order, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (0, 2), (1, 2), (2, 2)]);
//! ```

use crate::cute::prelude::*;

/// The swizzled raster over `m_tiles × n_tiles` tiles, bands of `S` N-tiles (`S = 1`: M-tile
/// fastest, column after column).
#[derive(Clone, Copy, Debug)]
pub struct SwizzledRaster<const S: i32> {
    m_tiles: i32,
    n_tiles: i32,
    /// Full bands of `S` columns.
    bands: i32,
}

impl<const S: i32> SwizzledRaster<S> {
    /// `S ≥ 1`, checked when [`new`](Self::new) is instantiated.
    const BAND: () = assert!(
        S >= 1,
        "SwizzledRaster: the swizzle band S must be at least 1"
    );
    /// The order of an `m_tiles × n_tiles` grid of tiles.
    ///
    /// ```
    /// let s = layout_types::cute::tile_scheduler::SwizzledRaster::<8>::new(32, 16);
    /// assert_eq!(s.tiles(), 512);
    /// ```
    #[inline(always)]
    pub fn new(m_tiles: i32, n_tiles: i32) -> Self {
        let () = Self::BAND;
        SwizzledRaster {
            m_tiles,
            n_tiles,
            bands: n_tiles / S, // a count of full bands, not an index
        }
    }
    /// The number of tiles.
    ///
    /// ```
    /// assert_eq!(layout_types::cute::tile_scheduler::SwizzledRaster::<4>::new(3, 5).tiles(), 15);
    /// ```
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        make_layout_left((self.m_tiles, self.n_tiles)).size()
    }
    /// Tile `i`'s `(m, n)` tile coordinates, `0 ≤ i < tiles()`.
    ///
    /// ```
    /// let s = layout_types::cute::tile_scheduler::SwizzledRaster::<1>::new(2, 2);
    /// assert_eq!([s.tile(0), s.tile(1), s.tile(2)], [(0, 0), (1, 0), (0, 1)]);
    /// ```
    #[inline(always)]
    pub fn tile(&self, i: i32) -> (i32, i32) {
        let full = make_layout_left((S, self.m_tiles, self.bands));
        let band_col = make_layout_left((S, self.bands + 1));
        if i < full.size() {
            let (o, m, b): (i32, i32, i32) = full.idx2crd(i);
            (m, band_col.crd2idx((o, b)))
        } else {
            // the last band: `n_tiles − S·bands` columns
            let rest = make_layout_left((
                self.n_tiles - band_col.crd2idx((0, self.bands)),
                self.m_tiles,
            ));
            let (o, m): (i32, i32) = rest.idx2crd(i - full.size());
            (m, band_col.crd2idx((o, self.bands)))
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    fn check<const S: i32>(mt: i32, nt: i32) {
        let s = SwizzledRaster::<S>::new(mt, nt);
        let mut seen: Vec<(i32, i32)> = (0..s.tiles()).map(|i| s.tile(i)).collect();
        assert!(
            seen.iter()
                .all(|&(m, n)| m < mt && n < nt && m >= 0 && n >= 0)
        );
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len() as i32, mt * nt, "S={S} {mt}x{nt}");
    }

    #[test]
    fn every_tile_exactly_once() {
        for mt in 1..12 {
            for nt in 1..20 {
                check::<1>(mt, nt);
                check::<4>(mt, nt);
                check::<8>(mt, nt);
            }
        }
    }

    #[test]
    fn bands_of_s_columns_m_rows_inside() {
        let s = SwizzledRaster::<8>::new(32, 16);
        assert_eq!(s.tile(7), (0, 7));
        assert_eq!(s.tile(8), (1, 0));
        assert_eq!(s.tile(8 * 32), (0, 8));
    }
}
