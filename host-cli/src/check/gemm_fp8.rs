//! `host run`'s FP8 GEMM checks ([`host::gemm_fp8`], issue #37): one problem against the f64
//! product of the dequantized inputs within [`fp8_error_bound`], the sweep, the argument errors.

use std::sync::Arc;

use host::cudarc::driver::CudaStream;
use host::half::{bf16, f16};

use crate::check::bounds::{
    activation_f64, fp8_error_bound, fp8_error_bound_promoted, fp8_fused_error_bound,
};
use crate::check::{CheckRow, Rng};
use crate::timing::timed;
use host::context::Context;
use host::error::Result;
use host::gemm::{Activation, BiasMode};
use host::gemm_fp8::{Fp8, Fp8Scales, Fp8Vectors, GemmFp8Config};
use host::hgemm::GemmOut;

/// Random 8-bit inputs: values uniform in [-2, 2) rounded to `t`.
pub(crate) fn inputs(t: Fp8, n: usize, rng: &mut Rng) -> Vec<u8> {
    (0..n).map(|_| t.encode(2.0 * rng.unit())).collect()
}

/// One checked problem (random inputs of `rng`, D as `O`, per-tensor scales): ours against the
/// f64 product of the dequantized inputs within [`fp8_error_bound`] (fast accumulation) or
/// [`fp8_error_bound_promoted`]; `max_err` is the largest |err|/bound, the note the largest
/// |err| relative to `Σ|s·a·b|` (the measured accumulation error).
///
/// ```no_run
/// use host::gemm_fp8::{Fp8, GemmFp8Config};
/// use host_cli::check::{Rng, gemm_fp8::check_problem};
/// let ctx = host::Context::new(0)?;
/// let g = GemmFp8Config::new(256, 512, 1024, Fp8::E4M3).scales(0.5, 1.25).fast_accum(true);
/// let row = check_problem::<host::half::bf16>(&ctx, &ctx.default_stream(), &g, &mut Rng::new(1))?;
/// assert!(row.pass, "{}: {} beyond the bound", row.shape, row.mismatches);
/// # Ok::<(), host::Error>(())
/// ```
pub fn check_problem<O: GemmOut>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    g: &GemmFp8Config,
    rng: &mut Rng,
) -> Result<CheckRow> {
    check_problem_scaled::<O>(ctx, s, g, false, rng)
}

/// D read back as f64, for the references.
fn readback<O: GemmOut>(
    s: &Arc<CudaStream>,
    d: &host::cudarc::driver::CudaSlice<O>,
) -> Result<Vec<f64>> {
    Ok(s.clone_dtoh(d)?
        .iter()
        .map(|x| f64::from(x.to_f32()))
        .collect())
}

/// A or B decoded from `t` to f64 (the references' dequantized inputs).
fn dequantized(t: Fp8, v: &[u8]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(t.decode(x))).collect()
}

/// Random block scales: powers of two from 1/4 to 4 times 1, 1.25, 1.5 or 1.75.
fn block_scales(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n)
        .map(|_| 2f32.powi(rng.int(-2, 2)) * (1.0 + 0.25 * rng.int(0, 3) as f32))
        .collect()
}

