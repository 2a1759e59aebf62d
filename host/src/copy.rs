//! Tiled gmem → smem → gmem copies and the smem transpose (`kernels/src/copy.rs`):
//! [`Context::tiled_copy`] and [`Context::transpose`], with the host-side legality checks.
//!
//! The kernels move bits: any element type of the right size works ([`Element`]: 4-byte
//! `f32`/`u32`/`i32`, 2-byte `u16`/`i16`, half-precision bit patterns included).

use cudarc::driver::{
    CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig, PushKernelArg,
};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::tma::launch::{TmaLaunch, TmaLaunchKey, TmaParam};

/// The TMA copy family's box, the kernels' own type (`kernels/tma/src/config.rs`, `no_std`,
/// layout-types only).
#[path = "../../kernels/tma/src/config.rs"]
pub mod config;

mod sealed {
    pub trait Sealed {}
}

/// An element type the copy kernels move: 4 or 2 bytes, copied bit for bit.
///
/// ```
/// use host::Element;
/// assert_eq!(<f32 as Element>::BYTES, 4);
/// assert_eq!(<u16 as Element>::BYTES, 2);
/// ```
pub trait Element: DeviceRepr + sealed::Sealed {
    /// Size in bytes.
    const BYTES: usize;
}

macro_rules! element {
    ($($t:ty = $b:expr),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const BYTES: usize = $b;
        }
    )*};
}
element!(f32 = 4, u32 = 4, i32 = 4, u16 = 2, i16 = 2);

/// Storage order of a matrix.
///
/// ```
/// assert_eq!(host::Order::default(), host::Order::RowMajor);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// `(M,N):(ld,1)`: rows are contiguous.
    #[default]
    RowMajor,
    /// `(M,N):(1,ld)`: columns are contiguous.
    ColMajor,
}

/// The copy instruction each thread of a copy kernel issues: the operation of its copy atom
/// (CuTe's `Copy_Atom<Op, T>`; the typed layer's atoms are `layout_types::cute::atom::copy::CopyAtom`,
/// the value algebra's `layout_types::value::copy::DynCopyAtom`).
///
/// ```
/// assert_eq!(host::CopyInstruction::default(), host::CopyInstruction::Vector);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CopyInstruction {
    /// 128-bit `ld.global.v4` / `st.shared.v4` (`UniversalCopy<uint128_t>`): needs 16-byte
    /// aligned bases and leading dimensions that are multiples of the vector.
    #[default]
    Vector,
    /// `cp.async.cg` 16 B (`SM80_CP_ASYNC_CACHEGLOBAL`): row-major 4-byte elements; as
    /// [`CopyInstruction::Vector`] for alignment.
    CpAsync,
    /// One element per instruction: any alignment, row-major 4-byte elements.
    Scalar,
    /// The Tensor Memory Accelerator (sm_90): TMA loads into an mbarrier pipeline and TMA
    /// stores (`kernels/tma`), tensor maps encoded by [`Context::make_tma_copy`] on the first
    /// launch and kept per context; 16 KiB tiles, streamed by persistent CTAs up to 3.5 waves of
    /// resident CTAs and one tile per CTA beyond; either order, 4- or 2-byte elements. Needs
    /// 16-byte aligned bases and leading dimensions whose bytes are multiples of 16
    /// ([`Error::Tma`] otherwise); edges by TMA's out-of-bounds handling.
    Tma,
}

/// An `M × N` copy `dst = src` between matrices of the same order.
///
/// ```
/// use host::{CopyInstruction, CopyConfig, Order};
/// let c = CopyConfig::new(Order::ColMajor, 100, 30).ldd(104).instruction(CopyInstruction::Vector);
/// assert_eq!((c.lds, c.ldd), (100, 104));
/// assert_eq!(c.lens(), (100 * 30, 104 * 29 + 100));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyConfig {
    /// Storage order of both matrices.
    pub order: Order,
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// Leading dimension of the source (elements).
    pub lds: usize,
    /// Leading dimension of the destination (elements).
    pub ldd: usize,
    /// The copy instruction.
    pub instruction: CopyInstruction,
}

impl CopyConfig {
    /// An `m × n` copy in `order`, tight leading dimensions, 128-bit vectors.
    ///
    /// ```
    /// let c = host::CopyConfig::new(host::Order::RowMajor, 3, 5);
    /// assert_eq!((c.lds, c.ldd), (5, 5));
    /// ```
    pub fn new(order: Order, m: usize, n: usize) -> CopyConfig {
        let ld = match order {
            Order::RowMajor => n,
            Order::ColMajor => m,
        }
        .max(1);
        CopyConfig {
            order,
            m,
            n,
            lds: ld,
            ldd: ld,
            instruction: CopyInstruction::Vector,
        }
    }
    /// Sets `lds`.
    ///
    /// ```
    /// assert_eq!(host::CopyConfig::new(host::Order::RowMajor, 4, 4).lds(8).lds, 8);
    /// ```
    pub fn lds(mut self, lds: usize) -> CopyConfig {
        self.lds = lds;
        self
    }
    /// Sets `ldd`.
    ///
    /// ```
    /// assert_eq!(host::CopyConfig::new(host::Order::RowMajor, 4, 4).ldd(8).ldd, 8);
    /// ```
    pub fn ldd(mut self, ldd: usize) -> CopyConfig {
        self.ldd = ldd;
        self
    }
    /// Sets the copy instruction.
    ///
    /// ```
    /// let c = host::CopyConfig::new(host::Order::RowMajor, 4, 4).instruction(host::CopyInstruction::Scalar);
    /// assert_eq!(c.instruction, host::CopyInstruction::Scalar);
    /// ```
    pub fn instruction(mut self, instruction: CopyInstruction) -> CopyConfig {
        self.instruction = instruction;
        self
    }
    /// Elements the source and destination buffers must hold.
    ///
    /// ```
    /// let c = host::CopyConfig::new(host::Order::RowMajor, 2, 3).ldd(4);
    /// assert_eq!(c.lens(), (6, 7));
    /// ```
    pub fn lens(&self) -> (usize, usize) {
        let (outer, inner) = match self.order {
            Order::RowMajor => (self.m, self.n),
            Order::ColMajor => (self.n, self.m),
        };
        (need(outer, inner, self.lds), need(outer, inner, self.ldd))
    }
}

