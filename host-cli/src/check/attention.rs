//! Attention's checks (issue #33): [`Context::attention`] against the fp32 GPU reference
//! (`tests/kernels/attention_ref`) within the bound of `doc/attention.md`
//! ([`crate::reference::attention::o_bound`], [`lse_bound`]), the reference itself against
//! the f64 CPU reference on small problems, padding around O and LSE untouched, a second run
//! ([`Context::attention_without_lse`]) bit-identical in O and storing no LSE; argument errors
//! refused before any launch; a randomized sweep.

use host::half::{bf16, f16};

use super::sweep::{biased_extent, chance, sub_seed, uint};
use super::{CheckRow, Rng};
use crate::progress::Progress;
use crate::reference::attention::{
    Rounding, RowMagnitudes, attention_cpu, lse_bound, o_bound, rows,
};
use crate::reference::attention_gpu::{RefOut, attention_reference};
use crate::timing::timed;
use host::attention::launch::AttentionKernel;
use host::attention::{
    AttentionConfig, AttentionError, AttentionProblem, AttnElement, Causal, check_addresses,
    check_device, problem_lens,
};
use host::context::{Context, DeviceInfo};
use host::error::{Error, Result};

/// Attention problems `host run` sweeps by default.
pub const DEFAULT_ATTENTION_PROBLEMS: usize = 200;

/// The value O's and LSE's padding holds (never a result: |O| ≤ max |v| = 1, LSE is finite or
/// +inf); input padding holds [`INPUT_GUARD`].
const OUT_GUARD: f32 = -30000.0;
/// Input padding: large and finite, so a read of it shows in O unless multiplied by 0.
const INPUT_GUARD: f32 = 256.0;
/// Guard elements after O's and LSE's last element.
const TAIL: usize = 64;
/// Problems up to this many `sq·sk·heads·d` products are also checked against the CPU.
const CPU_WORK: f64 = 4.0e6;

/// One problem of the sweep (or a fixed case): the element type, the configuration, the
/// seed of its data and how sharp its softmax is (`q` scaled by it).
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionCase {
    /// "bf16" or "f16".
    pub dtype: &'static str,
    /// The problem.
    pub cfg: AttentionConfig,
    /// Seed of Q, K, V.
    pub data_seed: u64,
    /// Q's values are uniform in `[-sharp, sharp]` (rounded to the element).
    pub sharp: f32,
}

impl AttentionCase {
    /// Problem `index` of the sweep of `seed`: head dim 64/128/256, seqlens 1..=4096 biased to
    /// 1, tile edges and odd values, GQA ratios 1/2/3/4/8, no mask or either causal alignment,
    /// 25 % varlen batches (empty sequences included), 40 % padded strides (some head-major
    /// O), 20 % a random scale; `sq·sk·heads·d·batch ≤ 2^33`.
    ///
    /// ```
    /// use host_cli::check::AttentionCase;
    /// let a = AttentionCase::generate(12, 5);
    /// assert_eq!(a, AttentionCase::generate(12, 5));
    /// assert!(a.cfg.check_shape().is_ok());
    /// ```
    pub fn generate(seed: u64, index: usize) -> AttentionCase {
        let mut rng = Rng::new(sub_seed(seed, index, 0xA77));
        let len = |rng: &mut Rng| -> usize {
            let x = if chance(rng, 10) {
                1
            } else {
                biased_extent(rng, 4096, &[64, 80, 128, 176, 192])
            };
            if chance(rng, 30) {
                (x | 1).min(4095)
            } else {
                x
            }
        };
        let d = [64, 128, 256][uint(&mut rng, 0, 2)];
        let mut hkv = uint(&mut rng, 1, 4);
        let mut ratio = [1, 2, 3, 4, 8][uint(&mut rng, 0, 4)];
        let causal = match uint(&mut rng, 0, 2) {
            0 => None,
            1 => Some(Causal::TopLeft),
            _ => Some(Causal::BottomRight),
        };
        let cap = (1u64 << 33) as f64;
        let mut cfg = if chance(&mut rng, 25) {
            let n = uint(&mut rng, 1, 5);
            let (mut cq, mut ck) = (vec![0i32], vec![0i32]);
            for _ in 0..n {
                let lq = if chance(&mut rng, 10) {
                    0
                } else {
                    len(&mut rng) / n
                };
                let lk = if chance(&mut rng, 5) {
                    0
                } else {
                    len(&mut rng) / n
                };
                cq.push(cq.last().unwrap() + lq as i32);
                ck.push(ck.last().unwrap() + lk as i32);
            }
            // at least one query and one key in all
            if *cq.last().unwrap() == 0 {
                *cq.last_mut().unwrap() = 1;
            }
            if *ck.last().unwrap() == 0 {
                *ck.last_mut().unwrap() = 3;
            }
            AttentionConfig::varlen(hkv * ratio, d, cq, ck)
        } else {
            let mut batch = uint(&mut rng, 1, 3);
            let (sq, sk) = (len(&mut rng), len(&mut rng));
            let work = |b: usize, h: usize| (b * sq * sk * h * d) as f64;
            while work(batch, hkv * ratio) > cap && batch > 1 {
                batch -= 1;
            }
            while work(batch, hkv * ratio) > cap && hkv > 1 {
                hkv -= 1;
            }
            while work(batch, hkv * ratio) > cap && ratio > 1 {
                ratio /= 2;
            }
            AttentionConfig::new(batch, hkv * ratio, sq, sk, d)
        };
        cfg = cfg.heads_kv(hkv);
        cfg.causal = causal;
        if chance(&mut rng, 20) {
            cfg = cfg.scale(0.02 + 0.5 * (rng.unit().abs()));
        }
        if chance(&mut rng, 40) {
            let varlen = cfg.is_varlen();
            let (sq, sk) = (cfg.seqlen_q as i64, cfg.seqlen_k as i64);
            let d = d as i64;
            let padded = |rng: &mut Rng, heads: usize, seqlen: i64| -> [i64; 3] {
                let sh = d + 8 * uint(rng, 0, 2) as i64;
                let st = heads as i64 * sh + 8 * uint(rng, 0, 3) as i64;
                let sb = if varlen {
                    0
                } else {
                    seqlen * st + 8 * uint(rng, 0, 3) as i64
                };
                [sb, st, sh]
            };
            let (hq, hk) = (cfg.heads, cfg.heads_kv);
            cfg = cfg
                .q_stride(padded(&mut rng, hq, sq))
                .k_stride(padded(&mut rng, hk, sk))
                .v_stride(padded(&mut rng, hk, sk));
            cfg = if !varlen && chance(&mut rng, 25) {
                // head-major O: (batch, head, token, d)
                cfg.o_stride([hq as i64 * sq * d, d, sq * d])
            } else {
                cfg.o_stride(padded(&mut rng, hq, sq))
            };
        }
        AttentionCase {
            dtype: if chance(&mut rng, 50) { "bf16" } else { "f16" },
            cfg,
            data_seed: sub_seed(seed, index, 0xDA7A),
            sharp: [1.0, 3.0, 10.0][uint(&mut rng, 0, 2)],
        }
    }

