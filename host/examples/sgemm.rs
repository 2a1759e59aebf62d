//! Our fp32 GEMM on your buffers, beside cuBLAS: allocate, run, compare, print TFLOP/s.
//!
//! ```text
//! cargo run -p host --release --example sgemm             # 4096 x 4096 x 4096, NN
//! cargo run -p host --release --example sgemm -- 2000 3000 500
//! ```
//!
//! Without a GPU it says why in one line and exits 2.

use std::process::ExitCode;

use host::cudarc::driver::{CudaStream, sys::CUevent_flags};
use host::{Context, Cublas, GemmConfig, Trans};

/// GPU time per call of `f` (ms), over `reps` calls between two events.
fn time_ms(
    s: &CudaStream,
    reps: u32,
    mut f: impl FnMut() -> host::Result<()>,
) -> host::Result<f64> {
    f()?; // warm-up
    let start = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    for _ in 0..reps {
        f()?;
    }
    let end = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
    Ok(start.elapsed_ms(&end)? as f64 / reps as f64)
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let (m, n, k) = match sizes[..] {
        [] => (4096, 4096, 4096),
        [s] => (s, s, s),
        [m, n, k] => (m, n, k),
        _ => return Err("usage: sgemm [M [N K]]".into()),
    };
    let ctx = match Context::new(0) {
        Ok(ctx) => ctx,
        Err(e) if e.is_unavailable() => {
            eprintln!("sgemm: no GPU: {e}");
            return Ok(ExitCode::from(2));
        }
        Err(e) => return Err(e.into()),
    };
    println!("device: {}", ctx.device());
    let stream = ctx.default_stream();

    // C = A·B, column-major, A m×k, B k×n; values in [-1, 1).
    let g = GemmConfig::new(m, n, k).trans(Trans::N, Trans::N);
    let (na, nb, nc) = g.lens();
    // a fixed pseudo-random fill (Knuth's multiplicative hash), no RNG crate needed
    let units = |n: usize, seed: u32| -> Vec<f32> {
        (0..n as u32)
            .map(|i| (i ^ seed).wrapping_mul(2_654_435_761) as f32 / 2_147_483_648.0 - 1.0)
            .collect()
    };
    let a = stream.clone_htod(&units(na, 1))?;
    let b = stream.clone_htod(&units(nb, 2))?;
    let mut c = stream.alloc_zeros::<f32>(nc)?;
    let mut c_ref = stream.alloc_zeros::<f32>(nc)?;

    let blas = Cublas::new(&ctx, stream.clone())?;
    ctx.sgemm(&stream, &g, &a, &b, &mut c)?;
    blas.sgemm(&g, &a, &b, &mut c_ref)?;
    let (ours, theirs) = (stream.clone_dtoh(&c)?, stream.clone_dtoh(&c_ref)?);
    let max_diff = ours
        .iter()
        .zip(&theirs)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max);
    // fp32 sums of k products of values < 1 in different orders: ~1e-4·√k apart at most.
    let tol = 1e-4 * (k as f32).sqrt();

    let reps = 10;
    let ours_ms = time_ms(&stream, reps, || ctx.sgemm(&stream, &g, &a, &b, &mut c))?;
    let cublas_ms = time_ms(&stream, reps, || blas.sgemm(&g, &a, &b, &mut c_ref))?;
    let tflops = |ms: f64| g.flops() / (ms * 1e9);
    println!("problem: {g}  plan: {}", ctx.gemm_plan(&g));
    println!(
        "ours  {:7.3} ms  {:5.1} TFLOP/s\ncuBLAS {:6.3} ms  {:5.1} TFLOP/s\nratio {:.2} of cuBLAS; max |ours - cuBLAS| = {max_diff:.2e} (tolerance {tol:.1e})",
        ours_ms,
        tflops(ours_ms),
        cublas_ms,
        tflops(cublas_ms),
        cublas_ms / ours_ms
    );
    Ok(if max_diff <= tol {
        ExitCode::SUCCESS
    } else {
        println!("MISMATCH");
        ExitCode::from(1)
    })
}
