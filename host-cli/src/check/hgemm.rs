//! [`Context::hgemm`] (bf16/fp16 in, fp32 accumulation) against cuBLAS `cublasGemmEx` on the
//! same inputs, element by element within [`error_bound`], and C's padding (rows `M..ldc` of
//! every column, and a guard after the last column) untouched.
//!
//! The bound needs `Σₖ|alpha·a·b|` per element: cuBLAS computes it too, as the GEMM of `|A|`
//! and `|B|` with `|alpha|` (fp32 output; its own rounding is far inside the bound's slack).
//!
//! The bound assumes one rounding to C's element on each side. cuBLAS does not always keep to
//! that: under a cancellation (`alpha·Σab ≈ −beta·c`, a result far smaller than its terms) some
//! of its bf16 kernels land tens of ulps from the exact value (session 19: 2208×219×440 NN,
//! alpha −0.5, beta 1 — cuBLAS 31 and 58 ulps off, ours 0.03 and 0.46). So where the two
//! disagree beyond the bound, ours is measured against the exact value instead ([`exact_at`],
//! f64 on the CPU, the same bound): within it, the element counts as cuBLAS's error
//! ([`HgemmOutcome::reference_off`], named in the row's note); beyond it, as a mismatch.

use std::sync::Arc;

use host::cudarc::driver::CudaStream;
use host::half::{bf16, f16};

use super::bounds::{activation_f64, error_bound, fused_epilogue_bound};
use super::{CheckRow, Rng};
use crate::timing::timed;
use host::context::Context;
use host::cublas::Cublas;
use host::error::{Error, Result};
use host::gemm::{Activation, BiasMode, GemmConfig, GemmKernel, Trans};
use host::hgemm::{GemmOut, HalfElement, HgemmEpilogue, hgemm_epilogue};

/// Elements after C's last column that must stay as they were.
const GUARD: usize = 64;

/// Elements allocated after A's and B's last column: cuBLAS's 16-byte vector kernels read the
/// rest of the last column's 16 bytes past `(cols − 1)·ld + rows` (compute-sanitizer memcheck
/// on the H100 caught `cutlass_80_tensorop_s16816gemm_f16_64x64_32x6_nt_align8` doing it), so
/// the inputs get slack that belongs to no matrix.
const INPUT_SLACK: usize = 64;

/// What one comparison found.
#[derive(Clone, Debug, Default)]
pub struct HgemmOutcome {
    /// Elements of C beyond the bound from cuBLAS's and (linear problems) from the exact
    /// value (NaN beside NaN agrees).
    pub bad: usize,
    /// Padding elements of C that changed.
    pub padding_changed: usize,
    /// max |ours − cuBLAS| / bound over C.
    pub worst: f64,
    /// GPU time of our launch, ms.
    pub ms: f32,
    /// Elements where ours and cuBLAS disagree beyond the bound but ours is within it of the
    /// exact value ([`exact_at`]): cuBLAS's error, not counted in `bad`.
    pub reference_off: usize,
    /// Where the two disagree, which side is off: the worst mismatch (else the worst element
    /// cuBLAS is off at) beside its exact value (f64 on the CPU), each side's distance from it
    /// in C's ulps there.
    pub diagnosis: Option<String>,
}

/// The exact `alpha·Σₖ op(A)_rk·op(B)_kc + beta·c` of element `i` of a column-major C (row
/// `i mod ldc`, column `i / ldc`) in f64 (the products of 16-bit inputs are exact, and K ≤ 3000
/// of them sum within 2⁻⁴⁰ relative), `c` its value before the call: what a mismatch's two sides
/// are measured against.
///
/// ```
/// use host::half::bf16;
/// // A = [[1, 2], [3, 4]] (column-major), B = I, alpha 2, beta 1, C = 1
/// let g = host::GemmConfig::new(2, 2, 2).alpha(2.0).beta(1.0);
/// let h = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
/// let (a, b) = (h(&[1.0, 3.0, 2.0, 4.0]), h(&[1.0, 0.0, 0.0, 1.0]));
/// assert_eq!(host_cli::check::exact_at(&g, &a, &b, 1.0, 2), 5.0); // row 0, column 1: 2·2 + 1
/// ```
pub fn exact_at<T: HalfElement>(g: &GemmConfig, a: &[T], b: &[T], c: f32, i: usize) -> f64 {
    let (r, col) = (i % g.ldc.max(1), i / g.ldc.max(1));
    let at = |l: usize| match g.transa {
        Trans::N => a[r + l * g.lda],
        Trans::T => a[l + r * g.lda],
    };
    let bt = |l: usize| match g.transb {
        Trans::N => b[l + col * g.ldb],
        Trans::T => b[col + l * g.ldb],
    };
    let s: f64 = (0..g.k)
        .map(|l| f64::from(at(l).to_f32()) * f64::from(bt(l).to_f32()))
        .sum();
    let cterm = if g.beta == 0.0 {
        0.0
    } else {
        f64::from(g.beta) * f64::from(c)
    };
    f64::from(g.alpha) * s + cterm
}

