//! Every SGEMM entry of `kernels/gemm_n` and `kernels/gemm_t` (and `sgemm_scale_c`, through
//! split-K) on the CPU emulator, launched as `host/src/gemm.rs` launches them, against an `f64`
//! reference with a per-element bound.

use kernels_emu::check::{GemmCase, run_gemm};
use kernels_emu::geometry::{GEMM_ENTRIES, GemmEntry, Plan, Tile};
use kernels_emu::report;

/// Edge sizes (1×1×1, exact tiles, M/N/K off the tiles, K = 0, several CTAs), alpha/beta
/// (beta = 0 with C all NaN: C must not be read), padded leading dimensions (multiples of 4
/// and not), bases off 16-byte alignment, split-K (with `sgemm_scale_c`) and N-fastest
/// rasterization, full-mantissa inputs. Split-K cases keep N small: `sgemm_scale_c` runs one
/// 256-thread block per column of C, and every emulated block costs OS threads.
fn cases(e: &GemmEntry) -> Vec<GemmCase> {
    let (bm, bn, _) = e.tile.shape();
    let (bm, bn) = (bm as usize, bn as usize);
    let base = GemmCase::new;
    let split = |s, rast_n| Plan { split: s, rast_n };
    vec![
        base(1, 1, 1),
        GemmCase {
            alpha: -1.5,
            beta: 0.75,
            ..base(bm, bn, 16)
        },
        GemmCase {
            alpha: 0.5,
            pad: (3, 1, 2),
            ..base(bm + 3, bn - 5, 13)
        },
        GemmCase {
            beta: 1.0,
            pad: (4, 4, 4),
            offset: 4,
            ..base(bm - 1, bn + 2, 24)
        },
        GemmCase {
            beta: -2.0,
            offset: 8,
            full: true,
            ..base(2 * bm + 1, 7, 21)
        },
        GemmCase {
            alpha: 2.0,
            beta: 0.5,
            ..base(5, 2 * bn - 3, 0)
        },
        GemmCase {
            plan: split(3, false),
            beta: 0.25,
            pad: (0, 2, 1),
            ..base(bm + 9, 5, 40)
        },
        GemmCase {
            plan: split(2, true),
            full: true,
            offset: 12,
            ..base(2 * bm - 2, 9, 19)
        },
        GemmCase {
            plan: split(1, true),
            alpha: -1.0,
            beta: 1.0,
            ..base(2 * bm - 7, bn / 2, 9)
        },
    ]
}

fn run(kernel: &str) {
    let e = GEMM_ENTRIES
        .iter()
        .find(|e| e.kernel == kernel)
        .unwrap_or_else(|| panic!("no entry {kernel}"));
    let mut cases = cases(e);
    // the `_2cta` twins are the unbounded entries' body with another FFMA order and load: a
    // full tile, an off-tile problem with padded leading dimensions and a split-K plan (the
    // host's plans prefer these entries), to keep `cargo xtask test` in its budget
    if kernel.ends_with("_2cta") {
        cases = vec![cases[1], cases[2], cases[6]];
    }
    report::check_cases(kernel, &cases, 77, |c, seed| run_gemm(e, c, seed));
    // the split-K cases ran the prologue entry too
    report::record(
        "sgemm_scale_c",
        cases.iter().filter(|c| c.plan.split > 1).count(),
    );
}

entry_tests!(
    sgemm_128x128x8_nn,
    sgemm_128x128x8_nt,
    sgemm_128x128x8_tn,
    sgemm_128x128x8_tt,
    sgemm_64x64x8_nn,
    sgemm_64x64x8_nt,
    sgemm_64x64x8_tn,
    sgemm_64x64x8_tt,
    sgemm_128x128x8_nn_2cta,
    sgemm_128x128x8_nt_2cta,
    sgemm_128x128x8_tn_2cta,
    sgemm_128x128x8_tt_2cta,
);

/// The tests above cover the whole table; both tiles appear.
#[test]
fn every_gemm_entry_is_tested() {
    assert_eq!(GEMM_ENTRIES.len(), 12);
    assert!(GEMM_ENTRIES.iter().any(|e| e.tile == Tile::M64N64K8));
    let mut names: Vec<&str> = GEMM_ENTRIES.iter().map(|e| e.kernel).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 12);
}
