//! cuBLAS SGEMM as the reference our GEMM is checked and measured against, on the same
//! [`GemmConfig`].

use std::sync::Arc;

use cudarc::cublas::{CudaBlas, sys};
use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::gemm::{GemmConfig, Trans};
use crate::hgemm::{GemmOut, HalfElement};
use crate::quiet::catch_quiet;

/// A cuBLAS handle on one stream, in the default math mode set explicitly (FP32 compute,
/// no TF32) without reduced-precision split-K reductions: the reference for
/// [`Context::sgemm`] and [`Context::hgemm`](crate::Context::hgemm).
///
/// ```no_run
/// use host::{Context, Cublas, GemmConfig};
/// let ctx = Context::new(0)?;
/// let stream = ctx.default_stream();
/// let blas = Cublas::new(&ctx, stream.clone())?;
/// let g = GemmConfig::new(64, 64, 64);
/// let a = stream.clone_htod(&vec![1.0f32; 64 * 64])?;
/// let mut c = stream.alloc_zeros::<f32>(64 * 64)?;
/// blas.sgemm(&g, &a, &a, &mut c)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Cublas {
    blas: CudaBlas,
    stream: Arc<CudaStream>,
}

impl Cublas {
    /// A handle whose work goes to `stream` (a stream of `ctx`). Errors (no panic) when
    /// libcublas cannot be loaded.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
    /// # let _ = blas;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn new(ctx: &Context, stream: Arc<CudaStream>) -> Result<Cublas> {
        ctx.check_stream(&stream)?;
        // a missing libcublas is a panic of cudarc's loader, caught here
        let blas = catch_quiet(|| CudaBlas::new(stream.clone()))
            .map_err(|msg| Error::Cublas(format!("loading cuBLAS: {msg}")))??;
        // Default math (no TF32) without reduced-precision reductions: a bf16/fp16 GEMM with
        // fp32 compute then sums its split-K partials in fp32 too (by default cuBLAS may reduce
        // them in the output type, outside fp32 accumulation's error bound: seen on the H100
        // for bf16 C). Irrelevant to SGEMM.
        // SAFETY: a live handle.
        unsafe {
            sys::cublasSetMathMode(
                *blas.handle(),
                sys::cublasMath_t::CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION,
            )
        }
        .result()?;
        Ok(Cublas { blas, stream })
    }

    /// The stream this handle queues on.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
    /// blas.stream().synchronize()?;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// `cublasSgemm` with the same arguments and checks as [`Context::sgemm`].
    ///
    /// ```no_run
    /// # use host::{Context, Cublas, GemmConfig};
    /// # let ctx = Context::new(0)?;
    /// # let stream = ctx.default_stream();
    /// # let blas = Cublas::new(&ctx, stream.clone())?;
    /// let g = GemmConfig::new(2, 2, 2);
    /// let a = stream.clone_htod(&[1.0f32, 0.0, 0.0, 1.0])?;
    /// let mut c = stream.alloc_zeros::<f32>(4)?;
    /// blas.sgemm(&g, &a, &a, &mut c)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sgemm<A, B, C>(&self, g: &GemmConfig, a: &A, b: &B, c: &mut C) -> Result<()>
    where
        A: DevicePtr<f32>,
        B: DevicePtr<f32>,
        C: DevicePtrMut<f32>,
    {
        g.validate(a.len(), b.len(), c.len())?;
        if g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let s = &self.stream;
        let (pa, _ra) = a.device_ptr(s);
        let (pb, _rb) = b.device_ptr(s);
        let (pc, _rc) = c.device_ptr_mut(s);
        // SAFETY: validated sizes (all < 2^31) and lengths; device pointers of live buffers,
        // used on this handle's stream.
        unsafe {
            cudarc::cublas::result::sgemm(
                *self.blas.handle(),
                op(g.transa),
                op(g.transb),
                g.m as i32,
                g.n as i32,
                g.k as i32,
                &g.alpha,
                pa as *const f32,
                g.lda as i32,
                pb as *const f32,
                g.ldb as i32,
                &g.beta,
                pc as *mut f32,
                g.ldc as i32,
            )
        }?;
        Ok(())
    }
    /// `cublasGemmEx` with fp32 compute (`CUBLAS_COMPUTE_32F`, default algorithm): A and B in
    /// bf16 or fp16, C in the same element or f32, the same arguments and checks as
    /// [`Context::hgemm`](crate::Context::hgemm) (cuBLAS itself has no TMA rules: padded leading
    /// dimensions of any value are fine here). bf16 inputs with an fp16 C (or the reverse) are
    /// not a cuBLAS combination: an [`Error::Unsupported`].
    ///
    /// ```no_run
    /// # use host::{Context, Cublas, GemmConfig};
    /// # let ctx = Context::new(0)?;
    /// # let stream = ctx.default_stream();
    /// # let blas = Cublas::new(&ctx, stream.clone())?;
    /// let g = GemmConfig::new(2, 2, 2);
    /// let one = half::bf16::ONE;
    /// let a = stream.clone_htod(&[one, half::bf16::ZERO, half::bf16::ZERO, one])?;
    /// let mut c = stream.alloc_zeros::<f32>(4)?;
    /// blas.gemm_ex(&g, &a, &a, &mut c)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gemm_ex<T, O, A, B, C>(&self, g: &GemmConfig, a: &A, b: &B, c: &mut C) -> Result<()>
    where
        T: HalfElement,
        O: GemmOut,
        A: DevicePtr<T>,
        B: DevicePtr<T>,
        C: DevicePtrMut<O>,
    {
        g.validate(a.len(), b.len(), c.len())?;
        if O::CODE != 0 && O::NAME != T::NAME {
            return Err(Error::Unsupported(format!(
                "cuBLAS has no GEMM with {} inputs and a {} C",
                T::NAME,
                O::NAME
            )));
        }
        if g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let s = &self.stream;
        let (pa, _ra) = a.device_ptr(s);
        let (pb, _rb) = b.device_ptr(s);
        let (pc, _rc) = c.device_ptr_mut(s);
        // SAFETY: validated sizes (all < 2^31) and lengths; device pointers of live buffers,
        // used on this handle's stream; alpha and beta are f32 as COMPUTE_32F needs.
        unsafe {
            cudarc::cublas::result::gemm_ex(
                *self.blas.handle(),
                op(g.transa),
                op(g.transb),
                g.m as i32,
                g.n as i32,
                g.k as i32,
                (&g.alpha) as *const f32 as *const std::ffi::c_void,
                pa as *const std::ffi::c_void,
                T::CUDA,
                g.lda as i32,
                pb as *const std::ffi::c_void,
                T::CUDA,
                g.ldb as i32,
                (&g.beta) as *const f32 as *const std::ffi::c_void,
                pc as *mut std::ffi::c_void,
                O::CUDA,
                g.ldc as i32,
                sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }?;
        Ok(())
    }
}