/// C's unit in the last place at `x`: `2^(⌊log2 |x|⌋ − p + 1)`, `p` the element's significand bits
/// (bf16 8, f16 11, f32 24), at least the smallest normal's.
fn ulp_at<O: GemmOut>(x: f64) -> f64 {
    let (p, min_exp) = match O::CODE {
        0 => (24, -126),
        1 => (8, -126),
        _ => (11, -14),
    };
    let e = if x == 0.0 {
        min_exp
    } else {
        (x.abs().log2().floor() as i32).max(min_exp)
    };
    2f64.powi(e - p + 1)
}

/// Runs `g` through ours and cuBLAS on random inputs from `seed` (A, B in ±1, C in ±1 with
/// NaN at C's first element when `beta == 0`, which must not be read) and compares.
///
/// ```no_run
/// use host::{Context, Cublas, GemmConfig};
/// let ctx = Context::new(0)?;
/// let blas = Cublas::new(&ctx, ctx.default_stream())?;
/// let g = GemmConfig::new(300, 200, 100).lda(304).ldb(104);
/// let r = host_cli::check::hgemm_compare::<host::half::bf16, f32>(&ctx, &blas, &g, 7)?;
/// assert_eq!(r.bad + r.padding_changed, 0);
/// # Ok::<(), host::Error>(())
/// ```
pub fn hgemm_compare<T: HalfElement, O: GemmOut>(
    ctx: &Context,
    blas: &Cublas,
    g: &GemmConfig,
    seed: u64,
) -> Result<HgemmOutcome> {
    let s: &Arc<CudaStream> = blas.stream();
    let (na, nb, nc) = g.lens();
    ctx.check_fits(
        &g.to_string(),
        2 * (na as u128 + nb as u128 + 2 * INPUT_SLACK as u128) * 2
            + 4 * (nc as u128 + GUARD as u128) * 4,
    )?;
    let mut rng = Rng::new(seed);
    let a: Vec<T> = (0..na + INPUT_SLACK)
        .map(|_| T::from_f32_rn(rng.unit()))
        .collect();
    let b: Vec<T> = (0..nb + INPUT_SLACK)
        .map(|_| T::from_f32_rn(rng.unit()))
        .collect();
    let mut c: Vec<O> = (0..nc + GUARD)
        .map(|_| O::from_f32_rn(rng.unit()))
        .collect();
    if g.beta == 0.0 && nc > 0 {
        c[0] = O::from_f32_rn(f32::NAN);
    }
    let abs = |v: &[T]| -> Vec<T> { v.iter().map(|x| T::from_f32_rn(x.to_f32().abs())).collect() };
    let da = s.clone_htod(&a)?;
    let db = s.clone_htod(&b)?;
    let mut dc = s.clone_htod(&c)?;
    let mut dr = s.clone_htod(&c)?;
    // the fused epilogue's bias (drawn after A, B, C: the linear problems keep their data)
    let bias: Vec<f32> = (0..g.bias_len()).map(|_| rng.unit()).collect();
    let dbias = match bias.is_empty() {
        true => None,
        false => Some(s.clone_htod(&bias)?),
    };
    let ms = timed(s, || {
        ctx.hgemm_fused(s, g, &da, &db, &mut dc, dbias.as_ref())
    })?;
    // fused: the reference is cuBLAS's linear combination with an f32 C, then bias and
    // activation in f64 here
    let lin = if g.is_fused() {
        let mut dl = s.clone_htod(&c.iter().map(|x| x.to_f32()).collect::<Vec<f32>>())?;
        blas.gemm_ex::<T, f32, _, _, _>(&g.linear(), &da, &db, &mut dl)?;
        Some(s.clone_dtoh(&dl)?)
    } else {
        blas.gemm_ex(g, &da, &db, &mut dr)?;
        None
    };
    let (got, want) = (s.clone_dtoh(&dc)?, s.clone_dtoh(&dr)?);
    // Σ|alpha·a·b| per element
    let (aa, ab) = (s.clone_htod(&abs(&a))?, s.clone_htod(&abs(&b))?);
    let mut dsum = s.alloc_zeros::<f32>(nc.max(1))?;
    let gs = g.linear().alpha(g.alpha.abs()).beta(0.0);
    blas.gemm_ex(&gs, &aa, &ab, &mut dsum)?;
    let sum = s.clone_dtoh(&dsum)?;
    let mut out = HgemmOutcome {
        ms,
        ..HgemmOutcome::default()
    };
    // the worst element ours and cuBLAS disagree on beyond the bound while ours is within it
    // of the exact value (cuBLAS off), and the worst mismatch (ours off the exact value too)
    let (mut worst_bad, mut reference_off): (Option<usize>, Option<(usize, f64)>) = (None, None);
    for i in 0..nc + GUARD {
        let in_c = i < nc && (i % g.ldc.max(1)) < g.m;
        let (x, y) = (got[i].to_f32(), want[i].to_f32());
        if !in_c {
            if x.to_bits() != c[i].to_f32().to_bits() {
                out.padding_changed += 1;
            }
            continue;
        }
        if x.is_nan() && y.is_nan() {
            continue; // NaN beside NaN: agreement
        }
        let beta_c = if g.beta == 0.0 {
            0.0
        } else {
            (f64::from(g.beta) * f64::from(c[i].to_f32())).abs()
        };
        let (y, lim) = match &lin {
            None => {
                let y = f64::from(y);
                (
                    y,
                    error_bound::<O>(g.k, 1.01 * f64::from(sum[i]), beta_c, y.abs()),
                )
            }
            Some(lin) => fused_reference::<O>(g, &bias, i, f64::from(lin[i]), sum[i], beta_c),
        };
        if x.is_nan() && y.is_nan() {
            continue;
        }
        let mut d = (f64::from(x) - y).abs();
        let mut lim = lim;
        if (d.is_nan() || d > lim) && lin.is_none() {
            // the two disagree: ours against the exact value, with the same bound (cuBLAS
            // rounds an intermediate to C's element in some kernels: 31–58 of bf16's ulps off
            // under a cancellation, session 19, where the bound assumes one rounding a side)
            let z = exact_at(g, &a, &b, c[i].to_f32(), i);
            let lim_z = error_bound::<O>(g.k, 1.01 * f64::from(sum[i]), beta_c, z.abs());
            let dz = (f64::from(x) - z).abs();
            if dz <= lim_z {
                out.reference_off += 1;
                if worst_bad.is_none() && reference_off.is_none_or(|(_, r)| d / lim > r) {
                    reference_off = Some((i, d / lim));
                }
                (d, lim) = (dz, lim_z);
            } else if d.is_nan() || d / lim > out.worst {
                worst_bad = Some(i);
            }
        }
        if d.is_nan() || d > lim {
            out.bad += 1;
        }
        out.worst = out
            .worst
            .max(if d.is_nan() { f64::INFINITY } else { d / lim });
    }
    out.diagnosis = worst_bad.or(reference_off.map(|(i, _)| i)).map(|i| {
        let z = exact_at(g, &a, &b, c[i].to_f32(), i);
        let (x, y) = (f64::from(got[i].to_f32()), f64::from(want[i].to_f32()));
        let ulp = ulp_at::<O>(z);
        format!(
            "{}worst at ({}, {}): ours {x:e}, cuBLAS {y:e}, exact {z:e} (f64): ours {:.2} ulp \
             off, cuBLAS {:.2}",
            if worst_bad.is_some() {
                String::new()
            } else {
                format!(
                    "cuBLAS off the exact value beyond the bound at {} elements, ours within \
                     it: ",
                    out.reference_off
                )
            },
            i % g.ldc.max(1),
            i / g.ldc.max(1),
            (x - z).abs() / ulp,
            (y - z).abs() / ulp
        )
    });
    Ok(out)
}

