//! The correctness suite `host run` prints: every kernel against a CPU reference (bit-exact
//! for the copies and smoke kernels; an error bound for the GEMM) and against cuBLAS, plus
//! argument errors that must be refused before launch. A failing case is a row with
//! `pass: false`, never an abort.
//!
//! Then two randomized sweeps, every problem drawn from a seed ([`SweepConfig`]): GEMM
//! problems against cuBLAS within a stated per-element bound ([`gemm_sweep`],
//! [`gemm_sweep_bound`]), and copy / transpose shapes bit-exactly ([`copy_sweep`]); both on
//! views into larger buffers whose padding must come back untouched ([`Window`]).

mod attention;
pub mod bounds;
mod cluster;
mod copy;
mod copy_sweep;
mod gemm;
pub mod gemm_fp8;
mod gemm_sweep;
mod hgemm;
mod smoke;
mod sweep;
mod wgmma;

pub use attention::{
    AttentionCase, AttentionOutcome, DEFAULT_ATTENTION_PROBLEMS, attention_case,
    attention_fixed_cases,
};
pub use copy_sweep::{CopyOp, CopyProblem, ElemType};
pub use gemm::gemm_problem;
pub use gemm_sweep::{GemmProblem, gemm_sweep_bound, gemm_sweep_tolerance};
/// [`hgemm`] with every problem run by one kernel ([`host::GemmKernel`]).
pub use hgemm::checks_with as hgemm_with;
pub use hgemm::{
    HgemmOutcome, exact_at, hgemm_compare, hgemm_problem, hgemm_sweep_fused, hgemm_sweep_problem,
};
pub use sweep::{
    BitPattern, DEFAULT_COPY_SHAPES, DEFAULT_GEMM_PROBLEMS, DEFAULT_HGEMM_PROBLEMS, DEFAULT_SEED,
    SweepConfig, TAIL, Window,
};
pub use wgmma::WgmmaConfig;

use crate::progress::Progress;
use host::context::Context;

/// Problems of `host run`'s FP8 GEMM sweep ([`gemm_fp8::sweep`]; none when the
/// bf16/fp16 sweep is off).
pub const FP8_SWEEP: usize = 200;

/// One checked case.
///
/// ```
/// let r = host_cli::check::CheckRow::failed("sgemm_128x128x8", "8x8x8 NN".into(), "bad".into());
/// assert!(!r.pass);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CheckRow {
    /// The kernel (or kernel family) checked.
    pub kernel: &'static str,
    /// The case, e.g. "130x67x33 NT a=-1 b=2".
    pub shape: String,
    /// Whether it passed.
    pub pass: bool,
    /// Largest |gpu − reference| (0 when bit-exact); for GEMM vs the CPU, max |err|/bound.
    pub max_err: f64,
    /// Elements that differ (bits, or beyond the bound); for a sweep's summary row, the problems
    /// that failed (a forced entry a problem lacks counts as one).
    pub mismatches: usize,
    /// GPU time of the launch, ms.
    pub ms: f32,
    /// What was compared, throughput, or the error.
    pub note: String,
}

impl CheckRow {
    /// A failed case carrying an error message.
    ///
    /// ```
    /// let r = host_cli::check::CheckRow::failed("tiled_copy", "-".into(), "CUDA error".into());
    /// assert_eq!(r.note, "CUDA error");
    /// ```
    pub fn failed(kernel: &'static str, shape: String, note: String) -> CheckRow {
        CheckRow {
            kernel,
            shape,
            pass: false,
            max_err: f64::NAN,
            mismatches: 0,
            ms: 0.0,
            note,
        }
    }
}

/// Every check (smoke kernels, copies, GEMM, wgmma) and the default sweeps
/// ([`SweepConfig::default`]), in table order: [`run_all_with`] with the defaults.
///
/// ```no_run
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let rows = host_cli::check::run_all(&ctx, &mut ());
/// println!("{} of {} passed", rows.iter().filter(|r| r.pass).count(), rows.len());
/// # Ok::<(), host::Error>(())
/// ```
pub fn run_all(ctx: &Context, progress: &mut dyn Progress) -> Vec<CheckRow> {
    run_all_with(ctx, &SweepConfig::default(), progress)
}

