//! The GEMM's partitions in CuTe's words, on the typed layer (`layout_types::cute`): which
//! thread copies, reads and writes which element of A, B, C and the shared-memory tiles.
//!
//! Host-compilable (no device code): the kernel (`gemm::sgemm`) calls these functions with the
//! thread index, and the host tests (`tests/gemm_partitions.rs`, which `#[path]`-include this
//! file) evaluate them for every thread and compare them with the kernel's previous constant
//! tables. Every function is `#[inline(always)]`: the static modes fold, only the thread
//! index's shifts and masks remain.
//!
//! Partitions of one configuration `(BM,BN,BK)` × `(TX,TY)` threads ([`GemmTiles`], one impl per
//! configuration from [`gemm_tiles!`](crate::gemm_tiles), written once over typed layouts):
//! - gmem → smem copy of an operand tile `(BX,BK)`: a TiledCopy of 128-bit atoms whose vectors
//!   run along the contiguous mode (MN-major: thread layout `(BX/4,NT/(BX/4)):(_1,BX/4)`, values
//!   `(_4,_1)`; K-major: `(NT/(BK/4),BK/4):(BK/4,_1)`, values `(_1,_4)`); its `partition_S` of
//!   the tile's identity tensor gives each vector's `(x, k)`.
//! - compute: the warp-tiled thread layout `THR = ((_8,TX/8),(_4,TY/4)):((_1,_32),(_8,32·TX/8))`
//!   partitions the 4-vectors of the k-major smem tiles, `zipped_divide(sA, (_4,_1))`, with
//!   `Step<_1,X>` (thrA) and `Step<X,_1>` (thrB), and the 4×4 blocks of C,
//!   `zipped_divide(gC, (_4,_4))`, with no projection (thrC).

use layout_types::cute::atom::copy::TileLayout;
use layout_types::cute::layout::CompactLeft;
use layout_types::cute::layout::StaticLayoutValue;
use layout_types::cute::prelude::*;
use layout_types::cute::tensor::{Advance, FragmentLayout};

/// Stride type of an operand `(X,K)` in global memory: which of its two strides is `_1`.
pub trait Major {
    /// `true`: `(X,K):(ld,_1)` (K contiguous); `false`: `(X,K):(_1,ld)` (X contiguous).
    const K_MAJOR: bool;
    /// The operand's layout `(X,K)` with leading dimension `ld` (64-bit indices): the offset of
    /// element `(x, k)`.
    fn offset(ld: i64, x: i64, k: i64) -> i64;
}
/// `(X,K):(_1,ld)`: X (M for A, N for B) is contiguous.
#[derive(Clone, Copy, Default)]
pub struct MnMajor;
/// `(X,K):(ld,_1)`: K is contiguous.
#[derive(Clone, Copy, Default)]
pub struct KMajor;
impl Major for MnMajor {
    const K_MAJOR: bool = false;
    #[inline(always)]
    fn offset(ld: i64, x: i64, k: i64) -> i64 {
        layout!((_1, _1):(_1, ld)).crd2idx((x, k))
    }
}
impl Major for KMajor {
    const K_MAJOR: bool = true;
    #[inline(always)]
    fn offset(ld: i64, x: i64, k: i64) -> i64 {
        layout!((_1, _1):(ld, _1)).crd2idx((x, k))
    }
}

