//! `cute_rs.scaled_mm`: the FP8 GEMM (`host::Context::gemm_fp8`) on torch / DLPack tensors,
//! with `torch._scaled_mm`'s arguments: `a` (M×K, row-major) times `b` (K×N, column-major:
//! `w.t()` of a row-major (N×K) weight), both e4m3 or both e5m2, per-tensor scales, a
//! bf16 / fp16 / fp32 result.
//!
//! In the host's terms (`GemmFp8Config`: `D (M'×N', column-major) = sa·sb·A (M'×K)·B (N'×K)ᵀ`,
//! A and B K-major) the row-major `a @ b` is `Dᵀ`: A is `b` (its columns are `w`'s K-contiguous
//! rows), B is `a`, D is `out` (row-major M×N = column-major N×M), so M' = N and N' = M. Every
//! check runs before a CUDA context exists (errors name the argument); `use_fast_accum` is
//! passed on as the host's `fast_accum` (False, torch's default: the promoted kernel), so
//! whatever the host refuses for it (today: promotion on e5m2) is a `ValueError` naming it.

use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::Arc;

use host::cudarc::driver::sys::CUdeviceptr;
use host::cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use host::gemm_fp8::{Fp8, GemmFp8Config};
use host::half::{bf16, f16};
use host::hgemm::GemmOut;
use host::{Context, Error};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::dlpack::{self, Borrowed, Dtype, Strided};
use crate::{Foreign, Made, Output, borrowed_stream, context, dlpack_stream, guarded};

/// One checked call.
struct Fp8Call {
    g: GemmFp8Config,
    device: i32,
    /// `a` and `b` (element (0, 0) of each).
    a: CUdeviceptr,
    b: CUdeviceptr,
    out: Option<CUdeviceptr>,
    out_dtype: Dtype,
    m: usize,
    n: usize,
}

/// The names the Python call uses.
const NAMES: [&str; 3] = ["a", "b", "out"];

/// `x` as a 2-D tensor: (rows, cols) and element strides.
fn matrix(name: &str, x: &Strided) -> PyResult<((usize, usize), (i64, i64))> {
    if x.shape.len() != 2 {
        return Err(PyValueError::new_err(format!(
            "{name} must be a 2-D matrix, it has shape {:?}",
            x.shape
        )));
    }
    let (r, c) = (x.shape[0].max(0) as usize, x.shape[1].max(0) as usize);
    Ok(((r, c), (x.strides[0], x.strides[1])))
}

/// Whether a (rows × cols) matrix with `strides` is tight along `major` (`true`: row-major,
/// strides (cols, 1); `false`: column-major, (1, rows)); a mode of extent 1 takes any stride.
fn tight((r, c): (usize, usize), (sr, sc): (i64, i64), row_major: bool) -> bool {
    let ok = |n: usize, s: i64, want: usize| n <= 1 || s == want as i64;
    if row_major {
        ok(c, sc, 1) && ok(r, sr, c)
    } else {
        ok(r, sr, 1) && ok(c, sc, r)
    }
}

