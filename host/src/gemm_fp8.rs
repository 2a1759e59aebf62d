//! The FP8 GEMM on Hopper (issue #37): `D = scale_a·scale_b·A·Bᵀ` with A (M×K) and B (N×K) in
//! e4m3 or e5m2, both K-major (the rows of A and of B hold K contiguous bytes: torch's
//! `_scaled_mm(a, b.t())` layout, cuBLASLt's "TN"), per-tensor scales, D (M×N, column-major)
//! stored as f32, bf16 or f16. Two accumulation modes:
//!
//! - **promotion** (the default, e4m3): entry `gemm_fp8_e4m3_tn_promoted` on 128×128 tiles, each
//!   k-tile's four `wgmma.m64n128k32` (K = 128) into a temporary accumulator added into fp32
//!   registers (CUTLASS's `GmmaFP8Accumulation`, DeepGEMM), optionally scaled per k-block by
//!   **block scales** ([`Fp8Scales::Block`]: 1×128 along K for A's rows, 128×128 for B); the
//!   consumers' schedule is paired temporaries per warpgroup, k-tiles in pairs, the first
//!   promoted while the second's `wgmma`s run (doc/fp8-gemm.md); per-tensor scales run
//!   [`PROMOTED_PER_TENSOR_ENTRY`], the same kernel without the block scales' code
//!   ([`Overrides::fp8_promoted_block`](crate::Overrides::fp8_promoted_block) runs them on the
//!   block-scale entry, for measuring);
//! - **fast accumulation** ([`GemmFp8Config::fast_accum`], e4m3 or e5m2): entries
//!   `gemm_fp8_{e4m3,e5m2}_tn` on `wgmma.m64n256k32`, 128×256 tiles, accumulating over all of K
//!   in the tensor core; per-tensor scales only.
//!
//! Error bound (fast accumulation, checked by `host run`'s FP8 sweep): the FP8 tensor core adds
//! exact products into an accumulator that keeps about 14 significant bits (DeepSeek-V3's
//! measurement on H800). Modelled as a relative error of at most `2^-13` of the partial sums'
//! magnitude `S = Σ|a_k·b_k|` per addition, with at most `K/4` additions (groups of 4 products),
//! plus the fp32 epilogue and D's rounding: `|D − ref| ≤ sa·sb·S·(K/4·2^-13 + 2^-22) + u_D·|ref|`,
//! `ref` the f64 product of the dequantized inputs. [`fp8_error_bound`]. With promotion the
//! tensor core's sums span one k-block (at most 32 additions), the fp32 promotions add at most
//! `⌈K/128⌉ + 1` roundings of `2^-24`: [`fp8_error_bound_promoted`], where `S` carries the block
//! scales (`Σ|sa·sb·a_k·b_k|`).

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublaslt::{result as lt, sys as ltsys};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use half::bf16;
use layout_types::cute::mma::{float_e4m3_t, float_e5m2_t};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::gemm::{GemmConfig, Trans};
use crate::hgemm::{GemmOut, HgemmVariant};
use crate::quiet::catch_quiet;

/// The promoted entry for per-tensor scales: `gemm_fp8_e4m3_tn_promoted` without the block
/// scales' loads in its k-tile loop.
pub const PROMOTED_PER_TENSOR_ENTRY: &str = "gemm_fp8_e4m3_tn_promoted_pt";

/// An 8-bit float type of A and B.
///
/// ```
/// use host::gemm_fp8::Fp8;
/// assert_eq!(Fp8::E4M3.encode(0.3), 0x2a); // 0.3125
/// assert_eq!(Fp8::E5M2.decode(Fp8::E5M2.encode(-1.5)), -1.5);
/// assert_eq!(Fp8::E4M3.entry(), "gemm_fp8_e4m3_tn");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8 {
    /// 4 exponent bits, 3 mantissa bits, largest ±448 (CuTe's `float_e4m3_t`).
    E4M3,
    /// 5 exponent bits, 2 mantissa bits, largest ±57344 (`float_e5m2_t`).
    E5M2,
}