/// [`check_problem`] with random block scales when `block` ([`Fp8Scales::Block`]; `g` then
/// promotes), the reference scaling each k-block's products by A's row scale and B's block
/// scale.
///
/// ```no_run
/// use host::gemm_fp8::{Fp8, GemmFp8Config};
/// use host_cli::check::{Rng, gemm_fp8::check_problem_scaled};
/// let ctx = host::Context::new(0)?;
/// let g = GemmFp8Config::new(256, 384, 512, Fp8::E4M3); // promoted (no fast accumulation)
/// let row = check_problem_scaled::<f32>(&ctx, &ctx.default_stream(), &g, true, &mut Rng::new(2))?;
/// assert!(row.shape.ends_with(" block-scales ->f32"), "{}", row.shape);
/// assert!(row.pass, "{}", row.note);
/// # Ok::<(), host::Error>(())
/// ```
pub fn check_problem_scaled<O: GemmOut>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    g: &GemmFp8Config,
    block: bool,
    rng: &mut Rng,
) -> Result<CheckRow> {
    let (m, n, k) = (g.m, g.n, g.k);
    let ha = inputs(g.dtype, m * k, rng);
    let hb = inputs(g.dtype, n * k, rng);
    let a = s.clone_htod(&ha)?;
    let b = s.clone_htod(&hb)?;
    let (la, lb) = g.block_scale_lens();
    let (hsa, hsb) = if block {
        (block_scales(la, rng), block_scales(lb, rng))
    } else {
        (vec![1.0; la], vec![1.0; lb])
    };
    let (sa, sb) = (s.clone_htod(&hsa)?, s.clone_htod(&hsb)?);
    let mut d = s.alloc_zeros::<O>(m * n)?;
    let scales_arg = if block {
        Fp8Scales::Block { a: &sa, b: &sb }
    } else {
        Fp8Scales::PerTensor
    };
    let ms = timed(s, || ctx.gemm_fp8_scaled(s, g, &a, &b, scales_arg, &mut d))?;
    let (got, fa, fb) = (
        readback(s, &d)?,
        dequantized(g.dtype, &ha),
        dequantized(g.dtype, &hb),
    );
    // columns of D in parallel (the small-M problems' K of 16384 make billions of products):
    // each range's (mismatches, largest err/bound, largest err/Σ|s·a·b|), then the largest
    let round = |x: f32| O::from_f32_rn(x).to_f32();
    let parts = super::sweep::par_ranges(n, m * n * k, |cols| {
        reference_columns(
            g,
            (&fa, &fb),
            (&hsa, &hsb),
            (&got, O::UNIT_ROUNDOFF, &round),
            cols,
        )
    });
    let bad: usize = parts.iter().map(|p| p.0).sum();
    let worst = parts.iter().map(|p| p.1).fold(0f64, f64::max);
    let worst_abs = parts.iter().map(|p| p.2).fold(0f64, f64::max);
    Ok(CheckRow {
        kernel: "gemm_fp8",
        shape: format!(
            "{g}{} ->{}",
            if block { " block-scales" } else { "" },
            O::NAME
        ),
        pass: bad == 0,
        max_err: worst,
        mismatches: bad,
        ms,
        note: format!("vs f64 on dequantized inputs; max err/Σ|s·a·b| {worst_abs:.2e}"),
    })
}