/// cuBLAS's operation for a BLAS transpose flag.
fn op(t: Trans) -> sys::cublasOperation_t {
    match t {
        Trans::N => sys::cublasOperation_t::CUBLAS_OP_N,
        Trans::T => sys::cublasOperation_t::CUBLAS_OP_T,
    }
}

/// A cuBLASLt handle on one stream: the reference of the fused GEMM's bench rows
/// (`D = act(alpha·op(A)·op(B) + beta·C + bias)` with cuBLASLt's `CUBLASLT_EPILOGUE_BIAS`,
/// `RELU_BIAS` or `GELU_BIAS` epilogue: the bias along M, GELU the tanh form, inputs, C and the
/// bias all of the input element).
///
/// ```no_run
/// use host::{Activation, BiasMode, Context, GemmConfig, Trans};
/// use host::cublas::CublasLt;
/// let ctx = Context::new(0)?;
/// let s = ctx.default_stream();
/// let lt = CublasLt::new(&ctx, s.clone())?;
/// let g = GemmConfig::new(256, 256, 256).trans(Trans::T, Trans::N).bias(BiasMode::M).act(Activation::Gelu);
/// let a = s.alloc_zeros::<half::bf16>(256 * 256)?;
/// let bias = s.alloc_zeros::<half::bf16>(256)?;
/// let mut c = s.alloc_zeros::<half::bf16>(256 * 256)?;
/// lt.gemm_bias_act(&g, &a, &a, &mut c, &bias)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct CublasLt {
    lt: cudarc::cublaslt::CudaBlasLT,
}