fn plan(
    [a, b, out]: [Option<Strided>; 3],
    (scale_a, scale_b): (f32, f32),
    out_dtype: Option<&str>,
    fast_accum: bool,
) -> PyResult<Fp8Call> {
    let (Some(a), Some(b)) = (a, b) else {
        unreachable!("a and b are required arguments")
    };
    let fp8 = |name: &str, t: &Strided| -> PyResult<Fp8> {
        match &t.dtype {
            Ok(Dtype::E4M3) => Ok(Fp8::E4M3),
            Ok(Dtype::E5M2) => Ok(Fp8::E5M2),
            other => {
                let d = other
                    .as_ref()
                    .map_or_else(|n| n.clone(), |d| d.name().into());
                Err(PyTypeError::new_err(format!(
                    "{name} has dtype {d}: cute_rs.scaled_mm takes float8_e4m3fn or float8_e5m2"
                )))
            }
        }
    };
    let ty = fp8("a", &a)?;
    if fp8("b", &b)? != ty {
        return Err(PyTypeError::new_err(format!(
            "b has dtype {} but a has {}: cute_rs.scaled_mm takes two e4m3 or two e5m2 \
             operands (mixed e4m3 × e5m2 has no kernel yet)",
            b.dtype.as_ref().map_or("?", |d| d.name()),
            a.dtype.as_ref().map_or("?", |d| d.name()),
        )));
    }
    let ((m, k), sa) = matrix("a", &a)?;
    let ((k2, n), sb) = matrix("b", &b)?;
    if b.device_id != a.device_id {
        return Err(PyValueError::new_err(format!(
            "b is on cuda:{} but a is on cuda:{}",
            b.device_id, a.device_id
        )));
    }
    if k2 != k {
        return Err(PyValueError::new_err(format!(
            "b has {k2} rows but a has {k} columns: a @ b needs a (M×K) and b (K×N), got {:?} \
             and {:?}",
            (m, k),
            (k2, n)
        )));
    }
    if !tight((m, k), sa, true) {
        return Err(PyValueError::new_err(format!(
            "a (shape {:?}, strides {sa:?}) must be row-major and contiguous (strides ({k}, 1)): \
             the FP8 kernel reads K-major rows with no padding; pass a.contiguous()",
            (m, k)
        )));
    }
    if !tight((k, n), sb, false) {
        return Err(PyValueError::new_err(format!(
            "b (shape {:?}, strides {sb:?}) must be column-major and contiguous (strides (1, {k})): \
             b = w.t() of a contiguous (N, K) w, as torch._scaled_mm takes it",
            (k, n)
        )));
    }
    for (name, t) in [("a", &a), ("b", &b)] {
        if !t.addr.is_multiple_of(16) && m * n * k > 0 {
            return Err(PyValueError::new_err(format!(
                "{name}: its data pointer {:#x} is not 16-byte aligned (TMA needs it): pass a copy",
                t.addr
            )));
        }
    }
    if !k.is_multiple_of(16) {
        return Err(PyValueError::new_err(format!(
            "a and b: K = {k} must be a multiple of 16 (the FP8 kernel loads their K-major rows \
             by TMA, whose row strides of K bytes must be multiples of 16)"
        )));
    }
    for (name, s) in [("scale_a", scale_a), ("scale_b", scale_b)] {
        if !s.is_finite() {
            return Err(PyValueError::new_err(format!("{name}={s} must be finite")));
        }
    }
    let named = |d: &str| {
        Dtype::from_name(d)
            .filter(|d| matches!(d, Dtype::BF16 | Dtype::F16 | Dtype::F32))
            .ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "out_dtype={d}: cute_rs.scaled_mm writes bfloat16, float16 or float32"
                ))
            })
    };
    let want = out_dtype.map(named).transpose()?;
    let out_dtype =
        match &out {
            Some(o) => {
                let ((r, c), so) = matrix("out", o)?;
                let od = o
                .dtype
                .clone()
                .ok()
                .filter(|d| matches!(d, Dtype::BF16 | Dtype::F16 | Dtype::F32))
                .ok_or_else(|| {
                    let d = o.dtype.as_ref().map_or_else(|n| n.clone(), |d| d.name().into());
                    PyTypeError::new_err(format!(
                        "out has dtype {d}: cute_rs.scaled_mm writes bfloat16, float16 or float32"
                    ))
                })?;
                if want.is_some_and(|w| w != od) {
                    return Err(PyTypeError::new_err(format!(
                        "out has dtype {} but out_dtype is {}",
                        od.name(),
                        want.map_or("", |w| w.name())
                    )));
                }
                if o.device_id != a.device_id {
                    return Err(PyValueError::new_err(format!(
                        "out is on cuda:{} but a is on cuda:{}",
                        o.device_id, a.device_id
                    )));
                }
                if (r, c) != (m, n) {
                    return Err(PyValueError::new_err(format!(
                        "out has shape {:?}, a @ b has {:?}",
                        (r, c),
                        (m, n)
                    )));
                }
                if !tight((m, n), so, true) {
                    return Err(PyValueError::new_err(format!(
                        "out (strides {so:?}) must be row-major and contiguous (strides ({n}, 1))"
                    )));
                }
                od
            }
            None => want.unwrap_or(Dtype::BF16),
        };
    // the host's terms: A = b (N×K), B = a (M×K), D = out (N×M column-major)
    let g = GemmFp8Config::new(n, m, k, ty)
        .scales(scale_a, scale_b)
        .fast_accum(fast_accum);
    let lens = (n * k, m * k, m * n);
    if let Err(e) = g.check(lens.0, lens.1, lens.2) {
        // what the host refuses beyond the checks above is about the accumulation mode (or a
        // size past 2^31): name the argument when asking for fast accumulation would pass
        let fast_ok = g.fast_accum(true).check(lens.0, lens.1, lens.2).is_ok();
        return Err(PyValueError::new_err(if !fast_accum && fast_ok {
            format!("use_fast_accum=False: {e}; pass use_fast_accum=True")
        } else {
            format!("cute_rs.scaled_mm: {e}")
        }));
    }
    Ok(Fp8Call {
        g,
        device: a.device_id,
        a: a.addr,
        b: b.addr,
        out: out.map(|o| o.addr),
        out_dtype,
        m,
        n,
    })
}

/// A producer's bytes as the `CudaSlice<u8>` `Context::gemm_fp8` takes: made over the
/// address with `upgrade_device_ptr`, never freed here (leaked back on drop, whatever happens
/// in between). The context tracks no events (`crate::context`), so the slice records none.
struct View(ManuallyDrop<CudaSlice<u8>>);

impl View {
    fn new(stream: &Arc<CudaStream>, addr: CUdeviceptr, len: usize) -> View {
        // SAFETY: the producer keeps `len` bytes at `addr` alive for the call (it holds the
        // tensor); Drop hands the pointer back without freeing it.
        View(ManuallyDrop::new(unsafe {
            stream.upgrade_device_ptr(addr, len)
        }))
    }
}

impl Deref for View {
    type Target = CudaSlice<u8>;
    fn deref(&self) -> &CudaSlice<u8> {
        &self.0
    }
}

