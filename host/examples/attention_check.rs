//! The attention kernel's own check and bench (the kernel owner's tool until `host attention`
//! and `host run`'s sweep exist): small problems against an f64 CPU reference (O, LSE, the
//! padding around O untouched, two runs bit-identical), then TFLOP/s at 16k tokens per batch.
//!
//! ```text
//! cargo run -p host --release --example attention_check            # check, then bench
//! cargo run -p host --release --example attention_check -- check
//! cargo run -p host --release --example attention_check -- bench
//! cargo run -p host --release --example attention_check -- quick   # 3 cases (sanitizers)
//! ```

use std::process::ExitCode;

use half::{bf16, f16};
use host::attention::{AttentionConfig, AttentionProblem, AttnElement, Causal};
use host::cudarc::driver::{CudaStream, sys::CUevent_flags};
use host::{Context, half};
use std::sync::Arc;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

/// One test problem: fixed lengths or varlen, strides with padding.
#[derive(Clone, Debug)]
struct Case {
    batch: usize,
    hq: usize,
    hkv: usize,
    d: usize,
    sq: usize,
    sk: usize,
    causal: Option<Causal>,
    /// Varlen: per-sequence (q, k) lengths.
    varlen: Option<Vec<(usize, usize)>>,
    /// Extra elements per token row (strided inputs).
    pad: usize,
}

/// The f64 reference of one problem from the rounded inputs: O and LSE, as the problem's
/// layouts hold them (O dense (b, s, h, d) with Q's strides; LSE (b, h, s) or (h, total)).
fn reference(
    p: &AttentionProblem,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    lse_len: usize,
    o_len: usize,
) -> (Vec<f64>, Vec<f64>) {
    let mut o = vec![0f64; o_len];
    let mut lse = vec![f64::NEG_INFINITY; lse_len];
    let d = p.head_dim;
    let group = p.heads_q / p.heads_kv;
    for b in 0..p.batch {
        let (q0, sq, k0, sk) = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
            (Some(cq), Some(ck)) => (
                cq[b] as usize,
                (cq[b + 1] - cq[b]) as usize,
                ck[b] as usize,
                (ck[b + 1] - ck[b]) as usize,
            ),
            _ => (0, p.seqlen_q, 0, p.seqlen_k),
        };
        for h in 0..p.heads_q {
            let hk = h / group;
            for i in 0..sq {
                let qi = b as i64 * p.q_stride[0]
                    + (q0 + i) as i64 * p.q_stride[1]
                    + h as i64 * p.q_stride[2];
                let mut s = vec![f64::NEG_INFINITY; sk];
                let limit = match p.causal {
                    None => sk as i64 - 1,
                    Some(Causal::TopLeft) => i as i64,
                    Some(Causal::BottomRight) => i as i64 + sk as i64 - sq as i64,
                };
                for (j, sj) in s.iter_mut().enumerate() {
                    if j as i64 > limit {
                        continue;
                    }
                    let kj = b as i64 * p.k_stride[0]
                        + (k0 + j) as i64 * p.k_stride[1]
                        + hk as i64 * p.k_stride[2];
                    let mut acc = 0f64;
                    for c in 0..d {
                        acc += q[qi as usize + c] as f64 * k[kj as usize + c] as f64;
                    }
                    *sj = acc * p.scale as f64;
                }
                let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let oi = (b as i64 * p.o_stride[0]
                    + (q0 + i) as i64 * p.o_stride[1]
                    + h as i64 * p.o_stride[2]) as usize;
                let li = if p.cu_seqlens_q.is_some() {
                    h * lse_len / p.heads_q + q0 + i
                } else {
                    (b * p.heads_q + h) * p.seqlen_q + i
                };
                if m == f64::NEG_INFINITY {
                    continue; // no key visible: O = 0, LSE = -inf
                }
                let mut sum = 0f64;
                for (j, &sj) in s.iter().enumerate() {
                    if sj == f64::NEG_INFINITY {
                        continue;
                    }
                    let e = (sj - m).exp();
                    sum += e;
                    let vj = (b as i64 * p.v_stride[0]
                        + (k0 + j) as i64 * p.v_stride[1]
                        + hk as i64 * p.v_stride[2]) as usize;
                    for c in 0..d {
                        o[oi + c] += e * v[vj + c] as f64;
                    }
                }
                for c in 0..d {
                    o[oi + c] /= sum;
                }
                lse[li] = m + sum.ln();
            }
        }
    }
    (o, lse)
}

