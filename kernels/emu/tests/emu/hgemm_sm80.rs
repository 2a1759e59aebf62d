//! The Ampere GEMM (`kernels/hgemm_sm80`) on the emulator: a few small problems per majority,
//! launched as `host/src/hgemm_sm80.rs` launches them (grid `(ceil(M/TILE.0), ceil(N/TILE.1))`,
//! `THREADS` threads, `SMEM_BYTES`), against an exact reference. The inputs are multiples of 1/8 in
//! [-2, 2] (exact in bf16 and fp16, every product and every partial sum exact in f32), so the
//! kernel's result must equal the reference rounded once to C's element; C's padding and the
//! guard elements after it must be untouched. Each problem costs the emulator one warp exchange
//! per `ldmatrix` and `mma.sync`: the shapes are few and small, covering the edges (M, N, K off
//! the tile, K off 8), a k-loop longer than the pipeline, several CTAs, whole tiles and beta (12 problems,
//! about 20 s of the emulator on 2 cores).

use device::emu::launch;
use kernels_emu::check::Rng;
use kernels_emu::hgemm_sm80::{self as k, HgemmSm80Params, SMEM_BYTES, STAGES, THREADS, TILE};
use kernels_emu::report;

/// One problem: extents, C's element, alpha/beta.
#[derive(Clone, Copy, Debug)]
struct Case {
    m: usize,
    n: usize,
    k: usize,
    out: u32,
    alpha: f32,
    beta: f32,
}

/// bf16 / f16 bits of `x` (exact for the test's inputs).
fn bits(x: f32, bf16: bool) -> u16 {
    if bf16 {
        (x.to_bits() >> 16) as u16
    } else {
        f16_bits(x)
    }
}

/// IEEE binary16 bits of a value that is exact in it (normal or zero).
fn f16_bits(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exp), "{x} is not a normal f16");
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// C's element back to f32 and the rounding of an f32 to it (round to nearest even).
fn round_out(x: f32, out: u32) -> f32 {
    match out {
        k::OUT_F32 => x,
        k::OUT_BF16 => {
            let b = x.to_bits();
            f32::from_bits((b + 0x7fff + ((b >> 16) & 1)) & 0xffff_0000)
        }
        _ => {
            // binary16's spacing at x (normal range; the results stay far below 65504)
            let e = (((x.to_bits() >> 23) & 0xff) as i32 - 127).max(-14);
            let ulp = 2f32.powi(e - 10);
            (x / ulp).round_ties_even() * ulp
        }
    }
}

