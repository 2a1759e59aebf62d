//! `host bench attention`: [`host::Context::attention`] on the issue's shapes (head dims 64,
//! 128, 256 × seqlen 512 … 16k at 16k tokens, 2048 / head_dim heads, bf16, causal and not),
//! TFLOP/s = `4·b·h·sq·sk·d / t` (halved for causal), each beside a cuBLAS bf16 GEMM of 8192³
//! timed in the same run, interleaved batch by batch (the reference column: the share of the
//! tensor cores' GEMM rate attention reaches). cuDNN's and FlashAttention's figures come from
//! `tools/attention/sdpa_bench.py` on the same shapes; `tools/attention/compare.py` joins
//! the two.

use std::sync::Arc;

use host::cudarc::driver::{CudaSlice, CudaStream};
use host::half::bf16;

use crate::bench::BenchRow;
use crate::progress::Progress;
use crate::timing::timed;
use host::attention::launch::AttentionKernel;
use host::attention::{AttentionConfig, AttentionLens, Causal, flops};
use host::context::Context;
use host::cublas::Cublas;
use host::error::Result;
use host::gemm::GemmConfig;

/// Tokens per batch of the bench shapes (`batch = TOKENS / seqlen`).
pub const TOKENS: usize = 16384;

/// The hidden size the heads make up (`heads = HIDDEN / head_dim`), FlashAttention 3's.
pub const HIDDEN: usize = 2048;

/// The bench's seqlens: 512 … 16k.
pub const SEQLENS: [usize; 6] = [512, 1024, 2048, 4096, 8192, 16384];

/// The bench shapes: head dim × seqlen × (no mask, top-left causal).
///
/// ```
/// let c = host_cli::bench::attention::cases();
/// assert_eq!(c.len(), 3 * 6 * 2);
/// assert_eq!((c[0].batch, c[0].heads, c[0].seqlen_q, c[0].head_dim), (32, 32, 512, 64));
/// ```
pub fn cases() -> Vec<AttentionConfig> {
    cases_at(&SEQLENS, false)
}

/// The bench shapes at `seqlens` (what `host bench attention` runs: [`SEQLENS`], or the
/// comma-separated list of `CUTE_RS_ATTENTION_SEQLENS`, for a short measuring call), Q, K, V
/// and O packed as (batch, token, head, head_dim) — or, with `heads_major`, as (batch, head,
/// token, head_dim): torch's contiguous `(b, h, s, d)`, what `tools/attention/sdpa_bench.py`
/// gives cuDNN by default (`CUTE_RS_ATTENTION_LAYOUT=bhsd` for `host bench attention`).
///
/// ```
/// let c = host_cli::bench::attention::cases_at(&[512, 1024], false);
/// assert_eq!(c.len(), 3 * 2 * 2);
/// let c = host_cli::bench::attention::cases_at(&[512], true);
/// assert_eq!(c[0].lens().unwrap().q, 16384 * 2048);
/// ```
pub fn cases_at(seqlens: &[usize], heads_major: bool) -> Vec<AttentionConfig> {
    let mut v = Vec::new();
    for d in [64, 128, 256] {
        for &s in seqlens {
            for causal in [false, true] {
                let (b, h) = (TOKENS / s, HIDDEN / d);
                let mut c = AttentionConfig::new(b, h, s, s, d);
                if heads_major {
                    let st = [(h * s * d) as i64, d as i64, (s * d) as i64];
                    c = c.q_stride(st).k_stride(st).v_stride(st).o_stride(st);
                }
                v.push(if causal { c.causal(Causal::TopLeft) } else { c });
            }
        }
    }
    v
}

