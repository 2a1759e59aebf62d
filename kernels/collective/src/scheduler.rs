//! The tile schedulers, a type parameter of the kernel schedule ([`TileScheduler`]; CUTLASS's
//! `TileScheduler` of `GemmUniversal`):
//! - [`PersistentTileScheduler`] (CUTLASS's `PersistentTileSchedulerSm90`): the cluster tiles
//!   of C in an L2-friendly order ([`SwizzledRaster`](layout_types::cutlass::tile_scheduler::SwizzledRaster)'s,
//!   its band chosen at run time), dealt out round-robin to the resident clusters — cluster
//!   `c` of `C` takes tiles `c, c + C, c + 2C, ...`;
//! - [`StreamKScheduler`] (CUTLASS's `PersistentTileSchedulerSm90StreamK` in its
//!   data-parallel + stream-K hybrid): the same order, but when the tiles do not fill the last
//!   wave, the last `tiles % C + C` tiles' k-tiles are split evenly over the `C` clusters, and
//!   a tile split between two clusters is reduced through a global workspace ([`FixupSlot`]).

use device::atomic::{ld_acquire_gpu_u32, st_release_gpu_u32};
use device::thread::trap;
use device::vec::{Float4, ld_global_v4_f32, st_global_v4_f32};
use layout_types::cute::atom::tma::TmaCoord;
use layout_types::cute::prelude::*;
use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};

/// A CTA's place in its cluster: the cluster's shape in CTAs `(cm, cn)` (CUTLASS's
/// `ClusterShape`; `(cs, 1)` or `(1, cs)`: [`ClusterShape`](crate::cluster::ClusterShape)) and the
/// CTA's coordinate `(x, y)` in it (`%cluster_ctarank` is its index in the shape's left-major
/// layout).
pub type ClusterRank = ((i32, i32), (i32, i32));

/// One unit of a cluster's work (CUTLASS's `WorkTileInfo`): cluster tile `tile`, its k-tiles
/// `k_begin..k_begin + k_count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkTile {
    /// The cluster tile, in the scheduler's order.
    pub tile: i32,
    /// The first k-tile.
    pub k_begin: i32,
    /// How many k-tiles.
    pub k_count: i32,
}

impl WorkTile {
    /// The unit's first `n` k-tiles (all of them if it has fewer).
    ///
    /// ```
    /// use collective::scheduler::WorkTile;
    /// let w = WorkTile { tile: 3, k_begin: 10, k_count: 8 };
    /// assert_eq!(w.k_head(6), WorkTile { tile: 3, k_begin: 10, k_count: 6 });
    /// assert_eq!(w.k_head(9), w);
    /// ```
    #[inline(always)]
    pub fn k_head(self, n: i32) -> WorkTile {
        WorkTile {
            k_count: self.k_count.min(n),
            ..self
        }
    }
    /// The unit's k-tiles after its first `n` (none if it has no more).
    ///
    /// ```
    /// use collective::scheduler::WorkTile;
    /// let w = WorkTile { tile: 3, k_begin: 10, k_count: 8 };
    /// assert_eq!(w.k_tail(6), WorkTile { tile: 3, k_begin: 16, k_count: 2 });
    /// assert_eq!(w.k_tail(0), w);
    /// assert_eq!(w.k_tail(9).k_count, 0);
    /// ```
    #[inline(always)]
    pub fn k_tail(self, n: i32) -> WorkTile {
        let n = self.k_count.min(n);
        WorkTile {
            tile: self.tile,
            k_begin: self.k_begin + n,
            k_count: self.k_count - n,
        }
    }
}

/// What the kernel schedule asks of a tile scheduler: the work units of this cluster, in
/// order, the same for the producer and the consumers; where a tile lies; and, after a unit's
/// mainloop, the reduction of a tile split over several clusters (CUTLASS's `fixup`).
pub trait TileScheduler: Sized {
    /// The launch constants the host computed once (CUTLASS's `TileScheduler::Params`: the tile
    /// counts, the order's and the grid's divisors, a workspace): the kernel divides by no
    /// run-time value.
    type Params: Copy;
    /// Whether a tile may be split over clusters ([`fixup`](Self::fixup) reduces it, pairing
    /// the clusters' consumer warpgroups by index: the cooperative schedule's only).
    const SPLITS: bool = false;
    /// Whether, with fewer tiles than clusters, every tile's k-tiles are split over the
    /// clusters (split-K; the host then launches more clusters than tiles).
    const SPLIT_K: bool = false;
    /// The scheduler of C `(m, n)` with `k_tiles` k-tiles, for the CTA at `(x, y)` of clusters
    /// of `(cm, cn)` CTAs (`cluster = ((cm, cn), (x, y))`), this cluster `first` of the grid's, with
    /// the host's `params` (built for this C, this tile, this cluster shape and the grid).
    fn init(
        mn: (i32, i32),
        k_tiles: i32,
        cluster: ClusterRank,
        first: i32,
        params: Self::Params,
    ) -> Self;
    /// Whether the kernel waits for the one ahead in the stream before its first access to
    /// global memory (CUTLASS's `wait_on_dependent_grids`, the default), or only before it
    /// exits: a launch whose first clusters run in the last wave's holes of a kernel ahead
    /// that neither reads nor writes what it does
    /// ([`StreamKParams::beside`](layout_types::cutlass::tile_scheduler::StreamKParams::beside)).
    #[inline(always)]
    fn waits_first(_params: &Self::Params) -> bool {
        true
    }
    /// This cluster's work units, in order.
    fn work_tiles(&self) -> impl Iterator<Item = WorkTile>;
    /// This CTA's tile of cluster tile `tile`: its origin `(m0, n0)` in C and its M-tile index.
    fn tile_origin(&self, tile: i32) -> ((i32, i32), i32);
    /// Whether `w` is the last unit whose epilogue runs (an asynchronous store must drain).
    fn is_last_work(&self, w: &WorkTile) -> bool;
    /// After `w`'s mainloop, consumer warpgroup `wg`'s thread `t` with its accumulators `acc`:
    /// reduces a split tile (its partials in the workspace in `order`, the accumulation's
    /// [`FIXUP_ORDER`](crate::mainloop::MmaAccumulation::FIXUP_ORDER)); whether the epilogue
    /// stores `acc` now (`false`: another cluster finishes the tile).
    ///
    /// # Safety
    /// Called by every thread of the warpgroup, after every unit's mainloop, in the order of
    /// [`work_tiles`](Self::work_tiles), with one `order` for the launch; the arguments the
    /// scheduler was made with hold.
    unsafe fn fixup(
        &self,
        w: &WorkTile,
        acc: &mut [f32; 128],
        wg: i32,
        t: i32,
        order: FixupOrder,
    ) -> bool;
}

