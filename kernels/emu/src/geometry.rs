//! How `host/` launches every entry: grid, block, dynamic shared memory, argument order.
//!
//! `host/` is a stable crate on cudarc and this one a nightly crate of the kernel workspace, so
//! the geometry is copied here, each item naming its source; `tests/emu/geometry.rs` pins the
//! values the host's own unit tests and doc tests pin (tile sizes, shared-memory bytes, slice
//! lengths), so a change on one side without the other fails.

use device::emu::{Dim3, launch};

/// Storage order of a copy's matrices (`host::Order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `(M,N):(ld,1)`.
    RowMajor,
    /// `(M,N):(1,ld)`.
    ColMajor,
}

/// The copy instruction (`host::CopyAtom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    /// 128-bit vectors: 16-byte aligned bases, leading dimensions multiples of the vector.
    Vector,
    /// `cp.async` 16 B: as `Vector` for alignment.
    CpAsync,
    /// One element per instruction: any alignment.
    Scalar,
}

/// The signature of every copy and transpose entry: `(src, dst, m, n, lds, ldd)`.
pub type CopyEntry = unsafe fn(*const u8, *mut u8, i64, i64, i64, i64);

/// One copy kernel: `host/src/copy.rs`, `struct Variant` and `static VARIANTS` (same order).
#[derive(Clone, Copy, Debug)]
pub struct CopyVariant {
    /// The entry's name.
    pub kernel: &'static str,
    /// The entry.
    pub entry: CopyEntry,
    /// Bytes per element.
    pub elem: usize,
    /// Storage order of the source (a transpose writes the other one).
    pub order: Order,
    /// The copy instruction.
    pub atom: Atom,
    /// Block tile `(TILE_M, TILE_N)`.
    pub tile: (usize, usize),
    /// `B = Aᵀ` rather than a copy.
    pub transpose: bool,
    /// Dynamic shared memory bytes (`Variant::smem`): one tile, or the bulk transpose's two.
    pub smem: u32,
}

fn tr(a: *const u8, b: *mut u8, m: i64, n: i64, lda: i64, ldb: i64, swizzled: bool) {
    // SAFETY: forwarded from the `CopyEntry` caller.
    unsafe {
        if swizzled {
            crate::copy::transpose_f32_swizzled(a as *const f32, b as *mut f32, m, n, lda, ldb)
        } else {
            crate::copy::transpose_f32_naive(a as *const f32, b as *mut f32, m, n, lda, ldb)
        }
    }
}
/// `transpose_f32_swizzled` as a [`CopyEntry`].
unsafe fn transpose_swizzled(a: *const u8, b: *mut u8, m: i64, n: i64, lda: i64, ldb: i64) {
    tr(a, b, m, n, lda, ldb, true)
}
/// `transpose_f32_naive` as a [`CopyEntry`].
unsafe fn transpose_naive(a: *const u8, b: *mut u8, m: i64, n: i64, lda: i64, ldb: i64) {
    tr(a, b, m, n, lda, ldb, false)
}
/// `transpose_f32_bulk` as a [`CopyEntry`].
unsafe fn transpose_bulk(a: *const u8, b: *mut u8, m: i64, n: i64, lda: i64, ldb: i64) {
    // SAFETY: forwarded from the `CopyEntry` caller.
    unsafe { crate::copy::transpose_f32_bulk(a as *const f32, b as *mut f32, m, n, lda, ldb) }
}

const fn copy(
    kernel: &'static str,
    entry: CopyEntry,
    elem: usize,
    order: Order,
    atom: Atom,
    tile: (usize, usize),
) -> CopyVariant {
    CopyVariant {
        kernel,
        entry,
        elem,
        order,
        atom,
        tile,
        transpose: false,
        smem: (tile.0 * tile.1 * elem) as u32,
    }
}

