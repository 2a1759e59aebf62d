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
//! use layout_types::cutlass::tile_scheduler::SwizzledRaster;
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
    /// let s = layout_types::cutlass::tile_scheduler::SwizzledRaster::<8>::new(32, 16);
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
    /// assert_eq!(layout_types::cutlass::tile_scheduler::SwizzledRaster::<4>::new(3, 5).tiles(), 15);
    /// ```
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        make_layout_left((self.m_tiles, self.n_tiles)).size()
    }
    /// Tile `i`'s `(m, n)` tile coordinates, `0 ≤ i < tiles()`.
    ///
    /// ```
    /// let s = layout_types::cutlass::tile_scheduler::SwizzledRaster::<1>::new(2, 2);
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
/// use layout_types::cutlass::tile_scheduler::HilbertRaster;
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
    /// assert_eq!(layout_types::cutlass::tile_scheduler::HilbertRaster::new(3, 5).tiles(), 15);
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
    /// assert_eq!(layout_types::cutlass::tile_scheduler::HilbertRaster::new(0, 4).tiles(), 0);
    /// ```
    pub fn tiles(&self) -> i32 {
        make_layout_left((self.m_tiles, self.n_tiles)).size()
    }
    /// Point `d` of the Hilbert curve of the `2^order`-square: its `(x, y)` (the classic
    /// iterative construction, two bits of `d` per level: quadrant, then the reflection and
    /// transposition that orient the sub-curve).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::HilbertRaster;
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
    /// let h = layout_types::cutlass::tile_scheduler::HilbertRaster::new(5, 3);
    /// assert_eq!(h.iter().count(), 15);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (i32, i32)> {
        let (mt, nt, order) = (self.m_tiles, self.n_tiles, self.order);
        (0..1u32 << (2 * order))
            .map(move |d| Self::curve(order, d))
            .filter(move |&(m, n)| m < mt && n < nt)
    }
}

/// The launch constants of a persistent tile scheduler over cluster tiles (CUTLASS's
/// `PersistentTileSchedulerSm90Params`): the host builds them once per launch ([`new`](Self::new):
/// the tile counts and the band's divisions), so that the kernel's scheduler does no division by
/// a run-time value — the tile order's `idx2crd` runs in shapes of [`FastDivmod`]s
/// (multiply-shifts). The order is [`SwizzledRaster`]'s with a run-time band (bands of `band`
/// N-tiles, each walked M-row by M-row), or a host-built table of `[M-tile, N-tile]` pairs
/// ([`with_table`](Self::with_table): a [`HilbertRaster`]).
///
/// ```
/// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, SwizzledRaster};
/// // C of 1000 × 600 in 128 × 256 tiles, clusters of 2 CTAs along M (2, 1), 66 clusters, bands of 2
/// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (2, 1), 66, 2).unwrap();
/// assert_eq!((p.tiles_mn(), p.tiles()), ((4, 3), 12));
/// let r = SwizzledRaster::<2>::new(4, 3);
/// assert!((0..12).all(|i| p.raster(i) == r.tile(i)));
/// assert!(PersistentTileSchedulerParams::new((1000, 600), (128, 256), (2, 1), 0, 2).is_none());
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersistentTileSchedulerParams {
    /// Cluster tiles along M.
    tiles_m: FastDivmod,
    /// The band of N-tiles.
    band: FastDivmod,
    /// Columns of the last, partial band (1 where there is none: never divided by then).
    last_band: FastDivmod,
    /// The grid's clusters (all resident at once).
    clusters: FastDivmod,
    /// The `[M-tile, N-tile]` table's address, or 0: the band order.
    table: u64,
    /// Cluster tiles along N.
    tiles_n: i32,
    /// Full bands.
    bands: i32,
}

/// Along which mode of C a cluster's CTAs lie, and so which operand their TMA loads share
/// (CUTLASS's `ClusterShape`, `Shape<cs,_1,_1>` or `Shape<_1,cs,_1>`, of `cs` CTAs): `M`, the
/// CTAs on neighbouring M-tiles of one N-tile, B shared; `N`, on neighbouring N-tiles of one
/// M-tile, A shared.
///
/// ```
/// use layout_types::cutlass::tile_scheduler::ClusterAxis;
/// assert_eq!((ClusterAxis::M.shape(2), ClusterAxis::N.shape(2)), ((2, 1), (1, 2)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterAxis {
    /// `(cs, 1)`: B's tile multicast.
    M,
    /// `(1, cs)`: A's tile multicast.
    N,
}

