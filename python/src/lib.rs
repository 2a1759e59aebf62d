//! `cute_rs._native`: cute-rs's GEMMs on DLPack tensors (the Python API is `cute_rs/__init__.py`).
//!
//! A call reads its operands through DLPack on the caller's stream, checks everything a GEMM
//! needs (dtype, device, shape, strides, alignment: errors name the Python argument), maps the
//! row-major `a @ b` onto our column-major GEMM (`Cᵀ = Bᵀ·Aᵀ`: `b` is our A, `a` our B), and
//! queues one launch on that stream, with no synchronization. Every entry runs inside
//! `catch_unwind`: a panic is a `RuntimeError`, never an abort.

mod attention;
mod dlpack;
mod fp8;

use std::collections::HashMap;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use host::cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, DeviceSlice,
    SyncOnDrop, sys::CUdeviceptr,
};
use host::half::{bf16, f16};
use host::hgemm::GemmOut;
use host::{Activation, BiasMode, Context, GemmConfig, Trans};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use dlpack::{Borrowed, Dtype, Matrix};

/// Device memory a DLPack producer owns, as a cudarc buffer for our entry points (no events:
/// ordering is the caller's stream, as in PyTorch).
struct Foreign<T> {
    ptr: CUdeviceptr,
    len: usize,
    stream: Arc<CudaStream>,
    _t: PhantomData<T>,
}

impl<T> Foreign<T> {
    fn new(m: &Matrix, stream: &Arc<CudaStream>) -> Self {
        Self::at(m.addr, m.span(), stream)
    }

    /// `len` elements at `ptr`.
    fn at(ptr: CUdeviceptr, len: usize, stream: &Arc<CudaStream>) -> Self {
        Foreign {
            ptr,
            len,
            stream: stream.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> DeviceSlice<T> for Foreign<T> {
    fn len(&self) -> usize {
        self.len
    }
    fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }
}

impl<T> DevicePtr<T> for Foreign<T> {
    fn device_ptr<'a>(&'a self, _stream: &'a CudaStream) -> (CUdeviceptr, SyncOnDrop<'a>) {
        (self.ptr, SyncOnDrop::Record(None))
    }
}

impl<T> DevicePtrMut<T> for Foreign<T> {
    fn device_ptr_mut<'a>(&'a mut self, _stream: &'a CudaStream) -> (CUdeviceptr, SyncOnDrop<'a>) {
        (self.ptr, SyncOnDrop::Record(None))
    }
}

/// Buffers we allocated for results and have not freed yet (the ownership tests read it).
static LIVE: AtomicI64 = AtomicI64::new(0);

/// A result buffer: freed (stream-ordered, on the stream it was made on) when its consumer
/// drops the tensor.
struct Output<T> {
    slice: Option<CudaSlice<T>>,
    ctx: Arc<CudaContext>,
}

impl<T: DeviceRepr> Output<T> {
    /// `len` elements on `stream`, not initialized (the kernel writes every one before anyone
    /// reads it); counted in `LIVE` until dropped.
    fn alloc(ctx: &Context, stream: &Arc<CudaStream>, len: usize) -> host::Result<Self> {
        // SAFETY: the callers' kernels write every element (their checks say so).
        let slice = unsafe { stream.alloc::<T>(len.max(1)) }?;
        LIVE.fetch_add(1, Ordering::Relaxed);
        Ok(Output {
            slice: Some(slice),
            ctx: ctx.cuda_context().clone(),
        })
    }

    /// The buffer.
    fn slice(&mut self) -> &mut CudaSlice<T> {
        self.slice.as_mut().expect("set until dropped")
    }
}