    /// `bf16 b2 h16/4 sq1000 sk1000 d128 causal=top-left q×3`.
    ///
    /// ```
    /// use host::attention::{AttentionConfig, Causal};
    /// use host_cli::check::AttentionCase;
    /// let case = AttentionCase {
    ///     dtype: "bf16",
    ///     cfg: AttentionConfig::new(2, 16, 1000, 1000, 128).heads_kv(4).causal(Causal::TopLeft),
    ///     data_seed: 1,
    ///     sharp: 3.0,
    /// };
    /// assert_eq!(case.describe(), "bf16 b2 h16/4 sq1000 sk1000 d128 causal=top-left q×3");
    /// ```
    pub fn describe(&self) -> String {
        format!("{} {} q×{}", self.dtype, self.cfg, self.sharp)
    }

    /// Everything else a failing problem needs to be rebuilt by hand: strides, scale,
    /// `cu_seqlens`, the data seed.
    ///
    /// ```
    /// let a = host_cli::check::AttentionCase::generate(12, 0);
    /// assert!(a.params().contains("data seed"));
    /// ```
    pub fn params(&self) -> String {
        let p = self.cfg.check_shape();
        match p {
            Ok(p) => format!(
                "strides q {:?} k {:?} v {:?} o {:?}, scale {}, cu_seqlens_q {:?}, cu_seqlens_k {:?}, data seed {:#x}",
                p.q_stride,
                p.k_stride,
                p.v_stride,
                p.o_stride,
                p.scale,
                p.cu_seqlens_q,
                p.cu_seqlens_k,
                self.data_seed
            ),
            Err(e) => format!("{e}"),
        }
    }
}

/// The outcome of one checked problem.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AttentionOutcome {
    /// Elements of O beyond the bound.
    pub o_bad: usize,
    /// LSEs beyond theirs.
    pub lse_bad: usize,
    /// Largest `|O - O_ref| / bound` (and for LSE).
    pub o_ratio: f64,
    /// See `o_ratio`.
    pub lse_ratio: f64,
    /// Largest `|O - O_ref|`.
    pub o_err: f64,
    /// Reference vs CPU: elements beyond the reference's own bound (`None`: not compared).
    pub cpu_bad: Option<usize>,
    /// Padding elements of O or LSE that changed.
    pub padding: usize,
    /// Elements of O or LSE that differ between two runs.
    pub rerun: usize,
    /// Our GPU time, ms.
    pub ms: f32,
    /// The tile that ran (`AttentionKernel::describe`: `192×128`, ...).
    pub tile: String,
}

