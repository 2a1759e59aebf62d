//! bf16/fp16 GEMM on Hopper's tensor cores (`kernels/hgemm`): [`Context::hgemm`], generic over
//! the input element ([`HalfElement`]: `half::bf16`, `half::f16`) and C's element ([`GemmOut`]:
//! f32, bf16, f16), with fp32 accumulation; the same [`GemmConfig`] (BLAS conventions,
//! column-major) as [`Context::sgemm`].
//!
//! The kernel loads A and B with TMA, so their leading dimensions must give 16-byte strides
//! (multiples of 8 elements) and their base addresses must be 16-byte aligned. C (any
//! `ldc ≥ M`) is stored by TMA through shared memory when `beta = 0` and a tensor map can
//! describe it (16-byte aligned, `ldc·size` a multiple of 16 bytes), else directly from
//! registers ([`hgemm_epilogue`]). [`hgemm_check`] says what is wrong before anything is
//! queued.

use std::collections::HashMap;
use std::ffi::c_void;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, sys};
use half::{bf16, f16};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::gemm::{Activation, BiasMode, GemmConfig, Trans};
use crate::launch::ClusterLaunch;
use crate::overrides::Overrides;
use crate::tma::launch::TmaParam;
use crate::tma::{GmemTensor, TmaOp, TmaPlan, plan_tma_copy, tma_box};
use device::wgmma::{MajorK, MajorMN};
use layout_types::cute::consts::{_64, _128, _160, _192, _256};
use layout_types::cutlass::gmma_operand::{
    ScaleBoxA, ScaleBoxA4, ScaleBoxB, SmemOperand, SmemOperandMulticast,
};
use layout_types::value::swizzle::ComposedLayout;

// the schedule in a module of its own: crate::overrides names it by this path
pub(crate) mod schedule;
pub use schedule::{
    BlockSplit, Fp8BlockEntry, Fp8FastTile, Fp8PromotedTile, HgemmRaster, HgemmSchedule,
    OverrideName,
};

mod sealed {
    pub trait Sealed {}
    impl Sealed for half::bf16 {}
    impl Sealed for half::f16 {}
    impl Sealed for f32 {}
}

