//! The randomized GEMM sweep of `host run`: problems drawn from a seed, run through
//! [`Context::sgemm`] (or a forced [`Plan`]) on views into larger, poisoned buffers, and
//! compared element by element with cuBLAS SGEMM (no TF32) on the same inputs.
//!
//! # Tolerance
//!
//! Per element of C, with `u = 2⁻²⁴` (fp32 unit roundoff) and `γₙ = n·u / (1 − n·u)`:
//!
//! ```text
//! |ours − cuBLAS| ≤ 2·γ_{K+4} · (|alpha|·Σₖ|a_ik|·|b_kj| + |beta|·|c_ij|)
//! ```
//!
//! (the `|beta|·|c_ij|` term is left out when `beta == 0`, where C holds NaN). Why it is
//! sound: both implementations compute `c_ij` as an fp32 summation tree of the K products
//! (FFMA or multiply + add, in any order), scaled by `alpha`, plus `beta·c_ij`. Any such
//! evaluation equals the exact sum of its terms each perturbed by a factor `(1 + θ)`,
//! `|θ| ≤ γ_d`, where `d` counts the roundings on that term's path, so it is within
//! `γ_{max d}·Σ|terms|` of the exact result. Our kernel: at most K + 1 roundings in the
//! accumulation (K FFMAs; with split-K at most `kc` in a slice plus `⌈K/kc⌉` atomic adds, and
//! `kc + ⌈K/kc⌉ ≤ K + 1`), one for `alpha`, one for adding `beta·c` (whose product is one more
//! on the `c` term): `d ≤ K + 3`. cuBLAS does not document its algorithm; `K + 4` leaves it
//! one more level than ours. Hence each result is within `γ_{K+4}·(|alpha|·Σ|a||b| +
//! |beta|·|c|)` of the exact value, and the two within twice that of each other. This is the
//! worst case (every rounding error of the same sign), so it cannot fail a correct kernel.
//! What it still catches: with inputs in [-1, 1) the bound is about `K²·2⁻²³·|alpha|/4`
//! (0.003 at K = 300, 0.03 at K = 1000, 0.27 at K = 3000), while one dropped, doubled or
//! misplaced product is `|alpha|·|a·b|`, 0.25 on average: beyond the bound on almost every
//! element up to K ≈ 1000 and on about a third of them at K = 3000; a lost k-tile (8
//! products), a wrong row or column, an unapplied alpha or beta, a NaN, fails everywhere.
//! Real rounding errors are far from the worst case (they partly cancel), so the summary
//! row's largest `|ours − cuBLAS| / bound` stays well below 1 and shows a drift long before
//! anything fails.
//!
//! `Σₖ|a_ik|·|b_kj|` is computed on the GPU by cuBLAS on copies of A and B holding absolute
//! values (all terms non-negative, so the fp32 result `S` is at least `(1 − γ_{K+4})` times the
//! exact sum and `S / (1 − γ_{K+4})` bounds it from above): one more GEMM per problem instead
//! of an O(M·N·K) CPU loop, which keeps the 300-problem sweep (M, N, K up to 3000) to seconds.
//!
//! # Problems
//!
//! [`GemmProblem::generate`]: M, N, K in `1..=3000`, each 15 % tiny (≤ 16), 30 % a multiple of
//! 64 or 128 plus −1/0/+1, 15 % 17..=256, 40 % uniform; then 25 % of problems get a K that is
//! not a multiple of 8 and 12 % a skinny shape (one of M, N tiny with the other large, K tiny
//! under a large C, or a large K under a tiny C). Transposes uniform; alpha 1 / −1 / 0 /
//! random in [-2, 2); beta 0 (35 %, C filled with NaN: must not be read) / 1 / −1 / random.
//! Every leading dimension is larger than its minimum: half of them rounded up to a multiple
//! of 4 (vector loads possible), half by 1..=40 more (mostly not a multiple of 4). Each matrix
//! starts 0 (half of them) or 1..=3 elements into its buffer, so 16-byte alignment fails
//! often. A quarter of the problems force a random [`Plan`] (tile, split-K 1..16,
//! rasterization, launch bounds); the rest take [`Context::gemm_plan`]'s. Inputs are in
//! [-1, 1), never 0; the padding of A and B (ld gaps, the elements before and after) holds NaN,
//! so reading it shows; C's padding holds a signalling-NaN pattern that must come back
//! bit-for-bit.

use std::fmt;

use super::sweep::{
    Window, biased_extent, chance, nonzero_unit, par_map, par_ranges, par_runs, sub_seed, uint,
};
use super::{CheckRow, Rng};
use crate::progress::Progress;
use crate::timing::timed;
use host::context::Context;
use host::cublas::Cublas;
use host::error::{Error, Result};
use host::gemm::{GemmConfig, Plan, Tile, Trans};

/// Largest M, N, K of the sweep.
pub const MAX_EXTENT: usize = 3000;

/// What A's and B's padding holds: a quiet NaN, so a kernel that reads it produces NaN.
const AB_PADDING: f32 = f32::from_bits(0x7FC0_0AB0);
/// What C holds inside the matrix when `beta == 0` (must not be read).
const C_POISON: f32 = f32::from_bits(0x7FC0_0C00);
/// What C's padding holds (a signalling-NaN pattern; compared bit-for-bit afterwards).
const C_PADDING: f32 = f32::from_bits(0x7F80_DEAD);