/// One fused problem ([`GemmFp8Config::is_fused`]: e4m3, promotion, per-tensor scales; random
/// inputs of `rng`, a bias uniform in [-2, 2) and row/column scales from 1/4 to 1.75 where `g`
/// asks for them, D as `O`): ours against `act(sa·sb·s_row·s_col·Σa·b +
/// bias)` in `f64` on the dequantized inputs within [`fp8_fused_error_bound`]; `max_err` the
/// largest |err|/bound.
///
/// ```no_run
/// use host::gemm::{Activation, BiasMode};
/// use host::gemm_fp8::{Fp8, GemmFp8Config};
/// use host_cli::check::{Rng, gemm_fp8::check_problem_fused};
/// let ctx = host::Context::new(0)?;
/// let g = GemmFp8Config::new(200, 130, 512, Fp8::E4M3)
///     .bias(BiasMode::M)
///     .act(Activation::Gelu)
///     .row_col_scales(true, false);
/// let row = check_problem_fused::<host::half::bf16>(&ctx, &ctx.default_stream(), &g, &mut Rng::new(3))?;
/// assert!(row.pass, "{}: largest err {:.2} of the bound", row.shape, row.max_err);
/// # Ok::<(), host::Error>(())
/// ```
pub fn check_problem_fused<O: GemmOut>(
    ctx: &Context,
    s: &Arc<CudaStream>,
    g: &GemmFp8Config,
    rng: &mut Rng,
) -> Result<CheckRow> {
    let (m, n, k) = (g.m, g.n, g.k);
    let ha = inputs(g.dtype, m * k, rng);
    let hb = inputs(g.dtype, n * k, rng);
    let a = s.clone_htod(&ha)?;
    let b = s.clone_htod(&hb)?;
    let hbias: Vec<f32> = (0..g.bias_len()).map(|_| 2.0 * rng.unit()).collect();
    // scales from 1/4 to 1.75 (powers of two times 1, 1.25, 1.5, 1.75): with the sweep's
    // per-tensor scales (up to 7 each) an f16 D stays finite
    let vec_scales = |len: usize, rng: &mut Rng| -> Vec<f32> {
        (0..len)
            .map(|_| 2f32.powi(rng.int(-2, 0)) * (1.0 + 0.25 * rng.int(0, 3) as f32))
            .collect()
    };
    let hrow = if g.row_scales {
        vec_scales(m, rng)
    } else {
        Vec::new()
    };
    let hcol = if g.col_scales {
        vec_scales(n, rng)
    } else {
        Vec::new()
    };
    // (a vector of at least one element: cudarc allocates none of 0)
    let up = |v: &[f32], on: bool| -> Result<Option<host::cudarc::driver::CudaSlice<f32>>> {
        Ok(if on { Some(s.clone_htod(v)?) } else { None })
    };
    let dbias = up(&hbias, g.bias != BiasMode::None)?;
    let drow = up(&hrow, g.row_scales)?;
    let dcol = up(&hcol, g.col_scales)?;
    let v = Fp8Vectors {
        bias: dbias.as_ref(),
        row_scales: drow.as_ref(),
        col_scales: dcol.as_ref(),
    };
    let mut d = s.alloc_zeros::<O>(m * n)?;
    let ms = timed(s, || ctx.gemm_fp8_fused(s, g, &a, &b, v, &mut d))?;
    let (got, fa, fb) = (
        readback(s, &d)?,
        dequantized(g.dtype, &ha),
        dequantized(g.dtype, &hb),
    );
    let scales = f64::from(g.scale_a) * f64::from(g.scale_b);
    let parts = super::sweep::par_ranges(n, m * n * k, |cols| {
        let (mut bad, mut worst) = (0usize, 0f64);
        for j in cols {
            for i in 0..m {
                let (ra, rb) = (&fa[i * k..(i + 1) * k], &fb[j * k..(j + 1) * k]);
                let (mut sum, mut abs) = (0f64, 0f64);
                for (x, y) in ra.iter().zip(rb) {
                    sum += x * y;
                    abs += (x * y).abs();
                }
                let sr = hrow.get(i).map_or(1.0, |&x| f64::from(x));
                let sc = hcol.get(j).map_or(1.0, |&x| f64::from(x));
                let f = scales * sr * sc;
                let bias = match g.bias {
                    BiasMode::None => 0.0,
                    BiasMode::M => f64::from(hbias[i]),
                    BiasMode::N => f64::from(hbias[j]),
                };
                let z = f * sum + bias;
                let want = activation_f64(g.act, z);
                let bound =
                    fp8_fused_error_bound(k, f.abs() * abs, z, g.act, O::UNIT_ROUNDOFF) + 1e-30;
                let err = (got[i + m * j] - want).abs();
                if err.is_nan() || err > bound {
                    bad += 1;
                }
                worst = worst.max(err / bound);
            }
        }
        (bad, worst)
    });
    let bad: usize = parts.iter().map(|p| p.0).sum();
    let worst = parts.iter().map(|p| p.1).fold(0f64, f64::max);
    Ok(CheckRow {
        kernel: "gemm_fp8",
        shape: format!("{g} ->{}", O::NAME),
        pass: bad == 0,
        max_err: worst,
        mismatches: bad,
        ms,
        note: "fused, vs f64 on dequantized inputs".into(),
    })
}

/// The FP8 sweep's fixed fused problems `(M, N, K, bias, activation, row scales, column
/// scales)`: each activation, bias none/M/N, every row/column scale combination, M and N edges
/// of the 128×128 tiles, a split-K small-M problem (the reduction before the epilogue).
pub const FUSED: [(usize, usize, usize, BiasMode, Activation, bool, bool); 10] = [
    (
        256,
        256,
        256,
        BiasMode::None,
        Activation::Identity,
        true,
        true,
    ),
    (200, 130, 512, BiasMode::M, Activation::Relu, true, false),
    (129, 257, 384, BiasMode::N, Activation::Gelu, false, true),
    (300, 200, 1024, BiasMode::N, Activation::GeluErf, true, true),
    (65, 70, 160, BiasMode::M, Activation::Silu, false, false),
    (1, 1, 16, BiasMode::N, Activation::Gelu, true, true),
    (517, 390, 272, BiasMode::M, Activation::Gelu, true, true),
    (17, 520, 6160, BiasMode::N, Activation::Gelu, true, true),
    (128, 1024, 8192, BiasMode::M, Activation::Silu, true, false),
    (
        384,
        256,
        128,
        BiasMode::None,
        Activation::Relu,
        false,
        false,
    ),
];