impl<T> Drop for Output<T> {
    fn drop(&mut self) {
        // The consumer may drop it on any thread: make our context current for the free.
        let _ = self.ctx.bind_to_thread();
        drop(self.slice.take());
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One `host::Context` per device, made at the first call (its kernels' PTX is JIT-compiled
/// at their first launch).
fn context(device: i32) -> Result<Arc<Context>, host::Error> {
    static CONTEXTS: OnceLock<Mutex<HashMap<i32, Arc<Context>>>> = OnceLock::new();
    let map = CONTEXTS.get_or_init(Default::default);
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = map.get(&device) {
        return Ok(c.clone());
    }
    if let Some(why) = host::ptx::build_error() {
        return Err(host::Error::NoKernels(why));
    }
    if device < 0 {
        return Err(host::Error::Unsupported(format!(
            "CUDA device index {device}"
        )));
    }
    let cuda = Context::cuda_context_of(device as usize)?;
    // SAFETY: no buffer of this context exists yet; ordering is the caller's stream.
    unsafe { cuda.disable_event_tracking() };
    // the measuring overrides the `CUTE_RS_*` variables set, read once here (host::Overrides)
    let ctx = Arc::new(
        Context::from_cuda_context_lazy_with(cuda, &host::LoadOptions::from_env())?
            .with_overrides(host::Overrides::from_env()?),
    );
    map.insert(device, ctx.clone());
    Ok(ctx)
}

/// A host error as the Python exception it is: no usable GPU → RuntimeError; a problem the
/// kernels refuse → ValueError (in our column-major terms: A is `b`, B is `a`, C is `out`).
fn py_err(e: host::Error) -> PyErr {
    if e.is_unavailable() {
        PyRuntimeError::new_err(format!("cute_rs: no usable GPU: {e}"))
    } else {
        match e {
            host::Error::Driver(_) | host::Error::Cublas(_) => {
                PyRuntimeError::new_err(format!("cute_rs: {e}"))
            }
            _ => PyValueError::new_err(format!(
                "cute_rs.gemm: {e} (the column-major GEMM Cᵀ = bᵀ·aᵀ: its A is `b`, B is `a`, C is `out`)"
            )),
        }
    }
}

/// How a row-major operand is stored for the column-major GEMM: its transpose flag and
/// leading dimension. `x` is (rows × cols) as Python sees it; the GEMM reads xᵀ, so a unit
/// column stride is `N` with ld = the row stride, a unit row stride is `T` with ld = the
/// column stride. An extent of 1 puts no constraint on its stride.
fn operand(name: &str, x: &Matrix) -> PyResult<(Trans, usize)> {
    let (sr, sc) = x.strides;
    let unit_c = sc == 1 || x.cols <= 1;
    let unit_r = sr == 1 || x.rows <= 1;
    let ld_of = |s: i64, min: usize| -> usize {
        if s >= min as i64 && s > 0 {
            s as usize
        } else {
            min.max(1)
        }
    };
    if sr < 0 || sc < 0 {
        return Err(PyValueError::new_err(format!(
            "{name} has negative strides {:?}: pass a copy (.contiguous())",
            x.strides
        )));
    }
    if unit_c && (x.rows <= 1 || sr >= x.cols as i64) {
        Ok((Trans::N, ld_of(sr, x.cols)))
    } else if unit_r && (x.cols <= 1 || sc >= x.rows as i64) {
        Ok((Trans::T, ld_of(sc, x.rows)))
    } else {
        Err(PyValueError::new_err(format!(
            "{name} (shape {:?}, strides {:?}) needs one unit stride (row- or column-major with \
             a leading stride at least its extent): pass {name}.contiguous()",
            (x.rows, x.cols),
            x.strides
        )))
    }
}

/// The checks the bf16/fp16 kernel's TMA loads need, named for Python.
fn tma_operand(name: &str, x: &Matrix, ld: usize) -> PyResult<()> {
    if x.rows == 0 || x.cols == 0 {
        return Ok(());
    }
    if !ld.is_multiple_of(8) {
        return Err(PyValueError::new_err(format!(
            "{name}: its leading stride {ld} (elements) must be a multiple of 8 for {}: the \
             kernel loads it with TMA, which needs 16-byte strides (pad the row, or use float32)",
            x.dtype.name()
        )));
    }
    if !x.addr.is_multiple_of(16) {
        return Err(PyValueError::new_err(format!(
            "{name}: its data pointer {:#x} is not 16-byte aligned (TMA needs it): pass a copy",
            x.addr
        )));
    }
    Ok(())
}

/// What one call does, checked: the GEMM in our terms and the tensors it reads and writes.
struct Call {
    g: GemmConfig,
    a: Matrix,
    b: Matrix,
    out: Option<Matrix>,
    out_dtype: Dtype,
    m: usize,
    n: usize,
    /// The fused epilogue's bias (float32, one per column of `a @ b`): its address and length.
    bias: Option<(CUdeviceptr, usize)>,
}

/// The fused epilogue's activation by its Python name (torch's names: `"gelu"` is the erf form
/// of `torch.nn.functional.gelu`, `"gelu_tanh"` its `approximate="tanh"` form).
fn activation(name: Option<&str>) -> PyResult<Activation> {
    Ok(match name {
        None | Some("identity") => Activation::Identity,
        Some("relu") => Activation::Relu,
        Some("gelu") => Activation::GeluErf,
        Some("gelu_tanh") => Activation::Gelu,
        Some("silu") => Activation::Silu,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "activation={other:?}: cute_rs.gemm takes None, \"relu\", \"gelu\" (erf), \
                 \"gelu_tanh\" or \"silu\""
            )));
        }
    })
}