/// Which transpose kernel (`kernels/copy`): all three move 64×64 tiles through shared memory
/// and give the same bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransposeKernel {
    /// The faster of the two below for the size: [`TransposeKernel::Bulk`] from 2^24 elements
    /// (64 MiB of f32) up, [`TransposeKernel::Swizzled`] below (and on a device without the
    /// Hopper-only bulk kernel). The bulk kernel's 33 KiB of
    /// shared memory allow 6 blocks per SM against 8, so a 2048×2048 transpose (1024 blocks)
    /// takes two waves instead of one: 0.80 of memcpy against 1.04–1.07 (H100); from 4096×4096
    /// up the bulk kernel is as fast or faster (doc/performance.md, run 2026-11-23-6bcc0a9-bulk-transpose).
    ///
    /// ```
    /// use host::TransposeKernel::{self, *};
    /// assert_eq!(Auto.resolve(2048, 2048), Swizzled);
    /// assert_eq!(Auto.resolve(4096, 4096), Bulk);
    /// assert_eq!(Naive.resolve(8192, 8192), Naive);
    /// ```
    Auto,
    /// `transpose_f32_bulk`: a dense A tile read column-wise into a padded B tile, whose rows
    /// leave by bulk copies (`cp.async.bulk`, the TMA unit); the fastest (0.97–0.98 of memcpy
    /// D2D on the H100).
    Bulk,
    /// `transpose_f32_swizzled`: the A tile swizzled by `Sw<3,2,6>`, read column-wise into
    /// registers and stored with 128-bit `st.global` (0.96 of memcpy).
    Swizzled,
    /// `transpose_f32_naive`: as `Swizzled` with plain row-major smem, the baseline that shows
    /// what the swizzle buys (8-way bank conflicts on the column reads).
    Naive,
}

impl TransposeKernel {
    /// The kernel that runs an `m × n` transpose: [`TransposeKernel::Auto`] decided by size,
    /// any other as it is.
    ///
    /// ```
    /// use host::TransposeKernel;
    /// assert_eq!(TransposeKernel::Auto.resolve(2048, 2048), TransposeKernel::Swizzled);
    /// assert_eq!(TransposeKernel::Auto.resolve(4096, 4096), TransposeKernel::Bulk); // 2^24 elements
    /// assert_eq!(TransposeKernel::Naive.resolve(4096, 4096), TransposeKernel::Naive);
    /// ```
    pub fn resolve(self, m: usize, n: usize) -> TransposeKernel {
        match self {
            TransposeKernel::Auto if m.saturating_mul(n) >= 1 << 24 => TransposeKernel::Bulk,
            TransposeKernel::Auto => TransposeKernel::Swizzled,
            k => k,
        }
    }
}

/// `B = Aᵀ` for row-major f32 `A` (`M × N`, leading dimension `lda`) into row-major `B`
/// (`N × M`, `ldb`), through a 64×64 shared-memory tile.
///
/// ```
/// use host::{TransposeConfig, TransposeKernel};
/// let t = TransposeConfig::new(3, 5);
/// assert_eq!((t.lda, t.ldb, t.kernel), (5, 3, TransposeKernel::Auto));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeConfig {
    /// Rows of A.
    pub m: usize,
    /// Columns of A.
    pub n: usize,
    /// Leading dimension of A (≥ N, a multiple of 4).
    pub lda: usize,
    /// Leading dimension of B (≥ M, a multiple of 4).
    pub ldb: usize,
    /// The kernel ([`TransposeKernel::Auto`] unless set).
    pub kernel: TransposeKernel,
}

impl TransposeConfig {
    /// `m × n` → `n × m`, tight leading dimensions, the kernel chosen by size.
    ///
    /// ```
    /// let t = host::TransposeConfig::new(64, 32).ldb(128);
    /// assert_eq!((t.m, t.n, t.lda, t.ldb), (64, 32, 32, 128));
    /// ```
    pub fn new(m: usize, n: usize) -> TransposeConfig {
        TransposeConfig {
            m,
            n,
            lda: n.max(1),
            ldb: m.max(1),
            kernel: TransposeKernel::Auto,
        }
    }
    /// Sets `lda`.
    ///
    /// ```
    /// assert_eq!(host::TransposeConfig::new(4, 4).lda(8).lda, 8);
    /// ```
    pub fn lda(mut self, lda: usize) -> TransposeConfig {
        self.lda = lda;
        self
    }
    /// Sets `ldb`.
    ///
    /// ```
    /// assert_eq!(host::TransposeConfig::new(4, 4).ldb(8).ldb, 8);
    /// ```
    pub fn ldb(mut self, ldb: usize) -> TransposeConfig {
        self.ldb = ldb;
        self
    }
    /// Sets the kernel.
    ///
    /// ```
    /// use host::{TransposeConfig, TransposeKernel};
    /// let t = TransposeConfig::new(4, 4).kernel(TransposeKernel::Swizzled);
    /// assert_eq!(t.kernel, TransposeKernel::Swizzled);
    /// ```
    pub fn kernel(mut self, kernel: TransposeKernel) -> TransposeConfig {
        self.kernel = kernel;
        self
    }
    /// The register-path kernels: swizzled smem ([`TransposeKernel::Swizzled`]) or plain
    /// ([`TransposeKernel::Naive`]).
    ///
    /// ```
    /// use host::{TransposeConfig, TransposeKernel};
    /// assert_eq!(TransposeConfig::new(4, 4).swizzle(false).kernel, TransposeKernel::Naive);
    /// ```
    pub fn swizzle(self, swizzle: bool) -> TransposeConfig {
        self.kernel(if swizzle {
            TransposeKernel::Swizzled
        } else {
            TransposeKernel::Naive
        })
    }
    /// Elements A and B must hold.
    ///
    /// ```
    /// assert_eq!(host::TransposeConfig::new(2, 3).lens(), (6, 6));
    /// ```
    pub fn lens(&self) -> (usize, usize) {
        (
            need(self.m, self.n, self.lda),
            need(self.n, self.m, self.ldb),
        )
    }
}

