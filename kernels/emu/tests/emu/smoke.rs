//! The smoke family (`tests/kernels/smoke`) on the emulator: grid-stride vector and cp.async copies,
//! the warp-shuffle sum and the tensor-core MMA, launched as `host-cli/src/smoke.rs` does.

use device::emu::{Dim3, launch};
use kernels_emu::check::Rng;
use kernels_emu::{report, smoke};

/// `grid_1d(work, block, max_blocks)` of `host-cli/src/smoke.rs`: `(grid, block)`.
fn grid_1d(work: usize, block: u32, max_blocks: u32) -> (Dim3, Dim3) {
    let blocks = work
        .div_ceil(block as usize)
        .clamp(1, max_blocks.max(1) as usize) as u32;
    ((blocks, 1, 1), (block, 1, 1))
}

#[repr(C, align(16))]
struct Aligned([f32; 1100]);

fn copy(cp_async: bool) {
    let mut cases = 0;
    for (n, block, max_blocks) in [
        (1usize, 32u32, 4u32),
        (37, 64, 2),
        (1037, 128, 3),
        (1100, 32, 1000),
    ] {
        let mut rng = Rng(n as u64);
        let mut src = Aligned([0.0; 1100]);
        src.0.iter_mut().for_each(|x| *x = rng.f32_full());
        let mut dst = Aligned([f32::NAN; 1100]);
        let (ps, pd) = (src.0.as_ptr() as usize, dst.0.as_mut_ptr() as usize);
        let (grid, blk) = grid_1d(n.div_ceil(4), block, max_blocks);
        let smem = if cp_async { 2 * block * 16 } else { 0 };
        // SAFETY: both buffers hold n f32, 16-byte aligned.
        unsafe {
            launch(grid, blk, smem, || {
                if cp_async {
                    smoke::copy_f32_cp_async(ps as *const f32, pd as *mut f32, n)
                } else {
                    smoke::copy_f32_v4(ps as *const f32, pd as *mut f32, n)
                }
            })
        };
        let ok = src.0[..n]
            .iter()
            .zip(&dst.0[..n])
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(ok, "n = {n}: copy differs");
        assert!(
            dst.0[n..].iter().all(|x| x.is_nan()),
            "n = {n}: wrote past n"
        );
        cases += 1;
    }
    report::record(
        if cp_async {
            "copy_f32_cp_async"
        } else {
            "copy_f32_v4"
        },
        cases,
    );
}

#[test]
fn copy_f32_v4() {
    copy(false);
}

#[test]
fn copy_f32_cp_async() {
    copy(true);
}

#[test]
fn warp_sum_smoke() {
    let n = 32 * 6;
    let mut rng = Rng(9);
    let x: Vec<f32> = (0..n).map(|_| rng.f32_full()).collect();
    let mut out = vec![0f32; n / 32];
    let (px, po) = (x.as_ptr() as usize, out.as_mut_ptr() as usize);
    let (grid, block) = grid_1d(n, 64, u32::MAX);
    // SAFETY: x holds n f32, out n / 32.
    unsafe {
        launch(grid, block, 0, || {
            smoke::warp_sum_smoke(px as *const f32, po as *mut f32, n)
        })
    };
    for (w, s) in out.iter().enumerate() {
        // the kernel's butterfly order: v += shfl_xor(v, 16), 8, 4, 2, 1
        let mut v: Vec<f32> = x[32 * w..32 * w + 32].to_vec();
        for m in [16, 8, 4, 2, 1] {
            v = (0..32).map(|l| v[l] + v[l ^ m]).collect();
        }
        assert_eq!(s.to_bits(), v[0].to_bits(), "warp {w}");
    }
    report::record("warp_sum_smoke", 1);
}

/// f32 → f16 bits for small integers and halves (exact).
fn f16(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let (s, a) = (if x < 0.0 { 0x8000 } else { 0 }, x.abs());
    let e = a.log2().floor() as i32;
    let m = ((a / 2f32.powi(e) - 1.0) * 1024.0) as u16;
    s | (((e + 15) as u16) << 10) | m
}

#[test]
fn mma_m16n8k16_smoke() {
    let mut rng = Rng(4);
    let mut small = || ((rng.next_u64() % 9) as f32 - 4.0) / 2.0;
    let a: Vec<f32> = (0..256).map(|_| small()).collect(); // 16x16 row-major
    let bt: Vec<f32> = (0..128).map(|_| small()).collect(); // 8x16 row-major (B "col")
    let c: Vec<f32> = (0..128).map(|_| small()).collect(); // 16x8 row-major
    #[repr(C, align(16))]
    struct H<const N: usize>([u16; N]);
    let ah = H::<256>(std::array::from_fn(|i| f16(a[i])));
    let bh = H::<128>(std::array::from_fn(|i| f16(bt[i])));
    let mut d = vec![f32::NAN; 128];
    let (pa, pb, pc, pd) = (
        ah.0.as_ptr() as usize,
        bh.0.as_ptr() as usize,
        c.as_ptr() as usize,
        d.as_mut_ptr() as usize,
    );
    // SAFETY: buffers of the documented sizes, 16-byte aligned.
    unsafe {
        launch((1, 1, 1), (32, 1, 1), 768, || {
            smoke::mma_m16n8k16_smoke(
                pa as *const u16,
                pb as *const u16,
                pc as *const f32,
                pd as *mut f32,
            )
        })
    };
    for i in 0..16 {
        for j in 0..8 {
            let want = c[i * 8 + j] + (0..16).map(|k| a[i * 16 + k] * bt[j * 16 + k]).sum::<f32>();
            assert_eq!(d[i * 8 + j], want, "D({i}, {j})");
        }
    }
    report::record("mma_m16n8k16_smoke", 1);
}