/// An input element of [`Context::hgemm`]: `half::bf16` or `half::f16`.
///
/// ```
/// use host::hgemm::HalfElement;
/// assert_eq!(<half::bf16 as HalfElement>::NAME, "bf16");
/// assert_eq!(half::f16::from_f32_rn(1.5).to_f32(), 1.5);
/// ```
pub trait HalfElement:
    sealed::Sealed + cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Copy + 'static
{
    /// `bf16`, `f16`.
    const NAME: &'static str;
    /// cuBLAS's data type.
    const CUDA: cudarc::cublas::sys::cudaDataType;
    /// Rounded to nearest even.
    fn from_f32_rn(x: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
}

/// The element of C: f32, bf16 or f16 (the kernel's `out` code 0, 1, 2).
///
/// ```
/// use host::hgemm::GemmOut;
/// assert_eq!(<f32 as GemmOut>::NAME, "f32");
/// ```
pub trait GemmOut:
    sealed::Sealed + cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Copy + 'static
{
    /// `f32`, `bf16`, `f16`.
    const NAME: &'static str;
    /// The kernel's `out` argument.
    const CODE: u32;
    /// cuBLAS's data type.
    const CUDA: cudarc::cublas::sys::cudaDataType;
    /// The unit roundoff of this element when C is stored (`2^-24`, `2^-8`, `2^-11`).
    const UNIT_ROUNDOFF: f64;
    /// Rounded to nearest even.
    fn from_f32_rn(x: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
}

use cudarc::cublas::sys::cudaDataType as Dt;

impl HalfElement for bf16 {
    const NAME: &'static str = "bf16";
    const CUDA: Dt = Dt::CUDA_R_16BF;
    fn from_f32_rn(x: f32) -> bf16 {
        bf16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}
impl HalfElement for f16 {
    const NAME: &'static str = "f16";
    const CUDA: Dt = Dt::CUDA_R_16F;
    fn from_f32_rn(x: f32) -> f16 {
        f16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}
impl GemmOut for f32 {
    const NAME: &'static str = "f32";
    const CODE: u32 = 0;
    const CUDA: Dt = Dt::CUDA_R_32F;
    const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64;
    fn from_f32_rn(x: f32) -> f32 {
        x
    }
    fn to_f32(self) -> f32 {
        self
    }
}
impl GemmOut for bf16 {
    const NAME: &'static str = "bf16";
    const CODE: u32 = 1;
    const CUDA: Dt = Dt::CUDA_R_16BF;
    const UNIT_ROUNDOFF: f64 = 1.0 / 256.0;
    fn from_f32_rn(x: f32) -> bf16 {
        bf16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}
impl GemmOut for f16 {
    const NAME: &'static str = "f16";
    const CODE: u32 = 2;
    const CUDA: Dt = Dt::CUDA_R_16F;
    const UNIT_ROUNDOFF: f64 = 1.0 / 2048.0;
    fn from_f32_rn(x: f32) -> f16 {
        f16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}

/// The bf16/fp16 family's configuration and kernel parameters, the kernel's own source
/// (`kernels/hgemm_kernel/src/config.rs`, `no_std`, layout-types only): the host launches with these
/// numbers and this struct, never a copy of them.
#[path = "../../kernels/hgemm_kernel/src/config.rs"]
#[allow(dead_code)]
pub mod config;

/// The kernel's CTA tile (M, N, K), threads and dynamic shared memory, from [`config`]
/// (`size_of` the kernel's `#[repr(C)]` shared storage: 3 stages of a 128×64 A and a 256×64 B
/// tile, the epilogue's 64 KiB, then the barriers).
///
/// ```
/// use host::hgemm::{HgemmKernel, config};
/// assert_eq!(HgemmKernel::TILE, (128, 256, 64));
/// assert_eq!(HgemmKernel::SMEM_BYTES, core::mem::size_of::<config::SharedStorage>());
/// assert_eq!(HgemmKernel::SMEM_BYTES, 3 * (128 + 256) * 64 * 2 + 64 * 1024 + 1024);
/// assert_eq!(size_of::<config::HgemmParams>(), 208); // the kernel's 4th parameter
/// // the stream-K workspace of 66 clusters: 4 slots of 64×256 f32 partials and 128 flags each
/// assert_eq!(config::stream_k_workspace_bytes(66), 66 * 4 * (128 * 128 * 4 + 128 * 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgemmKernel;

impl HgemmKernel {
    /// The CTA tile.
    pub const TILE: (usize, usize, usize) = config::TILE;
    /// Threads per CTA: a producer warpgroup (one thread issues the TMA loads) and two
    /// consumer warpgroups.
    pub const THREADS: u32 = config::THREADS;
    /// Dynamic shared memory per CTA: `size_of` the kernel's shared storage.
    pub const SMEM_BYTES: usize = config::SMEM_BYTES;
    /// The epilogue's shared memory: two 8 KiB chunk buffers per consumer warpgroup.
    pub const EPI_SMEM_BYTES: usize = config::SMEM_EPI_BYTES;
    /// The flag added to the kernel's `out` parameter for the TMA epilogue.
    pub const OUT_TMA: u32 = config::OUT_TMA;
    /// With [`Self::OUT_TMA`]: M·`size_of(C)` is a multiple of 16 bytes, so TMA stores the
    /// tiles that cross M as well. TMA clips C's contiguous dimension only to 16 bytes: it
    /// would write the padding rows up to the next 16-byte boundary, so without this flag
    /// those tiles are stored directly.
    pub const OUT_TMA_EDGE: u32 = config::OUT_TMA_EDGE;

    /// The entry for the input element and the transposes, `hgemm_bf16_tn`.
    ///
    /// ```
    /// use host::{Trans, hgemm::HgemmKernel};
    /// assert_eq!(HgemmKernel::entry::<half::f16>(Trans::N, Trans::T), "hgemm_f16_nt");
    /// ```
    pub fn entry<T: HalfElement>(ta: Trans, tb: Trans) -> String {
        let ch = |t: Trans| if t == Trans::N { 'n' } else { 't' };
        format!("hgemm_{}_{}{}", T::NAME, ch(ta), ch(tb))
    }
    /// The fused epilogue's entry (bias and activation, issue #34): one per activation, bf16
    /// inputs and C, A and B K-major ("TN") only ([`hgemm_check`] and [`Context::hgemm_fused`]
    /// refuse the rest), `hgemm_fused_bf16_tn_gelu`.
    ///
    /// ```
    /// use host::{Activation, hgemm::HgemmKernel};
    /// assert_eq!(HgemmKernel::fused_entry(Activation::GeluErf), "hgemm_fused_bf16_tn_gelu_erf");
    /// ```
    pub fn fused_entry(act: Activation) -> String {
        let name = match act {
            Activation::Identity => "identity",
            Activation::Relu => "relu",
            Activation::Gelu => "gelu",
            Activation::GeluErf => "gelu_erf",
            Activation::Silu => "silu",
        };
        format!("hgemm_fused_bf16_tn_{name}")
    }
}

/// Why a problem cannot go to the bf16/fp16 kernel: [`GemmConfig::validate`]'s rules, then the
/// TMA rules for A and B (leading dimensions multiples of 8 elements = 16-byte strides, base
/// addresses 16-byte aligned). `a_addr`/`b_addr` are the device addresses (0 skips the
/// address check).
///
/// ```
/// use host::{GemmConfig, hgemm::hgemm_check};
/// let g = GemmConfig::new(100, 64, 30);
/// let (na, nb, nc) = g.lens();
/// let e = hgemm_check(&g, (na, nb, nc), (0, 0)).unwrap_err();
/// assert!(e.to_string().contains("lda=100 must be a multiple of 8"), "{e}");
/// assert!(hgemm_check(&g.lda(104).ldb(32), (104 * 30, 32 * 64, nc), (0, 0)).is_ok());
/// ```
pub fn hgemm_check(g: &GemmConfig, lens: (usize, usize, usize), addrs: (u64, u64)) -> Result<()> {
    g.validate(lens.0, lens.1, lens.2)?;
    if g.is_fused() && (g.transa, g.transb) != (Trans::T, Trans::N) {
        return Err(Error::Unsupported(format!(
            "{g}: the fused epilogue (bias, activation) takes A and B K-major only (TN: A stored K×M, `--ta`; B stored K×N)"
        )));
    }
    if g.m == 0 || g.n == 0 {
        return Ok(());
    }
    check_16_byte_operands(
        g,
        addrs,
        (
            "the bf16/fp16 GEMM",
            "TMA, which needs 16-byte strides",
            "TMA",
        ),
    )
}

/// The rule both bf16/fp16 GEMMs put on A and B, whose loads (TMA boxes, 16-byte `cp.async`
/// copies) move 16-byte vectors: `lda` and `ldb` multiples of 8 elements and the base addresses
/// 16-byte aligned (0 skips the address check). `(kernel, loads, unit)` name the kernel, how it
/// loads A and B, and the unit that needs the alignment, in the errors.
pub(crate) fn check_16_byte_operands(
    g: &GemmConfig,
    addrs: (u64, u64),
    (kernel, loads, unit): (&str, &str, &str),
) -> Result<()> {
    for (name, ld) in [("lda", g.lda), ("ldb", g.ldb)] {
        if ld % 8 != 0 {
            return Err(Error::Unsupported(format!(
                "{name}={ld} must be a multiple of 8 elements: {kernel} loads A and B with {loads}"
            )));
        }
    }
    for (name, addr) in [("A", addrs.0), ("B", addrs.1)] {
        if addr % 16 != 0 {
            return Err(Error::Unsupported(format!(
                "buffer {name}: base address {addr:#x} is not 16-byte aligned ({unit} needs it)"
            )));
        }
    }
    Ok(())
}

/// How the kernel stores C (its epilogue): [`hgemm_epilogue`] decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HgemmEpilogue {
    /// Through shared memory and TMA stores, with the tensor map of this plan (C as `(M,N)`,
    /// 64×64 boxes of a 16-bit C or 32×32 of f32, 128-byte swizzle).
    Tma(TmaPlan),
    /// From registers to global memory, `alpha·acc + beta·C` with a bound check per element.
    Direct,
}

/// The TMA box of C's chunks: the epilogue's [`config::EpilogueBoxF32`] of an f32 C,
/// [`config::EpilogueBoxB16`] of a 16-bit one.
fn c_box<O: GemmOut>() -> Result<ComposedLayout> {
    if O::CODE == 0 {
        tma_box::<config::EpilogueBoxF32>()
    } else {
        tma_box::<config::EpilogueBoxB16>()
    }
}

/// C `(M,N):(1,ldc)` at `c_addr` as TMA sees it.
fn c_tensor<O: GemmOut>(g: &GemmConfig, c_addr: u64) -> GmemTensor {
    let (shape, stride) = ([g.m as u64, g.n as u64], [1, g.ldc as u64]);
    if O::CODE == 0 {
        GmemTensor::new::<f32>(c_addr, &shape, &stride)
    } else {
        GmemTensor::new::<u16>(c_addr, &shape, &stride)
    }
}

/// The epilogue [`Context::hgemm`] uses for a valid, non-empty problem with C at `c_addr`: TMA
/// when C's tensor map is possible ([`plan_tma_copy`]: a 16-byte aligned address,
/// `ldc·size_of::<O>()` a multiple of 16 bytes) and C is 16-bit or not read (`beta = 0`; with
/// `beta ≠ 0` the kernel loads a 16-bit C's tile into the TMA path's buffers first, by TMA
/// with the same tensor map, and stores the result with TMA where the tile has a buffer a
/// 64-column chunk), else direct. With the TMA
/// epilogue, a warpgroup's 64 rows that cross M are still stored directly unless
/// `M·size_of::<O>()` is a multiple of 16 bytes: TMA clips C's contiguous dimension only to
/// 16 bytes (on an H100 it writes the rows from M to the next 16-byte boundary, which belong
/// to the `ldc` padding). Setting
/// `CUTE_RS_HGEMM_EPILOGUE=direct` makes [`Context::hgemm`] use the direct path always (for
/// measuring the difference; another value is an [`Error::Unsupported`] before any launch).
///
/// ```
/// use host::GemmConfig;
/// use host::hgemm::{HgemmEpilogue, hgemm_epilogue};
/// let g = GemmConfig::new(1000, 300, 64); // ldc = 1000
/// assert!(matches!(hgemm_epilogue::<half::bf16>(&g, 0x1000), HgemmEpilogue::Tma(_)));
/// // 1001 bf16 = 2002 bytes per column: not a multiple of 16
/// assert_eq!(hgemm_epilogue::<half::bf16>(&g.ldc(1001), 0x1000), HgemmEpilogue::Direct);
/// assert_eq!(hgemm_epilogue::<f32>(&g, 0x1008), HgemmEpilogue::Direct); // misaligned C
/// assert_eq!(hgemm_epilogue::<f32>(&g.beta(1.0), 0x1000), HgemmEpilogue::Direct); // reads C
/// assert!(matches!(hgemm_epilogue::<half::bf16>(&g.beta(1.0), 0x1000), HgemmEpilogue::Tma(_)));
/// ```
pub fn hgemm_epilogue<O: GemmOut>(g: &GemmConfig, c_addr: u64) -> HgemmEpilogue {
    if (g.beta != 0.0 && !config::tma_reads_source(O::CODE)) || g.m == 0 || g.n == 0 {
        return HgemmEpilogue::Direct;
    }
    let Ok(layout) = c_box::<O>() else {
        return HgemmEpilogue::Direct;
    };
    match plan_tma_copy(TmaOp::Store, &c_tensor::<O>(g, c_addr), &layout) {
        Ok(plan) => HgemmEpilogue::Tma(plan),
        Err(_) => HgemmEpilogue::Direct,
    }
}

/// The box of an operand's TMA loads, the kernel's own type: [`SmemOperand::Box`] of the
/// majority's tile of `rows` rows or, where a cluster of 2 shares the tile (`cluster`), the
/// per-CTA slice each CTA loads and multicasts ([`SmemOperandMulticast::MulticastBox`]:
/// K-major, `64 × rows/2`; MN-major, the tile's 64-row boxes). K-major boxes are in the
/// kernel's `(k, row)` coordinates ([`operand_tensor`]), MN-major ones in `(row, k)`. One arm
/// per tile the kernels instantiate.
fn operand_box(k_major: bool, rows: usize, cluster: usize) -> Result<ComposedLayout> {
    type K = MajorK;
    type Mn = MajorMN;
    match (k_major, rows, cluster) {
        (true, 64, 1) => tma_box::<<K as SmemOperand<_64, _64>>::Box>(),
        (true, 128, 1) => tma_box::<<K as SmemOperand<_128, _64>>::Box>(),
        (true, 160, 1) => tma_box::<<K as SmemOperand<_160, _160>>::Box>(),
        (true, 192, 1) => tma_box::<<K as SmemOperand<_192, _192>>::Box>(),
        (true, 256, 1) => tma_box::<<K as SmemOperand<_256, _256>>::Box>(),
        (true, 64, 2) => tma_box::<<K as SmemOperandMulticast<_64, _64>>::MulticastBox>(),
        (true, 128, 2) => tma_box::<<K as SmemOperandMulticast<_128, _64>>::MulticastBox>(),
        (true, 160, 2) => tma_box::<<K as SmemOperandMulticast<_160, _160>>::MulticastBox>(),
        (true, 192, 2) => tma_box::<<K as SmemOperandMulticast<_192, _192>>::MulticastBox>(),
        (true, 256, 2) => tma_box::<<K as SmemOperandMulticast<_256, _256>>::MulticastBox>(),
        (false, 64, 1) => tma_box::<<Mn as SmemOperand<_64, _64>>::Box>(),
        (false, 128, 1) => tma_box::<<Mn as SmemOperand<_128, _64>>::Box>(),
        (false, 192, 1) => tma_box::<<Mn as SmemOperand<_192, _192>>::Box>(),
        (false, 256, 1) => tma_box::<<Mn as SmemOperand<_256, _256>>::Box>(),
        (false, 128, 2) => tma_box::<<Mn as SmemOperandMulticast<_128, _64>>::MulticastBox>(),
        (false, 192, 2) => tma_box::<<Mn as SmemOperandMulticast<_192, _192>>::MulticastBox>(),
        (false, 256, 2) => tma_box::<<Mn as SmemOperandMulticast<_256, _256>>::MulticastBox>(),
        _ => Err(Error::Unsupported(format!(
            "hgemm: no {} operand tile of {rows} rows loaded over a cluster of {cluster}",
            if k_major { "K-major" } else { "MN-major" }
        ))),
    }
}

/// An operand of `rows` × `k` at `addr` with leading dimension `ld` as its box's coordinates
/// ([`operand_box`]): K-major `(K, rows):(1, ld)`, MN-major `(rows, K):(1, ld)`.
fn operand_tensor(addr: u64, k_major: bool, (rows, k): (u64, u64), ld: u64) -> GmemTensor {
    if k_major {
        GmemTensor::new::<u16>(addr, &[k, rows], &[1, ld])
    } else {
        GmemTensor::new::<u16>(addr, &[rows, k], &[1, ld])
    }
}

/// The box of A's FP8 block scales of a tile of `rows` rows ([`ScaleBoxA`], the kernel's
/// `Fp8StageScales::BoxA`: 128, or 64 on the ping-pong 64-row tile).
fn fp8_scale_box_a(rows: usize) -> Result<ComposedLayout> {
    match rows {
        128 => tma_box::<ScaleBoxA<_128>>(),
        64 => tma_box::<ScaleBoxA<_64>>(),
        _ => Err(Error::Unsupported(format!(
            "FP8 block scales: no scale box of a {rows}-row tile"
        ))),
    }
}

/// The box of A's FP8 block scales of four k-blocks of a tile of `rows` rows
/// ([`ScaleBoxA4`]: the 64-row tile's, `gemm_fp8_e4m3_tn_promoted_staged4_pp64`'s).
fn fp8_scale_box_a4(rows: usize) -> Result<ComposedLayout> {
    match rows {
        64 => tma_box::<ScaleBoxA4<_64>>(),
        _ => Err(Error::Unsupported(format!(
            "FP8 block scales: no four-k-block scale box of a {rows}-row tile"
        ))),
    }
}

impl fmt::Display for HgemmKernel {
    /// The cooperative kernel [`Context::hgemm`] launches by default (the ping-pong ones:
    /// [`HgemmSchedule::describe`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, n, k) = Self::TILE;
        write!(
            f,
            "hgemm {m}x{n}x{k} tma+wgmma {}-stage persistent",
            config::STAGES
        )
    }
}

impl Context {
    /// `C = alpha·op(A)·op(B) + beta·C` with A, B in bf16 or fp16 (`T`), fp32 accumulation on
    /// the tensor cores, C stored as `O` (f32, bf16 or f16; rounded to nearest even), queued
    /// on `stream`. BLAS conventions as [`Context::sgemm`]; `beta = 0` never reads C.
    ///
    /// The kernel: the Hopper one (TMA + `wgmma`) where it is loaded, else the Ampere one
    /// ([`Context::hgemm_sm80`], sm_80–89 GPUs and the forced sm_80 build); `g.kernel`
    /// ([`crate::GemmKernel`]) asks for one.
    ///
    /// Checked before anything is queued ([`hgemm_check`]): sizes, leading dimensions
    /// (`lda`, `ldb` multiples of 8), buffer lengths and alignment, stream and buffers of this
    /// context.
    ///
    /// ```no_run
    /// use half::bf16;
    /// use host::{Context, GemmConfig};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let (m, n, k) = (256, 128, 64);
    /// let a = stream.clone_htod(&vec![bf16::ONE; m * k])?;
    /// let b = stream.clone_htod(&vec![bf16::from_f32(2.0); k * n])?;
    /// let mut c = stream.alloc_zeros::<f32>(m * n)?;
    /// ctx.hgemm(&stream, &GemmConfig::new(m, n, k), &a, &b, &mut c)?;
    /// assert!(stream.clone_dtoh(&c)?.iter().all(|&x| x == 128.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hgemm<T, O, A, B, C>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        a: &A,
        b: &B,
        c: &mut C,
    ) -> Result<()>
    where
        T: HalfElement,
        O: GemmOut,
        A: DevicePtr<T>,
        B: DevicePtr<T>,
        C: DevicePtrMut<O>,
    {
        self.hgemm_fused(stream, g, a, b, c, None::<&CudaSlice<f32>>)
    }

    /// [`Context::hgemm`] with its fused epilogue: `C = act(alpha·op(A)·op(B) + beta·C +
    /// bias)`, `g.act` the activation and `g.bias` where `bias` (`f32`, [`GemmConfig::bias_len`]
    /// elements: a `CudaSlice<f32>` or any device buffer of this context) lies. Checked before
    /// anything is queued: a bias buffer exactly when `g.bias` asks for one, long enough, of this
    /// context.
    ///
    /// ```no_run
    /// use host::{Activation, BiasMode, GemmConfig};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let g = GemmConfig::new(256, 512, 128).bias(BiasMode::N).act(Activation::Gelu);
    /// let a = s.alloc_zeros::<half::bf16>(256 * 128)?;
    /// let b = s.alloc_zeros::<half::bf16>(128 * 512)?;
    /// let bias = s.clone_htod(&vec![0.5f32; 512])?;
    /// let mut c = s.alloc_zeros::<half::bf16>(256 * 512)?;
    /// ctx.hgemm_fused(&s, &g, &a, &b, &mut c, Some(&bias))?; // gelu(0.5) everywhere
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hgemm_fused<T, O, A, B, C, V>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        a: &A,
        b: &B,
        c: &mut C,
        bias: Option<&V>,
    ) -> Result<()>
    where
        T: HalfElement,
        O: GemmOut,
        A: DevicePtr<T>,
        B: DevicePtr<T>,
        C: DevicePtrMut<O>,
        V: DevicePtr<f32>,
    {
        if self.hgemm_uses_sm80(g) {
            // a schedule override asks for a Hopper entry: not silently the Ampere kernel (run
            // s67e: a PTX folder without `hgemm_bf16_tn` ran every launch on it)
            if let (Some(s), crate::gemm::GemmKernel::Auto) =
                (self.overrides().hgemm_schedule, g.kernel)
            {
                return Err(Error::Override {
                    name: "CUTE_RS_HGEMM_SCHEDULE",
                    value: s.name().into(),
                    why: format!(
                        "{g} runs on the Ampere kernel here (this context has no hgemm_bf16_tn), which has no schedules"
                    ),
                });
            }
            if g.is_fused() || bias.is_some() {
                return Err(Error::Unsupported(format!(
                    "{g}: the fused epilogue (bias, activation) is the Hopper kernel's (sm_90a); the Ampere kernel has none"
                )));
            }
            return self.hgemm_sm80(stream, g, a, b, c);
        }
        self.check_stream(stream)?;
        self.check_buffer("buffer A", a)?;
        self.check_buffer("buffer B", b)?;
        self.check_buffer("buffer C", c)?;
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        hgemm_check(g, (a.len(), b.len(), c.len()), (pa, pb))?;
        if g.is_fused() && (T::NAME != "bf16" || O::NAME != "bf16") {
            return Err(Error::Unsupported(format!(
                "{g}: the fused epilogue (bias, activation) is bf16 -> bf16 only, not {} -> {}",
                T::NAME,
                O::NAME
            )));
        }
        let (pbias, _rbias) = match (g.bias, bias) {
            (BiasMode::None, None) => (0, None),
            (BiasMode::None, Some(_)) => {
                return Err(Error::Unsupported(
                    "a bias buffer for a GemmConfig without a bias (GemmConfig::bias)".into(),
                ));
            }
            (_, None) => {
                return Err(Error::Unsupported(format!(
                    "{g}: the bias vector is missing"
                )));
            }
            (_, Some(v)) => {
                self.check_buffer("the bias", v)?;
                if v.len() < g.bias_len() {
                    return Err(Error::BufferTooSmall {
                        name: "bias",
                        len: v.len(),
                        needed: g.bias_len(),
                    });
                }
                let (p, r) = v.device_ptr(stream);
                (p, Some(r))
            }
        };
        let entry = if g.is_fused() {
            HgemmKernel::fused_entry(g.act)
        } else {
            HgemmKernel::entry::<T>(g.transa, g.transb)
        };
        match self.hgemm_schedule(g) {
            HgemmSchedule::Cooperative => self.hgemm_launch(stream, g, &entry, (pa, pb), c, pbias),
            s @ (HgemmSchedule::Pingpong
            | HgemmSchedule::Pingpong128
            | HgemmSchedule::Cooperative4
            | HgemmSchedule::Pingpong64
            | HgemmSchedule::Cooperative192) => {
                let entry = s.entry(&entry);
                if !self.has_kernel(&entry) {
                    // an override asked for a measuring entry this build may not have; else the
                    // plan's entry is missing from the loaded modules (a module cut to fewer
                    // entries through `LoadOptions::ptx_dir`, say)
                    return Err(match self.overrides().hgemm_schedule {
                        Some(_) => s.not_built(&entry),
                        None => self
                            .require_kernel(&entry)
                            .err()
                            .unwrap_or_else(|| s.not_built(&entry)),
                    });
                }
                self.hgemm_launch_with(stream, g, &entry, (pa, pb), c, pbias, &s.variant())
            }
        }
    }

    /// The kernel schedule of the Hopper GEMM of `g` on this context: the override
    /// ([`Overrides::hgemm_schedule`](crate::Overrides::hgemm_schedule)) or
    /// [`HgemmSchedule::for_problem`] (a fused `g` as a plain one: every schedule it picks has the
    /// fused entries).
    ///
    /// ```no_run
    /// use host::{GemmConfig, hgemm::HgemmSchedule};
    /// let ctx = host::Context::new(0)?;
    /// // skinny K takes the 128×128 ping-pong kernel (unless CUTE_RS_HGEMM_SCHEDULE says otherwise)
    /// assert_eq!(ctx.hgemm_schedule(&GemmConfig::new(4096, 4096, 256)), HgemmSchedule::Pingpong128);
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn hgemm_schedule(&self, g: &GemmConfig) -> HgemmSchedule {
        self.overrides().hgemm_schedule.unwrap_or_else(|| {
            HgemmSchedule::for_problem((g.m, g.n, g.k), self.device().sms as usize)
        })
    }

    /// Launches the Hopper GEMM's entry `entry` on operands already checked
    /// ([`hgemm_check`], buffers of this context): A at `pa` and B at `pb` as `g` describes them
    /// in 16-bit elements, C, the bias at `pbias` (0: none). [`Context::hgemm_fused`]'s launch,
    /// shared with [`Context::gemm_fp8`] (which describes its 8-bit operands as pairs).
    pub(crate) fn hgemm_launch<O: GemmOut, C: DevicePtrMut<O>>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        entry: &str,
        (pa, pb): (u64, u64),
        c: &mut C,
        pbias: u64,
    ) -> Result<()> {
        let v = HgemmVariant::COOPERATIVE;
        self.hgemm_launch_with(stream, g, entry, (pa, pb), c, pbias, &v)
    }

    /// [`Self::hgemm_launch`] of the kernel variant `v` (the promoted FP8 entry's tile, shared
    /// memory, epilogue path and block scales).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hgemm_launch_with<O: GemmOut, C: DevicePtrMut<O>>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        entry: &str,
        (pa, pb): (u64, u64),
        c: &mut C,
        pbias: u64,
        v: &HgemmVariant,
    ) -> Result<()> {
        let (pc, _rc) = c.device_ptr_mut(stream);
        // SAFETY: `c` is the caller's buffer of C, held (and its write recorded) until the
        // launch is queued
        unsafe { self.hgemm_launch_at::<O>(stream, g, entry, (pa, pb), pc, pbias, v, None) }
            .map(|_| ())
    }

    /// [`Self::hgemm_launch_with`] on C at device address `pc` (`Context::gemm_fp8_scaled`'s
    /// column blocks of one D); with `beside`, a split-K launch whose first clusters take the
    /// SMs the kernel queued ahead of it leaves idle in its last wave ([`HgemmBeside`]). What
    /// the grid leaves idle in its own last wave comes back ([`HgemmLaunched`]).
    ///
    /// # Safety
    ///
    /// `pc` is the address of a live buffer of this context that holds C (`g.m × g.n` elements
    /// `O`, leading dimension `g.ldc`), kept alive and unused by other work until the launch
    /// is queued on `stream` (the caller holds its `device_ptr_mut` guard).
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn hgemm_launch_at<O: GemmOut>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        entry: &str,
        (pa, pb): (u64, u64),
        pc: u64,
        pbias: u64,
        v: &HgemmVariant,
        beside: Option<HgemmBeside>,
    ) -> Result<HgemmLaunched> {
        if g.m == 0 || g.n == 0 {
            return Ok(HgemmLaunched::default());
        }
        let sms = self.device().sms as usize;
        let plan = HgemmPlan::for_variant(g.m, g.n, g.k, v, sms).with_overrides(self.overrides());
        let direct_only = self.overrides().hgemm_direct_epilogue;
        let cs = plan.cluster as usize;
        let (bm, bn, bk) = v.tile;
        // tiles of one cluster: (bm·cs) × bn of C
        let tiles = plan.tiles((g.m, g.n), v);
        if tiles * cs > i32::MAX as usize {
            return Err(Error::GridTooLarge {
                kernel: "hgemm",
                x: tiles * cs,
                y: 1,
                z: 1,
            });
        }
        // A and B in their boxes' coordinates (`operand_tensor`); K of at least 1 keeps the
        // maps valid when K = 0 (no k-tile is loaded then).
        let k = g.k.max(1) as u64;
        let (m, n) = (g.m as u64, g.n as u64);
        let a_k_major = g.transa == Trans::T;
        let b_k_major = g.transb == Trans::N;
        let a_t = operand_tensor(pa, a_k_major, (m, k), g.lda as u64);
        let b_t = operand_tensor(pb, b_k_major, (n, k), g.ldb as u64);
        // a cluster's CTAs each load 1/cs of the tile they share (B's along M, A's along N) and
        // multicast it
        let (cm, cn) = v.cluster.shape(cs as i32);
        let tma_a =
            self.make_tma_copy(TmaOp::Load, &a_t, &operand_box(a_k_major, bm, cn as usize)?)?;
        let tma_b =
            self.make_tma_copy(TmaOp::Load, &b_t, &operand_box(b_k_major, bn, cm as usize)?)?;
        let f = self.function(entry)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            v.smem as i32,
        )?;
        let (map_a, map_b) = (TmaParam(tma_a.desc.0), TmaParam(tma_b.desc.0));
        // the epilogue: TMA stores (a tensor map of C) or direct stores (the map unused)
        let (map_c, out) = match hgemm_epilogue::<O>(g, pc) {
            HgemmEpilogue::Tma(plan) if !direct_only && v.tma_epilogue => {
                let tma_c = self.encode_tma(&c_tensor::<O>(g, pc), plan)?;
                let edge = if (g.m * size_of::<O>()).is_multiple_of(16) {
                    HgemmKernel::OUT_TMA_EDGE
                } else {
                    0
                };
                (
                    TmaParam(tma_c.desc.0),
                    O::CODE | HgemmKernel::OUT_TMA | edge,
                )
            }
            _ => (TmaParam([0; 16]), O::CODE),
        };
        let mut launch = ClusterLaunch::new(
            (tiles * cs) as u32,
            HgemmKernel::THREADS,
            v.smem as u32,
            plan.cluster,
            stream,
        );
        self.cuda_context().bind_to_thread()?;
        let mut grid = HgemmGrid {
            clusters: tiles,
            workspace: false,
        };
        if plan.persistent {
            // as many clusters as can be resident at once (the shared memory allows one CTA
            // per SM; GPCs may leave some SMs out of clusters), dealing out the tiles
            let mut resident = self.resident_clusters(&f, &launch.cfg, plan.cluster)?;
            if let Some(sms) = plan.max_sms {
                // for measuring: fewer SMs (fast.cu's 128 of 132), whole clusters
                resident = resident.min((sms as usize / cs).max(1));
            }
            grid = plan.grid((g.m, g.n, g.k), v, resident);
            launch.cfg.gridDimX = (grid.clusters * cs) as u32;
        }
        // programmatically dependent on the kernel before it in the stream (the kernel waits
        // for it before touching global memory): its prologue runs under that kernel's tail
        let launch = launch.programmatic(!self.overrides().serial_launches);
        // the stream-K workspace for the persistent grid's clusters (all resident at once, as
        // the reduction requires)
        let workspace = if grid.workspace {
            self.stream_k_workspace(stream, config::stream_k_workspace_bytes(grid.clusters))?
        } else {
            0
        };
        // the tile scheduler's parameters (CUTLASS's `TileScheduler::Params`): C tiled by the
        // variant's tile, M by the cluster, this grid's clusters, the order's band; a Hilbert
        // order's table of this grid of cluster tiles; the split and its workspace
        let band = match plan.raster {
            HgemmRaster::Swizzle(band) => band,
            HgemmRaster::Hilbert => 1,
        };
        let no_scheduler = || Error::Unsupported(format!("hgemm: no tile scheduler for {g:?}"));
        let dp = config::PersistentTileSchedulerParams::new(
            (g.m as i32, g.n as i32),
            (bm as i32, bn as i32),
            (cm, cn),
            grid.clusters as i32,
            band,
        )
        .ok_or_else(no_scheduler)?;
        let dp = match plan.raster {
            HgemmRaster::Hilbert if plan.persistent => {
                let (m_tiles, n_tiles) = dp.tiles_mn();
                let table = self.hgemm_tile_order(stream, m_tiles as usize, n_tiles as usize)?;
                // SAFETY: the context keeps the table of this grid of cluster tiles (one pair
                // per tile, every tile once) alive beyond the launch
                unsafe { dp.with_table(table) }
            }
            _ => dp,
        };
        let sched = config::StreamKParams::new(
            dp,
            g.k.div_ceil(bk) as i32,
            cs as i32,
            workspace,
            v.scheduler.split_k,
        )
        .ok_or_else(no_scheduler)?;
        // beside the kernel ahead: its idle SMs' clusters lead (split-K only; else as it was)
        let sched = match beside {
            Some(b) if grid.workspace && !self.overrides().serial_launches => sched
                .beside((b.idle_sms / cs) as i32, b.k_tiles as i32)
                .unwrap_or(sched),
            _ => sched,
        };
        // what this grid's last wave leaves idle: the clusters without a tile in it, for a
        // whole tile's k-tiles
        let launched = {
            let (tiles, clusters) = (tiles, grid.clusters.max(1));
            let busy = tiles % clusters;
            HgemmLaunched {
                idle_sms: if sched.sk_tiles() > 0 || busy == 0 {
                    0
                } else {
                    (clusters - busy) * cs
                },
                k_tiles: g.k.div_ceil(bk),
            }
        };
        // the kernel's parameter struct (validated: sizes and ldc < 2^31)
        let p = config::HgemmParams {
            m: g.m as i32,
            n: g.n as i32,
            k: g.k as i32,
            alpha: g.alpha,
            beta: g.beta,
            out,
            c: pc,
            ldc: g.ldc as i64,
            bias: pbias,
            bias_mode: g.bias as u32,
            act: g.act as u32,
            sched,
            scale_a: v.scales.0,
            scale_b: v.scales.1,
            scale_m: v.product_scales.0,
            scale_n: v.product_scales.1,
        };
        if v.scale_maps != ScaleMaps::No {
            let (map_sa, map_sb) = self.fp8_scale_maps(g, v.scales, v.tile.0, v.scale_maps)?;
            let mut params: [*mut c_void; 6] = [
                (&raw const map_a) as *mut c_void,
                (&raw const map_b) as *mut c_void,
                (&raw const map_c) as *mut c_void,
                (&raw const map_sa) as *mut c_void,
                (&raw const map_sb) as *mut c_void,
                (&raw const p) as *mut c_void,
            ];
            // SAFETY: as below, the signature (CUtensorMap A, B, C, A's scales, B's scales,
            // config::HgemmParams); the scale maps describe the caller's checked block scales
            // (`Context::gemm_fp8_scaled`) with the kernel's boxes
            return unsafe { launch.launch(&f, &mut params) }.map(|()| launched);
        }
        let mut params: [*mut c_void; 4] = [
            (&raw const map_a) as *mut c_void,
            (&raw const map_b) as *mut c_void,
            (&raw const map_c) as *mut c_void,
            (&raw const p) as *mut c_void,
        ];
        // SAFETY: the signature is (CUtensorMap A, B, C, config::HgemmParams) — the struct is
        // the kernel's own type; the maps describe the checked A and B with the kernel's boxes (B's
        // split over the cluster) and, with OUT_TMA in `out`, C with the epilogue's
        // box; C holds (M,N) with leading dimension ldc of `O` (validated); a 1-D grid of whole
        // clusters of `cs` CTAs that deal out the cluster tiles among themselves; the shared
        // memory is the kernel's.
        unsafe { launch.launch(&f, &mut params) }.map(|()| launched)
    }

    /// The tensor maps of the FP8 block scales at `(sa, sb)` for the staged entries
    /// ([`ScaleMaps`]): A's `(M, ⌈K/128⌉)` column-major, with [`ScaleMaps::KBlock`] a 1-D tensor
    /// of `M·⌈K/128⌉` elements (boxes of the entry's `tile_rows`: a tile's rows of one k-block;
    /// 1-D, so that no stride need be a multiple of 16 bytes), with
    /// [`ScaleMaps::FourKBlocks`] 2-D with boxes of `tile_rows` × 4 k-blocks (M a multiple of
    /// 4: its stride a multiple of 16 bytes, as the entry's `takes` says); B's `(⌈N/128⌉,
    /// ⌈K/128⌉)` row-major as a 1-D tensor, boxes of 4: TMA's 16 bytes, the first the block's
    /// scale. Out-of-bounds elements read as 0.
    /// `g` is the launch's problem in 16-bit units (`GemmFp8Config::as_pairs`: a k-block of 128
    /// FP8 elements is one k-tile of `config::TILE_FP8.2`).
    fn fp8_scale_maps(
        &self,
        g: &GemmConfig,
        (sa, sb): (u64, u64),
        tile_rows: usize,
        maps: ScaleMaps,
    ) -> Result<(TmaParam, TmaParam)> {
        let kb = g.k.div_ceil(config::TILE_FP8.2).max(1) as u64;
        let (m, lb) = (g.m as u64, g.n.div_ceil(128) as u64 * kb);
        let a = if maps == ScaleMaps::FourKBlocks {
            self.make_tma_copy(
                TmaOp::Load,
                &GmemTensor::new::<f32>(sa, &[m, kb], &[1, m]),
                &fp8_scale_box_a4(tile_rows)?,
            )?
        } else {
            self.make_tma_copy(
                TmaOp::Load,
                &GmemTensor::new::<f32>(sa, &[m * kb], &[1]),
                &fp8_scale_box_a(tile_rows)?,
            )?
        };
        let b = self.make_tma_copy(
            TmaOp::Load,
            &GmemTensor::new::<f32>(sb, &[lb], &[1]),
            &tma_box::<ScaleBoxB>()?,
        )?;
        Ok((TmaParam(a.desc.0), TmaParam(b.desc.0)))
    }

    /// The device address of the Hilbert-order table of `m_tiles × n_tiles` cluster tiles
    /// ([`HgemmRaster::hilbert_table`]; built on its first use and kept by the context).
    fn hgemm_tile_order(&self, stream: &CudaStream, m_tiles: usize, n_tiles: usize) -> Result<u64> {
        let mut orders = self
            .hgemm_tile_orders
            .lock()
            .map_err(|_| Error::Unsupported("hgemm: a poisoned tile-order cache".into()))?;
        let buf = match orders.entry((m_tiles, n_tiles)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let table: Vec<i32> = HgemmRaster::hilbert_table(m_tiles, n_tiles)
                    .into_iter()
                    .flatten()
                    .collect();
                // copied on the default stream and waited for (once per grid of tiles)
                let s = self.default_stream();
                let buf = s.clone_htod(&table)?;
                s.synchronize()?;
                e.insert(buf)
            }
        };
        let (p, _r) = buf.device_ptr(stream);
        Ok(p)
    }

    /// The clusters of `cluster` CTAs of the hgemm kernel that fit on the device at once
    /// (`cuOccupancyMaxActiveClusters`, once per device and cluster size).
    fn resident_clusters(
        &self,
        f: &cudarc::driver::CudaFunction,
        cfg: &sys::CUlaunchConfig,
        cluster: u32,
    ) -> Result<usize> {
        // (device, cluster size, dynamic shared memory) → clusters
        type Key = (usize, u32, u32);
        static CACHE: OnceLock<Mutex<HashMap<Key, usize>>> = OnceLock::new();
        let key = (self.device().ordinal, cluster, cfg.sharedMemBytes);
        let cache = CACHE.get_or_init(Default::default);
        if let Some(&n) = cache
            .lock()
            .map_err(|_| Error::Unsupported("hgemm: a poisoned cache".into()))?
            .get(&key)
        {
            return Ok(n);
        }
        let mut n: std::ffi::c_int = 0;
        // SAFETY: `cfg` is a complete launch configuration of `f` (cluster attribute included).
        unsafe { sys::cuOccupancyMaxActiveClusters(&mut n, f.cu_function(), cfg) }.result()?;
        // a failed or empty answer: one cluster per `cluster` SMs
        let n = if n > 0 {
            n as usize
        } else {
            (self.device().sms / cluster).max(1) as usize
        };
        cache
            .lock()
            .map_err(|_| Error::Unsupported("hgemm: a poisoned cache".into()))?
            .insert(key, n);
        Ok(n)
    }
}