/// The tiles a cluster computes, and where each CTA's tile of a cluster tile lies in C. The
/// order and the grid are the host's [`PersistentTileSchedulerParams`]:
/// [`SwizzledRaster`](layout_types::cutlass::tile_scheduler::SwizzledRaster)'s order (bands of
/// `band` N-tiles, each walked M-row by M-row — bands of 1: M fastest —, the band a run-time
/// value, so one build can measure several), or a host-built table (a Hilbert curve); cluster
/// `c` of `C` takes tiles `c, c + C, ...`.
///
/// ```
/// use collective::scheduler::PersistentTileScheduler;
/// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
/// // C of 1000 × 600 in 128 × 256 CTA tiles, clusters of 1, this cluster 1 of 4, bands of 1
/// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (1, 1), 4, 1).unwrap();
/// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((1, 1), (0, 0)), 1);
/// assert_eq!(s.tiles(), 8 * 3);
/// let t: Vec<_> = s.iter().map(|t| s.origin(t)).collect();
/// assert_eq!(t.len(), 6);
/// assert_eq!(t[0], ((128, 0), 1)); // tile 1: M-tile 1, N-tile 0
/// // bands of 2 N-tiles: tile 1 is M-tile 0, N-tile 1 (SwizzledRaster::<2>'s order)
/// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (1, 1), 4, 2).unwrap();
/// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((1, 1), (0, 0)), 1);
/// assert_eq!(s.origin(1), ((0, 256), 0));
/// // a Hilbert order: 2 × 2 cluster tiles from a host-built table
/// use layout_types::cutlass::tile_scheduler::HilbertRaster;
/// let table: Vec<[i32; 2]> = HilbertRaster::new(2, 2).iter().map(|(m, n)| [m, n]).collect();
/// let p = PersistentTileSchedulerParams::new((256, 512), (128, 256), (1, 1), 1, 1).unwrap();
/// // SAFETY: the table holds one pair per tile of this grid, and outlives the scheduler
/// let p = unsafe { p.with_table(table.as_ptr() as u64) };
/// let s = PersistentTileScheduler::<128, 256>::new((256, 512), p, ((1, 1), (0, 0)), 0);
/// let o: Vec<_> = s.iter().map(|t| s.origin(t).0).collect();
/// assert_eq!(o, [(0, 0), (0, 256), (128, 256), (128, 0)]);
/// ```
#[derive(Clone, Copy)]
pub struct PersistentTileScheduler<const BM: i32, const BN: i32> {
    params: PersistentTileSchedulerParams,
    mn: (i32, i32),
    /// The cluster's shape `(cm, cn)` and this CTA's coordinate in it.
    cluster: ClusterRank,
    /// This cluster.
    first: i32,
    /// k-tiles of a tile (the [`TileScheduler`] view; 0 from [`Self::new`]).
    k_tiles: i32,
}

impl<const BM: i32, const BN: i32> PersistentTileScheduler<BM, BN> {
    /// The scheduler of C `(m, n)` with the host's `params` (built for this C, `BM × BN`
    /// tiles, clusters of `(cm, cn)` and the grid) for the CTA at `(x, y)` of its cluster `((cm, cn), (x, y))`, this
    /// cluster `first` of the grid's. Parameters built for another C, tile or cluster (tiles
    /// that do not cover C, or an empty one: a tile would be missed or stored twice) trap.
    ///
    /// ```
    /// use collective::scheduler::PersistentTileScheduler;
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // C of 1000 × 600 in 128 × 256 CTA tiles, clusters of 2 along M (256 × 256 cluster
    /// // tiles), 4 clusters; the CTA of rank 1 of cluster 3
    /// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (2, 1), 4, 1).unwrap();
    /// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((2, 1), (1, 0)), 3);
    /// assert_eq!(s.origin(3), ((896, 0), 7)); // cluster tile 3's second M-tile
    /// // parameters built for 64-row CTA tiles trap (off the GPU: panic)
    /// let p64 = PersistentTileSchedulerParams::new((1000, 600), (64, 256), (2, 1), 4, 1).unwrap();
    /// let new = move || PersistentTileScheduler::<128, 256>::new((1000, 600), p64, ((2, 1), (1, 0)), 3);
    /// assert!(std::panic::catch_unwind(new).is_err());
    /// ```
    #[inline(always)]
    pub fn new(
        mn: (i32, i32),
        params: PersistentTileSchedulerParams,
        cluster: ClusterRank,
        first: i32,
    ) -> Self {
        // each mode's cluster tiles reach past C's last element, and not by a whole tile
        // (multiplications: the kernel divides by no run-time value)
        let ((cm, cn), _) = cluster;
        let ((tm, tn), (bm, bn)) = (params.tiles_mn(), (BM * cm, BN * cn));
        if tm * bm < mn.0 || (tm - 1) * bm >= mn.0 || tn * bn < mn.1 || (tn - 1) * bn >= mn.1 {
            trap();
        }
        PersistentTileScheduler {
            params,
            mn,
            cluster,
            first,
            k_tiles: 0,
        }
    }
    /// Cluster tiles of C.
    ///
    /// ```
    /// use collective::scheduler::PersistentTileScheduler;
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // 1000 × 600 in clusters of 2 CTA tiles of 128 × 256 along M: 4 × 3 cluster tiles
    /// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (2, 1), 4, 1).unwrap();
    /// let s = PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((2, 1), (0, 0)), 0);
    /// assert_eq!(s.tiles(), 12);
    /// ```
    #[inline(always)]
    pub fn tiles(&self) -> i32 {
        self.params.tiles()
    }
    /// The grid's clusters.
    #[inline(always)]
    fn step(&self) -> i32 {
        self.params.clusters().divisor()
    }
    /// This cluster's tiles.
    ///
    /// ```
    /// use collective::scheduler::PersistentTileScheduler;
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // 8 × 3 tiles of 128 × 256 dealt out round-robin to 5 clusters
    /// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (1, 1), 5, 1).unwrap();
    /// let s = |c| PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((1, 1), (0, 0)), c);
    /// assert_eq!(s(3).iter().collect::<Vec<_>>(), [3, 8, 13, 18, 23]);
    /// assert_eq!(s(4).iter().collect::<Vec<_>>(), [4, 9, 14, 19]);
    /// ```
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = i32> {
        (self.first..self.tiles()).step_by(self.step() as usize)
    }
    /// Whether `tile` is this cluster's last.
    ///
    /// ```
    /// use collective::scheduler::PersistentTileScheduler;
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // 24 tiles on 5 clusters: cluster 3 takes 3, 8, ..., 23, cluster 4 takes 4, 9, 14, 19
    /// let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (1, 1), 5, 1).unwrap();
    /// let s = |c| PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((1, 1), (0, 0)), c);
    /// assert!(s(3).is_last(23) && !s(3).is_last(18));
    /// assert!(s(4).is_last(19));
    /// ```
    #[inline(always)]
    pub fn is_last(&self, tile: i32) -> bool {
        tile + self.step() >= self.tiles()
    }
    /// This CTA's tile of cluster tile `tile`: its origin `(m0, n0)` in C and its M-tile index
    /// (cluster tile `(tm, tn)` of a cluster of `(cm, cn)` CTAs holds CTA tiles `((x, tm), (y,
    /// tn))` of the `((cm, ·), (cn, ·))` split, `(x, y)` the CTA's coordinate in the cluster).
    ///
    /// ```
    /// use collective::scheduler::PersistentTileScheduler;
    /// use layout_types::cutlass::tile_scheduler::PersistentTileSchedulerParams;
    /// // C of 1000 × 1000, clusters of 2 CTA tiles of 128 × 256 along N: 8 × 2 cluster tiles of
    /// // 128 × 512, M fastest (bands of 1); the CTA at (0, 1) takes each one's second N-tile
    /// let p = PersistentTileSchedulerParams::new((1000, 1000), (128, 256), (1, 2), 4, 1).unwrap();
    /// let s = PersistentTileScheduler::<128, 256>::new((1000, 1000), p, ((1, 2), (0, 1)), 0);
    /// assert_eq!(s.origin(1), ((128, 256), 1)); // cluster tile (1, 0)
    /// assert_eq!(s.origin(8), ((0, 768), 0)); // cluster tile (0, 1): N-tile 3
    /// ```
    #[inline(always)]
    pub fn origin(&self, tile: i32) -> ((i32, i32), i32) {
        let (tm, tn) = self.params.raster(tile);
        let ((cm, cn), (x, y)) = self.cluster;
        let (mt, nt) = self.params.tiles_mn();
        let bx = make_layout_left((cm, mt)).crd2idx((x, tm)).value() as i32;
        let by = make_layout_left((cn, nt)).crd2idx((y, tn)).value() as i32;
        let o = make_identity_tensor(self.mn)
            .local_tile((BM, BN), (bx, by))
            .at((_0, _0));
        let [m0, n0] = o.0.tma_coord();
        ((m0, n0), bx)
    }
}