/// The fused epilogue's reference for element `i` of C and its bound: `act(lin + bias)` in f64
/// from cuBLAS's linear combination `lin` (f32). The bound (stated, issue #34): the linear
/// combination's ([`error_bound`] for an f32 result) times 1.13 (the activations' largest
/// slope: GELU's 1.13, SiLU's 1.1, ReLU's 1), plus 4·10⁻⁶·(1 + |lin + bias|) for the kernel's
/// f32 activation math (exp, tanh, erf: ≤ 2·10⁻⁶·(1 + |x|), pinned by layout-types' tests),
/// plus, for GELU (tanh form), 2.45·10⁻⁴·|lin + bias| for its `tanh.approx.f32` (relative
/// error ≤ 2⁻¹¹, PTX ISA; `½|x|·|tanh|·2⁻¹¹` and the `f32` roundings, pinned by layout-types'
/// `gelu_with_approximate_tanh_within_bound`; CUTLASS's `GELU_taylor` the same), plus twice
/// C's rounding of the result.
fn fused_reference<O: GemmOut>(
    g: &GemmConfig,
    bias: &[f32],
    i: usize,
    lin: f64,
    sum: f32,
    beta_c: f64,
) -> (f64, f64) {
    let (row, col) = (i % g.ldc.max(1), i / g.ldc.max(1));
    let b = match g.bias {
        BiasMode::None => 0.0,
        BiasMode::M => f64::from(bias[row]),
        BiasMode::N => f64::from(bias[col]),
    };
    let z = lin + b;
    let y = activation_f64(g.act, z);
    let lim = fused_epilogue_bound(
        error_bound::<f32>(g.k, 1.01 * f64::from(sum), beta_c, lin.abs()),
        z,
        y,
        g.act,
        O::UNIT_ROUNDOFF,
    );
    (y, lim)
}