/// Per-launch GPU time (ms) of `a` and of `b`: batches sized to ~20 ms each (1 to 50
/// launches, each side its own), 5 of each interleaved `a, b, a, …` after a warm-up; the
/// median of each.
fn interleaved_ms(
    stream: &host::cudarc::driver::CudaStream,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    a()?;
    b()?;
    let ta = timed(stream, &mut a)? as f64;
    let tb = timed(stream, &mut b)? as f64;
    let reps = |t: f64| ((20.0 / t.max(1e-3)).ceil() as u32).clamp(1, 50);
    let (ra, rb) = (reps(ta), reps(tb));
    let batch = |f: &mut dyn FnMut() -> Result<()>, n: u32| -> Result<f64> {
        let ms = timed(stream, || {
            for _ in 0..n {
                f()?;
            }
            Ok(())
        })?;
        Ok(ms as f64 / f64::from(n))
    };
    let (mut xa, mut xb) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        xa.push(batch(&mut a, ra)?);
        xb.push(batch(&mut b, rb)?);
    }
    xa.sort_by(f64::total_cmp);
    xb.sort_by(f64::total_cmp);
    Ok((xa[2], xb[2]))
}

/// The GEMM every row is timed beside: bf16 8192³, f32 accumulation, bf16 C.
pub const REF_GEMM: usize = 8192;

/// Random bf16 buffers for attention problems of up to `lens` elements (the bench shapes all
/// have the same sizes: 16k tokens × 2048) and the reference GEMM's operands, made once.
pub struct BenchBuffers {
    q: CudaSlice<bf16>,
    k: CudaSlice<bf16>,
    v: CudaSlice<bf16>,
    o: CudaSlice<bf16>,
    lse: CudaSlice<f32>,
    ga: CudaSlice<bf16>,
    gb: CudaSlice<bf16>,
    gc: CudaSlice<bf16>,
}

impl BenchBuffers {
    /// Buffers for problems of up to `lens` elements each, on `s`.
    ///
    /// ```no_run
    /// use host::attention::{AttentionConfig, Causal};
    /// use host_cli::bench::attention::{BenchBuffers, attention_problem};
    /// let ctx = host::Context::new(0)?;
    /// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
    /// let cfg = AttentionConfig::new(4, 16, 4096, 4096, 128);
    /// let mut bufs = BenchBuffers::new(&ctx, blas.stream(), &cfg.lens()?)?;
    /// // made once for both rows: the causal problem has the same sizes
    /// for c in [cfg.clone(), cfg.causal(Causal::TopLeft)] {
    ///     let r = attention_problem(&ctx, &blas, &c, Some(&mut bufs))?;
    ///     assert!(r.variant.starts_with("bf16 d128 ") && r.size == "b4 h16 s4096");
    /// }
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn new(ctx: &Context, s: &Arc<CudaStream>, lens: &AttentionLens) -> Result<BenchBuffers> {
        let n = REF_GEMM * REF_GEMM;
        ctx.check_fits(
            "the attention bench",
            2 * (lens.q + lens.k + lens.v + lens.o + 3 * n) as u128 + 4 * lens.lse as u128,
        )?;
        let mut rng = crate::check::Rng::new(7);
        // one random block, repeated (generating every element costs seconds per row)
        let block: Vec<bf16> = (0..1 << 20).map(|_| bf16::from_f32(rng.unit())).collect();
        let mut rand = |n: usize| -> Result<CudaSlice<bf16>> {
            let v: Vec<bf16> = block
                .iter()
                .copied()
                .cycle()
                .skip(rng.int(0, 1 << 19) as usize)
                .take(n)
                .collect();
            Ok(s.clone_htod(&v)?)
        };
        Ok(BenchBuffers {
            q: rand(lens.q)?,
            k: rand(lens.k)?,
            v: rand(lens.v)?,
            o: s.alloc_zeros::<bf16>(lens.o)?,
            lse: s.alloc_zeros::<f32>(lens.lse)?,
            ga: rand(n)?,
            gb: rand(n)?,
            gc: s.alloc_zeros::<bf16>(n)?,
        })
    }
}