impl ClusterAxis {
    /// The cluster's shape `(cm, cn)` for `cs` CTAs.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::ClusterAxis;
    /// assert_eq!(ClusterAxis::M.shape(4), (4, 1));
    /// assert_eq!(ClusterAxis::N.shape(4), (1, 4));
    /// ```
    #[inline(always)]
    pub const fn shape(self, cs: i32) -> (i32, i32) {
        match self {
            ClusterAxis::M => (cs, 1),
            ClusterAxis::N => (1, cs),
        }
    }
    /// The coordinate in the cluster's shape of its CTA of rank `rank` (`%cluster_ctarank`, the
    /// index in the shape's left-major layout): `rank` along the cluster's mode.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::ClusterAxis;
    /// assert_eq!((ClusterAxis::M.coord(1), ClusterAxis::N.coord(1)), ((1, 0), (0, 1)));
    /// ```
    #[inline(always)]
    pub const fn coord(self, rank: i32) -> (i32, i32) {
        match self {
            ClusterAxis::M => (rank, 0),
            ClusterAxis::N => (0, rank),
        }
    }
}

/// The cluster tiles of C `(m, n)` along M and N: CTA tiles `(bm, bn)`, clusters of `(cm, cn)`
/// CTAs (CUTLASS's `ClusterShape`: a cluster tile is `cm·bm × cn·bn`), partial tiles counted.
/// The count [`PersistentTileSchedulerParams`] deals out; the host sizes its grid with it.
///
/// ```
/// use layout_types::cutlass::tile_scheduler::cluster_tiles;
/// assert_eq!(cluster_tiles((4096, 4000), (128, 256), (2, 1)), (16, 16));
/// assert_eq!(cluster_tiles((128, 7168), (128, 192), (1, 2)), (1, 19));
/// assert_eq!(cluster_tiles((1, 1), (128, 256), (1, 1)), (1, 1));
/// ```
pub const fn cluster_tiles(
    (m, n): (usize, usize),
    (bm, bn): (usize, usize),
    (cm, cn): (usize, usize),
) -> (usize, usize) {
    (m.div_ceil(bm * cm), n.div_ceil(bn * cn))
}