/// What differs at launch between the Hopper GEMM's kernel variants: the CTA tile (of the
/// 16-bit elements the launch describes), the dynamic shared memory, whether the epilogue may
/// take its TMA path, the FP8 block scales' device addresses (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgemmVariant {
    pub(crate) tile: (usize, usize, usize),
    pub(crate) smem: usize,
    pub(crate) tma_epilogue: bool,
    pub(crate) scales: (u64, u64),
    /// The fused epilogue's per-row and per-column scale vectors' device addresses (0: none;
    /// `HgemmParams::scale_m` / `scale_n`, read by the fused FP8 entries).
    pub(crate) product_scales: (u64, u64),
    /// Whether the block scales (`scales`) go to the kernel as two tensor maps after C's (the
    /// entries that load them by TMA, `Fp8BlockEntry`), and A's boxes ([`ScaleMaps`]).
    pub(crate) scale_maps: ScaleMaps,
    /// What the entry's tile scheduler does besides whole tiles (a stream-K tail: a workspace
    /// when the tiles leave the last wave part-empty; split-K: more clusters than tiles), the
    /// kernel's own [`config::SchedulerKind`] of that entry.
    pub(crate) scheduler: config::SchedulerKind,
    /// Along which mode the entry's clusters lie ([`config::ClusterAxis`]: the kernel's
    /// `ClusterM` or `ClusterN`), and so which operand's TMA box is `1/cs` of its tile.
    pub(crate) cluster: config::ClusterAxis,
    /// Where the launch pairs CTAs into clusters of 2 along `cluster`
    /// ([`HgemmPlan::for_variant`]).
    pub(crate) cluster_pairs: ClusterPairs,
    /// The persistent tile order's band of N-tiles ([`HgemmRaster::Swizzle`]) unless
    /// `CUTE_RS_HGEMM_SWIZZLE` says otherwise: [`config::SWIZZLE`], or
    /// [`config::SWIZZLE_FP8_N128`] for the promoted per-tensor 128×128 tiles.
    pub(crate) band: i32,
}