/// Elements of `outer` runs of `inner` contiguous elements, `ld` apart.
fn need(outer: usize, inner: usize, ld: usize) -> usize {
    if outer == 0 || inner == 0 {
        0
    } else {
        (outer - 1).saturating_mul(ld).saturating_add(inner)
    }
}

/// One copy kernel of the `copy` and `tma` families ([`VARIANTS`]): its entry, element, order,
/// atom and tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// PTX entry (and name in tables).
    pub kernel: &'static str,
    /// Bytes per element.
    pub elem: usize,
    /// Storage order of the source (a transpose writes the other one).
    pub order: Order,
    /// The copy instruction.
    pub instruction: CopyInstruction,
    /// Block tile `(TILE_M, TILE_N)`.
    pub tile: (usize, usize),
    /// `B = Aᵀ` (output `N x M`) rather than a copy, with this kernel.
    pub transpose: Option<TransposeKernel>,
    /// Dynamic shared memory bytes: one tile, or two for the bulk transpose; a TMA copy's
    /// every stage.
    pub smem: usize,
    /// A TMA copy's grid.
    pub tma_grid: TmaGrid,
}

const fn copy_variant(
    kernel: &'static str,
    elem: usize,
    order: Order,
    instruction: CopyInstruction,
    tile: (usize, usize),
) -> Variant {
    Variant {
        kernel,
        elem,
        order,
        instruction,
        tile,
        transpose: None,
        smem: tile.0 * tile.1 * elem,
        tma_grid: TmaGrid::TilePerCta,
    }
}

const fn transpose_variant(kernel: &'static str, which: TransposeKernel) -> Variant {
    Variant {
        transpose: Some(which),
        ..copy_variant(
            kernel,
            4,
            Order::RowMajor,
            CopyInstruction::Vector,
            (64, 64),
        )
    }
}

/// Every copy kernel, in table order (what `host bench copy` and the copy checks run).
///
/// ```
/// use host::copy::VARIANTS;
/// let v = VARIANTS.iter().find(|v| v.kernel == "tiled_copy_row_f32_v4").unwrap();
/// assert_eq!((v.tile, v.vec()), ((8, 128), 4));
/// assert_eq!(v.lds_ldd(10, 10), (12, 12)); // rows padded to the 16-byte vector
/// ```
pub static VARIANTS: [Variant; 17] = [
    copy_variant(
        "tiled_copy_row_f32_v4",
        4,
        Order::RowMajor,
        CopyInstruction::Vector,
        (8, 128),
    ),
    copy_variant(
        "tiled_copy_row_f32_cp_async",
        4,
        Order::RowMajor,
        CopyInstruction::CpAsync,
        (8, 128),
    ),
    copy_variant(
        "tiled_copy_col_f32_v4",
        4,
        Order::ColMajor,
        CopyInstruction::Vector,
        (128, 8),
    ),
    copy_variant(
        "tiled_copy_row_f16_v4",
        2,
        Order::RowMajor,
        CopyInstruction::Vector,
        (8, 256),
    ),
    copy_variant(
        "tiled_copy_col_f16_v4",
        2,
        Order::ColMajor,
        CopyInstruction::Vector,
        (256, 8),
    ),
    copy_variant(
        "tiled_copy_row_f32_scalar",
        4,
        Order::RowMajor,
        CopyInstruction::Scalar,
        (8, 128),
    ),
    transpose_variant("transpose_f32_swizzled", TransposeKernel::Swizzled),
    transpose_variant("transpose_f32_naive", TransposeKernel::Naive),
    Variant {
        // `kernels/copy/src/body.rs`, `TRANSPOSE_BULK_SMEM`: the A tile and the B tile, its
        // rows padded to 68 floats
        smem: 4 * (64 * 64 + 64 * 68),
        ..transpose_variant("transpose_f32_bulk", TransposeKernel::Bulk)
    },
    tma_variant("tma_copy_row_b4", 4, Order::RowMajor, (32, 128)),
    tma_variant("tma_copy_col_b4", 4, Order::ColMajor, (128, 32)),
    tma_variant("tma_copy_row_b2", 2, Order::RowMajor, (32, 256)),
    tma_variant("tma_copy_col_b2", 2, Order::ColMajor, (256, 32)),
    persistent(tma_variant(
        "tma_copy_row_b4_persistent",
        4,
        Order::RowMajor,
        (32, 128),
    )),
    persistent(tma_variant(
        "tma_copy_col_b4_persistent",
        4,
        Order::ColMajor,
        (128, 32),
    )),
    persistent(tma_variant(
        "tma_copy_row_b2_persistent",
        2,
        Order::RowMajor,
        (32, 256),
    )),
    persistent(tma_variant(
        "tma_copy_col_b2_persistent",
        2,
        Order::ColMajor,
        (256, 32),
    )),
];

/// `v` launched with a persistent grid.
const fn persistent(v: Variant) -> Variant {
    Variant {
        tma_grid: TmaGrid::Persistent,
        ..v
    }
}

/// A TMA copy of `kernels/tma` (`body::B4`, `body::B2`): tile `(TILE_M, TILE_N)` is the box,
/// 4 stages of it in shared memory after 128 bytes of barriers; the grid by size
/// ([`TmaGrid::Auto`]).
const fn tma_variant(
    kernel: &'static str,
    elem: usize,
    order: Order,
    tile: (usize, usize),
) -> Variant {
    Variant {
        smem: TMA_BARRIER_BYTES + TMA_STAGES * tile.0 * tile.1 * elem,
        tma_grid: TmaGrid::Auto,
        ..copy_variant(kernel, elem, order, CopyInstruction::Tma, tile)
    }
}

/// `kernels/tma/src/body.rs`: `BARRIER_BYTES`, `B4::STAGES` / `B2::STAGES`.
const TMA_BARRIER_BYTES: usize = 128;
const TMA_STAGES: usize = 4;