/// One bench row: `cfg` in bf16 through [`Context::attention`] beside cuBLAS's bf16 GEMM
/// ([`REF_GEMM`]³), interleaved; `ref_ms` is the GEMM's time for the attention's FLOPs.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
/// let cfg = host::attention::AttentionConfig::new(4, 16, 4096, 4096, 128);
/// let r = host_cli::bench::attention::attention_problem(&ctx, &blas, &cfg, None)?;
/// println!("{:.0} TFLOP/s", r.rate(r.ours_ms));
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention_problem(
    ctx: &Context,
    blas: &Cublas,
    cfg: &AttentionConfig,
    buffers: Option<&mut BenchBuffers>,
) -> Result<BenchRow> {
    let s = blas.stream();
    let lens = cfg.lens()?;
    let mut own;
    let b = match buffers {
        Some(b) => b,
        None => {
            own = BenchBuffers::new(ctx, s, &lens)?;
            &mut own
        }
    };
    let g = GemmConfig::new(REF_GEMM, REF_GEMM, REF_GEMM);
    let BenchBuffers {
        q,
        k,
        v,
        o,
        lse,
        ga,
        gb,
        gc,
    } = b;
    let (ours, gemm) = interleaved_ms(
        s,
        || ctx.attention(s, cfg, q, k, v, o, lse),
        || blas.gemm_ex(&g, ga, gb, gc),
    )?;
    let work = flops(cfg);
    // the tile that ran (`AttentionKernel::for_problem`, or `CUTE_RS_ATTENTION`'s)
    let tile = AttentionKernel::selected::<bf16>(ctx, &cfg.check_shape()?)?
        .0
        .describe();
    Ok(BenchRow {
        family: "attention",
        variant: format!(
            "bf16 d{}{} {tile}",
            cfg.head_dim,
            match cfg.causal {
                Some(Causal::TopLeft) => " causal",
                Some(Causal::BottomRight) => " causal-br",
                None => "",
            }
        ),
        size: format!("b{} h{} s{}", cfg.batch, cfg.heads, cfg.seqlen_q),
        work,
        unit: "TFLOP/s",
        ours_ms: ours,
        ref_ms: gemm * work / g.flops(),
        reference: "cuBLAS bf16 GEMM 8192^3",
    })
}

/// Every [`cases`] shape, one row each.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// for r in host_cli::bench::attention::attention(&ctx, &mut ())? {
///     println!("{} {}: {:.0} TFLOP/s", r.variant, r.size, r.rate(r.ours_ms));
/// }
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention(ctx: &Context, progress: &mut dyn Progress) -> Result<Vec<BenchRow>> {
    let blas = Cublas::new(ctx, ctx.default_stream())?;
    let heads_major = match std::env::var("CUTE_RS_ATTENTION_LAYOUT").ok().as_deref() {
        None | Some("bshd") => false,
        Some("bhsd") => true,
        Some(other) => {
            return Err(host::Error::Unsupported(format!(
                "CUTE_RS_ATTENTION_LAYOUT={other}: bshd (the default) or bhsd"
            )));
        }
    };
    let cases = match std::env::var("CUTE_RS_ATTENTION_SEQLENS") {
        Ok(list) => {
            let seqlens = list
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|&s| s > 0 && s <= TOKENS)
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    host::Error::Unsupported(format!(
                        "CUTE_RS_ATTENTION_SEQLENS={list}: comma-separated seqlens 1..={TOKENS}"
                    ))
                })?;
            cases_at(&seqlens, heads_major)
        }
        Err(_) => cases_at(&SEQLENS, heads_major),
    };
    progress.set_total(2 * cases.len());
    let mut most = AttentionLens {
        q: 0,
        k: 0,
        v: 0,
        o: 0,
        lse: 0,
    };
    for c in &cases {
        let l = c.lens()?;
        most.q = most.q.max(l.q);
        most.k = most.k.max(l.k);
        most.v = most.v.max(l.v);
        most.o = most.o.max(l.o);
        most.lse = most.lse.max(l.lse);
    }
    let mut buffers = BenchBuffers::new(ctx, blas.stream(), &most)?;
    let mut rows = Vec::new();
    for c in &cases {
        progress.step(&c.to_string());
        let r = match attention_problem(ctx, &blas, c, Some(&mut buffers)) {
            // a measuring variant (`Overrides::attention_variant`) without an entry for this
            // head dim
            Err(host::Error::Unsupported(why)) if ctx.overrides().attention_variant.is_some() => {
                progress.step(&format!("{c}: skipped ({why})"));
                continue;
            }
            r => r?,
        };
        progress.step(&format!(
            "{} {}: {:.1} TFLOP/s, {:.3} of the GEMM",
            r.variant,
            r.size,
            r.rate(r.ours_ms),
            r.ratio()
        ));
        progress.row(&r);
        rows.push(r);
    }
    Ok(rows)
}