/// `hgemm_compare` for the element pair named at run time.
fn compare_named(
    ctx: &Context,
    blas: &Cublas,
    g: &GemmConfig,
    seed: u64,
    dtype: &str,
    out: &str,
) -> Result<HgemmOutcome> {
    match (dtype, out) {
        ("bf16", "f32") => hgemm_compare::<bf16, f32>(ctx, blas, g, seed),
        ("bf16", "bf16") => hgemm_compare::<bf16, bf16>(ctx, blas, g, seed),
        ("f16", "f32") => hgemm_compare::<f16, f32>(ctx, blas, g, seed),
        ("f16", "f16") => hgemm_compare::<f16, f16>(ctx, blas, g, seed),
        _ => Err(Error::Unsupported(format!(
            "{dtype} inputs with a {out} C (cuBLAS, the reference, has no such GEMM)"
        ))),
    }
}

/// One problem of your choice against cuBLAS, as a check row: `dtype` `bf16`/`f16`, `out`
/// the same or `f32`.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let g = host::GemmConfig::new(1000, 1000, 1000).lda(1000).ldb(1000);
/// let row = host_cli::check::hgemm_problem(&ctx, &g, "bf16", "bf16", 1)?;
/// assert!(row.pass, "{}", row.note);
/// # Ok::<(), host::Error>(())
/// ```
pub fn hgemm_problem(
    ctx: &Context,
    g: &GemmConfig,
    dtype: &str,
    out: &str,
    seed: u64,
) -> Result<CheckRow> {
    let blas = Cublas::new(ctx, ctx.default_stream())?;
    let r = compare_named(ctx, &blas, g, seed, dtype, out)?;
    Ok(row(g, dtype, out, &r))
}

fn label(g: &GemmConfig, dtype: &str, out: &str) -> String {
    format!(
        "{g} {dtype}->{out} a={} b={} ld={},{},{} epi={}",
        g.alpha,
        g.beta,
        g.lda,
        g.ldb,
        g.ldc,
        if tma_epilogue(g, out) {
            "tma"
        } else {
            "direct"
        }
    )
}

/// The check rows' kernel name: `hgemm_sm80` when the Ampere kernel was asked for.
fn name(g: &GemmConfig) -> &'static str {
    if g.kernel == GemmKernel::Sm80 {
        "hgemm_sm80"
    } else {
        "hgemm"
    }
}