/// The checks of the fused epilogue (`bias=` or `activation=`): bfloat16 in and out, `a`
/// row-major and `b` column-major (`a @ w.t()` of a row-major `(N, K)` weight, as
/// `torch.nn.functional.linear`), a float32 bias of N contiguous elements on `a`'s device.
fn fused(call: &Call, bias: Option<&dlpack::Strided>) -> PyResult<Option<(CUdeviceptr, usize)>> {
    if call.a.dtype != Dtype::BF16 || call.out_dtype != Dtype::BF16 {
        return Err(PyTypeError::new_err(format!(
            "bias= and activation= (the fused epilogue) take bfloat16 a, b and out, not {} -> {}",
            call.a.dtype.name(),
            call.out_dtype.name()
        )));
    }
    // our A is `b` (K-major: T), our B is `a` (K-major: N)
    if (call.g.transa, call.g.transb) != (Trans::T, Trans::N) {
        return Err(PyValueError::new_err(format!(
            "bias= and activation= (the fused epilogue) take a row-major a and a column-major b \
             (b = w.t() of a row-major (N, K) weight, as torch.nn.functional.linear); got a with \
             strides {:?} and b with strides {:?}",
            call.a.strides, call.b.strides
        )));
    }
    let Some(v) = bias else {
        return Ok(None);
    };
    let at = f32_vector(
        "bias",
        v,
        &[&[call.n]],
        call.a.device_id,
        "one value per column of a @ b",
    )?;
    Ok(Some((at, call.n)))
}

/// A float32 vector argument on `device` in one of the shapes `forms` (e.g. `(M, 1)` or
/// `(M,)`; `what` says what its values are), its long mode contiguous and 4-byte aligned: its
/// address. The checks of `gemm`'s bias and `scaled_mm`'s row-wise scales and bias.
pub(crate) fn f32_vector(
    name: &str,
    v: &dlpack::Strided,
    forms: &[&[usize]],
    device: i32,
    what: &str,
) -> PyResult<CUdeviceptr> {
    let dtype = v
        .dtype
        .clone()
        .map_err(|d| PyTypeError::new_err(format!("{name} has dtype {d}: it must be float32")))?;
    if dtype != Dtype::F32 {
        return Err(PyTypeError::new_err(format!(
            "{name} has dtype {}: it must be float32",
            dtype.name()
        )));
    }
    if v.device_id != device {
        return Err(PyValueError::new_err(format!(
            "{name} is on cuda:{} but a is on cuda:{device}",
            v.device_id
        )));
    }
    let shape: Vec<usize> = v.shape.iter().map(|&x| x.max(0) as usize).collect();
    if !forms.contains(&shape.as_slice()) {
        let forms: Vec<String> = forms
            .iter()
            .map(|f| match f {
                [x] => format!("({x},)"),
                _ => format!("{f:?}").replace('[', "(").replace(']', ")"),
            })
            .collect();
        return Err(PyValueError::new_err(format!(
            "{name} has shape {:?}: it must be {}, {what}",
            v.shape,
            forms.join(" or ")
        )));
    }
    // the one mode of more than one element (the forms have at most one)
    if let Some(long) = shape.iter().position(|&x| x > 1)
        && v.strides[long] != 1
    {
        return Err(PyValueError::new_err(format!(
            "{name} has stride {}: pass {name}.contiguous()",
            v.strides[long]
        )));
    }
    if !v.addr.is_multiple_of(4) {
        return Err(PyValueError::new_err(format!(
            "{name}: its data pointer {:#x} is not 4-byte aligned",
            v.addr
        )));
    }
    Ok(v.addr)
}