impl AttentionOutcome {
    /// Whether everything held.
    ///
    /// ```
    /// use host_cli::check::AttentionOutcome;
    /// let ok = AttentionOutcome { o_ratio: 0.4, cpu_bad: Some(0), ..Default::default() };
    /// assert!(ok.pass());
    /// // one padding element written, or the reference off the CPU's: a failure
    /// assert!(!AttentionOutcome { padding: 1, ..ok.clone() }.pass());
    /// assert!(!AttentionOutcome { cpu_bad: Some(2), ..ok }.pass());
    /// ```
    pub fn pass(&self) -> bool {
        self.o_bad == 0
            && self.lse_bad == 0
            && self.cpu_bad.unwrap_or(0) == 0
            && self.padding == 0
            && self.rerun == 0
    }
    /// The outcome as a `host run` row.
    ///
    /// ```
    /// use host_cli::check::AttentionOutcome;
    /// let out = AttentionOutcome {
    ///     o_ratio: 0.25, lse_ratio: 0.5, o_err: 1e-3, cpu_bad: Some(0), tile: "128×128".into(),
    ///     ..Default::default()
    /// };
    /// let row = out.to_row("attention", "bf16 b1 h4 sq64 sk64 d128 q×1".into());
    /// assert!(row.pass && row.mismatches == 0);
    /// assert_eq!(row.max_err, 0.5); // the larger of O's and LSE's share of their bound
    /// assert_eq!(row.note, "128×128 tile, O err 1.00e-3 (0.25 of bound), LSE 0.50 of bound, ref = CPU");
    /// ```
    pub fn to_row(&self, kernel: &'static str, shape: String) -> CheckRow {
        CheckRow {
            kernel,
            shape,
            pass: self.pass(),
            max_err: self.o_ratio.max(self.lse_ratio),
            mismatches: self.o_bad + self.lse_bad + self.padding + self.rerun,
            ms: self.ms,
            note: format!(
                "{} tile, O err {:.2e} ({:.2} of bound), LSE {:.2} of bound{}{}{}{}",
                self.tile,
                self.o_err,
                self.o_ratio,
                self.lse_ratio,
                match self.cpu_bad {
                    Some(0) => ", ref = CPU".to_string(),
                    Some(n) => format!(", ref vs CPU: {n} beyond"),
                    None => String::new(),
                },
                if self.padding > 0 {
                    format!(", {} padding writes", self.padding)
                } else {
                    String::new()
                },
                if self.rerun > 0 {
                    format!(", {} differ on a rerun", self.rerun)
                } else {
                    String::new()
                },
                if self.o_bad + self.lse_bad > 0 {
                    format!(", {} O / {} LSE beyond", self.o_bad, self.lse_bad)
                } else {
                    String::new()
                }
            ),
        }
    }
}

/// Every element offset of a (batch, token, head, d) tensor with strides `s`.
fn elements(s: [i64; 3], batches: usize, tokens: usize, heads: usize, d: usize) -> Vec<usize> {
    let mut v = Vec::with_capacity(batches * tokens * heads * d);
    for b in 0..batches {
        for t in 0..tokens {
            for h in 0..heads {
                let base = b as i64 * s[0] + t as i64 * s[1] + h as i64 * s[2];
                v.extend((0..d).map(|c| (base + c as i64) as usize));
            }
        }
    }
    v
}

/// (batches, tokens per batch) of Q/O and of K/V.
fn extents(p: &AttentionProblem) -> ((usize, usize), (usize, usize)) {
    match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(cq), Some(ck)) => (
            (1, *cq.last().unwrap_or(&0) as usize),
            (1, *ck.last().unwrap_or(&0) as usize),
        ),
        _ => ((p.batch, p.seqlen_q), (p.batch, p.seqlen_k)),
    }
}

/// A buffer of `len` elements: `INPUT_GUARD` everywhere, values from `rng` (uniform in
/// `[-amp, amp]`, rounded to `T`) at `at`.
fn input<T: AttnElement>(len: usize, at: &[usize], rng: &mut Rng, amp: f32) -> (Vec<T>, Vec<f32>) {
    let mut vals = vec![INPUT_GUARD; len];
    for &i in at {
        vals[i] = T::from_f32_rn(amp * rng.unit()).to_f32();
    }
    (vals.iter().map(|&x| T::from_f32_rn(x)).collect(), vals)
}

/// Runs `case` through [`Context::attention`] and [`Context::attention_without_lse`] and the
/// GPU reference (and the CPU one when small); compares.
///
/// ```no_run
/// use host_cli::check::{AttentionCase, DEFAULT_SEED, attention_case};
/// // the reference kernel is a check kernel: a context opened with them
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let case = AttentionCase::generate(DEFAULT_SEED, 3);
/// let out = attention_case(&ctx, &case)?;
/// assert!(out.pass(), "{}: {:?}", case.describe(), out);
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention_case(ctx: &Context, case: &AttentionCase) -> Result<AttentionOutcome> {
    match case.dtype {
        "bf16" => run::<bf16>(ctx, case, Rounding::BF16),
        "f16" => run::<f16>(ctx, case, Rounding::F16),
        other => Err(Error::Unsupported(format!(
            "attention element `{other}` (bf16, f16)"
        ))),
    }
}

