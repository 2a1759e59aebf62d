//! GPU time of queued work, measured with CUDA events on the stream.

use host::cudarc::driver::{CudaStream, sys::CUevent_flags};

use host::error::Result;

/// Runs `f` (which queues work on `stream`) between two events; the GPU time in ms.
pub(crate) fn timed(stream: &CudaStream, f: impl FnOnce() -> Result<()>) -> Result<f32> {
    let start = stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    f()?;
    let end = stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    Ok(start.elapsed_ms(&end)?)
}

/// Median GPU time (ms) of `f` over enough launches (≥ 5, ~150 ms in all, ≤ 50), each timed
/// alone, after a warm-up.
pub(crate) fn median_ms(stream: &CudaStream, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let first = timed(stream, &mut f)? as f64;
    let reps = ((150.0 / first.max(1e-3)) as usize).clamp(5, 50);
    let mut t = Vec::with_capacity(reps);
    for _ in 0..reps {
        t.push(timed(stream, &mut f)? as f64);
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

/// Median GPU time (ms) per launch of `a` and of `b`, timed launch by launch in turn (`a b`,
/// `b a`, …) so that both see the same clocks and thermal state: ≥ 5 and ≤ 50 launches of
/// each (~150 ms of each in all), after a warm-up of both.
pub(crate) fn median_pair_ms(
    stream: &CudaStream,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    let first_a = timed(stream, &mut a)? as f64;
    let first_b = timed(stream, &mut b)? as f64;
    let reps = ((150.0 / first_a.max(first_b).max(1e-3)) as usize).clamp(5, 50);
    interleaved_medians(reps, a, b, |f| Ok(timed(stream, f)? as f64))
}

/// Launches in a batch of [`batched_pair_ms`] and [`soak_pair_ms`]: ~20 ms of a kernel whose
/// one launch took `first_ms`, 3 to 50.
fn batch_reps(first_ms: f64) -> u32 {
    ((20.0 / first_ms.max(1e-3)) as u32).clamp(3, 50)
}

/// Median per-launch GPU time (ms) of `a` and of `b` over [`PAIR_BATCHES`] batches of each,
/// interleaved batch by batch ([`interleaved_medians`]: turns whose order swaps). Every
/// batch is the same number of launches back to back, sized so that the faster one's batch
/// takes ~20 ms (3 to 50 launches), after a warm-up of both: batches in turn for
/// [`sustained_warmup_ms`] of GPU time, which brings the board to the power limit's clock
/// before anything is timed (without it the first batches ran at clocks still falling, and a
/// row's ratio moved by ±5 % between passes: doc/performance.md, session 73).
pub(crate) fn batched_pair_ms(
    stream: &CudaStream,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    a()?;
    b()?;
    let first_a = timed(stream, &mut a)? as f64;
    let first_b = timed(stream, &mut b)? as f64;
    let reps = batch_reps(first_a.min(first_b));
    // (bounded by wall time too: a side whose batches read 0 ms would never add up)
    let (mut warm, until, t0) = (0.0, sustained_warmup_ms(), std::time::Instant::now());
    while warm < until && t0.elapsed().as_secs_f64() * 1e3 < 2.0 * until + 100.0 {
        warm += per_launch_ms(stream, reps, &mut a)? * f64::from(reps);
        warm += per_launch_ms(stream, reps, &mut b)? * f64::from(reps);
    }
    interleaved_medians(PAIR_BATCHES, a, b, |f| per_launch_ms(stream, reps, f))
}

/// GPU time (ms) of [`Timing::Sustained`]'s warm-up: [`SUSTAINED_WARMUP_MS`], or the
/// measuring override `CUTE_RS_SUSTAINED_WARMUP_MS` (a number of ms; 0: none, the mode of
/// sessions 34–72).
pub(crate) fn sustained_warmup_ms() -> f64 {
    std::env::var("CUTE_RS_SUSTAINED_WARMUP_MS")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
        .unwrap_or(SUSTAINED_WARMUP_MS)
}

/// The GPU time (ms) both sides of a [`Timing::Sustained`] pair run in turn before it is timed.
pub const SUSTAINED_WARMUP_MS: f64 = 500.0;

/// Per-launch GPU time (ms) of `launches` launches of `f` back to back between two events.
fn per_launch_ms(
    stream: &CudaStream,
    launches: u32,
    f: &mut dyn FnMut() -> Result<()>,
) -> Result<f64> {
    let ms = timed(stream, || {
        for _ in 0..launches {
            f()?;
        }
        Ok(())
    })?;
    Ok(ms as f64 / launches as f64)
}

/// `rounds` runs of `a` and of `b` in turns whose order swaps (`a b`, `b a`, `a b`, …, so that
/// both see the same clocks and thermal state and share each turn's drift), each timed by
/// `run`; the median of each side's.
fn interleaved_medians(
    rounds: usize,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
    mut run: impl FnMut(&mut dyn FnMut() -> Result<()>) -> Result<f64>,
) -> Result<(f64, f64)> {
    let (mut ta, mut tb) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for round in 0..rounds {
        if round % 2 == 0 {
            ta.push(run(&mut a)?);
            tb.push(run(&mut b)?);
        } else {
            tb.push(run(&mut b)?);
            ta.push(run(&mut a)?);
        }
    }
    Ok((median(ta), median(tb)))
}

/// How a bench times ours against the reference (issue #34: public Hopper kernels' harnesses
/// time bursts after a rest, ours sustained interleaved batches; report both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Interleaved ~20 ms batches of each side, 9 of each, the median, after
    /// [`SUSTAINED_WARMUP_MS`] of both in turn (the power limit's clocks).
    Sustained,
    /// A rest of [`BURST_REST`], then [`BURST_LAUNCHES`] back-to-back
    /// launches of one side; [`BURST_ROUNDS`] rounds of each side in turn, the median (boost
    /// clocks, as fast.cu's harness times: rest, then 20 launches).
    Burst,
    /// CuTe's sm80 tutorial's own timer (issue #35): one launch, a sync, then
    /// [`BACK_TO_BACK_LAUNCHES`] launches back to back between two events, no rest;
    /// [`BACK_TO_BACK_ROUNDS`] rounds of each side in turn, the median.
    BackToBack,
    /// Each side alone, back to back in ~20 ms batches for [`SOAK_MS`], the median batch of
    /// the second half: each kernel at the clock its own draw allows (not one clock shared as
    /// in [`Sustained`](Self::Sustained)), its window on stderr for a script that reads the
    /// board's clock and power over it (`tools/gpu/profile/soak_clocks.py`).
    Soak,
}

impl Timing {
    /// The suffix of a bench row's variant timed this way: "", " burst", " b2b", " soak".
    ///
    /// ```
    /// use host_cli::bench::Timing;
    /// assert_eq!(Timing::BackToBack.suffix(), " b2b");
    /// assert_eq!(Timing::Soak.suffix(), " soak");
    /// assert_eq!(Timing::Sustained.suffix(), "");
    /// ```
    pub fn suffix(self) -> &'static str {
        match self {
            Timing::Sustained => "",
            Timing::Burst => " burst",
            Timing::BackToBack => " b2b",
            Timing::Soak => " soak",
        }
    }

    /// Per-launch GPU time (ms) of `a` and of `b` timed this way, on `stream`.
    pub(crate) fn pair_ms(
        self,
        stream: &CudaStream,
        a: impl FnMut() -> Result<()>,
        b: impl FnMut() -> Result<()>,
    ) -> Result<(f64, f64)> {
        match self {
            Timing::Sustained => batched_pair_ms(stream, a, b),
            Timing::Burst => burst_pair_ms(stream, a, b),
            Timing::BackToBack => back_to_back_pair_ms(stream, a, b),
            Timing::Soak => soak_pair_ms(stream, a, b),
        }
    }
}

