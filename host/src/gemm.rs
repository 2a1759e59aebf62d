//! fp32 GEMM on CUDA cores (`kernels/src/gemm`): [`Context::sgemm`], its arguments
//! ([`GemmConfig`]) and its launch plans ([`Plan`], chosen by size).
//!
//! BLAS conventions, column-major: `C(M×N) = alpha·op(A)·op(B) + beta·C`, `op(A)` is `M×K`
//! (`A` stored `M×K` for [`Trans::N`], `K×M` for [`Trans::T`]), `op(B)` is `K×N` (`K×N` for
//! "N", `N×K` for "T"). A row-major caller computes `Cᵀ = op(B)ᵀ·op(A)ᵀ`: swap A and B, M and N.
//!
//! Plans ([`Context::gemm_plan`]): 128×128×8 tiles; split-K (`gridDim.z` k-slices added into
//! `beta·C` with `red.global.add.f32`) when the tiles alone leave the GPU under one wave;
//! 64×64×8 tiles for problems too small for either. The four 128×128×8 entries also exist
//! with launch bounds, declared beside the kernels (`device::launch_bounds!(_, 256, 2)`: ≤ 128
//! registers, two CTAs per SM; entries `*_2cta`).

use std::fmt;

use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::ptx;
pub use layout_types::cutlass::fusion::{Activation, BiasMode};

/// BLAS transpose flag of one operand.
///
/// ```
/// assert_eq!(host::Trans::T.to_string(), "T");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Trans {
    /// As stored.
    #[default]
    N,
    /// Transposed.
    T,
}

impl Trans {
    fn ch(self) -> char {
        match self {
            Trans::N => 'n',
            Trans::T => 't',
        }
    }
}

impl fmt::Display for Trans {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Trans::N => "N",
            Trans::T => "T",
        })
    }
}

/// Which tensor-core kernel [`Context::hgemm`](crate::Context::hgemm) runs (the SGEMM ignores
/// it).
///
/// ```
/// assert_eq!(host::GemmConfig::new(1, 1, 1).kernel, host::GemmKernel::Auto);
/// assert_eq!("sm80".parse::<host::GemmKernel>(), Ok(host::GemmKernel::Sm80));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GemmKernel {
    /// The device's best: the Hopper kernel (`kernels/hgemm`, TMA + `wgmma`) where it is
    /// loaded, else the Ampere kernel (`kernels/hgemm_sm80`): on sm_80–89 GPUs, and wherever
    /// the sm_80 build was forced (`host --arch sm_80`).
    #[default]
    Auto,
    /// The Hopper kernel (an [`Error::NeedsArch`] where it is not
    /// loaded).
    Sm90,
    /// The Ampere kernel (`mma.sync`, `ldmatrix`, `cp.async`), on any GPU from sm_80 on,
    /// Hopper included.
    Sm80,
}

impl std::str::FromStr for GemmKernel {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<GemmKernel, String> {
        match s {
            "auto" => Ok(GemmKernel::Auto),
            "sm90" => Ok(GemmKernel::Sm90),
            "sm80" => Ok(GemmKernel::Sm80),
            _ => Err(format!("{s}: the kernel is auto, sm90 or sm80")),
        }
    }
}

/// The arguments of a GEMM, as cuBLAS takes them (column-major, leading dimensions in
/// elements): `C = alpha·op(A)·op(B) + beta·C`.
///
/// [`GemmConfig::new`] gives NN, `alpha = 1`, `beta = 0` and tight leading dimensions; the
/// builder methods change one field each.
///
/// ```
/// use host::{GemmConfig, Trans};
/// let g = GemmConfig::new(128, 64, 32).trans(Trans::T, Trans::N).alpha(2.0).beta(1.0);
/// assert_eq!((g.lda, g.ldb, g.ldc), (32, 32, 128)); // A stored K×M, B K×N, C M×N
/// assert_eq!(g.lens(), (32 * 128, 32 * 64, 128 * 64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmConfig {
    /// op(A).
    pub transa: Trans,
    /// op(B).
    pub transb: Trans,
    /// Rows of op(A) and C.
    pub m: usize,
    /// Columns of op(B) and C.
    pub n: usize,
    /// Columns of op(A), rows of op(B).
    pub k: usize,
    /// Scale of op(A)·op(B).
    pub alpha: f32,
    /// Leading dimension of A as stored (≥ its rows).
    pub lda: usize,
    /// Leading dimension of B as stored.
    pub ldb: usize,
    /// Scale of C; `0` means C is not read (may hold NaN).
    pub beta: f32,
    /// Leading dimension of C (≥ M).
    pub ldc: usize,
    /// A bias vector added before the activation (the bf16/fp16 GEMM's fused epilogue:
    /// `C = act(alpha·op(A)·op(B) + beta·C + bias)`): none, along M or along N.
    pub bias: BiasMode,
    /// The activation of the fused epilogue (identity: none).
    pub act: Activation,
    /// The bf16/fp16 kernel [`Context::hgemm`](crate::Context::hgemm) runs.
    pub kernel: GemmKernel,
}