/// Every check (smoke kernels, copies, GEMM, wgmma), then the GEMM and copy sweeps of `sweeps`;
/// `progress` sees one step per check family and one per sweep problem.
///
/// ```no_run
/// use host_cli::check::SweepConfig;
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let sweeps = SweepConfig { seed: 7, gemm: 50, copy: 0, hgemm: 0, attention: 0 };
/// let rows = host_cli::check::run_all_with(&ctx, &sweeps, &mut ());
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn run_all_with(
    ctx: &Context,
    sweeps: &SweepConfig,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    progress.set_total(
        7usize
            .saturating_add(sweeps.gemm.saturating_add(sweeps.copy))
            .saturating_add(sweeps.attention),
    );
    progress.step("smoke kernels");
    let mut rows = smoke(ctx);
    progress.step("tiled copies and transposes");
    rows.extend(copy(ctx));
    progress.step("sgemm vs CPU and cuBLAS");
    rows.extend(gemm(ctx, false));
    progress.step("wgmma proof kernels");
    rows.extend(
        unavailable(ctx, "wgmma", "wgmma_ss_bf16_kk_sw128_n256")
            .unwrap_or_else(|| wgmma(ctx, fresh_seed())),
    );
    rows.extend(
        unavailable(ctx, cluster::ENTRY, cluster::ENTRY)
            .unwrap_or_else(|| cluster::checks(ctx, sweeps.seed)),
    );
    progress.step("bf16/fp16 GEMM vs cuBLAS");
    rows.extend(
        // the Hopper kernel, or where it is not loaded the Ampere one (`Context::hgemm` picks)
        unavailable(
            ctx,
            "hgemm",
            if ctx.has_kernel("hgemm_bf16_tn") {
                "hgemm_bf16_tn"
            } else {
                "hgemm_sm80_bf16_tn"
            },
        )
        .unwrap_or_else(|| hgemm(ctx, sweeps.seed, sweeps.hgemm)),
    );
    // the FP8 GEMM (issue #37): its sweep beside the bf16/fp16 one
    rows.extend(
        unavailable(ctx, "gemm_fp8", "gemm_fp8_e4m3_tn").unwrap_or_else(|| {
            let count = if sweeps.hgemm > 0 { FP8_SWEEP } else { 0 };
            gemm_fp8::sweep(ctx, sweeps.seed, count)
        }),
    );
    rows.extend(gemm_sweep(ctx, sweeps.seed, sweeps.gemm, progress));
    rows.extend(copy_sweep(ctx, sweeps.seed, sweeps.copy, progress));
    rows.extend(
        unavailable(ctx, "attention", "attention_fwd_bf16_d128")
            .unwrap_or_else(|| attention(ctx, sweeps.seed, sweeps.attention, progress)),
    );
    rows
}

/// Attention (`host run --only attention`, issue #33): [`host::Context::attention`] on the
/// fixed cases ([`attention_fixed_cases`]) and `count` random problems of `seed`
/// ([`AttentionCase::generate`]) against the fp32 GPU reference (`tests/kernels/attention_ref`)
/// within the bound of `doc/attention.md`, the reference against the f64 CPU one on small
/// problems, O's and LSE's padding untouched, a second run bit-identical; every argument
/// error refused before a launch. Two progress steps plus one per sweep problem.
///
/// ```no_run
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// let rows = host_cli::check::attention(&ctx, host_cli::check::DEFAULT_SEED, 200, &mut ());
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    attention::checks(ctx, seed, count, progress)
}

/// One passing row that says a section was skipped because the device (or the architecture
/// forced with [`Context::with_arch`]) lacks its kernel `entry`: `Some` then, `None` when the
/// kernel is loaded. A kernel that no module defines (a context opened without the check
/// kernels of [`crate::load_options`]) is a failing row instead, not a skip.
///
/// ```no_run
/// let opts = host::LoadOptions { arch: Some("sm_80".into()), ..host_cli::load_options() };
/// let ctx = host::Context::open_with(0, &opts)?;
/// let row = host_cli::check::unavailable(&ctx, "wgmma", "wgmma_ss_bf16_kk_sw128_n256").unwrap();
/// assert!(row[0].pass && row[0].note.starts_with("SKIP"));
/// # Ok::<(), host::Error>(())
/// ```
pub fn unavailable(ctx: &Context, kernel: &'static str, entry: &str) -> Option<Vec<CheckRow>> {
    let e = ctx.require_kernel(entry).err()?;
    // a kernel no module has (a context opened without the check kernels) fails: only one
    // built for an architecture the device (or the forced one) cannot load is a SKIP
    let missing = matches!(e, host::Error::MissingKernel(_));
    Some(vec![CheckRow {
        kernel,
        shape: "-".into(),
        pass: !missing,
        max_err: 0.0,
        mismatches: 0,
        ms: 0.0,
        note: if missing {
            format!("{e} (open the context with `host_cli::load_options()`)")
        } else {
            format!("SKIP: {e}")
        },
    }])
}