/// Wall time (ms) each side of [`Timing::Soak`] runs alone: the first half brings the board to
/// that kernel's own steady clock, the second is timed.
pub const SOAK_MS: u64 = 4000;

/// [`Timing::Soak`]: per-launch GPU time (ms) of `a`, then of `b`, each alone for [`SOAK_MS`]
/// in batches of ~20 ms back to back, the median batch of the second half. Unlike
/// [`Timing::Sustained`]'s interleaved batches, which share one clock, each kernel runs at the
/// clock its own power draw allows; each side's timed window goes to stderr as a line `soak a
/// START END` (or `b`; Unix ms), so that a script reading the board's SM clock and power
/// (`nvidia-smi -lms 20`) can take each kernel's over its own window
/// (tools/gpu/profile/soak_clocks.py: issue #37's block-scaled rows at the power limit).
pub(crate) fn soak_pair_ms(
    stream: &CudaStream,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    let unix_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    };
    let soak = |side: &str, f: &mut dyn FnMut() -> Result<()>| -> Result<f64> {
        f()?;
        let first = timed(stream, &mut *f)? as f64;
        let reps = batch_reps(first);
        let (t0, half) = (
            std::time::Instant::now(),
            std::time::Duration::from_millis(SOAK_MS / 2),
        );
        while t0.elapsed() < half {
            per_launch_ms(stream, reps, f)?;
        }
        let start = unix_ms();
        let mut t = Vec::new();
        while t0.elapsed() < 2 * half || t.is_empty() {
            t.push(per_launch_ms(stream, reps, f)?);
        }
        eprintln!("soak {side} {start} {}", unix_ms());
        Ok(median(t))
    };
    let ta = soak("a", &mut a)?;
    let tb = soak("b", &mut b)?;
    Ok((ta, tb))
}

