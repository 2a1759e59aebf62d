//! A user's own kernel crate, launched through the `host` library next to its `sgemm`:
//! `Y = alpha·X + Y` by `kernels/` (CuTe's form on `layout-types` and `device`, compiled to PTX
//! by `build.rs` with `cute-builder`), checked against the CPU, then `C = Y·Yᵀ` by `host`'s GEMM.
//!
//! ```text
//! cargo run --release -p user-kernel [-- M N]
//! ```
//!
//! Without a GPU (or without its PTX) it says why in one line and exits 2.

use std::process::ExitCode;

use host::cudarc::driver::{LaunchConfig, PushKernelArg};
use host::{Context, GemmConfig, Trans};

/// This crate's kernels (empty when the nightly toolchain was missing at build time).
const USER_PTX: &str = include_str!(env!("CUTE_PTX_USER_KERNELS"));
/// Why [`USER_PTX`] is empty, if it is.
const USER_PTX_ERROR: Option<&str> = option_env!("CUTE_PTX_ERROR");

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let (m, n) = match sizes[..] {
        [] => (1000, 300),
        [m, n] => (m, n),
        _ => return Err("usage: user-kernel [M N]".into()),
    };
    if let Some(why) = USER_PTX_ERROR {
        eprintln!("user-kernel: no GPU: no user kernels in this build ({why})");
        return Ok(ExitCode::from(2));
    }
    let mut ctx = match Context::new(0) {
        Ok(ctx) => ctx,
        Err(e) if e.is_unavailable() => {
            eprintln!("user-kernel: no GPU: {e}");
            return Ok(ExitCode::from(2));
        }
        Err(e) => return Err(e.into()),
    };
    ctx.add_ptx("user_kernels", USER_PTX)?;
    println!("device: {}", ctx.device());
    let stream = ctx.default_stream();

    // Y = alpha·X + Y, column-major m×n, ld = m.
    let alpha = 0.5f32;
    let x: Vec<f32> = (0..m * n).map(|i| (i % 97) as f32).collect();
    let y: Vec<f32> = (0..m * n).map(|i| (i % 13) as f32 - 6.0).collect();
    let dx = stream.clone_htod(&x)?;
    let mut dy = stream.clone_htod(&y)?;
    let f = ctx.kernel("axpy")?;
    let (mi, ni) = (m as i64, n as i64);
    let cfg = LaunchConfig {
        grid_dim: (m.div_ceil(32) as u32, n.div_ceil(32) as u32, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let mut b = stream.launch_builder(&f);
    b.arg(&mi).arg(&ni).arg(&alpha).arg(&dx).arg(&mut dy);
    // SAFETY: axpy(m, n, alpha, x, y) with 256 threads and one block per 32×32 tile; both
    // buffers hold m·n elements with leading dimension m.
    unsafe { b.launch(cfg) }?;
    let got = stream.clone_dtoh(&dy)?;
    let bad = got
        .iter()
        .zip(x.iter().zip(&y))
        .filter(|&(g, (xv, yv))| *g != alpha * xv + yv)
        .count();
    println!("axpy {m}x{n}: {bad} mismatches");

    // The library's GEMM on the user's result: C(m×m) = Y·Yᵀ.
    let g = GemmConfig::new(m, m, n).trans(Trans::N, Trans::T);
    let mut c = stream.alloc_zeros::<f32>(m * m)?;
    ctx.sgemm(&stream, &g, &dy, &dy, &mut c)?;
    let c00 = stream.clone_dtoh(&c)?[0];
    let want: f64 = (0..n).map(|j| (got[j * m] as f64).powi(2)).sum();
    // fp32 dot product of n terms: within 2(n+2)·ε of the sum (all terms are ≥ 0)
    let tol = 2.0 * (n as f64 + 2.0) * f32::EPSILON as f64 * want;
    let ok = bad == 0 && (c00 as f64 - want).abs() <= tol;
    println!(
        "sgemm {g} (plan {}): C[0,0] = {c00} (CPU {want})",
        ctx.gemm_plan(&g)
    );
    println!("{}", if ok { "PASS" } else { "FAIL" });
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