impl Fp8 {
    /// `e4m3` or `e5m2`.
    pub fn name(self) -> &'static str {
        match self {
            Fp8::E4M3 => "e4m3",
            Fp8::E5M2 => "e5m2",
        }
    }
    /// `x` rounded to nearest even, saturated to the largest finite value (`cvt.rn.satfinite`).
    pub fn encode(self, x: f32) -> u8 {
        match self {
            Fp8::E4M3 => float_e4m3_t::from_f32(x).0,
            Fp8::E5M2 => float_e5m2_t::from_f32(x).0,
        }
    }
    /// The value of the bits `b` (exact).
    pub fn decode(self, b: u8) -> f32 {
        match self {
            Fp8::E4M3 => float_e4m3_t(b).to_f32(),
            Fp8::E5M2 => float_e5m2_t(b).to_f32(),
        }
    }
    /// The kernel entry for this input type with fast accumulation.
    pub fn entry(self) -> &'static str {
        match self {
            Fp8::E4M3 => "gemm_fp8_e4m3_tn",
            Fp8::E5M2 => "gemm_fp8_e5m2_tn",
        }
    }
    /// cuBLASLt's data type.
    fn lt_type(self) -> ltsys::cudaDataType {
        match self {
            Fp8::E4M3 => ltsys::cudaDataType::CUDA_R_8F_E4M3,
            Fp8::E5M2 => ltsys::cudaDataType::CUDA_R_8F_E5M2,
        }
    }
}

/// The scales of an FP8 GEMM besides [`GemmFp8Config`]'s per-tensor `scale_a`, `scale_b`
/// (which apply in both cases).
///
/// ```
/// use host::gemm_fp8::{Fp8, Fp8Scales, GemmFp8Config};
/// let g = GemmFp8Config::new(300, 200, 256, Fp8::E4M3);
/// assert_eq!(g.block_scale_lens(), (300 * 2, 2 * 2)); // A: M × ⌈K/128⌉, B: ⌈N/128⌉ × ⌈K/128⌉
/// assert!(matches!(Fp8Scales::PerTensor, Fp8Scales::PerTensor));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Fp8Scales<'a> {
    /// The per-tensor scales alone.
    PerTensor,
    /// DeepGEMM's block scales, applied at each promotion (`f32`): `a` of A's rows per k-block
    /// of 128, column-major `(M, ⌈K/128⌉)` (`a[i + M·kb]`), `b` of B's 128×128 blocks,
    /// row-major `(⌈N/128⌉, ⌈K/128⌉)` (`b[nb·⌈K/128⌉ + kb]`). Needs promotion (e4m3).
    Block {
        /// A's scales.
        a: &'a CudaSlice<f32>,
        /// B's scales.
        b: &'a CudaSlice<f32>,
    },
}

/// One FP8 GEMM: `D(M×N) = scale_a·scale_b·A(M×K)·B(N×K)ᵀ`, A and B K-major and tight
/// (`lda = ldb = K`), D column-major with `ldd = M`.
///
/// ```
/// use host::gemm_fp8::{Fp8, GemmFp8Config};
/// let g = GemmFp8Config::new(256, 128, 100, Fp8::E4M3).fast_accum(true);
/// let e = g.check(256 * 100, 128 * 100, 256 * 128).unwrap_err();
/// assert!(e.to_string().contains("K = 100 must be a multiple of 16"), "{e}");
/// let e = GemmFp8Config::new(64, 64, 64, Fp8::E5M2).check(64 * 64, 64 * 64, 64 * 64).unwrap_err();
/// assert!(e.to_string().contains("fast accumulation"), "{e}");
/// assert!(GemmFp8Config::new(64, 64, 64, Fp8::E4M3).check(64 * 64, 64 * 64, 64 * 64).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmFp8Config {
    /// Rows of A and D.
    pub m: usize,
    /// Rows of B, columns of D.
    pub n: usize,
    /// The reduction depth (a multiple of 16).
    pub k: usize,
    /// The element of A and B.
    pub dtype: Fp8,
    /// A's per-tensor scale (A's values are `scale_a·a`).
    pub scale_a: f32,
    /// B's per-tensor scale.
    pub scale_b: f32,
    /// Accumulate over all of K in the tensor core (CUTLASS's "fast accumulation"); `false`
    /// (the default): the promotion into fp32 every 4 `wgmma`s (e4m3 only).
    pub fast_accum: bool,
}

