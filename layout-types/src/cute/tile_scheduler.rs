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

/// The Hilbert curve through `m_tiles × n_tiles` tiles (fast.cu's kernel 12 order): the curve
/// of the smallest power-of-two square that holds the grid, keeping the cells inside it. A
/// wave of CTAs taking consecutive tiles then covers a compact region of C — about as many
/// M-tiles as N-tiles, wherever the wave starts —, so the A and B k-slabs it reads overlap
/// in L2 as a band order's do only at a band's start.
///
/// The order is a sequence, not a closed form (the cells outside the grid are skipped), so a
/// kernel reads it from a table its host builds ([`Self::iter`]).
///
/// ```
/// use layout_types::cute::tile_scheduler::HilbertRaster;
/// let h = HilbertRaster::new(2, 2);
/// let order: Vec<_> = h.iter().collect();
/// assert_eq!(order, [(0, 0), (0, 1), (1, 1), (1, 0)]);
/// // a 3 × 2 grid: the 4 × 4 curve's cells with m < 3 and n < 2, each once (the curve's
/// // excursion through n ≥ 2 between (0, 1) and (2, 1) skipped)
/// let order: Vec<_> = HilbertRaster::new(3, 2).iter().collect();
/// assert_eq!(order, [(0, 0), (1, 0), (1, 1), (0, 1), (2, 1), (2, 0)]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct HilbertRaster {
    m_tiles: i32,
    n_tiles: i32,
    /// log2 of the square's side.
    order: u32,
}

impl HilbertRaster {
    /// The curve through an `m_tiles × n_tiles` grid (each at most 2^15).
    ///
    /// ```
    /// assert_eq!(layout_types::cute::tile_scheduler::HilbertRaster::new(3, 5).tiles(), 15);
    /// ```
    pub fn new(m_tiles: i32, n_tiles: i32) -> Self {
        let side = m_tiles.max(n_tiles).max(1) as u32;
        HilbertRaster {
            m_tiles: m_tiles.max(0),
            n_tiles: n_tiles.max(0),
            order: side.next_power_of_two().trailing_zeros(),
        }
    }
    /// The number of tiles.
    ///
    /// ```
    /// assert_eq!(layout_types::cute::tile_scheduler::HilbertRaster::new(0, 4).tiles(), 0);
    /// ```
    pub fn tiles(&self) -> i32 {
        make_layout_left((self.m_tiles, self.n_tiles)).size()
    }
    /// Point `d` of the Hilbert curve of the `2^order`-square: its `(x, y)` (the classic
    /// iterative construction, two bits of `d` per level: quadrant, then the reflection and
    /// transposition that orient the sub-curve).
    ///
    /// ```
    /// use layout_types::cute::tile_scheduler::HilbertRaster;
    /// let c: Vec<_> = (0..4).map(|d| HilbertRaster::curve(1, d)).collect();
    /// assert_eq!(c, [(0, 0), (0, 1), (1, 1), (1, 0)]);
    /// ```
    pub fn curve(order: u32, d: u32) -> (i32, i32) {
        let (mut x, mut y) = (0u32, 0u32);
        for level in 0..order {
            let s = 1u32 << level;
            let q = (d >> (2 * level)) & 3;
            let rx = (q >> 1) & 1;
            let ry = (q ^ rx) & 1;
            if ry == 0 {
                if rx == 1 {
                    x = s - 1 - x;
                    y = s - 1 - y;
                }
                core::mem::swap(&mut x, &mut y);
            }
            x += s * rx;
            y += s * ry;
        }
        (x as i32, y as i32)
    }
    /// The tiles' `(m, n)` in curve order, every tile of the grid once.
    ///
    /// ```
    /// let h = layout_types::cute::tile_scheduler::HilbertRaster::new(5, 3);
    /// assert_eq!(h.iter().count(), 15);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (i32, i32)> {
        let (mt, nt, order) = (self.m_tiles, self.n_tiles, self.order);
        (0..1u32 << (2 * order))
            .map(move |d| Self::curve(order, d))
            .filter(move |&(m, n)| m < mt && n < nt)
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

    /// Every grid's curve visits each tile once, and consecutive tiles of a square grid are
    /// neighbours (the curve's defining property).
    #[test]
    fn hilbert_every_tile_once_neighbours_adjacent() {
        for mt in 0..20 {
            for nt in 0..20 {
                let h = HilbertRaster::new(mt, nt);
                let mut seen: Vec<(i32, i32)> = h.iter().collect();
                assert_eq!(seen.len() as i32, h.tiles(), "{mt}x{nt}");
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len() as i32, mt * nt, "{mt}x{nt}");
            }
        }
        for order in 0..6 {
            let side = 1 << order;
            let o: Vec<_> = HilbertRaster::new(side, side).iter().collect();
            for w in o.windows(2) {
                let d = (w[0].0 - w[1].0).abs() + (w[0].1 - w[1].1).abs();
                assert_eq!(d, 1, "side {side}: {:?}", w);
            }
        }
    }
}
