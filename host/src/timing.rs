//! GPU time of queued work, measured with CUDA events on the stream.

use cudarc::driver::{CudaStream, sys::CUevent_flags};

use crate::error::Result;

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

/// Median over 7 batches of the per-launch GPU time (ms) of `f`, each batch `reps` launches
/// back to back (short kernels: launch overhead amortized), after a warm-up.
pub(crate) fn batched_ms(
    stream: &CudaStream,
    reps: u32,
    mut f: impl FnMut() -> Result<()>,
) -> Result<f64> {
    f()?;
    let reps = reps.max(1);
    let mut samples = Vec::with_capacity(7);
    for _ in 0..7 {
        let ms = timed(stream, || {
            for _ in 0..reps {
                f()?;
            }
            Ok(())
        })?;
        samples.push(ms as f64 / reps as f64);
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}
