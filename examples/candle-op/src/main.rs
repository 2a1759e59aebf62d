//! cute-rs's kernels on candle tensors: a `CustomOp2` (our bf16 GEMM) and a `CustomOp3` (our
//! attention forward) whose `cuda_fwd` hands candle's `CudaStorage` — the `CudaSlice` of the
//! tensor, at its layout's offset — and candle's stream to `host::Context`, and wraps the result
//! as candle storage. Checked on the GPU against candle's own matmul and an attention composed of
//! candle ops (fp32), within the kernels' error bounds.
//!
//! ```text
//! cd examples/candle-op && cargo run --release      # SKIP (exit 0) without a CUDA device
//! ```
//!
//! One cudarc for both: candle-core 0.11 and `host` resolve to the same cudarc 0.19, so
//! candle's `CudaSlice<bf16>` is the type `Context::hgemm` takes, and a `Context` made from the
//! `CudaContext` of candle's stream shares candle's context (no copies, no second context).

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;

use candle_core::{
    CpuStorage, CudaStorage, CustomOp2, CustomOp3, D, DType, Device, Layout, Shape, Tensor, bail,
};
use host::attention::{AttentionConfig, Causal};
use host::half::bf16;
use host::{Context, GemmConfig};

/// A host error as candle's.
fn wrap(e: host::Error) -> candle_core::Error {
    candle_core::Error::Msg(format!("cute-rs: {e}"))
}

/// `a @ b` of row-major bf16 matrices by cute-rs's Hopper GEMM: in its column-major terms
/// `Cᵀ (n×m) = bᵀ (n×k) · aᵀ (k×m)`, every leading dimension tight.
struct HGemm(Arc<Context>);

impl CustomOp2 for HGemm {
    fn name(&self) -> &'static str {
        "cute-rs-hgemm"
    }

    fn cpu_fwd(
        &self,
        _: &CpuStorage,
        _: &Layout,
        _: &CpuStorage,
        _: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        bail!("cute-rs-hgemm runs on CUDA tensors")
    }

    fn cuda_fwd(
        &self,
        a: &CudaStorage,
        la: &Layout,
        b: &CudaStorage,
        lb: &Layout,
    ) -> candle_core::Result<(CudaStorage, Shape)> {
        let ((m, k), (k2, n)) = (la.shape().dims2()?, lb.shape().dims2()?);
        if k != k2 || !la.is_contiguous() || !lb.is_contiguous() {
            bail!("cute-rs-hgemm: contiguous (m, k) @ (k, n), got {la:?} and {lb:?}")
        }
        let dev = a.device.clone();
        let stream = dev.cuda_stream();
        let av = a.as_cuda_slice::<bf16>()?.slice(la.start_offset()..);
        let bv = b.as_cuda_slice::<bf16>()?.slice(lb.start_offset()..);
        // SAFETY: beta = 0: the GEMM writes every element of C
        let mut c = unsafe { dev.alloc::<bf16>(m * n) }?;
        let g = GemmConfig::new(n, m, k); // lda = n, ldb = k, ldc = n
        self.0
            .hgemm::<bf16, bf16, _, _, _>(&stream, &g, &bv, &av, &mut c)
            .map_err(wrap)?;
        Ok((CudaStorage::wrap_cuda_slice(c, dev), Shape::from((m, n))))
    }
}

/// `softmax(q·kᵀ/√d + mask)·v` of bf16 `(batch, seqlen, heads, d)` tensors (any strides with a
/// contiguous `d`; GQA from the head counts) by cute-rs's attention forward.
struct Attention {
    ctx: Arc<Context>,
    causal: Option<Causal>,
}

/// A layout's (batch, token, head) element strides; `d` must be contiguous.
fn strides(l: &Layout) -> candle_core::Result<[i64; 3]> {
    match l.stride() {
        &[b, t, h, 1] => Ok([b as i64, t as i64, h as i64]),
        s => {
            bail!("cute-rs-attention: (batch, seqlen, heads, d) with a contiguous d, strides {s:?}")
        }
    }
}