/// Runs one case for element `T`; returns an error line or None.
fn check_case<T: AttnElement>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    c: &Case,
    seed: u64,
) -> host::Result<Option<String>> {
    let (batch, sq, sk, total_q, total_k, cu_q, cu_k) = match &c.varlen {
        Some(l) => {
            let mut cq = vec![0i32];
            let mut ck = vec![0i32];
            for &(a, b) in l {
                cq.push(cq.last().unwrap() + a as i32);
                ck.push(ck.last().unwrap() + b as i32);
            }
            let mq = l.iter().map(|x| x.0).max().unwrap();
            let mk = l.iter().map(|x| x.1).max().unwrap();
            (
                l.len(),
                mq,
                mk,
                *cq.last().unwrap() as usize,
                *ck.last().unwrap() as usize,
                Some(cq),
                Some(ck),
            )
        }
        None => (c.batch, c.sq, c.sk, c.sq, c.sk, None, None),
    };
    let d = c.d;
    let row_q = c.hq * d + c.pad;
    let row_k = c.hkv * d + c.pad;
    let vl = c.varlen.is_some();
    let nb = if vl { 1 } else { batch };
    let q_stride = [
        if vl { 0 } else { (total_q * row_q) as i64 },
        row_q as i64,
        d as i64,
    ];
    let k_stride = [
        if vl { 0 } else { (total_k * row_k) as i64 },
        row_k as i64,
        d as i64,
    ];
    let p = AttentionProblem {
        batch,
        heads_q: c.hq,
        heads_kv: c.hkv,
        head_dim: d,
        seqlen_q: sq,
        seqlen_k: sk,
        cu_seqlens_q: cu_q,
        cu_seqlens_k: cu_k,
        q_stride,
        k_stride,
        v_stride: k_stride,
        o_stride: q_stride,
        causal: c.causal,
        scale: 1.0 / (d as f32).sqrt(),
    };
    let mut rng = Rng(seed | 1);
    let nq = nb * total_q * row_q;
    let nk = nb * total_k * row_k;
    let round = |x: f32| T::from_f32_rn(x).to_f32();
    let hq: Vec<f32> = (0..nq).map(|_| round(rng.next())).collect();
    let hk: Vec<f32> = (0..nk).map(|_| round(rng.next())).collect();
    let hv: Vec<f32> = (0..nk).map(|_| round(rng.next())).collect();
    let to_t = |x: &[f32]| x.iter().map(|&y| T::from_f32_rn(y)).collect::<Vec<T>>();
    let dq = s.clone_htod(&to_t(&hq))?;
    let dk = s.clone_htod(&to_t(&hk))?;
    let dv = s.clone_htod(&to_t(&hv))?;
    let sentinel = T::from_f32_rn(12345.0);
    let lse_len = if vl {
        c.hq * total_q
    } else {
        batch * c.hq * sq
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut dout = s.clone_htod(&vec![sentinel; nq])?;
        let mut dl = s.clone_htod(&vec![-7.0f32; lse_len])?;
        ctx.attention(
            s,
            &AttentionConfig::from(&p),
            &dq,
            &dk,
            &dv,
            &mut dout,
            &mut dl,
        )?;
        runs.push((s.clone_dtoh(&dout)?, s.clone_dtoh(&dl)?));
    }
    let (ro, rl) = reference(&p, &hq, &hk, &hv, lse_len, nq);
    let (go, gl) = &runs[0];
    let bits = |x: &T| x.to_f32().to_bits();
    if runs[0].0.iter().map(bits).ne(runs[1].0.iter().map(bits))
        || runs[0]
            .1
            .iter()
            .map(|x| x.to_bits())
            .ne(runs[1].1.iter().map(|x| x.to_bits()))
    {
        return Ok(Some("two runs differ".into()));
    }
    let u = if T::NAME == "bf16" {
        1.0 / 256.0
    } else {
        1.0 / 2048.0
    };
    // |V| <= 1: P's rounding (relative u each, a convex combination of V) and O's (u |O|), plus
    // fp32 accumulation and exp2's approximation (far below)
    let tol = 2.0 * u + 1e-4;
    let mut worst = (0f64, 0usize);
    let mut pad_bad = 0usize;
    for (i, (g, r)) in go.iter().zip(&ro).enumerate() {
        // every token row's heads are written, its padding never
        if i % row_q >= c.hq * d {
            if g.to_f32() != sentinel.to_f32() {
                pad_bad += 1;
            }
            continue;
        }
        let e = (g.to_f32() as f64 - r).abs();
        if e.is_nan() || e > worst.0 {
            worst = (if e.is_nan() { f64::INFINITY } else { e }, i);
        }
    }
    let mut lworst = 0f64;
    for (g, r) in gl.iter().zip(&rl) {
        let e = if *r == f64::NEG_INFINITY {
            if *g == f32::NEG_INFINITY {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (*g as f64 - r).abs()
        };
        lworst = lworst.max(if e.is_nan() { f64::INFINITY } else { e });
    }
    let ok = worst.0 <= tol && lworst <= 1e-3 && pad_bad == 0;
    println!(
        "{} {} {:?}: max|O-ref| {:.2e} (tol {:.1e}) at {}, max|LSE-ref| {:.2e}, pad touched {}",
        if ok { "PASS" } else { "FAIL" },
        T::NAME,
        c,
        worst.0,
        tol,
        worst.1,
        lworst,
        pad_bad
    );
    Ok((!ok).then(|| format!("{c:?}")))
}

fn checks(ctx: &Context, s: &Arc<CudaStream>, quick: bool) -> host::Result<usize> {
    let mut cases = Vec::new();
    let tl = Some(Causal::TopLeft);
    let br = Some(Causal::BottomRight);
    for d in [64, 128, 256] {
        let c = |batch, hq, hkv, sq, sk, causal, pad| Case {
            batch,
            hq,
            hkv,
            d,
            sq,
            sk,
            causal,
            varlen: None,
            pad,
        };
        cases.push(c(1, 1, 1, 128, 128, None, 0));
        cases.push(c(2, 2, 1, 200, 333, None, 0));
        cases.push(c(1, 2, 2, 1, 1, None, 0));
        cases.push(c(1, 4, 2, 257, 190, tl, 8));
        cases.push(c(2, 2, 2, 190, 257, br, 0));
        cases.push(c(1, 3, 1, 300, 129, br, 16));
        cases.push(c(1, 2, 1, 129, 500, tl, 0));
        cases.push(Case {
            batch: 3,
            hq: 2,
            hkv: 1,
            d,
            sq: 0,
            sk: 0,
            causal: None,
            varlen: Some(vec![(37, 100), (200, 5), (1, 260)]),
            pad: 8,
        });
        cases.push(Case {
            batch: 2,
            hq: 2,
            hkv: 2,
            d,
            sq: 0,
            sk: 0,
            causal: br,
            varlen: Some(vec![(130, 300), (64, 64)]),
            pad: 0,
        });
    }
    if quick {
        // a short sweep for the sanitizers: one small case of each kind
        cases = cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % 9 == i / 9 * 3 % 9)
            .map(|(_, c)| c)
            .collect();
    }
    let mut fails = 0;
    for (i, c) in cases.iter().enumerate() {
        let serial =
            std::env::var("CUTE_RS_ATTENTION").is_ok_and(|v| v == "serial" || v == "pingpong");
        let r = if i % 2 == 0 || serial {
            check_case::<bf16>(ctx, s, c, 7 + i as u64)?
        } else {
            check_case::<f16>(ctx, s, c, 7 + i as u64)?
        };
        fails += r.is_some() as usize;
    }
    println!("checks: {} of {} failed", fails, cases.len());
    Ok(fails)
}