/// The gmem side of the operands' copies for operands of majority `M` ([`MnMajor`] /
/// [`KMajor`]), as typed layouts: the TiledCopy's thread and value layouts (128-bit vectors along
/// the contiguous mode) and the CTA's k-tiles of `A` and `B`.
pub trait CopyTiles<M: Major>: GemmTiles {
    /// Thread layout of the copy of an A tile `(BM,BK)`.
    type ThrA: StaticLayoutValue;
    /// Thread layout of the copy of a B tile `(BN,BK)`.
    type ThrB: StaticLayoutValue;
    /// Value layout: one 4-vector along the contiguous mode (`(_4,_1)` or `(_1,_4)`).
    type Val: StaticLayoutValue;
    /// One k-tile of `gA`, `(BM,BK)` with the operand's strides (64-bit `ld`).
    type GA: TileLayout<Off = i64>;
    /// One k-tile of `gB`, `(BN,BK)`.
    type GB: TileLayout<Off = i64>;
    /// Coordinates of the A tile, `make_identity_tensor((BM,BK))`.
    type CA: TileLayout;
    /// Coordinates of the B tile.
    type CB: TileLayout;
    /// `gA = local_tile(mA, cta_tiler, (bx, by, _), Step<_1,X,_1>)` of the A tensor `(M,K)` at
    /// `a` with leading dimension `ld`: `gA(_,_,0)` and the stride of gA's k mode (elements).
    fn g_a(
        a: *const f32,
        mk: (i32, i32),
        ld: i32,
        cta: (i32, i32),
    ) -> (Tensor<Gmem<f32>, Self::GA>, i64);
    /// `gB = local_tile(mB, cta_tiler, (bx, by, _), Step<X,_1,_1>)`: `gB(_,_,0)` and the stride
    /// of its k mode.
    fn g_b(
        b: *const f32,
        nk: (i32, i32),
        ld: i32,
        cta: (i32, i32),
    ) -> (Tensor<Gmem<f32>, Self::GB>, i64);
    /// `make_identity_tensor((BM,BK))`: the coordinates of the A tile.
    fn c_a() -> Tensor<Counting<_0>, Self::CA>;
    /// `make_identity_tensor((BN,BK))`.
    fn c_b() -> Tensor<Counting<_0>, Self::CB>;
}

/// A thread's partition of a tile: the offset of its first element (dynamic: depends on the
/// thread index) and its values' offsets relative to it (static).
pub trait Part: Copy {
    /// The offset (in the tile) of value `(i, j)`, relative to the thread's first value.
    fn val(&self, i: usize, j: usize) -> i32;
    /// The offset of the thread's first value.
    fn base(&self) -> i32;
    /// `base() + val(i, j)`.
    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> i32 {
        self.base() + self.val(i, j)
    }
}

/// The partitions of one static configuration (see the module docs).
pub trait GemmTiles {
    /// The CTA tile `(BM, BN, BK)`.
    const BM: i32;
    /// See [`GemmTiles::BM`].
    const BN: i32;
    /// See [`GemmTiles::BM`].
    const BK: i32;
    /// Threads per CTA.
    const NT: usize;
    /// The accumulator fragment's layout `(TM, TN)`: compact, row-major (`(TM,TN):(TN,_1)`).
    /// Any compact layout computes the same C (the FFMAs and the epilogue both index it by
    /// [`GemmTiles::acc_idx`]); the order of the 64 registers is what ptxas allocates from,
    /// and row-major with [`crate::Reversed`]`<`[`crate::RowsQuadEvenOdd`]`>` gave every bounded
    /// entry the fewest FFMA register-bank conflicts (`tools/sass_mix.py`).
    type Acc: FragmentLayout + Default;
    /// `(BM/(4·TX), BN/(4·TY))`: 4-vectors of A and of B per thread per k (4×4 blocks of C).
    const FRAGS: (usize, usize);
    /// Leading dimension (floats) of the k-major smem tiles `sA = (BM,BK):(_1,BM+4)` and `sB`.
    const LDS: (u32, u32);
    /// Floats of `sA` (its cosize; `sB` follows it in a stage).
    const SA_FLOATS: u32;
    /// Floats of one stage (`sA` then `sB`).
    const STAGE_FLOATS: u32;
    /// Dynamic shared memory bytes of the kernel (two stages).
    const SMEM_BYTES: u32 = 2 * 4 * Self::STAGE_FLOATS;
    /// The index of accumulator `(im, jn)` in [`GemmTiles::acc`]: its layout [`GemmTiles::Acc`]
    /// at that coordinate.
    fn acc_idx(im: usize, jn: usize) -> usize;
    /// The smem tile `sA = (BM,BK):(_1,BM+4)`.
    type SA: TileLayout<Off = i32> + Default;
    /// The smem tile `sB = (BN,BK):(_1,BN+4)`.
    type SB: TileLayout<Off = i32> + Default;
    /// This thread's accumulators, `(TM, TN)`, cleared (`make_fragment_like` of its part of C).
    #[inline(always)]
    fn acc() -> Fragment<f32, Self::Acc> {
        Fragment::new(Default::default())
    }
    /// `gC = local_tile(mC, cta_tiler, (bx, by, _), Step<_1,_1,X>)` of C `(M,N):(_1,ldc)`: the
    /// pointer of its element `(i, j)`.
    fn g_c(c: *mut f32, mn: (i32, i32), ldc: i32, cta: (i32, i32), ij: (i32, i32)) -> *mut f32;
    /// Offset in `sA` of `(x, k)`.
    fn sa(x: i32, k: i32) -> i32;
    /// Offset in `sB` of `(x, k)`.
    fn sb(x: i32, k: i32) -> i32;
    /// Shape of `tCsA(_,_,k)`, `(V, THR_M)`: the 4-vector `(_4,_1)` and this thread's vectors.
    type CsAS: IntTuple + CompactLeft<_1> + Copy;
    /// Stride of `tCsA(_,_,k)` (in `sA`).
    type CsAD: IntTuple + Copy;
    /// Shape of `tCsB(_,_,k)`, `(V, THR_N)`.
    type CsBS: IntTuple + CompactLeft<_1> + Copy;
    /// Stride of `tCsB(_,_,k)` (in `sB`).
    type CsBD: IntTuple + Copy;
    /// `tCsA(_,_,0)`: this thread's part of k-step 0 of `sA` (at `s_a`) as the outer products
    /// read it, `(V, THR_M)`: `zipped_divide(sA, (_4,_1))` (mode 0 the 4-vector `V`) with its
    /// vectors partitioned by the compute thread layout with `Step<_1,X>` (thrA).
    /// k-step `k` is `tCsA(_,_,0)` moved by `sA(0, k)` (the partition keeps sA's k mode whole).
    fn t_cs_a<E: Advance<i32, Output = E>>(
        s_a: E,
        tid: i32,
    ) -> Tensor<E, Layout<Self::CsAS, Self::CsAD>>;
    /// `tCsB(_,_,0)`, `(V, THR_N)` (see [`GemmTiles::t_cs_a`]; `Step<X,_1>`).
    fn t_cs_b<E: Advance<i32, Output = E>>(
        s_b: E,
        tid: i32,
    ) -> Tensor<E, Layout<Self::CsBS, Self::CsBD>>;
    /// thrC: this thread's 4×4 blocks of the C tile, `(THR_M, THR_N)`, as the 1-D coordinate
    /// (`m + BM·n`, the C tile's `(BM,BN):(_1,BM)`) of each block's first element.
    fn thr_c(tid: i32) -> impl Part;
    /// The `(m, n)` coordinate of a 1-D coordinate of the C tile (`idx2crd`).
    fn c_crd(idx: i32) -> (i32, i32);
}