impl<const BM: i32, const BN: i32> TileScheduler for PersistentTileScheduler<BM, BN> {
    /// The order and the grid.
    type Params = PersistentTileSchedulerParams;
    #[inline(always)]
    fn init(
        mn: (i32, i32),
        k_tiles: i32,
        cluster: ClusterRank,
        first: i32,
        params: PersistentTileSchedulerParams,
    ) -> Self {
        let mut s = Self::new(mn, params, cluster, first);
        s.k_tiles = k_tiles;
        s
    }
    #[inline(always)]
    fn work_tiles(&self) -> impl Iterator<Item = WorkTile> {
        let k_count = self.k_tiles;
        self.iter().map(move |tile| WorkTile {
            tile,
            k_begin: 0,
            k_count,
        })
    }
    #[inline(always)]
    fn tile_origin(&self, tile: i32) -> ((i32, i32), i32) {
        self.origin(tile)
    }
    #[inline(always)]
    fn is_last_work(&self, w: &WorkTile) -> bool {
        self.is_last(w.tile)
    }
    #[inline(always)]
    unsafe fn fixup(
        &self,
        _: &WorkTile,
        _: &mut [f32; 128],
        _: i32,
        _: i32,
        _: FixupOrder,
    ) -> bool {
        true
    }
}

/// Which of a thread's accumulators each element of a 16-byte partial row holds: row `j`'s
/// `(x, y, z, w)` are accumulators `4j + q[0..4]` of [`quad`](Self::quad)'s `q`. The row is
/// one 16-byte store (`st.global.v4.f32`) of four registers in a row, so the order decides the
/// accumulators' register parities: [`InOrder`](Self::InOrder) puts accumulator `v` at
/// `v`'s parity, as a `wgmma` fragment has it (its own accumulators: no move);
/// [`PairsSwapped`](Self::PairsSwapped) at the other parity — for a promoted accumulation,
/// whose `main[v] += s · temp[v]` then never reads its three sources from one register bank
/// (`temp[v]` is the fragment's: doc/fp8-gemm.md, sessions 36 and 64).
///
/// ```
/// use collective::scheduler::FixupOrder;
/// assert_eq!(FixupOrder::InOrder.quad(), [0, 1, 2, 3]);
/// assert_eq!(FixupOrder::PairsSwapped.quad(), [1, 0, 3, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixupOrder {
    /// Accumulators `4j, 4j + 1, 4j + 2, 4j + 3`.
    InOrder,
    /// Accumulators `4j + 1, 4j, 4j + 3, 4j + 2`.
    PairsSwapped,
}

impl FixupOrder {
    /// The accumulator (within its quad) of each element of a row.
    #[inline(always)]
    pub const fn quad(self) -> [usize; 4] {
        match self {
            FixupOrder::InOrder => [0, 1, 2, 3],
            FixupOrder::PairsSwapped => [1, 0, 3, 2],
        }
    }
}

/// A consumer thread's share of a split tile's partial accumulators, and its flag: the
/// workspace of [`StreamKScheduler`] holds [`StreamKScheduler::SLOTS_PER_CLUSTER`] of these per
/// resident cluster (one per CTA rank and consumer warpgroup), `partial[j][t]` being thread
/// `t`'s accumulators `4j..4j + 4` in a [`FixupOrder`] (each warp's 16-byte stores
/// contiguous; writer and reader take the same order). The flags start at
/// 0 (the host zeroes the workspace once); the cluster that writes a partial sets its threads'
/// flags to 1, the one that reads it sets them back to 0.
#[repr(C)]
pub struct FixupSlot {
    /// Partial accumulators, `[j][thread]`.
    pub partial: [[Float4; 128]; 32],
    /// One flag per thread.
    pub flags: [u32; 128],
}

