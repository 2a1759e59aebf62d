//! `D = relu(A·B + bias)` with the fused GEMM (issue #34): `cargo run -p host --example bias_relu`.
//!
//! On the GPU this is the entry `hgemm_fused_bf16_tn_relu`: the `collective` crate's cooperative
//! kernel (`gemm_tma_warpspecialized::<KernelTmaWarpSpecializedCooperative, ..>`) composing `CollectiveMma` (bf16, A and
//! B K-major, 128 × 256 tiles, `PlainAccumulation`), the persistent tile scheduler and the
//! epilogue `FusedEpilogue<act::Relu>` (`kernels/hgemm`), whose per-element operation is
//! `BiasAct<Relu>` read for a thread's two rows (`BiasActRows`): the bias along M is loaded once
//! per tile. Here: A (M×K) and B (K×N) bf16 stored K-major ("TN"), an `f32` bias per row of D,
//! D bf16; checked against a CPU reference.
use host::half::bf16;
use host::{Activation, BiasMode, Context, GemmConfig, Trans};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (m, n, k) = (384, 512, 320);
    let ctx = match Context::new(0) {
        Ok(ctx) => ctx,
        Err(e) => {
            println!("SKIP: no GPU context ({e})");
            return Ok(());
        }
    };
    // op(A) = Aᵀ with A stored K×M, B stored K×N (both K-major); small quarter-integers, exact
    // in bf16 and in the fp32 sums
    let g = GemmConfig::new(m, n, k)
        .trans(Trans::T, Trans::N)
        .bias(BiasMode::M)
        .act(Activation::Relu);
    let val = |x: usize| ((x % 7) as f32 - 3.0) / 4.0;
    let a: Vec<f32> = (0..k * m).map(|x| val(x * 5 + 1)).collect(); // a[l + i·K]
    let b: Vec<f32> = (0..k * n).map(|x| val(x * 3 + 2)).collect(); // b[l + j·K]
    let bias: Vec<f32> = (0..m).map(|i| val(i) * 8.0).collect();
    let bf = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();

    let s = ctx.default_stream();
    let (da, db) = (s.clone_htod(&bf(&a))?, s.clone_htod(&bf(&b))?);
    let dbias = s.clone_htod(&bias)?;
    let mut dd = s.alloc_zeros::<bf16>(m * n)?;
    ctx.hgemm_fused(&s, &g, &da, &db, &mut dd, Some(&dbias))?;
    let d = s.clone_dtoh(&dd)?;

    // D(i, j) = relu(Σ_l A(i, l)·B(l, j) + bias(i)), D column-major (d[i + j·M])
    let mut worst = 0f32;
    for j in 0..n {
        for i in 0..m {
            let dot: f32 = (0..k).map(|l| a[l + i * k] * b[l + j * k]).sum();
            let want = (dot + bias[i]).max(0.0);
            let err = (d[i + j * m].to_f32() - want).abs() / (1.0 + want.abs());
            worst = worst.max(err);
        }
    }
    // bf16 D: 8 significant bits
    let ok = worst <= 1.0 / 256.0;
    println!(
        "D = relu(A·B + bias), {m}×{n}×{k}: largest error {worst:.2e} (relative) {}",
        if ok { "PASS" } else { "FAIL" }
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