/// Every copy and transpose entry, in `host/src/copy.rs`'s `VARIANTS` order.
pub static COPY_VARIANTS: [CopyVariant; 9] = {
    use crate::copy::*;
    use Atom::*;
    use Order::*;
    [
        copy(
            "tiled_copy_row_f32_v4",
            tiled_copy_row_f32_v4,
            4,
            RowMajor,
            Vector,
            (8, 128),
        ),
        copy(
            "tiled_copy_row_f32_cp_async",
            tiled_copy_row_f32_cp_async,
            4,
            RowMajor,
            CpAsync,
            (8, 128),
        ),
        copy(
            "tiled_copy_col_f32_v4",
            tiled_copy_col_f32_v4,
            4,
            ColMajor,
            Vector,
            (128, 8),
        ),
        copy(
            "tiled_copy_row_f16_v4",
            tiled_copy_row_f16_v4,
            2,
            RowMajor,
            Vector,
            (8, 256),
        ),
        copy(
            "tiled_copy_col_f16_v4",
            tiled_copy_col_f16_v4,
            2,
            ColMajor,
            Vector,
            (256, 8),
        ),
        copy(
            "tiled_copy_row_f32_scalar",
            tiled_copy_row_f32_scalar,
            4,
            RowMajor,
            Scalar,
            (8, 128),
        ),
        CopyVariant {
            transpose: true,
            ..copy(
                "transpose_f32_swizzled",
                transpose_swizzled,
                4,
                RowMajor,
                Vector,
                (64, 64),
            )
        },
        CopyVariant {
            transpose: true,
            ..copy(
                "transpose_f32_naive",
                transpose_naive,
                4,
                RowMajor,
                Vector,
                (64, 64),
            )
        },
        CopyVariant {
            transpose: true,
            smem: crate::copy::body::TRANSPOSE_BULK_SMEM as u32,
            ..copy(
                "transpose_f32_bulk",
                transpose_bulk,
                4,
                RowMajor,
                Vector,
                (64, 64),
            )
        },
    ]
};

impl CopyVariant {
    /// Elements per instruction (`Variant::vec`).
    ///
    /// ```
    /// let v = &kernels_emu::geometry::COPY_VARIANTS;
    /// assert_eq!((v[0].vec(), v[3].vec(), v[5].vec()), (4, 8, 1)); // f32, f16, scalar
    /// ```
    pub fn vec(&self) -> usize {
        match self.atom {
            Atom::Scalar => 1,
            Atom::Vector | Atom::CpAsync => 16 / self.elem,
        }
    }

    /// Extents of the contiguous dimension of source and destination (`Variant::contiguous`).
    ///
    /// ```
    /// let v = &kernels_emu::geometry::COPY_VARIANTS;
    /// assert_eq!(v[2].contiguous(5, 7), (5, 5)); // column-major copy
    /// assert_eq!(v[6].contiguous(5, 7), (7, 5)); // transpose
    /// ```
    pub fn contiguous(&self, m: usize, n: usize) -> (usize, usize) {
        match (self.transpose, self.order) {
            (true, _) => (n, m),
            (false, Order::ColMajor) => (m, m),
            (false, Order::RowMajor) => (n, n),
        }
    }

    /// Grid (`Variant::grid`): copies, one dimension of `ceil(m/TILE_M) * ceil(n/TILE_N)`
    /// blocks (the kernels walk the contiguous dimension's tiles first); transposes,
    /// `(tiles along m, tiles along n)`.
    ///
    /// ```
    /// let v = &kernels_emu::geometry::COPY_VARIANTS;
    /// assert_eq!(v[0].grid(65, 129), (9 * 2, 1, 1)); // 8x128 tiles
    /// assert_eq!(v[6].grid(65, 129), (2, 3, 1)); // transpose, 64x64 tiles
    /// ```
    pub fn grid(&self, m: usize, n: usize) -> Dim3 {
        let (tm, tn) = (
            m.div_ceil(self.tile.0).max(1),
            n.div_ceil(self.tile.1).max(1),
        );
        if self.transpose {
            (tm as u32, tn as u32, 1)
        } else {
            ((tm * tn) as u32, 1, 1)
        }
    }

