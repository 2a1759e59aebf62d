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
//!   promoted while the second's `wgmma`s run (doc/fp8-gemm.md); block scales run
//!   [`Fp8BlockEntry::BLOCK`] (for M a multiple of 4: the per-tensor kernel's 128×192 tiles
//!   with each stage's scales through shared memory, each 64-column chunk scaled by its own
//!   128-column N-block, and C through the TMA epilogue; where its last wave is part-empty, D's
//!   first columns in fewer waves and the rest as a launch of its own,
//!   [`Fp8BlockEntry::split_n`]); per-tensor scales run
//!   [`PROMOTED_PER_TENSOR_ENTRY`], the promoted kernel without the block scales' code on
//!   128×192 tiles (one `m64n192k32` temporary per consumer warpgroup; C through the TMA
//!   epilogue's shared memory, stored while the next tile's `wgmma`s run), or its 128×128
//!   sibling unless 128×192 fills the machine better ([`Fp8PromotedTile::for_problem`])
//!   ([`Overrides::fp8_promoted_block`](crate::Overrides::fp8_promoted_block) runs them on the
//!   block-scale entry, for measuring);
//! - **fast accumulation** ([`GemmFp8Config::fast_accum`], e4m3 or e5m2): entries
//!   `gemm_fp8_{e4m3,e5m2}_tn` on `wgmma.m64n256k32`, 128×256 tiles, accumulating over all of K
//!   in the tensor core, or `gemm_fp8_{e4m3,e5m2}_tn_fast192tma` on the per-tensor kernel's
//!   128×192 tiles where those fill the machine better ([`Fp8FastTile::for_problem`]);
//!   per-tensor scales only.
//!
//! **Small M** (where those tiles would split their k-ranges over clusters and 64-row tiles fill
//! one wave, [`Fp8PromotedTile::pp64_fills_a_wave`]): each mode runs on 64×128 tiles of the
//! ping-pong schedule with whole k-ranges, clusters of 2 along M sharing B (cuBLASLt's tile for
//! these shapes): `gemm_fp8_e4m3_tn_promoted_pp64` (per-tensor, [`Fp8PromotedTile::Pp64`]),
//! `gemm_fp8_e4m3_tn_promoted_staged4_pp64` (block scales through shared memory, A's in boxes
//! of four k-tiles; M a multiple of 4, K of 512 FP8 elements, [`Fp8BlockEntry::StagedPp64x4`];
//! else `gemm_fp8_e4m3_tn_promoted_block_pp64`, [`Fp8BlockEntry::Pp64`]),
//! `gemm_fp8_{e4m3,e5m2}_tn_fast_pp64` (fast accumulation).
//!
//! **Fused epilogue** (e4m3 with promotion, per-tensor scales): [`GemmFp8Config::bias`],
//! [`GemmFp8Config::act`] and [`GemmFp8Config::row_col_scales`] make
//! `D = act(sa·sb·s_row[i]·s_col[j]·(A·Bᵀ)[i,j] + bias)` — the per-row and per-column scales
//! of `torch._scaled_mm`'s row-wise scaling (`scale_a` `(M,1)`, `scale_b` `(1,N)`), a bias
//! along M or N, an activation (ReLU, GELU tanh/erf, SiLU) — in entries
//! `gemm_fp8_fused_e4m3_tn_{identity,relu,gelu,gelu_erf,silu}_{n192tma,n128tma6}` (the per-tensor
//! promoted kernel on its 128×192 or 128×128 tiles with the typed epilogue
//! `Scaled<RowColScale, BiasAct<A>>` on the TMA epilogue's path; the per-tensor launch's tile,
//! [`Fp8PromotedTile::for_fused`]), launched by [`Context::gemm_fp8_fused`] with the vectors in
//! [`Fp8Vectors`].
//!
//! Error bounds: `host-cli`'s `check::bounds` (the FP8 sweep of `host run` checks within them).

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::cublaslt::{result as lt, sys as ltsys};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use half::bf16;
use layout_types::cute::atom::mma::{float_e4m3_t, float_e5m2_t};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::gemm::{Activation, BiasMode, GemmConfig, Trans};
use crate::hgemm::{
    BlockSplit, Fp8BlockEntry, Fp8FastTile, Fp8PromotedTile, GemmOut, HgemmVariant,
};
use crate::quiet::catch_quiet;

