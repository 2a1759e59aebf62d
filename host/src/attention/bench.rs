//! `host bench attention`: [`crate::Context::attention`] on the issue's shapes (head dims 64,
//! 128, 256 × seqlen 512 … 16k at 16k tokens, 2048 / head_dim heads, bf16, causal and not),
//! TFLOP/s = `4·b·h·sq·sk·d / t` (halved for causal), each beside a cuBLAS bf16 GEMM of 8192³
//! timed in the same run, interleaved batch by batch (the reference column: the share of the
//! tensor cores' GEMM rate attention reaches). cuDNN's and FlashAttention's figures come from
//! `tools/attention/sdpa_bench.py` on the same shapes; `tools/attention/compare.py` joins
//! the two.

use half::bf16;

use super::{AttentionConfig, Causal, flops};
use crate::bench::BenchRow;
use crate::context::Context;
use crate::cublas::Cublas;
use crate::error::Result;
use crate::gemm::GemmConfig;
use crate::progress::Progress;
use crate::timing::timed;

/// Tokens per batch of the bench shapes (`batch = TOKENS / seqlen`).
pub const TOKENS: usize = 16384;

/// The hidden size the heads make up (`heads = HIDDEN / head_dim`), FlashAttention 3's.
pub const HIDDEN: usize = 2048;

/// The bench shapes: head dim × seqlen × (no mask, top-left causal).
///
/// ```
/// let c = host::attention::bench::cases();
/// assert_eq!(c.len(), 3 * 6 * 2);
/// assert_eq!((c[0].batch, c[0].heads, c[0].seqlen_q, c[0].head_dim), (32, 32, 512, 64));
/// ```
pub fn cases() -> Vec<AttentionConfig> {
    let mut v = Vec::new();
    for d in [64, 128, 256] {
        for s in [512, 1024, 2048, 4096, 8192, 16384] {
            for causal in [false, true] {
                let c = AttentionConfig::new(TOKENS / s, HIDDEN / d, s, s, d);
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
    stream: &cudarc::driver::CudaStream,
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
const REF_GEMM: usize = 8192;

/// One bench row: `cfg` in bf16 through [`Context::attention`] beside cuBLAS's bf16 GEMM
/// ([`REF_GEMM`]³), interleaved; `ref_ms` is the GEMM's time for the attention's FLOPs.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
/// let cfg = host::attention::AttentionConfig::new(4, 16, 4096, 4096, 128);
/// let r = host::attention::bench::attention_problem(&ctx, &blas, &cfg)?;
/// println!("{:.0} TFLOP/s", r.rate(r.ours_ms));
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention_problem(ctx: &Context, blas: &Cublas, cfg: &AttentionConfig) -> Result<BenchRow> {
    let s = blas.stream();
    let lens = cfg.lens()?;
    ctx.check_fits(
        &cfg.to_string(),
        2 * (lens.q + lens.k + lens.v + lens.o) as u128 + 4 * lens.lse as u128,
    )?;
    let mut rng = crate::check::Rng::new(7);
    let mut rand = |n: usize| -> Vec<bf16> { (0..n).map(|_| bf16::from_f32(rng.unit())).collect() };
    let (q, k, v) = (
        s.clone_htod(&rand(lens.q))?,
        s.clone_htod(&rand(lens.k))?,
        s.clone_htod(&rand(lens.v))?,
    );
    let mut o = s.alloc_zeros::<bf16>(lens.o)?;
    let mut lse = s.alloc_zeros::<f32>(lens.lse)?;
    let g = GemmConfig::new(REF_GEMM, REF_GEMM, REF_GEMM);
    let (ga, gb) = (
        s.clone_htod(&rand(REF_GEMM * REF_GEMM))?,
        s.clone_htod(&rand(REF_GEMM * REF_GEMM))?,
    );
    let mut gc = s.alloc_zeros::<bf16>(REF_GEMM * REF_GEMM)?;
    let (ours, gemm) = interleaved_ms(
        s,
        || ctx.attention(s, cfg, &q, &k, &v, &mut o, &mut lse),
        || blas.gemm_ex(&g, &ga, &gb, &mut gc),
    )?;
    let work = flops(cfg);
    Ok(BenchRow {
        family: "attention",
        variant: format!(
            "bf16 d{}{}",
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
/// for r in host::attention::bench::attention(&ctx, &mut ())? {
///     println!("{} {}: {:.0} TFLOP/s", r.variant, r.size, r.rate(r.ours_ms));
/// }
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention(ctx: &Context, progress: &mut dyn Progress) -> Result<Vec<BenchRow>> {
    let blas = Cublas::new(ctx, ctx.default_stream())?;
    let cases = cases();
    progress.set_total(cases.len());
    let mut rows = Vec::new();
    for c in &cases {
        progress.step(&c.to_string());
        let r = attention_problem(ctx, &blas, c)?;
        progress.step(&format!(
            "{} {}: {:.1} TFLOP/s, {:.3} of the GEMM",
            r.variant,
            r.size,
            r.rate(r.ours_ms),
            r.ratio()
        ));
        rows.push(r);
    }
    Ok(rows)
}