    /// Dynamic shared memory (`Context::launch_variant`): one tile, two for the bulk transpose
    /// (its B tile padded).
    ///
    /// ```
    /// let v = &kernels_emu::geometry::COPY_VARIANTS;
    /// assert_eq!(v[0].smem_bytes(), 8 * 128 * 4);
    /// assert_eq!(v[8].smem_bytes(), 4 * (64 * 64 + 64 * 68)); // transpose_f32_bulk
    /// ```
    pub fn smem_bytes(&self) -> u32 {
        self.smem
    }

    /// Launches the entry as `Context::launch_variant` does: nothing for an empty matrix, else
    /// grid [`CopyVariant::grid`], 256 threads, [`CopyVariant::smem_bytes`], arguments
    /// `(src, dst, m, n, lds, ldd)` as `i64`.
    ///
    /// ```
    /// #[repr(align(16))]
    /// struct M([f32; 8]);
    /// let (src, mut dst) = (M([1., 2., 3., 4., 5., 6., 7., 8.]), M([0.; 8]));
    /// let t = &kernels_emu::geometry::COPY_VARIANTS[6]; // transpose_f32_swizzled
    /// // SAFETY: A 2x2 (lda 4) -> B 2x2 (ldb 4): both within the 8 elements, 16-byte aligned.
    /// unsafe { t.launch(src.0.as_ptr() as *const u8, dst.0.as_mut_ptr() as *mut u8, 2, 2, 4, 4) };
    /// assert_eq!(dst.0[..2], [1.0, 5.0]);
    /// assert_eq!(dst.0[4..6], [2.0, 6.0]);
    /// ```
    ///
    /// # Safety
    /// The buffers hold the matrices; the host's legality rules hold (alignment, leading
    /// dimensions).
    pub unsafe fn launch(
        &self,
        src: *const u8,
        dst: *mut u8,
        m: usize,
        n: usize,
        lds: usize,
        ldd: usize,
    ) {
        if m == 0 || n == 0 {
            return;
        }
        let (s, d) = (src as usize, dst as usize);
        let entry = self.entry;
        let (m, n, lds, ldd) = (m as i64, n as i64, lds as i64, ldd as i64);
        // SAFETY: the caller's promise; each thread runs the entry as a CUDA thread would.
        unsafe {
            launch(
                self.grid(m as usize, n as usize),
                (256, 1, 1),
                self.smem_bytes(),
                || entry(s as *const u8, d as *mut u8, m, n, lds, ldd),
            )
        }
    }
}

/// A CTA tile of the GEMM (`host::Tile`, `host/src/gemm.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    /// 128×128×8, 256 threads.
    M128N128K8,
    /// 64×64×8, 64 threads.
    M64N64K8,
}

impl Tile {
    /// `(BM, BN, BK)` (`Tile::shape`).
    ///
    /// ```
    /// assert_eq!(kernels_emu::geometry::Tile::M128N128K8.shape(), (128, 128, 8));
    /// ```
    pub fn shape(self) -> (u32, u32, u32) {
        match self {
            Tile::M128N128K8 => (128, 128, 8),
            Tile::M64N64K8 => (64, 64, 8),
        }
    }
    /// Threads per CTA (`Tile::threads`).
    ///
    /// ```
    /// assert_eq!(kernels_emu::geometry::Tile::M64N64K8.threads(), 64);
    /// ```
    pub fn threads(self) -> u32 {
        match self {
            Tile::M128N128K8 => 256,
            Tile::M64N64K8 => 64,
        }
    }
    /// Two stages of k-major `(BX,BK):(_1,BX+4)` tiles for A and B (`Tile::smem_bytes`).
    ///
    /// ```
    /// use kernels_emu::geometry::Tile;
    /// assert_eq!(Tile::M128N128K8.smem_bytes(), 2 * 2 * (127 + 7 * 132 + 1) * 4);
    /// ```
    pub fn smem_bytes(self) -> u32 {
        let (bm, bn, bk) = self.shape();
        let cos = |bx: u32| (bx - 1) + (bk - 1) * (bx + 4) + 1;
        2 * (cos(bm) + cos(bn)) * 4
    }
}

