//! `cute_rs.attention`: the Hopper attention forward (`host::Context::attention`) on DLPack /
//! torch tensors in FlashAttention's layout, `(batch, seqlen, heads, head_dim)` (varlen:
//! `(total_tokens, heads, head_dim)` with `cu_seqlens`).
//!
//! The tensors' shapes and strides become a `host::attention::AttentionConfig`; every check
//! the host makes of it (head dim, head counts, GQA ratio, lengths, `cu_seqlens`, scale,
//! strides, buffer extents, alignment) runs here before a context exists, so argument errors
//! need no GPU and carry the host's message; `Context::attention` checks again and launches
//! on the caller's stream.

use std::sync::Arc;

use host::attention::{AttentionConfig, AttentionError, AttnElement, Causal, check_addresses};
use host::cudarc::driver::{CudaStream, DevicePtr};
use host::half::{bf16, f16};
use host::{Context, Error};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::dlpack::{self, Borrowed, Dtype, Strided};
use crate::{Foreign, Made, Output, borrowed_stream, context, dlpack_stream, guarded};

/// The capsules of a new O (None when `out` was written) and of the LSE (when asked for).
type Results = (Option<Py<PyAny>>, Option<Py<PyAny>>);

/// The tensor names, in argument order.
const NAMES: [&str; 4] = ["q", "k", "v", "out"];

/// A tensor of the call once its shape and strides went into the config: where it is and the
/// elements it spans.
#[derive(Clone, Copy, Debug)]
struct Operand {
    addr: u64,
    span: usize,
}

/// What one call does, checked: the problem and the tensors it reads and writes.
struct AttnCall {
    cfg: AttentionConfig,
    dtype: Dtype,
    device: i32,
    q: Operand,
    k: Operand,
    v: Operand,
    out: Option<Operand>,
    /// O's shape (q's), for a new result.
    out_shape: Vec<usize>,
    /// LSE's shape: `(batch, heads, seqlen_q)`, varlen `(heads, total_q)`.
    lse_shape: Vec<usize>,
}

/// The keyword arguments besides the tensors.
struct Options {
    causal: Option<String>,
    scale: Option<f64>,
    cu_seqlens_q: Option<Vec<i64>>,
    cu_seqlens_k: Option<Vec<i64>>,
    max_seqlen_q: Option<i64>,
    max_seqlen_k: Option<i64>,
}

/// A host error as the Python exception it is: no usable GPU, a device without the kernel, or
/// a failed launch → RuntimeError; a problem the host refuses → ValueError with its message.
fn attn_err(e: Error) -> PyErr {
    if e.is_unavailable() {
        return PyRuntimeError::new_err(format!("cute_rs: no usable GPU: {e}"));
    }
    match e {
        Error::Attention(AttentionError::ComputeCapability { .. }) => {
            PyRuntimeError::new_err(format!("cute_rs: {e}"))
        }
        Error::Attention(_) | Error::BufferTooSmall { .. } => PyValueError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(format!("cute_rs: {e}")),
    }
}