/// The randomized GEMM sweep: problems `0..count` of `seed` ([`GemmProblem::generate`]: M, N,
/// K in 1..=3000 biased toward tiny / tile-edge / skinny, random transposes, alpha, beta,
/// leading dimensions and base offsets), each through [`Context::sgemm`] (or a forced plan)
/// and cuBLAS on the same inputs, every element within [`gemm_sweep_bound`], C's padding
/// untouched. One summary row (`sgemm sweep`), then one row per failing problem with
/// [`GemmProblem::params`]; nothing when `count == 0`. One progress step per problem.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::gemm_sweep(&ctx, host_cli::check::DEFAULT_SEED, 300, &mut ());
/// assert!(rows[0].pass, "{}", rows[0].note);
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm_sweep(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    gemm_sweep::sweep(ctx, seed, count, progress)
}

/// The problems [`gemm_sweep`] runs for `seed` and `count`, without a GPU.
///
/// ```
/// let ps = host_cli::check::gemm_sweep_problems(12, 300);
/// assert_eq!(ps.len(), 300);
/// assert_eq!(ps[17], host_cli::check::GemmProblem::generate(12, 17));
/// ```
pub fn gemm_sweep_problems(seed: u64, count: usize) -> Vec<GemmProblem> {
    gemm_sweep::problems(seed, count)
}

/// The randomized copy / transpose sweep: shapes `0..count` of `seed`
/// ([`CopyProblem::generate`]: M, N in 1..=5000, every kernel and element type, leading
/// dimensions ≥ the extents, base offsets), each through [`Context::tiled_copy`] or
/// [`Context::transpose`], checked bit-exactly with the padding untouched. One summary row
/// (`tiled_copy sweep`), then one row per failing shape; nothing when `count == 0`.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::copy_sweep(&ctx, host_cli::check::DEFAULT_SEED, 100, &mut ());
/// assert!(rows[0].pass, "{}", rows[0].note);
/// # Ok::<(), host::Error>(())
/// ```
pub fn copy_sweep(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    copy_sweep::sweep(ctx, seed, count, progress)
}

/// The shapes [`copy_sweep`] runs for `seed` and `count`, without a GPU.
///
/// ```
/// let ps = host_cli::check::copy_sweep_problems(12, 100);
/// assert_eq!(ps[5], host_cli::check::CopyProblem::generate(12, 5));
/// ```
pub fn copy_sweep_problems(seed: u64, count: usize) -> Vec<CopyProblem> {
    copy_sweep::problems(seed, count)
}

/// The TMA section (`host run --only tma`): the TMA copies (`kernels/tma`, [`host::CopyInstruction::Tma`])
/// on the fixed awkward shapes, the refusal of a misaligned one before launch, and the first
/// `count` TMA problems of `seed`'s copy sweep (the same shapes, leading dimensions and offsets
/// as in the full sweep), all bit-exact with the padding untouched.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::tma(&ctx, host_cli::check::DEFAULT_SEED, 40, &mut ());
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn tma(ctx: &Context, seed: u64, count: usize, progress: &mut dyn Progress) -> Vec<CheckRow> {
    progress.set_total(1 + count);
    progress.step("TMA copies");
    let mut rows = copy::tma_checks(ctx);
    rows.extend(cluster::checks(ctx, seed));
    let idx = copy_sweep::tma_indices(seed, count);
    rows.extend(copy_sweep::sweep_of(
        ctx,
        seed,
        idx,
        "tma_copy sweep",
        progress,
    ));
    rows
}

/// The smoke kernels: grid-stride copies, ldmatrix + mma.sync, warp shuffles.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// assert!(host_cli::check::smoke(&ctx).iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn smoke(ctx: &Context) -> Vec<CheckRow> {
    smoke::checks(ctx)
}

/// Every tiled copy and transpose on awkward shapes, bit-exact, padding untouched; and the
/// refusal of a misaligned 128-bit copy.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// assert!(host_cli::check::copy(&ctx).iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn copy(ctx: &Context) -> Vec<CheckRow> {
    copy::checks(ctx)
}

/// The bf16/fp16 GEMM ([`Context::hgemm`](host::Context::hgemm)) against cuBLAS GemmEx: fixed
/// edge cases for each majority, argument errors refused before launch, then `count` random
/// problems of `seed` ([`hgemm_sweep_problem`]) as one summary row plus a row per failure. Every
/// element within [`bounds::error_bound`], C's padding untouched.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::hgemm(&ctx, 12, 300);
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn hgemm(ctx: &Context, seed: u64, count: usize) -> Vec<CheckRow> {
    hgemm::checks(ctx, seed, count)
}