impl GemmConfig {
    /// `C(m×n) = A(m×k)·B(k×n)`: NN, alpha 1, beta 0, tight leading dimensions.
    ///
    /// ```
    /// let g = host::GemmConfig::new(4, 5, 6);
    /// assert_eq!((g.lda, g.ldb, g.ldc), (4, 6, 4));
    /// ```
    pub fn new(m: usize, n: usize, k: usize) -> GemmConfig {
        GemmConfig {
            transa: Trans::N,
            transb: Trans::N,
            m,
            n,
            k,
            alpha: 1.0,
            lda: m.max(1),
            ldb: k.max(1),
            beta: 0.0,
            ldc: m.max(1),
            kernel: GemmKernel::Auto,
            bias: BiasMode::None,
            act: Activation::Identity,
        }
    }
    /// Adds a bias vector along M (`f32`, one value per row of C) or N (one per column) to the
    /// epilogue (the bf16/fp16 GEMM only).
    ///
    /// ```
    /// use host::{BiasMode, GemmConfig};
    /// let g = GemmConfig::new(4, 5, 6).bias(BiasMode::N);
    /// assert_eq!((g.bias_len(), g.is_fused()), (5, true));
    /// ```
    pub fn bias(mut self, bias: BiasMode) -> GemmConfig {
        self.bias = bias;
        self
    }
    /// Sets the epilogue's activation (the bf16/fp16 GEMM only).
    ///
    /// ```
    /// use host::{Activation, GemmConfig};
    /// let g = GemmConfig::new(4, 5, 6).act(Activation::Gelu);
    /// assert_eq!(g.to_string(), "4x5x6 NN gelu");
    /// ```
    pub fn act(mut self, act: Activation) -> GemmConfig {
        self.act = act;
        self
    }
    /// Whether the epilogue has a bias or an activation.
    ///
    /// ```
    /// assert!(!host::GemmConfig::new(4, 5, 6).is_fused());
    /// ```
    pub fn is_fused(&self) -> bool {
        self.bias != BiasMode::None || self.act != Activation::Identity
    }
    /// The same problem without bias and activation (`alpha·op(A)·op(B) + beta·C`).
    ///
    /// ```
    /// use host::{Activation, GemmConfig};
    /// assert!(!GemmConfig::new(4, 5, 6).act(Activation::Relu).linear().is_fused());
    /// ```
    pub fn linear(&self) -> GemmConfig {
        GemmConfig {
            bias: BiasMode::None,
            act: Activation::Identity,
            ..*self
        }
    }
    /// The fused epilogue's name: `+bias_m`/`+bias_n` and the activation, or empty.
    ///
    /// ```
    /// use host::{Activation, BiasMode, GemmConfig};
    /// let g = GemmConfig::new(4, 5, 6).bias(BiasMode::N).act(Activation::GeluErf);
    /// assert_eq!(g.epilogue(), "+bias_n gelu-erf");
    /// assert_eq!(g.to_string(), "4x5x6 NN +bias_n gelu-erf");
    /// ```
    pub fn epilogue(&self) -> String {
        let bias = match self.bias {
            BiasMode::None => None,
            BiasMode::M => Some("+bias_m"),
            BiasMode::N => Some("+bias_n"),
        };
        let act = match self.act {
            Activation::Identity => None,
            Activation::Relu => Some("relu"),
            Activation::Gelu => Some("gelu"),
            Activation::GeluErf => Some("gelu-erf"),
            Activation::Silu => Some("silu"),
        };
        [bias, act]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// Elements of the bias vector: M, N or 0.
    ///
    /// ```
    /// use host::{BiasMode, GemmConfig};
    /// assert_eq!(GemmConfig::new(4, 5, 6).bias(BiasMode::M).bias_len(), 4);
    /// ```
    pub fn bias_len(&self) -> usize {
        match self.bias {
            BiasMode::None => 0,
            BiasMode::M => self.m,
            BiasMode::N => self.n,
        }
    }
    /// Sets both transposes and makes `lda`, `ldb` tight for them (set other leading
    /// dimensions after this).
    ///
    /// ```
    /// let g = host::GemmConfig::new(4, 5, 6).trans(host::Trans::N, host::Trans::T);
    /// assert_eq!(g.ldb, 5); // B stored N×K
    /// ```
    pub fn trans(mut self, transa: Trans, transb: Trans) -> GemmConfig {
        self.transa = transa;
        self.transb = transb;
        self.lda = self.a_dims().0.max(1);
        self.ldb = self.b_dims().0.max(1);
        self
    }
    /// Sets `alpha`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(1, 1, 1).alpha(2.5).alpha, 2.5);
    /// ```
    pub fn alpha(mut self, alpha: f32) -> GemmConfig {
        self.alpha = alpha;
        self
    }
    /// Sets `beta`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(1, 1, 1).beta(-1.0).beta, -1.0);
    /// ```
    pub fn beta(mut self, beta: f32) -> GemmConfig {
        self.beta = beta;
        self
    }
    /// Sets `lda`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(4, 4, 4).lda(8).lda, 8);
    /// ```
    pub fn lda(mut self, lda: usize) -> GemmConfig {
        self.lda = lda;
        self
    }
    /// Sets `ldb`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(4, 4, 4).ldb(8).ldb, 8);
    /// ```
    pub fn ldb(mut self, ldb: usize) -> GemmConfig {
        self.ldb = ldb;
        self
    }
    /// Sets `ldc`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(4, 4, 4).ldc(8).ldc, 8);
    /// ```
    pub fn ldc(mut self, ldc: usize) -> GemmConfig {
        self.ldc = ldc;
        self
    }
    /// Sets the bf16/fp16 kernel.
    ///
    /// ```
    /// use host::{GemmConfig, GemmKernel};
    /// assert_eq!(GemmConfig::new(4, 4, 4).kernel(GemmKernel::Sm80).kernel, GemmKernel::Sm80);
    /// ```
    pub fn kernel(mut self, kernel: GemmKernel) -> GemmConfig {
        self.kernel = kernel;
        self
    }

    /// (rows, cols) of A as stored.
    fn a_dims(&self) -> (usize, usize) {
        match self.transa {
            Trans::N => (self.m, self.k),
            Trans::T => (self.k, self.m),
        }
    }
    /// (rows, cols) of B as stored.
    fn b_dims(&self) -> (usize, usize) {
        match self.transb {
            Trans::N => (self.k, self.n),
            Trans::T => (self.n, self.k),
        }
    }
    fn need(rows: usize, cols: usize, ld: usize) -> usize {
        if rows == 0 || cols == 0 {
            0
        } else {
            (cols - 1).saturating_mul(ld).saturating_add(rows)
        }
    }

    /// Elements A, B and C must hold: `(cols − 1)·ld + rows` of each stored matrix.
    ///
    /// ```
    /// let g = host::GemmConfig::new(3, 2, 4).ldc(5);
    /// assert_eq!(g.lens(), (12, 8, 8)); // C: (2-1)*5 + 3
    /// ```
    pub fn lens(&self) -> (usize, usize, usize) {
        let (ar, ac) = self.a_dims();
        let (br, bc) = self.b_dims();
        (
            Self::need(ar, ac, self.lda),
            Self::need(br, bc, self.ldb),
            Self::need(self.m, self.n, self.ldc),
        )
    }

    /// `Ok` when alpha and beta are finite: the command line refuses other values before any
    /// launch, as a usage error (the library computes with them — an infinite or NaN scale
    /// gives infinities or NaNs wherever the product is nonzero, and the NaN-alpha check of
    /// `host run` relies on that).
    ///
    /// ```
    /// let g = host::GemmConfig::new(8, 9, 8);
    /// assert!(g.check_finite().is_ok());
    /// let e = g.alpha(f32::INFINITY).check_finite().unwrap_err();
    /// assert_eq!(e.to_string(), "alpha=inf must be finite");
    /// assert!(matches!(g.beta(f32::NAN).check_finite(), Err(host::Error::NonFinite { name: "beta", .. })));
    /// ```
    pub fn check_finite(&self) -> Result<()> {
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !value.is_finite() {
                return Err(Error::NonFinite { name, value });
            }
        }
        Ok(())
    }

