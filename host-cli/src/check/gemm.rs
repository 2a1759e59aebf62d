//! [`Context::sgemm`] against an f64 CPU reference and against cuBLAS.
//!
//! Tolerances: vs the f64 CPU reference, per element
//! `|got − ref| ≤ 2(K+2)·ε₃₂·(|alpha|·Σₖ|a||b| + |beta|·|c|)` (the γ-bound of fp32 dot
//! products); vs cuBLAS (large sizes), `max |ours − cuBLAS| ≤ 1e-4·√K·|alpha|·max|A|·max|B|
//! + 1e-6·|beta|·max|C|` (summation orders differ; a dropped or doubled k-tile is off by ~0.3).

use std::sync::Arc;

use host::cudarc::driver::CudaStream;

use super::{CheckRow, Rng};
use crate::timing::timed;
use host::context::Context;
use host::cublas::Cublas;
use host::error::{Error, Result};
use host::gemm::{GemmConfig, Plan, Tile, Trans};

/// f64 CPU reference; returns (C, per-element error bound).
fn cpu_ref(g: &GemmConfig, a: &[f32], b: &[f32], c: &[f32]) -> (Vec<f64>, Vec<f64>) {
    let at = |i: usize, l: usize| match g.transa {
        Trans::N => a[i + l * g.lda],
        Trans::T => a[l + i * g.lda],
    } as f64;
    let bt = |l: usize, j: usize| match g.transb {
        Trans::N => b[l + j * g.ldb],
        Trans::T => b[j + l * g.ldb],
    } as f64;
    let mut out = c.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let mut bound = vec![0f64; c.len()];
    let gamma = 2.0 * (g.k as f64 + 2.0) * f32::EPSILON as f64;
    for j in 0..g.n {
        for i in 0..g.m {
            let (mut s, mut sa) = (0f64, 0f64);
            for l in 0..g.k {
                let t = at(i, l) * bt(l, j);
                s += t;
                sa += t.abs();
            }
            let ci = i + j * g.ldc;
            let bterm = if g.beta == 0.0 {
                0.0
            } else {
                g.beta as f64 * c[ci] as f64
            };
            out[ci] = g.alpha as f64 * s + bterm;
            bound[ci] = gamma * (g.alpha.abs() as f64 * sa + bterm.abs()) + 1e-30;
        }
    }
    (out, bound)
}

fn max_abs(v: &[f32]) -> f64 {
    v.iter().fold(0f64, |m, &x| m.max((x as f64).abs()))
}

fn case_label(g: &GemmConfig, plan: Plan, pad: usize) -> String {
    format!(
        "{g} a={} b={}{}{}",
        g.alpha,
        g.beta,
        if pad > 0 { " unaligned" } else { "" },
        if plan.split > 1 {
            format!(" splitk{}", plan.split)
        } else {
            String::new()
        }
    )
}

/// One case vs the CPU; `pad` extra elements in front of A and B shift their bases off
/// 16-byte alignment (the kernels' scalar paths).
fn check_cpu(
    ctx: &Context,
    s: &Arc<CudaStream>,
    plan: Plan,
    g: GemmConfig,
    pad: usize,
) -> Result<CheckRow> {
    let mut rng = Rng::new((g.m * 31 + g.n * 17 + g.k) as u64 ^ pad as u64);
    let (na, nb, nc) = g.lens();
    let a = rng.units(na + pad);
    let b = rng.units(nb + pad);
    let mut c = rng.units(nc);
    if g.beta == 0.0 && nc > 0 {
        c[0] = f32::NAN; // beta == 0 must not read C
    }
    let (want, bound) = cpu_ref(&g, &a[pad..], &b[pad..], &c);
    let da = s.clone_htod(&a)?;
    let db = s.clone_htod(&b)?;
    let mut dc = s.clone_htod(&c)?;
    let (va, vb) = (da.slice(pad..), db.slice(pad..));
    let ms = timed(s, || ctx.sgemm_with_plan(s, plan, &g, &va, &vb, &mut dc))?;
    let got = s.clone_dtoh(&dc)?;
    let (mut bad, mut max_rel) = (0usize, 0f64);
    for i in 0..nc {
        let in_c = (i % g.ldc.max(1)) < g.m;
        let w = if in_c { want[i] } else { c[i] as f64 };
        let d = (got[i] as f64 - w).abs();
        let lim = if in_c { bound[i] } else { 0.0 };
        let both_nan = (got[i] as f64).is_nan() && w.is_nan(); // NaN beside NaN: agreement
        if !both_nan && (d.is_nan() || d > lim) {
            bad += 1;
        }
        if lim > 0.0 {
            max_rel = max_rel.max(d / lim);
        }
    }
    Ok(CheckRow {
        kernel: plan.tile.name(),
        shape: case_label(&g, plan, pad),
        pass: bad == 0,
        max_err: max_rel,
        mismatches: bad,
        ms,
        note: "vs f64 CPU; max_err = max |err|/bound".into(),
    })
}