impl GemmFp8Config {
    /// Scales 1, promotion.
    pub fn new(m: usize, n: usize, k: usize, dtype: Fp8) -> GemmFp8Config {
        GemmFp8Config {
            m,
            n,
            k,
            dtype,
            scale_a: 1.0,
            scale_b: 1.0,
            fast_accum: false,
        }
    }
    /// The per-tensor scales.
    pub fn scales(mut self, scale_a: f32, scale_b: f32) -> GemmFp8Config {
        (self.scale_a, self.scale_b) = (scale_a, scale_b);
        self
    }
    /// Fast accumulation (no promotion).
    pub fn fast_accum(mut self, fast: bool) -> GemmFp8Config {
        self.fast_accum = fast;
        self
    }
    /// `2·M·N·K`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    /// The kernel entry: the promoted one (e4m3; with per-tensor scales the launch takes
    /// [`PROMOTED_PER_TENSOR_ENTRY`], the same kernel without the block scales' code) or the
    /// fast-accumulation one.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// assert_eq!(GemmFp8Config::new(8, 8, 16, Fp8::E4M3).entry(), "gemm_fp8_e4m3_tn_promoted");
    /// assert_eq!(GemmFp8Config::new(8, 8, 16, Fp8::E5M2).fast_accum(true).entry(), "gemm_fp8_e5m2_tn");
    /// ```
    pub fn entry(&self) -> &'static str {
        if self.fast_accum {
            self.dtype.entry()
        } else {
            "gemm_fp8_e4m3_tn_promoted"
        }
    }
    /// Elements of the block scales ([`Fp8Scales::Block`]): A's `M·⌈K/128⌉`, B's
    /// `⌈N/128⌉·⌈K/128⌉`.
    pub fn block_scale_lens(&self) -> (usize, usize) {
        let kb = self.k.div_ceil(128);
        (self.m * kb, self.n.div_ceil(128) * kb)
    }
    /// The rules, checked before any launch: promotion for e4m3 only (e5m2 has fast
    /// accumulation only), K a multiple of 16 (A's and B's rows are TMA strides of K bytes,
    /// which must be multiples of 16), finite scales, sizes below 2^31, and the buffers'
    /// lengths (elements of A, B, D).
    pub fn check(&self, a_len: usize, b_len: usize, d_len: usize) -> Result<()> {
        if !self.fast_accum && self.dtype != Fp8::E4M3 {
            return Err(Error::Unsupported(format!(
                "{self}: e5m2 runs with fast accumulation only (the promoted kernel is built for e4m3, to keep the kernels' compile time): set fast_accum (`--fast-accum`)"
            )));
        }
        if !self.k.is_multiple_of(16) {
            return Err(Error::Unsupported(format!(
                "{self}: K = {} must be a multiple of 16: A and B are K-major, loaded by TMA, whose row strides (K bytes) must be multiples of 16",
                self.k
            )));
        }
        if !(self.scale_a.is_finite() && self.scale_b.is_finite()) {
            return Err(Error::Unsupported(format!(
                "{self}: the scales must be finite"
            )));
        }
        for (name, v) in [("M", self.m), ("N", self.n), ("K", self.k)] {
            if v > i32::MAX as usize {
                return Err(Error::Unsupported(format!(
                    "{self}: {name} = {v} is above 2^31 - 1"
                )));
            }
        }
        for (name, len, needed) in [
            ("A", a_len, self.m * self.k),
            ("B", b_len, self.n * self.k),
            ("D", d_len, self.m * self.n),
        ] {
            if len < needed {
                return Err(Error::BufferTooSmall { name, len, needed });
            }
        }
        Ok(())
    }
    /// The 16-bit GEMM the kernel runs: K in pairs of 8-bit elements, A "T" and B "N" (both
    /// K-major), `alpha = scale_a·scale_b`, beta 0.
    fn as_pairs(&self) -> GemmConfig {
        let k2 = self.k / 2;
        GemmConfig::new(self.m, self.n, k2)
            .trans(Trans::T, Trans::N)
            .lda(k2)
            .ldb(k2)
            .alpha(self.scale_a * self.scale_b)
    }
}

impl std::fmt::Display for GemmFp8Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{}x{} {} TN sa={} sb={}{}",
            self.m,
            self.n,
            self.k,
            self.dtype.name(),
            self.scale_a,
            self.scale_b,
            if self.fast_accum {
                " fast-accum"
            } else {
                " promoted"
            }
        )
    }
}

