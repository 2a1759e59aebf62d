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

use host::BiasMode;
use host::cudarc::driver::sys::CUdeviceptr;
use host::cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use host::gemm_fp8::{Fp8, Fp8Vectors, GemmFp8Config};
use host::half::{bf16, f16};
use host::hgemm::GemmOut;
use host::{Context, Error};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::dlpack::{self, Borrowed, Dtype, Strided};
use crate::{Foreign, Made, Output, borrowed_stream, context, dlpack_stream, f32_vector, guarded};

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
    /// The fused epilogue's float32 vectors in the host's terms (address, length): the bias
    /// (`bias=`, one per column of `a @ b`: along the host's M), the row scales (a row-wise
    /// `scale_b`) and the column scales (a row-wise `scale_a`).
    vectors: [Option<(CUdeviceptr, usize)>; 3],
}

/// The names the Python call uses.
const NAMES: [&str; 3] = ["a", "b", "out"];

/// The names of the vector arguments, as [`plan`] takes them.
const VECTORS: [&str; 3] = ["scale_a", "scale_b", "bias"];

/// What a row-wise `scale_a` / `scale_b` holds (its shape error says it).
const SCALE_A: &str = "one value per row of a (or one value: per-tensor)";
const SCALE_B: &str = "one value per column of b (or one value: per-tensor)";

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
    [vec_a, vec_b, bias]: [Option<Strided>; 3],
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
    // the fused epilogue's vectors: a row-wise scale_a (one per row of a: torch's (M, 1)), a
    // row-wise scale_b (one per column of b: (1, N)), a bias (one per column of a @ b)
    let dev = a.device_id;
    let va = vec_a
        .as_ref()
        .map(|v| f32_vector("scale_a", v, &[&[m, 1], &[m]], dev, SCALE_A))
        .transpose()?;
    let vb = vec_b
        .as_ref()
        .map(|v| f32_vector("scale_b", v, &[&[1, n], &[n]], dev, SCALE_B))
        .transpose()?;
    let vbias = bias
        .as_ref()
        .map(|v| f32_vector("bias", v, &[&[n]], dev, "one value per column of a @ b"))
        .transpose()?;
    let fused = [va, vb, vbias].iter().any(Option::is_some);
    if fused && (fast_accum || ty != Fp8::E4M3) {
        let given: Vec<&str> = VECTORS
            .iter()
            .zip([va, vb, vbias])
            .filter_map(|(name, v)| v.map(|_| *name))
            .collect();
        return Err(PyValueError::new_err(format!(
            "{} (row-wise scales or a bias) run on the promoted e4m3 kernel's fused epilogue: {}",
            given.join(", "),
            if ty != Fp8::E4M3 {
                "e5m2 operands take per-tensor scales and no bias"
            } else {
                "use_fast_accum=True is not supported with them"
            }
        )));
    }
    // the host's terms: A = b (N×K), B = a (M×K), D = out (N×M column-major): a @ b's columns
    // are D's rows, so scale_b's vector is D's row scales, scale_a's its column scales and the
    // bias runs along D's M
    let g = GemmFp8Config::new(n, m, k, ty)
        .scales(scale_a, scale_b)
        .fast_accum(fast_accum)
        .bias(if vbias.is_some() {
            BiasMode::M
        } else {
            BiasMode::None
        })
        .row_col_scales(vb.is_some(), va.is_some());
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
        vectors: [
            vbias.map(|p| (p, n)),
            vb.map(|p| (p, n)),
            va.map(|p| (p, m)),
        ],
    })
}

/// A producer's elements as the `CudaSlice` `Context::gemm_fp8` takes (its bytes, or a
/// float32 vector): made over the address with `upgrade_device_ptr`, never freed here (leaked
/// back on drop, whatever happens in between). The context tracks no events
/// (`crate::context`), so the slice records none.
struct View<T>(ManuallyDrop<CudaSlice<T>>);

impl<T> View<T> {
    fn new(stream: &Arc<CudaStream>, addr: CUdeviceptr, len: usize) -> View<T> {
        // SAFETY: the producer keeps `len` bytes at `addr` alive for the call (it holds the
        // tensor); Drop hands the pointer back without freeing it.
        View(ManuallyDrop::new(unsafe {
            stream.upgrade_device_ptr(addr, len)
        }))
    }
}

impl<T> Deref for View<T> {
    type Target = CudaSlice<T>;
    fn deref(&self) -> &CudaSlice<T> {
        &self.0
    }
}