impl Variant {
    /// The kernel for a copy of `elem`-byte elements.
    fn for_copy(elem: usize, order: Order, instr: CopyInstruction) -> Result<&'static Variant> {
        VARIANTS
            .iter()
            .find(|v| {
                v.transpose.is_none() && (v.elem, v.order, v.instruction) == (elem, order, instr)
            })
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "a {order:?} tiled copy of {elem}-byte elements with {instr:?} instructions \
                     (kernels: 4-byte row-major Vector/CpAsync/Scalar, 4-byte column-major \
                     Vector, 2-byte Vector, Tma for 4- and 2-byte elements in either order)"
                ))
            })
    }
    /// The transpose kernel.
    fn for_transpose(which: TransposeKernel, m: usize, n: usize) -> &'static Variant {
        match which.resolve(m, n) {
            TransposeKernel::Swizzled => &VARIANTS[6],
            TransposeKernel::Naive => &VARIANTS[7],
            // `resolve` never gives `Auto`
            TransposeKernel::Bulk | TransposeKernel::Auto => &VARIANTS[8],
        }
    }

    /// Elements per instruction (1: scalar atom, no alignment rule).
    ///
    /// ```
    /// use host::copy::VARIANTS;
    /// assert_eq!(VARIANTS[0].kernel, "tiled_copy_row_f32_v4");
    /// assert_eq!(VARIANTS[0].vec(), 4); // 16 bytes of f32
    /// assert_eq!(VARIANTS[3].vec(), 8); // of f16
    /// assert_eq!(VARIANTS[5].vec(), 1); // the scalar atom
    /// ```
    pub fn vec(&self) -> usize {
        match self.instruction {
            CopyInstruction::Scalar => 1,
            // TMA: global strides are multiples of 16 bytes
            CopyInstruction::Vector | CopyInstruction::CpAsync | CopyInstruction::Tma => {
                16 / self.elem
            }
        }
    }

    /// Extent of the contiguous dimension of the source and of the destination.
    fn contiguous(&self, m: usize, n: usize) -> (usize, usize) {
        match (self.transpose, self.order) {
            (Some(_), _) => (n, m),
            (None, Order::ColMajor) => (m, m),
            (None, Order::RowMajor) => (n, n),
        }
    }

    /// The leading dimensions this variant wants for an `m x n` source (padded to the vector).
    ///
    /// ```
    /// use host::copy::VARIANTS;
    /// // a row-major f32 copy of 3 × 5: rows padded to the 4-element vector
    /// assert_eq!(VARIANTS[0].lds_ldd(3, 5), (8, 8));
    /// // the swizzled transpose of 3 × 5 writes 5 × 3 (rows of 3, padded to 4)
    /// assert_eq!(VARIANTS[6].lds_ldd(3, 5), (8, 4));
    /// ```
    pub fn lds_ldd(&self, m: usize, n: usize) -> (usize, usize) {
        let (cs, cd) = self.contiguous(m, n);
        (
            cs.max(1).next_multiple_of(self.vec()),
            cd.max(1).next_multiple_of(self.vec()),
        )
    }

    /// Grid: copies, one dimension of `ceil(m/TILE_M) * ceil(n/TILE_N)` blocks (the kernel
    /// walks the contiguous dimension's tiles first); transposes, `(tiles along m, tiles along
    /// n)`.
    fn grid(&self, m: usize, n: usize) -> (usize, usize) {
        let (tm, tn) = (
            m.div_ceil(self.tile.0).max(1),
            n.div_ceil(self.tile.1).max(1),
        );
        if self.transpose.is_some() {
            (tm, tn)
        } else {
            (tm.saturating_mul(tn), 1)
        }
    }

    /// Host-side legality, before any launch: 128-bit atoms need 16-byte aligned bases and
    /// leading dimensions that are multiples of the vector width (the dynamic half of
    /// `layout_types::value::copy::check_vector`; the static half is a const assertion in the
    /// kernel); the grid must fit CUDA's limits.
    fn validate(&self, l: &Launch) -> Result<()> {
        let vec = self.vec();
        if vec > 1 {
            let align = vec * self.elem;
            for (name, address) in [("src", l.src), ("dst", l.dst)] {
                if address % align as u64 != 0 {
                    return Err(Error::Misaligned {
                        name,
                        address,
                        align,
                        kernel: self.kernel,
                    });
                }
            }
            for (name, ld) in [("lds", l.lds), ("ldd", l.ldd)] {
                if ld % vec != 0 {
                    return Err(Error::LeadingDimensionAlignment {
                        name,
                        ld,
                        vector: vec,
                        kernel: self.kernel,
                    });
                }
            }
        }
        let (x, y) = self.grid(l.m, l.n);
        if y > 65535 || x > i32::MAX as usize {
            return Err(Error::GridTooLarge {
                kernel: self.kernel,
                x,
                y,
                z: 1,
            });
        }
        Ok(())
    }
}

/// A validated launch: device addresses and the geometry, in elements.
struct Launch {
    src: u64,
    dst: u64,
    m: usize,
    n: usize,
    lds: usize,
    ldd: usize,
}

/// Leading dimensions must cover the contiguous extent and fit the kernels' i64 math.
fn check_ld(name: &'static str, ld: usize, min: usize) -> Result<()> {
    if ld < min.max(1) || ld > i32::MAX as usize {
        return Err(Error::LeadingDimension {
            name,
            ld,
            min: min.max(1),
        });
    }
    Ok(())
}

fn check_len(name: &'static str, len: usize, needed: usize) -> Result<()> {
    if len < needed {
        return Err(Error::BufferTooSmall { name, len, needed });
    }
    Ok(())
}