/// How an entry's FP8 block scales reach it ([`HgemmVariant::scale_maps`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScaleMaps {
    /// Through the parameters' pointers (`scale_a`, `scale_b`), or none.
    No,
    /// Two tensor maps of `f32` after C's: A's 1-D `M·⌈K/128⌉` with boxes of the tile's rows
    /// of one k-block ([`ScaleBoxA`]), B's 1-D `⌈N/128⌉·⌈K/128⌉` with boxes of 4
    /// ([`ScaleBoxB`]): the entries that load a k-tile's scales with its stage.
    KBlock,
    /// As [`KBlock`](Self::KBlock) but A's map 2-D, `(M, ⌈K/128⌉):(1, M)`, with boxes of the
    /// tile's rows of four k-blocks ([`ScaleBoxA4`]: the entry that loads them with one stage
    /// in four).
    FourKBlocks,
}

/// Where a variant's launches pair CTAs into clusters of 2 along its clusters' mode
/// ([`HgemmPlan::for_variant`]). Over an odd count of tiles along that mode, the last cluster
/// row's second CTA has no rows and computes zeros, and the kernels differ in what that costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterPairs {
    /// Wherever there are two tiles along the mode (the ping-pong tiles: not measured
    /// otherwise).
    Always,
    /// Only where the tiles pair up ([`HgemmPlan::pairs`]): the 128-row FP8 kernels.
    Even,
    /// Unless the half-empty cluster row makes the launch a wave longer
    /// ([`HgemmPlan::pairs_within_waves`]): the cooperative 128×256 kernel.
    WithinWaves,
}

