//! Benchmarks: our kernels beside their reference (cudaMemcpy D2D for the copies, cuBLAS
//! SGEMM for the GEMM), measured in the same run with CUDA events, as [`BenchRow`]s. The
//! `host` CLI prints them as a table, JSON or CSV and plots them.

pub mod attention;
pub mod gemm_fp8;
pub mod tutorial_sm80;

use std::sync::Arc;

use host::cudarc::driver::{CudaSlice, CudaStream};

use crate::progress::Progress;
pub use crate::row::BenchRow;
pub use crate::timing::{
    BACK_TO_BACK_LAUNCHES, BACK_TO_BACK_ROUNDS, BURST_LAUNCHES, BURST_REST, BURST_ROUNDS,
    SUSTAINED_WARMUP_MS, Timing,
};
use crate::timing::{batched_ms, median_ms, median_pair_ms};
use host::context::Context;
use host::copy::{VARIANTS, Variant};
use host::cublas::Cublas;
use host::error::{Error, Result};
use host::gemm::{GemmConfig, Plan, Tile, Trans};

/// The benchmark families, in the order `host bench all` runs them.
pub const FAMILIES: [&str; 3] = ["copy", "gemm", "attention"];

/// Runs family `name` ("copy", "gemm" or "attention").
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::bench::family(&ctx, "gemm", &mut ())?;
/// # let _ = rows;
/// # Ok::<(), host::Error>(())
/// ```
pub fn family(ctx: &Context, name: &str, progress: &mut dyn Progress) -> Result<Vec<BenchRow>> {
    match name {
        "copy" => copy(ctx, progress),
        "gemm" => gemm(ctx, progress),
        "attention" => attention::attention(ctx, progress),
        other => Err(Error::Unsupported(format!(
            "benchmark family `{other}` (copy, gemm, attention)"
        ))),
    }
}

/// The matrix shape a variant is benchmarked on for `bytes` per buffer.
fn copy_shape(v: &Variant, bytes: usize) -> (usize, usize) {
    let elems = bytes / v.elem;
    if v.transpose.is_some() {
        let s = (elems as f64).sqrt() as usize;
        (s, s)
    } else if v.order == host::copy::Order::ColMajor {
        (4096, elems / 4096)
    } else {
        (elems / 4096, 4096)
    }
}