/// BLAS transpose flag (`host::Trans`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trans {
    /// As stored.
    N,
    /// Transposed.
    T,
}

/// The signature of every SGEMM entry:
/// `(m, n, k, kc, rast, alpha, a, lda, b, ldb, beta, c, ldc)`.
pub type SgemmEntry =
    unsafe fn(i32, i32, i32, i32, i32, f32, *const f32, i32, *const f32, i32, f32, *mut f32, i32);

/// One SGEMM entry: its tile and BLAS transposes (the name `sgemm_<tile>_<ta><tb>[_2cta]`,
/// `Tile::entry` and `ptx::bounded_twin` in `host/`).
#[derive(Clone, Copy, Debug)]
pub struct GemmEntry {
    /// The entry's name.
    pub kernel: &'static str,
    /// The entry.
    pub entry: SgemmEntry,
    /// CTA tile.
    pub tile: Tile,
    /// op(A).
    pub ta: Trans,
    /// op(B).
    pub tb: Trans,
}

/// Every SGEMM entry of `kernels/gemm_n` and `kernels/gemm_t` (the split-K prologue
/// `sgemm_scale_c` runs inside [`launch_sgemm`]).
pub static GEMM_ENTRIES: [GemmEntry; 12] = {
    use crate::gemm_n::*;
    use crate::gemm_t::*;
    use Tile::*;
    use Trans::*;
    const fn e(
        kernel: &'static str,
        entry: SgemmEntry,
        tile: Tile,
        ta: Trans,
        tb: Trans,
    ) -> GemmEntry {
        GemmEntry {
            kernel,
            entry,
            tile,
            ta,
            tb,
        }
    }
    [
        e("sgemm_128x128x8_nn", sgemm_128x128x8_nn, M128N128K8, N, N),
        e("sgemm_128x128x8_nt", sgemm_128x128x8_nt, M128N128K8, N, T),
        e("sgemm_128x128x8_tn", sgemm_128x128x8_tn, M128N128K8, T, N),
        e("sgemm_128x128x8_tt", sgemm_128x128x8_tt, M128N128K8, T, T),
        e("sgemm_64x64x8_nn", sgemm_64x64x8_nn, M64N64K8, N, N),
        e("sgemm_64x64x8_nt", sgemm_64x64x8_nt, M64N64K8, N, T),
        e("sgemm_64x64x8_tn", sgemm_64x64x8_tn, M64N64K8, T, N),
        e("sgemm_64x64x8_tt", sgemm_64x64x8_tt, M64N64K8, T, T),
        e(
            "sgemm_128x128x8_nn_2cta",
            sgemm_128x128x8_nn_2cta,
            M128N128K8,
            N,
            N,
        ),
        e(
            "sgemm_128x128x8_nt_2cta",
            sgemm_128x128x8_nt_2cta,
            M128N128K8,
            N,
            T,
        ),
        e(
            "sgemm_128x128x8_tn_2cta",
            sgemm_128x128x8_tn_2cta,
            M128N128K8,
            T,
            N,
        ),
        e(
            "sgemm_128x128x8_tt_2cta",
            sgemm_128x128x8_tt_2cta,
            M128N128K8,
            T,
            T,
        ),
    ]
};

/// A launch plan (`host::Plan`): split-K depth and rasterization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// k-slices (0 and 1: none).
    pub split: u32,
    /// `true`: blockIdx.x walks N tiles.
    pub rast_n: bool,
}

/// k-elements per slice: `ceil(K/split)` rounded up to a multiple of `BK` (`Plan::kc`).
///
/// ```
/// use kernels_emu::geometry::{Tile, kc};
/// assert_eq!(kc(Tile::M64N64K8, 3, 100), 40);
/// ```
pub fn kc(tile: Tile, split: u32, k: usize) -> usize {
    let bk = tile.shape().2 as usize;
    k.div_ceil(split.max(1) as usize).div_ceil(bk).max(1) * bk
}