/// GPU time per call of `f` (ms), over `reps` calls between two events, after a warm-up.
fn time_ms(
    s: &CudaStream,
    reps: u32,
    mut f: impl FnMut() -> host::Result<()>,
) -> host::Result<f64> {
    f()?;
    let start = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    for _ in 0..reps {
        f()?;
    }
    let end = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    Ok(start.elapsed_ms(&end)? as f64 / reps as f64)
}

fn bench(ctx: &Context, s: &Arc<CudaStream>, dims: &[usize]) -> host::Result<()> {
    println!(
        "bench: bf16, 16k tokens per batch, heads = 2048 / d; TFLOP/s = 4·b·h·sq·sk·d / t (halved causal)"
    );
    for &d in dims {
        for causal in [false, true] {
            for sl in [512usize, 1024, 2048, 4096, 8192, 16384] {
                let (b, h) = (16384 / sl, 2048 / d);
                let n = b * sl * h * d;
                let x = s.clone_htod(&vec![bf16::from_f32(0.01); n])?;
                let mut o = s.alloc_zeros::<bf16>(n)?;
                let mut l = s.alloc_zeros::<f32>(b * h * sl)?;
                let st = [(sl * h * d) as i64, (h * d) as i64, d as i64];
                let p = AttentionProblem {
                    batch: b,
                    heads_q: h,
                    heads_kv: h,
                    head_dim: d,
                    seqlen_q: sl,
                    seqlen_k: sl,
                    cu_seqlens_q: None,
                    cu_seqlens_k: None,
                    q_stride: st,
                    k_stride: st,
                    v_stride: st,
                    o_stride: st,
                    causal: causal.then_some(Causal::TopLeft),
                    scale: 1.0 / (d as f32).sqrt(),
                };
                let t = time_ms(s, 10, || {
                    ctx.attention(s, &AttentionConfig::from(&p), &x, &x, &x, &mut o, &mut l)
                })?;
                let flops = 4.0 * (b * h * sl * sl * d) as f64 / if causal { 2.0 } else { 1.0 };
                let variant = std::env::var("CUTE_RS_ATTENTION").unwrap_or("overlap".into());
                println!(
                    "RESULT ours-{variant} d={d} causal={} seqlen={sl} ms={t:.4} tflops={:.1}",
                    causal as u8,
                    flops / t / 1e9
                );
            }
        }
    }
    Ok(())
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let what = std::env::args().nth(1).unwrap_or_default();
    let ctx = match Context::new(0) {
        Ok(c) => c,
        Err(e) if e.is_unavailable() => {
            println!("no GPU: {e}");
            return Ok(ExitCode::from(2));
        }
        Err(e) => return Err(e.into()),
    };
    let s = ctx.default_stream();
    let mut fails = 0;
    if what.is_empty() || what == "check" || what == "quick" {
        fails = checks(&ctx, &s, what == "quick")?;
    }
    if what.is_empty() || what == "bench" {
        bench(&ctx, &s, &[64, 128, 256])?;
    }
    Ok(if fails == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