impl PersistentTileSchedulerParams {
    /// The scheduler of C `(m, n)` in CTA tiles `(bm, bn)`, clusters of `(cm, cn)` CTAs (a
    /// cluster tile is `cm·bm × cn·bn`), a grid of `clusters` clusters, bands of `band` N-tiles
    /// (less than 1 taken as 1). `None` when a count is below 1 or C is empty.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// let p = PersistentTileSchedulerParams::new((4096, 4096), (128, 256), (2, 1), 66, 8).unwrap();
    /// assert_eq!((p.tiles_mn(), p.clusters().divisor()), ((16, 16), 66));
    /// ```
    pub fn new(
        (m, n): (i32, i32),
        (bm, bn): (i32, i32),
        (cm, cn): (i32, i32),
        clusters: i32,
        band: i32,
    ) -> Option<Self> {
        if m < 1 || n < 1 || bm < 1 || bn < 1 || cm < 1 || cn < 1 {
            return None;
        }
        let (tiles_m, tiles_n) = cluster_tiles(
            (m as usize, n as usize),
            (bm as usize, bn as usize),
            (cm as usize, cn as usize),
        );
        let (tiles_m, tiles_n) = (tiles_m as i32, tiles_n as i32);
        let band = band.max(1);
        let bands = tiles_n / band; // a count of full bands, not an index
        Some(PersistentTileSchedulerParams {
            tiles_m: FastDivmod::new(tiles_m)?,
            tiles_n,
            band: FastDivmod::new(band)?,
            bands,
            last_band: FastDivmod::new((tiles_n - band * bands).max(1))?,
            clusters: FastDivmod::new(clusters)?,
            table: 0,
        })
    }
    /// These parameters with the order of a table of `[M-tile, N-tile]` pairs at `table` (0:
    /// the band order).
    ///
    /// # Safety
    /// A non-zero `table` is the address, where the kernel reads it, of one pair for each
    /// cluster tile of this grid (every tile once), valid while a scheduler reads it.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{HilbertRaster, PersistentTileSchedulerParams};
    /// let table: Vec<[i32; 2]> = HilbertRaster::new(2, 2).iter().map(|(m, n)| [m, n]).collect();
    /// let p = PersistentTileSchedulerParams::new((256, 512), (128, 256), (1, 1), 4, 1).unwrap();
    /// // SAFETY: one pair per tile, alive while `p` is read
    /// let p = unsafe { p.with_table(table.as_ptr() as u64) };
    /// assert_eq!((0..4).map(|i| p.raster(i)).collect::<Vec<_>>(), [(0, 0), (0, 1), (1, 1), (1, 0)]);
    /// ```
    pub unsafe fn with_table(self, table: u64) -> Self {
        PersistentTileSchedulerParams { table, ..self }
    }
    /// `(M, N)` cluster tiles of C.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// let p = PersistentTileSchedulerParams::new((1, 257), (128, 256), (1, 1), 1, 1).unwrap();
    /// assert_eq!(p.tiles_mn(), (1, 2));
    /// ```
    #[inline(always)]
    pub fn tiles_mn(&self) -> (i32, i32) {
        (self.tiles_m.divisor(), self.tiles_n)
    }
    /// Cluster tiles of C.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// assert_eq!(PersistentTileSchedulerParams::new((300, 600), (128, 256), (1, 1), 8, 1).unwrap().tiles(), 9);
    /// ```
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        make_layout_left(self.tiles_mn()).size()
    }
    /// The grid's clusters, as a divisor.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// let p = PersistentTileSchedulerParams::new((300, 600), (128, 256), (1, 1), 8, 1).unwrap();
    /// assert_eq!(p.clusters().divisor(), 8);
    /// ```
    #[inline(always)]
    pub fn clusters(&self) -> FastDivmod {
        self.clusters
    }
    /// Cluster tile `i`'s `(M-tile, N-tile)`, `0 ≤ i < tiles()`: the table's pair, or
    /// [`SwizzledRaster::tile`] with the run-time band — the full bands through
    /// `idx2crd(i, (band, tiles_m, bands))`, the last band's columns through
    /// `idx2crd(i', (last_band, tiles_m))`, both in multiply-shifts.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // 3 × 5 tiles, bands of 2: the last band's one column comes after the two full bands
    /// let p = PersistentTileSchedulerParams::new((3, 5), (1, 1), (1, 1), 1, 2).unwrap();
    /// assert_eq!([p.raster(0), p.raster(1), p.raster(2), p.raster(12)], [(0, 0), (0, 1), (1, 0), (0, 4)]);
    /// ```
    #[inline(always)]
    pub fn raster(&self, i: i32) -> (i32, i32) {
        if self.table != 0 {
            // SAFETY: one pair per tile (`with_table`'s contract), `i < tiles()`
            let [m, n] = unsafe { *(self.table as *const [i32; 2]).add(i as usize) };
            return (m, n);
        }
        let band_col = make_layout_left((self.band.divisor(), self.bands + 1));
        let full_size =
            make_layout_left((self.band.divisor(), self.tiles_m.divisor(), self.bands)).size();
        // (each shape tuple is built in its branch: built before the `if`, LLVM kept the
        // parameters it reads in a 32-byte `.local` copy in every hgemm entry)
        if i < full_size {
            let (o, m, b): (i32, i32, i32) = idx2crd(i, (self.band, self.tiles_m, self.bands));
            (m, band_col.crd2idx((o, b)))
        } else {
            let (o, m): (i32, i32) = idx2crd(i - full_size, (self.last_band, self.tiles_m));
            (m, band_col.crd2idx((o, self.bands)))
        }
    }
}