/// The bound of the module docs for one element of D: `S = Σ|a_k·b_k|` of the dequantized
/// inputs (without the scales), `reference` the exact result, `u_d` D's unit roundoff.
///
/// ```
/// let b = host::gemm_fp8::fp8_error_bound(4096, 1.0, 10.0, 2f64.powi(-8), 100.0);
/// assert!((b - (1.0 * (1024.0 * 2f64.powi(-13) + 2f64.powi(-22)) * 10.0 + 100.0 / 256.0)).abs() < 1e-12);
/// ```
pub fn fp8_error_bound(k: usize, scales: f64, sum_abs: f64, u_d: f64, reference: f64) -> f64 {
    let adds = (k as f64 / 4.0).max(1.0);
    scales.abs() * sum_abs * (adds * 2f64.powi(-13) + 2f64.powi(-22)) + u_d * reference.abs()
}

/// [`fp8_error_bound`] with promotion every k-block of 128: `S·(min(K,128)/4·2^-13 +
/// (⌈K/128⌉ + 1)·2^-24 + 2^-22) + u_D·|ref|`, `S = Σ|s·a_k·b_k|` with every scale in `s`
/// (per-tensor and block).
///
/// ```
/// let b = host::gemm_fp8::fp8_error_bound_promoted(4096, 10.0, 2f64.powi(-8), 100.0);
/// let want = 10.0 * (32.0 * 2f64.powi(-13) + 33.0 * 2f64.powi(-24) + 2f64.powi(-22)) + 100.0 / 256.0;
/// assert!((b - want).abs() < 1e-12);
/// ```
pub fn fp8_error_bound_promoted(k: usize, scaled_sum_abs: f64, u_d: f64, reference: f64) -> f64 {
    let adds = (k.min(128) as f64 / 4.0).max(1.0);
    let promotions = k.div_ceil(128) as f64 + 1.0;
    scaled_sum_abs * (adds * 2f64.powi(-13) + promotions * 2f64.powi(-24) + 2f64.powi(-22))
        + u_d * reference.abs()
}