impl Context {
    /// `dst = src` for an `M × N` matrix of `T` (4- or 2-byte elements, moved bit for bit):
    /// each CTA copies one tile gmem → smem → gmem through a `layout_types` TiledCopy, queued
    /// on `stream`.
    ///
    /// Checked before launching: leading dimensions, buffer lengths, the stream's and buffers'
    /// context, and for 128-bit atoms 16-byte aligned bases and leading dimensions that are
    /// multiples of the vector ([`Error::Misaligned`], [`Error::LeadingDimensionAlignment`]).
    ///
    /// ```no_run
    /// use host::{Context, CopyConfig, Order};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let src = stream.clone_htod(&vec![7u16; 300 * 512])?;
    /// let mut dst = stream.alloc_zeros::<u16>(300 * 512)?;
    /// ctx.tiled_copy(&stream, &CopyConfig::new(Order::RowMajor, 300, 512), &src, &mut dst)?;
    /// assert_eq!(stream.clone_dtoh(&dst)?, vec![7u16; 300 * 512]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_copy<T, S, D>(
        &self,
        stream: &CudaStream,
        cfg: &CopyConfig,
        src: &S,
        dst: &mut D,
    ) -> Result<()>
    where
        T: Element,
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        let v = Variant::for_copy(T::BYTES, cfg.order, cfg.instruction)?;
        self.tiled_copy_with(stream, v, cfg, src, dst)
    }

    /// [`Context::tiled_copy`] with the kernel `v` (the bench and the checks name each variant).
    fn tiled_copy_with<T, S, D>(
        &self,
        stream: &CudaStream,
        v: &Variant,
        cfg: &CopyConfig,
        src: &S,
        dst: &mut D,
    ) -> Result<()>
    where
        T: Element,
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        let contiguous = match cfg.order {
            Order::RowMajor => cfg.n,
            Order::ColMajor => cfg.m,
        };
        check_ld("lds", cfg.lds, contiguous)?;
        check_ld("ldd", cfg.ldd, contiguous)?;
        let (ns, nd) = cfg.lens();
        check_len("src", src.len(), ns)?;
        check_len("dst", dst.len(), nd)?;
        self.launch_variant(stream, v, (cfg.m, cfg.n, cfg.lds, cfg.ldd), src, dst)
    }

    /// `B = Aᵀ` for row-major matrices of 4-byte elements (`f32`, `u32`, `i32`; `A` is
    /// `M × N`, `B` is `N × M`) through 64×64 shared-memory tiles, with the kernel
    /// `cfg.kernel` ([`TransposeKernel`]); queued on `stream`. Both bases 16-byte aligned, `lda`
    /// and `ldb` multiples of 4.
    ///
    /// ```no_run
    /// use host::{Context, TransposeConfig};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let a = stream.clone_htod(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])?; // 2 x 4
    /// let mut b = stream.alloc_zeros::<f32>(4 * 4)?;                            // 4 x 2, ldb 4
    /// ctx.transpose(&stream, &TransposeConfig::new(2, 4).ldb(4), &a, &mut b)?;
    /// assert_eq!(stream.clone_dtoh(&b)?[..2], [1.0, 5.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transpose<T, S, D>(
        &self,
        stream: &CudaStream,
        cfg: &TransposeConfig,
        a: &S,
        b: &mut D,
    ) -> Result<()>
    where
        T: Element,
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        let mut v = Variant::for_transpose(cfg.kernel, cfg.m, cfg.n);
        if cfg.kernel == TransposeKernel::Auto && !self.has_kernel(v.kernel) {
            // the bulk kernel is Hopper only: Auto takes the swizzled one elsewhere
            v = Variant::for_transpose(TransposeKernel::Swizzled, cfg.m, cfg.n);
        }
        self.transpose_with(stream, v, cfg, a, b)
    }

    /// [`Context::transpose`] with the kernel `v`.
    fn transpose_with<T, S, D>(
        &self,
        stream: &CudaStream,
        v: &Variant,
        cfg: &TransposeConfig,
        a: &S,
        b: &mut D,
    ) -> Result<()>
    where
        T: Element,
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        check_ld("lda", cfg.lda, cfg.n)?;
        check_ld("ldb", cfg.ldb, cfg.m)?;
        let (na, nb) = cfg.lens();
        check_len("A", a.len(), na)?;
        check_len("B", b.len(), nb)?;
        self.launch_variant(stream, v, (cfg.m, cfg.n, cfg.lda, cfg.ldb), a, b)
    }

    /// Variant `v` with the checks of the public entry points ([`Context::tiled_copy`] or
    /// [`Context::transpose`]) on `(m, n, lds, ldd)`.
    ///
    /// ```no_run
    /// use host::copy::VARIANTS;
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let src = s.alloc_zeros::<f32>(64 * 128)?;
    /// let mut dst = s.alloc_zeros::<f32>(64 * 128)?;
    /// // the cp.async variant on a 64 × 128 row-major copy
    /// ctx.run_variant(&s, &VARIANTS[1], (64, 128, 128, 128), &src, &mut dst)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_variant<T, S, D>(
        &self,
        stream: &CudaStream,
        v: &Variant,
        (m, n, lds, ldd): (usize, usize, usize, usize),
        src: &S,
        dst: &mut D,
    ) -> Result<()>
    where
        T: Element,
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        match v.transpose {
            Some(kernel) => {
                let cfg = TransposeConfig {
                    m,
                    n,
                    lda: lds,
                    ldb: ldd,
                    kernel,
                };
                self.transpose_with(stream, v, &cfg, src, dst)
            }
            None => {
                let cfg = CopyConfig {
                    order: v.order,
                    m,
                    n,
                    lds,
                    ldd,
                    instruction: v.instruction,
                };
                self.tiled_copy_with(stream, v, &cfg, src, dst)
            }
        }
    }

    /// Checks context, alignment and grid, then launches `v` on `(m, n, lds, ldd)`; lengths
    /// and leading-dimension minimums are checked by the callers.
    fn launch_variant<T, S, D>(
        &self,
        stream: &CudaStream,
        v: &Variant,
        (m, n, lds, ldd): (usize, usize, usize, usize),
        src: &S,
        dst: &mut D,
    ) -> Result<()>
    where
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        self.check_stream(stream)?;
        self.check_buffer("buffer src", src)?;
        self.check_buffer("buffer dst", dst)?;
        if std::mem::size_of::<T>() != v.elem {
            return Err(Error::Unsupported(format!(
                "{} moves {}-byte elements, the buffers hold {}-byte ones",
                v.kernel,
                v.elem,
                std::mem::size_of::<T>()
            )));
        }
        if m == 0 || n == 0 {
            return Ok(());
        }
        if v.instruction == CopyInstruction::Tma {
            return self.launch_tma(stream, v, (m, n, lds, ldd), src, dst, v.tma_grid);
        }
        let f = self.function(v.kernel)?;
        let (ps, _rs) = src.device_ptr(stream);
        let (pd, _rd) = dst.device_ptr_mut(stream);
        let l = Launch {
            src: ps,
            dst: pd,
            m,
            n,
            lds,
            ldd,
        };
        v.validate(&l)?;
        let (gx, gy) = v.grid(m, n);
        let cfg = LaunchConfig {
            grid_dim: (gx as u32, gy as u32, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: v.smem as u32,
        };
        let (m, n, lds, ldd) = (m as i64, n as i64, lds as i64, ldd as i64);
        let mut b = stream.launch_builder(&f);
        b.arg(&l.src)
            .arg(&l.dst)
            .arg(&m)
            .arg(&n)
            .arg(&lds)
            .arg(&ldd);
        // SAFETY: the signature is (ptr, ptr, i64 x4); the callers checked that the buffers hold
        // the matrices, `validate` the alignment and leading dimensions the vectors need.
        unsafe { b.launch(cfg) }?;
        Ok(())
    }
}