/// The promoted entry for per-tensor scales: `gemm_fp8_e4m3_tn_promoted` without the block
/// scales' loads in its k-tile loop, on 128×192 tiles with the TMA epilogue
/// ([`Fp8PromotedTile::PER_TENSOR`]).
pub const PROMOTED_PER_TENSOR_ENTRY: &str = Fp8PromotedTile::PER_TENSOR.entry();

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
    ///
    /// ```
    /// assert_eq!(host::gemm_fp8::Fp8::E5M2.name(), "e5m2");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Fp8::E4M3 => "e4m3",
            Fp8::E5M2 => "e5m2",
        }
    }
    /// `x` rounded to nearest even, saturated to the largest finite value (`cvt.rn.satfinite`).
    ///
    /// ```
    /// use host::gemm_fp8::Fp8;
    /// assert_eq!(Fp8::E4M3.encode(1.0), 0x38);
    /// assert_eq!(Fp8::E4M3.encode(1e6), 0x7e); // saturated: 448
    /// assert_eq!(Fp8::E5M2.encode(1.0), 0x3c);
    /// ```
    pub fn encode(self, x: f32) -> u8 {
        match self {
            Fp8::E4M3 => float_e4m3_t::from_f32(x).0,
            Fp8::E5M2 => float_e5m2_t::from_f32(x).0,
        }
    }
    /// The value of the bits `b` (exact).
    ///
    /// ```
    /// use host::gemm_fp8::Fp8;
    /// assert_eq!(Fp8::E4M3.decode(0x7e), 448.0);
    /// assert_eq!(Fp8::E5M2.decode(0x7b), 57344.0);
    /// ```
    pub fn decode(self, b: u8) -> f32 {
        match self {
            Fp8::E4M3 => float_e4m3_t(b).to_f32(),
            Fp8::E5M2 => float_e5m2_t(b).to_f32(),
        }
    }
    /// The kernel entry for this input type with fast accumulation.
    ///
    /// ```
    /// assert_eq!(host::gemm_fp8::Fp8::E5M2.entry(), "gemm_fp8_e5m2_tn");
    /// ```
    pub fn entry(self) -> &'static str {
        match self {
            Fp8::E4M3 => "gemm_fp8_e4m3_tn",
            Fp8::E5M2 => "gemm_fp8_e5m2_tn",
        }
    }
    /// The fast-accumulation entry on the small-M tile (64×128 on the ping-pong schedule,
    /// [`Fp8PromotedTile::Pp64`]'s launch).
    ///
    /// ```
    /// use host::gemm_fp8::Fp8;
    /// assert_eq!(Fp8::E4M3.fast_pp64_entry(), "gemm_fp8_e4m3_tn_fast_pp64");
    /// ```
    pub fn fast_pp64_entry(self) -> &'static str {
        match self {
            Fp8::E4M3 => "gemm_fp8_e4m3_tn_fast_pp64",
            Fp8::E5M2 => "gemm_fp8_e5m2_tn_fast_pp64",
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
    /// The fused epilogue's bias vector (`f32`): none, along M (one value per row of D) or
    /// along N (one per column).
    pub bias: BiasMode,
    /// The fused epilogue's activation (identity: none).
    pub act: Activation,
    /// The fused epilogue's per-row scales of the product (`f32`, M values: `_scaled_mm`'s
    /// row-wise `scale_a`).
    pub row_scales: bool,
    /// The fused epilogue's per-column scales of the product (`f32`, N values: `scale_b`).
    pub col_scales: bool,
}

