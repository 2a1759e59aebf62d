//! The GPU reference's launch (`tests/kernels/attention_ref`: fp32, S materialized per query row in
//! shared memory, one CTA per (row, head, sequence)); see that crate's docs for the layouts.

use std::sync::Arc;

use host::cudarc::driver::sys::CUfunction_attribute;
use host::cudarc::driver::{
    CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg, SyncOnDrop,
};

use host::attention::AttnElement;
use host::attention::problem::{AttentionProblem, Causal};
use host::context::Context;
use host::error::{Error, Result};

/// Threads per CTA of the reference.
pub const REF_THREADS: u32 = 128;

/// Dynamic shared memory the reference needs: a 32-float scratch, the query row and one row
/// of S, in f32.
///
/// ```
/// assert_eq!(host_cli::reference::attention_gpu::ref_smem_bytes(128, 1000), 4 * (32 + 128 + 1000));
/// ```
pub fn ref_smem_bytes(head_dim: usize, seqlen_k: usize) -> usize {
    4 * (32 + head_dim + seqlen_k)
}

/// The shared memory a CTA may have (227 KiB on sm_90): the reference's limit on `seqlen_k`.
pub const MAX_SMEM_BYTES: usize = 227 * 1024;

/// Where the reference writes O: f32 at the reference layout (with the bound's magnitudes if
/// given), or the element type at the problem's O strides (what `Context::attention` writes).
pub enum RefOut<'a, T> {
    /// f32 O `(row, head, c)`; `absw` like it, `rmax` per `(row, head)`.
    F32 {
        /// O.
        o: &'a mut CudaSlice<f32>,
        /// `Σ_j P_j·|v_j[c]|`.
        absw: Option<&'a mut CudaSlice<f32>>,
        /// `scale · max_j Σ_c |q_c·k_j[c]|`.
        rmax: Option<&'a mut CudaSlice<f32>>,
    },
    /// O as `T` at `p.o_stride`.
    Strided(&'a mut CudaSlice<T>),
}

/// A buffer's device address (0 for none) and the guard that orders it on `stream`.
fn ptr_mut<'a, E>(
    b: Option<&'a mut CudaSlice<E>>,
    stream: &'a CudaStream,
) -> (u64, Option<SyncOnDrop<'a>>) {
    match b {
        Some(b) => {
            let (a, g) = b.device_ptr_mut(stream);
            (a, Some(g))
        }
        None => (0, None),
    }
}