/// Whether `g` goes through the Hopper kernel's TMA epilogue (C's buffers are 256-byte aligned
/// allocations).
fn tma_epilogue(g: &GemmConfig, out: &str) -> bool {
    if g.kernel == GemmKernel::Sm80 {
        return false;
    }
    let e = if out == "f32" {
        hgemm_epilogue::<f32>(g, 0)
    } else {
        hgemm_epilogue::<bf16>(g, 0)
    };
    matches!(e, HgemmEpilogue::Tma(_))
}

fn row(g: &GemmConfig, dtype: &str, out: &str, r: &HgemmOutcome) -> CheckRow {
    let tf = g.flops() / (f64::from(r.ms) * 1e9);
    CheckRow {
        kernel: name(g),
        shape: label(g, dtype, out),
        pass: r.bad == 0 && r.padding_changed == 0,
        max_err: r.worst,
        mismatches: r.bad + r.padding_changed,
        ms: r.ms,
        note: format!(
            "vs cuBLAS GemmEx; max_err = max |diff|/bound; padding changed: {}; {tf:.1} TFLOP/s{}",
            r.padding_changed,
            r.diagnosis
                .as_ref()
                .map(|d| format!("; {d}"))
                .unwrap_or_default()
        ),
    }
}

/// A random problem of the sweep: M, N, K in 1..=3000 (a quarter ≤ 64, half ≤ 600, the rest
/// up to 3000, so tile edges and 1 come up), a random majority, alpha, beta, leading
/// dimensions (A and B: their rows rounded up to 8, TMA's rule, plus 0–16; C: M plus 0–3, or
/// half the time M rounded up to 8 plus 0 or 8, which the TMA epilogue takes when beta = 0),
/// input and output element.
///
/// ```
/// let (g, dtype, out) = host_cli::check::hgemm_sweep_problem(&mut host_cli::check::Rng::new(1));
/// assert!(g.m >= 1 && g.m <= 3000 && g.lda % 8 == 0);
/// assert!(matches!((dtype, out), ("bf16", "bf16" | "f32") | ("f16", "f16" | "f32")));
/// ```
pub fn hgemm_sweep_problem(rng: &mut Rng) -> (GemmConfig, &'static str, &'static str) {
    let dim = |rng: &mut Rng| -> usize {
        match rng.int(0, 3) {
            0 => rng.int(1, 64) as usize,
            1 | 2 => rng.int(1, 600) as usize,
            _ => rng.int(1, 3000) as usize,
        }
    };
    let (m, n, k) = (dim(rng), dim(rng), dim(rng));
    let t = |b: i32| if b == 0 { Trans::N } else { Trans::T };
    let (ta, tb) = (t(rng.int(0, 1)), t(rng.int(0, 1)));
    let alphas = [1.0f32, -0.5, 2.0, 0.75];
    let betas = [0.0f32, 1.0, -1.5, 0.5];
    let mut g = GemmConfig::new(m, n, k)
        .trans(ta, tb)
        .alpha(alphas[rng.int(0, 3) as usize])
        .beta(betas[rng.int(0, 3) as usize]);
    g.lda = g.lda.next_multiple_of(8) + 8 * rng.int(0, 2) as usize;
    g.ldb = g.ldb.next_multiple_of(8) + 8 * rng.int(0, 2) as usize;
    g.ldc = if rng.int(0, 1) == 0 {
        g.ldc + rng.int(0, 3) as usize
    } else {
        g.ldc.next_multiple_of(8) + 8 * rng.int(0, 1) as usize
    };
    let dtype = if rng.int(0, 1) == 0 { "bf16" } else { "f16" };
    let out = if rng.int(0, 1) == 0 { dtype } else { "f32" };
    (g, dtype, out)
}