fn run_case(entry: &str, c: &Case, seed: u64) -> Result<(), String> {
    let bf16 = entry.contains("bf16");
    let ab = &entry[entry.len() - 2..];
    let (a_k_major, b_k_major) = (ab.as_bytes()[0] == b't', ab.as_bytes()[1] == b'n');
    let f: unsafe fn(HgemmSm80Params) = match entry {
        "hgemm_sm80_bf16_nn" => k::hgemm_sm80_bf16_nn,
        "hgemm_sm80_bf16_nt" => k::hgemm_sm80_bf16_nt,
        "hgemm_sm80_bf16_tn" => k::hgemm_sm80_bf16_tn,
        "hgemm_sm80_bf16_tt" => k::hgemm_sm80_bf16_tt,
        "hgemm_sm80_f16_nn" => k::hgemm_sm80_f16_nn,
        "hgemm_sm80_f16_nt" => k::hgemm_sm80_f16_nt,
        "hgemm_sm80_f16_tn" => k::hgemm_sm80_f16_tn,
        "hgemm_sm80_f16_tt" => k::hgemm_sm80_f16_tt,
        _ => return Err(format!("no entry {entry}")),
    };
    let mut rng = Rng(seed);
    let mut val = || ((rng.next_u64() % 33) as f32 - 16.0) / 8.0;
    // A (M,K), B (N,K) as f32, then stored with their majorities and leading dimensions
    // (multiples of 8 with 8 elements of padding)
    let a: Vec<f32> = (0..c.m * c.k).map(|_| val()).collect();
    let b: Vec<f32> = (0..c.n * c.k).map(|_| val()).collect();
    let c0: Vec<f32> = (0..c.m * c.n).map(|_| val()).collect();
    let pad = |x: usize| x.div_ceil(8) * 8 + 8;
    let store = |x: &[f32], rows: usize, k_major: bool| -> (Vec<u16>, usize) {
        let ld = if k_major { pad(c.k) } else { pad(rows) };
        let cols = if k_major { rows } else { c.k };
        let mut v = vec![0x7fffu16; ld * cols.max(1) + 8];
        for r in 0..rows {
            for kk in 0..c.k {
                let at = if k_major { r * ld + kk } else { kk * ld + r };
                v[at] = bits(x[r * c.k + kk], bf16);
            }
        }
        (v, ld)
    };
    let (ga, lda) = store(&a, c.m, a_k_major);
    let (gb, ldb) = store(&b, c.n, b_k_major);
    let ldc = c.m + 3;
    let guard = 17usize;
    let n_c = ldc * c.n + guard;
    // C as f32 or as 16-bit bits, with a sentinel in the padding
    let sentinel = 1.0e30f32;
    let mut c32 = vec![sentinel; n_c];
    let mut c16 = vec![0x7e00u16; n_c];
    for j in 0..c.n {
        for i in 0..c.m {
            let x = c0[i + j * c.m];
            c32[i + j * ldc] = x;
            c16[i + j * ldc] = bits(x, c.out == k::OUT_BF16);
        }
    }
    let c_addr = if c.out == k::OUT_F32 {
        c32.as_mut_ptr() as u64
    } else {
        c16.as_mut_ptr() as u64
    };
    let p = HgemmSm80Params {
        a: ga.as_ptr() as u64,
        b: gb.as_ptr() as u64,
        c: c_addr,
        lda: lda as i64,
        ldb: ldb as i64,
        ldc: ldc as i64,
        m: c.m as i32,
        n: c.n as i32,
        k: c.k as i32,
        alpha: c.alpha,
        beta: c.beta,
        out: c.out,
    };
    let grid = (c.m.div_ceil(TILE.0) as u32, c.n.div_ceil(TILE.1) as u32, 1);
    // SAFETY: the launch the crate documents; A, B, C hold the extents and leading dimensions
    // given (16-byte aligned: Vec<u16> of this size come from the system allocator aligned).
    unsafe { launch(grid, (THREADS, 1, 1), SMEM_BYTES as u32, || f(p)) };
    for j in 0..c.n {
        for i in 0..c.m {
            let mut want = 0f64;
            for kk in 0..c.k {
                want += f64::from(a[i * c.k + kk]) * f64::from(b[j * c.k + kk]);
            }
            let want = c.alpha as f64 * want + c.beta as f64 * f64::from(c0[i + j * c.m]);
            let want = round_out(want as f32, c.out);
            let got = match c.out {
                k::OUT_F32 => c32[i + j * ldc],
                k::OUT_BF16 => f32::from_bits((c16[i + j * ldc] as u32) << 16),
                _ => f16_value(c16[i + j * ldc]),
            };
            if got != want {
                return Err(format!("C({i},{j}) = {got}, want {want}"));
            }
        }
    }
    // the padding rows of C and the guard after it are untouched
    for j in 0..c.n {
        for i in c.m..ldc {
            if c32[i + j * ldc] != sentinel || c16[i + j * ldc] != 0x7e00 {
                return Err(format!("C's padding ({i},{j}) written"));
            }
        }
    }
    if c32[ldc * c.n..].iter().any(|&x| x != sentinel)
        || c16[ldc * c.n..].iter().any(|&x| x != 0x7e00)
    {
        return Err("the guard after C written".into());
    }
    Ok(())
}