fn run<T: AttnElement>(
    ctx: &Context,
    case: &AttentionCase,
    rounding: Rounding,
) -> Result<AttentionOutcome> {
    let s = ctx.default_stream();
    let p = case.cfg.check_shape()?;
    let lens = problem_lens(&p);
    let bytes = 2 * (lens.q + lens.k + lens.v + 3 * lens.o) as u128 + 40 * lens.o as u128;
    ctx.check_fits(&case.cfg.to_string(), bytes)?;
    let d = p.head_dim;
    let ((bq, tq), (bk, tk)) = extents(&p);
    let mut rng = Rng::new(case.data_seed);
    let (hq, hk) = (p.heads_q, p.heads_kv);
    let q_at = elements(p.q_stride, bq, tq, hq, d);
    let k_at = elements(p.k_stride, bk, tk, hk, d);
    let v_at = elements(p.v_stride, bk, tk, hk, d);
    let (qh, qf) = input::<T>(lens.q, &q_at, &mut rng, case.sharp);
    let (kh, kf) = input::<T>(lens.k, &k_at, &mut rng, 1.0);
    let (vh, vf) = input::<T>(lens.v, &v_at, &mut rng, 1.0);
    let vmax = v_at.iter().map(|&i| vf[i].abs()).fold(0f32, f32::max) as f64;
    let (dq, dk, dv) = (s.clone_htod(&qh)?, s.clone_htod(&kh)?, s.clone_htod(&vh)?);
    let guard_o = vec![T::from_f32_rn(OUT_GUARD); lens.o + TAIL];
    let guard_l = vec![OUT_GUARD; lens.lse + TAIL];

    // ours, twice: with the LSE, then without (`attention_without_lse`: the same O, and the
    // LSE buffer, handed to neither, still the guard)
    let ours = |ms: &mut f32, with_lse: bool| -> Result<(Vec<T>, Vec<f32>)> {
        let mut o = s.clone_htod(&guard_o)?;
        let mut l = s.clone_htod(&guard_l)?;
        *ms = timed(&s, || {
            if with_lse {
                ctx.attention(&s, &case.cfg, &dq, &dk, &dv, &mut o, &mut l)
            } else {
                ctx.attention_without_lse(&s, &case.cfg, &dq, &dk, &dv, &mut o)
            }
        })?;
        Ok((s.clone_dtoh(&o)?, s.clone_dtoh(&l)?))
    };
    let mut ms = 0f32;
    let (o1, l1) = ours(&mut ms, true)?;
    let (o2, l2) = ours(&mut 0f32, false)?;

    // the reference
    let all_rows = rows(&p);
    let n_ref = all_rows.iter().map(|r| r.ref_at / d + 1).max().unwrap_or(0);
    let mut ro = s.alloc_zeros::<f32>(n_ref * d)?;
    let mut ra = s.alloc_zeros::<f32>(n_ref * d)?;
    let mut rr = s.alloc_zeros::<f32>(n_ref)?;
    let mut rl = s.clone_htod(&vec![f32::NAN; lens.lse])?;
    attention_reference(
        ctx,
        &s,
        &p,
        &dq,
        &dk,
        &dv,
        RefOut::F32 {
            o: &mut ro,
            absw: Some(&mut ra),
            rmax: Some(&mut rr),
        },
        &mut rl,
    )?;
    let (ro, ra, rr, rl) = (
        s.clone_dtoh(&ro)?,
        s.clone_dtoh(&ra)?,
        s.clone_dtoh(&rr)?,
        s.clone_dtoh(&rl)?,
    );

    let kern = AttentionKernel::selected::<T>(ctx, &p)?.0;
    let mut out = AttentionOutcome {
        ms,
        tile: kern.describe(),
        ..Default::default()
    };
    // `lsum` (the row sums on the tensor core, of P rounded to 16 bits): `l` within u₁₆ of the
    // fp32 sum, so O (divided by it) and the LSE (`ln l`) one u₁₆ more (doc/attention.md,
    // session 11)
    let l16 = if kern.variant == "lsum" {
        rounding.unit * (1.0 + 1.0 / 64.0)
    } else {
        0.0
    };
    // O and LSE within the bound
    let mut written_o = vec![false; o1.len()];
    for r in &all_rows {
        let mag = RowMagnitudes {
            d,
            n: r.n,
            rmax: f64::from(rr[r.ref_at / d]),
        };
        for c in 0..d {
            let at = r.o as usize + c;
            written_o[at] = true;
            let (got, want) = (f64::from(o1[at].to_f32()), f64::from(ro[r.ref_at + c]));
            let absw = f64::from(ra[r.ref_at + c]);
            let bound = o_bound(rounding, true, &mag, absw, vmax) + l16 * absw;
            let err = (got - want).abs();
            out.o_err = out
                .o_err
                .max(if err.is_nan() { f64::INFINITY } else { err });
            let ratio = if bound > 0.0 {
                err / bound
            } else if err == 0.0 {
                0.0
            } else {
                f64::INFINITY
            };
            out.o_ratio = out
                .o_ratio
                .max(if ratio.is_nan() { f64::INFINITY } else { ratio });
            // a NaN error is beyond every bound
            if err.is_nan() || err > bound {
                out.o_bad += 1;
            }
        }
        let (got, want) = (f64::from(l1[r.lse_at]), f64::from(rl[r.lse_at]));
        let ok = if r.n == 0 {
            got == f64::INFINITY && want == f64::INFINITY
        } else {
            let b = lse_bound(true, &mag) + l16;
            let e = (got - want).abs();
            out.lse_ratio = out
                .lse_ratio
                .max(if e.is_nan() { f64::INFINITY } else { e / b });
            e <= b
        };
        if !ok {
            out.lse_bad += 1;
        }
    }
    // padding untouched, LSE's tail untouched
    let guard_bits = T::from_f32_rn(OUT_GUARD).to_f32().to_bits();
    out.padding = o1
        .iter()
        .zip(&written_o)
        .filter(|(x, w)| !**w && x.to_f32().to_bits() != guard_bits)
        .count()
        + l1[lens.lse..]
            .iter()
            .filter(|x| x.to_bits() != OUT_GUARD.to_bits())
            .count();
    // O bit-identical on a second run (without the LSE, which must then stay unwritten)
    out.rerun = o1
        .iter()
        .zip(&o2)
        .filter(|(a, b)| a.to_f32().to_bits() != b.to_f32().to_bits())
        .count()
        + l2.iter()
            .filter(|x| x.to_bits() != OUT_GUARD.to_bits())
            .count();
    // the reference against the CPU (small problems)
    if flops_of(&p) <= CPU_WORK {
        let cpu = attention_cpu(&p, &qf, &kf, &vf);
        let mut bad = 0;
        for r in &all_rows {
            let mag = RowMagnitudes {
                d,
                n: r.n,
                rmax: cpu.rmax[r.ref_at / d],
            };
            for c in 0..d {
                let i = r.ref_at + c;
                let b = o_bound(Rounding::NONE, false, &mag, cpu.absw[i], vmax);
                let e = (f64::from(ro[i]) - cpu.o[i]).abs();
                if e.is_nan() || e > b {
                    bad += 1;
                }
            }
            let (g, w) = (f64::from(rl[r.lse_at]), cpu.lse[r.lse_at]);
            let ok = if r.n == 0 {
                g == w
            } else {
                (g - w).abs() <= lse_bound(false, &mag)
            };
            bad += usize::from(!ok);
        }
        out.cpu_bad = Some(bad);
    }
    Ok(out)
}