    /// BLAS's argument rules, the kernels' 32-bit index range and the buffers' lengths
    /// (elements); what [`Context::sgemm`] checks before launching.
    ///
    /// ```
    /// let g = host::GemmConfig::new(8, 9, 8);
    /// assert!(g.validate(64, 72, 72).is_ok());
    /// assert!(matches!(g.validate(64, 72, 64), Err(host::Error::BufferTooSmall { name: "C", .. })));
    /// ```
    pub fn validate(&self, a_len: usize, b_len: usize, c_len: usize) -> Result<()> {
        let lim = i32::MAX as usize;
        for (name, value) in [("m", self.m), ("n", self.n), ("k", self.k)] {
            if value > lim {
                return Err(Error::SizeTooLarge { name, value });
            }
        }
        for (name, ld, rows) in [
            ("lda", self.lda, self.a_dims().0),
            ("ldb", self.ldb, self.b_dims().0),
            ("ldc", self.ldc, self.m),
        ] {
            if ld < rows.max(1) || ld > lim {
                return Err(Error::LeadingDimension {
                    name,
                    ld,
                    min: rows.max(1),
                });
            }
        }
        let (na, nb, nc) = self.lens();
        for (name, len, needed) in [("A", a_len, na), ("B", b_len, nb), ("C", c_len, nc)] {
            if len < needed {
                return Err(Error::BufferTooSmall { name, len, needed });
            }
        }
        Ok(())
    }