/// binary16 bits to f32 (normal and zero values).
fn f16_value(h: u16) -> f32 {
    if h & 0x7fff == 0 {
        return 0.0;
    }
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32 - 15;
    let man = 1.0 + (h & 0x3ff) as f32 / 1024.0;
    sign * man * 2f32.powi(exp)
}

fn run(entry: &str) {
    let case = |m, n, k, out, alpha, beta| Case {
        m,
        n,
        k,
        out,
        alpha,
        beta,
    };
    // M, N off the tile (the zero-filled rows), K off 8, f32 C: every entry. TN bf16 and NT f16
    // (between them each operand K-major and MN-major) also: a k-loop longer than the pipeline
    // (STAGES + 1 k-tiles: every stage refilled) over 2 CTAs along M, and 2 CTAs along N with a
    // 16-bit C and beta; in each of the two the first CTA is a whole tile inside C (the mainloop
    // that copies without predicates after a first k-tile of K mod BK columns, the epilogue
    // without bound checks:
    // f32 C with beta = 0, 16-bit C with beta) and the second one at C's edge.
    let mut cases = vec![case(37, 21, 13, k::OUT_F32, 1.0, 0.0)];
    if entry == "hgemm_sm80_bf16_tn" || entry == "hgemm_sm80_f16_nt" {
        let out16 = if entry.contains("bf16") {
            k::OUT_BF16
        } else {
            k::OUT_F16
        };
        cases.push(case(
            TILE.0 + 8,
            TILE.1,
            TILE.2 * STAGES + 8,
            k::OUT_F32,
            0.5,
            0.0,
        ));
        cases.push(case(TILE.0, TILE.1 + 8, 40, out16, 1.0, 0.25));
        // the whole tiles' 16-bit C through warp shuffles: a whole tile, beta = 0, ldc = M + 3 a
        // multiple of 4 (8-byte aligned columns), beside an edge CTA along M; and with ldc = M + 3
        // odd (not aligned: the staged path's element stores)
        cases.push(case(TILE.0 + 1, TILE.1, 40, out16, 0.5, 0.0));
        cases.push(case(TILE.0 + 2, TILE.1, 24, out16, 1.0, 0.0));
    }
    report::check_cases(entry, &cases, 35, |c, seed| run_case(entry, c, seed));
}

entry_tests!(
    hgemm_sm80_bf16_nn,
    hgemm_sm80_bf16_nt,
    hgemm_sm80_bf16_tn,
    hgemm_sm80_bf16_tt,
    hgemm_sm80_f16_nn,
    hgemm_sm80_f16_nt,
    hgemm_sm80_f16_tn,
    hgemm_sm80_f16_tt,
);

/// The candidate `hgemm-sm80-raster`'s CTA order is a bijection of the grid: every tile once,
/// for grids with and without a partial group of M tiles (`cargo test -p kernels-emu --features
/// hgemm-sm80-raster`).
#[cfg(feature = "hgemm-sm80-raster")]
#[test]
fn hgemm_sm80_raster_covers_the_grid() {
    use layout_types::cute::prelude::StaticInt;
    let g = <k::RasterM as StaticInt>::VALUE as i32;
    for (gm, gn) in [
        (1, 1),
        (3, 5),
        (g, 2),
        (g + 1, 3),
        (2 * g + 5, 7),
        (32, 32),
        (64, 64),
    ] {
        let mut seen = vec![false; (gm * gn) as usize];
        for pid in 0..gm * gn {
            let (m, n) = k::raster_tile(pid, (gm, gn));
            assert!(
                (0..gm).contains(&m) && (0..gn).contains(&n),
                "{pid} -> {m},{n} of {gm}x{gn}"
            );
            let i = (m + n * gm) as usize;
            assert!(!seen[i], "tile {m},{n} twice on {gm}x{gn}");
            seen[i] = true;
        }
        // within a whole group the M tiles come first: CTAs pid and pid + 1 are neighbours in M
        if gm >= g {
            assert_eq!(k::raster_tile(1, (gm, gn)), (1, 0));
            assert_eq!(k::raster_tile(g, (gm, gn)), (0, 1));
        }
    }
}