/// A typed partition: layout of the thread's values and its offset.
#[derive(Clone, Copy)]
pub struct TypedPart<L> {
    /// `(i, j)` → offset relative to the first value.
    pub layout: L,
    /// The first value's offset.
    pub off: i32,
}

impl<S, D> Part for TypedPart<Layout<S, D>>
where
    S: IntTuple,
    D: IntTuple,
    (i32, i32): layout_types::cute::layout::Crd2Idx<S, D>,
    <(i32, i32) as layout_types::cute::layout::Crd2Idx<S, D>>::Output: Integral,
{
    #[inline(always)]
    fn val(&self, i: usize, j: usize) -> i32 {
        self.layout.crd2idx((i as i32, j as i32)).value() as i32
    }
    #[inline(always)]
    fn base(&self) -> i32 {
        self.off
    }
}

/// Defines the static configuration type `$cfg` and its [`GemmTiles`]: CTA tile
/// `($bm,$bn,$bk)` (typed `_N`), `$tx × $ty` threads with the compute thread layout `$thr` (a
/// typed layout type), smem leading dimensions `$ldsa`/`$ldsb` (`BX + 4`), and the copy thread
/// layouts of A and B for either majority (MN-major, K-major).
#[macro_export]
macro_rules! gemm_tiles {
    (
        $(#[$m:meta])*
        $cfg:ident: tile ($bm:ty, $bn:ty, $bk:ty), threads ($tx:literal, $ty:literal), thr $thr:ty,
        acc ($tm:ty, $tn:ty),
        frag_a ($fas:ty, $fad:ty), frag_b ($fbs:ty, $fbd:ty),
        smem ($ldsa:ty, $ldsb:ty),
        copy_a ($ca_mn:ty, $ca_k:ty),
        copy_b ($cb_mn:ty, $cb_k:ty) $(,)?
    ) => {
        $(#[$m])*
        pub struct $cfg;
        impl $cfg {
            /// `sA = (BM,BK):(_1,BM+4)`.
            #[inline(always)]
            pub fn sa_layout() -> Layout<($bm, $bk), (_1, $ldsa)> {
                Default::default()
            }
            /// `sB = (BN,BK):(_1,BN+4)`.
            #[inline(always)]
            pub fn sb_layout() -> Layout<($bn, $bk), (_1, $ldsb)> {
                Default::default()
            }
        }
        impl $crate::tiles::GemmTiles for $cfg {
            const BM: i32 = <$bm as StaticInt>::VALUE as i32;
            const BN: i32 = <$bn as StaticInt>::VALUE as i32;
            const BK: i32 = <$bk as StaticInt>::VALUE as i32;
            const NT: usize = $tx * $ty;
            type Acc = Layout<($tm, $tn), ($tn, _1)>;
            type SA = Layout<($bm, $bk), (_1, $ldsa)>;
            type SB = Layout<($bn, $bk), (_1, $ldsb)>;
            const FRAGS: (usize, usize) = (
                <$bm as StaticInt>::VALUE as usize / (4 * $tx),
                <$bn as StaticInt>::VALUE as usize / (4 * $ty),
            );
            const LDS: (u32, u32) = (
                <$ldsa as StaticInt>::VALUE as u32,
                <$ldsb as StaticInt>::VALUE as u32,
            );
            const SA_FLOATS: u32 = (<$ldsa as StaticInt>::VALUE
                * (<$bk as StaticInt>::VALUE - 1)
                + <$bm as StaticInt>::VALUE) as u32;
            const STAGE_FLOATS: u32 = Self::SA_FLOATS
                + (<$ldsb as StaticInt>::VALUE * (<$bk as StaticInt>::VALUE - 1)
                    + <$bn as StaticInt>::VALUE) as u32;
            #[inline(always)]
            fn g_c(
                c: *mut f32,
                (m, n): (i32, i32),
                ldc: i32,
                (bx, by): (i32, i32),
                (i, j): (i32, i32),
            ) -> *mut f32 {
                let (m, n, ldc) = (m as i64, n as i64, ldc as i64);
                let tiler = <($bm, $bn, $bk)>::default();
                make_tensor(make_gmem_ptr(c), layout!((m, n):(_1, ldc)))
                    .local_tile_proj(tiler, (bx as i64, by as i64, Underscore), (_1, _1, X))
                    .ptr((i as i64, j as i64))
            }
            #[inline(always)]
            fn sa(x: i32, k: i32) -> i32 {
                Self::sa_layout().crd2idx((x, k)).value() as i32
            }
            #[inline(always)]
            fn sb(x: i32, k: i32) -> i32 {
                Self::sb_layout().crd2idx((x, k)).value() as i32
            }
            type CsAS = $fas;
            type CsAD = $fad;
            type CsBS = $fbs;
            type CsBD = $fbd;
            #[inline(always)]
            fn t_cs_a<E: Advance<i32, Output = E>>(s_a: E, tid: i32) -> Tensor<E, Layout<$fas, $fad>> {
                let zd = zipped_divide(Self::sa_layout(), (_4, _1));
                let (part, off) = local_partition_proj(zd.get::<1>(), <$thr>::default(), tid as u32, (_1, X));
                let v = zd.get::<0>();
                make_tensor(s_a.advance(off.value() as i32), make_layout((v.shape, part.shape.0), (v.stride, part.stride.0)))
            }
            #[inline(always)]
            fn t_cs_b<E: Advance<i32, Output = E>>(s_b: E, tid: i32) -> Tensor<E, Layout<$fbs, $fbd>> {
                let zd = zipped_divide(Self::sb_layout(), (_4, _1));
                let (part, off) = local_partition_proj(zd.get::<1>(), <$thr>::default(), tid as u32, (X, _1));
                let v = zd.get::<0>();
                make_tensor(s_b.advance(off.value() as i32), make_layout((v.shape, part.shape.0), (v.stride, part.stride.0)))
            }
            #[inline(always)]
            fn thr_c(tid: i32) -> impl $crate::tiles::Part {
                let v = zipped_divide(make_layout_left(<($bm, $bn)>::default()), (_4, _4)).get::<1>();
                let (layout, off) = local_partition(v, <$thr>::default(), tid as u32);
                $crate::tiles::TypedPart { layout, off: off.value() as i32 }
            }
            #[inline(always)]
            fn acc_idx(im: usize, jn: usize) -> usize {
                <Self::Acc>::default().crd2idx((im, jn))
            }
            #[inline(always)]
            fn c_crd(idx: i32) -> (i32, i32) {
                make_layout_left(<($bm, $bn)>::default()).get_hier_coord(idx)
            }
        }
        $crate::gemm_tiles!(@copy $cfg, $crate::tiles::MnMajor, ($bm, $bn, $bk), $ca_mn, $cb_mn,
            Layout<(_4, _1), (_1, _0)>, (_1, i64), (m, k, ld), (_1, ld));
        $crate::gemm_tiles!(@copy $cfg, $crate::tiles::KMajor, ($bm, $bn, $bk), $ca_k, $cb_k,
            Layout<(_1, _4), (_0, _1)>, (i64, _1), (m, k, ld), (ld, _1));
    };
    (@copy $cfg:ident, $major:ty, ($bm:ty, $bn:ty, $bk:ty), $ca:ty, $cb:ty, $val:ty, $stride:ty,
        ($m:ident, $k:ident, $ld:ident), ($s0:tt, $s1:tt)) => {
        impl $crate::tiles::CopyTiles<$major> for $cfg {
            type ThrA = $ca;
            type ThrB = $cb;
            type Val = $val;
            type GA = Layout<($bm, $bk), $stride>;
            type GB = Layout<($bn, $bk), $stride>;
            type CA = Layout<($bm, $bk), (E0, E1)>;
            type CB = Layout<($bn, $bk), (E0, E1)>;
            #[inline(always)]
            fn g_a(
                a: *const f32,
                ($m, $k): (i32, i32),
                $ld: i32,
                (bx, by): (i32, i32),
            ) -> (Tensor<Gmem<f32>, Self::GA>, i64) {
                let ($m, $k, $ld) = ($m as i64, $k as i64, $ld as i64);
                let g = make_tensor(make_gmem_ptr(a as *mut f32), layout!(($m, $k):($s0, $s1)))
                    .local_tile_proj(<($bm, $bn, $bk)>::default(), (bx as i64, by as i64, Underscore), (_1, X, _1));
                (g.slice((Underscore, Underscore, 0i64)), g.layout.stride.2.value())
            }
            #[inline(always)]
            fn g_b(
                b: *const f32,
                ($m, $k): (i32, i32),
                $ld: i32,
                (bx, by): (i32, i32),
            ) -> (Tensor<Gmem<f32>, Self::GB>, i64) {
                let ($m, $k, $ld) = ($m as i64, $k as i64, $ld as i64);
                let g = make_tensor(make_gmem_ptr(b as *mut f32), layout!(($m, $k):($s0, $s1)))
                    .local_tile_proj(<($bm, $bn, $bk)>::default(), (bx as i64, by as i64, Underscore), (X, _1, _1));
                (g.slice((Underscore, Underscore, 0i64)), g.layout.stride.2.value())
            }
            #[inline(always)]
            fn c_a() -> Tensor<Counting<_0>, Self::CA> {
                make_identity_tensor(<($bm, $bk)>::default())
            }
            #[inline(always)]
            fn c_b() -> Tensor<Counting<_0>, Self::CB> {
                make_identity_tensor(<($bn, $bk)>::default())
            }
        }
    };
}

gemm_tiles!(
    /// CTA tile `(_128,_128,_8)`, 16×16 threads, 8×8 accumulators per thread.
    Tile128: tile (_128, _128, _8), threads (16, 16),
    thr Layout<((_8, _2), (_4, _4)), ((_1, _32), (_8, _64))>, acc (_8, _8),
    frag_a (((_4, _1), _2), ((_1, _0), _64)), frag_b (((_4, _1), _2), ((_1, _0), _64)),
    smem (Int<132>, Int<132>),
    copy_a (Layout<(_32, _8), (_1, _32)>, Layout<(_128, _2), (_2, _1)>),
    copy_b (Layout<(_32, _8), (_1, _32)>, Layout<(_128, _2), (_2, _1)>),
);
gemm_tiles!(
    /// CTA tile `(_64,_64,_8)`, 8×8 threads, 8×8 accumulators per thread.
    Tile64: tile (_64, _64, _8), threads (8, 8),
    thr Layout<((_8, _1), (_4, _2)), ((_1, _32), (_8, _32))>, acc (_8, _8),
    frag_a (((_4, _1), _2), ((_1, _0), _32)), frag_b (((_4, _1), _2), ((_1, _0), _32)),
    smem (Int<68>, Int<68>),
    copy_a (Layout<(_16, _4), (_1, _16)>, Layout<(_32, _2), (_2, _1)>),
    copy_b (Layout<(_16, _4), (_1, _16)>, Layout<(_32, _2), (_2, _1)>),
);