    /// `2·M·N·K`.
    ///
    /// ```
    /// assert_eq!(host::GemmConfig::new(2, 3, 4).flops(), 48.0);
    /// ```
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
}

impl fmt::Display for GemmConfig {
    /// `MxNxK TT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{}x{} {}{}",
            self.m, self.n, self.k, self.transa, self.transb
        )?;
        if self.is_fused() {
            write!(f, " {}", self.epilogue())?;
        }
        Ok(())
    }
}

/// A CTA tile: one instantiation of `kernels/src/gemm`.
///
/// ```
/// assert_eq!(host::Tile::M128N128K8.name(), "sgemm_128x128x8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// 128×128×8, 256 threads, 8×8 accumulators per thread.
    M128N128K8,
    /// 64×64×8, 64 threads, for problems too small to fill the GPU otherwise.
    M64N64K8,
}

impl Tile {
    /// Every tile, largest first.
    pub const ALL: [Tile; 2] = [Tile::M128N128K8, Tile::M64N64K8];

    /// (BM, BN, BK).
    ///
    /// ```
    /// assert_eq!(host::Tile::M64N64K8.shape(), (64, 64, 8));
    /// ```
    pub fn shape(self) -> (u32, u32, u32) {
        match self {
            Tile::M128N128K8 => (128, 128, 8),
            Tile::M64N64K8 => (64, 64, 8),
        }
    }
    /// Threads per CTA.
    ///
    /// ```
    /// assert_eq!(host::Tile::M128N128K8.threads(), 256);
    /// ```
    pub fn threads(self) -> u32 {
        match self {
            Tile::M128N128K8 => 256,
            Tile::M64N64K8 => 64,
        }
    }
    /// Dynamic shared memory: two stages of k-major `(BX,BK):(_1,BX+4)` tiles for A and B
    /// (the kernel's `Cfg::SMEM_BYTES`).
    ///
    /// ```
    /// assert_eq!(host::Tile::M128N128K8.smem_bytes(), 2 * 2 * (127 + 7 * 132 + 1) * 4);
    /// ```
    pub fn smem_bytes(self) -> u32 {
        let (bm, bn, bk) = self.shape();
        let cos = |bx: u32| (bx - 1) + (bk - 1) * (bx + 4) + 1;
        2 * (cos(bm) + cos(bn)) * 4
    }
    /// The kernels' name prefix, `sgemm_128x128x8`.
    ///
    /// ```
    /// assert_eq!(host::Tile::M64N64K8.name(), "sgemm_64x64x8");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Tile::M128N128K8 => "sgemm_128x128x8",
            Tile::M64N64K8 => "sgemm_64x64x8",
        }
    }
    /// The PTX entry for the transposes, `sgemm_128x128x8_nt`.
    fn entry(self, ta: Trans, tb: Trans) -> String {
        format!("{}_{}{}", self.name(), ta.ch(), tb.ch())
    }
}

