//! The shared-memory tiles of the proof kernels: CuTe's GMMA layout atoms
//! (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<16-bit>`) tiled MN-first to the tile
//! (`tile_to_shape(atom, (MN, K))`), their descriptors (CuTe's `make_gmma_desc`, reading LBO
//! and SBO off the tile layout's strides as CuTe reads them off the canonical layout), the
//! wgmma accumulator layout and the `ldmatrix` rows of the RS A fragment.
//!
//! ```
//! use kernels_wgmma::tile::{GmmaTile, SmemTile};
//! use device::wgmma::MajorK;
//! // K-major SW128, 64 rows: rows of 64 elements (128 bytes), 8-row groups 1024 bytes apart
//! type A = GmmaTile<MajorK, 3, 64>;
//! assert_eq!(A::layout().to_string(), "((8,8),(64,1)):((64,512),(1,4096))");
//! assert_eq!(A::lbo_sbo(), (8, 512));
//! let d = A::desc(0x400, 1); // k-block 1 starts 32 bytes into the row
//! assert_eq!(d, (0x420 >> 4) | (1 << 16) | (64 << 32) | (1 << 62));
//! ```

use core::marker::PhantomData;
use device::wgmma::{MajorK, MajorMN, StaticMajor, tnsp};
use layout_types::cute::prelude::*;
use layout_types::swizzle::{StaticSwizzle, Swizzle};

/// The proof kernels' M tile (the wgmma's M).
pub const TILE_M: i32 = 64;
/// The K tile: four k-blocks of 16.
pub const TILE_K: i32 = 64;

/// A rank-2 `(MN, K)` layout of two rank-2 modes, all leaves dynamic (constants after inlining).
pub type TileLayout = Layout<((i32, i32), (i32, i32)), ((i32, i32), (i32, i32))>;

/// A GMMA canonical shared-memory tile of 16-bit elements.
pub trait SmemTile {
    /// K-major or MN-major.
    type Major: StaticMajor;
    /// The swizzle in 16-bit elements (CuTe's `Sw<B,4,3>` on byte addresses).
    type Sw: StaticSwizzle + Default + Copy;
    /// The MN extent.
    const MN: i32;
    /// Elements in the tile.
    const SIZE: usize = (Self::MN * TILE_K) as usize;
    /// The unswizzled `(MN, K)` layout, in elements.
    fn layout() -> TileLayout;
    /// The layout with its swizzle: where element `(mn, k)` is stored.
    #[inline(always)]
    fn smem_layout() -> layout_types::cute::swizzle::Swizzled<Self::Sw, TileLayout> {
        make_composed_layout(Self::Sw::default(), Self::layout())
    }
    /// (LBO, SBO) in elements.
    fn lbo_sbo() -> (i32, i32);
    /// The descriptor's layout type (bits 62–63): 0 INTER, 1 SW128, 2 SW64, 3 SW32.
    const LAYOUT_TYPE: u64;
    /// The GMMA descriptor of k-block `kb` (16 columns of K) of the tile at shared address
    /// `base` (1024-byte aligned).
    #[inline(always)]
    fn desc(base: u32, kb: i32) -> u64 {
        let start = base + 2 * Self::layout().crd2idx((0, 16 * kb)) as u32;
        let (lbo, sbo) = Self::lbo_sbo();
        // fields in 16-byte units: 8 elements
        ((start as u64 & 0x3ffff) >> 4)
            | ((lbo as u64 >> 3) & 0x3fff) << 16
            | ((sbo as u64 >> 3) & 0x3fff) << 32
            | Self::LAYOUT_TYPE << 62
    }
}

/// The tile of `MN × TILE_K` 16-bit elements from the atom of major `M` and swizzle bits `SW`
/// (0 INTER, 1 SW32, 2 SW64, 3 SW128): the atom is 8 rows of `W = 8·2^SW` contiguous elements
/// (16·2^SW bytes), K-major: `(8, W):(W, 1)`, MN-major: `(W, 8):(1, W)`.
pub struct GmmaTile<M, const SW: u32, const MN: i32>(PhantomData<M>);

impl<M, const SW: u32, const MN: i32> GmmaTile<M, SW, MN> {
    /// The atom's contiguous width in elements.
    pub const W: i32 = 8 << SW;
    const LT: u64 = match SW {
        0 => 0,
        1 => 3,
        2 => 2,
        3 => 1,
        _ => panic!("GMMA swizzle bits must be 0 (INTER), 1 (SW32), 2 (SW64) or 3 (SW128)"),
    };
}