/// How many CTAs a TMA copy launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaGrid {
    /// As many as fit on the device at once (SMs × resident CTAs per SM), each streaming its
    /// tiles `b, b + grid, ...` through the pipeline.
    Persistent,
    /// One CTA per tile (the pipeline then holds one stage in flight), 3 resident per SM.
    TilePerCta,
    /// [`TmaGrid::Persistent`] while the tiles fill at most 3.5 waves of resident CTAs
    /// (`AUTO_PERSISTENT_HALF_WAVES`, 7), [`TmaGrid::TilePerCta`] beyond. On the H100 a copy of a
    /// few waves (16 MiB: 2.6 waves of 16 KiB tiles, source and destination in L2) is
    /// latency-bound, and CTAs that each keep 4 loads in flight beat further waves of CTA
    /// launches (16 MiB 8.2 against 9.0 us, 20 MiB 13.6 against 14.9 us); at 3.9 waves (24 MiB)
    /// the two are even, and from DRAM (48 MiB and more) one tile per CTA is 4-6 % faster
    /// (doc/performance.md, run 2026-11-24-tma-auto-grid).
    Auto,
}

/// Under [`TmaGrid::Auto`], copies of at most this many half waves of resident CTAs (3.5
/// waves) are persistent.
const AUTO_PERSISTENT_HALF_WAVES: u64 = 7;

impl TmaGrid {
    /// CTAs launched for `tiles` tiles when `resident` CTAs fit on the device at once.
    fn blocks(self, tiles: u64, resident: u64) -> u64 {
        let resident = resident.max(1);
        match self {
            TmaGrid::TilePerCta => tiles,
            TmaGrid::Auto if 2 * tiles > AUTO_PERSISTENT_HALF_WAVES * resident => tiles,
            TmaGrid::Persistent | TmaGrid::Auto => tiles.min(resident),
        }
    }
}

/// The two tensor maps' plans of a TMA copy of `v` on `(m, n, lds, ldd)` at device addresses
/// `src`, `dst`: the matrices in TMA order `(C, S)` (contiguous extent first), the box the
/// kernel's shared-memory layout `(_BC,_BS):(_1,_BC)`. The store map covers the first `c_tma`
/// columns, `C` rounded down to 16 bytes ([`tma_store_columns`]; all of `C` when that is 0, and
/// then the kernel stores nothing by TMA). Every check of [`crate::tma::plan_tma_copy`] runs
/// here, without the driver.
pub(crate) fn tma_copy_plans(
    v: &Variant,
    (m, n, lds, ldd): (usize, usize, usize, usize),
    src: u64,
    dst: u64,
) -> Result<[(crate::tma::GmemTensor, crate::tma::TmaPlan); 2]> {
    use crate::tma::{TmaOp, plan_tma_copy};
    let (c, s) = match v.order {
        Order::RowMajor => (n, m),
        Order::ColMajor => (m, n),
    };
    for (name, value) in [("m", m), ("n", n)] {
        if value > i32::MAX as usize {
            return Err(Error::SizeTooLarge { name, value });
        }
    }
    let smem = tma_box(v)?;
    let c_store = match tma_store_columns(v, c) {
        0 => c,
        ct => ct,
    };
    let (load, store) = (
        tma_tensor(v, src, (c, s), lds),
        tma_tensor(v, dst, (c_store, s), ldd),
    );
    let (load_plan, store_plan) = (
        plan_tma_copy(TmaOp::Load, &load, &smem)?,
        plan_tma_copy(TmaOp::Store, &store, &smem)?,
    );
    Ok([(load, load_plan), (store, store_plan)])
}

/// The columns a TMA store writes exactly: `c` rounded down to 16 bytes. TMA clips stores to
/// the tensor map only at 16-byte granularity along the contiguous dimension (on the H100 a map
/// of `c` columns writes up to the next 16 bytes, over the padding of a leading dimension), so
/// the kernel writes the last `c - c_tma` columns with plain stores.
fn tma_store_columns(v: &Variant, c: usize) -> usize {
    c - c % (16 / v.elem)
}

/// The kernel's shared-memory box of the variant's tile: [`config::CopyBox`] of its extents
/// `(BC, BS)` in TMA order (contiguous extent first): `B4`'s `128 × 32`, `B2`'s `256 × 32`.
fn tma_box(v: &Variant) -> Result<layout_types::value::swizzle::ComposedLayout> {
    use layout_types::cute::consts::{_32, _128, _256};
    let (bc, bs) = match v.order {
        Order::RowMajor => (v.tile.1, v.tile.0),
        Order::ColMajor => v.tile,
    };
    match (bc, bs) {
        (128, 32) => crate::tma::tma_box::<config::CopyBox<_128, _32>>(),
        (256, 32) => crate::tma::tma_box::<config::CopyBox<_256, _32>>(),
        _ => Err(Error::Unsupported(format!(
            "TMA copy: no kernel box of {bc} × {bs}"
        ))),
    }
}

/// The `(C, S)` tensor at `address` with leading dimension `ld`, as TMA sees it (the kernels
/// move bits: 4- and 2-byte elements as `u32` / `u16`).
fn tma_tensor(
    v: &Variant,
    address: u64,
    (c, s): (usize, usize),
    ld: usize,
) -> crate::tma::GmemTensor {
    use crate::tma::GmemTensor;
    let (shape, stride) = ([c as u64, s as u64], [1, ld as u64]);
    match v.elem {
        4 => GmemTensor::new::<u32>(address, &shape, &stride),
        _ => GmemTensor::new::<u16>(address, &shape, &stride),
    }
}