fn plan(a: Matrix, b: Matrix, out: Option<Matrix>, alpha: f32, beta: f32) -> PyResult<Call> {
    if b.dtype != a.dtype {
        return Err(PyTypeError::new_err(format!(
            "b has dtype {} but a has {}: both operands must have one dtype",
            b.dtype.name(),
            a.dtype.name()
        )));
    }
    if b.device_id != a.device_id {
        return Err(PyValueError::new_err(format!(
            "b is on cuda:{} but a is on cuda:{}",
            b.device_id, a.device_id
        )));
    }
    let (m, k, n) = (a.rows, a.cols, b.cols);
    if b.rows != k {
        return Err(PyValueError::new_err(format!(
            "b has {} rows but a has {k} columns: a @ b needs a (M×K) and b (K×N), got {:?} and {:?}",
            b.rows,
            (a.rows, a.cols),
            (b.rows, b.cols)
        )));
    }
    let out_dtype = match &out {
        Some(o) => {
            if o.device_id != a.device_id {
                return Err(PyValueError::new_err(format!(
                    "out is on cuda:{} but a is on cuda:{}",
                    o.device_id, a.device_id
                )));
            }
            if (o.rows, o.cols) != (m, n) {
                return Err(PyValueError::new_err(format!(
                    "out has shape {:?}, a @ b has {:?}",
                    (o.rows, o.cols),
                    (m, n)
                )));
            }
            if o.dtype != a.dtype && o.dtype != Dtype::F32 {
                return Err(PyTypeError::new_err(format!(
                    "out has dtype {}: for {} operands it must be {} or float32",
                    o.dtype.name(),
                    a.dtype.name(),
                    a.dtype.name()
                )));
            }
            o.dtype
        }
        None => {
            if beta != 0.0 {
                return Err(PyValueError::new_err(format!(
                    "beta={beta} reads C: pass out= (beta needs a C to scale)"
                )));
            }
            a.dtype
        }
    };
    if !alpha.is_finite() || !beta.is_finite() {
        return Err(PyValueError::new_err(format!(
            "alpha={alpha} and beta={beta} must be finite"
        )));
    }
    // Cᵀ (N×M) = bᵀ (N×K) · aᵀ (K×M), column-major
    let (transa, lda) = operand("b", &b)?;
    let (transb, ldb) = operand("a", &a)?;
    let ldc = match &out {
        Some(o) => {
            let (t, ld) = operand("out", o)?;
            if t != Trans::N {
                return Err(PyValueError::new_err(format!(
                    "out (strides {:?}) must be row-major (a unit column stride): pass a \
                     row-major out, or use out=None",
                    o.strides
                )));
            }
            ld
        }
        None => n.max(1),
    };
    if a.dtype != Dtype::F32 {
        tma_operand("b", &b, lda)?;
        tma_operand("a", &a, ldb)?;
    }
    let g = GemmConfig::new(n, m, k)
        .trans(transa, transb)
        .lda(lda)
        .ldb(ldb)
        .ldc(ldc)
        .alpha(alpha)
        .beta(beta);
    Ok(Call {
        g,
        a,
        b,
        out,
        out_dtype,
        m,
        n,
        bias: None,
    })
}