/// Whether D's element `got` is the infinity that its element type (`round`: to it and back)
/// gives a true value within `bound` of `want`: a product past f16's range (65520 and up) is
/// `inf` in D, as cuBLAS's is, and right.
fn overflow_agrees(got: f64, want: f64, bound: f64, round: &dyn Fn(f32) -> f32) -> bool {
    if !got.is_infinite() {
        return false; // every finite element: no rounding call in the reference's inner loop
    }
    let edge = round((want + got.signum() * bound) as f32);
    edge.is_infinite() && edge.signum() as f64 == got.signum()
}

/// [`check_problem_scaled`]'s reference for D's columns `cols`: the dequantized inputs `fa`
/// (M×K) and `fb` (N×K), the block scales (ones without), ours `got` (D's elements, their
/// unit roundoff); (mismatches, largest |err|/bound, largest |err|/Σ|s·a·b|). An infinite
/// element that the reference overflows too ([`overflow_agrees`]) agrees.
fn reference_columns(
    g: &GemmFp8Config,
    (fa, fb): (&[f64], &[f64]),
    (hsa, hsb): (&[f32], &[f32]),
    (got, unit_roundoff, round): (&[f64], f64, &dyn Fn(f32) -> f32),
    cols: std::ops::Range<usize>,
) -> (usize, f64, f64) {
    let (m, k) = (g.m, g.k);
    let scales = f64::from(g.scale_a) * f64::from(g.scale_b);
    let kbs = k.div_ceil(128);
    let (mut bad, mut worst, mut worst_abs) = (0usize, 0f64, 0f64);
    for j in cols {
        for i in 0..m {
            let (ra, rb) = (&fa[i * k..(i + 1) * k], &fb[j * k..(j + 1) * k]);
            // per k-block of 128: the block's scale (1 without block scales) times its sums
            let (mut sum, mut abs) = (0f64, 0f64);
            for kb in 0..kbs {
                let sc = scales * f64::from(hsa[i + m * kb]) * f64::from(hsb[(j / 128) * kbs + kb]);
                let r = 128 * kb..(128 * kb + 128).min(k);
                let (mut bs, mut ba) = (0f64, 0f64);
                for (x, y) in ra[r.clone()].iter().zip(&rb[r]) {
                    bs += x * y;
                    ba += (x * y).abs();
                }
                sum += sc * bs;
                abs += sc.abs() * ba;
            }
            let want = sum;
            let bound = if g.fast_accum {
                fp8_error_bound(k, 1.0, abs, unit_roundoff, want)
            } else {
                fp8_error_bound_promoted(k, abs, unit_roundoff, want)
            } + 1e-30;
            if overflow_agrees(got[i + m * j], want, bound, round) {
                continue;
            }
            let err = (got[i + m * j] - want).abs();
            if err.is_nan() || err > bound {
                bad += 1;
            }
            worst = worst.max(err / bound);
            if abs > 0.0 {
                worst_abs = worst_abs.max(err / abs);
            }
        }
    }
    (bad, worst, worst_abs)
}

/// The FP8 sweep's fixed small-M problems `(M, N, K, type, fast accumulation)`: each takes
/// the split-K grid on an H200 (fewer tiles than clusters, K of 4096 to 8192).
pub const SKINNY: [(usize, usize, usize, Fp8, bool); 8] = [
    (128, 1024, 8192, Fp8::E4M3, true),
    (128, 1024, 8192, Fp8::E4M3, false),
    (64, 2048, 4096, Fp8::E4M3, true),
    (200, 768, 6144, Fp8::E4M3, false),
    (200, 768, 6144, Fp8::E5M2, true),
    (17, 520, 6160, Fp8::E4M3, true),
    (17, 520, 6160, Fp8::E4M3, false),
    (256, 300, 8192, Fp8::E4M3, true),
];