impl CustomOp3 for Attention {
    fn name(&self) -> &'static str {
        "cute-rs-attention"
    }

    fn cpu_fwd(
        &self,
        _: &CpuStorage,
        _: &Layout,
        _: &CpuStorage,
        _: &Layout,
        _: &CpuStorage,
        _: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        bail!("cute-rs-attention runs on CUDA tensors")
    }

    fn cuda_fwd(
        &self,
        q: &CudaStorage,
        lq: &Layout,
        k: &CudaStorage,
        lk: &Layout,
        v: &CudaStorage,
        lv: &Layout,
    ) -> candle_core::Result<(CudaStorage, Shape)> {
        let (b, sq, h, d) = lq.shape().dims4()?;
        let (_, sk, hk, _) = lk.shape().dims4()?;
        let mut cfg = AttentionConfig::new(b, h, sq, sk, d)
            .heads_kv(hk)
            .q_stride(strides(lq)?)
            .k_stride(strides(lk)?)
            .v_stride(strides(lv)?);
        if let Some(c) = self.causal {
            cfg = cfg.causal(c);
        }
        let dev = q.device.clone();
        let stream = dev.cuda_stream();
        let qv = q.as_cuda_slice::<bf16>()?.slice(lq.start_offset()..);
        let kv = k.as_cuda_slice::<bf16>()?.slice(lk.start_offset()..);
        let vv = v.as_cuda_slice::<bf16>()?.slice(lv.start_offset()..);
        // SAFETY: the kernel writes every element of O and LSE
        let mut o = unsafe { dev.alloc::<bf16>(b * sq * h * d) }?;
        let mut lse = unsafe { dev.alloc::<f32>(b * h * sq) }?;
        self.ctx
            .attention(&stream, &cfg, &qv, &kv, &vv, &mut o, &mut lse)
            .map_err(wrap)?;
        Ok((
            CudaStorage::wrap_cuda_slice(o, dev),
            Shape::from((b, sq, h, d)),
        ))
    }
}

/// The largest `|x - want| / bound` (elementwise).
fn worst(x: &Tensor, want: &Tensor, bound: &Tensor) -> candle_core::Result<f32> {
    let x = x.to_dtype(DType::F32)?;
    (x - want)?
        .abs()?
        .div(bound)?
        .flatten_all()?
        .max(0)?
        .to_scalar::<f32>()
}

/// The GEMM against candle's fp32 matmul (cuBLAS): C's bf16 rounding (2^-8 relative, twice
/// for the reference's own) plus fp32 accumulation over k terms, scaled by |a|·|b|.
fn check_gemm(ctx: &Arc<Context>, dev: &Device) -> Result<f32, Box<dyn Error>> {
    let (m, k, n) = (512, 256, 384);
    let a_all = Tensor::randn(0f32, 1., (m + 64, k), dev)?.to_dtype(DType::BF16)?;
    let a = a_all.narrow(0, 64, m)?; // a view at an offset
    let b = Tensor::randn(0f32, 1., (k, n), dev)?.to_dtype(DType::BF16)?;
    let c = a.apply_op2_no_bwd(&b, &HGemm(ctx.clone()))?;
    let (af, bf) = (a.to_dtype(DType::F32)?, b.to_dtype(DType::F32)?);
    let want = af.matmul(&bf)?;
    let mag = af.abs()?.matmul(&bf.abs()?)?;
    let acc =
        2.0 * k as f64 * 2f64.powi(-24) * mag.flatten_all()?.max(0)?.to_scalar::<f32>()? as f64;
    let bound = ((want.abs()? * 2f64.powi(-7))? + (acc + 1e-6))?;
    let w = worst(&c, &want, &bound)?;
    let theirs = a.matmul(&b)?; // candle's own bf16 matmul
    let diff = (c.to_dtype(DType::F32)? - theirs.to_dtype(DType::F32)?)?
        .abs()?
        .flatten_all()?
        .max(0)?
        .to_scalar::<f32>()?;
    println!(
        "candle-op: hgemm {m}x{n}x{k} bf16 on candle tensors: worst |err|/bound {w:.3} vs fp32 \
         matmul; max |ours - candle bf16 matmul| {diff:.3e}"
    );
    Ok(w)
}