impl<const SW: u32, const MN: i32> SmemTile for GmmaTile<MajorK, SW, MN> {
    type Major = MajorK;
    type Sw = Swizzle<SW, 3, 3>;
    const MN: i32 = {
        assert!(MN % 8 == 0, "a K-major GMMA tile needs MN a multiple of 8");
        MN
    };
    const LAYOUT_TYPE: u64 = Self::LT;
    /// `((8, MN/8), (W, K/W)) : ((W, 8W), (1, MN·W))`.
    #[inline(always)]
    fn layout() -> TileLayout {
        let w = Self::W;
        make_layout(((8, Self::MN / 8), (w, TILE_K / w)), ((w, 8 * w), (1, MN * w)))
    }
    /// CuTe's K-major reading: SBO = the 8-row group's stride; LBO = the second 8 columns'
    /// stride for INTER, 1 (16 bytes, unused) when swizzled.
    #[inline(always)]
    fn lbo_sbo() -> (i32, i32) {
        let l = Self::layout();
        let sbo = l.crd2idx((8, 0));
        let lbo = if SW == 0 { l.crd2idx((0, 8)) } else { 8 };
        (lbo, sbo)
    }
}

impl<const SW: u32, const MN: i32> SmemTile for GmmaTile<MajorMN, SW, MN> {
    type Major = MajorMN;
    type Sw = Swizzle<SW, 3, 3>;
    const MN: i32 = {
        assert!(
            MN % (8 << SW) == 0,
            "an MN-major GMMA tile needs MN a multiple of the atom's width 8·2^SW"
        );
        MN
    };
    const LAYOUT_TYPE: u64 = Self::LT;
    /// `((W, MN/W), (8, K/8)) : ((1, 8W), (W, 8·MN))`.
    #[inline(always)]
    fn layout() -> TileLayout {
        let w = Self::W;
        make_layout(((w, Self::MN / w), (8, TILE_K / 8)), ((1, 8 * w), (w, 8 * MN)))
    }
    /// CuTe's MN-major reading: INTER: SBO = the next 8 MN elements, LBO = the next 8 k;
    /// swizzled: LBO = the next atom along MN, SBO = the next 8 k.
    #[inline(always)]
    fn lbo_sbo() -> (i32, i32) {
        let l = Self::layout();
        if SW == 0 {
            (l.crd2idx((0, 8)), l.crd2idx((8, 0)))
        } else {
            (l.crd2idx((Self::W, 0)), l.crd2idx((0, 8)))
        }
    }
}

/// A dense `MN × K` operand in global memory: K-major `(MN, K):(K, 1)`, MN-major `(MN, K):(1, MN)`.
///
/// ```
/// use device::wgmma::{MajorK, MajorMN};
/// assert_eq!(kernels_wgmma::tile::gmem_layout::<MajorK>(64).to_string(), "(64,64):(64,1)");
/// assert_eq!(kernels_wgmma::tile::gmem_layout::<MajorMN>(8).to_string(), "(8,64):(1,8)");
/// ```
#[inline(always)]
pub fn gmem_layout<M: StaticMajor>(mn: i32) -> Layout<(i32, i32), (i32, i32)> {
    if tnsp::<M>() == 0 {
        make_layout((mn, TILE_K), (TILE_K, 1))
    } else {
        make_layout((mn, TILE_K), (1, mn))
    }
}

/// The `m64nNk16` accumulator layout (CuTe's `CLayout_64xN`): (thread, value) → `m + 64·n`,
/// `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))`.
///
/// ```
/// let c = kernels_wgmma::tile::accumulator_layout(256);
/// assert_eq!(c.crd2idx((0, 0)), 0);
/// assert_eq!(c.crd2idx((5, 3)), 1 + 2 * 64 + 8 + 64); // lane 5: row 1, cols 2..3; v=3: +8 rows, +1 col
/// assert_eq!(c.crd2idx((127, 127)), 63 + 255 * 64);
/// ```
#[inline(always)]
pub fn accumulator_layout(n: i32) -> Layout<((i32, i32, i32), (i32, i32, i32)), ((i32, i32, i32), (i32, i32, i32))> {
    make_layout(((4, 8, 4), (2, 2, n / 8)), ((128, 1, 16), (64, 8, 512)))
}

/// The row thread `t` of the warpgroup addresses for `ldmatrix.x4` of A's 64×16 k-block into
/// the RS fragment (CuTe's `ALayout_64x16` through `SM75_U32x4_LDSM_N`): lane `l` of warp `w`
/// names row `l % 8` of matrix `l / 8`; matrices 0–3 are rows `+0/+8` × columns `+0/+8` of the
/// warp's 16 rows. Returns `(m, k)` within the k-block.
///
/// ```
/// use kernels_wgmma::tile::ldsm_a_row;
/// assert_eq!(ldsm_a_row(0), (0, 0));
/// assert_eq!(ldsm_a_row(9), (9, 0));
/// assert_eq!(ldsm_a_row(17), (1, 8));
/// assert_eq!(ldsm_a_row(32 + 31), (16 + 15, 8));
/// ```
#[inline(always)]
pub fn ldsm_a_row(t: i32) -> (i32, i32) {
    let m = make_layout((8, 2, 2, 4), (1, 8, 0, 16));
    let k = make_layout((8, 2, 2, 4), (0, 0, 8, 0));
    (m.call(t), k.call(t))
}