/// After this many problems that end in an error (not a mismatch: a CUDA or cuBLAS error),
/// the sweep stops: the context is likely unusable.
const MAX_ERRORS: usize = 5;

/// fp32 unit roundoff, 2⁻²⁴.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// `γₙ = n·u / (1 − n·u)`; infinite when `n·u ≥ 1/2` (no useful bound).
fn gamma(n: f64) -> f64 {
    if n * U >= 0.5 {
        f64::INFINITY
    } else {
        n * U / (1.0 - n * U)
    }
}

/// The sweep's tolerance factor for inner dimension `k`: `2·γ_{k+4}` (see the module docs);
/// `≈ 2·(k+4)·2⁻²⁴` for the sweep's sizes.
///
/// ```
/// let t = host_cli::check::gemm_sweep_tolerance(3000);
/// assert!(t > 2.0 * 3004.0 / 16777216.0 && t < 3.6e-4);
/// assert!(host_cli::check::gemm_sweep_tolerance(0) > 0.0);
/// ```
pub fn gemm_sweep_tolerance(k: usize) -> f64 {
    2.0 * gamma(k as f64 + 4.0)
}

/// The bound on `|ours − cuBLAS|` for one element of C: `gemm_sweep_tolerance(K)·(|alpha|·Σ|a||b|
/// + |beta|·|c|)`, where `abs_ab` is `Σₖ|a_ik||b_kj|` as computed in fp32 (scaled up by
/// `1/(1 − γ_{K+4})` to bound the exact sum) and `c` the element of C before the call (not
/// used when `beta == 0`, so a NaN there does no harm).
///
/// ```
/// use host::GemmConfig;
/// use host_cli::check::{gemm_sweep_bound, gemm_sweep_tolerance};
/// let g = GemmConfig::new(4, 4, 100).alpha(-2.0).beta(0.5);
/// let b = gemm_sweep_bound(&g, 10.0, -4.0);
/// assert!(b >= gemm_sweep_tolerance(100) * (2.0 * 10.0 + 0.5 * 4.0));
/// assert_eq!(gemm_sweep_bound(&g.beta(0.0).alpha(0.0), f32::NAN, f32::NAN), 0.0);
/// ```
pub fn gemm_sweep_bound(g: &GemmConfig, abs_ab: f32, c: f32) -> f64 {
    Bound::new(g).at(abs_ab, c)
}

/// [`gemm_sweep_bound`] with the per-problem factors computed once.
#[derive(Clone, Copy, Debug)]
struct Bound {
    /// `gemm_sweep_tolerance(K)`.
    tol: f64,
    /// `|alpha| / (1 − γ_{K+4})`, 0 when `alpha == 0`.
    ab: f64,
    /// `|beta|`.
    beta: f64,
}

impl Bound {
    fn new(g: &GemmConfig) -> Bound {
        Bound {
            tol: gemm_sweep_tolerance(g.k),
            ab: if g.alpha == 0.0 {
                0.0
            } else {
                f64::from(g.alpha).abs() / (1.0 - gamma(g.k as f64 + 4.0))
            },
            beta: f64::from(g.beta).abs(),
        }
    }

    fn at(&self, abs_ab: f32, c: f32) -> f64 {
        let ab = if self.ab == 0.0 {
            0.0
        } else {
            self.ab * f64::from(abs_ab)
        };
        let cterm = if self.beta == 0.0 {
            0.0
        } else {
            self.beta * f64::from(c).abs()
        };
        self.tol * (ab + cterm)
    }
}

/// One problem of the GEMM sweep: the arguments, where each matrix starts in its buffer, and
/// the plan (if forced). The same `(seed, index)` always gives the same problem and data.
///
/// ```
/// use host_cli::check::GemmProblem;
/// let p = GemmProblem::generate(12, 17);
/// assert_eq!(p, GemmProblem::generate(12, 17));
/// assert!(p.g.lda > 0 && p.offsets.iter().all(|&o| o <= 3));
/// println!("{}: {}", p.label(), p.params());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmProblem {
    /// The seed it was drawn from (also seeds its data).
    pub seed: u64,
    /// Its position in the sweep.
    pub index: usize,
    /// The cuBLAS-style arguments.
    pub g: GemmConfig,
    /// Elements before A, B, C in their buffers (0..=3; anything but 0 breaks 16-byte
    /// alignment).
    pub offsets: [usize; 3],
    /// The plan to force; `None`: [`Context::gemm_plan`]'s choice.
    pub plan: Option<Plan>,
}

/// The tile sizes whose edges [`biased_extent`] aims at: the two CTA tiles.
const TILES: [usize; 2] = [64, 128];

/// A leading dimension larger than `min`: half the time the next multiple of 4 above it
/// (plus 0..=12), else `min + 1..=40`.
fn leading(r: &mut Rng, min: usize) -> usize {
    if chance(r, 50) {
        (min + 1).next_multiple_of(4) + 4 * uint(r, 0, 3)
    } else {
        min + uint(r, 1, 40)
    }
}

fn scale(r: &mut Rng, zero_percent: u64) -> f32 {
    if chance(r, zero_percent) {
        return 0.0;
    }
    match r.next_u64() % 4 {
        0 | 1 => 1.0,
        2 => -1.0,
        _ => 2.0 * nonzero_unit(r),
    }
}