impl GemmFp8Config {
    /// Scales 1, promotion.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// let g = GemmFp8Config::new(128, 256, 512, Fp8::E4M3);
    /// assert_eq!((g.scale_a, g.scale_b, g.fast_accum), (1.0, 1.0, false));
    /// ```
    pub fn new(m: usize, n: usize, k: usize, dtype: Fp8) -> GemmFp8Config {
        GemmFp8Config {
            m,
            n,
            k,
            dtype,
            scale_a: 1.0,
            scale_b: 1.0,
            fast_accum: false,
            bias: BiasMode::None,
            act: Activation::Identity,
            row_scales: false,
            col_scales: false,
        }
    }
    /// Adds a bias vector along M or N to the fused epilogue.
    ///
    /// ```
    /// use host::{BiasMode, gemm_fp8::{Fp8, GemmFp8Config}};
    /// let g = GemmFp8Config::new(300, 200, 256, Fp8::E4M3).bias(BiasMode::N);
    /// assert_eq!((g.bias_len(), g.is_fused()), (200, true));
    /// ```
    pub fn bias(mut self, bias: BiasMode) -> GemmFp8Config {
        self.bias = bias;
        self
    }
    /// Sets the fused epilogue's activation.
    ///
    /// ```
    /// use host::{Activation, gemm_fp8::{Fp8, GemmFp8Config}};
    /// let g = GemmFp8Config::new(64, 64, 64, Fp8::E4M3).act(Activation::GeluErf);
    /// assert_eq!(g.fused_entry(), "gemm_fp8_fused_e4m3_tn_gelu_erf_n192tma");
    /// ```
    pub fn act(mut self, act: Activation) -> GemmFp8Config {
        self.act = act;
        self
    }
    /// Per-row (M values) and per-column (N values) scales of the product in the fused
    /// epilogue, each on or off.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// let g = GemmFp8Config::new(64, 32, 64, Fp8::E4M3).row_col_scales(true, false);
    /// assert!(g.is_fused() && g.to_string().ends_with("row-scales"));
    /// ```
    pub fn row_col_scales(mut self, row: bool, col: bool) -> GemmFp8Config {
        (self.row_scales, self.col_scales) = (row, col);
        self
    }
    /// Whether the epilogue is fused: a bias, an activation or row/column scales.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// assert!(!GemmFp8Config::new(64, 64, 64, Fp8::E4M3).is_fused());
    /// ```
    pub fn is_fused(&self) -> bool {
        self.bias != BiasMode::None
            || self.act != Activation::Identity
            || self.row_scales
            || self.col_scales
    }
    /// Elements of the bias vector: M, N or 0.
    ///
    /// ```
    /// use host::{BiasMode, gemm_fp8::{Fp8, GemmFp8Config}};
    /// assert_eq!(GemmFp8Config::new(7, 9, 16, Fp8::E4M3).bias(BiasMode::M).bias_len(), 7);
    /// ```
    pub fn bias_len(&self) -> usize {
        match self.bias {
            BiasMode::None => 0,
            BiasMode::M => self.m,
            BiasMode::N => self.n,
        }
    }
    /// The fused epilogue's entry on [`Fp8PromotedTile::FUSED`], the tile that has every
    /// activation's ([`Fp8PromotedTile::fused_entry`]; a launch takes the per-tensor tile where
    /// that has them too, [`Fp8PromotedTile::for_fused`]).
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// assert_eq!(GemmFp8Config::new(8, 8, 16, Fp8::E4M3).fused_entry(), "gemm_fp8_fused_e4m3_tn_identity_n192tma");
    /// ```
    pub fn fused_entry(&self) -> &'static str {
        let () = Self::FUSED_HAS_EVERY_ACTIVATION;
        match Fp8PromotedTile::FUSED.fused_entry(self.act) {
            Some(e) => e,
            None => unreachable!("Fp8PromotedTile::FUSED has every activation's entry"),
        }
    }
    /// Every activation has a fused entry on [`Fp8PromotedTile::FUSED`] (so the
    /// `unreachable!` of [`fused_entry`](Self::fused_entry) is).
    const FUSED_HAS_EVERY_ACTIVATION: () = {
        use Activation::*;
        let acts = [Identity, Relu, Gelu, GeluErf, Silu];
        let mut i = 0;
        while i < acts.len() {
            assert!(Fp8PromotedTile::FUSED.fused_entry(acts[i]).is_some());
            i += 1;
        }
    };
    /// The fused epilogue's name: `+bias_m`/`+bias_n`, the activation, `row-scales`,
    /// `col-scales` (empty when not fused).
    ///
    /// ```
    /// use host::{Activation, BiasMode, gemm_fp8::{Fp8, GemmFp8Config}};
    /// let g = GemmFp8Config::new(8, 8, 16, Fp8::E4M3).bias(BiasMode::M).act(Activation::Silu);
    /// assert_eq!(g.row_col_scales(true, true).epilogue(), "+bias_m silu row-scales col-scales");
    /// ```
    pub fn epilogue(&self) -> String {
        let lin = GemmConfig::new(1, 1, 1)
            .bias(self.bias)
            .act(self.act)
            .epilogue();
        [
            (!lin.is_empty()).then_some(lin),
            self.row_scales.then(|| "row-scales".to_string()),
            self.col_scales.then(|| "col-scales".to_string()),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
    }
    /// The per-tensor scales.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// let g = GemmFp8Config::new(64, 64, 64, Fp8::E4M3).scales(0.5, 4.0);
    /// assert_eq!((g.scale_a, g.scale_b), (0.5, 4.0));
    /// ```
    pub fn scales(mut self, scale_a: f32, scale_b: f32) -> GemmFp8Config {
        (self.scale_a, self.scale_b) = (scale_a, scale_b);
        self
    }
    /// Fast accumulation (no promotion).
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// let g = GemmFp8Config::new(64, 64, 64, Fp8::E4M3).fast_accum(true);
    /// assert_eq!(g.entry(), "gemm_fp8_e4m3_tn");
    /// ```
    pub fn fast_accum(mut self, fast: bool) -> GemmFp8Config {
        self.fast_accum = fast;
        self
    }
    /// `2·M·N·K`.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// assert_eq!(GemmFp8Config::new(128, 7168, 16384, Fp8::E4M3).flops(), 2.0 * 128.0 * 7168.0 * 16384.0);
    /// ```
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    /// The kernel entry: the fused one ([`Self::fused_entry`]), the promoted one (e4m3; with
    /// per-tensor scales the launch takes [`PROMOTED_PER_TENSOR_ENTRY`], the promoted kernel
    /// without the block scales' code on 128×192 tiles, or 128×128 by
    /// [`Fp8PromotedTile::for_problem`]) or the fast-accumulation one.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// assert_eq!(GemmFp8Config::new(8, 8, 16, Fp8::E4M3).entry(), "gemm_fp8_e4m3_tn_promoted");
    /// assert_eq!(GemmFp8Config::new(8, 8, 16, Fp8::E5M2).fast_accum(true).entry(), "gemm_fp8_e5m2_tn");
    /// ```
    pub fn entry(&self) -> &'static str {
        if self.is_fused() {
            self.fused_entry()
        } else if self.fast_accum {
            self.dtype.entry()
        } else {
            "gemm_fp8_e4m3_tn_promoted"
        }
    }
    /// Elements of the block scales ([`Fp8Scales::Block`]): A's `M·⌈K/128⌉`, B's
    /// `⌈N/128⌉·⌈K/128⌉`.
    ///
    /// ```
    /// use host::gemm_fp8::{Fp8, GemmFp8Config};
    /// // K = 300: three k-blocks of 128; N = 200: two N-blocks
    /// assert_eq!(GemmFp8Config::new(64, 200, 300, Fp8::E4M3).block_scale_lens(), (64 * 3, 2 * 3));
    /// ```
    pub fn block_scale_lens(&self) -> (usize, usize) {
        let kb = self.k.div_ceil(128);
        (self.m * kb, self.n.div_ceil(128) * kb)
    }
    /// The rules, checked before any launch: promotion for e4m3 only (e5m2 has fast
    /// accumulation only), the fused epilogue with promotion only, K a multiple of 16 (A's and
    /// B's rows are TMA strides of K bytes, which must be multiples of 16), finite scales,
    /// sizes below 2^31, and the buffers' lengths (elements of A, B, D).
    ///
    /// ```
    /// use host::{Activation, gemm_fp8::{Fp8, GemmFp8Config}};
    /// let g = GemmFp8Config::new(64, 64, 64, Fp8::E4M3).act(Activation::Relu).fast_accum(true);
    /// let e = g.check(64 * 64, 64 * 64, 64 * 64).unwrap_err();
    /// assert!(e.to_string().contains("promoted e4m3 kernel only"), "{e}");
    /// ```
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
        if self.is_fused() && self.fast_accum {
            return Err(Error::Unsupported(format!(
                "{self}: the fused epilogue (bias, activation, row/column scales) is built on the promoted e4m3 kernel only, not fast accumulation (unset fast_accum / `--fast-accum`)"
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
            .bias(self.bias)
            .act(self.act)
    }
    /// The fused epilogue's vectors against this configuration, before any launch: each
    /// present exactly when the configuration asks for it (`bias` along M or N, `row_scales`,
    /// `col_scales`) and long enough (`(bias, row, col)` lengths; `None`: absent).
    ///
    /// ```
    /// use host::{BiasMode, gemm_fp8::{Fp8, GemmFp8Config}};
    /// let g = GemmFp8Config::new(30, 20, 64, Fp8::E4M3).bias(BiasMode::N).row_col_scales(true, false);
    /// assert!(g.check_vectors((Some(20), Some(30), None)).is_ok());
    /// let e = g.check_vectors((Some(20), Some(29), None)).unwrap_err();
    /// assert!(e.to_string().contains("row scales"), "{e}");
    /// assert!(g.check_vectors((Some(20), None, None)).is_err()); // the row scales missing
    /// assert!(g.check_vectors((Some(20), Some(30), Some(20))).is_err()); // column scales not asked
    /// ```
    pub fn check_vectors(
        &self,
        (bias, row, col): (Option<usize>, Option<usize>, Option<usize>),
    ) -> Result<()> {
        for (name, asked, given, needed) in [
            (
                "the bias",
                self.bias != BiasMode::None,
                bias,
                self.bias_len(),
            ),
            ("the row scales", self.row_scales, row, self.m),
            ("the column scales", self.col_scales, col, self.n),
        ] {
            match (asked, given) {
                (true, None) => {
                    return Err(Error::Unsupported(format!(
                        "{self}: {name} vector is missing"
                    )));
                }
                (false, Some(_)) => {
                    return Err(Error::Unsupported(format!(
                        "{self}: {name} vector given for a configuration without it (GemmFp8Config::bias / row_col_scales)"
                    )));
                }
                (true, Some(len)) if len < needed => {
                    return Err(Error::BufferTooSmall { name, len, needed });
                }
                _ => {}
            }
        }
        Ok(())
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
        )?;
        let e = self.epilogue();
        if !e.is_empty() {
            write!(f, " {e}")?;
        }
        Ok(())
    }
}

/// The fused FP8 epilogue's device vectors (`f32`), each present exactly when the
/// [`GemmFp8Config`] asks for it ([`GemmFp8Config::check_vectors`]).
///
/// ```
/// let v = host::gemm_fp8::Fp8Vectors::default();
/// assert!(v.bias.is_none() && v.row_scales.is_none() && v.col_scales.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Fp8Vectors<'a> {
    /// The bias: M values (along M) or N (along N).
    pub bias: Option<&'a CudaSlice<f32>>,
    /// The per-row scales of the product: M values.
    pub row_scales: Option<&'a CudaSlice<f32>>,
    /// The per-column scales of the product: N values.
    pub col_scales: Option<&'a CudaSlice<f32>>,
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
        if g.is_fused() {
            if let Fp8Scales::Block { .. } = scales {
                return Err(Error::Unsupported(format!(
                    "{g}: the fused epilogue runs with per-tensor scales (and its own row/column scales), not block scales"
                )));
            }
            return self.gemm_fp8_fused(stream, g, a, b, Fp8Vectors::default(), d);
        }
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
            // small M: where the 128×256 tiles would split over k-ranges and the 64×128 ones
            // fill a wave, those (doc/fp8-gemm.md, "Small M on 64-row tiles")
            let sms = self.device().sms as usize;
            let (m, n, k) = (g.m, g.n, g.as_pairs().k);
            if Fp8PromotedTile::pp64_replaces_split_k(m, n, k, sms) {
                let entry = g.dtype.fast_pp64_entry();
                self.require_kernel(entry)?;
                let v = Fp8PromotedTile::Pp64.variant();
                return self.hgemm_launch_with(stream, &g.as_pairs(), entry, (pa, pb), d, 0, &v);
            }
            // else 128×256, or 128×192 where it fills the machine better; measuring:
            // `Overrides::fp8_fast_tile`
            let t = (self.overrides().fp8_fast_tile)
                .unwrap_or_else(|| Fp8FastTile::for_problem(m, n, k, sms));
            let entry = t.entry(g.dtype == Fp8::E5M2).ok_or_else(|| {
                Error::Unsupported(format!(
                    "{g}: no fast-accumulation entry on the FP8 tile {t:?} for these operands (CUTE_RS_FP8_FAST)"
                ))
            })?;
            self.require_kernel(entry)?;
            let v = t.variant();
            return self.hgemm_launch_with(stream, &g.as_pairs(), entry, (pa, pb), d, 0, &v);
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
        // `Overrides::fp8_promoted_tile`, another tile (the `fp8-variants` entries)
        let (entry, v) = if ps == (0, 0) && !self.overrides().fp8_promoted_block {
            let t = self.overrides().fp8_promoted_tile.unwrap_or_else(|| {
                Fp8PromotedTile::for_problem(g.m, g.n, g.as_pairs().k, self.device().sms as usize)
            });
            (t.entry(), t.variant())
        } else if ps == (0, 0) {
            (g.entry(), HgemmVariant::fp8_promoted(ps))
        } else {
            // block scales: `Overrides::fp8_block_entry`; the staged entries take what their
            // TMA boxes can (`Fp8BlockEntry::takes`), else the global-scale block entry
            let b = self.overrides().fp8_block_entry.unwrap_or_else(|| {
                let sms = self.device().sms as usize;
                Fp8BlockEntry::for_problem(g.m, g.n, g.as_pairs().k, sms, ps)
            });
            let b = b.or_global((g.m, g.as_pairs().k), ps);
            if b == Fp8BlockEntry::BLOCK
                && let Some(split) = self.block_split(g, ps)?
            {
                return self.gemm_fp8_block_split::<O, D>(stream, g, (pa, pb), ps, split, d);
            }
            (b.entry(), b.variant(ps))
        };
        self.require_kernel(entry)?;
        self.hgemm_launch_with(stream, &g.as_pairs(), entry, (pa, pb), d, 0, &v)
    }

    /// Where a block-scaled launch on [`Fp8BlockEntry::BLOCK`] splits D's columns: at
    /// [`Overrides::fp8_block_split`](crate::Overrides::fp8_block_split) (`0`: nowhere;
    /// checked here: below N, B's scales of the rest on 16 bytes), else where
    /// [`Fp8BlockEntry::split_n`] reckons it faster.
    fn block_split(&self, g: &GemmFp8Config, scales: (u64, u64)) -> Result<Option<BlockSplit>> {
        let (k, sms) = (g.as_pairs().k, self.device().sms as usize);
        match self.overrides().fp8_block_split {
            Some(0) => Ok(None),
            Some(n1) => Fp8BlockEntry::split_at(g.m, g.n, k, sms, scales, n1)
                .map(Some)
                .ok_or_else(|| Error::Override {
                    name: "CUTE_RS_FP8_BLOCK_SPLIT",
                    value: n1.to_string(),
                    why: format!(
                        "{g}: the first launch's columns must be below N and leave B's scales of the others on 16 bytes ((n1 / 128)·⌈K / 128⌉ a multiple of 4)"
                    ),
                }),
            None => Ok(Fp8BlockEntry::split_n(g.m, g.n, k, sms, scales)),
        }
    }

    /// A block-scaled GEMM as two launches over D's column blocks ([`BlockSplit`]): the first
    /// `n1` columns on [`Fp8BlockEntry::BLOCK`] (whole waves of its 128 × 192 tiles, or
    /// nearly), the other `n − n1` on the split's `rest` (their own tiles and scheduler: split
    /// k-ranges where their tiles fill less than a wave). D is column-major with `ldd = M`, so
    /// the second launch's B rows, B scale blocks and D columns start `n1` further on and A,
    /// A's scales and `ldd` are shared.
    fn gemm_fp8_block_split<O: GemmOut, D: DevicePtrMut<O>>(
        &self,
        stream: &CudaStream,
        g: &GemmFp8Config,
        (pa, pb): (u64, u64),
        scales: (u64, u64),
        BlockSplit {
            n1,
            rest,
            rest_scales,
        }: BlockSplit,
        d: &mut D,
    ) -> Result<()> {
        let pairs = g.as_pairs();
        let first = Fp8BlockEntry::BLOCK;
        self.require_kernel(first.entry())?;
        self.require_kernel(rest.entry())?;
        let (pc, _rc) = d.device_ptr_mut(stream);
        let pc2 = pc + (n1 * g.m * size_of::<O>()) as u64;
        // SAFETY: `d` is this context's checked buffer of D (M×N, ldd = M: `g.check`), held
        // until both launches are queued; the first launch writes its columns 0..n1, the
        // second, at `pc2`, the n - n1 columns after them (with the same ldd)
        unsafe {
            let ahead = self.hgemm_launch_at::<O>(
                stream,
                &GemmConfig { n: n1, ..pairs },
                first.entry(),
                (pa, pb),
                pc,
                0,
                &first.variant(scales),
                None,
            )?;
            // the rest's first clusters in the first launch's last-wave holes: they read A and
            // B and write D's other columns (`Fp8BlockEntry::lead_percent` of a first-launch
            // tile's k-tiles more than the others; 0: after it, as every launch)
            let lead = self
                .overrides()
                .fp8_block_lead
                .unwrap_or(Fp8BlockEntry::lead_percent(ahead.k_tiles));
            let beside = (lead > 0 && ahead.idle_sms > 0).then(|| crate::hgemm::HgemmBeside {
                idle_sms: ahead.idle_sms,
                k_tiles: ahead.k_tiles * lead as usize / 100,
            });
            self.hgemm_launch_at::<O>(
                stream,
                &GemmConfig {
                    n: g.n - n1,
                    ..pairs
                },
                rest.entry(),
                (pa, pb + (n1 * g.k) as u64),
                pc2,
                0,
                &rest.variant(rest_scales),
                beside,
            )
            .map(|_| ())
        }
    }
}