/// The arguments of one GEMM (`host::GemmConfig`, column-major, leading dimensions in
/// elements).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gemm {
    /// Rows of op(A) and C.
    pub m: usize,
    /// Columns of op(B) and C.
    pub n: usize,
    /// Columns of op(A).
    pub k: usize,
    /// Scale of op(A)·op(B).
    pub alpha: f32,
    /// Leading dimension of A as stored.
    pub lda: usize,
    /// Leading dimension of B as stored.
    pub ldb: usize,
    /// Scale of C (`0`: C is not read).
    pub beta: f32,
    /// Leading dimension of C.
    pub ldc: usize,
}

/// Launches `e` as `Context::sgemm_with_plan` does (`host/src/gemm.rs`): nothing for an empty
/// C; with `split > 1`, `sgemm_scale_c` first (grid `(ceil(M/256), min(N, 65535))`, 256
/// threads), then the entry with grid `(ceil(M/BM), ceil(N/BN), ceil(K/kc))` (x and y swapped
/// for `rast_n`), the tile's threads and shared memory, arguments
/// `(m, n, k, kc, rast, alpha, a, lda, b, ldb, beta, c, ldc)`.
///
/// ```
/// use kernels_emu::geometry::{GEMM_ENTRIES, Gemm, Plan, launch_sgemm};
/// let g = Gemm { m: 2, n: 1, k: 16, alpha: 0.5, lda: 2, ldb: 16, beta: 0.0, ldc: 2 };
/// let (a, b, mut c) = ([1f32; 32], [2f32; 16], [f32::NAN; 2]);
/// let plan = Plan { split: 2, rast_n: false }; // sgemm_scale_c, then two k-slices of 8
/// // SAFETY: A 2x16, B 16x1, C 2x1, column-major, tight.
/// unsafe { launch_sgemm(&GEMM_ENTRIES[4], plan, &g, a.as_ptr(), b.as_ptr(), c.as_mut_ptr()) };
/// assert_eq!(c, [16.0, 16.0]);
/// ```
///
/// # Safety
/// `a`, `b`, `c` hold the matrices `g` describes (`GemmConfig::validate`).
pub unsafe fn launch_sgemm(
    e: &GemmEntry,
    plan: Plan,
    g: &Gemm,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
) {
    if g.m == 0 || g.n == 0 {
        return;
    }
    let tile = e.tile;
    let (bm, bn, _) = tile.shape();
    let kc = kc(tile, plan.split, g.k);
    let split = if plan.split > 1 {
        g.k.div_ceil(kc).max(1)
    } else {
        1
    };
    let (gm, gn) = (g.m.div_ceil(bm as usize), g.n.div_ceil(bn as usize));
    let (gx, gy) = if plan.rast_n { (gn, gm) } else { (gm, gn) };
    let (m, n, k, kc) = (g.m as i32, g.n as i32, g.k as i32, kc as i32);
    let rast = i32::from(plan.rast_n);
    let (lda, ldb, ldc) = (g.lda as i32, g.ldb as i32, g.ldc as i32);
    let (alpha, beta) = (g.alpha, g.beta);
    let (pa, pb, pc) = (a as usize, b as usize, c as usize);
    if split > 1 {
        // SAFETY: `sgemm_scale_c(m, n, beta, c, ldc)` on the caller's C.
        unsafe {
            launch(
                (g.m.div_ceil(256) as u32, g.n.min(65535) as u32, 1),
                (256, 1, 1),
                0,
                || crate::gemm_n::sgemm_scale_c(m, n, beta, pc as *mut f32, ldc),
            )
        };
    }
    let entry = e.entry;
    // SAFETY: the caller's buffers; geometry as the host's.
    unsafe {
        launch(
            (gx as u32, gy as u32, split as u32),
            (tile.threads(), 1, 1),
            tile.smem_bytes(),
            || {
                entry(
                    m,
                    n,
                    k,
                    kc,
                    rast,
                    alpha,
                    pa as *const f32,
                    lda,
                    pb as *const f32,
                    ldb,
                    beta,
                    pc as *mut f32,
                    ldc,
                )
            },
        )
    };
}