/// [`plan`] with the fused epilogue: `bias` (float32, one per column of `a @ b`) and `act`.
fn plan_fused(
    a: Matrix,
    b: Matrix,
    out: Option<Matrix>,
    (alpha, beta): (f32, f32),
    bias: Option<dlpack::Strided>,
    act: Option<&str>,
) -> PyResult<Call> {
    let act = activation(act)?;
    let mut call = plan(a, b, out, alpha, beta)?;
    if bias.is_none() && act == Activation::Identity {
        return Ok(call);
    }
    call.bias = fused(&call, bias.as_ref())?;
    // our C is (a @ b)ᵀ: a value per column of a @ b is one per row (M) of ours
    let mode = if call.bias.is_some() {
        BiasMode::M
    } else {
        BiasMode::None
    };
    call.g = call.g.bias(mode).act(act);
    Ok(call)
}

/// The GEMM of element `Self` with C of `O` (the bf16/fp16 tensor-core kernel or the f32 SIMT
/// one). A fused epilogue or another kernel is one more impl and one more `dispatch` arm.
trait Gemm<O>: Sized {
    fn gemm<C: DevicePtrMut<O>>(
        ctx: &Context,
        stream: &CudaStream,
        g: &GemmConfig,
        ab: (&Foreign<Self>, &Foreign<Self>),
        c: &mut C,
        bias: Option<&Foreign<f32>>,
    ) -> host::Result<()>;
}

macro_rules! half_gemm {
    ($($t:ty),*) => {$(
        impl<O: GemmOut> Gemm<O> for $t {
            fn gemm<C: DevicePtrMut<O>>(
                ctx: &Context,
                stream: &CudaStream,
                g: &GemmConfig,
                (a, b): (&Foreign<Self>, &Foreign<Self>),
                c: &mut C,
                bias: Option<&Foreign<f32>>,
            ) -> host::Result<()> {
                ctx.hgemm_fused::<$t, O, _, _, _, _>(stream, g, a, b, c, bias)
            }
        }
    )*};
}
half_gemm!(bf16, f16);

impl Gemm<f32> for f32 {
    fn gemm<C: DevicePtrMut<f32>>(
        ctx: &Context,
        stream: &CudaStream,
        g: &GemmConfig,
        (a, b): (&Foreign<f32>, &Foreign<f32>),
        c: &mut C,
        _bias: Option<&Foreign<f32>>,
    ) -> host::Result<()> {
        // `fused` refused a bias and an activation for float32 before this
        ctx.sgemm(stream, g, a, b, c)
    }
}

/// A new result buffer (its owner, for DLPack, and its address) or `None` when writing `out`.
type Made = Option<(Box<dyn Send>, u64)>;

/// The launch on `stream`, into `out` or a new buffer.
fn launch<T: Gemm<O>, O: DeviceRepr + Send + 'static>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    call: &Call,
) -> host::Result<Made> {
    // our A is `b`, our B is `a`
    let (a, b) = (
        Foreign::<T>::new(&call.b, stream),
        Foreign::<T>::new(&call.a, stream),
    );
    let bias = call
        .bias
        .map(|(addr, len)| Foreign::<f32>::at(addr, len, stream));
    if let Some(o) = &call.out {
        T::gemm(
            ctx,
            stream,
            &call.g,
            (&a, &b),
            &mut Foreign::<O>::new(o, stream),
            bias.as_ref(),
        )?;
        return Ok(None);
    }
    // beta = 0 (checked): the kernel writes every element before anyone reads one
    let mut out = Output::<O>::alloc(ctx, stream, call.m * call.n)?;
    let s = out.slice();
    let addr = s.device_ptr(stream).0;
    T::gemm(ctx, stream, &call.g, (&a, &b), s, bias.as_ref())?;
    Ok(Some((Box::new(out), addr)))
}