impl Context {
    /// `D = scale_a·scale_b·A·Bᵀ` (see [`GemmFp8Config`]): A (M×K) and B (N×K) as 8-bit bits
    /// (K contiguous), D (M×N, column-major) stored as `O` (f32, bf16 or f16), queued on
    /// `stream`. Checked before anything is queued ([`GemmFp8Config::check`], 16-byte aligned
    /// buffers of this context); needs the Hopper kernels (sm_90a).
    ///
    /// ```no_run
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let (m, n, k) = (256, 256, 128);
    /// let one = Fp8::E4M3.encode(1.0);
    /// let a = s.clone_htod(&vec![one; m * k])?;
    /// let b = s.clone_htod(&vec![one; n * k])?;
    /// let mut d = s.alloc_zeros::<f32>(m * n)?;
    /// let g = GemmFp8Config::new(m, n, k, Fp8::E4M3).scales(0.5, 2.0).fast_accum(true);
    /// ctx.gemm_fp8(&s, &g, &a, &b, &mut d)?;
    /// assert!(s.clone_dtoh(&d)?.iter().all(|&x| x == 128.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gemm_fp8<O, D>(
        &self,
        stream: &CudaStream,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        d: &mut D,
    ) -> Result<()>
    where
        O: GemmOut,
        D: DevicePtrMut<O>,
    {
        self.gemm_fp8_scaled(stream, g, a, b, Fp8Scales::PerTensor, d)
    }

    /// [`Self::gemm_fp8`] with `scales`: [`Fp8Scales::Block`] multiplies each k-block's partial
    /// sums by A's row scale and B's block scale at its promotion (`D = sa·sb·Σ_kb
    /// a_s[i,kb]·b_s[j/128,kb]·A[i,kb]·B[j,kb]ᵀ`). Typed errors before any launch: block scales
    /// with fast accumulation, scale buffers shorter than [`GemmFp8Config::block_scale_lens`]
    /// or of another context, and [`Self::gemm_fp8`]'s.
    ///
    /// ```no_run
    /// use host::gemm_fp8::{Fp8, Fp8Scales, GemmFp8Config};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let (m, n, k) = (256, 256, 256);
    /// let one = Fp8::E4M3.encode(1.0);
    /// let a = s.clone_htod(&vec![one; m * k])?;
    /// let b = s.clone_htod(&vec![one; n * k])?;
    /// let g = GemmFp8Config::new(m, n, k, Fp8::E4M3);
    /// let (la, lb) = g.block_scale_lens();
    /// let sa = s.clone_htod(&vec![0.5f32; la])?;
    /// let sb = s.clone_htod(&vec![2.0f32; lb])?;
    /// let mut d = s.alloc_zeros::<f32>(m * n)?;
    /// ctx.gemm_fp8_scaled(&s, &g, &a, &b, Fp8Scales::Block { a: &sa, b: &sb }, &mut d)?;
    /// assert!(s.clone_dtoh(&d)?.iter().all(|&x| x == 256.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gemm_fp8_scaled<O, D>(
        &self,
        stream: &CudaStream,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        scales: Fp8Scales<'_>,
        d: &mut D,
    ) -> Result<()>
    where
        O: GemmOut,
        D: DevicePtrMut<O>,
    {
        g.check(a.len(), b.len(), d.len())?;
        if let Fp8Scales::Block { a: sa, b: sb } = scales {
            if g.fast_accum {
                return Err(Error::Unsupported(format!(
                    "{g}: block scales are applied at the promotions; fast accumulation has none (unset fast_accum / `--fast-accum`)"
                )));
            }
            let (la, lb) = g.block_scale_lens();
            for (name, len, needed) in [
                ("A's block scales", sa.len(), la),
                ("B's block scales", sb.len(), lb),
            ] {
                if len < needed {
                    return Err(Error::BufferTooSmall { name, len, needed });
                }
            }
            self.check_buffer("A's block scales", sa)?;
            self.check_buffer("B's block scales", sb)?;
        }
        self.check_stream(stream)?;
        self.check_buffer("buffer A", a)?;
        self.check_buffer("buffer B", b)?;
        self.check_buffer("buffer D", d)?;
        self.require_kernel(g.entry())?;
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        for (name, addr) in [("A", pa), ("B", pb)] {
            if addr % 16 != 0 {
                return Err(Error::Unsupported(format!(
                    "buffer {name}: base address {addr:#x} is not 16-byte aligned (TMA needs it)"
                )));
            }
        }
        if g.fast_accum {
            // measuring: `Overrides::fp8_fast_tile128` runs fast accumulation on the promoted
            // entry's 128×128 tiles (e4m3; built with `CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants`)
            if g.dtype == Fp8::E4M3 && self.overrides().fp8_fast_tile128 {
                let v = HgemmVariant::fp8_promoted((0, 0));
                let entry = "gemm_fp8_e4m3_tn_fast128";
                self.require_kernel(entry)?;
                return self.hgemm_launch_with(stream, &g.as_pairs(), entry, (pa, pb), d, 0, &v);
            }
            let v = HgemmVariant::FP8_FAST;
            return self.hgemm_launch_with(stream, &g.as_pairs(), g.entry(), (pa, pb), d, 0, &v);
        }
        let (ps, _rs) = match scales {
            Fp8Scales::PerTensor => ((0, 0), None),
            Fp8Scales::Block { a: sa, b: sb } => {
                let (x, ra) = sa.device_ptr(stream);
                let (y, rb) = sb.device_ptr(stream);
                ((x, y), Some((ra, rb)))
            }
        };
        // per-tensor scales: the entry without the block scales' code (+10 % on the H200,
        // doc/fp8-gemm.md round 5), split-K for small M; measuring:
        // `Overrides::fp8_promoted_block` runs them on the block-scale entry, as before
        let (entry, v) = if ps == (0, 0) && !self.overrides().fp8_promoted_block {
            (
                PROMOTED_PER_TENSOR_ENTRY,
                HgemmVariant::FP8_PROMOTED_PER_TENSOR,
            )
        } else {
            (g.entry(), HgemmVariant::fp8_promoted(ps))
        };
        self.require_kernel(entry)?;
        self.hgemm_launch_with(stream, &g.as_pairs(), entry, (pa, pb), d, 0, &v)
    }
}

/// cuBLASLt's FP8 matmul (`cublasLtMatmul` with e4m3/e5m2 A and B, "TN", per-tensor scales as
/// device pointers, bf16 D, fp32 compute): the reference of the FP8 bench rows, with or without
/// its fast accumulation (`CUBLASLT_MATMUL_DESC_FAST_ACCUM`).
pub struct CublasLtFp8 {
    handle: ltsys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    /// A's and B's scales, one allocation each (cuBLASLt's FP8 kernels want 16-byte aligned
    /// pointers).
    scales: (CudaSlice<f32>, CudaSlice<f32>),
    stream: Arc<CudaStream>,
}