/// The data-parallel + stream-K split of `T` equal tiles of `k` units each (a GEMM's k-tiles,
/// an attention tile's key blocks) over `C` resident CTAs or clusters, CUTLASS's stream-K
/// hybrid (`PersistentTileSchedulerSm90StreamK`): when `T > C` and `T mod C ≠ 0` leave the last
/// wave part-empty (at least `min_idle` units per CTA idle on average), the first
/// `T − (T mod C + C)` tiles are whole and the last `T mod C + C` tiles' units, flattened, are
/// cut into `C` even ranges ([`cut`](Self::cut)), one per CTA; a range is then at least a tile
/// long, so a tile is shared by two CTAs at most: the one whose range starts inside it holds
/// its tail ([`segment`](Self::segment) 0 of its range), the one before holds its head (the
/// range's last). Else every tile is whole. [`StreamKParams`] is this split over a GEMM's
/// tile order; the attention kernel's persistent schedule takes it as it is.
///
/// ```
/// use layout_types::cutlass::tile_scheduler::StreamKSplit;
/// // 8 tiles of 100 units on 3 CTAs: 3 whole, the last 5 tiles' 500 units cut 166 / 167 / 167
/// let s = StreamKSplit::new(8, 100, 3, 32).unwrap();
/// assert_eq!((s.dp_tiles(), s.sk_tiles()), (3, 5));
/// assert_eq!([s.cut(0), s.cut(1), s.cut(2), s.cut(3)], [0, 166, 333, 500]);
/// // CTA 1's range 166..333: the tail 66..100 of tile 4, tile 5 whole, the head 0..33 of tile 6
/// assert_eq!([s.segment(1, 0), s.segment(1, 1), s.segment(1, 2)], [Some((4, 66, 100)), Some((5, 0, 100)), Some((6, 0, 33))]);
/// assert_eq!(s.segment(0, 2), None); // CTA 0's range 0..166: tile 3 whole, the head of tile 4
/// // a full last wave, or too few units idle: data-parallel
/// assert_eq!(StreamKSplit::new(9, 100, 3, 32).unwrap().sk_tiles(), 0);
/// assert_eq!(StreamKSplit::new(8, 10, 3, 32).unwrap().sk_tiles(), 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamKSplit {
    /// Units of a tile (at least 1 as a divisor).
    units: FastDivmod,
    /// The CTAs (or clusters) the ranges are cut for.
    ctas: FastDivmod,
    /// Tiles dealt out whole.
    dp_tiles: i32,
    /// Tiles shared out by units (0: none).
    sk_tiles: i32,
    /// Their units, `sk_tiles · units` (the cuts' numerator, computed here: derived in a
    /// kernel's tile loop it is a loop-invariant product held across the mainloop).
    sk_units: i32,
}