/// The wgmma proof kernels (`tests/kernels/wgmma`, sm_90a): every `wgmma_*` entry of the PTX (bf16 /
/// f16, SS / RS, K- / MN-major A and B, INTER / SW32 / SW64 / SW128 atoms, N ∈ {8, 64, 128,
/// 256}) computes a 64×N×64 product from inputs drawn from `seed`, compared bit-exactly with
/// the exact product. One row per configuration ([`WgmmaConfig::describe`]).
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// let rows = host_cli::check::wgmma(&ctx, host_cli::check::fresh_seed());
/// assert!(rows.iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn wgmma(ctx: &Context, seed: u64) -> Vec<CheckRow> {
    wgmma::checks(ctx, seed)
}

/// The wgmma proof configurations the context's PTX has ([`wgmma`]'s rows, in order).
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// assert!(host_cli::check::wgmma_configs(&ctx).iter().any(|c| c.n == 256));
/// # Ok::<(), host::Error>(())
/// ```
pub fn wgmma_configs(ctx: &Context) -> Vec<WgmmaConfig> {
    wgmma::configs(ctx)
}

/// A seed that differs from run to run (the clock's nanoseconds), for checks whose inputs are
/// fresh each run; the rows print it so that it can be given back to reproduce a failure.
///
/// ```
/// assert_ne!(host_cli::check::fresh_seed(), 0);
/// ```
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    Rng::new(t).next_u64() | 1
}

/// The GEMM: irregular sizes × majorities × tiles × split-K vs an f64 CPU reference, larger
/// sizes vs cuBLAS (unless `small_only`, for compute-sanitizer), and argument errors.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// assert!(host_cli::check::gemm(&ctx, true).iter().all(|r| r.pass));
/// # Ok::<(), host::Error>(())
/// ```
pub fn gemm(ctx: &Context, small_only: bool) -> Vec<CheckRow> {
    gemm::checks(ctx, small_only)
}

/// Deterministic xorshift64* bits for test data.
///
/// ```
/// let mut r = host_cli::check::Rng::new(1);
/// let x = r.unit();
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    ///
    /// ```
    /// assert_eq!(host_cli::check::Rng::new(7).next_u64(), host_cli::check::Rng::new(7).next_u64());
    /// ```
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// 64 random bits.
    ///
    /// ```
    /// let _ = host_cli::check::Rng::new(1).next_u64();
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// 32 random bits.
    ///
    /// ```
    /// let _ = host_cli::check::Rng::new(1).next_u32();
    /// ```
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// An integer in `lo..=hi`.
    ///
    /// ```
    /// assert!((-3..=3).contains(&host_cli::check::Rng::new(1).int(-3, 3)));
    /// ```
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1).max(1) as u64;
        (i64::from(lo) + (self.next_u64() % span) as i64) as i32
    }
    /// A finite float in [-1, 1).
    ///
    /// ```
    /// assert!(host_cli::check::Rng::new(3).unit() < 1.0);
    /// ```
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
    /// `n` values from [`Rng::unit`].
    ///
    /// ```
    /// assert_eq!(host_cli::check::Rng::new(3).units(4).len(), 4);
    /// ```
    pub fn units(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.unit()).collect()
    }
}

/// Compares bit patterns; returns (mismatches, max |diff| over the differing pairs).
fn compare(got: &[f32], want: &[f32]) -> (usize, f64) {
    let mut bad = 0;
    let mut max = 0f64;
    for (g, w) in got.iter().zip(want) {
        if g.to_bits() != w.to_bits() {
            bad += 1;
            let d = (*g as f64 - *w as f64).abs();
            max = max.max(if d.is_nan() { f64::INFINITY } else { d });
        }
    }
    bad += got.len().abs_diff(want.len());
    (bad, max)
}

/// "123 GB/s" for launches of at least 1 MiB, else "".
fn gbps(bytes: usize, ms: f32) -> String {
    if ms > 0.0 && bytes >= 1 << 20 {
        format!("{:.0} GB/s", bytes as f64 / (ms as f64 * 1e6))
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_counts_bits_and_length() {
        let (bad, max) = compare(&[1.0, -0.0, 3.0], &[1.0, 0.0, 2.5]);
        assert_eq!(bad, 2);
        assert_eq!(max, 0.5);
        assert_eq!(compare(&[1.0], &[1.0, 2.0]).0, 1);
        assert_eq!(compare(&[f32::NAN], &[1.0]).1, f64::INFINITY);
    }

    #[test]
    fn rng_int_covers_full_range_without_overflow() {
        let mut r = Rng::new(5);
        for _ in 0..100 {
            let _ = r.int(i32::MIN, i32::MAX);
            assert!((0..=1).contains(&r.int(0, 1)));
        }
    }
}