/// Launches kept per context before the cache starts over.
const TMA_LAUNCH_ENTRIES: usize = 256;

impl Context {
    /// Launches the TMA copy `v`: the launch from the context's cache, or checked, planned and
    /// encoded ([`tma_copy_plans`], [`Context::encode_tma`]) and kept there, so a repeated copy
    /// on the same buffers costs the host a lookup and `cuLaunchKernel` (the checks, plans and
    /// `cuFuncSetAttribute` cost more than the kernel itself below 16 MiB, and, exposed before
    /// the first kernel of a batch, 1-2 % at 256 MiB).
    ///
    /// `v.smem` bytes of dynamic shared memory (4 stages: 3 CTAs per SM) and the grid `grid`
    /// asks for ([`TmaGrid::Auto`] for [`Context::tiled_copy`]). One tile per CTA uses one
    /// stage only, but keeps the 4-stage footprint on purpose: 3 resident CTAs per SM (48 KiB of
    /// loads in flight) measured best on the H100, against 2, 4 or 6 per SM and 2, 4 or 16 tiles
    /// per CTA (`doc/hopper-tma.md`).
    pub(crate) fn launch_tma<T, S, D>(
        &self,
        stream: &CudaStream,
        v: &Variant,
        geometry: (usize, usize, usize, usize),
        src: &S,
        dst: &mut D,
        grid: TmaGrid,
    ) -> Result<()>
    where
        S: DevicePtr<T>,
        D: DevicePtrMut<T>,
    {
        let (m, n, _, ldd) = geometry;
        if m == 0 || n == 0 {
            return Ok(());
        }
        let (ps, _rs) = src.device_ptr(stream);
        let (pd, _rd) = dst.device_ptr_mut(stream);
        let f = self.function(v.kernel)?;
        let key = TmaLaunchKey {
            kernel: v.kernel,
            geometry,
            src: ps,
            dst: pd,
        };
        let cached = self
            .tma_launches
            .lock()
            .ok()
            .and_then(|c| c.get(&key).copied());
        let l = match cached {
            Some(l) => l,
            None => {
                let l = self.plan_tma_launch(&f, v, geometry, (ps, pd), grid)?;
                if let Ok(mut c) = self.tma_launches.lock() {
                    if c.len() >= TMA_LAUNCH_ENTRIES {
                        c.clear();
                    }
                    c.insert(key, l);
                }
                l
            }
        };
        let cfg = LaunchConfig {
            grid_dim: (l.blocks, 1, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: l.smem,
        };
        let (c, s, c_tma) = l.extents;
        let ldd = ldd as i64;
        let mut b = stream.launch_builder(&f);
        b.arg(&l.maps[0])
            .arg(&l.maps[1])
            .arg(&c)
            .arg(&s)
            .arg(&c_tma)
            .arg(&pd)
            .arg(&ldd);
        // SAFETY: the signature is (CUtensorMap, CUtensorMap, i32 c, i32 s, i32 c_tma, ptr dst,
        // i64 ldd); the maps were encoded for these addresses and geometry (the buffers'
        // lengths checked by the callers) and the kernel's box; with one tile per CTA only
        // stage 0 of the shared memory is used.
        unsafe { b.launch(cfg) }?;
        Ok(())
    }

    /// The launch of the TMA copy `v` on `geometry` at `(src, dst)`: the two maps checked,
    /// planned and encoded, the grid `grid` asks for, and `f`'s dynamic shared memory limit
    /// raised to `v.smem`.
    fn plan_tma_launch(
        &self,
        f: &cudarc::driver::CudaFunction,
        v: &Variant,
        geometry: (usize, usize, usize, usize),
        (ps, pd): (u64, u64),
        grid: TmaGrid,
    ) -> Result<TmaLaunch> {
        let [(load_gmem, load_plan), (store_gmem, store_plan)] =
            tma_copy_plans(v, geometry, ps, pd)?;
        let (c, s) = (load_plan.global_dim[0], load_plan.global_dim[1]);
        let c_tma = tma_store_columns(v, c as usize);
        let load = self.encode_tma(&load_gmem, load_plan)?;
        let store = self.encode_tma(&store_gmem, store_plan)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            v.smem as i32,
        )?;
        let tiles =
            c.div_ceil(load.plan.box_dim[0] as u64) * s.div_ceil(load.plan.box_dim[1] as u64);
        let per_sm = f.occupancy_max_active_blocks_per_multiprocessor(32, v.smem, None)?;
        let blocks = grid.blocks(tiles, self.device().sms as u64 * per_sm as u64);
        if blocks > i32::MAX as u64 {
            return Err(Error::GridTooLarge {
                kernel: v.kernel,
                x: blocks as usize,
                y: 1,
                z: 1,
            });
        }
        Ok(TmaLaunch {
            maps: [TmaParam(load.desc.0), TmaParam(store.desc.0)],
            extents: (c as i32, s as i32, c_tma as i32),
            blocks: blocks as u32,
            smem: v.smem as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tma_copies_check_their_buffers_before_any_driver_call() {
        use crate::tma::TmaSwizzle;
        let v = Variant::for_copy(4, Order::RowMajor, CopyInstruction::Tma).unwrap();
        assert_eq!(v.kernel, "tma_copy_row_b4");
        let [(_, l), (_, st)] = tma_copy_plans(v, (100, 1000, 1000, 1004), 0x1000, 0x2000).unwrap();
        assert_eq!(
            (l.global_dim.clone(), l.box_dim.clone()),
            (vec![1000, 100], vec![128, 32])
        );
        // the kernel's box (`config::CopyBox`): TMA order as the tensors', unswizzled
        for p in [&l, &st] {
            assert_eq!((&p.order, p.swizzle), (&vec![0, 1], TmaSwizzle::None));
        }
        assert_eq!((st.global_stride_bytes, l.tx_bytes), (vec![4016], 16384));
        // a misaligned buffer
        assert!(matches!(
            tma_copy_plans(v, (100, 1000, 1000, 1000), 0x1004, 0x2000),
            Err(Error::Tma(crate::tma::TmaError::Misaligned {
                what: "global address",
                value: 0x1004,
                align: 16
            }))
        ));
        // rows of 1001 floats are not 16-byte multiples
        assert!(matches!(
            tma_copy_plans(v, (100, 1000, 1001, 1000), 0x1000, 0x2000),
            Err(Error::Tma(crate::tma::TmaError::Misaligned {
                what: "global stride (bytes)",
                value: 4004,
                ..
            }))
        ));
        let h = Variant::for_copy(2, Order::ColMajor, CopyInstruction::Tma).unwrap();
        let [(_, l), _] = tma_copy_plans(h, (3001, 7, 3008, 3008), 0x1000, 0x2000).unwrap();
        assert_eq!(
            (l.global_dim, l.box_dim, l.order, l.swizzle, l.tx_bytes),
            (
                vec![3001, 7],
                vec![256, 32],
                vec![0, 1],
                TmaSwizzle::None,
                16384
            )
        );
        assert!(matches!(
            tma_copy_plans(h, (1 << 31, 1, 1 << 31, 1 << 31), 0x1000, 0x2000),
            Err(Error::SizeTooLarge { name: "m", .. })
        ));
        assert_eq!(v.smem, 128 + 4 * 16384);
    }

    #[test]
    fn tma_grids() {
        // 132 SMs x 3 resident CTAs
        let r = 396;
        for tiles in [1, 256, 396, 1024, 1584, 1585, 4096, 65536] {
            assert_eq!(TmaGrid::TilePerCta.blocks(tiles, r), tiles);
            assert_eq!(TmaGrid::Persistent.blocks(tiles, r), tiles.min(r));
        }
        // persistent up to 3.5 waves, one tile per CTA beyond
        assert_eq!(TmaGrid::Auto.blocks(256, r), 256);
        assert_eq!(TmaGrid::Auto.blocks(1024, r), 396);
        assert_eq!(TmaGrid::Auto.blocks(1386, r), 396);
        assert_eq!(TmaGrid::Auto.blocks(1387, r), 1387);
        assert_eq!(TmaGrid::Auto.blocks(1536, r), 1536);
        assert_eq!(TmaGrid::Auto.blocks(4096, r), 4096);
        assert_eq!(TmaGrid::Auto.blocks(3, 0), 1);
        assert_eq!(TmaGrid::Auto.blocks(4, 0), 4);
        let v = Variant::for_copy(2, Order::ColMajor, CopyInstruction::Tma).unwrap();
        assert_eq!(v.tma_grid, TmaGrid::Auto);
    }

    #[test]
    fn variants_by_type_order_atom() {
        let k = |e, o, a| Variant::for_copy(e, o, a).map(|v| v.kernel);
        assert_eq!(
            k(4, Order::RowMajor, CopyInstruction::Vector).unwrap(),
            "tiled_copy_row_f32_v4"
        );
        assert_eq!(
            k(2, Order::ColMajor, CopyInstruction::Vector).unwrap(),
            "tiled_copy_col_f16_v4"
        );
        assert!(matches!(
            k(4, Order::ColMajor, CopyInstruction::Scalar),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn alignment_and_grid_rules() {
        let v = Variant::for_copy(4, Order::RowMajor, CopyInstruction::Vector).unwrap();
        let l = |src, lds, m| Launch {
            src,
            dst: 0x1000,
            m,
            n: 8,
            lds,
            ldd: 8,
        };
        assert!(v.validate(&l(0x1000, 8, 8)).is_ok());
        assert!(matches!(
            v.validate(&l(0x1004, 8, 8)),
            Err(Error::Misaligned {
                name: "src",
                align: 16,
                ..
            })
        ));
        assert!(matches!(
            v.validate(&l(0x1000, 10, 8)),
            Err(Error::LeadingDimensionAlignment { name: "lds", .. })
        ));
        // scalar: any alignment
        let s = Variant::for_copy(4, Order::RowMajor, CopyInstruction::Scalar).unwrap();
        assert!(s.validate(&l(0x1004, 9, 8)).is_ok());
        // a wide matrix is one long 1-D grid (the kernel walks n first) ...
        let wide = Launch {
            n: 128 * 65536,
            ..l(0x1000, 128 * 65536, 1)
        };
        assert_eq!(v.grid(wide.m, wide.n), (65536, 1));
        assert!(v.validate(&wide).is_ok());
        // ... up to 2^31 - 1 blocks
        let huge = Launch {
            m: 1 << 31,
            n: 128 * 16,
            ldd: 2048,
            ..l(0x1000, 2048, 1)
        };
        assert!(matches!(v.validate(&huge), Err(Error::GridTooLarge { .. })));
    }

    #[test]
    fn table_order_and_leading_dimensions() {
        let tr = |k| Variant::for_transpose(k, 1, 1);
        assert_eq!(
            tr(TransposeKernel::Swizzled).kernel,
            "transpose_f32_swizzled"
        );
        assert_eq!(tr(TransposeKernel::Naive).kernel, "transpose_f32_naive");
        assert_eq!(tr(TransposeKernel::Bulk).kernel, "transpose_f32_bulk");
        assert_eq!(tr(TransposeKernel::Naive).smem, 64 * 64 * 4);
        assert_eq!(tr(TransposeKernel::Bulk).smem, 33792);
        let f16 = Variant::for_copy(2, Order::ColMajor, CopyInstruction::Vector).unwrap();
        assert_eq!((f16.vec(), f16.lds_ldd(3001, 1)), (8, (3008, 3008)));
        assert_eq!(tr(TransposeKernel::Bulk).lds_ldd(5, 7), (8, 8));
        let auto = |m, n| Variant::for_transpose(TransposeKernel::Auto, m, n).kernel;
        assert_eq!(auto(2048, 2048), "transpose_f32_swizzled");
        assert_eq!(auto(4096, 4096), "transpose_f32_bulk");
    }

    #[test]
    fn lengths() {
        let c = CopyConfig::new(Order::RowMajor, 0, 5);
        assert_eq!(c.lens(), (0, 0));
        let t = TransposeConfig::new(3, 2).ldb(4);
        assert_eq!(t.lens(), (6, 4 + 3));
    }
}
