//! `host bench gemm`'s FP8 rows ([`host::gemm_fp8`], issue #37): ours against cuBLASLt's FP8
//! matmul in the same run.

use host::half::bf16;

use crate::bench::BenchRow;
use crate::check::Rng;
use crate::check::gemm_fp8::inputs;
use crate::progress::Progress;
use crate::timing::Timing;
use host::context::Context;
use host::error::Result;
use host::gemm::{Activation, BiasMode};
use host::gemm_fp8::{CublasLtFp8, Fp8, Fp8Scales, Fp8Vectors, GemmFp8Config};

/// The bench shapes of issue #37 (M, N, K).
pub const BENCH_SHAPES: [(usize, usize, usize); 5] = [
    (4096, 4096, 4096),
    (8192, 8192, 8192),
    (4096, 7168, 16384),
    (128, 7168, 16384),
    (4096, 2112, 7168),
];

/// How ours accumulates in a bench row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8Mode {
    /// Fast accumulation, per-tensor scales: against cuBLASLt with and without its fast
    /// accumulation.
    Fast,
    /// Promotion, per-tensor scales: against cuBLASLt without fast accumulation (which promotes).
    Promoted,
    /// Promotion with block scales (1×128 / 128×128): against cuBLASLt per-tensor without fast
    /// accumulation (cuBLASLt's block scales are not asked for), and against our own promoted
    /// per-tensor kernel on the same buffers (issue #37's "≥ 0.90 of our per-tensor kernel",
    /// timed interleaved in one row rather than read off two rows timed apart).
    Block,
    /// Promotion, per-tensor scales, the fused epilogue bias along M + GELU (tanh): against
    /// cuBLASLt without fast accumulation with its `GELU_BIAS` epilogue.
    BiasGelu,
}

/// `host bench gemm`'s FP8 cases: e4m3 at [`BENCH_SHAPES`] fast and promoted, block-scaled at
/// every one of them (4096×7168×16384 is DeepGEMM's shape, 128×7168×16384 small M: the 64-row
/// tile), each beside its promoted per-tensor row, promoted and block-scaled at 384×7168×8192
/// (three M-tiles: no clusters, `HgemmPlan::pairs`) and block-scaled at 512×7168×8192 (128×128
/// tiles split over every SM, `Fp8BlockEntry::STAGED_SK_MAX_FILL`), e5m2 fast at 4096³, the fused
/// bias + GELU at 4096×7168×16384 and 8192³.
///
/// ```
/// use host::gemm_fp8::Fp8;
/// use host_cli::bench::gemm_fp8::{Fp8Mode, bench_cases};
/// let c = bench_cases();
/// assert_eq!(c.len(), 5 * 2 + 5 + 3 + 1 + 2);
/// assert_eq!(c[0], (Fp8::E4M3, Fp8Mode::Fast, (4096, 4096, 4096)));
/// assert_eq!(c.iter().filter(|x| x.1 == Fp8Mode::Block).count(), 7);
/// assert_eq!(c.iter().filter(|x| x.0 == Fp8::E5M2).count(), 1);
/// ```
pub fn bench_cases() -> Vec<(Fp8, Fp8Mode, (usize, usize, usize))> {
    let mut cases = per_tensor_cases(&BENCH_SHAPES);
    for &x in &BENCH_SHAPES {
        cases.push((Fp8::E4M3, Fp8Mode::Block, x));
    }
    cases.push((Fp8::E4M3, Fp8Mode::Promoted, (384, 7168, 8192)));
    cases.push((Fp8::E4M3, Fp8Mode::Block, (384, 7168, 8192)));
    cases.push((Fp8::E4M3, Fp8Mode::Block, (512, 7168, 8192)));
    cases.push((Fp8::E5M2, Fp8Mode::Fast, (4096, 4096, 4096)));
    cases.push((Fp8::E4M3, Fp8Mode::BiasGelu, (4096, 7168, 16384)));
    cases.push((Fp8::E4M3, Fp8Mode::BiasGelu, (8192, 8192, 8192)));
    cases
}