impl GemmProblem {
    /// Problem `index` of the sweep with `seed` (see the module docs for the distributions).
    ///
    /// ```
    /// let p = host_cli::check::GemmProblem::generate(1, 0);
    /// let (m, n, k) = (p.g.m, p.g.n, p.g.k);
    /// assert!([m, n, k].iter().all(|x| (1..=3000).contains(x)));
    /// ```
    pub fn generate(seed: u64, index: usize) -> GemmProblem {
        let mut r = Rng::new(sub_seed(seed, index, 0));
        let r = &mut r;
        let mut m = biased_extent(r, MAX_EXTENT, &TILES);
        let mut n = biased_extent(r, MAX_EXTENT, &TILES);
        let mut k = biased_extent(r, MAX_EXTENT, &TILES);
        if chance(r, 25) {
            k = 8 * uint(r, 0, MAX_EXTENT / 8 - 1) + uint(r, 1, 7);
        }
        if chance(r, 12) {
            let (tiny, large) = (uint(r, 1, 8), uint(r, 1024, MAX_EXTENT));
            match r.next_u64() % 4 {
                0 => (m, n) = (tiny, large),
                1 => (m, n) = (large, tiny),
                2 => (m, n, k) = (large, uint(r, 1024, MAX_EXTENT), tiny),
                _ => (m, n, k) = (tiny, uint(r, 1, 8), large),
            }
        }
        let t = |r: &mut Rng| if chance(r, 50) { Trans::T } else { Trans::N };
        let (ta, tb) = (t(r), t(r));
        let alpha = scale(r, 5);
        let beta = scale(r, 35);
        let mut g = GemmConfig::new(m, n, k)
            .trans(ta, tb)
            .alpha(alpha)
            .beta(beta);
        g.lda = leading(r, g.lda);
        g.ldb = leading(r, g.ldb);
        g.ldc = leading(r, g.ldc);
        let mut offsets = [0; 3];
        for o in &mut offsets {
            *o = if chance(r, 50) { 0 } else { uint(r, 1, 3) };
        }
        let plan = chance(r, 25).then(|| Plan {
            tile: Tile::ALL[uint(r, 0, Tile::ALL.len() - 1)],
            split: [1, 1, 2, 3, 4, 7, 16][uint(r, 0, 6)],
            rast_n: chance(r, 50),
            one_cta: chance(r, 50),
        });
        GemmProblem {
            seed,
            index,
            g,
            offsets,
            plan,
        }
    }

    /// Where A, B and C lie in their buffers.
    ///
    /// ```
    /// let p = host_cli::check::GemmProblem::generate(12, 0);
    /// let [_, _, c] = p.windows();
    /// assert_eq!((c.inner, c.outer, c.ld, c.offset), (p.g.m, p.g.n, p.g.ldc, p.offsets[2]));
    /// ```
    pub fn windows(&self) -> [Window; 3] {
        let g = &self.g;
        let (ar, ac) = match g.transa {
            Trans::N => (g.m, g.k),
            Trans::T => (g.k, g.m),
        };
        let (br, bc) = match g.transb {
            Trans::N => (g.k, g.n),
            Trans::T => (g.n, g.k),
        };
        let w = |offset, inner, outer, ld| Window {
            offset,
            inner,
            outer,
            ld,
        };
        [
            w(self.offsets[0], ar, ac, g.lda),
            w(self.offsets[1], br, bc, g.ldb),
            w(self.offsets[2], g.m, g.n, g.ldc),
        ]
    }

    /// `#17 1000x1030x999 TN`: the table's shape column.
    ///
    /// ```
    /// let p = host_cli::check::GemmProblem::generate(12, 17);
    /// assert!(p.label().starts_with("#17 "));
    /// ```
    pub fn label(&self) -> String {
        format!("#{} {}", self.index, self.g)
    }

    /// Everything needed to rebuild it: seed, index, scalars, leading dimensions, offsets,
    /// plan.
    ///
    /// ```
    /// let p = host_cli::check::GemmProblem::generate(12, 3);
    /// assert!(p.params().starts_with("seed=12 #3 "));
    /// ```
    pub fn params(&self) -> String {
        let g = &self.g;
        let plan = self.plan.map_or("auto".to_string(), |p| p.to_string());
        format!(
            "seed={} #{} {g} alpha={} beta={} lda={} ldb={} ldc={} offsets(A,B,C)={},{},{} plan={plan}",
            self.seed,
            self.index,
            g.alpha,
            g.beta,
            g.lda,
            g.ldb,
            g.ldc,
            self.offsets[0],
            self.offsets[1],
            self.offsets[2]
        )
    }

    /// The host buffers: A and B (inputs in [-1, 1), never 0, NaN padding) and C (random, or
    /// NaN when `beta == 0`, inside; a fixed bit pattern in the padding). Each run (column of
    /// a stored matrix) has its own seed, so the data is the same however many threads fill it.
    fn data(&self) -> [Vec<f32>; 3] {
        let [wa, wb, wc] = self.windows();
        let fill = |w: &Window, padding: f32, matrix: u64, inside: Option<f32>| {
            let mut v = vec![padding; w.buffer_len()];
            par_runs(w, &mut v, |j, run| match inside {
                Some(x) => run.fill(x),
                None => {
                    let stream = (matrix << 32) | j as u64;
                    let mut r = Rng::new(sub_seed(self.seed, self.index, stream));
                    run.iter_mut().for_each(|x| *x = nonzero_unit(&mut r));
                }
            });
            v
        };
        let c_inside = (self.g.beta == 0.0).then_some(C_POISON);
        [
            fill(&wa, AB_PADDING, 1, None),
            fill(&wb, AB_PADDING, 2, None),
            fill(&wc, C_PADDING, 3, c_inside),
        ]
    }
}