fn dispatch(ctx: &Context, stream: &Arc<CudaStream>, call: &Call) -> PyResult<Made> {
    let r = match (call.a.dtype, call.out_dtype) {
        (Dtype::BF16, Dtype::BF16) => launch::<bf16, bf16>(ctx, stream, call),
        (Dtype::BF16, Dtype::F32) => launch::<bf16, f32>(ctx, stream, call),
        (Dtype::F16, Dtype::F16) => launch::<f16, f16>(ctx, stream, call),
        (Dtype::F16, Dtype::F32) => launch::<f16, f32>(ctx, stream, call),
        (Dtype::F32, Dtype::F32) => launch::<f32, f32>(ctx, stream, call),
        (a, o) => {
            return Err(PyTypeError::new_err(format!(
                "out has dtype {} for {} operands",
                o.name(),
                a.name()
            )));
        }
    };
    r.map_err(py_err)
}

/// Runs `f`, turning a panic into a RuntimeError (nothing aborts the interpreter).
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        Err(PyRuntimeError::new_err(format!(
            "cute_rs: internal error (please report): {msg}"
        )))
    })
}

/// The CUDA stream a DLPack producer is asked to order its tensor for: the caller's, else
/// the legacy default stream (`1` in DLPack's and the driver's numbering).
fn dlpack_stream(stream: Option<i64>) -> i64 {
    match stream {
        None | Some(0) => 1,
        Some(s) => s,
    }
}

/// `C = alpha · a @ b + beta · out` on `stream` (a CUstream as an int; None: the legacy
/// default stream). `a`, `b`, `out` are DLPack producers, or with `desc` what
/// `cute_rs._torch_desc` reads of torch tensors (no DLPack on the way in). Returns a
/// `dltensor` capsule of a new row-major C, or None when `out` was written.
#[pyfunction]
#[pyo3(signature = (a, b, out=None, alpha=1.0, beta=0.0, stream=None, desc=false, bias=None, activation=None))]
#[allow(clippy::too_many_arguments)]
fn gemm(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    alpha: f32,
    beta: f32,
    stream: Option<i64>,
    desc: bool,
    bias: Option<&Bound<'_, PyAny>>,
    activation: Option<&str>,
) -> PyResult<Option<Py<PyAny>>> {
    guarded(|| {
        if desc {
            let (ma, mb) = (torch_matrix("a", a)?, torch_matrix("b", b)?);
            let mo = out.map(|o| torch_matrix("out", o)).transpose()?;
            let mv = bias.map(|v| torch_strided("bias", v)).transpose()?;
            let call = plan_fused(ma, mb, mo, (alpha, beta), mv, activation)?;
            return run_call(py, call, stream);
        }
        // device checks first: a CPU producer may refuse a stream argument
        dlpack::cuda_device_of("a", a)?;
        dlpack::cuda_device_of("b", b)?;
        if let Some(o) = out {
            dlpack::cuda_device_of("out", o)?;
        }
        if let Some(v) = bias {
            dlpack::cuda_device_of("bias", v)?;
        }
        let s = dlpack_stream(stream);
        let ta = Borrowed::take("a", a, s)?;
        let tb = Borrowed::take("b", b, s)?;
        let to = out.map(|o| Borrowed::take("out", o, s)).transpose()?;
        let tv = bias.map(|v| Borrowed::take("bias", v, s)).transpose()?;
        let call = plan_fused(
            ta.matrix("a")?,
            tb.matrix("b")?,
            to.as_ref().map(|t| t.matrix("out")).transpose()?,
            (alpha, beta),
            tv.as_ref().map(|t| t.strided("bias")).transpose()?,
            activation,
        )?;
        let made = run_call(py, call, Some(s));
        drop((ta, tb, to, tv));
        made
    })
}

/// Result buffers made by `gemm` and not freed yet.
#[pyfunction]
fn live_buffers() -> i64 {
    LIVE.load(Ordering::Relaxed)
}

/// The device's name and compute capability, e.g. `NVIDIA H200 (sm_90, 132 SMs)`; a
/// RuntimeError without a usable GPU.
#[pyfunction]
#[pyo3(signature = (device=0))]
fn device(device: i32) -> PyResult<String> {
    guarded(|| Ok(context(device).map_err(py_err)?.device().to_string()))
}

