//! The references the checks compare kernels with, beside cuBLAS (`host::Cublas`) and
//! cuBLASLt: attention's f64 CPU reference and error bounds ([`attention`]) and its fp32 GPU
//! reference ([`attention_gpu`], the `attention_ref` kernel family).

pub mod attention;
pub mod attention_gpu;

// `attention.rs` names the problem type as `super::problem` (the emulator includes it beside
// its own copy of host's `attention/problem.rs`)
use host::attention::problem;

#[cfg(test)]
mod tests {
    use super::attention::{attention_cpu, rows};
    use host::attention::{AttentionConfig, Causal, problem_lens};

    #[test]
    fn the_cpu_reference_masks_and_normalizes() {
        // BottomRight with sq > sk: the first rows see nothing (O = 0, LSE = +inf)
        let p = AttentionConfig::new(1, 2, 5, 3, 64)
            .heads_kv(1)
            .causal(Causal::BottomRight)
            .check_shape()
            .unwrap();
        let lens = problem_lens(&p);
        let f = |n: usize, s: u32| -> Vec<f32> {
            (0..n)
                .map(|i| (((i as u32).wrapping_mul(2654435761u32) ^ s) % 17) as f32 / 8.0 - 1.0)
                .collect()
        };
        let (q, k, v) = (f(lens.q, 1), f(lens.k, 2), f(lens.v, 3));
        let r = attention_cpu(&p, &q, &k, &v);
        for row in rows(&p) {
            assert_eq!(row.n, (row.i + 1).saturating_sub(2).min(3));
            let o = &r.o[row.ref_at..row.ref_at + 64];
            if row.n == 0 {
                assert!(o.iter().all(|&x| x == 0.0));
                assert_eq!(r.lse[row.lse_at], f64::INFINITY);
            } else {
                // a convex combination of the visible values
                for c in 0..64 {
                    let vals = (0..row.n).map(|j| f64::from(v[row.v as usize + j * 64 + c]));
                    let (lo, hi) =
                        vals.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
                    assert!(o[c] >= lo - 1e-12 && o[c] <= hi + 1e-12);
                    assert!(r.absw[row.ref_at + c] >= o[c].abs() - 1e-12);
                }
                assert!(r.lse[row.lse_at].is_finite());
            }
        }
    }
}
