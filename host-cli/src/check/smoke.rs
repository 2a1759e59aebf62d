//! The smoke kernels against CPU references, bit-exact.

use std::sync::Arc;

use host::cudarc::driver::CudaStream;

use super::{CheckRow, Rng, compare, gbps};
use crate::smoke::{self, SmokeCopy};
use crate::timing::timed;
use host::context::Context;
use host::error::Result;

fn row(
    kernel: &'static str,
    shape: String,
    got: &[f32],
    want: &[f32],
    ms: f32,
    note: String,
) -> CheckRow {
    let (mismatches, max_err) = compare(got, want);
    CheckRow {
        kernel,
        shape,
        pass: mismatches == 0,
        max_err,
        mismatches,
        ms,
        note,
    }
}

/// IEEE half bits of `x`, which must be exactly representable as a normal half or 0.
pub(super) fn f16_bits_exact(x: f32) -> u16 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    debug_assert!(
        (1..31).contains(&exp) && b & 0x1fff == 0,
        "{x} is not an exact normal f16"
    );
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

fn check_copy(
    ctx: &Context,
    s: &Arc<CudaStream>,
    which: SmokeCopy,
    n: usize,
    block: u32,
    max_blocks: u32,
) -> Result<CheckRow> {
    let mut rng = Rng::new(n as u64 ^ 0xC0FFEE);
    // Arbitrary bit patterns (NaN payloads, denormals, -0 included): a copy keeps bits.
    let host: Vec<f32> = (0..n).map(|_| f32::from_bits(rng.next_u32())).collect();
    let src = s.clone_htod(&host)?;
    let mut dst = s.alloc_zeros::<f32>(n.max(1))?;
    let cfg = smoke::grid_1d(n.div_ceil(4), block, max_blocks);
    smoke::copy(ctx, s, which, &src, &mut dst, cfg)?; // warm-up
    s.memset_zeros(&mut dst)?;
    let ms = timed(s, || smoke::copy(ctx, s, which, &src, &mut dst, cfg))?;
    let got = s.clone_dtoh(&dst)?;
    let shape = format!("n={n} grid={}x{block}", cfg.grid_dim.0);
    Ok(row(
        which.kernel(),
        shape,
        &got[..n],
        &host,
        ms,
        gbps(2 * 4 * n, ms),
    ))
}

fn check_mma(ctx: &Context, s: &Arc<CudaStream>) -> Result<CheckRow> {
    let mut rng = Rng::new(16816);
    let a: Vec<f32> = (0..256).map(|_| rng.int(-3, 3) as f32).collect(); // 16x16, row-major
    let b: Vec<f32> = (0..128).map(|_| rng.int(-3, 3) as f32).collect(); // 16x8 (k x n)
    let c: Vec<f32> = (0..128).map(|_| rng.int(-8, 8) as f32).collect(); // 16x8
    let a16: Vec<u16> = a.iter().map(|&x| f16_bits_exact(x)).collect();
    let mut bt16 = vec![0u16; 128]; // Bᵀ: 8x16 (n x k)
    for kk in 0..16 {
        for nn in 0..8 {
            bt16[nn * 16 + kk] = f16_bits_exact(b[kk * 8 + nn]);
        }
    }
    let mut want = vec![0f32; 128];
    for m in 0..16 {
        for nn in 0..8 {
            let mut acc = c[m * 8 + nn];
            for kk in 0..16 {
                acc += a[m * 16 + kk] * b[kk * 8 + nn]; // small integers: exact in any order
            }
            want[m * 8 + nn] = acc;
        }
    }
    let da = s.clone_htod(&a16)?;
    let dbt = s.clone_htod(&bt16)?;
    let dc = s.clone_htod(&c)?;
    let mut dd = s.alloc_zeros::<f32>(128)?;
    let ms = timed(s, || smoke::mma_m16n8k16(ctx, s, &da, &dbt, &dc, &mut dd))?;
    let got = s.clone_dtoh(&dd)?;
    Ok(row(
        "mma_m16n8k16_smoke",
        "16x8x16 f16->f32".into(),
        &got,
        &want,
        ms,
        "ldmatrix+mma.sync".into(),
    ))
}

/// The `shfl.sync.bfly` butterfly of `warp_sum_f32`, simulated lane by lane.
fn butterfly_sum(v: &[f32]) -> f32 {
    let mut lanes = [0f32; 32];
    lanes.copy_from_slice(&v[..32]);
    let mut m = 16;
    while m > 0 {
        let prev = lanes;
        for (l, x) in lanes.iter_mut().enumerate() {
            *x = prev[l] + prev[l ^ m];
        }
        m >>= 1;
    }
    lanes[0]
}

fn check_warp_sum(
    ctx: &Context,
    s: &Arc<CudaStream>,
    warps: usize,
    block: u32,
) -> Result<CheckRow> {
    let n = warps * 32;
    let mut rng = Rng::new(0x5EED ^ n as u64);
    let x = rng.units(n);
    let want: Vec<f32> = x.chunks_exact(32).map(butterfly_sum).collect();
    let dx = s.clone_htod(&x)?;
    let mut dout = s.alloc_zeros::<f32>(warps)?;
    let ms = timed(s, || smoke::warp_sum(ctx, s, &dx, &mut dout, block))?;
    let got = s.clone_dtoh(&dout)?;
    Ok(row(
        "warp_sum_smoke",
        format!("n={n} block={block}"),
        &got,
        &want,
        ms,
        "shfl.sync.bfly".into(),
    ))
}

/// Every smoke check; an error in one becomes a FAIL row.
pub(super) fn checks(ctx: &Context) -> Vec<CheckRow> {
    let s = &ctx.default_stream();
    let sms = ctx.device().sms;
    let mut rows = Vec::new();
    let mut push = |kernel: &'static str, shape: String, r: Result<CheckRow>| {
        rows.push(r.unwrap_or_else(|e| CheckRow::failed(kernel, shape, format!("CUDA error: {e}"))))
    };
    for &n in &[1usize, 3, 4, 1023, 4097, (1 << 20) + 3, 1 << 26] {
        push(
            "copy_f32_v4",
            format!("n={n}"),
            check_copy(ctx, s, SmokeCopy::V4, n, 256, sms * 8),
        );
    }
    for &(n, block) in &[
        (1usize, 32u32),
        (7, 64),
        (4096 + 2, 128),
        ((1 << 20) + 1, 128),
        (1 << 26, 256),
    ] {
        push(
            "copy_f32_cp_async",
            format!("n={n}"),
            check_copy(ctx, s, SmokeCopy::CpAsync, n, block, sms * 4),
        );
    }
    push("mma_m16n8k16_smoke", "16x8x16".into(), check_mma(ctx, s));
    for &(warps, block) in &[(1usize, 32u32), (1000, 256), (4096, 128)] {
        push(
            "warp_sum_smoke",
            format!("n={}", warps * 32),
            check_warp_sum(ctx, s, warps, block),
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_bits() {
        assert_eq!(f16_bits_exact(1.0), 0x3c00);
        assert_eq!(f16_bits_exact(-2.0), 0xc000);
        assert_eq!(f16_bits_exact(-0.0), 0x8000);
    }

    #[test]
    fn butterfly_is_a_sum() {
        let v: Vec<f32> = (0..32).map(|i| i as f32).collect();
        assert_eq!(butterfly_sum(&v), 496.0);
    }
}