impl HgemmVariant {
    /// The cooperative 128×256 kernel of every 16-bit entry and the fast-accumulation FP8 ones.
    pub const COOPERATIVE: HgemmVariant = HgemmVariant {
        tile: config::TILE,
        smem: config::SMEM_BYTES,
        tma_epilogue: true,
        scales: (0, 0),
        product_scales: (0, 0),
        scale_maps: ScaleMaps::No,
        scheduler: config::SCHEDULER,
        cluster: config::ClusterAxis::M,
        cluster_pairs: ClusterPairs::WithinWaves,
        band: config::SWIZZLE,
    };
    /// The ping-pong entries: 64×256 tiles (A's TMA box of 64 rows), 4 stages.
    ///
    /// ```
    /// use host::hgemm::config;
    /// // 4 stages of a 64×64 A and a 256×64 B tile, the epilogue's 64 KiB, the barriers
    /// assert_eq!(config::SMEM_BYTES_PINGPONG, 4 * (64 + 256) * 64 * 2 + 64 * 1024 + 1024);
    /// assert!(config::SMEM_BYTES_PINGPONG <= 227 * 1024); // an H100's opt-in maximum
    /// ```
    pub(crate) const PINGPONG: HgemmVariant = HgemmVariant {
        tile: config::TILE_PINGPONG,
        smem: config::SMEM_BYTES_PINGPONG,
        tma_epilogue: true,
        scales: (0, 0),
        product_scales: (0, 0),
        scale_maps: ScaleMaps::No,
        scheduler: config::SCHEDULER_PINGPONG,
        cluster: config::ClusterAxis::M,
        cluster_pairs: ClusterPairs::Always,
        band: config::SWIZZLE,
    };
    /// The 128×128 ping-pong entries: A's TMA box of 128 rows, B's of 128 over the cluster,
    /// 5 stages.
    ///
    /// ```
    /// use host::hgemm::config;
    /// // 5 stages of a 128×64 A and a 128×64 B tile, the epilogue's 64 KiB, the barriers
    /// assert_eq!(config::SMEM_BYTES_PINGPONG_128, 5 * (128 + 128) * 64 * 2 + 64 * 1024 + 1024);
    /// assert!(config::SMEM_BYTES_PINGPONG_128 <= 227 * 1024);
    /// ```
    pub(crate) const PINGPONG_128: HgemmVariant = HgemmVariant {
        tile: config::TILE_PINGPONG_128,
        smem: config::SMEM_BYTES_PINGPONG_128,
        tma_epilogue: true,
        scales: (0, 0),
        product_scales: (0, 0),
        scale_maps: ScaleMaps::No,
        scheduler: config::SCHEDULER_PINGPONG,
        cluster: config::ClusterAxis::M,
        cluster_pairs: ClusterPairs::Always,
        band: config::SWIZZLE,
    };
    /// The fast-accumulation FP8 entries: the cooperative 128×256 kernel's launch (its
    /// `Scheduler`: stream-K, and split-K for small M).
    pub const FP8_FAST: HgemmVariant = HgemmVariant::COOPERATIVE;
    /// The promoted FP8 entry: 128×128 tiles, the direct epilogue, block scales `scales`,
    /// data-parallel (the block-scale entry's `DataParallelFp8`).
    pub(crate) const fn fp8_promoted(scales: (u64, u64)) -> HgemmVariant {
        HgemmVariant {
            tile: config::TILE_FP8,
            smem: config::SMEM_BYTES_FP8,
            tma_epilogue: false,
            scales,
            product_scales: (0, 0),
            scale_maps: ScaleMaps::No,
            scheduler: config::SCHEDULER_FP8_BLOCK,
            cluster: config::ClusterAxis::M,
            cluster_pairs: ClusterPairs::Even,
            band: config::SWIZZLE,
        }
    }
    /// The promoted per-tensor FP8 kernel on 128×128 tiles (`SchedulerFp8Promoted`: the fused
    /// entries', `gemm_fp8_e4m3_tn_promoted_pt`): split-K for small M, else data-parallel (the
    /// plain per-tensor launches: `Fp8PromotedTile::PER_TENSOR`'s variant).
    pub const FP8_PROMOTED_PER_TENSOR: HgemmVariant = HgemmVariant {
        scheduler: config::SCHEDULER_FP8_PROMOTED,
        ..HgemmVariant::fp8_promoted((0, 0))
    };
}

/// Cluster tiles against the clusters `sms` SMs hold: the waves the launch rules weigh
/// ([`HgemmPlan::pairs_within_waves`], the FP8 tile rules through [`Waves::of`]).
pub(crate) struct Waves {
    pub(crate) tiles: usize,
    pub(crate) resident: usize,
    pub(crate) cluster: usize,
}

impl Waves {
    /// `tiles` cluster tiles of clusters of `cluster` CTAs on `sms` SMs.
    fn new(tiles: usize, sms: usize, cluster: usize) -> Waves {
        Waves {
            tiles,
            resident: (sms / cluster).max(1),
            cluster,
        }
    }
    /// Variant `v`'s cluster tiles of problem `(m, n, k)` with [`HgemmPlan::for_variant`]'s
    /// clusters.
    pub(crate) fn of((m, n, k): (usize, usize, usize), v: &HgemmVariant, sms: usize) -> Waves {
        let plan = HgemmPlan::for_variant(m, n, k, v, sms);
        Waves::new(plan.tiles((m, n), v), sms, plan.cluster as usize)
    }
    /// The waves the tiles take (at least one).
    pub(crate) fn rounds(&self) -> usize {
        self.tiles.div_ceil(self.resident).max(1)
    }
    /// Whether the tiles fit one wave.
    pub(crate) fn one(&self) -> bool {
        self.tiles <= self.resident
    }
    /// The tiles over the clusters of all the waves they take, whole.
    pub(crate) fn fill(&self) -> f64 {
        self.tiles as f64 / (self.rounds() * self.resident) as f64
    }
}

/// How [`Context::hgemm`] launches a problem: the cluster size along M (1, or 2: the two CTAs
/// share B's tile, each loading half of it and multicasting it into both) and whether the CTAs
/// persist (as many clusters as fit on the device at once, dealing out the tiles) or take one
/// tile each.
///
/// Chosen by size ([`HgemmPlan::by_size`]); a context's [`Overrides`] replace the choices for
/// measuring ([`HgemmPlan::with_overrides`]; in the CLI `CUTE_RS_HGEMM_CLUSTER=1|2`,
/// `CUTE_RS_HGEMM_PERSISTENT=0|1`, `CUTE_RS_HGEMM_SMS=128` (fast.cu's 128 SMs),
/// `CUTE_RS_HGEMM_SWIZZLE=1|2|4|8|16|32` (the tile order's band of N-tiles),
/// `CUTE_RS_HGEMM_STREAMK=0` (no stream-K tail, no split-K)).
///
/// ```
/// use host::hgemm::HgemmPlan;
/// let p = HgemmPlan::by_size(4096, 4096, 4096);
/// assert_eq!((p.cluster, p.persistent), (2, true));
/// assert_eq!(HgemmPlan::by_size(100, 4096, 4096).cluster, 1); // one M-tile: nothing to share
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgemmPlan {
    /// CTAs per cluster along M: 1 or 2.
    pub cluster: u32,
    /// Persistent CTAs (else one CTA per tile).
    pub persistent: bool,
    /// At most this many SMs run persistent CTAs (`None`: all that fit).
    pub max_sms: Option<u32>,
    /// The order of the cluster tiles: bands of `config::SWIZZLE` N-tiles, or of the variant's
    /// band ([`HgemmPlan::for_variant`]: 16 for the promoted per-tensor FP8 128×128 tiles).
    pub raster: HgemmRaster,
    /// A persistent grid shares the tiles of a part-empty last wave out by k-tiles where the
    /// entry's scheduler kind takes it (`SchedulerKind::tail_fill`: the cooperative entries for a
    /// last wave at most a quarter full from 32 k-tiles, any below; stream-K, the kernel's
    /// `StreamKScheduler`, through a workspace the context keeps per stream); with
    /// the split-K entries (the cooperative 128×256 and the promoted FP8 ones), fewer tiles than
    /// clusters split over more clusters (split-K,
    /// [`HgemmPlan::grid`]).
    pub stream_k: bool,
    /// Whether a data-parallel persistent grid takes only as many clusters as its waves need
    /// (`tiles.div_ceil(waves)`: the same number of waves, none part-empty but the last by a
    /// tile at most, fewer SMs loading at once; [`HgemmPlan::grid`]): `None`, as the entry's
    /// scheduler kind says (`SchedulerKind::balance`: the cooperative entries); `Some`, for
    /// every kind (measuring).
    pub balance: Option<bool>,
}

