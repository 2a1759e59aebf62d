//! The CTA tile's shape as types (CUTLASS's `TileShape`): [`TileN`], the tile's N with B's stage
//! tile and operand bundle, and [`StageTile`], one pipeline stage of an operand in shared memory.
//! Below the mainloop ([`crate::mainloop`]) and the cluster's loads ([`crate::cluster`]), which
//! both read them.

use layout_types::cute::prelude::*;
use layout_types::cutlass::gmma_operand::SmemTile;

/// One pipeline stage of an operand in shared memory ([`SmemTile`]).
pub trait StageTile {
    /// Its 16-bit elements.
    const ELEMS: usize;
    /// Its first element (a pointer, no reference taken).
    ///
    /// # Safety
    /// `this` points into live shared memory of the tile.
    unsafe fn ptr(this: *mut Self) -> *mut u16;
}
impl<const N: usize> StageTile for SmemTile<N> {
    const ELEMS: usize = N;
    #[inline(always)]
    unsafe fn ptr(this: *mut Self) -> *mut u16 {
        unsafe { SmemTile::ptr(this) }
    }
}

/// The CTA tile's N (CUTLASS's `TileShape` N): B's stage tile and the operand bundle's `Block`
/// of B.
///
/// ```
/// use collective::tile::TileN;
/// use layout_types::cute::prelude::*;
/// assert_eq!((<_256 as TileN>::BN, <_128 as TileN>::BN), (256, 128));
/// ```
pub trait TileN {
    /// N of the CTA tile.
    const BN: i32;
    /// The `Block` of B's [`SmemOperand`](layout_types::cutlass::gmma_operand::SmemOperand) bundle.
    type BBlock;
    /// Whether an MN-major B may be read through [`BBlock`](Self::BBlock)'s descriptors: an
    /// `n(BN)` `wgmma` reads the whole tile from one descriptor, whose leading byte offset (the
    /// step between the MN-major SW128 atoms along N) is right only when the block is the whole
    /// tile. (A K-major B's descriptors are the same for any block: the core matrices step by
    /// the stride byte offset along N.)
    const MN_MAJOR_B: bool;
    /// B's stage tile (`BN × 64` 16-bit elements).
    type BTile: StageTile;
}

impl TileN for _256 {
    const BN: i32 = 256;
    type BBlock = _256;
    const MN_MAJOR_B: bool = true;
    type BTile = SmemTile<{ 256 * 64 }>;
}

impl TileN for _128 {
    const BN: i32 = 128;
    /// B's 128-row tile is read whole by `n128` `wgmma`s: the `(128, 128)` bundle. (Through A's
    /// `(128, 64)` one, as until session 13, an MN-major B's descriptors had a one-atom
    /// block's leading byte offset: every "NT"/"TT" check of the 128×128 ping-pong failed on
    /// the H200, doc/hopper-gemm.md.)
    type BBlock = _128;
    const MN_MAJOR_B: bool = true;
    type BTile = SmemTile<{ 128 * 64 }>;
}

/// A 160-wide tile (the promoted FP8 kernel's `m64n160k32` per consumer; CUTLASS's and
/// cuBLASLt's 128 × 160): B's whole tile is one block, layout-types' K-major bundle of 160 rows
/// (CuTe's `Layout_K_SW128_Atom` tiled to `(160, 64)`, one TMA box, 80 rows per CTA with
/// multicast).
///
/// ```
/// use collective::tile::TileN;
/// use device::wgmma::MajorK;
/// use layout_types::cutlass::gmma_operand::SmemOperand;
/// use layout_types::cute::prelude::*;
/// type B = <_160 as TileN>::BBlock;
/// assert_eq!(<MajorK as SmemOperand<_160, B>>::smem_tile().to_string(),
///            "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_20),(_64,_1)):((_64,_512),(_1,_0))");
/// // a stage's k-block 2 starts 64 bytes in; stage 1 starts 160 rows · 128 bytes after stage 0
/// let buf = 0x4000 as *mut u16;
/// let d = <MajorK as SmemOperand<_160, B>>::gmma_descs(buf, 6, 160 * 64);
/// let addr = |d: u64| (d & 0x3fff) * 16;
/// assert_eq!((addr(d(0, 2, 0)), addr(d(0, 0, 1))), (0x4000 + 64, 0x4000 + 160 * 128));
/// assert_eq!((<_160 as TileN>::BN, <_192 as TileN>::BN), (160, 192));
/// ```
impl TileN for _160 {
    const BN: i32 = 160;
    type BBlock = Self;
    const MN_MAJOR_B: bool = false; // K-major bundles only (FP8 B)
    type BTile = SmemTile<{ 160 * 64 }>;
}

/// A 192-wide tile (`m64n192k32` per consumer).
impl TileN for _192 {
    const BN: i32 = 192;
    type BBlock = Self;
    // the block is the whole tile: an MN-major B (the 16-bit "NT"/"TT" on 128×192) reads right
    const MN_MAJOR_B: bool = true;
    type BTile = SmemTile<{ 192 * 64 }>;
}