fn value_err(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `cu_seqlens` as the host takes them (int32, FlashAttention's type).
fn cu_i32(name: &str, cu: &[i64]) -> PyResult<Vec<i32>> {
    cu.iter()
        .enumerate()
        .map(|(i, &x)| {
            i32::try_from(x).map_err(|_| {
                PyValueError::new_err(format!("{name}[{i}]={x} does not fit in int32"))
            })
        })
        .collect()
}

/// A tensor as (batch, token, head, d): a varlen tensor (token, head, d) is one batch of
/// stride 0. A mode of extent 1 takes no stride of its own: it gets one past every other
/// mode (as a tight tensor has), so that views made by `unsqueeze` or slicing pass the host's
/// stride rules that only matter for modes that are walked.
fn modes(t: &Strided, varlen: bool) -> ([usize; 4], [i64; 4]) {
    let (mut shape, mut stride) = ([1usize; 4], [0i64; 4]);
    let skip = usize::from(varlen);
    for i in skip..4 {
        shape[i] = t.shape[i - skip].max(0) as usize;
        stride[i] = t.strides[i - skip];
    }
    let reach = (0..4)
        .filter(|&i| shape[i] > 1)
        .map(|i| stride[i].saturating_mul(shape[i] as i64))
        .max()
        .unwrap_or(1)
        .max(shape[3] as i64);
    for i in skip..3 {
        if shape[i] == 1 {
            stride[i] = reach;
        }
    }
    (shape, stride)
}

fn plan(tensors: [Option<Strided>; 4], o: Options) -> PyResult<AttnCall> {
    let [Some(q), Some(k), Some(v), out] = tensors else {
        unreachable!("q, k and v are required arguments")
    };
    let dtype = match &q.dtype {
        Ok(d @ (Dtype::BF16 | Dtype::F16)) => *d,
        other => {
            let name = other
                .as_ref()
                .map_or_else(|n| n.clone(), |d| d.name().into());
            return Err(PyTypeError::new_err(format!(
                "q has dtype {name}: cute_rs.attention takes bfloat16 or float16"
            )));
        }
    };
    let all = [Some(&q), Some(&k), Some(&v), out.as_ref()];
    for (name, t) in NAMES.iter().zip(all).skip(1) {
        let Some(t) = t else { continue };
        if t.dtype != Ok(dtype) {
            let has = t
                .dtype
                .as_ref()
                .map_or_else(|n| n.clone(), |d| d.name().into());
            return Err(PyTypeError::new_err(format!(
                "{name} has dtype {has} but q has {}: q, k, v and out need one dtype",
                dtype.name()
            )));
        }
        if t.device_id != q.device_id {
            return Err(PyValueError::new_err(format!(
                "{name} is on cuda:{} but q is on cuda:{}",
                t.device_id, q.device_id
            )));
        }
    }
    let varlen = o.cu_seqlens_q.is_some() || o.cu_seqlens_k.is_some();
    if o.cu_seqlens_q.is_some() != o.cu_seqlens_k.is_some() {
        return Err(PyValueError::new_err(
            "cu_seqlens_q and cu_seqlens_k go together: a varlen batch needs both",
        ));
    }
    if !varlen && (o.max_seqlen_q.is_some() || o.max_seqlen_k.is_some()) {
        return Err(PyValueError::new_err(
            "max_seqlen_q / max_seqlen_k describe a varlen batch: pass cu_seqlens_q and cu_seqlens_k too",
        ));
    }
    let (rank, what) = if varlen {
        (3, "3-D (total_tokens, heads, head_dim) in a varlen batch")
    } else {
        (4, "4-D (batch, seqlen, heads, head_dim)")
    };
    for (name, t) in NAMES.iter().zip(all) {
        if let Some(t) = t
            && t.shape.len() != rank
        {
            return Err(PyValueError::new_err(format!(
                "{name} must be {what}, it has shape {:?}",
                t.shape
            )));
        }
    }
    let [(qs, qst), (ks, kst), (vs, vst)] = [&q, &k, &v].map(|t| modes(t, varlen));
    let d = qs[3];
    for (name, s) in [("k", ks), ("v", vs)] {
        if s[3] != d {
            return Err(PyValueError::new_err(format!(
                "{name} has head_dim {} but q has {d}",
                s[3]
            )));
        }
    }
    if vs != ks {
        return Err(PyValueError::new_err(format!(
            "v has shape {:?} but k has {:?}: keys and values need one shape",
            v.shape, k.shape
        )));
    }
    if ks[0] != qs[0] {
        return Err(PyValueError::new_err(format!(
            "k has batch {} but q has {}",
            ks[0], qs[0]
        )));
    }
    if let Some(t) = &out
        && t.shape != q.shape
    {
        return Err(PyValueError::new_err(format!(
            "out has shape {:?}, the output has q's shape {:?}",
            t.shape, q.shape
        )));
    }
    for (name, t) in NAMES.iter().zip(all) {
        if let Some(t) = t
            && d > 1
            && t.strides[rank - 1] != 1
        {
            return Err(PyValueError::new_err(format!(
                "{name}: its last dimension (head_dim) must be contiguous (stride 1), it has \
                 stride {}: pass {name}.contiguous()",
                t.strides[rank - 1]
            )));
        }
    }
    let causal = match o.causal.as_deref() {
        None => None,
        Some("top_left") => Some(Causal::TopLeft),
        Some("bottom_right") => Some(Causal::BottomRight),
        Some(c) => {
            return Err(PyValueError::new_err(format!(
                "causal={c:?}: None, \"top_left\" (torch's is_causal) or \"bottom_right\" \
                 (FlashAttention's)"
            )));
        }
    };
    let mut cfg = match (&o.cu_seqlens_q, &o.cu_seqlens_k) {
        (Some(cq), Some(ck)) => AttentionConfig::varlen(
            qs[2],
            d,
            cu_i32("cu_seqlens_q", cq)?,
            cu_i32("cu_seqlens_k", ck)?,
        ),
        _ => AttentionConfig::new(qs[0], qs[2], qs[1], ks[1], d),
    }
    .heads_kv(ks[2]);
    if let Some(c) = causal {
        cfg = cfg.causal(c);
    }
    if let Some(s) = o.scale {
        cfg = cfg.scale(s as f32);
    }
    let tail = |s: [i64; 4]| [s[0], s[1], s[2]];
    cfg = cfg
        .q_stride(tail(qst))
        .k_stride(tail(kst))
        .v_stride(tail(vst));
    if let Some(t) = &out {
        cfg = cfg.o_stride(tail(modes(t, varlen).1));
    }
    let p = cfg.check_shape().map_err(value_err)?;
    if varlen {
        for (name, cu, tokens, max, longest) in [
            ("q", &p.cu_seqlens_q, qs[1], o.max_seqlen_q, p.seqlen_q),
            ("k", &p.cu_seqlens_k, ks[1], o.max_seqlen_k, p.seqlen_k),
        ] {
            let end = cu.as_ref().and_then(|c| c.last()).copied().unwrap_or(0);
            if end as usize != tokens {
                return Err(PyValueError::new_err(format!(
                    "cu_seqlens_{name} ends at {end} but {name} has {tokens} tokens"
                )));
            }
            if let Some(m) = max
                && m < longest as i64
            {
                return Err(PyValueError::new_err(format!(
                    "max_seqlen_{name}={m} is less than the longest sequence of cu_seqlens_{name} ({longest})"
                )));
            }
        }
    }
    let (q_op, k_op, v_op) = (operand(&q), operand(&k), operand(&v));
    let out_op = out.as_ref().map(operand);
    let out_shape: Vec<usize> = q.shape.iter().map(|&n| n.max(0) as usize).collect();
    let lse_shape = if varlen {
        vec![p.heads_q, qs[1]]
    } else {
        vec![p.batch, p.heads_q, p.seqlen_q]
    };
    let mut lens = host::attention::problem_lens(&p);
    (lens.q, lens.k, lens.v) = (q_op.span, k_op.span, v_op.span);
    if let Some(t) = out_op {
        lens.o = t.span;
    }
    cfg.check(&lens).map_err(value_err)?;
    let mut addrs = vec![("Q", q_op.addr), ("K", k_op.addr), ("V", v_op.addr)];
    addrs.extend(out_op.map(|t| ("O", t.addr)));
    check_addresses(&addrs).map_err(value_err)?;
    Ok(AttnCall {
        cfg,
        dtype,
        device: q.device_id,
        q: q_op,
        k: k_op,
        v: v_op,
        out: out_op,
        out_shape,
        lse_shape,
    })
}

fn operand(t: &Strided) -> Operand {
    Operand {
        addr: t.addr,
        span: t.span(),
    }
}

/// The launch on `stream`, into `out` or a new buffer, and with `want_lse` into a new LSE
/// buffer (without, the kernel stores none: `Context::attention_with`'s `None`).
fn launch<T: AttnElement>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    call: &AttnCall,
    want_lse: bool,
) -> host::Result<(Made, Made)> {
    let [q, k, v] = [call.q, call.k, call.v].map(|t| Foreign::<T>::at(t.addr, t.span, stream));
    let mut lse = if want_lse {
        Some(Output::<f32>::alloc(
            ctx,
            stream,
            call.lse_shape.iter().product(),
        )?)
    } else {
        None
    };
    let lse_addr = lse.as_mut().map(|l| l.slice().device_ptr(stream).0);
    let made = match call.out {
        Some(t) => {
            let mut o = Foreign::<T>::at(t.addr, t.span, stream);
            let l = lse.as_mut().map(|l| l.slice());
            ctx.attention_with(stream, &call.cfg, &q, &k, &v, &mut o, l)?;
            None
        }
        None => {
            let mut o = Output::<T>::alloc(ctx, stream, call.out_shape.iter().product())?;
            let addr = o.slice().device_ptr(stream).0;
            let l = lse.as_mut().map(|l| l.slice());
            ctx.attention_with(stream, &call.cfg, &q, &k, &v, o.slice(), l)?;
            Some((Box::new(o) as Box<dyn Send>, addr))
        }
    };
    let lse = lse
        .zip(lse_addr)
        .map(|(l, a)| (Box::new(l) as Box<dyn Send>, a));
    Ok((made, lse))
}

/// `softmax(scale · q·kᵀ + mask) · v` and its log-sum-exp on `stream` (a CUstream as an
/// int; None: the legacy default stream). `q`, `k`, `v`, `out` are DLPack producers, or with
/// `desc` what `cute_rs._torch_desc` reads of torch tensors. Returns the `dltensor` capsules
/// of a new O (None when `out` was written) and, if `lse`, of the LSE.
#[pyfunction]
#[pyo3(signature = (q, k, v, out=None, causal=None, scale=None, lse=false, cu_seqlens_q=None,
    cu_seqlens_k=None, max_seqlen_q=None, max_seqlen_k=None, stream=None, desc=false))]