impl FixupSlot {
    /// Thread `t`'s `N` floats into rows `j0..j0 + N/4` of `slot`'s partial in `order` (`N` a
    /// multiple of 4, `j0 + N/4 ≤ 32`); the flag is [`signal`](Self::signal)'s.
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed(); // the host zeroes the workspace
    /// let slot = ws.as_mut_ptr() as usize;
    /// // SAFETY: each of 8 threads writes its own share of the slot
    /// unsafe {
    ///     device::emu::launch((1, 1, 1), (8, 1, 1), 0, || {
    ///         let t = device::thread::thread_idx_x() as usize;
    ///         let part: [f32; 8] = core::array::from_fn(|i| (10 * t + i) as f32);
    ///         let slot = slot as *mut FixupSlot;
    ///         FixupSlot::store(slot, t, 2, &part, FixupOrder::InOrder); // rows 2 and 3
    ///         FixupSlot::store(slot, t, 4, &part, FixupOrder::PairsSwapped); // rows 4 and 5
    ///     })
    /// };
    /// let ws = unsafe { ws.assume_init() };
    /// let p = &ws.partial;
    /// assert_eq!((p[2][5].x, p[2][5].w, p[3][5].x, p[3][5].w), (50.0, 53.0, 54.0, 57.0));
    /// assert_eq!((p[4][5].x, p[4][5].y, p[5][5].z, p[5][5].w), (51.0, 50.0, 57.0, 56.0));
    /// assert_eq!(ws.flags[5], 0); // not signalled yet
    /// ```
    ///
    /// # Safety
    /// `slot` is a workspace slot whose flag `t` is 0 (cleared by the last reader, or zeroed by
    /// the host); `t < 128`.
    #[inline(always)]
    pub unsafe fn store<const N: usize>(
        slot: *mut FixupSlot,
        t: usize,
        j0: usize,
        part: &[f32; N],
        order: FixupOrder,
    ) {
        unsafe { Self::store_rows(slot, t, j0, part, N / 4, order) };
    }
    /// [`store`](Self::store) of `part`'s first `rows` rows of four (`rows` a constant where
    /// it inlines: the stores past it are not emitted).
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed();
    /// let slot = ws.as_mut_ptr() as usize;
    /// let part: [f32; 128] = core::array::from_fn(|i| i as f32 + 1.0);
    /// // SAFETY: one thread writes thread 3's share of the slot
    /// unsafe {
    ///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
    ///         FixupSlot::store_rows(slot as *mut FixupSlot, 3, 0, &part, 16, FixupOrder::InOrder);
    ///     })
    /// };
    /// let p = unsafe { ws.assume_init() }.partial;
    /// assert_eq!((p[15][3].w, p[16][3].x), (64.0, 0.0)); // rows 0..16 only
    /// ```
    ///
    /// # Safety
    /// As [`store`](Self::store), with `j0 + rows ≤ 32` and `4·rows ≤ N`.
    #[inline(always)]
    pub unsafe fn store_rows<const N: usize>(
        slot: *mut FixupSlot,
        t: usize,
        j0: usize,
        part: &[f32; N],
        rows: usize,
        order: FixupOrder,
    ) {
        if !N.is_multiple_of(4) || 4 * rows > N || j0 + rows > 32 {
            trap();
        }
        let q = order.quad();
        unsafe {
            let partial = &raw mut (*slot).partial;
            device::unroll!(N / 4, |j| if j < rows {
                let v = Float4 {
                    x: part[4 * j + q[0]],
                    y: part[4 * j + q[1]],
                    z: part[4 * j + q[2]],
                    w: part[4 * j + q[3]],
                };
                st_global_v4_f32(&raw mut (*partial)[j0 + j][t], v);
            });
        }
    }
    /// Sets thread `t`'s flag (`st.release.gpu`: its [`store`](Self::store)s are visible to
    /// whoever sees the flag).
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed();
    /// let slot = ws.as_mut_ptr() as usize;
    /// // SAFETY: one thread writes thread 9's share of the slot, and its flag
    /// unsafe {
    ///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
    ///         FixupSlot::store(slot as *mut FixupSlot, 9, 0, &[1.0; 4], FixupOrder::InOrder);
    ///         FixupSlot::signal(slot as *mut FixupSlot, 9);
    ///     })
    /// };
    /// let ws = unsafe { ws.assume_init() };
    /// assert_eq!((ws.flags[9], ws.flags[8]), (1, 0)); // thread 9's flag only
    /// ```
    ///
    /// # Safety
    /// As [`store`](Self::store).
    #[inline(always)]
    pub unsafe fn signal(slot: *mut FixupSlot, t: usize) {
        unsafe { st_release_gpu_u32(&raw mut (*slot).flags[t], 1) };
    }
    /// Waits for thread `t`'s flag (`ld.acquire.gpu`).
    ///
    /// CTA 0 holds a tile's tail, CTA 1 its head: each thread of CTA 1 waits for its
    /// counterpart's partial, then reads it (the emulator, on one core, runs CTA 0 first).
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed();
    /// let mut got = [[0f32; 8]; 4];
    /// let (slot, out) = (ws.as_mut_ptr() as usize, got.as_mut_ptr() as usize);
    /// // SAFETY: CTA 0 writes the slot, CTA 1 reads it after the flags and writes `got`
    /// unsafe {
    ///     device::emu::launch((2, 1, 1), (4, 1, 1), 0, || {
    ///         let (t, slot) = (device::thread::thread_idx_x() as usize, slot as *mut FixupSlot);
    ///         if device::thread::block_idx_x() == 0 {
    ///             FixupSlot::store(slot, t, 0, &[t as f32 + 0.5; 8], FixupOrder::InOrder);
    ///             FixupSlot::signal(slot, t);
    ///         } else {
    ///             FixupSlot::wait(slot, t); // until CTA 0's thread t has signalled
    ///             let got = FixupSlot::load::<8>(slot, t, 0, FixupOrder::InOrder);
    ///             *(out as *mut [f32; 8]).add(t) = got;
    ///         }
    ///     })
    /// };
    /// assert_eq!(got[3], [3.5; 8]);
    /// ```
    ///
    /// # Safety
    /// Another CTA [`signal`](Self::signal)s `slot`'s flag `t`; `t < 128`.
    #[inline(always)]
    pub unsafe fn wait(slot: *mut FixupSlot, t: usize) {
        unsafe { while ld_acquire_gpu_u32(&raw const (*slot).flags[t]) == 0 {} }
    }
    /// Thread `t`'s `N` floats of rows `j0..j0 + N/4` of `slot`'s partial, written in `order`.
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder::PairsSwapped, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed();
    /// let mut got = ([0f32; 8], [0f32; 128]);
    /// let (slot, out) = (ws.as_mut_ptr() as usize, &raw mut got as usize);
    /// let part: [f32; 128] = core::array::from_fn(|i| i as f32); // a thread's accumulators
    /// // SAFETY: one thread writes thread 127's share of the slot, reads it back into `got`
    /// unsafe {
    ///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
    ///         let slot = slot as *mut FixupSlot;
    ///         FixupSlot::store(slot, 127, 0, &part, PairsSwapped);
    ///         FixupSlot::signal(slot, 127);
    ///         FixupSlot::wait(slot, 127);
    ///         let out = out as *mut ([f32; 8], [f32; 128]);
    ///         (*out).0 = FixupSlot::load::<8>(slot, 127, 30, PairsSwapped); // rows 30 and 31
    ///         (*out).1 = FixupSlot::load::<128>(slot, 127, 0, PairsSwapped);
    ///     })
    /// };
    /// assert_eq!(got.0, core::array::from_fn(|i| (120 + i) as f32));
    /// assert_eq!(got.1, part);
    /// ```
    ///
    /// # Safety
    /// After [`wait`](Self::wait) for `t`; `N` a multiple of 4, `j0 + N/4 ≤ 32`.
    #[inline(always)]
    pub unsafe fn load<const N: usize>(
        slot: *const FixupSlot,
        t: usize,
        j0: usize,
        order: FixupOrder,
    ) -> [f32; N] {
        if !N.is_multiple_of(4) || j0 + N / 4 > 32 {
            trap();
        }
        let q = order.quad();
        let mut part = [0f32; N];
        unsafe {
            let partial = &raw const (*slot).partial;
            device::unroll!(N / 4, |j| {
                let v = ld_global_v4_f32(&raw const (*partial)[j0 + j][t]);
                part[4 * j + q[0]] = v.x;
                part[4 * j + q[1]] = v.y;
                part[4 * j + q[2]] = v.z;
                part[4 * j + q[3]] = v.w;
            });
        }
        part
    }
    /// Sets thread `t`'s flag back to 0 once its partial is read: the slot is free for the
    /// next launch.
    ///
    /// ```
    /// use collective::scheduler::{FixupOrder, FixupSlot};
    /// let mut ws = Box::<FixupSlot>::new_zeroed();
    /// let slot = ws.as_mut_ptr() as usize;
    /// // SAFETY: one thread writes and reads thread 0's share of the slot
    /// unsafe {
    ///     device::emu::launch((1, 1, 1), (1, 1, 1), 0, || {
    ///         let slot = slot as *mut FixupSlot;
    ///         FixupSlot::store(slot, 0, 0, &[1.0; 4], FixupOrder::InOrder);
    ///         FixupSlot::signal(slot, 0);
    ///         FixupSlot::wait(slot, 0);
    ///         assert_eq!(FixupSlot::load::<4>(slot, 0, 0, FixupOrder::InOrder), [1.0; 4]);
    ///         FixupSlot::clear(slot, 0);
    ///     })
    /// };
    /// assert_eq!(unsafe { ws.assume_init() }.flags[0], 0); // free for the next launch's tail
    /// ```
    ///
    /// # Safety
    /// After [`load`](Self::load)ing all of `t`'s partial.
    #[inline(always)]
    pub unsafe fn clear(slot: *mut FixupSlot, t: usize) {
        unsafe { st_release_gpu_u32(&raw mut (*slot).flags[t], 0) };
    }
}

/// CUTLASS's `PersistentTileSchedulerSm90StreamK`, data-parallel + stream-K: with `C` resident
/// clusters and `T` cluster tiles of `k_tiles` k-tiles each, when `T % C ≠ 0` and `T > C`
/// (a workspace given, and the last wave leaving at least
/// [`MIN_IDLE_K_TILES`](StreamKParams::MIN_IDLE_K_TILES) k-tiles per cluster idle on average), the first
/// `T − (T % C + C)` tiles are dealt out whole as [`PersistentTileScheduler`] does (full waves),
/// and the k-tiles of the last `T % C + C` tiles, flattened, are cut into `C` even ranges, one
/// per cluster: each cluster's total work is then the same to a k-tile, where the last wave
/// left `C − T % C` clusters idle. A range is at least `k_tiles` long, so a tile is split
/// between two clusters at most: the one holding its tail (k-tiles `kb..`, the first unit of
/// its range) stores its partial accumulators in its [`FixupSlot`]s and sets the flags; the
/// one holding its head (`..kb`, the last unit of its range) waits for the flags, adds the
/// partials and runs the epilogue. A tail is computed first and a head last, so a wait only
/// covers the difference in the two clusters' progress, and no cluster waits on one that waits.
/// Every cluster must be resident at once (the persistent grid).
///
/// Which tiles are whole and which are shared, and the cuts, are the host's
/// [`StreamKParams`] (its rule; the kernel divides by no run-time value).
///
/// `SPLIT_K` (the FP8 entries; CUTLASS's stream-K with more units than tiles): with fewer
/// tiles than clusters (`T < C`, a workspace given, at least one k-tile per cluster), every
/// tile is in the stream-K part and the `T·k_tiles` k-tiles are cut into `C` even ranges
/// shorter than a tile, so a tile is split over several neighbouring clusters: each cluster
/// whose range starts inside the tile stores its partial (a tail, its range's first unit), and
/// the one holding the tile's k-tile 0 (its range's last unit) waits for all of them. The
/// host asks for it by launching more clusters than tiles (`config::split_k_clusters`).
///
/// ```
/// use collective::scheduler::{StreamKScheduler, TileScheduler, WorkTile};
/// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
/// // 4 × 2 cluster tiles of 128 × 256 (clusters of 1), 100 k-tiles each, 3 clusters: 8 = 2·3 + 2,
/// // so 3 tiles data-parallel and the last 5 tiles' 500 k-tiles split 166 / 167 / 167
/// let ws = 64; // the workspace's address: not touched by `work_tiles`
/// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
/// let p = StreamKParams::new(dp, 100, 1, ws, false).unwrap();
/// let s = |c| StreamKScheduler::<128, 256>::init((512, 512), 100, ((1, 1), (0, 0)), c, p);
/// let w: Vec<WorkTile> = s(0).work_tiles().collect();
/// let t = |tile, k_begin, k_count| WorkTile { tile, k_begin, k_count };
/// assert_eq!(w, [t(0, 0, 100), t(3, 0, 100), t(4, 0, 66)]);
/// let w: Vec<WorkTile> = s(1).work_tiles().collect();
/// assert_eq!(w, [t(1, 0, 100), t(4, 66, 34), t(5, 0, 100), t(6, 0, 33)]);
/// assert!(s(1).is_last_work(&w[3]));
/// // SPLIT_K: 2 tiles of 100 k-tiles over 5 clusters, ranges of 40: cluster 1 holds the tail
/// // 40..80 of tile 0, cluster 2 its tail 80..100 and the head 0..20 of tile 1
/// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
/// let p = StreamKParams::new(dp, 100, 1, ws, true).unwrap();
/// let s = |c| StreamKScheduler::<128, 256, true>::init((128, 512), 100, ((1, 1), (0, 0)), c, p);
/// assert_eq!(s(0).work_tiles().collect::<Vec<_>>(), [t(0, 0, 40)]);
/// assert_eq!(s(1).work_tiles().collect::<Vec<_>>(), [t(0, 40, 40)]);
/// assert_eq!(s(2).work_tiles().collect::<Vec<_>>(), [t(0, 80, 20), t(1, 0, 20)]);
/// assert_eq!(s(2).tails_of(&t(1, 0, 20)), 3..5);
/// ```
#[derive(Clone, Copy)]
pub struct StreamKScheduler<const BM: i32, const BN: i32, const SPLIT_K: bool = false> {
    dp: PersistentTileScheduler<BM, BN>,
    /// The host's split: tiles whole and shared, the cuts' divisors, the workspace.
    params: StreamKParams,
    /// This cluster's range of the stream-K part's flattened k-tiles (empty without one).
    sk: (i32, i32),
}

