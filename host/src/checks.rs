//! `host run`: every kernel against a CPU reference, bit-exact, as a table.

use cudarc::driver::{CudaStream, DriverError};

use crate::gpu::Gpu;
use crate::kernels::{self, Kernels};

/// One line of the table.
pub struct Row {
    pub kernel: &'static str,
    pub shape: String,
    pub pass: bool,
    /// Largest |gpu - reference| (0 when bit-exact).
    pub max_err: f64,
    /// Elements whose bits differ from the reference.
    pub mismatches: usize,
    pub ms: f32,
    pub note: String,
}

/// Deterministic xorshift64* bits.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i32
    }
    /// A finite float in [-1, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
}

/// IEEE half bits of `x`, which must be exactly representable as a normal half or 0.
pub fn f16_bits_exact(x: f32) -> u16 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&exp) && b & 0x1fff == 0,
        "{x} is not an exact normal f16"
    );
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// Compares bit patterns; returns (mismatches, max |diff| over finite pairs).
pub fn compare(got: &[f32], want: &[f32]) -> (usize, f64) {
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

fn row(
    kernel: &'static str,
    shape: String,
    got: &[f32],
    want: &[f32],
    ms: f32,
    note: String,
) -> Row {
    let (mismatches, max_err) = compare(got, want);
    Row {
        kernel,
        shape,
        pass: mismatches == 0,
        max_err,
        mismatches,
        ms,
        note,
    }
}

fn gbps(bytes: usize, ms: f32) -> String {
    if ms > 0.0 && bytes >= 1 << 20 {
        format!("{:.0} GB/s", bytes as f64 / (ms as f64 * 1e6))
    } else {
        String::new()
    }
}

type CopyFn = fn(
    &Kernels,
    &CudaStream,
    &cudarc::driver::CudaSlice<f32>,
    &mut cudarc::driver::CudaSlice<f32>,
    cudarc::driver::LaunchConfig,
) -> Result<f32, DriverError>;

fn check_copy(
    gpu: &Gpu,
    k: &Kernels,
    name: &'static str,
    launch: CopyFn,
    n: usize,
    block: u32,
    max_blocks: u32,
) -> Result<Row, DriverError> {
    let s = &gpu.stream;
    let mut rng = Rng::new(n as u64 ^ 0xC0FFEE);
    // Arbitrary bit patterns (NaN payloads, denormals, -0 included): a copy keeps bits.
    let host: Vec<f32> = (0..n).map(|_| f32::from_bits(rng.next_u32())).collect();
    let src = s.clone_htod(&host)?;
    let mut dst = s.alloc_zeros::<f32>(n.max(1))?;
    let cfg = kernels::grid_1d(n.div_ceil(4), block, max_blocks);
    let _warm = launch(k, s, &src, &mut dst, cfg)?;
    s.memset_zeros(&mut dst)?;
    let ms = launch(k, s, &src, &mut dst, cfg)?;
    let got = s.clone_dtoh(&dst)?;
    let shape = format!("n={n} grid={}x{block}", cfg.grid_dim.0);
    Ok(row(name, shape, &got[..n], &host, ms, gbps(2 * 4 * n, ms)))
}

fn check_mma(gpu: &Gpu, k: &Kernels) -> Result<Row, DriverError> {
    let s = &gpu.stream;
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
    let ms = kernels::mma_m16n8k16_smoke(k, s, &da, &dbt, &dc, &mut dd)?;
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
pub fn butterfly_sum(v: &[f32; 32]) -> f32 {
    let mut lanes = *v;
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

fn check_warp_sum(gpu: &Gpu, k: &Kernels, warps: usize, block: u32) -> Result<Row, DriverError> {
    let s = &gpu.stream;
    let n = warps * 32;
    let mut rng = Rng::new(0x5EED ^ n as u64);
    let x: Vec<f32> = (0..n).map(|_| rng.unit()).collect();
    let want: Vec<f32> = x
        .chunks_exact(32)
        .map(|w| butterfly_sum(w.try_into().unwrap()))
        .collect();
    let dx = s.clone_htod(&x)?;
    let mut dout = s.alloc_zeros::<f32>(warps)?;
    let ms = kernels::warp_sum_smoke(k, s, &dx, &mut dout, block)?;
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

/// Runs every check; a driver error in one becomes a FAIL row, not an abort.
pub fn run_all(gpu: &Gpu, k: &Kernels) -> Vec<Row> {
    let sms = gpu
        .ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )
        .unwrap_or(132)
        .max(1) as u32;
    let mut rows = Vec::new();
    let mut push = |kernel: &'static str, shape: String, r: Result<Row, DriverError>| {
        rows.push(r.unwrap_or_else(|e| Row {
            kernel,
            shape,
            pass: false,
            max_err: f64::NAN,
            mismatches: 0,
            ms: 0.0,
            note: format!("CUDA error: {e}"),
        }))
    };
    let v4: CopyFn = kernels::copy_f32_v4;
    let ca: CopyFn = kernels::copy_f32_cp_async;
    for &n in &[1usize, 3, 4, 1023, 4097, (1 << 20) + 3, 1 << 26] {
        push(
            "copy_f32_v4",
            format!("n={n}"),
            check_copy(gpu, k, "copy_f32_v4", v4, n, 256, sms * 8),
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
            check_copy(gpu, k, "copy_f32_cp_async", ca, n, block, sms * 4),
        );
    }
    push("mma_m16n8k16_smoke", "16x8x16".into(), check_mma(gpu, k));
    for &(warps, block) in &[(1usize, 32u32), (1000, 256), (4096, 128)] {
        push(
            "warp_sum_smoke",
            format!("n={}", warps * 32),
            check_warp_sum(gpu, k, warps, block),
        );
    }
    rows.extend(crate::copy::check_all(gpu));
    rows.extend(crate::gemm::checks(gpu));
    rows
}

/// Prints the table; returns whether every row passed.
pub fn print_table(rows: &[Row]) -> bool {
    println!(
        "{:<20} {:<30} {:<6} {:>10} {:>10}  note",
        "kernel", "shape", "result", "max_err", "time_ms"
    );
    for r in rows {
        let err = if r.mismatches == 0 {
            "0".to_string()
        } else {
            format!("{:.3e}", r.max_err)
        };
        let mut note = r.note.clone();
        if r.mismatches > 0 {
            note = format!("{} bit mismatches; {note}", r.mismatches);
        }
        println!(
            "{:<20} {:<30} {:<6} {:>10} {:>10.4}  {}",
            r.kernel,
            r.shape,
            if r.pass { "PASS" } else { "FAIL" },
            err,
            r.ms,
            note
        );
    }
    let failed = rows.iter().filter(|r| !r.pass).count();
    println!("{} passed, {} failed", rows.len() - failed, failed);
    failed == 0
}