impl Drop for View {
    fn drop(&mut self) {
        // SAFETY: taken once, here; `leak` forgets the allocation instead of freeing it.
        unsafe { ManuallyDrop::take(&mut self.0) }.leak();
    }
}

fn launch<O: GemmOut + Send + 'static>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    call: &Fp8Call,
) -> host::Result<Made> {
    let k = call.g.k;
    // A is `b`, B is `a`
    let (a, b) = (
        View::new(stream, call.b, call.n * k),
        View::new(stream, call.a, call.m * k),
    );
    if let Some(o) = call.out {
        let mut d = Foreign::<O>::at(o, call.m * call.n, stream);
        ctx.gemm_fp8::<O, _>(stream, &call.g, &a, &b, &mut d)?;
        return Ok(None);
    }
    let mut out = Output::<O>::alloc(ctx, stream, call.m * call.n)?;
    let s = out.slice();
    let addr = s.device_ptr(stream).0;
    ctx.gemm_fp8::<O, _>(stream, &call.g, &a, &b, s)?;
    Ok(Some((Box::new(out), addr)))
}

/// A host error past the checks: no usable GPU, a GPU without the kernel (it is sm_90a) or a
/// failed launch → RuntimeError; a refusal → ValueError.
fn fp8_err(e: Error) -> PyErr {
    if e.is_unavailable() {
        return PyRuntimeError::new_err(format!("cute_rs: no usable GPU: {e}"));
    }
    match e {
        Error::NeedsArch { .. } | Error::MissingKernel(_) | Error::Driver(_) => {
            PyRuntimeError::new_err(format!("cute_rs.scaled_mm: {e}"))
        }
        _ => PyValueError::new_err(format!("cute_rs.scaled_mm: {e}")),
    }
}

fn run(py: Python<'_>, call: Fp8Call, stream: Option<i64>) -> PyResult<Option<Py<PyAny>>> {
    let ctx = context(call.device).map_err(fp8_err)?;
    let stream = borrowed_stream(&ctx, stream);
    let made = match call.out_dtype {
        Dtype::BF16 => launch::<bf16>(&ctx, &stream, &call),
        Dtype::F16 => launch::<f16>(&ctx, &stream, &call),
        Dtype::F32 => launch::<f32>(&ctx, &stream, &call),
        Dtype::E4M3 | Dtype::E5M2 => unreachable!("plan refuses an FP8 out"),
    }
    .map_err(fp8_err)?;
    made.map(|(buf, addr)| {
        dlpack::export(
            py,
            buf,
            addr,
            call.device,
            call.out_dtype,
            &[call.m, call.n],
        )
    })
    .transpose()
}

/// `out = scale_a·scale_b·(a @ b)` of FP8 `a` (M×K row-major) and `b` (K×N column-major) on
/// `stream` (a CUstream as an int; None: the legacy default stream); `out_dtype` by name
/// (None: `out`'s, else bfloat16). `a`, `b`, `out` are DLPack producers, or with `desc` what
/// `cute_rs._torch_desc` reads of torch tensors. Returns a `dltensor` capsule of a new
/// row-major result, or None when `out` was written.
#[pyfunction]
#[pyo3(signature = (a, b, scale_a, scale_b, out_dtype=None, out=None, use_fast_accum=false,
    stream=None, desc=false))]
#[allow(clippy::too_many_arguments)]
pub fn scaled_mm(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    scale_a: f32,
    scale_b: f32,
    out_dtype: Option<&str>,
    out: Option<&Bound<'_, PyAny>>,
    use_fast_accum: bool,
    stream: Option<i64>,
    desc: bool,
) -> PyResult<Option<Py<PyAny>>> {
    guarded(|| {
        let args = [Some(a), Some(b), out];
        let scales = (scale_a, scale_b);
        if desc {
            let mut ts: [Option<Strided>; 3] = Default::default();
            for ((name, x), t) in NAMES.iter().zip(args).zip(&mut ts) {
                *t = x.map(|x| crate::torch_strided(name, x)).transpose()?;
            }
            let call = plan(ts, scales, out_dtype, use_fast_accum)?;
            return run(py, call, stream);
        }
        // device checks first: a CPU producer may refuse a stream argument
        for (name, x) in NAMES.iter().zip(args) {
            if let Some(x) = x {
                dlpack::cuda_device_of(name, x)?;
            }
        }
        let s = dlpack_stream(stream);
        let mut taken: [Option<Borrowed>; 3] = Default::default();
        for ((name, x), t) in NAMES.iter().zip(args).zip(&mut taken) {
            *t = x.map(|x| Borrowed::take(name, x, s)).transpose()?;
        }
        let mut ts: [Option<Strided>; 3] = Default::default();
        for ((name, x), t) in NAMES.iter().zip(&taken).zip(&mut ts) {
            *t = x.as_ref().map(|x| x.strided(name)).transpose()?;
        }
        let made = run(py, plan(ts, scales, out_dtype, use_fast_accum)?, Some(s));
        drop(taken);
        made
    })
}
