//! What the proof kernels add to the typed layer's GMMA atoms (`cute::atom::gmma`): the dense global
//! operands, the `wgmma` accumulator layout and the `ldmatrix` rows of the RS A fragment. Where
//! an element of a swizzled shared-memory tile lives is the typed tensor's business
//! (`make_tensor(make_smem_ptr(p), tile).ptr(crd)`, doc/typed-gmma.md), and the proof entries
//! fill the tiles by TMA.

use device::wgmma::{GmmaMajor, tnsp};
use layout_types::cute::prelude::*;

/// The proof kernels' M tile (the wgmma's M).
pub const TILE_M: i32 = 64;
/// The K tile: four k-blocks of 16.
pub const TILE_K: i32 = 64;

/// A dense `MN × K` operand in global memory: K-major `(MN, K):(K, 1)`, MN-major `(MN, K):(1, MN)`.
///
/// ```
/// use device::wgmma::{MajorK, MajorMN};
/// assert_eq!(kernels_emu::wgmma_tile::gmem_layout::<MajorK>(64).to_string(), "(64,64):(64,1)");
/// assert_eq!(kernels_emu::wgmma_tile::gmem_layout::<MajorMN>(8).to_string(), "(8,64):(1,8)");
/// ```
#[inline(always)]
pub fn gmem_layout<M: GmmaMajor>(mn: i32) -> Layout<(i32, i32), (i32, i32)> {
    if tnsp::<M>() == 0 {
        make_layout((mn, TILE_K), (TILE_K, 1))
    } else {
        make_layout((mn, TILE_K), (1, mn))
    }
}

/// The type of [`accumulator_layout`]: `((4,8,4),(2,2,N/8))` with dynamic leaves.
pub type AccumulatorLayout =
    Layout<((i32, i32, i32), (i32, i32, i32)), ((i32, i32, i32), (i32, i32, i32))>;

/// The `m64nNk16` accumulator layout (CuTe's `CLayout_64xN`): (thread, value) → `m + 64·n`,
/// `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))`.
///
/// ```
/// let c = kernels_emu::wgmma_tile::accumulator_layout(256);
/// assert_eq!(c.crd2idx((0, 0)), 0);
/// assert_eq!(c.crd2idx((5, 3)), 1 + 2 * 64 + 8 + 64); // lane 5: row 1, cols 2..3; v=3: +8 rows, +1 col
/// assert_eq!(c.crd2idx((127, 127)), 63 + 255 * 64);
/// ```
#[inline(always)]
pub fn accumulator_layout(n: i32) -> AccumulatorLayout {
    make_layout(((4, 8, 4), (2, 2, n / 8)), ((128, 1, 16), (64, 8, 512)))
}

/// The row thread `t` of the warpgroup addresses for `ldmatrix.x4` of A's 64×16 k-block into
/// the RS fragment (CuTe's `ALayout_64x16` through `SM75_U32x4_LDSM_N`): lane `l` of warp `w`
/// names row `l % 8` of matrix `l / 8`; matrices 0–3 are rows `+0/+8` × columns `+0/+8` of the
/// warp's 16 rows. Returns `(m, k)` within the k-block.
///
/// ```
/// use kernels_emu::wgmma_tile::ldsm_a_row;
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