/// The FP8 sweep's fixed block-scaled small-M problems `(M, N, K)`, e4m3 with promotion: the
/// 64-row tiles of the rule
/// ([`Fp8BlockEntry::for_problem`](host::hgemm::Fp8BlockEntry::for_problem)) on an H200, with
/// A's scales in boxes of four k-tiles (K of whole fours, M a multiple of 4: `StagedPp64x4`)
/// and from global memory where M is not a multiple of 4 or K not of whole fours (`Pp64`, a
/// partial last k-tile).
///
/// ```
/// use host::hgemm::Fp8BlockEntry;
/// use host_cli::check::gemm_fp8::SMALL_M_BLOCK;
/// let e = |(m, n, k): (usize, usize, usize)| Fp8BlockEntry::for_problem(m, n, k / 2, 132, (0, 0));
/// assert_eq!(e(SMALL_M_BLOCK[0]), Fp8BlockEntry::StagedPp64x4);
/// assert_eq!(e(SMALL_M_BLOCK[1]), Fp8BlockEntry::Pp64);
/// assert_eq!(e(SMALL_M_BLOCK[2]), Fp8BlockEntry::Pp64);
/// ```
pub const SMALL_M_BLOCK: [(usize, usize, usize); 3] =
    [(128, 4096, 8192), (126, 4096, 8192), (128, 4096, 8272)];