impl<T> Drop for View<T> {
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
        View::<u8>::new(stream, call.b, call.n * k),
        View::<u8>::new(stream, call.a, call.m * k),
    );
    let [bias, row, col] = call
        .vectors
        .map(|v| v.map(|(addr, len)| View::<f32>::new(stream, addr, len)));
    let v = Fp8Vectors {
        bias: bias.as_deref(),
        row_scales: row.as_deref(),
        col_scales: col.as_deref(),
    };
    fn gemm<O: GemmOut, D: DevicePtrMut<O>>(
        ctx: &Context,
        stream: &Arc<CudaStream>,
        g: &GemmFp8Config,
        (a, b): (&CudaSlice<u8>, &CudaSlice<u8>),
        v: Fp8Vectors<'_>,
        d: &mut D,
    ) -> host::Result<()> {
        if g.is_fused() {
            ctx.gemm_fp8_fused::<O, D>(stream, g, a, b, v, d)
        } else {
            ctx.gemm_fp8::<O, D>(stream, g, a, b, d)
        }
    }
    if let Some(o) = call.out {
        let mut d = Foreign::<O>::at(o, call.m * call.n, stream);
        gemm::<O, _>(ctx, stream, &call.g, (&a, &b), v, &mut d)?;
        return Ok(None);
    }
    let mut out = Output::<O>::alloc(ctx, stream, call.m * call.n)?;
    let s = out.slice();
    let addr = s.device_ptr(stream).0;
    gemm::<O, _>(ctx, stream, &call.g, (&a, &b), v, s)?;
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

/// `out = scale_a·scale_b·(a @ b) (+ bias)` of FP8 `a` (M×K row-major) and `b` (K×N
/// column-major) on `stream` (a CUstream as an int; None: the legacy default stream);
/// `out_dtype` by name (None: `out`'s, else bfloat16). `scale_a` and `scale_b` are the
/// per-tensor values; `scale_a_vec` (M float32) and `scale_b_vec` (N) row-wise scales in their
/// place, `bias` N float32 (the wrapper passes 1.0 for a scale given as a vector). `a`, `b`,
/// `out` and the vectors are DLPack producers, or with `desc` what `cute_rs._torch_desc` reads
/// of torch tensors. Returns a `dltensor` capsule of a new row-major result, or None when
/// `out` was written.
#[pyfunction]
#[pyo3(signature = (a, b, scale_a, scale_b, out_dtype=None, out=None, use_fast_accum=false,
    stream=None, desc=false, scale_a_vec=None, scale_b_vec=None, bias=None))]
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
    scale_a_vec: Option<&Bound<'_, PyAny>>,
    scale_b_vec: Option<&Bound<'_, PyAny>>,
    bias: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Py<PyAny>>> {
    guarded(|| {
        let args = [Some(a), Some(b), out];
        let vecs = [scale_a_vec, scale_b_vec, bias];
        let scales = (scale_a, scale_b);
        if desc {
            let mut ts: [Option<Strided>; 3] = Default::default();
            for ((name, x), t) in NAMES.iter().zip(args).zip(&mut ts) {
                *t = x.map(|x| crate::torch_strided(name, x)).transpose()?;
            }
            let mut vs: [Option<Strided>; 3] = Default::default();
            for ((name, x), t) in VECTORS.iter().zip(vecs).zip(&mut vs) {
                *t = x.map(|x| crate::torch_strided(name, x)).transpose()?;
            }
            let call = plan(ts, scales, vs, out_dtype, use_fast_accum)?;
            return run(py, call, stream);
        }
        // device checks first: a CPU producer may refuse a stream argument
        for (name, x) in NAMES.iter().zip(args).chain(VECTORS.iter().zip(vecs)) {
            if let Some(x) = x {
                dlpack::cuda_device_of(name, x)?;
            }
        }
        let s = dlpack_stream(stream);
        let mut taken: [Option<Borrowed>; 6] = Default::default();
        for ((name, x), t) in NAMES
            .iter()
            .zip(args)
            .chain(VECTORS.iter().zip(vecs))
            .zip(&mut taken)
        {
            *t = x.map(|x| Borrowed::take(name, x, s)).transpose()?;
        }
        let mut ts: [Option<Strided>; 6] = Default::default();
        for ((name, x), t) in NAMES.iter().chain(&VECTORS).zip(&taken).zip(&mut ts) {
            *t = x.as_ref().map(|x| x.strided(name)).transpose()?;
        }
        let [ta, tb, to, va, vb, vbias] = ts;
        let call = plan(
            [ta, tb, to],
            scales,
            [va, vb, vbias],
            out_dtype,
            use_fast_accum,
        )?;
        let made = run(py, call, Some(s));
        drop(taken);
        made
    })
}