/// `sq·sk·heads·d` products of a problem (its visible and masked pairs).
fn flops_of(p: &AttentionProblem) -> f64 {
    let pairs = host::attention::pairs(
        p.batch,
        p.seqlen_q,
        p.seqlen_k,
        p.cu_seqlens_q.as_deref(),
        p.cu_seqlens_k.as_deref(),
    );
    pairs * (p.heads_q * p.head_dim) as f64
}

/// The fixed cases: the smallest problem, every head dim (and head dim 64's two tiles), GQA and MQA, both causal alignments
/// with `seqlen_q ≠ seqlen_k` (fully masked rows included), a varlen batch with an empty query
/// and an empty key sequence, fused-QKV strides, head-major O, 4096-long sequences.
///
/// ```
/// assert!(host_cli::check::attention_fixed_cases().len() >= 10);
/// ```
pub fn attention_fixed_cases() -> Vec<AttentionCase> {
    let c = |dtype, cfg: AttentionConfig, sharp| AttentionCase {
        dtype,
        data_seed: 0xA77E ^ cfg.seqlen_q as u64,
        cfg,
        sharp,
    };
    let (tl, br) = (Causal::TopLeft, Causal::BottomRight);
    // Q, K, V as slices of one fused (batch, token, 3, heads, d) tensor
    let fused = |s: i64, h: i64, d: i64| [s * 3 * h * d, 3 * h * d, d];
    vec![
        c("bf16", AttentionConfig::new(1, 1, 1, 1, 64), 1.0),
        // head dim 64's 192-row tile (`AttentionKernel::for_problem`), three m-blocks, GQA
        c(
            "bf16",
            AttentionConfig::new(2, 4, 575, 1000, 64).heads_kv(2),
            3.0,
        ),
        c("f16", AttentionConfig::new(1, 1, 1, 1, 256).causal(br), 1.0),
        c(
            "bf16",
            AttentionConfig::new(2, 4, 128, 128, 128)
                .heads_kv(2)
                .causal(tl),
            3.0,
        ),
        c(
            "f16",
            AttentionConfig::new(1, 2, 200, 100, 256).causal(br),
            3.0,
        ),
        c(
            "bf16",
            AttentionConfig::new(1, 2, 100, 200, 64).causal(tl),
            10.0,
        ),
        // head dim 64's 128-row tile with Q in registers (192 rows would pad to 9/8), eight
        // m-blocks, MQA
        c(
            "f16",
            AttentionConfig::new(1, 8, 1000, 1000, 64).heads_kv(1),
            3.0,
        ),
        // and its 192-row tile in fp16 (three m-blocks against five of 128 rows), GQA
        c(
            "f16",
            AttentionConfig::new(1, 4, 575, 1100, 64).heads_kv(2),
            3.0,
        ),
        c(
            "bf16",
            AttentionConfig::new(3, 6, 129, 257, 128)
                .heads_kv(2)
                .causal(br),
            10.0,
        ),
        c(
            "bf16",
            AttentionConfig::varlen(4, 128, vec![0, 1, 130, 130, 400], vec![0, 7, 7, 300, 301])
                .heads_kv(2)
                .causal(br),
            3.0,
        ),
        c(
            "f16",
            AttentionConfig::varlen(2, 64, vec![0, 333, 334], vec![0, 100, 977]).causal(tl),
            3.0,
        ),
        c(
            "f16",
            AttentionConfig::new(1, 4, 300, 300, 128)
                .q_stride(fused(300, 4, 128))
                .k_stride(fused(300, 4, 128))
                .v_stride(fused(300, 4, 128)),
            3.0,
        ),
        c(
            "bf16",
            AttentionConfig::new(2, 4, 77, 99, 64).o_stride([4 * 77 * 64, 64, 77 * 64]),
            1.0,
        ),
        c(
            "f16",
            AttentionConfig::new(1, 2, 4096, 4096, 128).causal(tl),
            3.0,
        ),
        c(
            "bf16",
            AttentionConfig::new(1, 1, 4095, 4097, 256).causal(br),
            3.0,
        ),
        // head dim 64's 192-row tile under a causal mask (from 4097 queries, past the sweep's
        // 4096: `AttentionKernel::WIDE_CAUSAL_MIN_SEQLEN_Q`), bottom-right
        c(
            "f16",
            AttentionConfig::new(1, 2, 4200, 4300, 64).causal(br),
            3.0,
        ),
        // head dim 128's 176-key tile (non-causal, from 8k keys), GQA, a partial last key
        // block; bf16, and f16 varlen
        c(
            "bf16",
            AttentionConfig::new(1, 4, 333, 8200, 128).heads_kv(2),
            3.0,
        ),
        c(
            "f16",
            AttentionConfig::varlen(2, 128, vec![0, 100, 357], vec![0, 8192, 8400]),
            3.0,
        ),
        // the TMA epilogue (128 × 128), GQA, rows past seqlen_q clipped by the map
        c(
            "bf16",
            AttentionConfig::new(2, 6, 333, 1001, 128).heads_kv(3),
            3.0,
        ),
        // varlen on the TMA epilogue: warpgroups inside their sequence store by TMA, those
        // crossing its end directly (d128 128 × 128; d64 causal, 128 × 128)
        c(
            "f16",
            AttentionConfig::varlen(2, 128, vec![0, 300, 301, 700], vec![0, 500, 1000, 1003]),
            3.0,
        ),
        c(
            "bf16",
            AttentionConfig::varlen(4, 64, vec![0, 200, 600, 601], vec![0, 300, 350, 999])
                .heads_kv(1)
                .causal(tl),
            3.0,
        ),
    ]
}