impl CublasLtFp8 {
    /// A handle on `stream` with a 32 MiB workspace and the scales `(scale_a, scale_b)` on the
    /// device. Errors (no panic) when libcublasLt cannot be loaded.
    pub fn new(ctx: &Context, stream: Arc<CudaStream>, scales: (f32, f32)) -> Result<Self> {
        ctx.check_stream(&stream)?;
        let handle = catch_quiet(lt::create_handle)
            .map_err(|msg| Error::Cublas(format!("loading cuBLASLt: {msg}")))??;
        let workspace = stream.alloc_zeros::<u8>(32 << 20)?;
        let scales = (
            stream.clone_htod(&[scales.0])?,
            stream.clone_htod(&[scales.1])?,
        );
        Ok(CublasLtFp8 {
            handle,
            workspace,
            scales,
            stream,
        })
    }

    /// `D = sa·sb·A·Bᵀ` as [`Context::gemm_fp8`] with a bf16 D (`fast`: cuBLASLt's fast
    /// accumulation).
    pub fn matmul(
        &self,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        d: &mut CudaSlice<bf16>,
        fast: bool,
    ) -> Result<()> {
        g.fast_accum(true).check(a.len(), b.len(), d.len())?;
        let s = &self.stream;
        let (pa, _ra) = a.device_ptr(s);
        let (pb, _rb) = b.device_ptr(s);
        let (pd, _rd) = d.device_ptr_mut(s);
        let (sa, _rsa) = self.scales.0.device_ptr(s);
        let (sb, _rsb) = self.scales.1.device_ptr(s);
        let (pw, _rw) = self.workspace.device_ptr(s);
        let (m, n, k) = (g.m as u64, g.n as u64, g.k as u64);
        type A = ltsys::cublasLtMatmulDescAttributes_t;
        // SAFETY: descriptors created here and destroyed below; the attribute buffers are
        // values of the documented types; the buffers hold the checked lengths, on this stream.
        unsafe {
            let desc = lt::create_matmul_desc(
                ltsys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                ltsys::cudaDataType::CUDA_R_32F,
            )?;
            let set = |attr: A, p: *const c_void, size: usize| {
                lt::set_matmul_desc_attribute(desc, attr, p, size)
            };
            // cublasOperation_t: 1 T, 0 N
            let (ta, tb) = (1i32, 0i32);
            set(A::CUBLASLT_MATMUL_DESC_TRANSA, (&raw const ta).cast(), 4)?;
            set(A::CUBLASLT_MATMUL_DESC_TRANSB, (&raw const tb).cast(), 4)?;
            set(
                A::CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                (&raw const sa).cast(),
                8,
            )?;
            set(
                A::CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                (&raw const sb).cast(),
                8,
            )?;
            let f = i8::from(fast);
            set(A::CUBLASLT_MATMUL_DESC_FAST_ACCUM, (&raw const f).cast(), 1)?;
            let t = g.dtype.lt_type();
            let la = lt::create_matrix_layout(t, k, m, k as i64)?;
            let lb = lt::create_matrix_layout(t, k, n, k as i64)?;
            let ld = lt::create_matrix_layout(ltsys::cudaDataType::CUDA_R_16BF, m, n, m as i64)?;
            let pref = lt::create_matmul_pref()?;
            let ws: usize = 32 << 20;
            lt::set_matmul_pref_attribute(
                pref,
                ltsys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                (&raw const ws).cast(),
                8,
            )?;
            let r = lt::get_matmul_algo_heuristic(self.handle, desc, la, lb, ld, ld, pref)
                .and_then(|h| {
                    let (alpha, beta) = (1.0f32, 0.0f32);
                    lt::matmul(
                        self.handle,
                        desc,
                        (&raw const alpha).cast(),
                        (&raw const beta).cast(),
                        pa as *const c_void,
                        la,
                        pb as *const c_void,
                        lb,
                        pd as *const c_void,
                        ld,
                        pd as *mut c_void,
                        ld,
                        &h.algo,
                        pw as *mut c_void,
                        ws,
                        s.cu_stream() as *mut _,
                    )
                });
            lt::destroy_matmul_pref(pref)?;
            lt::destroy_matrix_layout(la)?;
            lt::destroy_matrix_layout(lb)?;
            lt::destroy_matrix_layout(ld)?;
            lt::destroy_matmul_desc(desc)?;
            r?;
        }
        Ok(())
    }
}

impl Drop for CublasLtFp8 {
    fn drop(&mut self) {
        // SAFETY: the handle is this value's, not used after.
        let _ = unsafe { lt::destroy_handle(self.handle) };
    }
}