/// Launches the reference for a checked problem (buffers as [`host::attention::problem_lens`] says,
/// `RefOut::F32` buffers of `rows · heads · head_dim` and `rows · heads`).
///
/// ```no_run
/// use host::attention::{AttentionConfig, problem_lens};
/// use host::half::bf16;
/// use host_cli::reference::attention_gpu::{RefOut, attention_reference};
/// // the reference kernel is a check kernel: a context opened with them
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let s = ctx.default_stream();
/// let p = AttentionConfig::new(1, 2, 3, 5, 64).check_shape()?;
/// let lens = problem_lens(&p);
/// let (q, k) = (s.alloc_zeros::<bf16>(lens.q)?, s.alloc_zeros::<bf16>(lens.k)?);
/// let v = s.clone_htod(&vec![bf16::ONE; lens.v])?;
/// let (mut o, mut lse) = (s.alloc_zeros::<bf16>(lens.o)?, s.alloc_zeros::<f32>(lens.lse)?);
/// attention_reference(&ctx, &s, &p, &q, &k, &v, RefOut::Strided(&mut o), &mut lse)?;
/// // Q·Kᵀ = 0: every row's softmax is uniform over the 5 keys, O the mean of V, LSE ln 5
/// assert!(s.clone_dtoh(&o)?.iter().all(|&x| x == bf16::ONE));
/// assert!(s.clone_dtoh(&lse)?.iter().all(|&l| (l - 5f32.ln()).abs() < 1e-5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn attention_reference<T: AttnElement>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    p: &AttentionProblem,
    q: &CudaSlice<T>,
    k: &CudaSlice<T>,
    v: &CudaSlice<T>,
    out: RefOut<'_, T>,
    lse: &mut CudaSlice<f32>,
) -> Result<()> {
    let smem = ref_smem_bytes(p.head_dim, p.seqlen_k);
    if smem > MAX_SMEM_BYTES {
        return Err(Error::Unsupported(format!(
            "the attention reference holds a row of S in shared memory: seqlen_k={} needs {smem} bytes, a CTA has {MAX_SMEM_BYTES}",
            p.seqlen_k
        )));
    }
    if p.heads_q > 65535 || p.batch > 65535 {
        return Err(Error::GridTooLarge {
            kernel: "attention_ref",
            x: p.seqlen_q,
            y: p.heads_q,
            z: p.batch,
        });
    }
    let f = ctx.kernel(&format!("attention_ref_{}", T::NAME))?;
    if smem > 48 * 1024 {
        f.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            smem as i32,
        )?;
    }
    let upload = |cu: &Option<Vec<i32>>| -> Result<Option<CudaSlice<i32>>> {
        Ok(match cu {
            Some(c) => Some(stream.clone_htod(c)?),
            None => None,
        })
    };
    let (cu_q, cu_k) = (upload(&p.cu_seqlens_q)?, upload(&p.cu_seqlens_k)?);
    let total_q = p
        .cu_seqlens_q
        .as_ref()
        .map_or(0, |c| *c.last().unwrap_or(&0)) as u32;
    let (pq, _gq) = q.device_ptr(stream);
    let (pk, _gk) = k.device_ptr(stream);
    let (pv, _gv) = v.device_ptr(stream);
    let (pl, _gl) = lse.device_ptr_mut(stream);
    let (pcq, _gcq) = match &cu_q {
        Some(c) => {
            let (a, g) = c.device_ptr(stream);
            (a, Some(g))
        }
        None => (0, None),
    };
    let (pck, _gck) = match &cu_k {
        Some(c) => {
            let (a, g) = c.device_ptr(stream);
            (a, Some(g))
        }
        None => (0, None),
    };
    let ((po32, _g1), (po16, _g2), (pabs, _g3), (prmax, _g4)) = match out {
        RefOut::F32 { o, absw, rmax } => (
            ptr_mut(Some(o), stream),
            (0, None),
            ptr_mut(absw, stream),
            ptr_mut(rmax, stream),
        ),
        RefOut::Strided(o) => ((0, None), ptr_mut(Some(o), stream), (0, None), (0, None)),
    };
    let causal: u32 = match p.causal {
        None => 0,
        Some(Causal::TopLeft) => 1,
        Some(Causal::BottomRight) => 2,
    };
    let dims = [
        p.heads_q as u32,
        p.heads_kv as u32,
        p.head_dim as u32,
        p.seqlen_q as u32,
        p.seqlen_k as u32,
        total_q,
    ];
    let strides: Vec<i64> = [p.q_stride, p.k_stride, p.v_stride, p.o_stride]
        .iter()
        .flatten()
        .copied()
        .collect();
    let mut b = stream.launch_builder(&f);
    for a in [&pq, &pk, &pv, &po32, &po16, &pl, &pabs, &prmax, &pcq, &pck] {
        b.arg(a);
    }
    for d in &dims {
        b.arg(d);
    }
    for s in &strides {
        b.arg(s);
    }
    b.arg(&causal).arg(&p.scale);
    let cfg = LaunchConfig {
        grid_dim: (p.seqlen_q.max(1) as u32, p.heads_q as u32, p.batch as u32),
        block_dim: (REF_THREADS, 1, 1),
        shared_mem_bytes: smem as u32,
    };
    // SAFETY: the entry's signature is (10 pointers, 6 u32, 12 i64, u32, f32); the problem was
    // checked (buffers hold what it addresses), the f32 outputs are sized by the caller.
    unsafe { b.launch(cfg) }?;
    Ok(())
}