/// `host bench gemm`'s FP8 cases also timed in bursts ([`Timing::Burst`], as issue #34 times the
/// 16-bit GEMM both ways): e4m3 fast and promoted per-tensor at the shapes of issue #37's 1.00
/// target, 4096³ and 8192³, and block-scaled at every one of [`BENCH_SHAPES`] (issue #37's
/// block / per-tensor in both timings).
///
/// ```
/// use host_cli::bench::gemm_fp8::{Fp8Mode, burst_cases};
/// let c = burst_cases();
/// assert_eq!(c.len(), 4 + 5);
/// assert!(c[..4].iter().all(|x| matches!(x.1, Fp8Mode::Fast | Fp8Mode::Promoted)));
/// assert!(c[4..].iter().all(|x| x.1 == Fp8Mode::Block));
/// ```
pub fn burst_cases() -> Vec<(Fp8, Fp8Mode, (usize, usize, usize))> {
    let mut cases = per_tensor_cases(&BENCH_SHAPES[..2]);
    cases.extend(BENCH_SHAPES.iter().map(|&x| (Fp8::E4M3, Fp8Mode::Block, x)));
    cases
}

/// e4m3 fast and promoted per-tensor at each of `shapes`, in that order.
fn per_tensor_cases(
    shapes: &[(usize, usize, usize)],
) -> Vec<(Fp8, Fp8Mode, (usize, usize, usize))> {
    shapes
        .iter()
        .flat_map(|&x| {
            [
                (Fp8::E4M3, Fp8Mode::Fast, x),
                (Fp8::E4M3, Fp8Mode::Promoted, x),
            ]
        })
        .collect()
}

/// A bench row's reference: cuBLASLt's FP8 matmul (with or without its fast accumulation), or
/// our promoted per-tensor kernel (the block-scaled rows' second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reference {
    Lt { fast: bool },
    OursPerTensor,
}

/// The reference name of a block-scaled row timed against our promoted per-tensor kernel on the
/// same buffers: its ratio is issue #37's block-scaled / per-tensor.
pub const OURS_PER_TENSOR: &str = "ours per-tensor (promoted)";

