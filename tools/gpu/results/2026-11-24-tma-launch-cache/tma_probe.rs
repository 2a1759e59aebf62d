//! Diagnostic (not shipped): host issue cost and GPU time per launch of the TMA copy, the
//! vector tiled copy and memcpy D2D, per size; and the time of a batch of 3 (as `host bench`).
use std::time::Instant;

use cudarc::driver::sys::CUevent_flags;
use host::{Context, CopyAtom, CopyConfig, Order};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ctx = Context::new(0)?;
    let s = ctx.default_stream();
    println!("device: {}", ctx.device());
    if std::env::args().nth(1).as_deref() == Some("ncu") {
        // a few launches of each kernel for a profiler: `ncu ... tma_probe ncu`
        for mib in [1usize, 4, 16, 256] {
            let bytes = mib << 20;
            let src = s.alloc_zeros::<u32>(bytes / 4)?;
            let mut dst = s.alloc_zeros::<u32>(bytes / 4)?;
            let (m, n) = (bytes / 4 / 4096, 4096);
            for _ in 0..3 {
                ctx.tiled_copy(&s, &CopyConfig::new(Order::RowMajor, m, n), &src, &mut dst)?;
                ctx.tiled_copy(&s, &CopyConfig::new(Order::RowMajor, m, n).atom(CopyAtom::Tma), &src, &mut dst)?;
            }
            s.synchronize()?;
        }
        return Ok(());
    }
    println!("size_mib,what,host_us_per_launch,gpu_us_per_launch_b50,gpu_us_per_launch_b3,gpu_us_single");
    let sizes: Vec<usize> = std::env::var("PROBE_SIZES")
        .unwrap_or("1,4,16,64,256,1024".into())
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    for mib in sizes {
        let bytes = mib << 20;
        let src = s.alloc_zeros::<u32>(bytes / 4)?;
        let mut dst = s.alloc_zeros::<u32>(bytes / 4)?;
        let (m, n) = (bytes / 4 / 4096, 4096);
        for what in ["memcpy", "vector", "tma"] {
            let mut f = |s: &std::sync::Arc<cudarc::driver::CudaStream>| -> Result<(), Box<dyn std::error::Error>> {
                match what {
                    "memcpy" => s.memcpy_dtod(&src, &mut dst)?,
                    "vector" => ctx.tiled_copy(s, &CopyConfig::new(Order::RowMajor, m, n), &src, &mut dst)?,
                    _ => ctx.tiled_copy(s, &CopyConfig::new(Order::RowMajor, m, n).atom(CopyAtom::Tma), &src, &mut dst)?,
                }
                Ok(())
            };
            for _ in 0..3 {
                f(&s)?;
            }
            s.synchronize()?;
            let reps = if mib >= 256 { 10 } else { 50 };
            // host issue cost (the GPU queue does not fill in 50 launches)
            let mut host = Vec::new();
            let mut b50 = Vec::new();
            let mut b3 = Vec::new();
            let mut single = Vec::new();
            for _ in 0..5 {
                s.synchronize()?;
                let e0 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                let t = Instant::now();
                for _ in 0..reps {
                    f(&s)?;
                }
                host.push(t.elapsed().as_secs_f64() * 1e6 / reps as f64);
                let e1 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                b50.push(e0.elapsed_ms(&e1)? as f64 * 1e3 / reps as f64);
                let e0 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                for _ in 0..3 {
                    f(&s)?;
                }
                let e1 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                b3.push(e0.elapsed_ms(&e1)? as f64 * 1e3 / 3.0);
                let e0 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                f(&s)?;
                let e1 = s.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
                single.push(e0.elapsed_ms(&e1)? as f64 * 1e3);
            }
            let med = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            println!(
                "{mib},{what},{:.2},{:.2},{:.2},{:.2}",
                med(&mut host),
                med(&mut b50),
                med(&mut b3),
                med(&mut single)
            );
        }
    }
    Ok(())
}