/// `host run`'s FP8 sweep: `count` random problems of `seed` (M, N in 1..=320, K a multiple of
/// 16 in 16..=1024, e4m3/e5m2, D f32/bf16/f16 in turn, scales in [1/8, 4]; e5m2 with fast
/// accumulation, e4m3 in turn fast, promoted with per-tensor scales — every other one of them
/// fused, with a random bias, activation and row/column scales ([`check_problem_fused`]) —
/// promoted with block scales), the fixed small-M problems [`SKINNY`] and [`SMALL_M_BLOCK`],
/// the fixed fused problems [`FUSED`], then the argument errors refused before a launch. One row each (a launch error is
/// that problem's FAIL row).
///
/// ```no_run
/// use host_cli::check::gemm_fp8::{FUSED, SKINNY, SMALL_M_BLOCK, sweep};
/// let ctx = host::Context::new(0)?;
/// let rows = sweep(&ctx, host_cli::check::DEFAULT_SEED, 200);
/// // the random problems, the fixed small-M and fused ones, the argument errors' row
/// assert_eq!(rows.len(), 200 + SKINNY.len() + SMALL_M_BLOCK.len() + FUSED.len() + 1);
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn sweep(ctx: &Context, seed: u64, count: usize) -> Vec<CheckRow> {
    let s = ctx.default_stream();
    let mut rng = Rng::new(seed ^ 0xf8f8);
    let mut rows = Vec::with_capacity(count + 1);
    for i in 0..count {
        let t = if i % 2 == 0 { Fp8::E4M3 } else { Fp8::E5M2 };
        let (m, n) = (rng.int(1, 320) as usize, rng.int(1, 320) as usize);
        let k = 16 * rng.int(1, 64) as usize;
        let sc = |r: &mut Rng| 2f32.powi(r.int(-3, 2)) * (1.0 + 0.25 * r.int(0, 3) as f32);
        // e4m3: fast, promoted, block-scaled in turn
        let mode = if t == Fp8::E4M3 { (i / 2) % 3 } else { 0 };
        let mut g = GemmFp8Config::new(m, n, k, t)
            .scales(sc(&mut rng), sc(&mut rng))
            .fast_accum(mode == 0);
        let block = mode == 2;
        // every other promoted per-tensor problem fused: a random bias, activation, scales
        if mode == 1 && (i / 6) % 2 == 0 {
            let bias = [BiasMode::None, BiasMode::M, BiasMode::N][rng.int(0, 2) as usize];
            let act = Activation::from_code(rng.int(0, 4) as u32).unwrap_or(Activation::Gelu);
            g = g
                .bias(bias)
                .act(act)
                .row_col_scales(rng.int(0, 1) == 1, rng.int(0, 1) == 1);
        }
        let r = match (i % 3, g.is_fused()) {
            (0, false) => check_problem_scaled::<bf16>(ctx, &s, &g, block, &mut rng),
            (1, false) => check_problem_scaled::<f16>(ctx, &s, &g, block, &mut rng),
            (_, false) => check_problem_scaled::<f32>(ctx, &s, &g, block, &mut rng),
            (0, true) => check_problem_fused::<bf16>(ctx, &s, &g, &mut rng),
            (1, true) => check_problem_fused::<f16>(ctx, &s, &g, &mut rng),
            (_, true) => check_problem_fused::<f32>(ctx, &s, &g, &mut rng),
        };
        rows.push(r.unwrap_or_else(|e| CheckRow::failed("gemm_fp8", g.to_string(), e.to_string())));
    }
    // fixed small-M problems with a long K, which the sizes above never reach: split-K
    // (`config::split_k_clusters`: more clusters than tiles) on the fast entries and the
    // per-tensor promoted one, with an odd M, N and K (a partial last k-tile), D of each type
    if count > 0 {
        for (i, &(m, n, k, t, fast)) in SKINNY.iter().enumerate() {
            let g = GemmFp8Config::new(m, n, k, t)
                .scales(0.5, 1.25)
                .fast_accum(fast);
            let r = match i % 3 {
                0 => check_problem::<bf16>(ctx, &s, &g, &mut rng),
                1 => check_problem::<f16>(ctx, &s, &g, &mut rng),
                _ => check_problem::<f32>(ctx, &s, &g, &mut rng),
            };
            rows.push(
                r.unwrap_or_else(|e| CheckRow::failed("gemm_fp8", g.to_string(), e.to_string())),
            );
        }
    }
    // the fixed block-scaled small-M problems: the 64-row tile's block entries, D of each type
    if count > 0 {
        for (i, &(m, n, k)) in SMALL_M_BLOCK.iter().enumerate() {
            let g = GemmFp8Config::new(m, n, k, Fp8::E4M3).scales(0.5, 1.25);
            let r = match i % 3 {
                0 => check_problem_scaled::<bf16>(ctx, &s, &g, true, &mut rng),
                1 => check_problem_scaled::<f16>(ctx, &s, &g, true, &mut rng),
                _ => check_problem_scaled::<f32>(ctx, &s, &g, true, &mut rng),
            };
            rows.push(
                r.unwrap_or_else(|e| CheckRow::failed("gemm_fp8", g.to_string(), e.to_string())),
            );
        }
    }
    // the fixed fused problems, D of each type in turn
    if count > 0 {
        for (i, &(m, n, k, bias, act, row, col)) in FUSED.iter().enumerate() {
            let g = GemmFp8Config::new(m, n, k, Fp8::E4M3)
                .scales(0.5, 1.25)
                .bias(bias)
                .act(act)
                .row_col_scales(row, col);
            let r = match i % 3 {
                0 => check_problem_fused::<bf16>(ctx, &s, &g, &mut rng),
                1 => check_problem_fused::<f16>(ctx, &s, &g, &mut rng),
                _ => check_problem_fused::<f32>(ctx, &s, &g, &mut rng),
            };
            rows.push(
                r.unwrap_or_else(|e| CheckRow::failed("gemm_fp8", g.to_string(), e.to_string())),
            );
        }
    }
    // argument errors: refused before a launch, typed
    let refused = (|| -> Result<bool> {
        let a = s.alloc_zeros::<u8>(64 * 64)?;
        let mut d = s.alloc_zeros::<f32>(64 * 64)?;
        let sc = s.alloc_zeros::<f32>(64)?;
        let g = GemmFp8Config::new(64, 64, 64, Fp8::E5M2);
        let no_fast = ctx.gemm_fp8(&s, &g, &a, &a, &mut d).is_err();
        let g = GemmFp8Config::new(64, 64, 64, Fp8::E4M3);
        let short = Fp8Scales::Block { a: &sc, b: &sc };
        let block_fast = ctx
            .gemm_fp8_scaled(&s, &g.fast_accum(true), &a, &a, short, &mut d)
            .is_err();
        let short_scales = ctx
            .gemm_fp8_scaled(
                &s,
                &GemmFp8Config::new(128, 32, 32, Fp8::E4M3),
                &a,
                &a,
                short,
                &mut d,
            )
            .is_err();
        let bad_k = ctx
            .gemm_fp8(
                &s,
                &GemmFp8Config::new(64, 64, 40, Fp8::E4M3).fast_accum(true),
                &a,
                &a,
                &mut d,
            )
            .is_err();
        let short = ctx
            .gemm_fp8(
                &s,
                &GemmFp8Config::new(64, 65, 64, Fp8::E4M3).fast_accum(true),
                &a,
                &a,
                &mut d,
            )
            .is_err();
        // the fused epilogue: with fast accumulation, a short or missing vector, block scales
        let fused = GemmFp8Config::new(64, 64, 64, Fp8::E4M3)
            .bias(BiasMode::M)
            .act(Activation::Relu);
        let v = Fp8Vectors {
            bias: Some(&sc),
            ..Default::default()
        };
        let fused_fast = ctx
            .gemm_fp8_fused(&s, &fused.fast_accum(true), &a, &a, v, &mut d)
            .is_err();
        let sc32 = s.alloc_zeros::<f32>(32)?;
        let short_v = Fp8Vectors {
            bias: Some(&sc32),
            ..Default::default()
        };
        let short_bias = ctx
            .gemm_fp8_fused(&s, &fused, &a, &a, short_v, &mut d)
            .is_err();
        let missing_scales = ctx
            .gemm_fp8_fused(&s, &fused.row_col_scales(true, false), &a, &a, v, &mut d)
            .is_err();
        let fused_block = ctx
            .gemm_fp8_scaled(
                &s,
                &fused,
                &a,
                &a,
                Fp8Scales::Block { a: &sc, b: &sc },
                &mut d,
            )
            .is_err();
        s.synchronize()?;
        Ok(no_fast
            && bad_k
            && short
            && block_fast
            && short_scales
            && fused_fast
            && short_bias
            && missing_scales
            && fused_block)
    })();
    rows.push(CheckRow {
        kernel: "gemm_fp8",
        shape: "argument errors".into(),
        pass: matches!(refused, Ok(true)),
        max_err: 0.0,
        mismatches: 0,
        ms: 0.0,
        note: match refused {
            Ok(_) => "e5m2 promoted, K % 16 != 0, short B, block scales with fast-accum, short block scales; fused: with fast-accum, a short bias, missing row scales, block scales: typed errors before a launch".into(),
            Err(e) => e.to_string(),
        },
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overflow_agrees_only_where_the_reference_overflows() {
        let f16_rn = |x: f32| f16::from_f32(x).to_f32();
        // the reference past f16's range: inf of the same sign agrees, not the other sign
        assert!(overflow_agrees(f64::INFINITY, 70000.0, 10.0, &f16_rn));
        assert!(overflow_agrees(f64::NEG_INFINITY, -70000.0, 10.0, &f16_rn));
        assert!(!overflow_agrees(f64::NEG_INFINITY, 70000.0, 10.0, &f16_rn));
        // within the bound of the threshold (65520 rounds to inf): agrees; far below: not
        assert!(overflow_agrees(f64::INFINITY, 65510.0, 16.0, &f16_rn));
        assert!(!overflow_agrees(f64::INFINITY, 60000.0, 16.0, &f16_rn));
        // a finite result is never let through here (the bound decides)
        assert!(!overflow_agrees(65504.0, 70000.0, 10.0, &f16_rn));
        // f32 D: 70000 is far from overflow
        assert!(!overflow_agrees(f64::INFINITY, 70000.0, 10.0, &|x| x));
        // a mismatch is still counted next to an agreeing overflow
        let g = GemmFp8Config::new(2, 1, 1, Fp8::E4M3);
        let (fa, fb) = (vec![1.0, 1.0], vec![1.0]);
        let (sa, sb) = (vec![1.0f32; 2], vec![1.0f32; 1]);
        let got = [f64::INFINITY, 1.0];
        let (bad, _, _) =
            reference_columns(&g, (&fa, &fb), (&sa, &sb), (&got, 1e-3, &f16_rn), 0..1);
        assert_eq!(bad, 1, "1·1 = 1 is not inf");
    }
}