impl CublasLt {
    /// A handle whose work goes to `stream` (a stream of `ctx`), with cudarc's workspace (32 MiB
    /// on Hopper). Errors (no panic) when libcublasLt cannot be loaded.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let lt = host::cublas::CublasLt::new(&ctx, ctx.default_stream())?;
    /// # let _ = lt;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn new(ctx: &Context, stream: Arc<CudaStream>) -> Result<CublasLt> {
        ctx.check_stream(&stream)?;
        let lt = catch_quiet(|| cudarc::cublaslt::CudaBlasLT::new(stream.clone()))
            .map_err(|msg| Error::Cublas(format!("loading cuBLASLt: {msg}")))??;
        Ok(CublasLt { lt })
    }

    /// `g` with cuBLASLt's fused epilogue: the bias (`g.bias` along M, `bias` of M elements)
    /// and `g.act` (identity, ReLU or GELU tanh; cuBLASLt has no GELU-erf or SiLU epilogue: an
    /// [`Error::Unsupported`], as is a bias along N or none).
    ///
    /// ```no_run
    /// use host::{Activation, BiasMode, Context, GemmConfig};
    /// let ctx = Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let lt = host::cublas::CublasLt::new(&ctx, s.clone())?;
    /// let a = s.alloc_zeros::<half::bf16>(128 * 128)?;
    /// let bias = s.alloc_zeros::<half::bf16>(128)?;
    /// let mut c = s.alloc_zeros::<half::bf16>(128 * 128)?;
    /// // SiLU is not one of cuBLASLt's epilogues: an error, nothing launched
    /// let g = GemmConfig::new(128, 128, 128).bias(BiasMode::M).act(Activation::Silu);
    /// assert!(lt.gemm_bias_act(&g, &a, &a, &mut c, &bias).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gemm_bias_act<T, A, C>(
        &self,
        g: &GemmConfig,
        a: &A,
        b: &A,
        c: &mut C,
        bias: &A,
    ) -> Result<()>
    where
        T: HalfElement,
        A: DevicePtr<T>,
        C: DevicePtrMut<T>,
        cudarc::cublaslt::CudaBlasLT: cudarc::cublaslt::Matmul<T>,
    {
        use crate::gemm::{Activation, BiasMode};
        use cudarc::cublaslt::{Activation as LtAct, Matmul, MatmulConfig};
        g.validate(a.len(), b.len(), c.len())?;
        if g.bias != BiasMode::M || bias.len() < g.m {
            return Err(Error::Unsupported(format!(
                "{g}: cuBLASLt's bias epilogue takes a bias along M (M elements)"
            )));
        }
        let act = match g.act {
            Activation::Identity => None,
            Activation::Relu => Some(LtAct::Relu),
            Activation::Gelu => Some(LtAct::Gelu),
            a => {
                return Err(Error::Unsupported(format!(
                    "cuBLASLt has no {a:?} epilogue"
                )));
            }
        };
        if g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let cfg = MatmulConfig {
            transa: g.transa == Trans::T,
            transb: g.transb == Trans::T,
            transc: false,
            m: g.m as u64,
            n: g.n as u64,
            k: g.k as u64,
            alpha: g.alpha,
            lda: g.lda as i64,
            ldb: g.ldb as i64,
            beta: g.beta,
            ldc: g.ldc as i64,
            stride_a: None,
            stride_b: None,
            stride_c: None,
            stride_bias: None,
            batch_size: None,
        };
        // SAFETY: validated sizes and lengths (the bias holds M elements); buffers of this
        // handle's context, used on its stream.
        unsafe { self.lt.matmul(cfg, a, b, c, Some(bias), act.as_ref()) }?;
        Ok(())
    }
}