impl StreamKSplit {
    /// The split of `tiles` tiles of `units` units over `ctas`, stream-K where the last wave
    /// would leave at least `min_idle` units per CTA idle on average and the cuts fit an `i32`;
    /// `None` when `ctas < 1` or `units < 0`.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// // 10 tiles of 8 units on 4 CTAs: 10 = 4 + 6, the last 6 tiles' 48 units cut 12 per CTA
    /// let s = StreamKSplit::new(10, 8, 4, 2).unwrap();
    /// assert_eq!((s.dp_tiles(), s.sk_tiles(), s.cut(1)), (4, 6, 12));
    /// // the last wave idles (4 - 2)·8 = 16 units, 4 per CTA: below a min_idle of 5, data-parallel
    /// assert_eq!(StreamKSplit::new(10, 8, 4, 5).unwrap().sk_tiles(), 0);
    /// assert!(StreamKSplit::new(10, 8, 0, 2).is_none());
    /// ```
    pub fn new(tiles: i32, units: i32, ctas: i32, min_idle: i32) -> Option<Self> {
        let whole = Self::data_parallel(tiles, units, ctas)?;
        let (t, k, c) = (tiles as i64, units as i64, ctas as i64);
        let rest = t % c;
        let sk = rest + c;
        let stream_k = t > c
            && rest != 0
            && (c - rest) * k >= min_idle as i64 * c
            && sk * k * c <= i32::MAX as i64;
        Some(if stream_k {
            StreamKSplit {
                dp_tiles: (t - sk) as i32,
                sk_tiles: sk as i32,
                sk_units: (sk * k) as i32,
                ..whole
            }
        } else {
            whole
        })
    }
    /// Every tile whole; `None` when `ctas < 1` or `units < 0`.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// assert_eq!(StreamKSplit::data_parallel(8, 100, 3).unwrap().dp_tiles(), 8);
    /// ```
    pub fn data_parallel(tiles: i32, units: i32, ctas: i32) -> Option<Self> {
        if units < 0 {
            return None;
        }
        Some(StreamKSplit {
            // (no unit: a divisor of 1, nothing to divide)
            units: FastDivmod::new(units.max(1))?,
            ctas: FastDivmod::new(ctas)?,
            dp_tiles: tiles,
            sk_tiles: 0,
            sk_units: 0,
        })
    }
    /// Tiles dealt out whole (the first ones of the order).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// assert_eq!(StreamKSplit::new(8, 100, 3, 32).unwrap().dp_tiles(), 3);
    /// ```
    #[inline(always)]
    pub fn dp_tiles(&self) -> i32 {
        self.dp_tiles
    }
    /// Tiles shared out by units (the last ones; 0: none).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// assert_eq!(StreamKSplit::new(8, 100, 3, 32).unwrap().sk_tiles(), 5);
    /// ```
    #[inline(always)]
    pub fn sk_tiles(&self) -> i32 {
        self.sk_tiles
    }
    /// Units of a tile.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// assert_eq!(StreamKSplit::new(8, 100, 3, 32).unwrap().units(), 100);
    /// ```
    #[inline(always)]
    pub fn units(&self) -> i32 {
        self.units.divisor()
    }
    /// The first of the shared units (flattened over the stream-K tiles) of CTA `c`'s range,
    /// `0 ≤ c ≤ C`: `⌊sk_tiles·units·c / C⌋`.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// assert_eq!(StreamKSplit::new(8, 100, 3, 32).unwrap().cut(2), 333);
    /// ```
    #[inline(always)]
    pub fn cut(&self, c: i32) -> i32 {
        int_div(self.sk_units * c, self.ctas)
    }
    /// Segment `k` of CTA `c`'s range: the part of the `k`-th stream-K tile it touches, as
    /// `(tile, first unit, end unit)` (the tile in the whole order, the units in the tile), or
    /// `None` past the range's last tile. A segment `(_, b, _)` with `b > 0` is a tile's tail,
    /// `(_, 0, e)` with `e < units` its head.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::StreamKSplit;
    /// let s = StreamKSplit::new(10, 8, 4, 2).unwrap(); // tiles 4..10 shared, 12 units per CTA
    /// // CTA 0: units 0..12, tile 4 whole and the head 0..4 of tile 5
    /// assert_eq!([s.segment(0, 0), s.segment(0, 1)], [Some((4, 0, 8)), Some((5, 0, 4))]);
    /// // CTA 1: units 12..24, the tail 4..8 of tile 5 and tile 6 whole
    /// assert_eq!([s.segment(1, 0), s.segment(1, 1), s.segment(1, 2)], [Some((5, 4, 8)), Some((6, 0, 8)), None]);
    /// ```
    #[inline(always)]
    pub fn segment(&self, c: i32, k: i32) -> Option<(i32, i32, i32)> {
        let (a, b) = (self.cut(c), self.cut(c + 1));
        let kt = self.units.divisor();
        let tile = int_div(a, self.units) + k;
        let t0 = tile * kt;
        let (s, e) = (a.max(t0), b.min(t0 + kt));
        if s < e {
            Some((self.dp_tiles + tile, s - t0, e - t0))
        } else {
            None
        }
    }
}

/// The launch constants of the data-parallel + stream-K tile scheduler (CUTLASS's
/// `PersistentTileSchedulerSm90StreamKParams`), built on the host ([`new`](Self::new)): which
/// tiles are dealt out whole and which are shared out by k-tiles, and the divisors the kernel's
/// scheduler cuts the shared k-tiles with. With `C` clusters and `T` cluster tiles of `k_tiles`
/// k-tiles each:
/// - stream-K: when `T > C`, `T mod C ≠ 0`, a workspace is given and the last wave would leave
///   at least [`MIN_IDLE_K_TILES`](Self::MIN_IDLE_K_TILES) k-tiles per cluster idle on average,
///   the first `T − (T mod C + C)` tiles are whole and the last `T mod C + C` tiles' k-tiles
///   are cut into `C` even ranges;
/// - split-K (`split_k`): with fewer tiles than clusters and a workspace, every tile's k-tiles
///   are cut into the `C` ranges;
/// - else every tile is whole (data-parallel).
///
/// ```
/// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
/// // 4 × 2 cluster tiles of 128 × 256, 100 k-tiles each, 3 clusters: 8 = 2·3 + 2, so 3 tiles
/// // whole and the last 5 tiles' 500 k-tiles cut 166 / 167 / 167
/// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
/// let p = StreamKParams::new(dp, 100, 1, 64, false).unwrap();
/// assert_eq!((p.dp_tiles(), p.sk_tiles()), (3, 5));
/// assert_eq!([p.cut(0), p.cut(1), p.cut(2), p.cut(3)], [0, 166, 333, 500]);
/// // without a workspace: data-parallel
/// assert_eq!(StreamKParams::new(dp, 100, 1, 0, false).unwrap().sk_tiles(), 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKParams {
    /// The tile order and the grid.
    dp: PersistentTileSchedulerParams,
    /// k-tiles of a tile (at least 1 as a divisor).
    k_tiles: FastDivmod,
    /// The workspace's address (0: none).
    workspace: u64,
    /// Tiles dealt out whole.
    dp_tiles: i32,
    /// Tiles shared out by k-tiles (0: none).
    sk_tiles: i32,
    /// Clusters that start beside the kernel ahead, in its last wave's holes ([`beside`](Self::beside); 0: none).
    lead: i32,
    /// The k-tiles each of them takes beyond an even cut.
    lead_k_tiles: i32,
}