/// A random fused problem of the sweep: [`hgemm_sweep_problem`]'s sizes, scales, leading
/// dimensions, made bf16 → bf16 TN (the fused entries'), with a bias along M, N or
/// none and one of the activations (not the plain identity without a bias).
///
/// ```
/// let mut rng = host_cli::check::Rng::new(7);
/// for _ in 0..20 {
///     let (g, dtype, out) = host_cli::check::hgemm_sweep_fused(&mut rng);
///     assert_eq!((dtype, out), ("bf16", "bf16"));
///     assert!(g.is_fused() && g.transa == host::Trans::T && g.transb == host::Trans::N);
///     assert!(g.lda % 8 == 0 && g.ldb % 8 == 0 && g.lda >= g.k && g.ldb >= g.k);
/// }
/// ```
pub fn hgemm_sweep_fused(rng: &mut Rng) -> (GemmConfig, &'static str, &'static str) {
    // bf16 inputs and C (the fused entries')
    let (g, _, _) = hgemm_sweep_problem(rng);
    let mut g = g.trans(Trans::T, Trans::N);
    // A and B K-major: leading dimensions K rounded up to 8, padded by 0–2 × 8
    g.lda = g.k.max(1).next_multiple_of(8) + 8 * rng.int(0, 2) as usize;
    g.ldb = g.k.max(1).next_multiple_of(8) + 8 * rng.int(0, 2) as usize;
    let bias = [BiasMode::None, BiasMode::M, BiasMode::N][rng.int(0, 2) as usize];
    let acts = Activation::ALL;
    let act = match (bias, acts[rng.int(0, acts.len() as i32 - 1) as usize]) {
        (BiasMode::None, Activation::Identity) => Activation::Gelu,
        (_, a) => a,
    };
    (g.bias(bias).act(act), "bf16", "bf16")
}

/// The hgemm checks of `host run`: fixed edge cases (K = 0, 1, sizes 1 and tile edges, each
/// majority, alpha NaN), argument errors refused before launch, then `count` random problems
/// of `seed` ([`hgemm_sweep_problem`]): one summary row, plus one row per failing problem.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::hgemm(&ctx, 1, 300);
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn checks(ctx: &Context, seed: u64, count: usize) -> Vec<CheckRow> {
    checks_with(ctx, seed, count, GemmKernel::Auto)
}