/// How one problem is launched: the tile, the split-K depth (`gridDim.z`), the rasterization
/// and the launch-bounds choice. [`Context::gemm_plan`] picks one by size.
///
/// ```
/// let p = host::Plan { split: 4, ..host::Plan::new(host::Tile::M128N128K8) };
/// assert_eq!(p.to_string(), "sgemm_128x128x8 splitk4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// The CTA tile.
    pub tile: Tile,
    /// k-slices (0 and 1: none); `> 1`: `C = beta·C` first, then the slices add into C with
    /// atomics (results then vary in the last bits from run to run).
    pub split: u32,
    /// Rasterization: `false`: blockIdx.x walks M tiles (launch order M-fastest); `true`: N.
    pub rast_n: bool,
    /// Use the entry without launch bounds (more registers, one CTA per SM) even where a
    /// bounded one exists. [`Context::gemm_plan`] never does: on the H100 the bounded twin is
    /// faster at every large benchmark shape (`host gemm --sweep`, 2026-11-23: 4096³ NN 0.98
    /// of cuBLAS bounded vs 0.92 unbounded, TT 1.01 vs 0.79) and within a few percent either
    /// way at the split-K shapes; forced plans and the sweep use it.
    pub one_cta: bool,
}

impl Plan {
    /// `tile`, no split, M-fastest, launch bounds where they exist.
    ///
    /// ```
    /// assert_eq!(host::Plan::new(host::Tile::M64N64K8).split, 1);
    /// ```
    pub fn new(tile: Tile) -> Plan {
        Plan {
            tile,
            split: 1,
            rast_n: false,
            one_cta: false,
        }
    }
    /// k-elements per slice: `ceil(K/split)` rounded up to a multiple of `BK`.
    fn kc(&self, k: usize) -> usize {
        let bk = self.tile.shape().2 as usize;
        k.div_ceil(self.split.max(1) as usize).div_ceil(bk).max(1) * bk
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tile.name())?;
        if self.split > 1 {
            write!(f, " splitk{}", self.split)?;
        }
        if self.rast_n {
            f.write_str(" rastN")?;
        }
        if self.one_cta {
            f.write_str(" 1cta")?;
        }
        Ok(())
    }
}