impl StreamKParams {
    /// Stream-K only when the data-parallel last wave would leave at least this many k-tiles
    /// idle per cluster on average (`(C − T mod C)·k_tiles ≥ 32·C`): the reduction through the
    /// workspace and the extra work units cost about that (on the H200, bf16 TN: 8192³, 62 idle
    /// k-tiles, gained 1–2%; 4096³, 8 idle k-tiles, lost 3–6%; doc/hopper-gemm.md).
    pub const MIN_IDLE_K_TILES: i32 = 32;

    /// The stream-K parameters of `dp`'s grid with `k_tiles` k-tiles a tile, clusters of `cs`
    /// CTAs, the workspace at `workspace` (0: none, data-parallel), split-K asked or not
    /// (the kernel's scheduler type must split: `StreamKScheduler<_, _, true>`). `None` when
    /// `k_tiles` is negative.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// // split-K: 2 tiles of 100 k-tiles over 5 clusters, ranges of 40
    /// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
    /// let p = StreamKParams::new(dp, 100, 1, 64, true).unwrap();
    /// assert_eq!((p.dp_tiles(), p.sk_tiles(), p.cut(1), p.cut(5)), (0, 2, 40, 200));
    /// ```
    pub fn new(
        dp: PersistentTileSchedulerParams,
        k_tiles: i32,
        cs: i32,
        workspace: u64,
        split_k: bool,
    ) -> Option<Self> {
        if k_tiles < 0 {
            return None;
        }
        let (tiles, step) = (dp.tiles() as i64, dp.clusters.divisor() as i64);
        let kt = k_tiles as i64;
        let whole = StreamKParams {
            dp,
            // (K = 0: a divisor of 1, no k-tile to divide)
            k_tiles: FastDivmod::new(k_tiles.max(1))?,
            dp_tiles: tiles as i32,
            sk_tiles: 0,
            workspace,
            lead: 0,
            lead_k_tiles: 0,
        };
        let can = workspace != 0 && cs <= 2;
        // split-K with fewer tiles than clusters: every tile's k-tiles shared out
        if split_k
            && can
            && tiles < step
            && tiles * kt >= step
            && tiles * kt * step <= i32::MAX as i64
        {
            return Some(StreamKParams {
                dp_tiles: 0,
                sk_tiles: tiles as i32,
                ..whole
            });
        }
        // the hybrid split (its rule and cuts are `StreamKSplit`'s)
        if !can {
            return Some(whole);
        }
        let split = StreamKSplit::new(tiles as i32, k_tiles, step as i32, Self::MIN_IDLE_K_TILES)?;
        Some(StreamKParams {
            dp_tiles: split.dp_tiles(),
            sk_tiles: split.sk_tiles(),
            ..whole
        })
    }
    /// The data-parallel parameters of a grid (every tile whole, no workspace).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::data_parallel(dp, 100).dp_tiles(), 8);
    /// ```
    pub fn data_parallel(dp: PersistentTileSchedulerParams, k_tiles: i32) -> Self {
        StreamKParams {
            dp,
            k_tiles: FastDivmod::new(k_tiles.max(1)).unwrap_or_default(),
            dp_tiles: dp.tiles(),
            sk_tiles: 0,
            workspace: 0,
            lead: 0,
            lead_k_tiles: 0,
        }
    }
    /// The tile order and the grid.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::data_parallel(dp, 1).dp(), dp);
    /// ```
    #[inline(always)]
    pub fn dp(&self) -> PersistentTileSchedulerParams {
        self.dp
    }
    /// k-tiles of a tile, as a divisor (1 for K = 0).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::data_parallel(dp, 0).k_tiles().divisor(), 1);
    /// ```
    #[inline(always)]
    pub fn k_tiles(&self) -> FastDivmod {
        self.k_tiles
    }
    /// Tiles dealt out whole (the first ones of the order).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::data_parallel(dp, 4).dp_tiles(), 8);
    /// ```
    #[inline(always)]
    pub fn dp_tiles(&self) -> i32 {
        self.dp_tiles
    }
    /// Tiles shared out by k-tiles (the last ones; 0: none).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::data_parallel(dp, 4).sk_tiles(), 0);
    /// ```
    #[inline(always)]
    pub fn sk_tiles(&self) -> i32 {
        self.sk_tiles
    }
    /// The workspace's address (0: none).
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// assert_eq!(StreamKParams::new(dp, 100, 1, 4096, false).unwrap().workspace(), 4096);
    /// ```
    #[inline(always)]
    pub fn workspace(&self) -> u64 {
        self.workspace
    }
    /// The first of the shared k-tiles (flattened over the stream-K tiles) of cluster `c`'s
    /// range, `0 ≤ c ≤ C`: the `c`-th of `C` even cuts, `⌊sk_tiles·k_tiles·c / C⌋`; with
    /// [`beside`](Self::beside)'s `h` lead clusters of `e` extra k-tiles, the even cuts of the
    /// rest and `e` more for each lead cluster before `c`: `⌊(S − h·e)·c / C⌋ + min(c, h)·e`.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
    /// let p = StreamKParams::new(dp, 100, 1, 64, true).unwrap();
    /// assert_eq!((0..=5).map(|c| p.cut(c)).collect::<Vec<_>>(), [0, 40, 80, 120, 160, 200]);
    /// // clusters 0 and 1 lead by 30 k-tiles: the other 140 cut evenly, 28 each
    /// let p = p.beside(2, 30).unwrap();
    /// assert_eq!((0..=5).map(|c| p.cut(c)).collect::<Vec<_>>(), [0, 58, 116, 144, 172, 200]);
    /// ```
    #[inline(always)]
    pub fn cut(&self, c: i32) -> i32 {
        let (h, e) = (self.lead, self.lead_k_tiles);
        int_div(
            (self.sk_tiles * self.k_tiles.divisor() - h * e) * c,
            self.dp.clusters,
        ) + c.min(h) * e
    }
    /// These parameters with clusters `0..h` each taking `e` k-tiles more than the others
    /// (split-K only): a launch queued behind a kernel whose last wave leaves `h` clusters'
    /// SMs idle for about `e` of this launch's k-tiles, which neither reads nor writes what
    /// this one does. Its first clusters are meant to start there (assuming the hardware
    /// starts a grid's clusters in order; any order is correct, only slower), and the kernel
    /// waits for the one ahead only before it exits
    /// ([`waits_first`](Self::waits_first)). `e` is cut so that every cluster keeps at least
    /// one k-tile (none left: no lead, the kernel waits first). `None` without split-K or with
    /// `h` outside `0..=C`.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
    /// let p = StreamKParams::new(dp, 100, 1, 64, true).unwrap();
    /// assert!(p.waits_first() && !p.beside(1, 10).unwrap().waits_first());
    /// // at most 200 − 5 k-tiles to lead with: one cluster's lead of 500 becomes 195
    /// assert_eq!(p.beside(1, 500).unwrap().cut(1), 196);
    /// // a lead of no k-tiles is none
    /// assert!(p.beside(3, 0).unwrap().waits_first());
    /// // a data-parallel grid takes no lead
    /// assert!(StreamKParams::data_parallel(dp, 100).beside(1, 10).is_none());
    /// ```
    pub fn beside(self, h: i32, e: i32) -> Option<Self> {
        let (s, c) = (
            self.sk_tiles * self.k_tiles.divisor(),
            self.dp.clusters.divisor(),
        );
        if self.dp_tiles != 0 || self.sk_tiles == 0 || !(0..=c).contains(&h) || e < 0 {
            return None;
        }
        let e = if h == 0 { 0 } else { e.min((s - c) / h) };
        // no k-tile to lead with: as without a lead (waiting first)
        Some(StreamKParams {
            lead: if e == 0 { 0 } else { h },
            lead_k_tiles: e,
            ..self
        })
    }
    /// Whether the kernel waits for the one ahead in the stream before it touches global memory
    /// (CUTLASS's place); `false` with lead clusters ([`beside`](Self::beside)): it waits before
    /// it exits, and lets the next kernel launch only then.
    ///
    /// ```
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
    /// assert!(StreamKParams::new(dp, 100, 1, 64, true).unwrap().waits_first());
    /// ```
    #[inline(always)]
    pub fn waits_first(&self) -> bool {
        self.lead == 0
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::format;
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

    /// The params' run-time band gives `SwizzledRaster`'s order for its const band, clusters of
    /// 1 and 2, bands wider than C.
    #[test]
    fn params_raster_is_swizzled_rasters() {
        fn check<const S: i32>(mt: i32, nt: i32, cs: i32) {
            let r = SwizzledRaster::<S>::new(mt, nt);
            let mn = (100 * cs * mt - 7, 200 * nt - 3);
            let p = PersistentTileSchedulerParams::new(mn, (100, 200), (cs, 1), 7, S).unwrap();
            assert_eq!(p.tiles_mn(), (mt, nt));
            // the same tiles of C transposed, clusters along N
            let nm = (200 * mt - 3, 100 * cs * nt - 7);
            let q = PersistentTileSchedulerParams::new(nm, (200, 100), (1, cs), 7, S).unwrap();
            assert_eq!(q.tiles_mn(), (mt, nt));
            for i in 0..r.tiles() {
                assert_eq!(p.raster(i), r.tile(i), "S={S} {mt}x{nt} tile {i}");
            }
        }
        for mt in 1..9 {
            for nt in 1..13 {
                for cs in [1, 2] {
                    check::<1>(mt, nt, cs);
                    check::<2>(mt, nt, cs);
                    check::<4>(mt, nt, cs);
                    check::<8>(mt, nt, cs);
                    check::<16>(mt, nt, cs);
                }
            }
        }
    }

    /// Stream-K's parameters: the whole tiles and the shared ones as the rule says, the cuts
    /// even and in order, for grids from one cluster to more than the tiles.
    #[test]
    fn stream_k_params_follow_the_rule() {
        for (mt, nt) in [(1, 1), (3, 5), (16, 16), (32, 16), (64, 4), (1, 28), (9, 8)] {
            for kt in [0, 1, 7, 40, 64, 128, 512] {
                for step in [1, 2, 5, 66, 132] {
                    for (ws, split_k) in [(0, false), (64, false), (64, true)] {
                        let dp = PersistentTileSchedulerParams::new(
                            (128 * mt, 256 * nt),
                            (128, 256),
                            (1, 1),
                            step,
                            1,
                        )
                        .unwrap();
                        let p = StreamKParams::new(dp, kt, 1, ws, split_k).unwrap();
                        let tiles = mt * nt;
                        let what = format!("{mt}x{nt} kt={kt} C={step} ws={ws} {split_k}: {p:?}");
                        let split = ws != 0 && split_k && tiles < step && tiles * kt >= step;
                        let rest = tiles % step;
                        let sk =
                            ws != 0 && tiles > step && rest != 0 && (step - rest) * kt >= 32 * step;
                        if split {
                            assert_eq!((p.dp_tiles(), p.sk_tiles()), (0, tiles), "{what}");
                        } else if sk {
                            assert_eq!(p.sk_tiles(), rest + step, "{what}");
                            assert_eq!(p.dp_tiles() + p.sk_tiles(), tiles, "{what}");
                        } else {
                            assert_eq!((p.dp_tiles(), p.sk_tiles()), (tiles, 0), "{what}");
                        }
                        let total = p.sk_tiles() * kt.max(1);
                        for c in 0..step {
                            let (a, b) = (p.cut(c), p.cut(c + 1));
                            assert_eq!(a, total as i64 as i32 * c / step, "{what}");
                            assert!(a <= b && b - a <= total / step + 1, "{what}");
                        }
                        assert_eq!(p.cut(step), total, "{what}");
                    }
                }
            }
        }
    }
}