/// TFLOP/s of ours (bf16 D) against cuBLASLt's FP8 matmul (per-tensor) on the same buffers,
/// timed the `timing` way (a row's variant ends in [`Timing::suffix`]): fast accumulation
/// against cuBLASLt with its fast accumulation and without (two rows), promoted and
/// block-scaled against cuBLASLt without; block-scaled also against our promoted per-tensor
/// kernel (a second row, reference [`OURS_PER_TENSOR`]). Where cuBLASLt
/// refuses the problem, one row of ours alone (reference time NaN, reference "cuBLASLt FP8:
/// unavailable").
///
/// ```no_run
/// use host::gemm_fp8::Fp8;
/// use host_cli::bench::Timing;
/// use host_cli::bench::gemm_fp8::{Fp8Mode, bench};
/// let ctx = host::Context::new(0)?;
/// let case = (Fp8::E4M3, Fp8Mode::Promoted, (4096, 4096, 4096));
/// let rows = bench(&ctx, &[case], Timing::Sustained, &mut ())?;
/// assert_eq!(rows[0].variant, "gemm_fp8 e4m3->bf16 TN promoted");
/// let rows = bench(&ctx, &[case], Timing::Burst, &mut ())?;
/// assert_eq!(rows[0].variant, "gemm_fp8 e4m3->bf16 TN promoted burst");
/// // block scales: against cuBLASLt, then against our per-tensor kernel (ratio: #37's block / ours)
/// let rows = bench(&ctx, &[(Fp8::E4M3, Fp8Mode::Block, (4096, 2112, 7168))], Timing::Sustained, &mut ())?;
/// assert_eq!((rows.len(), rows[1].reference), (2, host_cli::bench::gemm_fp8::OURS_PER_TENSOR));
/// println!("{:.0} TFLOP/s, {:.2} of cuBLASLt", rows[0].rate(rows[0].ours_ms), rows[0].ratio());
/// # Ok::<(), host::Error>(())
/// ```
pub fn bench(
    ctx: &Context,
    cases: &[(Fp8, Fp8Mode, (usize, usize, usize))],
    timing: Timing,
    progress: &mut dyn Progress,
) -> Result<Vec<BenchRow>> {
    let s = ctx.default_stream();
    let lt = CublasLtFp8::new(ctx, s.clone(), (0.5, 0.25))?;
    let mut rows = Vec::new();
    let mut rng = Rng::new(0x37);
    for &(t, mode, (m, n, k)) in cases {
        progress.step(&format!("FP8 {t:?} {mode:?} {m}x{n}x{k} {timing:?}"));
        let mut g = GemmFp8Config::new(m, n, k, t)
            .scales(0.5, 0.25)
            .fast_accum(mode == Fp8Mode::Fast);
        if mode == Fp8Mode::BiasGelu {
            g = g.bias(BiasMode::M).act(Activation::Gelu);
        }
        // the fused row's bias: f32 for ours, bf16 for cuBLASLt (the same values)
        let hbias: Vec<f32> = (0..m).map(|_| rng.unit()).collect();
        let bias = s.clone_htod(&hbias)?;
        let bias_lt =
            s.clone_htod(&hbias.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>())?;
        let lt_bias = (mode == Fp8Mode::BiasGelu).then_some(&bias_lt);
        let vectors = Fp8Vectors {
            bias: Some(&bias),
            ..Default::default()
        };
        let a = s.clone_htod(&inputs(t, m * k, &mut rng))?;
        let b = s.clone_htod(&inputs(t, n * k, &mut rng))?;
        let (la, lb) = g.block_scale_lens();
        let (sa, sb) = (
            s.clone_htod(&vec![1.5f32; la])?,
            s.clone_htod(&vec![0.75f32; lb])?,
        );
        let scales = if mode == Fp8Mode::Block {
            Fp8Scales::Block { a: &sa, b: &sb }
        } else {
            Fp8Scales::PerTensor
        };
        let mut d = s.alloc_zeros::<bf16>(m * n)?;
        let mut d_ref = s.alloc_zeros::<bf16>(m * n)?;
        let refs: &[Reference] = match mode {
            Fp8Mode::Fast => &[Reference::Lt { fast: true }, Reference::Lt { fast: false }],
            Fp8Mode::Block => &[Reference::Lt { fast: false }, Reference::OursPerTensor],
            _ => &[Reference::Lt { fast: false }],
        };
        let variant = match mode {
            Fp8Mode::Fast => "fast-accum",
            Fp8Mode::Promoted => "promoted",
            Fp8Mode::Block => "promoted block-scales",
            Fp8Mode::BiasGelu => "promoted +bias_m gelu",
        };
        for &r in refs {
            let fast = r == Reference::Lt { fast: true };
            let ours_only = r != Reference::OursPerTensor
                && lt
                    .matmul_epilogue(&g, &a, &b, &mut d_ref, fast, lt_bias)
                    .is_err();
            let (ours, theirs) = timing.pair_ms(
                &s,
                || {
                    if g.is_fused() {
                        ctx.gemm_fp8_fused(&s, &g, &a, &b, vectors, &mut d)
                    } else {
                        ctx.gemm_fp8_scaled(&s, &g, &a, &b, scales, &mut d)
                    }
                },
                || match r {
                    Reference::OursPerTensor => {
                        ctx.gemm_fp8_scaled(&s, &g, &a, &b, Fp8Scales::PerTensor, &mut d_ref)
                    }
                    _ if ours_only => Ok(()), // cuBLASLt refused it: time ours alone
                    Reference::Lt { .. } => {
                        lt.matmul_epilogue(&g, &a, &b, &mut d_ref, fast, lt_bias)
                    }
                },
            )?;
            let row = BenchRow {
                family: "gemm",
                variant: format!(
                    "gemm_fp8 {}->bf16 TN {variant}{}",
                    t.name(),
                    timing.suffix()
                ),
                size: format!("{m}x{n}x{k}"),
                work: g.flops(),
                unit: "TFLOP/s",
                ours_ms: ours,
                ref_ms: if ours_only { f64::NAN } else { theirs },
                reference: match (r, ours_only, fast, lt_bias.is_some()) {
                    (Reference::OursPerTensor, ..) => OURS_PER_TENSOR,
                    (_, true, _, _) => "cuBLASLt FP8: unavailable",
                    (_, false, true, _) => "cuBLASLt FP8 fast-accum",
                    (_, false, false, true) => "cuBLASLt FP8 GELU_BIAS",
                    (_, false, false, false) => "cuBLASLt FP8",
                },
            };
            // each row reported as it is measured (a run cut short keeps it)
            progress.row(&row);
            rows.push(row);
            if ours_only && mode == Fp8Mode::Fast {
                break; // its second cuBLASLt row would be refused as well
            }
        }
    }
    Ok(rows)
}