impl Context {
    /// Resolves every GEMM entry now, so that the first timed launch measures the kernel, not
    /// the driver's module load.
    ///
    /// ```no_run
    /// host::Context::new(0)?.load_gemm()?;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn load_gemm(&self) -> Result<()> {
        for tile in Tile::ALL {
            for ta in [Trans::N, Trans::T] {
                for tb in [Trans::N, Trans::T] {
                    let entry = tile.entry(ta, tb);
                    self.function(&entry)?;
                    if let Some(twin) = ptx::bounded_twin(&entry).filter(|t| self.has_kernel(t)) {
                        self.function(&twin)?;
                    }
                }
            }
        }
        self.function("sgemm_scale_c")?;
        Ok(())
    }

    /// The launch plan for a problem on this device: 128×128×8 tiles (the launch-bounded twin
    /// where there is one); when there are no more tiles than SMs, K split into the most slices
    /// that still fit in one wave of one CTA per SM (each slice ≥ 128 of K); 64×64 tiles when
    /// that fills less than half the SMs. Every slice adds a pass of atomics over C and a
    /// shorter k-loop, so one CTA per SM with fewer slices usually beats two per SM with twice
    /// as many (H100, `host gemm --sweep`, 2026-11-23, bounded entries: 1024³ NN split-K 2 1.01
    /// of cuBLAS vs split-K 4 0.96; 4096×128×4096 split-K 4 0.91 vs 8 0.89; 128×4096×4096
    /// 0.95 vs 0.94), though not always (256×8192×8192: no split 0.97, split-K 2 1.00).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let plan = ctx.gemm_plan(&host::GemmConfig::new(4096, 128, 4096));
    /// println!("{plan}"); // sgemm_128x128x8 splitk4 on an H100
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn gemm_plan(&self, g: &GemmConfig) -> Plan {
        let sms = self.device().sms as usize;
        for tile in Tile::ALL {
            let (bm, bn, _) = tile.shape();
            let tiles = g.m.div_ceil(bm as usize) * g.n.div_ceil(bn as usize);
            if tiles > sms {
                return Plan::new(tile);
            }
            let mut split = 1;
            while split < 16 && tiles * (split + 1) <= sms && g.k / (split + 1) >= 128 {
                split += 1;
            }
            if 2 * tiles * split > sms || tile == Tile::M64N64K8 {
                return Plan {
                    split: split as u32,
                    ..Plan::new(tile)
                };
            }
        }
        Plan::new(Tile::M64N64K8)
    }

    /// `C = alpha·op(A)·op(B) + beta·C` in fp32 (FFMA, no TF32), queued on `stream`, with the
    /// plan [`Context::gemm_plan`] picks for the size. `a`, `b`, `c` are cudarc buffers or
    /// views of this context ([`CudaSlice`](cudarc::driver::CudaSlice),
    /// [`CudaView`](cudarc::driver::CudaView), `CudaViewMut`), column-major.
    ///
    /// Every argument is checked first ([`GemmConfig::validate`], the stream's and buffers'
    /// context, grid limits): an error means nothing was queued.
    ///
    /// ```no_run
    /// use host::{Context, GemmConfig};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let (m, n, k) = (256, 128, 64);
    /// let a = stream.clone_htod(&vec![1.0f32; m * k])?;
    /// let b = stream.clone_htod(&vec![2.0f32; k * n])?;
    /// let mut c = stream.alloc_zeros::<f32>(m * n)?;
    /// ctx.sgemm(&stream, &GemmConfig::new(m, n, k), &a, &b, &mut c)?;
    /// assert!(stream.clone_dtoh(&c)?.iter().all(|&x| x == 128.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sgemm<A, B, C>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        a: &A,
        b: &B,
        c: &mut C,
    ) -> Result<()>
    where
        A: DevicePtr<f32>,
        B: DevicePtr<f32>,
        C: DevicePtrMut<f32>,
    {
        let plan = self.gemm_plan(g);
        self.sgemm_with_plan(stream, plan, g, a, b, c)
    }

    /// [`Context::sgemm`] with a plan of your choice (tuning, benchmarks).
    ///
    /// ```no_run
    /// use host::{Context, GemmConfig, Plan, Tile};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let g = GemmConfig::new(1000, 130, 4000);
    /// let (na, nb, nc) = g.lens();
    /// let a = stream.alloc_zeros::<f32>(na)?;
    /// let b = stream.alloc_zeros::<f32>(nb)?;
    /// let mut c = stream.alloc_zeros::<f32>(nc)?;
    /// let plan = Plan { split: 8, ..Plan::new(Tile::M128N128K8) };
    /// ctx.sgemm_with_plan(&stream, plan, &g, &a, &b, &mut c)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sgemm_with_plan<A, B, C>(
        &self,
        stream: &CudaStream,
        plan: Plan,
        g: &GemmConfig,
        a: &A,
        b: &B,
        c: &mut C,
    ) -> Result<()>
    where
        A: DevicePtr<f32>,
        B: DevicePtr<f32>,
        C: DevicePtrMut<f32>,
    {
        g.validate(a.len(), b.len(), c.len())?;
        if g.is_fused() {
            return Err(Error::Unsupported(
                "a bias or an activation: only the bf16/fp16 GEMM fuses them".into(),
            ));
        }
        self.check_stream(stream)?;
        self.check_buffer("buffer A", a)?;
        self.check_buffer("buffer B", b)?;
        self.check_buffer("buffer C", c)?;
        if g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let tile = plan.tile;
        let (bm, bn, _) = tile.shape();
        let kc = plan.kc(g.k);
        let split = if plan.split > 1 {
            g.k.div_ceil(kc).max(1)
        } else {
            1
        };
        let (gm, gn) = (g.m.div_ceil(bm as usize), g.n.div_ceil(bn as usize));
        let (gx, gy) = if plan.rast_n { (gn, gm) } else { (gm, gn) };
        let kernel = tile.name();
        if gx > i32::MAX as usize || gy > 65535 || split > 65535 {
            return Err(Error::GridTooLarge {
                kernel,
                x: gx,
                y: gy,
                z: split,
            });
        }
        let entry = tile.entry(g.transa, g.transb);
        // (the sm_80 build has no bounded NN/TT twins: they spill in 128 registers there)
        let twin = ptx::bounded_twin(&entry)
            .filter(|t| self.launch_bounds() && !plan.one_cta && self.has_kernel(t));
        let f = self.function(twin.as_deref().unwrap_or(&entry))?;
        let scale_c = if split > 1 {
            Some(self.function("sgemm_scale_c")?)
        } else {
            None
        };
        let cfg = LaunchConfig {
            grid_dim: (gx as u32, gy as u32, split as u32),
            block_dim: (tile.threads(), 1, 1),
            shared_mem_bytes: tile.smem_bytes(),
        };
        // All sizes fit in i32: checked by `validate`.
        let (m, n, k, kc) = (g.m as i32, g.n as i32, g.k as i32, kc as i32);
        let rast = i32::from(plan.rast_n);
        let (lda, ldb, ldc) = (g.lda as i32, g.ldb as i32, g.ldc as i32);
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        let (pc, _rc) = c.device_ptr_mut(stream);
        if let Some(scale_c) = &scale_c {
            // C = beta·C, then the k-slices add alpha·A·B into it.
            let mut l = stream.launch_builder(scale_c);
            l.arg(&m).arg(&n).arg(&g.beta).arg(&pc).arg(&ldc);
            let sc = LaunchConfig {
                grid_dim: (g.m.div_ceil(256) as u32, g.n.min(65535) as u32, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: `sgemm_scale_c(m, n, beta, c, ldc)`; c holds (M,N) with leading
            // dimension ldc (validated).
            unsafe { l.launch(sc) }?;
        }
        let mut l = stream.launch_builder(&f);
        l.arg(&m)
            .arg(&n)
            .arg(&k)
            .arg(&kc)
            .arg(&rast)
            .arg(&g.alpha)
            .arg(&pa)
            .arg(&lda)
            .arg(&pb)
            .arg(&ldb)
            .arg(&g.beta)
            .arg(&pc)
            .arg(&ldc);
        // SAFETY: the argument list is the kernels' `(m, n, k, kc, rast, alpha, a, lda, b, ldb,
        // beta, c, ldc)`; the buffers hold the matrices their leading dimensions describe
        // (validated), the grid matches the plan, the smem size the tile.
        unsafe { l.launch(cfg) }?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_rejects_before_launch() {
        let g = GemmConfig::new(8, 8, 8);
        assert!(g.validate(64, 64, 64).is_ok());
        assert!(matches!(
            g.lda(3).validate(64, 64, 64),
            Err(Error::LeadingDimension { name: "lda", .. })
        ));
        assert!(matches!(
            GemmConfig::new(8, 8, 8)
                .trans(Trans::T, Trans::N)
                .lda(7)
                .validate(64, 64, 64),
            Err(Error::LeadingDimension { min: 8, .. })
        ));
        assert!(matches!(
            GemmConfig::new(1 << 31, 1, 1).validate(0, 0, 0),
            Err(Error::SizeTooLarge { name: "m", .. })
        ));
        // lengths saturate instead of overflowing
        let huge = GemmConfig::new(1, usize::MAX / 2, 1).ldc(usize::MAX / 2);
        assert!(huge.validate(usize::MAX, usize::MAX, usize::MAX).is_err());
        // empty problems need no memory
        assert!(GemmConfig::new(0, 5, 3).validate(0, 15, 0).is_ok());
    }

    #[test]
    fn plan_labels_and_slices() {
        let p = Plan {
            split: 3,
            rast_n: true,
            ..Plan::new(Tile::M64N64K8)
        };
        assert_eq!(p.to_string(), "sgemm_64x64x8 splitk3 rastN");
        assert_eq!(p.kc(100), 40);
        assert_eq!(Plan::new(Tile::M128N128K8).kc(0), 8);
        assert_eq!(
            Tile::M128N128K8.entry(Trans::T, Trans::N),
            "sgemm_128x128x8_tn"
        );
        assert_eq!(
            GemmConfig::new(1, 2, 3)
                .trans(Trans::T, Trans::T)
                .to_string(),
            "1x2x3 TT"
        );
    }
}
