//! `host bench gemm`'s FP8 rows ([`crate::gemm_fp8`], issue #37): ours against cuBLASLt's FP8
//! matmul in the same run.

use half::bf16;

use crate::bench::BenchRow;
use crate::check::Rng;
use crate::check::gemm_fp8::inputs;
use crate::context::Context;
use crate::error::Result;
use crate::gemm_fp8::{CublasLtFp8, Fp8, GemmFp8Config};
use crate::timing::batched_pair_ms;

/// The bench shapes of issue #37 (M, N, K).
pub const BENCH_SHAPES: [(usize, usize, usize); 5] = [
    (4096, 4096, 4096),
    (8192, 8192, 8192),
    (4096, 7168, 16384),
    (128, 7168, 16384),
    (4096, 2112, 7168),
];

/// `host bench gemm`'s FP8 cases: e4m3 at [`BENCH_SHAPES`], e5m2 at 4096³.
pub fn bench_cases() -> Vec<(Fp8, (usize, usize, usize))> {
    let mut cases: Vec<_> = BENCH_SHAPES.iter().map(|&x| (Fp8::E4M3, x)).collect();
    cases.push((Fp8::E5M2, (4096, 4096, 4096)));
    cases
}

/// TFLOP/s of ours (fast accumulation, bf16 D) against cuBLASLt's FP8 matmul with its fast
/// accumulation and without (two rows a case), on the same buffers, timed in interleaved
/// batches. Where cuBLASLt refuses the problem, one row of ours alone (reference time NaN,
/// reference "cuBLASLt FP8: unavailable").
pub fn bench(ctx: &Context, cases: &[(Fp8, (usize, usize, usize))]) -> Result<Vec<BenchRow>> {
    let s = ctx.default_stream();
    let lt = CublasLtFp8::new(ctx, s.clone(), (0.5, 0.25))?;
    let mut rows = Vec::new();
    let mut rng = Rng::new(0x37);
    for &(t, (m, n, k)) in cases {
        let g = GemmFp8Config::new(m, n, k, t)
            .scales(0.5, 0.25)
            .fast_accum(true);
        let a = s.clone_htod(&inputs(t, m * k, &mut rng))?;
        let b = s.clone_htod(&inputs(t, n * k, &mut rng))?;
        let mut d = s.alloc_zeros::<bf16>(m * n)?;
        let mut d_ref = s.alloc_zeros::<bf16>(m * n)?;
        for fast in [true, false] {
            let ours_only = lt.matmul(&g, &a, &b, &mut d_ref, fast).is_err();
            let (ours, theirs) = batched_pair_ms(
                &s,
                || ctx.gemm_fp8(&s, &g, &a, &b, &mut d),
                || {
                    if ours_only {
                        Ok(()) // cuBLASLt refused it: time ours alone
                    } else {
                        lt.matmul(&g, &a, &b, &mut d_ref, fast)
                    }
                },
            )?;
            rows.push(BenchRow {
                family: "gemm",
                variant: format!("gemm_fp8 {}->bf16 TN fast-accum", t.name()),
                size: format!("{m}x{n}x{k}"),
                work: g.flops(),
                unit: "TFLOP/s",
                ours_ms: ours,
                ref_ms: if ours_only { f64::NAN } else { theirs },
                reference: match (ours_only, fast) {
                    (true, _) => "cuBLASLt FP8: unavailable",
                    (false, true) => "cuBLASLt FP8 fast-accum",
                    (false, false) => "cuBLASLt FP8",
                },
            });
            if ours_only {
                break;
            }
        }
    }
    Ok(rows)
}