/// An argument-error case: what, the problem, elements O lacks, the error expected.
type ErrorCase = (&'static str, AttentionConfig, usize, fn(&Error) -> bool);

/// Every argument error [`Context::attention`] refuses, each triggered on real buffers with O
/// pre-filled: the typed error must come back and O must be untouched (nothing launched).
fn argument_errors(ctx: &Context) -> Vec<CheckRow> {
    let s = ctx.default_stream();
    let mut rows = Vec::new();
    let ok = AttentionConfig::new(1, 4, 64, 64, 64).heads_kv(2);
    let mut cases: Vec<ErrorCase> = vec![
        (
            "head_dim 96",
            AttentionConfig::new(1, 4, 64, 64, 96),
            0,
            |e| {
                matches!(
                    e,
                    Error::Attention(AttentionError::HeadDim { head_dim: 96 })
                )
            },
        ),
        ("heads 4 over heads_kv 3", ok.clone().heads_kv(3), 0, |e| {
            matches!(e, Error::Attention(AttentionError::GqaRatio { .. }))
        }),
        (
            "seqlen_q 0",
            AttentionConfig::new(1, 4, 0, 64, 64),
            0,
            |e| {
                matches!(
                    e,
                    Error::Attention(AttentionError::Zero { name: "seqlen_q" })
                )
            },
        ),
        (
            "K token stride 100",
            ok.clone().k_stride([6400, 100, 8]),
            0,
            |e| {
                matches!(
                    e,
                    Error::Attention(AttentionError::Stride { tensor: "K", .. })
                )
            },
        ),
        (
            "O heads overlapping",
            ok.clone().o_stride([64 * 256, 256, 32]),
            0,
            |e| matches!(e, Error::Attention(AttentionError::Overlap { .. })),
        ),
        ("scale NaN", ok.clone().scale(f32::NAN), 0, |e| {
            matches!(e, Error::Attention(AttentionError::Scale { .. }))
        }),
        (
            "cu_seqlens_q[0] = 2",
            AttentionConfig::varlen(4, 64, vec![2, 10], vec![0, 10]),
            0,
            |e| matches!(e, Error::Attention(AttentionError::CuSeqlensStart { .. })),
        ),
        (
            "cu_seqlens_k decreasing",
            AttentionConfig::varlen(4, 64, vec![0, 5, 10], vec![0, 6, 4]),
            0,
            |e| {
                matches!(
                    e,
                    Error::Attention(AttentionError::CuSeqlensDecreasing { .. })
                )
            },
        ),
        (
            "seqlen_k 2^31",
            AttentionConfig::new(1, 4, 64, 1 << 31, 64),
            0,
            |e| matches!(e, Error::Attention(AttentionError::TooLarge { .. })),
        ),
        ("O one element short", ok.clone(), 1, |e| {
            matches!(e, Error::BufferTooSmall { name: "O", .. })
        }),
    ];
    let mut varlen_len = AttentionConfig::varlen(4, 64, vec![0, 5, 10], vec![0, 6, 9]);
    varlen_len.cu_seqlens_k = Some(vec![0, 9]);
    cases.push(("cu_seqlens_k of 2 for 2 sequences", varlen_len, 0, |e| {
        matches!(e, Error::Attention(AttentionError::CuSeqlensLen { .. }))
    }));
    let mut run = || -> Result<()> {
        // buffers for the valid problem (every refused one is about the same size)
        let lens = ok.lens()?;
        let big = lens.q.max(lens.k).max(4 * 64 * 10 * 64);
        let q = s.alloc_zeros::<bf16>(big)?;
        let guard = vec![bf16::from_f32(OUT_GUARD); big];
        for (what, cfg, short, expect) in cases.drain(..) {
            let mut o = s.clone_htod(&guard[..if short > 0 { lens.o - short } else { big }])?;
            let mut l = s.alloc_zeros::<f32>(big)?;
            let r = ctx.attention(&s, &cfg, &q, &q, &q, &mut o, &mut l);
            let untouched = s
                .clone_dtoh(&o)?
                .iter()
                .all(|x| x.to_bits() == guard[0].to_bits());
            let (pass, note) = match &r {
                Err(e) if expect(e) && untouched => (true, e.to_string()),
                Err(e) => (false, format!("{e} (O untouched: {untouched})")),
                Ok(()) => (false, "accepted".into()),
            };
            rows.push(CheckRow {
                kernel: "attention args",
                shape: what.to_string(),
                pass,
                max_err: 0.0,
                mismatches: usize::from(!pass),
                ms: 0.0,
                note,
            });
        }
        Ok(())
    };
    if let Err(e) = run() {
        rows.push(CheckRow::failed(
            "attention args",
            "-".into(),
            e.to_string(),
        ));
    }
    // what a CudaSlice cannot produce: a misaligned address, another GPU
    let mis = check_addresses(&[("Q", 0x10_0000), ("V", 0x10_0008)]);
    rows.push(CheckRow {
        kernel: "attention args",
        shape: "V at 0x100008".into(),
        pass: matches!(
            mis,
            Err(Error::Attention(AttentionError::Misaligned {
                tensor: "V",
                ..
            }))
        ),
        max_err: 0.0,
        mismatches: 0,
        ms: 0.0,
        note: mis.err().map_or("accepted".into(), |e| e.to_string()),
    });
    let a100 = DeviceInfo {
        ordinal: 0,
        name: "NVIDIA A100-SXM4-80GB".into(),
        capability: (8, 0),
        sms: 108,
    };
    let cc = check_device(&a100);
    rows.push(CheckRow {
        kernel: "attention args",
        shape: "an sm_80 device".into(),
        pass: matches!(
            cc,
            Err(Error::Attention(AttentionError::ComputeCapability { .. }))
        ),
        max_err: 0.0,
        mismatches: 0,
        ms: 0.0,
        note: cc.err().map_or("accepted".into(), |e| e.to_string()),
    });
    rows
}

/// The attention section: fixed cases, argument errors, then `count` sweep problems of `seed`
/// (one summary row, plus a row per failing problem).
///
/// ```no_run
/// // public as `host_cli::check::attention`
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let rows = host_cli::check::attention(&ctx, 7, 20, &mut ());
/// let sweep = rows.iter().find(|r| r.kernel == "attention sweep").unwrap();
/// assert_eq!(sweep.shape, "20 problems, seed 7");
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn checks(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    let mut rows = Vec::new();
    progress.step("attention: fixed cases");
    for case in attention_fixed_cases() {
        rows.push(match attention_case(ctx, &case) {
            Ok(out) => out.to_row("attention", case.describe()),
            Err(e) => CheckRow::failed("attention", case.describe(), e.to_string()),
        });
    }
    progress.step("attention: argument errors");
    rows.extend(argument_errors(ctx));
    if count == 0 {
        return rows;
    }
    let mut failed = Vec::new();
    let (mut worst, mut ms, mut cpu) = (0f64, 0f32, 0usize);
    for i in 0..count {
        let case = AttentionCase::generate(seed, i);
        progress.step(&format!("attention sweep {i}: {}", case.describe()));
        match attention_case(ctx, &case) {
            Ok(out) => {
                worst = worst.max(out.o_ratio.max(out.lse_ratio));
                ms += out.ms;
                cpu += usize::from(out.cpu_bad.is_some());
                if !out.pass() {
                    let mut row =
                        out.to_row("attention sweep", format!("#{i} {}", case.describe()));
                    row.note = format!("{}; {}", row.note, case.params());
                    failed.push(row);
                }
            }
            Err(e) => failed.push(CheckRow::failed(
                "attention sweep",
                format!("#{i} {}", case.describe()),
                e.to_string(),
            )),
        }
    }
    rows.push(CheckRow {
        kernel: "attention sweep",
        shape: format!("{count} problems, seed {seed}"),
        pass: failed.is_empty(),
        max_err: worst,
        mismatches: failed.len(),
        ms,
        note: format!(
            "{} failed; worst error {worst:.2} of the bound; {cpu} also vs the CPU",
            failed.len()
        ),
    });
    rows.extend(failed);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default sweep covers what the issue asks for.
    #[test]
    fn the_sweep_covers_the_issue_cases() {
        let ps: Vec<AttentionCase> = (0..DEFAULT_ATTENTION_PROBLEMS)
            .map(|i| AttentionCase::generate(super::super::DEFAULT_SEED, i))
            .collect();
        let any = |f: &dyn Fn(&AttentionCase) -> bool| ps.iter().filter(|p| f(p)).count();
        for p in &ps {
            let p = p.cfg.check_shape().unwrap();
            assert!(p.seqlen_q <= 4096 && p.seqlen_k <= 4096);
        }
        assert!(any(&|p| p.cfg.seqlen_q == 1 || p.cfg.seqlen_k == 1) >= 5);
        assert!(any(&|p| p.cfg.seqlen_q % 2 == 1 && p.cfg.seqlen_q > 1) >= 20);
        assert!(any(&|p| p.cfg.seqlen_q > 2048 || p.cfg.seqlen_k > 2048) >= 10);
        for d in [64, 128, 256] {
            assert!(any(&|p| p.cfg.head_dim == d) >= 30, "d {d}");
        }
        for r in [2, 3, 4, 8] {
            assert!(
                any(&|p| p.cfg.heads == r * p.cfg.heads_kv) >= 5,
                "ratio {r}"
            );
        }
        assert!(any(&|p| p.cfg.causal == Some(Causal::TopLeft)) >= 30);
        assert!(any(&|p| p.cfg.causal == Some(Causal::BottomRight)) >= 30);
        assert!(
            any(&|p| p.cfg.causal == Some(Causal::BottomRight)
                && !p.cfg.is_varlen()
                && p.cfg.seqlen_q > p.cfg.seqlen_k)
                >= 5
        );
        assert!(any(&|p| p.cfg.is_varlen()) >= 30);
        assert!(any(&|p| p.cfg.strides.iter().any(Option::is_some)) >= 50);
        assert!(any(&|p| p.dtype == "bf16") >= 60 && any(&|p| p.dtype == "f16") >= 60);
    }

    /// Head dim 64 has two tiles (`AttentionKernel::for_problem`: 128 rows with Q in registers
    /// or 192 rows), head dim 128 one (128 × 128; the 176-key tile is a measuring entry since
    /// session 33): the fixed cases run each in bf16 and fp16, and so do the first 60 problems
    /// of the default sweep (what the final check's `host run --sweep-attention 60` runs). d64's 128-row tile with Q in shared memory
    /// (`attention_fwd_*_d64`) is no longer a default choice (`CUTE_RS_ATTENTION=overlap`):
    /// every d64 problem lands on one of the other two, both mask kinds on both.
    #[test]
    fn every_tile_runs_in_both_types() {
        let tiles = |cases: &[AttentionCase]| {
            let mut seen = std::collections::BTreeSet::new();
            for c in cases.iter().filter(|c| c.cfg.head_dim != 256) {
                let p = c.cfg.check_shape().unwrap();
                let k = AttentionKernel::for_problem(&p).unwrap();
                seen.insert((c.dtype, k.head_dim, k.bm, k.bn, k.q_regs));
            }
            seen
        };
        let mut want = std::collections::BTreeSet::new();
        for dtype in ["bf16", "f16"] {
            for tile in [
                (64, 128, 128, true),
                (64, 192, 128, false),
                (128, 128, 128, false),
            ] {
                want.insert((dtype, tile.0, tile.1, tile.2, tile.3));
            }
        }
        assert_eq!(tiles(&attention_fixed_cases()), want);
        let sweep: Vec<AttentionCase> = (0..60)
            .map(|i| AttentionCase::generate(super::super::DEFAULT_SEED, i))
            .collect();
        // the first 60 random problems: not the 192-row tile (causal from 4097 queries; without
        // a mask where it pads at most 17/16)
        want.retain(|t| t.2 != 192);
        assert_eq!(tiles(&sweep), want);
        // d64 in the 200-problem sweep (`host run --sweep-attention 200`): Q in registers under
        // a causal mask and without one, the 192-row tile without one (causal it starts past
        // the sweep's 4096 queries: a fixed case)
        let sweep: Vec<AttentionCase> = (0..200)
            .map(|i| AttentionCase::generate(super::super::DEFAULT_SEED, i))
            .collect();
        let mut d64 = std::collections::BTreeMap::new();
        for c in sweep.iter().filter(|c| c.cfg.head_dim == 64) {
            let k = AttentionKernel::for_problem(&c.cfg.check_shape().unwrap()).unwrap();
            *d64.entry((k.bm, k.q_regs, c.cfg.causal.is_some()))
                .or_insert(0) += 1;
        }
        for (tile, causal) in [
            ((128, true), false),
            ((128, true), true),
            ((192, false), false),
        ] {
            assert!(
                d64.get(&(tile.0, tile.1, causal)).is_some_and(|&n| n >= 2),
                "{tile:?} causal {causal}: {d64:?}"
            );
        }
        assert!(!d64.contains_key(&(192, false, true)), "{d64:?}");
        assert_eq!(d64.keys().filter(|k| k.0 == 128 && !k.1).count(), 0);
    }
}