impl HgemmPlan {
    /// The plan by size alone: a cluster of 2 whenever there are at least two M-tiles, persistent.
    ///
    /// ```
    /// assert_eq!(host::hgemm::HgemmPlan::by_size(256, 256, 64).cluster, 2);
    /// ```
    pub fn by_size(m: usize, _n: usize, _k: usize) -> HgemmPlan {
        let (bm, _, _) = HgemmKernel::TILE;
        HgemmPlan {
            cluster: if m > bm { 2 } else { 1 },
            persistent: true,
            max_sms: None,
            raster: HgemmRaster::Swizzle(config::SWIZZLE),
            stream_k: true,
            balance: None,
        }
    }
    /// This plan with a context's [`Overrides`] (cluster, persistence, SMs, tile order, stream-K)
    /// in place of the planned choices.
    ///
    /// ```
    /// use host::{Overrides, hgemm::HgemmPlan};
    /// let o = Overrides { hgemm_cluster: Some(1), ..Overrides::default() };
    /// assert_eq!(HgemmPlan::by_size(4096, 4096, 4096).with_overrides(&o).cluster, 1);
    /// ```
    pub fn with_overrides(mut self, o: &Overrides) -> HgemmPlan {
        self.cluster = o.hgemm_cluster.unwrap_or(self.cluster);
        self.persistent = o.hgemm_persistent.unwrap_or(self.persistent);
        self.max_sms = o.hgemm_max_sms.or(self.max_sms);
        self.raster = o.hgemm_swizzle.unwrap_or(self.raster);
        self.stream_k = o.hgemm_stream_k.unwrap_or(self.stream_k);
        self.balance = o.hgemm_balance.or(self.balance);
        self
    }
    /// The plan of [`by_size`](Self::by_size) for the kernel variant `v` on `sms` SMs: a
    /// cluster of 2 where there are at least two tiles along the clusters' mode (`v.cluster`:
    /// along M, the variant's tile M, 64 rows for the small-M FP8 tile; along N, its tile N)
    /// and the variant's [`ClusterPairs`] rule pairs them.
    ///
    /// ```
    /// use host::hgemm::{Fp8PromotedTile, HgemmPlan};
    /// let v = Fp8PromotedTile::N192TmaClusterN.variant();
    /// assert_eq!(HgemmPlan::for_variant(128, 7168, 8192, &v, 132).cluster, 2);
    /// assert_eq!(HgemmPlan::for_variant(128, 192, 8192, &v, 132).cluster, 1);
    /// let v = Fp8PromotedTile::Pp64.variant();
    /// assert_eq!(HgemmPlan::for_variant(128, 7168, 8192, &v, 132).cluster, 2);
    /// assert_eq!(HgemmPlan::for_variant(64, 7168, 8192, &v, 132).cluster, 1);
    /// // three M-tiles of 128 rows: no pair of clusters ([`HgemmPlan::pairs`]) for FP8
    /// let v = Fp8PromotedTile::N128Tma6.variant();
    /// assert_eq!(HgemmPlan::for_variant(384, 7168, 8192, &v, 132).cluster, 1);
    /// assert_eq!(HgemmPlan::for_variant(512, 7168, 8192, &v, 132).cluster, 2);
    /// // the 16-bit kernel's: pairs unless they add a wave ([`HgemmPlan::pairs_within_waves`])
    /// let v = host::hgemm::HgemmVariant::COOPERATIVE;
    /// assert_eq!(HgemmPlan::for_variant(384, 7168, 8192, &v, 132).cluster, 2);
    /// assert_eq!(HgemmPlan::for_variant(1152, 7168, 4096, &v, 132).cluster, 1);
    /// ```
    pub fn for_variant(m: usize, n: usize, k: usize, v: &HgemmVariant, sms: usize) -> HgemmPlan {
        let plan = HgemmPlan::by_size(m, n, k);
        let (tm, tn) = (m.div_ceil(v.tile.0), n.div_ceil(v.tile.1));
        let (tiles, across) = match v.cluster {
            config::ClusterAxis::M => (tm, tn),
            config::ClusterAxis::N => (tn, tm),
        };
        let cluster = match v.cluster_pairs {
            _ if tiles < 2 => 1,
            ClusterPairs::Always => 2,
            ClusterPairs::Even => HgemmPlan::pairs(tiles),
            ClusterPairs::WithinWaves => HgemmPlan::pairs_within_waves(tiles, across, sms),
        };
        HgemmPlan {
            cluster,
            raster: HgemmRaster::Swizzle(v.band),
            ..plan
        }
    }
    /// The cluster size for `tiles` tiles along the clusters' mode, `across` tiles along the
    /// other, on `sms` SMs: 2 unless the tiles are odd and their clusters of 2 (the last row
    /// half empty) take more waves of `sms / 2` clusters than the tiles alone take of `sms`.
    /// The cooperative 16-bit kernel's rule (its stream-K tail or its balanced waves absorb a
    /// part-empty last wave, so what pairs cost is a whole wave more; measured on an H200,
    /// bf16 "TN", ours / cuBLAS, clusters of 2 against 1 (runs s28c, s29c): 1152×7168×4096, 9 × 28 tiles, 3 waves
    /// of pairs against 2: 0.85–0.88 against 0.99–1.04; 640×7168×8192 (2 waves either way)
    /// 0.77 against 0.59–0.63; 384×7168×8192 (1) 0.78–0.79 against 0.58–0.63; 896×4096×8192
    /// (1) level).
    ///
    /// ```
    /// use host::hgemm::HgemmPlan;
    /// assert_eq!(HgemmPlan::pairs_within_waves(9, 28, 132), 1); // 140 pairs: 3 waves of 66
    /// assert_eq!(HgemmPlan::pairs_within_waves(5, 28, 132), 2); // 84 pairs, 140 tiles: 2 and 2
    /// assert_eq!(HgemmPlan::pairs_within_waves(8, 28, 132), 2); // an even count
    /// assert_eq!(HgemmPlan::pairs_within_waves(1, 28, 132), 1);
    /// ```
    pub fn pairs_within_waves(tiles: usize, across: usize, sms: usize) -> u32 {
        if tiles < 2 {
            return 1;
        }
        if tiles.is_multiple_of(2) {
            return 2;
        }
        let paired = Waves::new(tiles.div_ceil(2) * across, sms, 2);
        let alone = Waves::new(tiles * across, sms, 1);
        if paired.rounds() <= alone.rounds() {
            2
        } else {
            1
        }
    }
    /// The most tiles along the clusters' mode, when odd, that run without clusters
    /// ([`pairs`](Self::pairs)): from 17 the one half-empty cluster row is under 3 % of the
    /// tiles (not measured there: clusters as before).
    pub const UNPAIRED_MAX_TILES: usize = 15;
    /// The cluster size for `tiles` tiles along the clusters' mode: 2 where they pair up (an
    /// even count) or are more than [`UNPAIRED_MAX_TILES`](Self::UNPAIRED_MAX_TILES), else 1.
    /// Pairs of CTAs along M over an odd count of M-tiles leave the last cluster row's second
    /// CTA without rows, computing zeros. H200, FP8 per-tensor, ours / cuBLASLt in the same
    /// process, two rounds each, main's launch (clusters of 2) → pairs with the tile
    /// [`Fp8PromotedTile::for_problem`](crate::hgemm::Fp8PromotedTile::for_problem) picks then
    /// (session 28, run s28c): 384×7168×8192 0.66 → 0.99, 640×7168×8192 0.71–0.73 → 0.84,
    /// 896×4096×8192 0.77–0.78 → 0.91, 384×4096×8192 0.64–0.65 → 0.81, 1152×7168×4096 0.89 →
    /// 0.98; at an even count (512×7168×8192, run s28b) cluster 1 loses 2–4 % (0.98–1.00 →
    /// 0.96). The variants that ask for it: `HgemmVariant::cluster_pairs`.
    ///
    /// ```
    /// use host::hgemm::HgemmPlan;
    /// assert_eq!(HgemmPlan::pairs(1), 1);
    /// assert_eq!(HgemmPlan::pairs(2), 2);
    /// assert_eq!(HgemmPlan::pairs(3), 1); // 384 rows of 128
    /// assert_eq!(HgemmPlan::pairs(15), 1);
    /// assert_eq!(HgemmPlan::pairs(17), 2);
    /// ```
    pub const fn pairs(tiles: usize) -> u32 {
        if tiles >= 2 && (tiles.is_multiple_of(2) || tiles > HgemmPlan::UNPAIRED_MAX_TILES) {
            2
        } else {
            1
        }
    }
    /// The cluster tiles of C `(m, n)` for the kernel variant `v`: `(tile M · cluster) × tile N`
    /// with clusters along M, `tile M × (tile N · cluster)` along N.
    ///
    /// ```
    /// use host::hgemm::{Fp8PromotedTile, HgemmPlan, HgemmVariant};
    /// let plan = HgemmPlan::by_size(4096, 4096, 4096); // clusters of 2 along M
    /// // 128×256 tiles in pairs: cluster tiles of 256 × 256
    /// assert_eq!(plan.tiles((4096, 4096), &HgemmVariant::COOPERATIVE), 16 * 16);
    /// // 128×128 tiles: 256 × 128
    /// assert_eq!(plan.tiles((4096, 4096), &Fp8PromotedTile::N128Tma6.variant()), 16 * 32);
    /// ```
    pub fn tiles(&self, mn: (usize, usize), v: &HgemmVariant) -> usize {
        let (bm, bn, _) = v.tile;
        let (cm, cn) = v.cluster.shape(self.cluster as i32);
        let (tm, tn) = config::cluster_tiles(mn, (bm, bn), (cm as usize, cn as usize));
        tm * tn
    }
    /// The persistent grid of problem `(m, n, k)` (the launch's 16-bit elements) for the
    /// variant `v` with `resident` clusters fitting on the device: one cluster per tile at
    /// most; with a split-K entry (`v.scheduler.split_k`) and stream-K on, more clusters than tiles when
    /// [`config::split_k_clusters`] says so (small M: one row of tiles leaves SMs idle); the
    /// workspace whenever the kernel may split a tile. A data-parallel grid with
    /// [`balance`](Self::balance) takes only the clusters its waves need.
    ///
    /// ```
    /// use host::hgemm::{HgemmGrid, HgemmPlan, HgemmVariant};
    /// // FP8 fast 128×7168×16384 (K = 8192 pairs): 28 tiles, each split over 4 clusters
    /// let p = HgemmPlan::by_size(128, 7168, 8192);
    /// let g = p.grid((128, 7168, 8192), &HgemmVariant::FP8_FAST, 132);
    /// assert_eq!(g, HgemmGrid { clusters: 112, workspace: true });
    /// // the 16-bit entries the same (the cooperative kernel's scheduler); the ping-pong ones never split
    /// let g = p.grid((128, 7168, 8192), &HgemmVariant::COOPERATIVE, 132);
    /// assert_eq!(g, HgemmGrid { clusters: 112, workspace: true });
    /// // 8192³ bf16: 1,024 cluster tiles of 256 × 256 in 16 waves of 64 clusters (not 66)
    /// let p = HgemmPlan::by_size(8192, 8192, 8192);
    /// let g = p.grid((8192, 8192, 8192), &HgemmVariant::COOPERATIVE, 66);
    /// assert_eq!(g, HgemmGrid { clusters: 64, workspace: false });
    /// ```
    pub fn grid(
        &self,
        (m, n, k): (usize, usize, usize),
        v: &HgemmVariant,
        resident: usize,
    ) -> HgemmGrid {
        let tiles = self.tiles((m, n), v);
        let k_tiles = k.div_ceil(v.tile.2);
        let split = if self.stream_k && v.scheduler.split_k {
            config::split_k_clusters(tiles, k_tiles, resident)
        } else {
            None
        };
        match split {
            Some(clusters) => HgemmGrid {
                clusters,
                workspace: true,
            },
            None => {
                let clusters = tiles.min(resident);
                // the last wave's clusters with a tile, against the kind's fullest for a tail
                let (num, den) = v.scheduler.tail_fill(k_tiles);
                let sparse = den * (tiles % clusters.max(1)) <= num * clusters;
                let workspace = self.stream_k && v.scheduler.stream_k && tiles > clusters && sparse;
                // data-parallel: the clusters its waves need, each wave full but the last
                // by at most one tile a cluster
                let clusters = match clusters {
                    0 => 0,
                    c if self.balance.unwrap_or(v.scheduler.balance) && !workspace => {
                        tiles.div_ceil(tiles.div_ceil(c))
                    }
                    c => c,
                };
                HgemmGrid {
                    clusters,
                    workspace,
                }
            }
        }
    }
}

/// What a launch leaves idle in its last wave ([`Context::hgemm_launch_at`]'s answer): the SMs
/// of the clusters without a tile there (0 for a whole last wave or a stream-K grid), for about
/// the time of one tile's `k_tiles`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HgemmLaunched {
    /// SMs idle in the last wave.
    pub idle_sms: usize,
    /// The k-tiles of a tile.
    pub k_tiles: usize,
}

/// A split-K launch queued behind one that leaves `idle_sms` idle for `k_tiles` of this
/// launch's k-tiles, neither reading nor writing what this one does: its first
/// `idle_sms / cs` clusters take `k_tiles` more than the others and the kernel waits for the
/// one ahead only before it exits (`config::StreamKParams::beside`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HgemmBeside {
    /// SMs the kernel ahead leaves idle in its last wave.
    pub idle_sms: usize,
    /// The lead clusters' extra k-tiles.
    pub k_tiles: usize,
}