impl<const BM: i32, const BN: i32, const SPLIT_K: bool> StreamKScheduler<BM, BN, SPLIT_K> {
    /// Workspace slots per resident cluster: 2 CTA ranks × 2 consumer warpgroups.
    pub const SLOTS_PER_CLUSTER: usize = 4;
    /// The [`FixupSlot`] rows a split tile's partial fills: a consumer warpgroup's 64 × `BN`
    /// tile (the cooperative schedule's: a splitting scheduler composes with no other,
    /// `collective::kernel::Composes`) is the first `BN/2` values of the `m64n256` fragment
    /// `fixup` is given, four to a row. A 128-wide tile's tail writes and its head reads 16 of
    /// the 32 rows.
    ///
    /// ```
    /// use collective::scheduler::StreamKScheduler;
    /// assert_eq!(StreamKScheduler::<128, 128>::ROWS, 16);
    /// assert_eq!(StreamKScheduler::<128, 192, true>::ROWS, 24);
    /// assert_eq!(StreamKScheduler::<128, 256>::ROWS, 32);
    /// ```
    pub const ROWS: usize = {
        assert!(
            BN % 8 == 0 && BN > 0 && BN <= 256,
            "StreamKScheduler: BN a multiple of 8 in 8..=256 (a warpgroup's m64nBN accumulators, BN/2 a thread)"
        );
        BN as usize / 8
    };

    /// The grid's clusters.
    #[inline(always)]
    fn step(&self) -> i32 {
        self.dp.step()
    }
    /// This CTA's rank in its cluster (the index of its coordinate in the cluster's shape).
    #[inline(always)]
    fn rank(&self) -> i32 {
        let ((cm, _), (x, y)) = self.dp.cluster;
        x + cm * y
    }
    /// The slot of consumer warpgroup `wg` of this CTA in cluster `unit`'s part of the
    /// workspace.
    #[inline(always)]
    fn slot(&self, unit: i32, wg: i32) -> *mut FixupSlot {
        let i = make_layout_left((_2, _2, self.step())).crd2idx((wg, self.rank(), unit));
        // SAFETY: inside the workspace of `step` clusters' slots (`init`'s contract)
        unsafe { (self.params.workspace() as *mut FixupSlot).add(i.value() as usize) }
    }
    /// Waits for thread `t`'s flag in `slot`, adds its partial accumulators (in `order`) to `acc` and sets
    /// the flag back to 0.
    ///
    /// # Safety
    /// `slot` is a workspace slot another cluster's tail writes (`fixup`'s contract).
    #[inline(always)]
    unsafe fn add_partial(slot: *mut FixupSlot, acc: &mut [f32; 128], t: usize, order: FixupOrder) {
        let q = order.quad();
        unsafe {
            FixupSlot::wait(slot, t);
            let part = &raw const (*slot).partial;
            device::unroll!(32, |j| if j < Self::ROWS {
                let v = ld_global_v4_f32(&raw const (*part)[j][t]);
                acc[4 * j + q[0]] += v.x;
                acc[4 * j + q[1]] += v.y;
                acc[4 * j + q[2]] += v.z;
                acc[4 * j + q[3]] += v.w;
            });
            FixupSlot::clear(slot, t);
        }
    }
    /// Thread `t`'s partial accumulators (the tile's [`ROWS`](Self::ROWS) of them, in `order`)
    /// into `slot`, and its flag set.
    ///
    /// # Safety
    /// `slot` is this cluster's slot, its flag `t` 0 (`fixup`'s contract).
    #[inline(always)]
    unsafe fn put_partial(slot: *mut FixupSlot, acc: &[f32; 128], t: usize, order: FixupOrder) {
        unsafe {
            FixupSlot::store_rows(slot, t, 0, acc, Self::ROWS, order);
            FixupSlot::signal(slot, t);
        }
    }
    /// The clusters holding the tails of the tile whose head is `w` (a unit of this cluster
    /// with `k_begin == 0`, `k_count < k_tiles`): the next ones, while their ranges start
    /// inside the tile — one without `SPLIT_K` (a range is at least a tile long).
    ///
    /// ```
    /// use collective::scheduler::{StreamKScheduler, TileScheduler, WorkTile};
    /// use layout_types::cutlass::tile_scheduler::{PersistentTileSchedulerParams, StreamKParams};
    /// // SPLIT_K: 2 tiles of 100 k-tiles over 5 clusters, ranges of 40: cluster 0 holds the
    /// // head 0..40 of tile 0, clusters 1 (40..80) and 2 (80..100) its tails
    /// let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 5, 1).unwrap();
    /// let p = StreamKParams::new(dp, 100, 1, 64, true).unwrap();
    /// let s = StreamKScheduler::<128, 256, true>::init((128, 512), 100, ((1, 1), (0, 0)), 0, p);
    /// let head = s.work_tiles().last().unwrap();
    /// assert_eq!((head, s.tails_of(&head)), (WorkTile { tile: 0, k_begin: 0, k_count: 40 }, 1..3));
    /// // stream-K: 8 tiles on 3 clusters, cluster 0's last unit the head 0..66 of tile 4, whose
    /// // tail 66..100 is cluster 1's
    /// let dp = PersistentTileSchedulerParams::new((512, 512), (128, 256), (1, 1), 3, 1).unwrap();
    /// let p = StreamKParams::new(dp, 100, 1, 64, false).unwrap();
    /// let s = StreamKScheduler::<128, 256>::init((512, 512), 100, ((1, 1), (0, 0)), 0, p);
    /// let head = s.work_tiles().last().unwrap();
    /// assert_eq!((head, s.tails_of(&head)), (WorkTile { tile: 4, k_begin: 0, k_count: 66 }, 1..2));
    /// ```
    #[inline(always)]
    pub fn tails_of(&self, w: &WorkTile) -> core::ops::Range<i32> {
        let next = self.dp.first + 1;
        if !SPLIT_K {
            return next..next + 1;
        }
        let end = (w.tile - self.params.dp_tiles() + 1) * self.dp.k_tiles;
        let mut last = next;
        while last + 1 < self.step() && self.params.cut(last + 1) < end {
            last += 1;
        }
        next..last + 1
    }
}