/// One case vs cuBLAS (same inputs).
fn check_cublas(ctx: &Context, blas: &Cublas, plan: Plan, g: GemmConfig) -> Result<CheckRow> {
    let s = blas.stream();
    let mut rng = Rng::new((g.m ^ g.n << 7 ^ g.k << 14) as u64);
    let (na, nb, nc) = g.lens();
    let (a, b, c) = (rng.units(na), rng.units(nb), rng.units(nc));
    let da = s.clone_htod(&a)?;
    let db = s.clone_htod(&b)?;
    let mut dc = s.clone_htod(&c)?;
    let mut dr = s.clone_htod(&c)?;
    let ms = timed(s, || ctx.sgemm_with_plan(s, plan, &g, &da, &db, &mut dc))?;
    blas.sgemm(&g, &da, &db, &mut dr)?;
    let (got, want) = (s.clone_dtoh(&dc)?, s.clone_dtoh(&dr)?);
    let tol = 1e-4 * (g.k as f64).sqrt() * g.alpha.abs() as f64 * max_abs(&a) * max_abs(&b)
        + 1e-6 * g.beta.abs() as f64 * max_abs(&c);
    let mut bad = 0;
    let mut maxd = 0f64;
    for (x, y) in got.iter().zip(&want) {
        let d = (*x as f64 - *y as f64).abs();
        if x.is_nan() && y.is_nan() {
            continue; // NaN beside NaN: agreement
        }
        if d.is_nan() || d > tol {
            bad += 1;
        }
        maxd = maxd.max(if d.is_nan() { f64::INFINITY } else { d });
    }
    let tf = g.flops() / (ms as f64 * 1e9);
    Ok(CheckRow {
        kernel: plan.tile.name(),
        shape: case_label(&g, plan, 0),
        pass: bad == 0,
        max_err: maxd,
        mismatches: bad,
        ms,
        note: format!("vs cuBLAS (tol {tol:.1e}); {tf:.1} TFLOP/s"),
    })
}

/// A problem of your choice: vs the f64 CPU reference when `M·N·K ≤ 2^27` (cheap enough on the
/// CPU), else vs cuBLAS; with `plan`, or the one [`Context::gemm_plan`] picks.
///
/// ```no_run
/// use host::{Context, GemmConfig, Trans};
/// let ctx = Context::new(0)?;
/// let g = GemmConfig::new(1000, 1030, 999).trans(Trans::T, Trans::N).beta(0.5);
/// let row = host_cli::check::gemm_problem(&ctx, &g, None)?;
/// assert!(row.pass, "{}", row.note);
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm_problem(ctx: &Context, g: &GemmConfig, plan: Option<Plan>) -> Result<CheckRow> {
    let (na, nb, nc) = g.lens();
    g.validate(na, nb, nc)?;
    ctx.check_fits(
        &g.to_string(),
        4 * (na as u128 + nb as u128 + 2 * nc as u128),
    )?;
    let plan = plan.unwrap_or_else(|| ctx.gemm_plan(g));
    ctx.load_gemm()?;
    if g.flops() <= 2.0 * (1u64 << 27) as f64 {
        check_cpu(ctx, &ctx.default_stream(), plan, *g, 0)
    } else {
        let blas = Cublas::new(ctx, ctx.default_stream())?;
        check_cublas(ctx, &blas, plan, *g)
    }
}

const TRANS: [(Trans, Trans); 4] = [
    (Trans::N, Trans::N),
    (Trans::N, Trans::T),
    (Trans::T, Trans::N),
    (Trans::T, Trans::T),
];