/// The hgemm checks (this module's `checks`) with every problem run by `kernel` ([`GemmConfig::kernel`]): `host run`'s forced
/// Ampere sweep is `checks_with(ctx, seed, count, GemmKernel::Sm80)`.
///
/// ```no_run
/// // public as `host_cli::check::hgemm_with`
/// use host::GemmKernel;
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::hgemm_with(&ctx, host_cli::check::DEFAULT_SEED, 100, GemmKernel::Sm80);
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn checks_with(ctx: &Context, seed: u64, count: usize, kernel: GemmKernel) -> Vec<CheckRow> {
    // `Auto` where it means the Ampere kernel (no Hopper kernel loaded): say so in the rows
    let kernel = if kernel == GemmKernel::Auto && ctx.hgemm_uses_sm80(&GemmConfig::new(1, 1, 1)) {
        GemmKernel::Sm80
    } else {
        kernel
    };
    let mut rows = Vec::new();
    let blas = match Cublas::new(ctx, ctx.default_stream()) {
        Ok(b) => b,
        Err(e) => return vec![CheckRow::failed("hgemm", "cuBLAS".into(), e.to_string())],
    };
    // the last three: the TMA epilogue (beta = 0, ldc padded to a multiple of 8) at M and N
    // edges: M on a 16-byte boundary (136 f32: TMA stores the edge tile too) or not (70 f16,
    // 203 bf16: the warpgroup crossing M stores directly, its padding untouched), partial
    // chunks (N = 300, 264, 520); then two with more cluster tiles than an H100/H200 has
    // clusters of 2 (72 and 81 of 66) and enough k-tiles (36, 43) that the part-empty last wave
    // goes to the stream-K tail (split tiles reduced through the workspace), by TMA and by
    // direct stores (beta ≠ 0)
    let fixed: [(usize, usize, usize, f32, f32); 11] = [
        (1, 1, 1, 1.0, 0.0),
        (128, 256, 64, 1.0, 0.0),
        (129, 257, 65, -1.0, 2.0),
        (200, 100, 0, 1.0, 0.5),
        (64, 300, 1000, f32::NAN, 0.0),
        (1000, 1030, 999, 0.5, 1.0),
        (136, 300, 70, 0.75, 0.0),
        (70, 264, 200, -1.0, 0.0),
        (203, 520, 130, 1.0, 0.0),
        (2304, 2048, 2304, 1.0, 0.0),
        (2100, 2300, 2700, 0.5, 1.0),
    ];
    for (ta, tb) in [
        (Trans::N, Trans::N),
        (Trans::N, Trans::T),
        (Trans::T, Trans::N),
        (Trans::T, Trans::T),
    ] {
        for (i, &(m, n, k, alpha, beta)) in fixed.iter().enumerate() {
            let mut g = GemmConfig::new(m, n, k)
                .trans(ta, tb)
                .alpha(alpha)
                .beta(beta)
                .kernel(kernel);
            g.lda = g.lda.next_multiple_of(8);
            g.ldb = g.ldb.next_multiple_of(8);
            if i >= 6 {
                g.ldc = g.ldc.next_multiple_of(8) + 8;
            }
            let (dtype, out) = [("bf16", "f32"), ("f16", "f16"), ("bf16", "bf16")][i % 3];
            rows.push(
                compare_named(ctx, &blas, &g, seed ^ i as u64, dtype, out)
                    .map(|r| row(&g, dtype, out, &r))
                    .unwrap_or_else(|e| {
                        CheckRow::failed(name(&g), label(&g, dtype, out), e.to_string())
                    }),
            );
        }
    }
    // the fused epilogue (issue #34): each activation, bias along M and N, the TMA path (beta
    // 0, ldc a multiple of 8) with M and N edges, the direct path (beta ≠ 0 reads C first)
    // (m, n, k, bias, activation, beta), bf16 -> bf16 TN
    let fused: [(usize, usize, usize, BiasMode, Activation, f32); 8] = [
        (1000, 1030, 512, BiasMode::N, Activation::Gelu, 0.0),
        (2304, 2048, 2304, BiasMode::M, Activation::Gelu, 0.0),
        (203, 520, 130, BiasMode::M, Activation::Relu, 0.0),
        (136, 300, 70, BiasMode::N, Activation::GeluErf, 0.0),
        (129, 257, 65, BiasMode::M, Activation::Silu, 1.0),
        (300, 200, 1000, BiasMode::None, Activation::Gelu, -0.5),
        (512, 768, 256, BiasMode::N, Activation::Identity, 0.0),
        (70, 264, 200, BiasMode::M, Activation::Silu, 0.0),
    ];
    let (dtype, out) = ("bf16", "bf16");
    // (the Hopper kernel's: none where this check runs the Ampere one)
    let fused_runs = !ctx.hgemm_uses_sm80(&GemmConfig::new(1, 1, 1).kernel(kernel));
    for (i, &(m, n, k, bias, act, beta)) in fused.iter().enumerate().filter(|_| fused_runs) {
        let mut g = GemmConfig::new(m, n, k)
            .trans(Trans::T, Trans::N)
            .alpha(0.5)
            .beta(beta)
            .bias(bias)
            .act(act);
        g.lda = g.lda.next_multiple_of(8);
        g.ldb = g.ldb.next_multiple_of(8);
        g.ldc = g.ldc.next_multiple_of(8);
        rows.push(
            compare_named(ctx, &blas, &g, seed ^ (100 + i as u64), dtype, out)
                .map(|r| row(&g, dtype, out, &r))
                .unwrap_or_else(|e| {
                    CheckRow::failed("hgemm", label(&g, dtype, out), e.to_string())
                }),
        );
    }
    rows.push(argument_errors(ctx, kernel));
    if count > 0 {
        let mut rng = Rng::new(seed);
        let (mut failed, mut worst, mut ms, mut tma, mut fused) = (Vec::new(), 0f64, 0f32, 0, 0);
        // elements where cuBLAS was off the exact value and ours within the bound, and problems
        let (mut cublas_off, mut cublas_off_problems) = (0usize, 0usize);
        for i in 0..count {
            // every third problem fused (bias and activation, TN) where the Hopper kernel runs
            let (g, dtype, out) = if i % 3 == 2 && fused_runs {
                hgemm_sweep_fused(&mut rng)
            } else {
                hgemm_sweep_problem(&mut rng)
            };
            let g = g.kernel(kernel);
            tma += usize::from(tma_epilogue(&g, out));
            fused += usize::from(g.is_fused());
            match compare_named(ctx, &blas, &g, seed.wrapping_add(i as u64), dtype, out) {
                Ok(r) => {
                    worst = worst.max(r.worst);
                    ms += r.ms;
                    cublas_off += r.reference_off;
                    cublas_off_problems += usize::from(r.reference_off > 0);
                    if r.bad + r.padding_changed > 0 {
                        failed.push(row(&g, dtype, out, &r));
                    }
                }
                Err(e) => failed.push(CheckRow::failed(
                    name(&g),
                    label(&g, dtype, out),
                    e.to_string(),
                )),
            }
        }
        rows.push(CheckRow {
            kernel: if kernel == GemmKernel::Sm80 {
                "hgemm_sm80 sweep"
            } else {
                "hgemm sweep"
            },
            shape: format!("{count} random problems, seed {seed}"),
            pass: failed.is_empty(),
            max_err: worst,
            mismatches: failed.len(),
            ms,
            note: format!("bf16/f16 vs cuBLAS GemmEx; M,N,K in 1..=3000, majorities, alpha/beta, padded ld, f32/half C ({tma} by the TMA epilogue; {fused} fused: bias M/N/none and an activation, TN, vs cuBLAS's f32 linear combination then f64 bias and activation); max_err = max |diff|/bound{}", if cublas_off > 0 { format!("; cuBLAS off the exact value beyond the bound at {cublas_off} elements of {cublas_off_problems} problems, ours within it there") } else { String::new() }),
        });
        rows.extend(failed);
    }
    rows
}