#[allow(clippy::too_many_arguments)]
pub fn attention(
    py: Python<'_>,
    q: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    causal: Option<String>,
    scale: Option<f64>,
    lse: bool,
    cu_seqlens_q: Option<Vec<i64>>,
    cu_seqlens_k: Option<Vec<i64>>,
    max_seqlen_q: Option<i64>,
    max_seqlen_k: Option<i64>,
    stream: Option<i64>,
    desc: bool,
) -> PyResult<Results> {
    guarded(|| {
        let opts = Options {
            causal,
            scale,
            cu_seqlens_q,
            cu_seqlens_k,
            max_seqlen_q,
            max_seqlen_k,
        };
        let args = [Some(q), Some(k), Some(v), out];
        if desc {
            let mut ts: [Option<Strided>; 4] = Default::default();
            for ((name, a), t) in NAMES.iter().zip(args).zip(&mut ts) {
                *t = a.map(|a| crate::torch_strided(name, a)).transpose()?;
            }
            return run(py, plan(ts, opts)?, stream, lse);
        }
        // device checks first: a CPU producer may refuse a stream argument
        for (name, a) in NAMES.iter().zip(args) {
            if let Some(a) = a {
                dlpack::cuda_device_of(name, a)?;
            }
        }
        let s = dlpack_stream(stream);
        let mut taken: [Option<Borrowed>; 4] = Default::default();
        for ((name, a), t) in NAMES.iter().zip(args).zip(&mut taken) {
            *t = a.map(|a| Borrowed::take(name, a, s)).transpose()?;
        }
        let mut ts: [Option<Strided>; 4] = Default::default();
        for ((name, b), t) in NAMES.iter().zip(&taken).zip(&mut ts) {
            *t = b.as_ref().map(|b| b.strided(name)).transpose()?;
        }
        let made = run(py, plan(ts, opts)?, Some(s), lse);
        drop(taken);
        made
    })
}

/// The checked call queued on `stream`; new results as capsules.
fn run(py: Python<'_>, call: AttnCall, stream: Option<i64>, want_lse: bool) -> PyResult<Results> {
    let ctx = context(call.device).map_err(attn_err)?;
    let stream = borrowed_stream(&ctx, stream);
    let (o, l) = match call.dtype {
        Dtype::BF16 => launch::<bf16>(&ctx, &stream, &call, want_lse),
        Dtype::F16 => launch::<f16>(&ctx, &stream, &call, want_lse),
        Dtype::F32 | Dtype::E4M3 | Dtype::E5M2 => unreachable!("plan refuses them"),
    }
    .map_err(attn_err)?;
    let o = o
        .map(|(buf, addr)| dlpack::export(py, buf, addr, call.device, call.dtype, &call.out_shape))
        .transpose()?;
    let l = match l {
        Some((buf, addr)) if want_lse => Some(dlpack::export(
            py,
            buf,
            addr,
            call.device,
            Dtype::F32,
            &call.lse_shape,
        )?),
        _ => None,
    };
    Ok((o, l))
}