/// A torch tensor as the Python wrapper reads it (`cute_rs._torch_desc`): data pointer, shape,
/// strides, dtype name, and the CUDA device index or, off CUDA, the device's name. Reading
/// these costs far less than torch's `__dlpack__` (a Python method with its own stream logic).
fn torch_matrix(name: &str, d: &Bound<'_, PyAny>) -> PyResult<Matrix> {
    let t = torch_strided(name, d)?;
    Matrix::new(
        name,
        t.dtype,
        t.device_id,
        t.addr,
        &t.shape,
        Some(t.strides.as_slice()),
    )
}

/// A torch tensor (as `cute_rs._torch_desc` reads it) of any rank, on CUDA.
fn torch_strided(name: &str, d: &Bound<'_, PyAny>) -> PyResult<dlpack::Strided> {
    let (ptr, shape, strides, dtype, device): (u64, Vec<i64>, Vec<i64>, String, Bound<'_, PyAny>) =
        d.extract()?;
    let device_id = match device.extract::<i32>() {
        Ok(i) => i,
        Err(_) => return Err(dlpack::not_cuda(name, &device.str()?.to_string())),
    };
    let dt = Dtype::from_name(&dtype).ok_or(dtype);
    Ok(dlpack::Strided::new(
        dt,
        device_id,
        ptr,
        shape,
        Some(strides),
    ))
}

/// The checked call queued on `stream`; a new result as a capsule.
fn run_call(py: Python<'_>, call: Call, stream: Option<i64>) -> PyResult<Option<Py<PyAny>>> {
    let device = call.a.device_id;
    let ctx = context(device).map_err(py_err)?;
    let stream = borrowed_stream(&ctx, stream);
    let made = dispatch(&ctx, &stream, &call)?;
    made.map(|(buf, addr)| dlpack::export(py, buf, addr, device, call.out_dtype, &[call.m, call.n]))
        .transpose()
}

/// The caller's stream as a cudarc stream of `ctx`.
fn borrowed_stream(ctx: &Context, stream: Option<i64>) -> Arc<CudaStream> {
    let raw = dlpack_stream(stream) as usize as host::cudarc::driver::sys::CUstream;
    // SAFETY: the caller's stream (the producer ordered the tensors for it) outlives the call;
    // a result buffer is freed on it later, stream-ordered, as PyTorch's allocator does.
    unsafe { ctx.cuda_context().wrap_borrowed_stream(raw) }
}

/// The same GEMM launched from Rust, for the overhead benchmark: `iters` launches of
/// `out = a @ b` on the tensors `_torch_desc` describes (the same buffers, so the same data,
/// as the Python calls), on `stream`; the wall-clock seconds from the first launch to the
/// stream's completion (one launch first, untimed).
#[pyfunction]
#[pyo3(signature = (a, b, out, iters, stream=None))]
fn _rust_gemm_seconds(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    iters: usize,
    stream: Option<i64>,
) -> PyResult<f64> {
    guarded(|| {
        let call = plan(
            torch_matrix("a", a)?,
            torch_matrix("b", b)?,
            Some(torch_matrix("out", out)?),
            1.0,
            0.0,
        )?;
        let ctx = context(call.a.device_id).map_err(py_err)?;
        let stream = borrowed_stream(&ctx, stream);
        dispatch(&ctx, &stream, &call)?;
        stream.synchronize().map_err(|e| py_err(e.into()))?;
        let t0 = std::time::Instant::now();
        for _ in 0..iters {
            dispatch(&ctx, &stream, &call)?;
        }
        stream.synchronize().map_err(|e| py_err(e.into()))?;
        Ok(t0.elapsed().as_secs_f64())
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gemm, m)?)?;
    m.add_function(wrap_pyfunction!(live_buffers, m)?)?;
    m.add_function(wrap_pyfunction!(device, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_gemm_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(attention::attention, m)?)?;
    m.add_function(wrap_pyfunction!(fp8::scaled_mm, m)?)?;
    Ok(())
}