/// Bad arguments refused with a clear error, nothing launched: an `lda` that is not a multiple
/// of 8, and a misaligned B.
fn argument_errors(ctx: &Context, kernel: GemmKernel) -> CheckRow {
    let s = ctx.default_stream();
    let r = (|| -> Result<String> {
        let a = s.alloc_zeros::<bf16>(4096)?;
        let mut c = s.alloc_zeros::<f32>(4096)?;
        let g = GemmConfig::new(30, 30, 30).lda(30).ldb(32).kernel(kernel);
        let e1 = ctx.hgemm(&s, &g, &a, &a, &mut c).err();
        let g2 = GemmConfig::new(32, 32, 32).kernel(kernel);
        let e2 = ctx.hgemm(&s, &g2, &a, &a.slice(1..), &mut c).err();
        match (e1, e2) {
            (Some(e1), Some(e2)) => Ok(format!("{e1} | {e2}")),
            _ => Err(Error::Unsupported("a bad hgemm call was accepted".into())),
        }
    })();
    match r {
        Ok(note) => CheckRow {
            kernel: if kernel == GemmKernel::Sm80 {
                "hgemm_sm80"
            } else {
                "hgemm"
            },
            shape: "lda % 8 != 0 / misaligned B".into(),
            pass: note.contains("lda=30") && note.contains("buffer B"),
            max_err: 0.0,
            mismatches: 0,
            ms: 0.0,
            note,
        },
        Err(e) => CheckRow::failed("hgemm", "bad args".into(), e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulps_of_each_element() {
        // bf16: 8 significand bits, so 1.0's ulp is 2⁻⁷; f16 2⁻¹⁰; f32 2⁻²³
        assert_eq!(ulp_at::<bf16>(1.0), 2f64.powi(-7));
        assert_eq!(ulp_at::<bf16>(-3.0), 2f64.powi(-6));
        assert_eq!(ulp_at::<f16>(1.5), 2f64.powi(-10));
        assert_eq!(ulp_at::<f32>(0.75), 2f64.powi(-24));
        // zero and subnormals: the smallest normal's
        assert_eq!(ulp_at::<f16>(0.0), 2f64.powi(-24));
        assert_eq!(ulp_at::<bf16>(1e-40), 2f64.powi(-133));
    }

    #[test]
    fn exact_values_follow_the_majorities() {
        // A = [[1, 2], [3, 4]] stored transposed (row-major), B = [[1, 1], [0, 1]] column-major
        let g = GemmConfig::new(2, 2, 2).trans(Trans::T, Trans::N);
        let h = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
        let (a, b) = (h(&[1.0, 2.0, 3.0, 4.0]), h(&[1.0, 0.0, 1.0, 1.0]));
        // op(A)·B = [[1, 3], [3, 7]]
        let got: Vec<f64> = (0..4).map(|i| exact_at(&g, &a, &b, 0.0, i)).collect();
        assert_eq!(got, [1.0, 3.0, 3.0, 7.0]);
    }
}