/// A persistent launch's grid ([`HgemmPlan::grid`]): its clusters, and whether the kernel gets a
/// stream-K workspace (`config::stream_k_workspace_bytes(clusters)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgemmGrid {
    /// Clusters launched (all resident at once).
    pub clusters: usize,
    /// Whether the kernel gets a zeroed workspace (a stream-K tail or a split-K).
    pub workspace: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_the_tma_rules() {
        let g = GemmConfig::new(64, 64, 64);
        assert!(hgemm_check(&g, g.lens(), (256, 512)).is_ok());
        let e = hgemm_check(&g, g.lens(), (258, 512)).unwrap_err();
        assert!(e.to_string().contains("buffer A"), "{e}");
        let g2 = g.ldb(65);
        let e = hgemm_check(&g2, (4096, 65 * 64, 4096), (0, 0)).unwrap_err();
        assert!(e.to_string().contains("ldb=65"), "{e}");
        // validate's rules come first
        let e = hgemm_check(&g.lda(8), g.lens(), (0, 0)).unwrap_err();
        assert!(matches!(e, Error::LeadingDimension { name: "lda", .. }));
        // empty problems need nothing
        assert!(hgemm_check(&GemmConfig::new(0, 5, 7), (0, 35, 0), (3, 5)).is_ok());
    }

    /// The boxes the launches encode, the kernel's types (`operand_box`, `c_box`,
    /// `fp8_scale_box_a`, `ScaleBoxB`), plan these tensor maps on representative tensors:
    /// `(box_dim, order, swizzle, tx_bytes)`, in TMA dimension order.
    #[test]
    fn boxes_plan_the_kernels_maps() {
        use crate::tma::TmaSwizzle;
        let plan = |g: &GmemTensor, op, b: Result<ComposedLayout>| {
            plan_tma_copy(op, g, &b.unwrap()).unwrap()
        };
        let key = |p: &TmaPlan| (p.box_dim.clone(), p.order.clone(), p.swizzle, p.tx_bytes);
        let (m, k) = (1000u64, 3000u64);
        // K-major: (K, rows):(1, lda), one 64 × rows box (the per-CTA half over a cluster)
        for (rows, cluster) in OPERAND_TILES_K {
            let g = operand_tensor(0x1000, true, (m, k), k);
            let p = plan(&g, TmaOp::Load, operand_box(true, rows, cluster));
            let r = (rows / cluster) as u32;
            assert_eq!(
                key(&p),
                (vec![64, r], vec![0, 1], TmaSwizzle::B128, 64 * r * 2)
            );
            assert_eq!(
                (p.global_dim, p.global_stride_bytes),
                (vec![k, m], vec![k * 2])
            );
        }
        // MN-major: (rows, K):(1, lda), 64 × 64 boxes
        for (rows, cluster) in OPERAND_TILES_MN {
            let g = operand_tensor(0x1000, false, (m, k), m);
            let p = plan(&g, TmaOp::Load, operand_box(false, rows, cluster));
            assert_eq!(
                key(&p),
                (vec![64, 64], vec![0, 1], TmaSwizzle::B128, 64 * 64 * 2)
            );
            assert_eq!(
                (p.global_dim, p.global_stride_bytes),
                (vec![m, k], vec![m * 2])
            );
        }
        // tiles no kernel has
        assert!(operand_box(false, 64, 2).is_err());
        assert!(operand_box(true, 96, 1).is_err());
        // C's chunks: (M, N):(1, ldc), 64 × 64 of a 16-bit C, 32 × 32 of f32
        let g = GemmConfig::new(1000, 300, 64);
        let c16 = plan(&c_tensor::<bf16>(&g, 0x1000), TmaOp::Store, c_box::<bf16>());
        assert_eq!(
            key(&c16),
            (vec![64, 64], vec![0, 1], TmaSwizzle::B128, 64 * 64 * 2)
        );
        let c32 = plan(&c_tensor::<f32>(&g, 0x1000), TmaOp::Store, c_box::<f32>());
        assert_eq!(
            key(&c32),
            (vec![32, 32], vec![0, 1], TmaSwizzle::B128, 32 * 32 * 4)
        );
        // the staged FP8 entries' 1-D scale maps: A's boxes of the tile's 128 or 64 rows, B's of 4
        let g = GmemTensor::new::<f32>(0x1000, &[300 * 5], &[1]);
        for rows in [128, 64] {
            let p = plan(&g, TmaOp::Load, fp8_scale_box_a(rows));
            let r = rows as u32;
            assert_eq!(key(&p), (vec![r], vec![0], TmaSwizzle::None, r * 4));
        }
        // the four-k-block entry's 2-D map of A's: (M, KB):(1, M), boxes of 64 rows × 4
        let g4 = GmemTensor::new::<f32>(0x1000, &[300, 5], &[1, 300]);
        let p = plan(&g4, TmaOp::Load, fp8_scale_box_a4(64));
        assert_eq!(key(&p), (vec![64, 4], vec![0, 1], TmaSwizzle::None, 1024));
        assert_eq!(p.global_stride_bytes, vec![300 * 4]);
        assert!(fp8_scale_box_a4(128).is_err());
        let p = plan(&g, TmaOp::Load, tma_box::<ScaleBoxB>());
        assert_eq!(key(&p), (vec![4], vec![0], TmaSwizzle::None, 16));
        assert!(fp8_scale_box_a(192).is_err());
        assert_eq!(
            HgemmKernel::entry::<bf16>(Trans::T, Trans::N),
            "hgemm_bf16_tn"
        );
    }

    /// The operand tiles the kernels instantiate (`SmemOperand`), `(rows, cluster)`: K-major.
    const OPERAND_TILES_K: [(usize, usize); 10] = [
        (64, 1),
        (128, 1),
        (160, 1),
        (192, 1),
        (256, 1),
        (64, 2),
        (128, 2),
        (160, 2),
        (192, 2),
        (256, 2),
    ];
    /// MN-major.
    const OPERAND_TILES_MN: [(usize, usize); 7] = [
        (64, 1),
        (128, 1),
        (192, 1),
        (256, 1),
        (128, 2),
        (192, 2),
        (256, 2),
    ];

    /// The persistent grid: split-K for the small-M problems of the cooperative 128×256 and the
    /// promoted FP8 entries (more clusters than tiles, a workspace), the big shapes as before;
    /// the stream-K override off is one cluster per tile. Problems in the launch's 16-bit units (FP8 K halved);
    /// an H200's resident clusters: 132 of 1 CTA, 66 of 2.
    #[test]
    fn split_k_grids() {
        // config::split_k_clusters' examples
        assert_eq!(config::split_k_clusters(28, 128, 132), Some(112));
        assert_eq!(config::split_k_clusters(38, 128, 132), Some(114));
        assert_eq!(config::split_k_clusters(38, 128, 66), Some(66));
        assert_eq!(config::split_k_clusters(56, 128, 66), None);
        assert_eq!(config::split_k_clusters(448, 128, 66), None);
        assert_eq!(config::split_k_clusters(28, 8, 132), None);
        let (fast, pt) = (
            HgemmVariant::FP8_FAST,
            HgemmVariant::FP8_PROMOTED_PER_TENSOR,
        );
        let block = HgemmVariant::fp8_promoted((0x100, 0x200));
        // the per-tensor launches' 128×192 tiles
        let n192 = Fp8PromotedTile::PER_TENSOR.variant();
        let grid = |(m, n, k): (usize, usize, usize), v: &HgemmVariant, o: &Overrides| {
            let p = HgemmPlan::by_size(m, n, k).with_overrides(o);
            let resident = if p.cluster == 2 { 66 } else { 132 };
            let g = p.grid((m, n, k), v, resident);
            (g.clusters, g.workspace)
        };
        let on = Overrides::default();
        let off = Overrides {
            hgemm_stream_k: Some(false),
            ..Overrides::default()
        };
        // (problem, variant) → (clusters, workspace) with the plan / with stream-K off
        for ((m, n, k_fp8), v, planned, old) in [
            // FP8 128×7168×16384: one row of 28 tiles (56 of 128×128), each split in 4 (2)
            ((128, 7168, 16384), fast, (112, true), (28, false)),
            ((128, 7168, 16384), pt, (112, true), (56, false)),
            // 64×4096×8192: 16 tiles of 64 k-tiles, ranges of 8 k-tiles
            ((64, 4096, 8192), fast, (128, true), (16, false)),
            ((64, 4096, 8192), pt, (128, true), (32, false)),
            // 200×2112×7168: clusters of 2, 9 cluster tiles of 56 k-tiles
            ((200, 2112, 7168), fast, (63, true), (9, false)),
            ((200, 2112, 7168), pt, (51, true), (17, false)),
            // K = 1024: 8 k-tiles, nothing to save
            ((128, 7168, 1024), fast, (28, false), (28, false)),
            // the big shapes data-parallel, the cooperative entries' on the clusters the waves
            // need: 128×256, 448 cluster tiles (the last wave 52 of 66) in 7 waves of 64
            ((4096, 7168, 16384), fast, (64, false), (64, false)),
            // 128×128: 896 cluster tiles, the last wave 38 of 66: data-parallel on all 66
            ((4096, 7168, 16384), pt, (66, false), (66, false)),
            // 128×192: one row of 38 tiles, each split in 3; 4096×7168: 608 cluster tiles,
            // the last wave 14 of 66 (≤ 1/4): the stream-K tail; 4096³: 22 of 66, data-parallel
            ((128, 7168, 16384), n192, (114, true), (38, false)),
            ((4096, 7168, 16384), n192, (66, true), (66, false)),
            ((4096, 4096, 4096), n192, (66, false), (66, false)),
            ((4096, 4096, 4096), fast, (64, false), (64, false)),
            // 5120³: 400 cluster tiles, the last wave 4 of 66: the stream-K tail
            ((5120, 5120, 2560), fast, (66, true), (58, false)),
            // the 16-bit cooperative entries as the fast FP8 ones (the same kernel and scheduler)
            (
                (128, 7168, 16384),
                HgemmVariant::COOPERATIVE,
                (112, true),
                (28, false),
            ),
            // the block-scale entry and the ping-pong ones never split
            ((128, 7168, 16384), block, (56, false), (56, false)),
            (
                (128, 7168, 16384),
                HgemmVariant::PINGPONG_128,
                (56, false),
                (56, false),
            ),
        ] {
            let problem = (m, n, k_fp8 / 2);
            let what = format!("{m}x{n}x{k_fp8} {v:?}");
            assert_eq!(grid(problem, &v, &on), planned, "{what}");
            assert_eq!(grid(problem, &v, &off), old, "{what} stream-K off");
        }
        // the cooperative entries' balanced data-parallel grids: as many waves as every resident
        // cluster takes, fewer clusters (none with two tiles more than another);
        // `CUTE_RS_HGEMM_BALANCE=0`: all; the other kinds all (the block-scale entry: 66, not 64)
        let all = Overrides {
            hgemm_balance: Some(false),
            ..Overrides::default()
        };
        let bf16 = HgemmVariant::COOPERATIVE;
        assert_eq!(grid((8192, 8192, 8192), &bf16, &on), (64, false));
        assert_eq!(grid((8192, 8192, 8192), &bf16, &all), (66, false));
        assert_eq!(grid((4096, 4096, 4096), &n192, &all), (66, false));
        assert_eq!(grid((4096, 7168, 8192), &block, &on), (66, false));
        // `CUTE_RS_HGEMM_BALANCE=1` for every kind (measuring): 352 tiles of 128 × 192 in 6
        // waves of 59
        let every = Overrides {
            hgemm_balance: Some(true),
            ..Overrides::default()
        };
        assert_eq!(grid((4096, 4096, 4096), &n192, &every), (59, false));
        assert_eq!(grid((8192, 8192, 8192), &bf16, &every), (64, false));
        // 8 k-tiles: the tail for any part-empty last wave, as before
        assert_eq!(grid((8192, 8192, 512), &bf16, &on), (66, true));
        // FP8 fast accumulation at 4096³: 32 k-tiles (of 64 pairs), the quarter rule
        assert_eq!(grid((4096, 4096, 2048), &fast, &on), (64, false));
        for m in (256..=8192).step_by(768) {
            for n in (256..=8192).step_by(1000) {
                for v in [bf16, n192, HgemmVariant::PINGPONG_128] {
                    let p = HgemmPlan::by_size(m, n, 4096);
                    let (resident, tiles) = (132 / p.cluster as usize, p.tiles((m, n), &v));
                    let g = p.grid((m, n, 4096), &v, resident);
                    let a = p.with_overrides(&all).grid((m, n, 4096), &v, resident);
                    if !g.workspace {
                        assert!(g.clusters <= a.clusters, "{m}x{n} {v:?}");
                        assert_eq!(tiles.div_ceil(g.clusters), tiles.div_ceil(a.clusters));
                    }
                }
            }
        }
        // a split grid has more clusters than tiles; each range at least SPLIT_K_MIN_RANGE
        for m in [1, 64, 128, 200, 256] {
            for n in [128, 1000, 7168] {
                for k in [512, 4096, 8192] {
                    let p = HgemmPlan::by_size(m, n, k);
                    let tiles = p.tiles((m, n), &fast);
                    let g = p.grid((m, n, k), &fast, 132 / p.cluster as usize);
                    if g.clusters > tiles {
                        assert!(g.workspace);
                        let k_tiles = k.div_ceil(64);
                        assert!(tiles * k_tiles >= g.clusters * config::SPLIT_K_MIN_RANGE);
                        // every tile split into the same number of pieces where there are two
                        assert!(
                            g.clusters.is_multiple_of(tiles) || g.clusters < 2 * tiles,
                            "{m}x{n}x{k}"
                        );
                        assert!(2 * g.clusters >= 3 * tiles, "{m}x{n}x{k}");
                    }
                }
            }
        }
    }

    #[test]
    fn c_maps_are_the_epilogue_chunks_boxes() {
        use crate::tma::TmaSwizzle;
        let g = GemmConfig::new(200, 300, 64).ldc(208);
        let HgemmEpilogue::Tma(p) = hgemm_epilogue::<f16>(&g, 0x10_0000) else {
            panic!("a 16-bit C with ldc 208 takes the TMA epilogue");
        };
        assert_eq!(
            (p.box_dim.clone(), p.swizzle),
            (vec![64, 64], TmaSwizzle::B128)
        );
        assert_eq!(
            (p.global_dim.clone(), p.global_stride_bytes.clone()),
            (vec![200, 300], vec![416])
        );
        let HgemmEpilogue::Tma(p) = hgemm_epilogue::<f32>(&g.ldc(204), 0x10_0000) else {
            panic!("an f32 C with ldc 204 takes the TMA epilogue");
        };
        assert_eq!(
            (p.box_dim.clone(), p.swizzle),
            (vec![32, 32], TmaSwizzle::B128)
        );
        // 202 f32 = 808 bytes per column, not a multiple of 16; empty problems need nothing
        assert_eq!(
            hgemm_epilogue::<f32>(&g.ldc(202), 0x10_0000),
            HgemmEpilogue::Direct
        );
        assert_eq!(
            hgemm_epilogue::<f32>(&GemmConfig::new(0, 4, 4), 0x10_0000),
            HgemmEpilogue::Direct
        );
    }

    #[test]
    fn fused_fp8_entries_are_the_kernels() {
        // every (tile, activation) the host names a fused FP8 entry for is declared by the
        // kernel family, and no other fused FP8 entry is
        let src = include_str!("../../kernels/hgemm_fp8/src/lib.rs");
        let declared: Vec<&str> = src
            .split("hgemm_entry!(promoted")
            .skip(1)
            // `promoted` and `promoted_tma` (the TMA epilogue's path) entries
            .filter_map(|s| s.trim_start_matches("_tma").trim_start().split(',').next())
            // and the ping-pong ones (`fp8`)
            .chain(
                src.split("hgemm_pingpong_entry!(fp8 ")
                    .skip(1)
                    .filter_map(|s| s.split(',').next()),
            )
            .filter(|e| e.starts_with("gemm_fp8_fused_"))
            .collect();
        let mut named = Vec::new();
        for &(_, tile) in Fp8PromotedTile::NAMES {
            for act in Activation::ALL {
                named.extend(tile.fused_entry(act));
            }
        }
        let (mut declared, mut named) = (declared, named);
        declared.sort_unstable();
        named.sort_unstable();
        assert_eq!(declared, named);
    }

    #[test]
    fn promoted_fp8_tiles_are_kernels() {
        // every per-tensor tile the host (or an override) names has its entry declared by the
        // kernel family (by an `hgemm_entry!` or `hgemm_pingpong_entry!` arm: `name,`)
        let src = include_str!("../../kernels/hgemm_fp8/src/lib.rs");
        let declared = |e: &str| {
            src.split(e)
                .skip(1)
                .any(|rest| rest.starts_with(',') || rest.starts_with("\n"))
        };
        for &(name, tile) in Fp8PromotedTile::NAMES {
            assert!(
                declared(tile.entry()),
                "{name}: {} is not declared in kernels/hgemm_fp8",
                tile.entry()
            );
        }
    }

    #[test]
    fn n192_entries_are_the_kernels() {
        // the 128×192 entries are exactly those the 16-bit family declares with `wide`, and each
        // is its schedule's entry of a cooperative one
        let src = include_str!("../../kernels/hgemm/src/lib.rs");
        let declared: Vec<&str> = src
            .split("hgemm_entry!(wide ")
            .skip(1)
            .filter_map(|s| s.split(',').next())
            .collect();
        assert_eq!(declared, HgemmSchedule::N192_ENTRIES);
        for e in HgemmSchedule::N192_ENTRIES {
            let base = e.strip_suffix("_n192").unwrap();
            let pp128 = format!("{base}_pingpong128");
            assert!(
                HgemmSchedule::PINGPONG128_ENTRIES.contains(&pp128.as_str())
                    || HgemmSchedule::FUSED_PINGPONG_ENTRIES.contains(&pp128.as_str())
            );
            assert_eq!(HgemmSchedule::Cooperative192.entry(base), e);
        }
        assert_eq!(
            HgemmSchedule::Cooperative192.variant(),
            Fp8PromotedTile::N192Tma.variant()
        );
    }

    #[test]
    fn pingpong_entries_are_the_kernels() {
        // the kernel families' ping-pong entries are exactly these (the 16-bit family's default
        // 128×128 ones, `pp128`, its 64×128 ones, `pp64`, then the measuring ones; the FP8
        // family's)
        let src = concat!(
            include_str!("../../kernels/hgemm/src/lib.rs"),
            include_str!("../../kernels/hgemm_fp8/src/lib.rs")
        );
        let declared: Vec<&str> = src
            .split("hgemm_pingpong_entry!(")
            .skip(1) // the text before the first invocation
            .filter_map(|s| s.trim_start().split(',').next())
            .filter(|e| !e.starts_with('$')) // the macro's own arm
            .map(|e| e.trim_start_matches("pp128 ").trim_start_matches("pp64 "))
            .collect();
        // the FP8 ones (`fp8`): the small-M tile's, promoted and fast
        let (fp8, declared): (Vec<&str>, Vec<&str>) =
            declared.into_iter().partition(|e| e.starts_with("fp8 "));
        let (fast_fp8, fp8): (Vec<&str>, Vec<&str>) =
            fp8.into_iter().partition(|e| e.contains("_fast_"));
        let (fused_fp8, fp8): (Vec<&str>, Vec<&str>) =
            fp8.into_iter().partition(|e| e.contains("_fused_"));
        let promoted = [Fp8PromotedTile::Pp64.entry(), Fp8BlockEntry::Pp64.entry()];
        assert_eq!(fp8, promoted.map(|e| format!("fp8 {e}")));
        let acts = Activation::ALL;
        let fused_pp64: Vec<String> = acts
            .iter()
            .filter_map(|&a| Fp8PromotedTile::Pp64.fused_entry(a))
            .map(|e| format!("fp8 {e}"))
            .collect();
        assert_eq!(fused_fp8, fused_pp64);
        let (staged, declared): (Vec<&str>, Vec<&str>) = declared
            .into_iter()
            .partition(|e| e.starts_with("fp8staged "));
        assert_eq!(
            staged,
            [Fp8BlockEntry::StagedPp64, Fp8BlockEntry::StagedPp64x4]
                .map(|e| format!("fp8staged {}", e.entry()))
        );
        // (`gemm_fp8`'s test names the fast ones: that module imports this one)
        assert_eq!(fast_fp8.len(), 2);
        assert_eq!(Fp8PromotedTile::Pp64.tile(), config::TILE_FP8_PP64);
        let listed: Vec<&str> = HgemmSchedule::PINGPONG128_ENTRIES
            .into_iter()
            .chain(HgemmSchedule::PINGPONG64_ENTRIES)
            .chain(HgemmSchedule::FUSED_PINGPONG_ENTRIES)
            .chain(HgemmSchedule::MEASURING_ENTRIES)
            .collect();
        assert_eq!(declared, listed);
        for e in listed {
            let (base, s) = if let Some(base) = e.strip_suffix("_pingpong128") {
                (base, HgemmSchedule::Pingpong128)
            } else if let Some(base) = e.strip_suffix("_pp64") {
                (base, HgemmSchedule::Pingpong64)
            } else {
                (
                    e.strip_suffix("_pingpong").unwrap(),
                    HgemmSchedule::Pingpong,
                )
            };
            assert_eq!(s.entry(base), e);
        }
        assert_eq!(
            HgemmSchedule::pingpong_entry(&HgemmKernel::fused_entry(Activation::Gelu)),
            "hgemm_fused_bf16_tn_gelu_pingpong"
        );
        assert_eq!(HgemmVariant::PINGPONG.tile, (64, 256, 64));
        assert_eq!(HgemmVariant::PINGPONG_128.tile, (128, 128, 64));
        // every plain problem `for_problem` sends to a ping-pong schedule has its entry
        for (ta, tb) in [
            (Trans::N, Trans::N),
            (Trans::N, Trans::T),
            (Trans::T, Trans::N),
            (Trans::T, Trans::T),
        ] {
            for e in [
                HgemmKernel::entry::<bf16>(ta, tb),
                HgemmKernel::entry::<half::f16>(ta, tb),
            ] {
                let pp = HgemmSchedule::Pingpong128.entry(&e);
                assert!(
                    HgemmSchedule::PINGPONG128_ENTRIES.contains(&pp.as_str()),
                    "{pp}"
                );
                let pp = HgemmSchedule::Pingpong64.entry(&e);
                assert!(
                    HgemmSchedule::PINGPONG64_ENTRIES.contains(&pp.as_str()),
                    "{pp}"
                );
                // and to 128×192 (every majority since session 68)
                let n192 = HgemmSchedule::Cooperative192.entry(&e);
                assert!(
                    HgemmSchedule::N192_ENTRIES.contains(&n192.as_str()),
                    "{n192}"
                );
            }
        }
        // every fused problem has its entry on each schedule `for_problem` picks
        for act in Activation::ALL {
            let e = HgemmKernel::fused_entry(act);
            for (s, entries) in [
                (
                    HgemmSchedule::Pingpong128,
                    &HgemmSchedule::FUSED_PINGPONG_ENTRIES[..],
                ),
                (
                    HgemmSchedule::Pingpong64,
                    &HgemmSchedule::FUSED_PINGPONG_ENTRIES[..],
                ),
                (
                    HgemmSchedule::Cooperative192,
                    &HgemmSchedule::N192_ENTRIES[..],
                ),
            ] {
                let f = s.entry(&e);
                assert!(entries.contains(&f.as_str()), "{f}");
            }
        }
    }
}