impl fmt::Display for GemmProblem {
    /// [`GemmProblem::params`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.params())
    }
}

/// The first `count` problems of the sweep with `seed`.
pub(super) fn problems(seed: u64, count: usize) -> Vec<GemmProblem> {
    (0..count).map(|i| GemmProblem::generate(seed, i)).collect()
}

/// How one problem compared.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Comparison {
    /// Elements of C beyond the bound (or NaN, or missing).
    pub beyond: usize,
    /// Elements outside C's window that changed.
    pub padding: usize,
    /// Largest `|ours − cuBLAS| / bound` (infinite for NaN or a nonzero difference under a
    /// zero bound).
    pub max_ratio: f64,
    /// The first element with the largest ratio: `(i, j, ours, cuBLAS, bound)`.
    pub worst: Option<(usize, usize, f32, f32, f64)>,
    /// Its ratio.
    pub worst_ratio: f64,
}

impl Comparison {
    fn pass(&self) -> bool {
        self.beyond == 0 && self.padding == 0
    }
}

/// Compares our C (`got`, the whole buffer) with cuBLAS's (`want`, same geometry) under
/// [`gemm_sweep_bound`], given `abs_ab` (`Σ|a||b|`, tight M×N column-major) and C before the
/// call (`before`); counts writes outside C's window.
pub(crate) fn compare(
    p: &GemmProblem,
    got: &[f32],
    want: &[f32],
    abs_ab: &[f32],
    before: &[f32],
) -> Comparison {
    let g = &p.g;
    let wc = p.windows()[2];
    let limit = Bound::new(g);
    let columns = |cols: std::ops::Range<usize>| {
        let mut cmp = Comparison::default();
        for j in cols {
            for i in 0..g.m {
                let idx = wc.index(i, j);
                let (Some(&x), Some(&y), Some(&c0), Some(&s)) = (
                    got.get(idx),
                    want.get(idx),
                    before.get(idx),
                    abs_ab.get(i + j * g.m),
                ) else {
                    cmp.beyond += 1;
                    cmp.max_ratio = f64::INFINITY;
                    continue;
                };
                let bound = limit.at(s, c0);
                let d = (f64::from(x) - f64::from(y)).abs();
                let ratio = if d == 0.0 {
                    0.0
                } else if d.is_nan() || bound.is_nan() || bound == 0.0 {
                    f64::INFINITY
                } else {
                    d / bound
                };
                if d.is_nan() || bound.is_nan() || d > bound {
                    cmp.beyond += 1;
                }
                cmp.max_ratio = cmp.max_ratio.max(ratio);
                if cmp.worst.is_none() || ratio > cmp.worst_ratio {
                    cmp.worst = Some((i, j, x, y, bound));
                    cmp.worst_ratio = ratio;
                }
            }
        }
        cmp
    };
    // column ranges in order; the first largest ratio wins, as in one sequential pass
    let mut cmp = Comparison::default();
    for part in par_ranges(g.n, g.m * g.n, columns) {
        cmp.beyond += part.beyond;
        if part.worst.is_some() && (cmp.worst.is_none() || part.worst_ratio > cmp.worst_ratio) {
            cmp.worst = part.worst;
            cmp.worst_ratio = part.worst_ratio;
        }
        cmp.max_ratio = cmp.max_ratio.max(part.max_ratio);
    }
    cmp.padding = wc.padding_writes(got, before);
    cmp
}

/// Runs problem `p`: ours and cuBLAS on the same views, cuBLAS on `|A|`, `|B|`; compares.
/// Returns the plan used, our GPU time and the comparison.
fn run_one(ctx: &Context, blas: &Cublas, p: &GemmProblem) -> Result<(Plan, f32, Comparison)> {
    let s = blas.stream();
    let g = &p.g;
    let [wa, wb, wc] = p.windows();
    let plan = p.plan.unwrap_or_else(|| ctx.gemm_plan(g));
    let [a, b, c] = p.data();
    let abs = |v: &[f32]| par_map(v, |x| x.abs());
    let da = s.clone_htod(&a)?;
    let db = s.clone_htod(&b)?;
    let da_abs = s.clone_htod(&abs(&a))?;
    let db_abs = s.clone_htod(&abs(&b))?;
    let mut dc = s.clone_htod(&c)?;
    let mut dr = s.clone_htod(&c)?;
    let mut ds = s.alloc_zeros::<f32>((g.m * g.n).max(1))?;
    let outside = || Error::Unsupported(format!("{}: offset past the buffer", p.label()));
    let va = da.try_slice(wa.offset..).ok_or_else(outside)?;
    let vb = db.try_slice(wb.offset..).ok_or_else(outside)?;
    let ms = {
        let mut vc = dc.try_slice_mut(wc.offset..).ok_or_else(outside)?;
        timed(s, || ctx.sgemm_with_plan(s, plan, g, &va, &vb, &mut vc))?
    };
    {
        let mut vr = dr.try_slice_mut(wc.offset..).ok_or_else(outside)?;
        blas.sgemm(g, &va, &vb, &mut vr)?;
    }
    let g_abs = GemmConfig {
        alpha: 1.0,
        beta: 0.0,
        ldc: g.m.max(1),
        ..*g
    };
    let va_abs = da_abs.try_slice(wa.offset..).ok_or_else(outside)?;
    let vb_abs = db_abs.try_slice(wb.offset..).ok_or_else(outside)?;
    blas.sgemm(&g_abs, &va_abs, &vb_abs, &mut ds)?;
    let got = s.clone_dtoh(&dc)?;
    let want = s.clone_dtoh(&dr)?;
    let abs_ab = s.clone_dtoh(&ds)?;
    Ok((plan, ms, compare(p, &got, &want, &abs_ab, &c)))
}