/// Attention against softmax(q·kᵀ·scale + mask)·v composed of candle fp32 ops. The bound is
/// doc/attention.md's at these sizes (d 128, ≤ 333 keys): below (2^-7 + 2^-9)·A_c with
/// A_c = Σ_j P_j |v_j[c]| (its leading terms: P and O rounded to bf16, 2·2^-8).
fn check_attention(ctx: &Arc<Context>, dev: &Device) -> Result<f32, Box<dyn Error>> {
    let (b, sq, sk, h, hk, d) = (2, 300, 333, 4, 2, 128);
    let rnd = |s: usize, heads: usize| -> candle_core::Result<Tensor> {
        Tensor::randn(0f32, 1., (b, s, heads, d), dev)?.to_dtype(DType::BF16)
    };
    let (q, k, v) = (rnd(sq, h)?, rnd(sk, hk)?, rnd(sk, hk)?);
    let op = Attention {
        ctx: ctx.clone(),
        causal: Some(Causal::TopLeft),
    };
    let o = q.apply_op3_no_bwd(&k, &v, &op)?;
    // reference in (b, h, s, d), fp32; k and v repeated over each group of query heads
    let bhsd = |t: &Tensor| t.to_dtype(DType::F32)?.transpose(1, 2)?.contiguous();
    let group = |t: &Tensor| -> candle_core::Result<Tensor> {
        bhsd(t)?
            .unsqueeze(2)?
            .expand((b, hk, h / hk, sk, d))?
            .reshape((b, h, sk, d))
    };
    let (qf, kf, vf) = (bhsd(&q)?, group(&k)?, group(&v)?);
    let mask: Vec<f32> = (0..sq)
        .flat_map(|i| (0..sk).map(move |j| if j <= i { 0.0 } else { f32::NEG_INFINITY }))
        .collect();
    let mask = Tensor::from_vec(mask, (sq, sk), dev)?;
    let s = (qf.matmul(&kf.t()?)? / (d as f64).sqrt())?.broadcast_add(&mask)?;
    let e = s.broadcast_sub(&s.max_keepdim(D::Minus1)?)?.exp()?;
    let p = e.broadcast_div(&e.sum_keepdim(D::Minus1)?)?;
    let want = p.matmul(&vf)?.transpose(1, 2)?.contiguous()?;
    let a_c = p.matmul(&vf.abs()?)?.transpose(1, 2)?.contiguous()?;
    let bound = ((a_c * (2f64.powi(-7) + 2f64.powi(-9)))? + 1e-6)?;
    let w = worst(&o, &want, &bound)?;
    println!(
        "candle-op: attention b{b} h{h}/{hk} sq{sq} sk{sk} d{d} causal bf16 on candle tensors: \
         worst |err|/bound {w:.3} vs candle fp32 ops"
    );
    Ok(w)
}

fn run() -> Result<bool, Box<dyn Error>> {
    let dev = match Device::new_cuda(0) {
        Ok(d) => d,
        Err(e) => {
            println!("candle-op: SKIP: no CUDA device for candle ({e})");
            return Ok(true);
        }
    };
    let stream = dev.as_cuda_device()?.cuda_stream();
    // our Context over candle's own CUDA context: buffers and stream pass its checks as ours
    let ctx = Arc::new(Context::from_cuda_context_lazy(stream.context().clone())?);
    if ctx.device().capability != (9, 0) {
        println!(
            "candle-op: SKIP: {} is not Hopper (the bf16 GEMM and attention are sm_90a)",
            ctx.device()
        );
        return Ok(true);
    }
    let g = check_gemm(&ctx, &dev)?;
    let a = check_attention(&ctx, &dev)?;
    Ok(g <= 1.0 && a <= 1.0)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => {
            println!("candle-op: PASS");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            println!("candle-op: FAIL: an error above its bound");
            ExitCode::FAILURE
        }
        Err(e) => {
            println!("candle-op: FAIL: {e}");
            ExitCode::FAILURE
        }
    }
}