/// Launches of one run of [`Timing::BackToBack`]: the tutorial's `timing_iterations`.
pub const BACK_TO_BACK_LAUNCHES: u32 = 100;
/// Runs of each side in [`Timing::BackToBack`].
pub const BACK_TO_BACK_ROUNDS: usize = 3;

/// [`Timing::BackToBack`]: per-launch GPU time (ms) of `a` and `b`, each run as CuTe's sm80
/// tutorial times itself (one launch, a sync, then [`BACK_TO_BACK_LAUNCHES`] launches between
/// two events); `a b`, `b a`, ... [`BACK_TO_BACK_ROUNDS`] turns; the median of each.
pub(crate) fn back_to_back_pair_ms(
    stream: &CudaStream,
    a: impl FnMut() -> Result<()>,
    b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    let run = |f: &mut dyn FnMut() -> Result<()>| -> Result<f64> {
        f()?;
        stream.synchronize()?;
        per_launch_ms(stream, BACK_TO_BACK_LAUNCHES, f)
    };
    interleaved_medians(BACK_TO_BACK_ROUNDS, a, b, run)
}

/// The rest before each burst of [`Timing::Burst`].
pub const BURST_REST: std::time::Duration = std::time::Duration::from_secs(1);
/// Launches of one burst.
pub const BURST_LAUNCHES: u32 = 20;
/// Bursts of each side.
pub const BURST_ROUNDS: usize = 3;

/// [`Timing::Burst`]: per-launch GPU time (ms) of `a` and `b`, each timed over
/// [`BURST_LAUNCHES`] back-to-back launches after the stream drained and the GPU rested
/// [`BURST_REST`]; `a b`, `b a`, ... [`BURST_ROUNDS`] turns; the median of each.
pub(crate) fn burst_pair_ms(
    stream: &CudaStream,
    mut a: impl FnMut() -> Result<()>,
    mut b: impl FnMut() -> Result<()>,
) -> Result<(f64, f64)> {
    a()?;
    b()?;
    let burst = |f: &mut dyn FnMut() -> Result<()>| -> Result<f64> {
        stream.synchronize()?;
        std::thread::sleep(BURST_REST);
        per_launch_ms(stream, BURST_LAUNCHES, f)
    };
    interleaved_medians(BURST_ROUNDS, a, b, burst)
}

/// Batches of each side in [`batched_pair_ms`].
pub(crate) const PAIR_BATCHES: usize = 9;

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Median over 7 batches of the per-launch GPU time (ms) of `f`, each batch `reps` launches
/// back to back (short kernels: launch overhead amortized), after a warm-up.
pub(crate) fn batched_ms(
    stream: &CudaStream,
    reps: u32,
    mut f: impl FnMut() -> Result<()>,
) -> Result<f64> {
    f()?;
    let reps = reps.max(1);
    let samples = (0..7)
        .map(|_| per_launch_ms(stream, reps, &mut f))
        .collect::<Result<Vec<_>>>()?;
    Ok(median(samples))
}