/// The row of a problem that failed (mismatch or error), with everything needed to rebuild it.
fn failed_row(p: &GemmProblem, plan: Option<Plan>, ms: f32, what: String) -> CheckRow {
    CheckRow {
        kernel: plan.map_or("sgemm", |pl| pl.tile.name()),
        shape: p.label(),
        pass: false,
        max_err: f64::NAN,
        mismatches: 0,
        ms,
        note: format!("{}: {what}", p.params()),
    }
}

/// The sweep: `count` problems from `seed`, one progress step each; a summary row first, then
/// a row per failing problem.
pub(super) fn sweep(
    ctx: &Context,
    seed: u64,
    count: usize,
    progress: &mut dyn Progress,
) -> Vec<CheckRow> {
    if count == 0 {
        return Vec::new();
    }
    let title = format!("{count} problems seed={seed}");
    let blas = match ctx
        .load_gemm()
        .and_then(|()| Cublas::new(ctx, ctx.default_stream()))
    {
        Ok(b) => b,
        Err(e) => return vec![CheckRow::failed("sgemm sweep", title, e.to_string())],
    };
    let mut failures = Vec::new();
    let (mut max_ratio, mut total_ms, mut errors) = (0f64, 0f32, 0usize);
    let (mut forced, mut split, mut done) = (0usize, 0usize, 0usize);
    for i in 0..count {
        let p = GemmProblem::generate(seed, i);
        progress.step(&format!("sgemm sweep {}/{count}: {}", i + 1, p.g));
        match run_one(ctx, &blas, &p) {
            Ok((plan, ms, cmp)) => {
                total_ms += ms;
                forced += usize::from(p.plan.is_some());
                split += usize::from(plan.split > 1);
                max_ratio = max_ratio.max(cmp.max_ratio);
                if !cmp.pass() {
                    let worst = cmp.worst.map_or(String::new(), |(i, j, x, y, b)| {
                        format!("; worst C({i},{j}): ours {x:e} cuBLAS {y:e} bound {b:.2e}")
                    });
                    let mut row = failed_row(
                        &p,
                        Some(plan),
                        ms,
                        format!(
                            "ran {plan}; {} elements beyond the bound, {} padding writes{worst}",
                            cmp.beyond, cmp.padding
                        ),
                    );
                    row.max_err = cmp.max_ratio;
                    row.mismatches = cmp.beyond + cmp.padding;
                    failures.push(row);
                }
            }
            Err(e) => {
                errors += 1;
                failures.push(failed_row(&p, p.plan, 0.0, e.to_string()));
            }
        }
        done += 1;
        if errors >= MAX_ERRORS {
            break;
        }
    }
    let stopped = if done < count {
        format!("; stopped after {done} problems ({errors} errors)")
    } else {
        String::new()
    };
    let summary = CheckRow {
        kernel: "sgemm sweep",
        shape: title,
        pass: failures.is_empty() && done == count,
        max_err: max_ratio,
        mismatches: failures.len(),
        ms: total_ms,
        note: format!(
            "vs cuBLAS: |ours-ref| <= 2*gamma(K+4)*(|alpha|*sum|a||b| + |beta|*|c|), max |err|/bound \
             {max_ratio:.2e}; {} failed; {forced} forced plans, {split} split-K; C padding \
             untouched{stopped}",
            failures.len()
        ),
    };
    let mut rows = vec![summary];
    rows.extend(failures);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default sweep's problems.
    fn default_problems() -> Vec<GemmProblem> {
        problems(super::super::sweep::DEFAULT_SEED, 300)
    }

    #[test]
    fn problems_are_deterministic_and_seeded() {
        let a = problems(12, 300);
        assert_eq!(a, problems(12, 300));
        assert_eq!(a[..10], problems(12, 10)[..]);
        let b = problems(13, 300);
        assert!(a.iter().zip(&b).filter(|(x, y)| x.g == y.g).count() < 5);
        // each problem alone is the same as in the list, and so is its data
        assert_eq!(GemmProblem::generate(12, 123), a[123]);
        let bits = |p: &GemmProblem| {
            p.data()
                .map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
        };
        assert!(bits(&a[7]) == bits(&GemmProblem::generate(12, 7)));
        assert!(bits(&a[7]) != bits(&b[7]));
    }

    #[test]
    fn problems_stay_within_the_stated_ranges() {
        for seed in [0, 1, 12, u64::MAX] {
            for p in problems(seed, 300) {
                let g = &p.g;
                for x in [g.m, g.n, g.k] {
                    assert!((1..=MAX_EXTENT).contains(&x), "{p}");
                }
                let [wa, wb, wc] = p.windows();
                // leading dimensions strictly larger than the extents
                for w in [wa, wb, wc] {
                    assert!(w.ld > w.inner, "{p}");
                }
                assert!(p.offsets.iter().all(|&o| o <= 3), "{p}");
                // the views handed to the kernels are valid arguments
                g.validate(wa.view_len(), wb.view_len(), wc.view_len())
                    .unwrap_or_else(|e| panic!("{p}: {e}"));
                assert!(g.alpha.is_finite() && g.beta.is_finite());
                assert!((-2.0..=2.0).contains(&g.alpha) && (-2.0..=2.0).contains(&g.beta));
                if let Some(plan) = p.plan {
                    assert!((1..=16).contains(&plan.split), "{p}");
                }
            }
        }
    }

    #[test]
    fn the_default_sweep_covers_every_interesting_case() {
        let ps = default_problems();
        let count = |f: &dyn Fn(&GemmProblem) -> bool| ps.iter().filter(|p| f(p)).count();
        for ta in [Trans::N, Trans::T] {
            for tb in [Trans::N, Trans::T] {
                let c = count(&|p| (p.g.transa, p.g.transb) == (ta, tb));
                assert!(c >= 40, "{ta}{tb}: {c}");
            }
        }
        let dims = |p: &GemmProblem| [p.g.m, p.g.n, p.g.k];
        assert!(count(&|p| dims(p).iter().any(|&x| x <= 16)) >= 60);
        assert!(count(&|p| dims(p).iter().all(|&x| x <= 16)) >= 1);
        for t in TILES {
            for edge in [t - 1, 0, 1] {
                let c = count(&|p| dims(p).iter().any(|&x| x > 16 && x % t == edge));
                assert!(c >= 10, "tile {t} edge {edge}: {c}");
            }
        }
        assert!(count(&|p| p.g.k % 8 != 0) >= 150);
        assert!(count(&|p| p.g.m.min(p.g.n) <= 8 && p.g.m.max(p.g.n) >= 1024) >= 10);
        assert!(count(&|p| p.g.m >= 1024 && p.g.n >= 1024 && p.g.k <= 8) >= 3);
        assert!(count(&|p| p.g.flops() >= 2e9) >= 20, "large problems");
        assert!(count(&|p| dims(p).contains(&1)) >= 5);
        assert!(count(&|p| p.g.beta == 0.0) >= 80);
        assert!(count(&|p| p.g.alpha == 0.0) >= 3);
        assert!(count(&|p| p.g.alpha == 1.0 && p.g.beta == 1.0) >= 10);
        assert!(count(&|p| p.g.alpha < 0.0) >= 40);
        assert!(count(&|p| p.g.beta < 0.0) >= 40);
        assert!(count(&|p| p.g.alpha.fract() != 0.0) >= 40);
        assert!(count(&|p| p.g.ldc % 4 != 0) >= 80);
        assert!(count(&|p| p.g.lda % 4 == 0 && p.g.ldb % 4 == 0) >= 40);
        for which in 0..3 {
            assert!(count(&|p| p.offsets[which] != 0) >= 100);
        }
        assert!(count(&|p| p.offsets == [0, 0, 0]) >= 20);
        assert!(count(&|p| p.plan.is_some()) >= 50);
        assert!(count(&|p| p.plan.is_some_and(|pl| pl.split > 1)) >= 20);
        assert!(count(&|p| p.plan.is_some_and(|pl| pl.tile == Tile::M64N64K8)) >= 20);
    }

    /// The sweep's host work (generating, copying, comparing) scales with the elements it
    /// moves; this keeps the default sweep well under a minute on any GPU machine.
    #[test]
    fn the_default_sweep_is_cheap_enough() {
        let mut elems = 0usize;
        let mut flops = 0f64;
        for p in default_problems() {
            let [wa, wb, wc] = p.windows();
            // up: A, |A|, B, |B|, C twice; down: C twice and |A||B|
            elems += 2 * (wa.buffer_len() + wb.buffer_len()) + 4 * wc.buffer_len();
            elems += p.g.m * p.g.n;
            flops += 3.0 * p.g.flops();
        }
        // seed 12: 2.2e9 elements (8.8 GB over PCIe, about a second) and 1.3 TFLOP (well under a
        // second at cuBLAS speed); generating and comparing them on the host took 10 s (release)
        // on the loaded 2-core development machine, and is spread over all cores
        assert!(elems < 2_500_000_000, "{elems} elements");
        assert!(flops < 3e12, "{flops} flop");
    }

    #[test]
    fn data_is_nonzero_inside_and_poisoned_outside() {
        let p = problems(12, 40)
            .into_iter()
            .find(|p| p.g.beta == 0.0 && p.offsets[2] > 0 && p.g.m * p.g.n < 1 << 20)
            .expect("a beta = 0 problem with a C offset among the first 40");
        let [a, b, c] = p.data();
        let [wa, wb, wc] = p.windows();
        for (buf, w) in [(&a, wa), (&b, wb)] {
            assert_eq!(buf.len(), w.buffer_len());
            for (idx, x) in buf.iter().enumerate() {
                match w.coords(idx) {
                    Some(_) => assert!(*x != 0.0 && (-1.0..1.0).contains(x), "{p}"),
                    None => assert_eq!(x.to_bits(), AB_PADDING.to_bits()),
                }
            }
        }
        for (idx, x) in c.iter().enumerate() {
            let want = if wc.coords(idx).is_some() {
                C_POISON
            } else {
                C_PADDING
            };
            assert_eq!(x.to_bits(), want.to_bits());
        }
        let q = problems(12, 40)
            .into_iter()
            .find(|p| p.g.beta != 0.0 && p.g.m * p.g.n < 1 << 20)
            .expect("a beta != 0 problem among the first 40");
        let [_, _, c] = q.data();
        let wc = q.windows()[2];
        for (idx, x) in c.iter().enumerate() {
            if wc.coords(idx).is_some() {
                assert!(*x != 0.0 && x.is_finite());
            } else {
                assert_eq!(x.to_bits(), C_PADDING.to_bits());
            }
        }
    }

    #[test]
    fn tolerance_is_two_gamma_k_plus_4() {
        for k in [1usize, 8, 999, 3000] {
            let n = k as f64 + 4.0;
            let want = 2.0 * n * U / (1.0 - n * U);
            assert!((gemm_sweep_tolerance(k) - want).abs() <= 1e-15 * want);
            assert!(gemm_sweep_tolerance(k) < gemm_sweep_tolerance(k + 1));
        }
        // c·K·2^-24 with c ≈ 2
        let t = gemm_sweep_tolerance(3000);
        assert!(t > 2.0 * 3000.0 * U && t < 2.01 * 3004.0 * U, "{t}");
        // no bound at all for absurd K
        assert_eq!(gemm_sweep_tolerance(1 << 40), f64::INFINITY);
    }

    #[test]
    fn bound_terms() {
        let g = GemmConfig::new(2, 2, 10).alpha(-3.0).beta(0.5);
        let t = gemm_sweep_tolerance(10);
        let b = gemm_sweep_bound(&g, 4.0, -2.0);
        let s = 4.0 / (1.0 - gamma(14.0));
        assert!((b - t * (3.0 * s + 1.0)).abs() < 1e-18);
        assert!(b > t * 13.0);
        // beta = 0: C is not read, a NaN there does not reach the bound
        let g0 = g.beta(0.0);
        assert!(gemm_sweep_bound(&g0, 4.0, f32::NAN).is_finite());
        // alpha = 0: only beta·c
        let ga = g.alpha(0.0);
        assert_eq!(gemm_sweep_bound(&ga, f32::NAN, -2.0), t * 1.0);
    }

    /// op(A)(i, l) in the buffer of `p`.
    fn op_a(p: &GemmProblem, a: &[f32], i: usize, l: usize) -> f32 {
        let wa = p.windows()[0];
        match p.g.transa {
            Trans::N => a[wa.index(i, l)],
            Trans::T => a[wa.index(l, i)],
        }
    }

    /// op(B)(l, j) in the buffer of `p`.
    fn op_b(p: &GemmProblem, b: &[f32], l: usize, j: usize) -> f32 {
        let wb = p.windows()[1];
        match p.g.transb {
            Trans::N => b[wb.index(l, j)],
            Trans::T => b[wb.index(j, l)],
        }
    }

    /// An f64 reference of `C = alpha·op(A)·op(B) + beta·C` on the buffers of `p`, written
    /// into a copy of `c` (padding untouched), plus `Σ|a||b|` tight.
    fn cpu(p: &GemmProblem, a: &[f32], b: &[f32], c: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let g = &p.g;
        let wc = p.windows()[2];
        let at = |i, l| op_a(p, a, i, l) as f64;
        let bt = |l, j| op_b(p, b, l, j) as f64;
        let mut out = c.to_vec();
        let mut abs = vec![0f32; g.m * g.n];
        for j in 0..g.n {
            for i in 0..g.m {
                let (mut s, mut sa) = (0f64, 0f64);
                for l in 0..g.k {
                    s += at(i, l) * bt(l, j);
                    sa += (at(i, l) * bt(l, j)).abs();
                }
                let idx = wc.index(i, j);
                let cterm = if g.beta == 0.0 {
                    0.0
                } else {
                    g.beta as f64 * c[idx] as f64
                };
                out[idx] = (g.alpha as f64 * s + cterm) as f32;
                abs[i + j * g.m] = sa as f32;
            }
        }
        (out, abs)
    }

    /// A small problem of the sweep with the given beta (zero or not) and a C offset.
    fn small(beta_zero: bool) -> GemmProblem {
        let mut p = (0..)
            .map(|i| GemmProblem::generate(12, i))
            .find(|p| {
                (p.g.beta == 0.0) == beta_zero
                    && p.g.alpha != 0.0
                    && p.g.m * p.g.n * p.g.k < 200_000
                    && p.g.k > 8
            })
            .unwrap();
        p.offsets[2] = 2;
        p
    }

    #[test]
    fn comparison_passes_a_correct_result_and_catches_errors() {
        for beta_zero in [true, false] {
            let p = small(beta_zero);
            let [a, b, c] = p.data();
            let (want, abs) = cpu(&p, &a, &b, &c);
            let wc = p.windows()[2];
            let ok = compare(&p, &want, &want, &abs, &c);
            assert!(ok.pass() && ok.max_ratio == 0.0, "{p}: {ok:?}");
            // rounding-sized differences pass, with a ratio well under 1
            let mut got = want.clone();
            for j in 0..p.g.n {
                for i in 0..p.g.m {
                    let x = &mut got[wc.index(i, j)];
                    *x = f32::from_bits(x.to_bits() ^ 1);
                }
            }
            let near = compare(&p, &got, &want, &abs, &c);
            assert!(near.pass(), "{p}: {near:?}");
            assert!(near.max_ratio > 0.0 && near.max_ratio < 0.1, "{near:?}");
            // C(0,0) without its largest product: beyond the bound
            let mut dropped = want.clone();
            let term = (0..p.g.k)
                .map(|l| p.g.alpha * op_a(&p, &a, 0, l) * op_b(&p, &b, l, 0))
                .max_by(|x, y| x.abs().total_cmp(&y.abs()))
                .unwrap();
            dropped[wc.index(0, 0)] -= term;
            let bad = compare(&p, &dropped, &want, &abs, &c);
            assert_eq!((bad.beyond, bad.padding), (1, 0), "{p}: term {term}");
            assert!(bad.max_ratio > 1.0);
            assert_eq!(bad.worst.map(|w| (w.0, w.1)), Some((0, 0)));
            // a NaN (e.g. C read although beta == 0) fails
            let mut nan = want.clone();
            nan[wc.index(p.g.m - 1, p.g.n - 1)] = f32::NAN;
            let bad = compare(&p, &nan, &want, &abs, &c);
            assert_eq!(bad.beyond, 1);
            assert_eq!(bad.max_ratio, f64::INFINITY);
            // writes into the ld gap, before the matrix, past its end
            for idx in [wc.index(p.g.m, 0), 0, wc.offset - 1, wc.buffer_len() - 1] {
                let mut pad = want.clone();
                pad[idx] = 0.0;
                let bad = compare(&p, &pad, &want, &abs, &c);
                assert_eq!((bad.beyond, bad.padding), (0, 1), "index {idx}");
            }
            // a short result is a failure, not a panic
            let short = compare(&p, &want[..wc.offset + 1], &want, &abs, &c);
            assert!(!short.pass());
        }
    }

    /// A summation order: `(term(l), K) -> Σ term(l)` in fp32.
    type Order = dyn Fn(&dyn Fn(usize) -> f32, usize) -> f32;

    /// fp32 evaluations in different orders (forward FFMA like our kernel, backward, split-K
    /// slices added at the end like the atomics) stay within the bound of each other and of
    /// the f64 reference, with room to spare: the bound holds for real rounding.
    #[test]
    fn fp32_summation_orders_stay_within_the_bound() {
        for beta_zero in [true, false] {
            let p = small(beta_zero);
            let g = &p.g;
            let [a, b, c] = p.data();
            let (exact, abs) = cpu(&p, &a, &b, &c);
            let wc = p.windows()[2];
            let eval = |order: &Order| {
                let mut out = c.clone();
                for j in 0..g.n {
                    for i in 0..g.m {
                        let t = |l: usize| op_a(&p, &a, i, l) * op_b(&p, &b, l, j);
                        let acc = order(&t, g.k);
                        let idx = wc.index(i, j);
                        let ab = g.alpha * acc;
                        out[idx] = if g.beta == 0.0 {
                            ab
                        } else {
                            g.beta.mul_add(c[idx], ab)
                        };
                    }
                }
                out
            };
            let forward = eval(&|t, k| {
                let mut acc = 0f32;
                for l in 0..k {
                    acc += t(l);
                }
                acc
            });
            let backward = eval(&|t, k| (0..k).rev().fold(0f32, |acc, l| acc + t(l)));
            let sliced = eval(&|t, k| {
                (0..k)
                    .step_by(8)
                    .map(|l0| (l0..(l0 + 8).min(k)).fold(0f32, |acc, l| acc + t(l)))
                    .fold(0f32, |acc, s| acc + s)
            });
            for (x, y) in [
                (&forward, &exact),
                (&backward, &exact),
                (&sliced, &forward),
                (&backward, &sliced),
            ] {
                let cmp = compare(&p, x, y, &abs, &c);
                assert!(cmp.pass() && cmp.max_ratio < 0.5, "{p}: {cmp:?}");
            }
        }
    }

    /// A large C is compared on several threads: the same counts, the same worst element.
    #[test]
    fn parallel_comparison_matches_the_sequential_one() {
        let p = problems(12, 300)
            .into_iter()
            .find(|p| p.g.m * p.g.n > 1 << 20 && p.g.n > 64 && p.g.alpha != 0.0)
            .expect("a large problem");
        let wc = p.windows()[2];
        let before = vec![0.5f32; wc.buffer_len()];
        let abs = vec![1.0f32; p.g.m * p.g.n];
        let want = before.clone();
        let mut got = want.clone();
        // differences in a few columns, the largest twice (the first one must be reported)
        let b = gemm_sweep_bound(&p.g, 1.0, 0.5);
        for (i, j, f) in [
            (1, 3, 0.5),
            (0, p.g.n / 2, 3.0),
            (2, p.g.n - 1, 3.0),
            (5, 7, 2.0),
        ] {
            got[wc.index(i, j)] = 0.5 + (f * b) as f32;
        }
        let cmp = compare(&p, &got, &want, &abs, &before);
        assert_eq!(cmp.beyond, 3, "{cmp:?}");
        assert_eq!(cmp.worst.map(|w| (w.0, w.1)), Some((0, p.g.n / 2)));
        assert!(cmp.max_ratio > 2.5 && cmp.max_ratio < 3.5);
        // a missing element keeps the ratio infinite
        let short = compare(&p, &got[..wc.index(0, 1)], &want, &abs, &before);
        assert_eq!(short.max_ratio, f64::INFINITY);
    }

    #[test]
    fn beta_zero_ignores_the_poisoned_c() {
        let p = small(true);
        let [a, b, c] = p.data();
        let (want, abs) = cpu(&p, &a, &b, &c);
        assert!(
            want.iter()
                .enumerate()
                .all(|(idx, x)| p.windows()[2].coords(idx).is_none() || x.is_finite())
        );
        // the bound never involves the NaN in C
        let cmp = compare(&p, &want, &want, &abs, &c);
        assert!(cmp.pass());
        let labels = (p.label(), p.params());
        assert!(labels.1.contains("beta=0 ") && labels.1.contains(&labels.0[1..]));
    }
}