impl Context {
    /// The fused FP8 GEMM: `D = act(sa·sb·s_row[i]·s_col[j]·(A·Bᵀ)[i,j] + bias)` with `g`'s
    /// epilogue ([`GemmFp8Config::bias`], [`GemmFp8Config::act`],
    /// [`GemmFp8Config::row_col_scales`]) and its vectors `v`, e4m3 with promotion and
    /// per-tensor scales, D as `O` (f32, bf16 or f16). Typed errors before anything is queued:
    /// [`GemmFp8Config::check`] (the fused epilogue with fast accumulation is refused),
    /// [`GemmFp8Config::check_vectors`], vectors of another context. The scale vectors'
    /// values are the caller's (finite: the CLI checks its own).
    ///
    /// ```no_run
    /// use host::{Activation, BiasMode, gemm_fp8::{Fp8, Fp8Vectors, GemmFp8Config}};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let (m, n, k) = (256, 128, 128);
    /// let one = Fp8::E4M3.encode(1.0);
    /// let a = s.clone_htod(&vec![one; m * k])?;
    /// let b = s.clone_htod(&vec![one; n * k])?;
    /// let bias = s.clone_htod(&vec![-100.0f32; n])?;
    /// let rows = s.clone_htod(&vec![2.0f32; m])?;
    /// let mut d = s.alloc_zeros::<f32>(m * n)?;
    /// let g = GemmFp8Config::new(m, n, k, Fp8::E4M3)
    ///     .bias(BiasMode::N)
    ///     .act(Activation::Relu)
    ///     .row_col_scales(true, false);
    /// let v = Fp8Vectors { bias: Some(&bias), row_scales: Some(&rows), ..Default::default() };
    /// ctx.gemm_fp8_fused(&s, &g, &a, &b, v, &mut d)?;
    /// // relu(2·128 − 100)
    /// assert!(s.clone_dtoh(&d)?.iter().all(|&x| x == 156.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gemm_fp8_fused<O, D>(
        &self,
        stream: &CudaStream,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        v: Fp8Vectors<'_>,
        d: &mut D,
    ) -> Result<()>
    where
        O: GemmOut,
        D: DevicePtrMut<O>,
    {
        g.check(a.len(), b.len(), d.len())?;
        if g.fast_accum || g.dtype != Fp8::E4M3 {
            return Err(Error::Unsupported(format!(
                "{g}: the fused epilogue is built on the promoted e4m3 kernel only"
            )));
        }
        let len = |x: Option<&CudaSlice<f32>>| x.map(|x| x.len());
        g.check_vectors((len(v.bias), len(v.row_scales), len(v.col_scales)))?;
        self.check_stream(stream)?;
        for (name, x) in [
            ("the bias", v.bias),
            ("the row scales", v.row_scales),
            ("the column scales", v.col_scales),
        ] {
            if let Some(x) = x {
                self.check_buffer(name, x)?;
            }
        }
        self.check_buffer("buffer A", a)?;
        self.check_buffer("buffer B", b)?;
        self.check_buffer("buffer D", d)?;
        // the tile: the per-tensor rule's where it has fused entries (`Fp8PromotedTile::for_fused`),
        // or the override's
        let tile = self.overrides().fp8_promoted_tile.unwrap_or_else(|| {
            let sms = self.device().sms as usize;
            Fp8PromotedTile::for_fused(g.m, g.n, g.as_pairs().k, sms, g.act)
        });
        let entry = tile.fused_entry(g.act).ok_or_else(|| {
            Error::Unsupported(format!(
                "{g}: no fused entry on the FP8 tile {:?} (CUTE_RS_FP8_PROMOTED)",
                tile
            ))
        })?;
        self.require_kernel(entry)?;
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        for (name, addr) in [("A", pa), ("B", pb)] {
            if addr % 16 != 0 {
                return Err(Error::Unsupported(format!(
                    "buffer {name}: base address {addr:#x} is not 16-byte aligned (TMA needs it)"
                )));
            }
        }
        // (the device addresses, 0 for an absent vector; the guards live until the launch)
        let (pbias, prow, pcol) = (
            v.bias.map(|x| x.device_ptr(stream)),
            v.row_scales.map(|x| x.device_ptr(stream)),
            v.col_scales.map(|x| x.device_ptr(stream)),
        );
        let addr = |p: &Option<(u64, _)>| p.as_ref().map_or(0, |p| p.0);
        // the per-tensor promoted kernel's launch (split-K for small M) with the fused
        // epilogue's row and column scales (`HgemmParams::scale_m` / `scale_n`)
        let variant = HgemmVariant {
            product_scales: (addr(&prow), addr(&pcol)),
            ..tile.variant()
        };
        self.hgemm_launch_with(
            stream,
            &g.as_pairs(),
            entry,
            (pa, pb),
            d,
            addr(&pbias),
            &variant,
        )
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
    ///
    /// ```no_run
    /// use host::{Context, gemm_fp8::CublasLtFp8};
    /// let ctx = Context::new(0)?;
    /// let lt = CublasLtFp8::new(&ctx, ctx.default_stream(), (0.5, 2.0))?;
    /// # let _ = lt;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```no_run
    /// use host::{Context, gemm_fp8::{CublasLtFp8, Fp8, GemmFp8Config}};
    /// let ctx = Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let lt = CublasLtFp8::new(&ctx, s.clone(), (1.0, 1.0))?;
    /// let g = GemmFp8Config::new(256, 256, 512, Fp8::E4M3);
    /// let (a, b) = (s.alloc_zeros::<u8>(256 * 512)?, s.alloc_zeros::<u8>(256 * 512)?);
    /// let mut d = s.alloc_zeros::<half::bf16>(256 * 256)?;
    /// lt.matmul(&g, &a, &b, &mut d, false)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matmul(
        &self,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        d: &mut CudaSlice<bf16>,
        fast: bool,
    ) -> Result<()> {
        self.matmul_epilogue(g, a, b, d, fast, None)
    }

    /// [`Self::matmul`] with cuBLASLt's `CUBLASLT_EPILOGUE_GELU_BIAS` when `bias_gelu` is given:
    /// `D = gelu(sa·sb·A·Bᵀ + bias)`, the bias along M (M bf16 values, cuBLASLt's bias type
    /// for a bf16 D), GELU the tanh form — the reference of the fused FP8 bench row.
    ///
    /// ```no_run
    /// use host::{Context, gemm_fp8::{CublasLtFp8, Fp8, GemmFp8Config}};
    /// let ctx = Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let lt = CublasLtFp8::new(&ctx, s.clone(), (1.0, 1.0))?;
    /// let g = GemmFp8Config::new(256, 256, 512, Fp8::E4M3);
    /// let (a, b) = (s.alloc_zeros::<u8>(256 * 512)?, s.alloc_zeros::<u8>(256 * 512)?);
    /// let bias = s.alloc_zeros::<half::bf16>(256)?; // along M
    /// let mut d = s.alloc_zeros::<half::bf16>(256 * 256)?;
    /// lt.matmul_epilogue(&g, &a, &b, &mut d, false, Some(&bias))?; // gelu(A·Bᵀ + bias)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matmul_epilogue(
        &self,
        g: &GemmFp8Config,
        a: &CudaSlice<u8>,
        b: &CudaSlice<u8>,
        d: &mut CudaSlice<bf16>,
        fast: bool,
        bias_gelu: Option<&CudaSlice<bf16>>,
    ) -> Result<()> {
        let lin = GemmFp8Config {
            bias: BiasMode::None,
            act: Activation::Identity,
            row_scales: false,
            col_scales: false,
            ..*g
        };
        lin.fast_accum(true).check(a.len(), b.len(), d.len())?;
        if let Some(bias) = bias_gelu
            && bias.len() < g.m
        {
            return Err(Error::BufferTooSmall {
                name: "cuBLASLt's bias",
                len: bias.len(),
                needed: g.m,
            });
        }
        let pbias = bias_gelu.map(|x| x.device_ptr(&self.stream));
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
            if let Some((pb, _)) = &pbias {
                let epi = ltsys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_GELU_BIAS;
                set(
                    A::CUBLASLT_MATMUL_DESC_EPILOGUE,
                    (&raw const epi).cast(),
                    size_of::<ltsys::cublasLtEpilogue_t>(),
                )?;
                set(
                    A::CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                    (pb as *const u64).cast(),
                    8,
                )?;
                let bt = ltsys::cudaDataType::CUDA_R_16BF;
                set(
                    A::CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                    (&raw const bt).cast(),
                    size_of::<ltsys::cudaDataType>(),
                )?;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast-accumulation small-M entries the host launches are the ones the FP8 family
    /// declares on the ping-pong schedule (`fp8`, `_fast_`).
    #[test]
    fn fast_pp64_entries_are_the_kernels() {
        let src = include_str!("../../kernels/hgemm_fp8/src/lib.rs");
        let declared: Vec<&str> = src
            .split("hgemm_pingpong_entry!(")
            .skip(1)
            .filter_map(|s| s.trim_start().strip_prefix("fp8 "))
            .filter_map(|s| s.split(',').next())
            .filter(|e| e.contains("_fast_"))
            .collect();
        assert_eq!(
            declared,
            [Fp8::E4M3, Fp8::E5M2].map(|t| t.fast_pp64_entry())
        );
    }

    /// The fused configuration's checks: typed errors before any launch.
    #[test]
    fn fused_config_checks() {
        let g = GemmFp8Config::new(300, 200, 256, Fp8::E4M3)
            .bias(BiasMode::M)
            .act(Activation::Silu)
            .row_col_scales(true, true);
        let lens = (300 * 256, 200 * 256, 300 * 200);
        assert!(g.check(lens.0, lens.1, lens.2).is_ok());
        assert_eq!(g.entry(), "gemm_fp8_fused_e4m3_tn_silu_n192tma");
        assert_eq!(g.as_pairs().bias, BiasMode::M);
        assert_eq!(g.as_pairs().act, Activation::Silu);
        // fast accumulation and e5m2: refused
        let e = g
            .fast_accum(true)
            .check(lens.0, lens.1, lens.2)
            .unwrap_err();
        assert!(matches!(e, Error::Unsupported(_)), "{e}");
        let e5 = GemmFp8Config {
            dtype: Fp8::E5M2,
            ..g
        };
        assert!(e5.check(lens.0, lens.1, lens.2).is_err());
        assert!(e5.fast_accum(true).check(lens.0, lens.1, lens.2).is_err());
        // non-finite per-tensor scales
        assert!(
            g.scales(f32::NAN, 1.0)
                .check(lens.0, lens.1, lens.2)
                .is_err()
        );
        // the vectors: lengths, presence
        assert!(g.check_vectors((Some(300), Some(300), Some(200))).is_ok());
        let e = g
            .check_vectors((Some(299), Some(300), Some(200)))
            .unwrap_err();
        assert!(matches!(
            e,
            Error::BufferTooSmall {
                name: "the bias",
                needed: 300,
                ..
            }
        ));
        let e = g
            .check_vectors((Some(300), Some(300), Some(199)))
            .unwrap_err();
        assert!(matches!(
            e,
            Error::BufferTooSmall {
                name: "the column scales",
                ..
            }
        ));
        assert!(g.check_vectors((Some(300), None, Some(200))).is_err());
        let plain = GemmFp8Config::new(300, 200, 256, Fp8::E4M3);
        assert!(!plain.is_fused() && plain.check_vectors((None, None, None)).is_ok());
        assert!(plain.check_vectors((Some(300), None, None)).is_err());
        assert_eq!(plain.entry(), "gemm_fp8_e4m3_tn_promoted");
        // the bias along N is N long
        assert_eq!(plain.bias(BiasMode::N).bias_len(), 200);
    }
}