impl<const BM: i32, const BN: i32, const SPLIT_K: bool> TileScheduler
    for StreamKScheduler<BM, BN, SPLIT_K>
{
    /// The split and the workspace ([`Self::SLOTS_PER_CLUSTER`] [`FixupSlot`]s per resident
    /// cluster, flags zero; none: data-parallel only), built with `split_k` = `SPLIT_K`.
    type Params = StreamKParams;
    const SPLITS: bool = true;
    const SPLIT_K: bool = SPLIT_K;
    #[inline(always)]
    fn waits_first(params: &StreamKParams) -> bool {
        params.waits_first()
    }
    #[inline(always)]
    fn init(
        mn: (i32, i32),
        k_tiles: i32,
        cluster: ClusterRank,
        first: i32,
        params: StreamKParams,
    ) -> Self {
        let dp = PersistentTileScheduler::<BM, BN>::init(mn, k_tiles, cluster, first, params.dp());
        // this cluster's range: the `first`-th of the grid's even cuts of the flattened k-tiles
        let sk = if params.sk_tiles() > 0 {
            (params.cut(first), params.cut(first + 1))
        } else {
            (0, 0)
        };
        StreamKScheduler { dp, params, sk }
    }
    #[inline(always)]
    fn work_tiles(&self) -> impl Iterator<Item = WorkTile> {
        let kt = self.dp.k_tiles;
        let (first, step, dp_tiles) = (self.dp.first, self.step(), self.params.dp_tiles());
        let (a, b) = self.sk;
        let whole = (first..dp_tiles)
            .step_by(step as usize)
            .map(move |tile| WorkTile {
                tile,
                k_begin: 0,
                k_count: kt,
            });
        // the stream-K tiles this range touches (those of its first and last k-tiles), each
        // cut to the range
        let kd = self.params.k_tiles();
        let touched = if a < b {
            int_div(a, kd)..int_div(b - 1, kd) + 1
        } else {
            0..0
        };
        let split = touched.map(move |t| {
            let k0 = t * kt;
            let (kb, ke) = (a.max(k0) - k0, b.min(k0 + kt) - k0);
            WorkTile {
                tile: dp_tiles + t,
                k_begin: kb,
                k_count: ke - kb,
            }
        });
        whole.chain(split)
    }
    #[inline(always)]
    fn tile_origin(&self, tile: i32) -> ((i32, i32), i32) {
        self.dp.origin(tile)
    }
    #[inline(always)]
    fn is_last_work(&self, w: &WorkTile) -> bool {
        let (a, b) = self.sk;
        if a < b {
            // the range's last tile: a whole tile or a head, both stored here
            w.tile == self.params.dp_tiles() + int_div(b - 1, self.params.k_tiles())
        } else {
            w.tile + self.step() >= self.params.dp_tiles()
        }
    }
    #[inline(always)]
    unsafe fn fixup(
        &self,
        w: &WorkTile,
        acc: &mut [f32; 128],
        wg: i32,
        t: i32,
        order: FixupOrder,
    ) -> bool {
        let t = t as usize;
        if w.k_begin > 0 {
            // a tail: the previous cluster holds the head and finishes the tile
            unsafe { Self::put_partial(self.slot(self.dp.first, wg), acc, t, order) };
            false
        } else if w.k_count < self.dp.k_tiles {
            // a head: the next cluster's tail is the rest of the tile (SPLIT_K: the next
            // clusters' tails)
            if SPLIT_K {
                for c in self.tails_of(w) {
                    unsafe { Self::add_partial(self.slot(c, wg), acc, t, order) };
                }
            } else {
                unsafe { Self::add_partial(self.slot(self.dp.first + 1, wg), acc, t, order) };
            }
            true
        } else {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{boxed::Box, format, vec, vec::Vec};

    use super::*;

    use layout_types::cutlass::tile_scheduler::SwizzledRaster;

    /// `TILES` 128 × `BN` tiles (C of 128 × `BN`·`TILES`) of 30 k-tiles split-K over `clusters`
    /// clusters of 1, with `lead` clusters (`StreamKParams::beside`) if given, reduced through
    /// the workspace by `fixup` on the emulator in `order`, two threads a CTA: each stored tile's
    /// accumulators per thread, `[tile][thread]`, and whether the workspace's rows past the
    /// tile's (`ROWS..`) are untouched. Cluster `c`'s thread `t` holds `1000 c + 100 t + i`.
    /// The emulator runs CTA 0 first, so the clusters run last to first: every tail before the
    /// head that waits for it.
    fn reduce_on_emulator<const BN: i32, const TILES: usize>(
        clusters: i32,
        lead: Option<(i32, i32)>,
        order: FixupOrder,
    ) -> ([[[f32; 128]; 2]; TILES], bool) {
        use layout_types::cutlass::tile_scheduler::StreamKParams;
        let slots = clusters as usize * StreamKScheduler::<128, BN, true>::SLOTS_PER_CLUSTER;
        let mut ws = Box::<[FixupSlot]>::new_zeroed_slice(slots);
        let ws_addr = ws.as_mut_ptr() as u64;
        let mn = (128, BN * TILES as i32);
        let dp = PersistentTileSchedulerParams::new(mn, (128, BN), (1, 1), clusters, 1).unwrap();
        let p = StreamKParams::new(dp, 30, 1, ws_addr, true).unwrap();
        let p = lead.map_or(p, |(h, e)| p.beside(h, e).unwrap());
        let mut out = [[[0f32; 128]; 2]; TILES];
        let out_addr = out.as_mut_ptr() as usize;
        // SAFETY: each thread reads and writes its own share of the workspace and of `out`; the
        // tails run before the heads that wait for their flags (above)
        unsafe {
            device::emu::launch((clusters as u32, 1, 1), (2, 1, 1), 0, || {
                let c = clusters - 1 - device::thread::block_idx_x() as i32;
                let t = device::thread::thread_idx_x() as i32;
                let s = StreamKScheduler::<128, BN, true>::init(mn, 30, ((1, 1), (0, 0)), c, p);
                for w in s.work_tiles() {
                    let mut acc: [f32; 128] =
                        core::array::from_fn(|i| (1000 * c + 100 * t) as f32 + i as f32);
                    if s.fixup(&w, &mut acc, 0, t, order) {
                        let out = out_addr as *mut [[f32; 128]; 2];
                        (*out.add(w.tile as usize))[t as usize] = acc;
                    }
                }
            })
        };
        let rows = StreamKScheduler::<128, BN, true>::ROWS;
        let untouched = ws.iter().all(|slot| {
            // SAFETY: zeroed, then written by `fixup` alone
            let slot = unsafe { slot.assume_init_ref() };
            slot.partial[rows..]
                .iter()
                .flatten()
                .all(|v| (v.x, v.y, v.z, v.w) == (0.0, 0.0, 0.0, 0.0))
        });
        (out, untouched)
    }

    /// A tile split-K over three clusters, reduced through the workspace by `fixup` on the
    /// emulator, in either partial order: the head's result is the sum of the three clusters'
    /// accumulators, element by element (a reader out of step with the writer's order would add
    /// each value into its pair partner).
    #[test]
    fn fixup_reduces_a_split_tile_in_either_order() {
        for order in [FixupOrder::InOrder, FixupOrder::PairsSwapped] {
            // one tile of 30 k-tiles over 3 clusters: ranges of 10, cluster 0 the head
            // (k-tiles 0..10), clusters 1 and 2 its tails
            let ([out], _) = reduce_on_emulator::<256, 1>(3, None, order);
            for (t, got) in out.iter().enumerate() {
                // clusters 0, 1, 2: 3000 + 3·(100 t + i)
                let want: [f32; 128] = core::array::from_fn(|i| (3000 + 300 * t + 3 * i) as f32);
                assert_eq!(got, &want, "{order:?}, thread {t}");
            }
        }
    }

    /// A 128-wide tile (a warpgroup's 64 × 128 accumulators: the first 64 values of the 128
    /// `fixup` is given) split-K over three clusters: the head adds the tails' first 64 values
    /// and keeps its own others, and no tail writes the workspace's rows past the tile's 16.
    #[test]
    fn fixup_moves_a_narrow_tiles_accumulators_only() {
        for order in [FixupOrder::InOrder, FixupOrder::PairsSwapped] {
            let ([out], untouched) = reduce_on_emulator::<128, 1>(3, None, order);
            assert!(untouched, "{order:?}: rows past the tile's written");
            for (t, got) in out.iter().enumerate() {
                let want: [f32; 128] = core::array::from_fn(|i| {
                    let own = (100 * t + i) as f32;
                    if i < 64 { 3000.0 + 3.0 * own } else { own }
                });
                assert_eq!(got, &want, "{order:?}, thread {t}");
            }
        }
    }

    /// Lead clusters (`StreamKParams::beside`) on the emulator: two tiles of 30 k-tiles over 4
    /// clusters, cluster 0 leading by 25 (cuts 0, 33, 42, 51, 60): it computes tile 0 whole and
    /// the head of tile 1 (k-tiles 0..3), whose tails are clusters 1, 2 and 3; tile 0 is cluster
    /// 0's accumulators, tile 1 the sum of the four clusters'.
    #[test]
    fn fixup_reduces_with_lead_clusters() {
        use layout_types::cutlass::tile_scheduler::StreamKParams;
        let dp = PersistentTileSchedulerParams::new((128, 512), (128, 256), (1, 1), 4, 1).unwrap();
        let p = StreamKParams::new(dp, 30, 1, 64, true)
            .unwrap()
            .beside(1, 25)
            .unwrap();
        assert!(!p.waits_first());
        assert_eq!(
            (0..=4).map(|c| p.cut(c)).collect::<Vec<_>>(),
            [0, 33, 42, 51, 60]
        );
        let ([tile0, tile1], _) =
            reduce_on_emulator::<256, 2>(4, Some((1, 25)), FixupOrder::InOrder);
        for (t, (got0, got1)) in tile0.iter().zip(&tile1).enumerate() {
            let whole: [f32; 128] = core::array::from_fn(|i| (100 * t + i) as f32);
            assert_eq!(got0, &whole, "tile 0, thread {t}");
            // clusters 0..4: 6000 + 4·(100 t + i)
            let sum: [f32; 128] = core::array::from_fn(|i| (6000 + 400 * t + 4 * i) as f32);
            assert_eq!(got1, &sum, "tile 1, thread {t}");
        }
    }

    /// The host's parameters for a run-time band give `SwizzledRaster`'s order for its const
    /// band, each CTA of a cluster its own M-tile (clusters along M) or N-tile (along N) of the
    /// cluster tile.
    #[test]
    fn origins_are_swizzled_rasters() {
        fn check<const S: i32>(mt: i32, nt: i32, cs: i32) {
            let r = SwizzledRaster::<S>::new(mt, nt);
            let mn = (128 * cs * mt, 256 * nt);
            let p = PersistentTileSchedulerParams::new(mn, (128, 256), (cs, 1), 1, S).unwrap();
            for rank in 0..cs {
                let s = PersistentTileScheduler::<128, 256>::new(mn, p, ((cs, 1), (rank, 0)), 0);
                assert_eq!(s.iter().count() as i32, r.tiles());
                for i in 0..r.tiles() {
                    let (m, n) = r.tile(i);
                    let bx = cs * m + rank;
                    assert_eq!(
                        s.origin(i),
                        ((128 * bx, 256 * n), bx),
                        "S={S} {mt}x{nt} {i}"
                    );
                }
            }
            // clusters along N: each CTA its own N-tile of the cluster tile
            let mn = (128 * mt, 192 * cs * nt - 64);
            let p = PersistentTileSchedulerParams::new(mn, (128, 192), (1, cs), 1, S).unwrap();
            for rank in 0..cs {
                let s = PersistentTileScheduler::<128, 192>::new(mn, p, ((1, cs), (0, rank)), 0);
                assert_eq!(s.iter().count() as i32, r.tiles());
                for i in 0..r.tiles() {
                    let (m, n) = r.tile(i);
                    let by = cs * n + rank;
                    assert_eq!(
                        s.origin(i),
                        ((128 * m, 192 * by), m),
                        "S={S} {mt}x{nt} {i} N"
                    );
                }
            }
        }
        for mt in 1..9 {
            for nt in 1..13 {
                for cs in [1, 2] {
                    check::<1>(mt, nt, cs);
                    check::<2>(mt, nt, cs);
                    check::<8>(mt, nt, cs);
                }
            }
        }
    }

    /// Parameters built for another tile, cluster or C than the scheduler's trap (here: panic).
    #[test]
    fn parameters_of_another_tile_trap() {
        let p = PersistentTileSchedulerParams::new((1000, 600), (128, 256), (1, 1), 4, 1).unwrap();
        let _ = PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((1, 1), (0, 0)), 0);
        let traps =
            |f: fn(PersistentTileSchedulerParams)| std::panic::catch_unwind(|| f(p)).is_err();
        assert!(traps(|p| {
            PersistentTileScheduler::<64, 256>::new((1000, 600), p, ((1, 1), (0, 0)), 0);
        }));
        assert!(traps(|p| {
            PersistentTileScheduler::<128, 128>::new((1000, 600), p, ((1, 1), (0, 0)), 0);
        }));
        assert!(traps(|p| {
            PersistentTileScheduler::<128, 256>::new((1000, 600), p, ((2, 1), (0, 0)), 0);
        }));
        assert!(traps(|p| {
            PersistentTileScheduler::<128, 256>::new((1000, 900), p, ((1, 1), (0, 0)), 0);
        }));
    }

    /// Stream-K: every k-tile of every tile computed once; a split tile has a head (k-tile 0
    /// on, the last unit of cluster `u`) and a tail (the first unit of cluster `u + 1`, whose
    /// slot the head reads); each cluster's last unit stores; with a stream-K part, the
    /// clusters' k-tiles differ by at most one.
    /// A table order gives the table's tiles, for whole tiles and stream-K's split ones alike.
    #[test]
    fn table_order_is_the_tables() {
        use layout_types::cutlass::tile_scheduler::HilbertRaster;
        for (mt, nt) in [(3, 5), (16, 16), (1, 28), (9, 7)] {
            let table: Vec<[i32; 2]> = HilbertRaster::new(mt, nt)
                .iter()
                .map(|(m, n)| [m, n])
                .collect();
            let mn = (128 * mt, 256 * nt);
            let p = PersistentTileSchedulerParams::new(mn, (128, 256), (1, 1), 4, 1).unwrap();
            // SAFETY: one pair per tile, alive below
            let p = unsafe { p.with_table(table.as_ptr() as u64) };
            let s = PersistentTileScheduler::<128, 256>::new(mn, p, ((1, 1), (0, 0)), 0);
            for (i, &[m, n]) in table.iter().enumerate() {
                assert_eq!(s.origin(i as i32).0, (128 * m, 256 * n));
            }
            let mut ws = vec![
                0u8;
                4 * StreamKScheduler::<128, 256>::SLOTS_PER_CLUSTER
                    * core::mem::size_of::<FixupSlot>()
            ];
            let ws = ws.as_mut_ptr() as u64;
            let sp = StreamKParams::new(p, 40, 1, ws, false).unwrap();
            let sk = StreamKScheduler::<128, 256>::init(mn, 40, ((1, 1), (0, 0)), 1, sp);
            for w in sk.work_tiles() {
                let [m, n] = table[w.tile as usize];
                assert_eq!(sk.tile_origin(w.tile).0, (128 * m, 256 * n));
            }
        }
    }

    #[test]
    fn stream_k_covers_each_k_tile_once() {
        let ws = 64;
        for (mt, nt, kt, step, cs) in [
            (64, 4, 128, 66, 2),
            (32, 16, 64, 66, 1),
            (16, 16, 512, 66, 2),
            (5, 3, 200, 4, 1),
            (7, 3, 64, 5, 2),
            (9, 8, 40, 66, 2),
            (3, 3, 90, 2, 1),
            (16, 16, 64, 66, 2), // 8 idle k-tiles per cluster: data-parallel
            (8, 8, 32, 64, 2),   // a whole number of waves: data-parallel
            (2, 3, 32, 10, 1),   // fewer tiles than clusters: data-parallel
        ] {
            let mn = (128 * cs * mt, 256 * nt);
            let tiles = mt * nt;
            let mut seen = vec![vec![0u8; kt as usize]; tiles as usize];
            let mut heads = vec![None; tiles as usize];
            let mut tails = vec![None; tiles as usize];
            let mut loads = vec![];
            let dp = PersistentTileSchedulerParams::new(mn, (128, 256), (cs, 1), step, 1).unwrap();
            let p = StreamKParams::new(dp, kt, cs, ws, false).unwrap();
            for c in 0..step {
                let s = StreamKScheduler::<128, 256>::init(mn, kt, ((cs, 1), (0, 0)), c, p);
                let w: Vec<WorkTile> = s.work_tiles().collect();
                let what = format!("{mt}x{nt} kt={kt} clusters={step} cluster {c}: {w:?}");
                for (i, u) in w.iter().enumerate() {
                    assert!(u.k_count > 0 && u.k_begin + u.k_count <= kt, "{what}");
                    for k in u.k_begin..u.k_begin + u.k_count {
                        seen[u.tile as usize][k as usize] += 1;
                    }
                    if u.k_begin > 0 {
                        assert_eq!(
                            i,
                            (p.dp_tiles() - c).max(0).ceil_div(step) as usize,
                            "{what}"
                        );
                        tails[u.tile as usize] = Some(c);
                    } else if u.k_count < kt {
                        assert_eq!(i, w.len() - 1, "{what}");
                        heads[u.tile as usize] = Some(c);
                    }
                    assert_eq!(s.is_last_work(u), i == w.len() - 1, "{what}");
                }
                if let Some(l) = w.last() {
                    assert_eq!(l.k_begin, 0, "the last unit stores: {what}");
                }
                loads.push(w.iter().map(|u| u.k_count).sum::<i32>());
            }
            assert!(
                seen.iter().flatten().all(|&n| n == 1),
                "{mt}x{nt} kt={kt}: {seen:?}"
            );
            for t in 0..tiles as usize {
                match (heads[t], tails[t]) {
                    (None, None) => {}
                    (Some(h), Some(tl)) => assert_eq!(h + 1, tl, "tile {t}"),
                    other => panic!("tile {t} of {mt}x{nt}: head and tail {other:?}"),
                }
            }
            let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            let stream_k =
                tiles > step && tiles % step != 0 && (step - tiles % step) * kt >= 32 * step;
            if stream_k {
                assert!(hi - lo <= 1, "{mt}x{nt} kt={kt}: loads {loads:?}");
                assert!(
                    heads.iter().any(Option::is_some),
                    "{mt}x{nt} kt={kt}: no split"
                );
            } else {
                assert!(
                    heads.iter().all(Option::is_none),
                    "{mt}x{nt} kt={kt}: a split"
                );
            }
        }
    }

    /// SPLIT_K with fewer tiles than clusters: every k-tile of every tile once; each tile's
    /// head (k-tile 0 on) is its cluster's last unit and finds exactly the clusters whose first
    /// unit is one of the tile's tails; the clusters' k-tiles within one of each other (with
    /// lead clusters, `StreamKParams::beside`: the others' within one of each other, each lead
    /// cluster `e` more within one). With as many tiles as clusters or more it is the plain
    /// stream-K scheduler.
    #[test]
    fn split_k_covers_each_k_tile_once() {
        for lead in [None, Some((1, 7)), Some((10, 40)), Some((3, 1000))] {
            split_k_covers_each_k_tile_once_with(lead);
        }
    }

    fn split_k_covers_each_k_tile_once_with(lead: Option<(i32, i32)>) {
        let ws = 64;
        for (mt, nt, kt, step, cs) in [
            (1, 28, 128, 132, 1), // 128×7168×16384 FP8
            (1, 56, 128, 132, 1), // the same on 128×128 tiles
            (1, 9, 56, 63, 2),    // 200×2112×7168 FP8
            (1, 16, 64, 128, 1),  // 64×4096×8192 FP8
            (1, 3, 48, 18, 1),
            (2, 3, 7, 41, 1),
            (1, 1, 1, 1, 1),
            (1, 5, 3, 15, 2), // one k-tile per cluster
        ] {
            let mn = (128 * cs * mt, 256 * nt);
            let tiles = mt * nt;
            let mut seen = vec![vec![0u8; kt as usize]; tiles as usize];
            let mut tails = vec![vec![]; tiles as usize];
            let mut heads = vec![None; tiles as usize];
            let mut loads = vec![];
            let dp = PersistentTileSchedulerParams::new(mn, (128, 256), (cs, 1), step, 1).unwrap();
            let p = StreamKParams::new(dp, kt, cs, ws, true).unwrap();
            let p = match lead {
                Some((h, e)) if tiles < step && h <= step => p.beside(h, e).unwrap(),
                _ => p,
            };
            for c in 0..step {
                let s = StreamKScheduler::<128, 256, true>::init(mn, kt, ((cs, 1), (0, 0)), c, p);
                let w: Vec<WorkTile> = s.work_tiles().collect();
                let what = format!("{mt}x{nt} kt={kt} clusters={step} cluster {c}: {w:?}");
                for (i, u) in w.iter().enumerate() {
                    assert!(u.k_count > 0 && u.k_begin + u.k_count <= kt, "{what}");
                    for k in u.k_begin..u.k_begin + u.k_count {
                        seen[u.tile as usize][k as usize] += 1;
                    }
                    if u.k_begin > 0 {
                        assert_eq!(i, 0, "a tail is the range's first unit: {what}");
                        tails[u.tile as usize].push(c);
                    } else if u.k_count < kt {
                        assert_eq!(i, w.len() - 1, "a head is the range's last unit: {what}");
                        heads[u.tile as usize] = Some((c, s.tails_of(u)));
                    }
                    assert_eq!(s.is_last_work(u), i == w.len() - 1, "{what}");
                }
                loads.push(w.iter().map(|u| u.k_count).sum::<i32>());
            }
            assert!(
                seen.iter().flatten().all(|&n| n == 1),
                "{mt}x{nt} kt={kt}: {seen:?}"
            );
            for t in 0..tiles as usize {
                match &heads[t] {
                    None => assert!(tails[t].is_empty(), "tile {t}: tails without a head"),
                    Some((h, r)) => {
                        assert_eq!(r.start, h + 1, "tile {t}");
                        assert_eq!(r.clone().collect::<Vec<_>>(), tails[t], "tile {t}");
                    }
                }
            }
            if tiles < step {
                // the lead clusters' loads and the others' each within one of each other, the
                // lead ones' at least the others'
                let h = if p.waits_first() {
                    0
                } else {
                    lead.unwrap().0 as usize
                };
                let (lead_loads, rest) = loads.split_at(h);
                for part in [lead_loads, rest] {
                    if let (Some(lo), Some(hi)) = (part.iter().min(), part.iter().max()) {
                        assert!(
                            hi - lo <= 1,
                            "{mt}x{nt} kt={kt} lead {lead:?}: loads {loads:?}"
                        );
                    }
                }
                if let (Some(l), Some(r)) = (lead_loads.iter().min(), rest.iter().max()) {
                    assert!(
                        l + 1 >= *r,
                        "{mt}x{nt} kt={kt} lead {lead:?}: loads {loads:?}"
                    );
                }
                assert!(loads.iter().all(|&l| l >= 1), "{loads:?}");
            }
        }
    }
}