/// GB/s (bytes read + written) of every copy variant beside cudaMemcpy D2D
/// (`cuMemcpyDtoDAsync`), measured in the same run, for buffers of 1 MiB to 1 GiB.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// for r in host_cli::bench::copy(&ctx, &mut ())? {
///     println!("{} {}: {:.0} GB/s", r.variant, r.size, r.rate(r.ours_ms));
/// }
/// # Ok::<(), host::Error>(())
/// ```
pub fn copy(ctx: &Context, progress: &mut dyn Progress) -> Result<Vec<BenchRow>> {
    let s = &ctx.default_stream();
    let sizes_mib = [1usize, 4, 16, 64, 256, 1024];
    progress.set_total(sizes_mib.len() * (VARIANTS.len() + 1));
    let mut rows = Vec::new();
    for mib in sizes_mib {
        let bytes = mib << 20;
        let reps = ((256usize << 20) / bytes).clamp(3, 200) as u32;
        let src = s.alloc_zeros::<u32>(bytes / 4)?;
        let mut dst = s.alloc_zeros::<u32>(bytes / 4)?;
        let ref_ms = batched_ms(s, reps, || Ok(s.memcpy_dtod(&src, &mut dst)?))?;
        progress.step(&format!(
            "copy {mib} MiB: memcpy D2D {:.0} GB/s",
            2.0 * bytes as f64 / (ref_ms * 1e6)
        ));
        // the Hopper-only variants (TMA, bulk copies) are not on every device
        for v in VARIANTS.iter().filter(|v| ctx.has_kernel(v.kernel)) {
            {
                let (m, n) = copy_shape(v, bytes);
                let geometry = (m, n, v.lds_ldd(m, n).0, v.lds_ldd(m, n).1);
                let ms = match v.elem {
                    4 => batched_ms(s, reps, || ctx.run_variant(s, v, geometry, &src, &mut dst))?,
                    _ => {
                        let words = src.len();
                        // SAFETY: u32 words seen as twice as many u16 halves; the copies move bits.
                        let (hs, mut hd) = unsafe {
                            (
                                src.transmute::<u16>(2 * words),
                                dst.transmute_mut::<u16>(2 * words),
                            )
                        };
                        match (&hs, &mut hd) {
                            (Some(hs), Some(hd)) => {
                                batched_ms(s, reps, || ctx.run_variant(s, v, geometry, hs, hd))?
                            }
                            _ => return Err(Error::Unsupported("u16 view of the buffers".into())),
                        }
                    }
                };
                let work = (2 * m * n * v.elem) as f64;
                let variant = v.kernel.to_string();
                let row = BenchRow {
                    family: "copy",
                    variant,
                    size: format!("{mib} MiB ({m}x{n})"),
                    work,
                    unit: "GB/s",
                    ours_ms: ms,
                    ref_ms: ref_ms * work / (2 * bytes) as f64,
                    reference: "memcpy D2D",
                };
                progress.step(&format!(
                    "copy {mib} MiB: {:<28} {:>7.0} GB/s  memcpy {:>7.0} GB/s  ratio {:.3}",
                    row.variant,
                    row.rate(row.ours_ms),
                    row.rate(row.ref_ms),
                    row.ratio()
                ));
                progress.row(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// Random device operands for `g`: (A, B, C zeroed).
fn operands(
    s: &Arc<CudaStream>,
    g: &GemmConfig,
) -> Result<(CudaSlice<f32>, CudaSlice<f32>, CudaSlice<f32>)> {
    let (na, nb, nc) = g.lens();
    let mut rng = crate::check::Rng::new(42);
    Ok((
        s.clone_htod(&rng.units(na))?,
        s.clone_htod(&rng.units(nb))?,
        s.alloc_zeros::<f32>(nc)?,
    ))
}

/// Ours with `plan` (default: [`Context::gemm_plan`]) and cuBLAS SGEMM on the same buffers:
/// the median of timed launches of each, launched in turn (ours, cuBLAS, ours, …) so that
/// both see the same clocks and thermal state.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
/// let r = host_cli::bench::gemm_problem(&ctx, &blas, &host::GemmConfig::new(4096, 4096, 4096), None)?;
/// println!("{:.1} TFLOP/s, {:.2} of cuBLAS", r.rate(r.ours_ms), r.ratio());
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm_problem(
    ctx: &Context,
    blas: &Cublas,
    g: &GemmConfig,
    plan: Option<Plan>,
) -> Result<BenchRow> {
    let s = blas.stream();
    let (na, nb, nc) = g.lens();
    g.validate(na, nb, nc)?;
    ctx.check_fits(&g.to_string(), 4 * (na as u128 + nb as u128 + nc as u128))?;
    let plan = plan.unwrap_or_else(|| ctx.gemm_plan(g));
    let (da, db, mut dc) = operands(s, g)?;
    let dc = std::cell::RefCell::new(&mut dc);
    let (ours, refm) = median_pair_ms(
        s,
        || ctx.sgemm_with_plan(s, plan, g, &da, &db, *dc.borrow_mut()),
        || blas.sgemm(g, &da, &db, *dc.borrow_mut()),
    )?;
    Ok(BenchRow {
        family: "gemm",
        variant: format!("{plan} {}{}", g.transa, g.transb),
        size: format!("{}x{}x{}", g.m, g.n, g.k),
        work: g.flops(),
        unit: "TFLOP/s",
        ours_ms: ours,
        ref_ms: refm,
        reference: "cuBLAS SGEMM",
    })
}

/// Ours ([`Context::hgemm`]) and cuBLAS GemmEx (fp32 compute) on the same random buffers:
/// `dtype` `bf16`/`f16` inputs, C as `out` (`f32` or the input element), timed the same way
/// and interleaved: CUDA events around batches of the same number of launches (the faster
/// side's batch ~20 ms), ours and cuBLAS in turn (ours, cuBLAS, ours, …, 9 batches of each)
/// after both warmed up, so both see the same clocks and thermal state; the median of each.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
/// let g = host::GemmConfig::new(4096, 4096, 4096);
/// let r = host_cli::bench::hgemm_problem(&ctx, &blas, &g, "bf16", "bf16")?;
/// println!("{:.1} TFLOP/s, {:.2} of cuBLAS", r.rate(r.ours_ms), r.ratio());
/// # Ok::<(), host::Error>(())
/// ```
pub fn hgemm_problem(
    ctx: &Context,
    blas: &Cublas,
    g: &GemmConfig,
    dtype: &str,
    out: &str,
) -> Result<BenchRow> {
    hgemm_problem_timed(ctx, blas, g, dtype, out, Timing::Sustained)
}

/// [`hgemm_problem`] timed any [`Timing`] way; a row's variant ends in [`Timing::suffix`].
///
/// ```no_run
/// use host_cli::bench::{Timing, hgemm_problem_timed};
/// let ctx = host::Context::new(0)?;
/// let blas = host::Cublas::new(&ctx, ctx.default_stream())?;
/// let g = host::GemmConfig::new(4096, 4096, 4096);
/// let r = hgemm_problem_timed(&ctx, &blas, &g, "bf16", "bf16", Timing::Burst)?;
/// assert!(r.variant.ends_with(" burst"));
/// # Ok::<(), host::Error>(())
/// ```
pub fn hgemm_problem_timed(
    ctx: &Context,
    blas: &Cublas,
    g: &GemmConfig,
    dtype: &str,
    out: &str,
    timing: Timing,
) -> Result<BenchRow> {
    use host::half::{bf16, f16};
    fn run<T: host::hgemm::HalfElement, O: host::hgemm::GemmOut>(
        ctx: &Context,
        blas: &Cublas,
        g: &GemmConfig,
        timing: Timing,
    ) -> Result<(f64, f64, &'static str)>
    where
        host::cudarc::cublaslt::CudaBlasLT: host::cudarc::cublaslt::Matmul<T>,
    {
        use host::gemm::{Activation, BiasMode};
        let s = blas.stream();
        let (na, nb, nc) = g.lens();
        host::hgemm::hgemm_check(g, (na, nb, nc), (0, 0))?;
        ctx.check_fits(
            &g.to_string(),
            2 * (na as u128 + nb as u128) + 6 * nc as u128,
        )?;
        let mut rng = crate::check::Rng::new(42);
        let da = s.clone_htod(
            &(0..na + 64)
                .map(|_| T::from_f32_rn(rng.unit()))
                .collect::<Vec<T>>(),
        )?;
        let db = s.clone_htod(
            &(0..nb + 64)
                .map(|_| T::from_f32_rn(rng.unit()))
                .collect::<Vec<T>>(),
        )?;
        let mut dc = s.alloc_zeros::<O>(nc)?;
        let bias = match g.bias_len() {
            0 => None,
            n => Some(s.clone_htod(&(0..n).map(|_| rng.unit()).collect::<Vec<f32>>())?),
        };
        // a fused problem cuBLASLt's epilogues can compute (bias along M; identity, ReLU, GELU
        // tanh; C of the input element) is timed against cuBLASLt with that epilogue, others
        // against cuBLAS's plain GEMM (the epilogue's cost shows)
        let lt_epilogue = g.is_fused()
            && g.bias == BiasMode::M
            && matches!(
                g.act,
                Activation::Identity | Activation::Relu | Activation::Gelu
            )
            && O::NAME == T::NAME;
        let lt = match lt_epilogue {
            true => {
                let lt = host::cublas::CublasLt::new(ctx, s.clone())?;
                let b: Vec<T> = (0..g.m).map(|_| T::from_f32_rn(rng.unit())).collect();
                Some((lt, s.clone_htod(&b)?, s.alloc_zeros::<T>(nc)?))
            }
            false => None,
        };
        let lt = std::cell::RefCell::new(lt);
        let dc = std::cell::RefCell::new(&mut dc);
        let mut ours = || ctx.hgemm_fused(s, g, &da, &db, *dc.borrow_mut(), bias.as_ref());
        let lin = g.linear();
        let mut reference = || match &mut *lt.borrow_mut() {
            Some((lt, b, c)) => lt.gemm_bias_act(g, &da, &db, c, b),
            None => blas.gemm_ex(&lin, &da, &db, *dc.borrow_mut()),
        };
        let (ours, refm) = timing.pair_ms(s, &mut ours, &mut reference)?;
        let name = match (lt_epilogue, g.act) {
            (true, Activation::Gelu) => "cuBLASLt GELU_BIAS epilogue",
            (true, Activation::Relu) => "cuBLASLt RELU_BIAS epilogue",
            (true, _) => "cuBLASLt BIAS epilogue",
            (false, _) if g.is_fused() => "cuBLAS GemmEx, no bias/activation",
            (false, _) => "cuBLAS GemmEx",
        };
        Ok((ours, refm, name))
    }
    let (ours, refm, reference) = match (dtype, out) {
        ("bf16", "bf16") => run::<bf16, bf16>(ctx, blas, g, timing)?,
        ("bf16", "f32") => run::<bf16, f32>(ctx, blas, g, timing)?,
        ("f16", "f16") => run::<f16, f16>(ctx, blas, g, timing)?,
        ("f16", "f32") => run::<f16, f32>(ctx, blas, g, timing)?,
        _ => {
            return Err(Error::Unsupported(format!(
                "{dtype} inputs with a {out} C (cuBLAS has no such GEMM)"
            )));
        }
    };
    Ok(BenchRow {
        family: "gemm",
        variant: format!(
            "hgemm {dtype}->{out} {}{}{}{}{}",
            g.transa,
            g.transb,
            if g.is_fused() {
                format!(" {}", g.epilogue())
            } else {
                String::new()
            },
            if g.beta != 0.0 {
                format!(" beta {}", g.beta)
            } else {
                String::new()
            },
            timing.suffix()
        ),
        size: format!("{}x{}x{}", g.m, g.n, g.k),
        work: g.flops(),
        unit: "TFLOP/s",
        ours_ms: ours,
        ref_ms: refm,
        reference,
    })
}

/// The bf16/fp16 shapes of [`gemm`] (issue #26): NN 2048³, 4096³, 8192³, 16384³,
/// 8192×8192×512, 512×8192×8192, 128×7168×8192, 1152×7168×4096, NT/TN/TT at 4096³, and NN
/// 4096³ and 8192³ with `beta = 1` (C read: `C = A·B + C`).
///
/// ```
/// let cases = host_cli::bench::hgemm_cases();
/// assert_eq!(cases.len(), 13);
/// assert_eq!(cases.iter().filter(|g| g.beta != 0.0).count(), 2);
/// ```
pub fn hgemm_cases() -> Vec<GemmConfig> {
    let (n, t) = (Trans::N, Trans::T);
    let mut cases: Vec<GemmConfig> = [2048, 4096, 8192, 16384]
        .iter()
        .map(|&s| GemmConfig::new(s, s, s))
        .collect();
    cases.push(GemmConfig::new(8192, 8192, 512));
    cases.push(GemmConfig::new(512, 8192, 8192));
    // small M: the 64×128 ping-pong tiles; 9 M-tiles of 128 rows: no clusters (session 29)
    cases.push(GemmConfig::new(128, 7168, 8192));
    cases.push(GemmConfig::new(1152, 7168, 4096));
    for (ta, tb) in [(n, t), (t, n), (t, t)] {
        cases.push(GemmConfig::new(4096, 4096, 4096).trans(ta, tb));
    }
    // C read (the epilogue loads a 16-bit C into its buffers before the TMA stores)
    for s in [4096, 8192] {
        cases.push(GemmConfig::new(s, s, s).beta(1.0));
    }
    cases
}

/// The fused shapes of [`gemm`] (issue #34): `gelu(A·B + bias)` (tanh form), the bias along M
/// (one value per row of C, as cuBLASLt's `GELU_BIAS` epilogue adds it), TN at 4096³ and 8192³
/// (bf16), timed against cuBLASLt with that epilogue.
///
/// ```
/// assert!(host_cli::bench::hgemm_fused_cases().iter().all(|g| g.is_fused()));
/// ```
pub fn hgemm_fused_cases() -> Vec<GemmConfig> {
    [4096, 8192]
        .iter()
        .map(|&s| {
            GemmConfig::new(s, s, s)
                .trans(Trans::T, Trans::N)
                .bias(host::gemm::BiasMode::M)
                .act(host::gemm::Activation::Gelu)
        })
        .collect()
}

/// The GEMM shapes of [`gemm`]: NN squares, the four majorities at 4096³ and 8192³, skinny shapes.
fn gemm_cases() -> Vec<GemmConfig> {
    let (n, t) = (Trans::N, Trans::T);
    let mut cases: Vec<GemmConfig> = [1024, 2048, 4096, 8192]
        .iter()
        .map(|&s| GemmConfig::new(s, s, s))
        .collect();
    for s in [4096, 8192] {
        for (ta, tb) in [(n, t), (t, n), (t, t)] {
            cases.push(GemmConfig::new(s, s, s).trans(ta, tb));
        }
    }
    for (m, nn, k) in [
        (8192, 8192, 256),
        (256, 8192, 8192),
        (4096, 128, 4096),
        (128, 4096, 4096),
    ] {
        cases.push(GemmConfig::new(m, nn, k));
    }
    cases
}

/// TFLOP/s of ours (plan chosen by size) and cuBLAS SGEMM on the same buffers: NN for all
/// shapes, the four majorities at 4096³ and 8192³.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::bench::gemm(&ctx, &mut ())?;
/// # let _ = rows;
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm(ctx: &Context, progress: &mut dyn Progress) -> Result<Vec<BenchRow>> {
    let blas = Cublas::new(ctx, ctx.default_stream())?;
    let cases = gemm_cases();
    // the FP8 rows (where the module is built): a step a case, sustained and bursts
    let fp8 = ctx.has_kernel("gemm_fp8_e4m3_tn");
    let fp8_steps =
        usize::from(fp8) * (gemm_fp8::bench_cases().len() + gemm_fp8::burst_cases().len());
    progress.set_total(
        cases.len() + 4 * hgemm_cases().len() + 2 * hgemm_fused_cases().len() + fp8_steps,
    );
    if !ctx.launch_bounds() {
        progress.note("CUTE_RS_GEMM_BOUNDS=0: GEMM entries without launch bounds");
    }
    let mut rows = Vec::new();
    for g in cases {
        let plan = ctx.gemm_plan(&g);
        progress.step(&format!("{g} ({plan})"));
        rows.push(gemm_problem(ctx, &blas, &g, Some(plan))?);
        progress.row(&rows[rows.len() - 1]);
    }
    // the bf16/fp16 GEMM is Hopper only for now: not on a device (or forced arch) without it
    let hgemm = if ctx.has_kernel("hgemm_bf16_tn") {
        &["bf16", "f16"][..]
    } else {
        progress.note("bf16/fp16 GEMM: not on this device (needs sm_90a)");
        &[][..]
    };
    // both timings (issue #34): sustained interleaved batches, then bursts after a rest
    for timing in [Timing::Sustained, Timing::Burst] {
        for &dtype in hgemm {
            for g in hgemm_cases() {
                progress.step(&format!("{g} {dtype} {timing:?}"));
                rows.push(hgemm_problem_timed(ctx, &blas, &g, dtype, dtype, timing)?);
                progress.row(&rows[rows.len() - 1]);
            }
        }
        if hgemm.is_empty() {
            continue;
        }
        for g in hgemm_fused_cases() {
            progress.step(&format!("{g} bf16 {timing:?}"));
            rows.push(hgemm_problem_timed(ctx, &blas, &g, "bf16", "bf16", timing)?);
            progress.row(&rows[rows.len() - 1]);
        }
    }
    // the FP8 GEMM (issue #37) against cuBLASLt's FP8 matmul
    if fp8 {
        // every case sustained; #37's 1.00 shapes and its block-scaled rows also in bursts
        for (cases, timing) in [
            (gemm_fp8::bench_cases(), Timing::Sustained),
            (gemm_fp8::burst_cases(), Timing::Burst),
        ] {
            // a step a case, each row reported as it is measured
            rows.extend(gemm_fp8::bench(ctx, &cases, timing, progress)?);
        }
    }
    Ok(rows)
}

/// `host gemm --sweep`: every plan (tile × split-K × launch bounds) on the bench shapes, then
/// the chosen plan for all four majorities; TFLOP/s and the ratio to cuBLAS, one line each to
/// `emit`.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// host_cli::bench::gemm_sweep(&ctx, &mut (), &mut |line| println!("{line}"))?;
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm_sweep(
    ctx: &Context,
    progress: &mut dyn Progress,
    emit: &mut dyn FnMut(&str),
) -> Result<()> {
    let blas = Cublas::new(ctx, ctx.default_stream())?;
    let s = blas.stream();
    let shapes = [
        (1024, 1024, 1024),
        (2048, 2048, 2048),
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        (8192, 8192, 256),
        (256, 8192, 8192),
        (4096, 128, 4096),
        (128, 4096, 4096),
    ];
    let all = [
        (Trans::N, Trans::N),
        (Trans::N, Trans::T),
        (Trans::T, Trans::N),
        (Trans::T, Trans::T),
    ];
    progress.set_total(shapes.len() * all.len());
    let sms = ctx.device().sms as usize;
    for &(m, n, k) in &shapes {
        for &(ta, tb) in &all {
            let g = GemmConfig::new(m, n, k).trans(ta, tb);
            progress.step(&g.to_string());
            let (da, db, mut dc) = operands(s, &g)?;
            let refm = median_ms(s, || blas.sgemm(&g, &da, &db, &mut dc))?;
            let tf = |ms: f64| g.flops() / (ms * 1e9);
            emit(&format!("{g} cuBLAS {:.1}", tf(refm)));
            let chosen = ctx.gemm_plan(&g);
            let tiles = m.div_ceil(128) * n.div_ceil(128);
            let mut plans = vec![chosen];
            if tiles >= 2 * sms {
                plans.push(Plan {
                    rast_n: true,
                    ..chosen
                });
            } else if (ta, tb) == (Trans::N, Trans::N) {
                for split in [1u32, 2, 4, 8] {
                    for tile in Tile::ALL {
                        plans.push(Plan {
                            split,
                            ..Plan::new(tile)
                        });
                    }
                }
            }
            for plan in plans {
                for one_cta in [true, false] {
                    let p = Plan { one_cta, ..plan };
                    let ours = median_ms(s, || ctx.sgemm_with_plan(s, p, &g, &da, &db, &mut dc))?;
                    emit(&format!(
                        "  {:<28} {:<4} {:6.1} TFLOP/s  {:.3}{}",
                        Plan {
                            one_cta: false,
                            ..plan
                        }
                        .to_string(),
                        if one_cta { "unb" } else { "bnd" },
                        tf(ours),
                        refm / ours,
                        if p == chosen { "  (chosen)" } else { "" }
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_shapes_fill_the_buffer() {
        for v in &VARIANTS {
            let (m, n) = copy_shape(v, 16 << 20);
            assert!(
                m * n * v.elem <= 16 << 20 && m * n * v.elem > 15 << 20,
                "{}",
                v.kernel
            );
        }
        assert_eq!(gemm_cases().len(), 14);
    }
}