/// Irregular sizes × majorities × tiles vs the CPU, larger vs cuBLAS (unless `small_only`),
/// and argument errors rejected before launch.
pub(super) fn checks(ctx: &Context, small_only: bool) -> Vec<CheckRow> {
    let s = &ctx.default_stream();
    let mut rows = Vec::new();
    if let Err(e) = ctx.load_gemm() {
        return vec![CheckRow::failed("sgemm", "loading".into(), e.to_string())];
    }
    let small: [(usize, usize, usize, f32, f32, usize); 6] = [
        (1, 1, 1, 1.0, 0.0, 0),
        (7, 13, 5, 1.5, -0.5, 0),
        (128, 128, 8, 1.0, 0.0, 0),
        (130, 67, 33, -1.0, 2.0, 0),
        (257, 129, 100, 0.5, 1.0, 1),
        (64, 200, 0, 1.0, 0.5, 0),
    ];
    let cfg = |(ta, tb): (Trans, Trans), m, n, k, alpha, beta| {
        GemmConfig::new(m, n, k)
            .trans(ta, tb)
            .alpha(alpha)
            .beta(beta)
    };
    let mut push = |tile: Tile, g: &GemmConfig, r: Result<CheckRow>| {
        rows.push(
            r.unwrap_or_else(|e| CheckRow::failed(tile.name(), g.to_string(), e.to_string())),
        );
    };
    for tile in Tile::ALL {
        for &t in &TRANS {
            for &(m, n, k, alpha, beta, pad) in &small {
                let g = cfg(t, m, n, k, alpha, beta);
                push(tile, &g, check_cpu(ctx, s, Plan::new(tile), g, pad));
            }
            // split-K: 3 k-slices (the last one partial), atomics into beta·C
            for &(m, n, k, alpha, beta, pad) in &[
                (130usize, 67usize, 100usize, -1.0f32, 2.0f32, 0usize),
                (257, 129, 300, 0.5, 0.0, 1),
            ] {
                let g = cfg(t, m, n, k, alpha, beta);
                let plan = Plan {
                    split: 3,
                    rast_n: t.0 == Trans::T,
                    ..Plan::new(tile)
                };
                push(tile, &g, check_cpu(ctx, s, plan, g, pad));
            }
            // non-tight leading dimensions (ld % 4 != 0: scalar loads)
            let mut g = cfg(t, 100, 90, 77, 1.25, 0.75);
            g.lda += 3;
            g.ldb += 1;
            g.ldc += 5;
            push(tile, &g, check_cpu(ctx, s, Plan::new(tile), g, 0));
        }
    }
    if !small_only {
        match Cublas::new(ctx, s.clone()) {
            Ok(blas) => {
                for &t in &TRANS {
                    for (tile, split, (m, n, k)) in [
                        (Tile::M128N128K8, 1, (1024, 1024, 1024)),
                        (Tile::M128N128K8, 1, (1000, 1030, 999)),
                        (Tile::M64N64K8, 1, (512, 384, 1000)),
                        (Tile::M128N128K8, 8, (1000, 130, 4000)),
                    ] {
                        let g = cfg(t, m, n, k, 1.0, 0.5);
                        let plan = Plan {
                            tile,
                            split,
                            rast_n: split == 1,
                            one_cta: split == 1,
                        };
                        push(tile, &g, check_cublas(ctx, &blas, plan, g));
                    }
                }
            }
            Err(e) => rows.push(CheckRow::failed("sgemm", "vs cuBLAS".into(), e.to_string())),
        }
    }
    rows.push(argument_errors(ctx, s));
    rows
}

/// Bad arguments are refused with a typed error, nothing launched.
fn argument_errors(ctx: &Context, s: &Arc<CudaStream>) -> CheckRow {
    let r = (|| -> Result<(Error, Error)> {
        let a = s.alloc_zeros::<f32>(64)?;
        let mut c = s.alloc_zeros::<f32>(64)?;
        let bad_lda = GemmConfig::new(8, 8, 8).lda(3);
        let e1 = ctx.sgemm(s, &bad_lda, &a, &a, &mut c).err();
        let short_c = GemmConfig::new(8, 9, 8);
        let e2 = ctx.sgemm(s, &short_c, &a, &a, &mut c).err();
        match (e1, e2) {
            (Some(e1), Some(e2)) => Ok((e1, e2)),
            _ => Err(Error::Unsupported("a bad sgemm call was accepted".into())),
        }
    })();
    match r {
        Ok((e1 @ Error::LeadingDimension { .. }, e2 @ Error::BufferTooSmall { .. })) => CheckRow {
            kernel: "sgemm",
            shape: "bad lda / short C".into(),
            pass: true,
            max_err: 0.0,
            mismatches: 0,
            ms: 0.0,
            note: format!("{e1} | {e2}"),
        },
        Ok((e1, e2)) => {
            CheckRow::failed("sgemm", "bad lda / short C".into(), format!("{e1} | {e2}"))
        }
        Err(e) => CheckRow::failed("sgemm", "bad args".into(), e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_reference_of_a_tiny_gemm() {
        // A = [[1,2],[3,4]] column-major, B = I, C = 1: alpha·A + beta·C
        let g = GemmConfig::new(2, 2, 2).alpha(2.0).beta(1.0);
        let (out, bound) = cpu_ref(&g, &[1.0, 3.0, 2.0, 4.0], &[1.0, 0.0, 0.0, 1.0], &[1.0; 4]);
        assert_eq!(out, [3.0, 7.0, 5.0, 9.0]);
        assert!(bound.iter().all(|&b| b > 0.0 && b < 1e-4));
        // transposed A reads the other way
        let gt = g.trans(Trans::T, Trans::N);
        let (out, _) = cpu_ref(&gt, &[1.0, 3.0, 2.0, 4.0], &[1.0, 0.0, 0.0, 1.0], &[1.0; 4]);
        assert_eq!(out, [3.0, 5.0, 7.0, 9.0]);
    }
}
