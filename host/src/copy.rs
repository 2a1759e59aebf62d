//! Issue #5: the tiled gmem → smem → gmem copy kernels (`kernels/src/copy.rs`): launchers with
//! the host-side legality checks, bit-exact checks (hooked into `host run`), and the benchmark
//! beside cudaMemcpy D2D (`bench`, plus `host copy bench` until the `bench` front end exists).
//!
//! ```text
//! host copy check        the copy checks only (what the sanitizers run)
//! host copy bench        GB/s of every variant and of memcpy D2D, 1 MiB .. 1 GiB
//! host copy misaligned   launches a 128-bit copy on a misaligned pointer: refused, exit 1
//! ```

use cudarc::driver::{CudaFunction, CudaSlice, DevicePtr, LaunchConfig, PushKernelArg, sys};

use crate::bench::BenchRow;
use crate::checks::{Rng, Row};
use crate::gpu::Gpu;

/// One kernel of the family.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// Name in tables.
    pub name: &'static str,
    /// PTX entry.
    pub kernel: &'static str,
    /// Bytes per element.
    pub elem: usize,
    /// Column-major (`(M,N):(1,ld)`) gmem.
    pub col: bool,
    /// Elements per instruction (1: scalar atom, no alignment rule).
    pub vec: usize,
    /// Block tile `(TILE_M, TILE_N)`.
    pub tile: (usize, usize),
    /// `B = Aᵀ` (output `N x M`) rather than a copy.
    pub transpose: bool,
}

/// Every variant, in table order.
pub const VARIANTS: [Variant; 8] = [
    Variant {
        name: "tiled_copy_row_f32_v4",
        kernel: "tiled_copy_row_f32_v4",
        elem: 4,
        col: false,
        vec: 4,
        tile: (64, 128),
        transpose: false,
    },
    Variant {
        name: "tiled_copy_row_f32_cp_async",
        kernel: "tiled_copy_row_f32_cp_async",
        elem: 4,
        col: false,
        vec: 4,
        tile: (64, 128),
        transpose: false,
    },
    Variant {
        name: "tiled_copy_col_f32_v4",
        kernel: "tiled_copy_col_f32_v4",
        elem: 4,
        col: true,
        vec: 4,
        tile: (128, 64),
        transpose: false,
    },
    Variant {
        name: "tiled_copy_row_f16_v4",
        kernel: "tiled_copy_row_f16_v4",
        elem: 2,
        col: false,
        vec: 8,
        tile: (64, 256),
        transpose: false,
    },
    Variant {
        name: "tiled_copy_col_f16_v4",
        kernel: "tiled_copy_col_f16_v4",
        elem: 2,
        col: true,
        vec: 8,
        tile: (256, 64),
        transpose: false,
    },
    Variant {
        name: "tiled_copy_row_f32_scalar",
        kernel: "tiled_copy_row_f32_scalar",
        elem: 4,
        col: false,
        vec: 1,
        tile: (64, 128),
        transpose: false,
    },
    Variant {
        name: "transpose_f32_swizzled",
        kernel: "transpose_f32_swizzled",
        elem: 4,
        col: false,
        vec: 4,
        tile: (64, 64),
        transpose: true,
    },
    Variant {
        name: "transpose_f32_naive",
        kernel: "transpose_f32_naive",
        elem: 4,
        col: false,
        vec: 4,
        tile: (64, 64),
        transpose: true,
    },
];

/// A launch: device addresses (bytes) and the matrix geometry, in elements.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    /// Source base address.
    pub src: u64,
    /// Destination base address.
    pub dst: u64,
    /// Rows of the source.
    pub m: usize,
    /// Columns of the source.
    pub n: usize,
    /// Source leading dimension.
    pub lds: usize,
    /// Destination leading dimension.
    pub ldd: usize,
}

impl Variant {
    /// Extent of the contiguous dimension of the source and of the destination.
    fn contiguous(&self, m: usize, n: usize) -> (usize, usize) {
        if self.transpose {
            (n, m)
        } else if self.col {
            (m, m)
        } else {
            (n, n)
        }
    }

    /// The leading dimensions this variant wants for an `m x n` source (padded to the vector).
    pub fn lds_ldd(&self, m: usize, n: usize) -> (usize, usize) {
        let (cs, cd) = self.contiguous(m, n);
        (cs.next_multiple_of(self.vec), cd.next_multiple_of(self.vec))
    }

    /// Host-side legality, before any launch: 128-bit atoms need 16-byte aligned bases and
    /// leading dimensions that are multiples of the vector width (the dynamic half of
    /// `layout_types::copy::check_vector`; the static half is a const assertion in the kernel).
    pub fn validate(&self, l: &Launch) -> Result<(), String> {
        let (cs, cd) = self.contiguous(l.m, l.n);
        if l.lds < cs.max(1) || l.ldd < cd.max(1) {
            return Err(format!(
                "{}: leading dimension smaller than the contiguous extent (lds={}, ldd={}, need {cs}/{cd})",
                self.name, l.lds, l.ldd
            ));
        }
        if self.vec > 1 {
            let bytes = (self.vec * self.elem) as u64;
            for (what, p) in [("source", l.src), ("destination", l.dst)] {
                if p % bytes != 0 {
                    return Err(format!(
                        "{}: {what} base pointer {p:#x} is not {bytes}-byte aligned (offset {} bytes); \
                         128-bit copies need aligned bases (use tiled_copy_row_f32_scalar)",
                        self.name,
                        p % bytes
                    ));
                }
            }
            for (what, ld) in [("lds", l.lds), ("ldd", l.ldd)] {
                if ld % self.vec != 0 {
                    return Err(format!(
                        "{}: {what}={ld} is not a multiple of the vector width {} (rows would start misaligned)",
                        self.name, self.vec
                    ));
                }
            }
        }
        let (gx, gy) = self.grid(l.m, l.n);
        if gy > 65535 || gx > i32::MAX as usize {
            return Err(format!(
                "{}: grid {gx}x{gy} too large for {}x{}",
                self.name, l.m, l.n
            ));
        }
        Ok(())
    }

    /// Grid: (tiles along the strided dimension, tiles along the contiguous one).
    pub fn grid(&self, m: usize, n: usize) -> (usize, usize) {
        let (tm, tn) = (
            m.div_ceil(self.tile.0).max(1),
            n.div_ceil(self.tile.1).max(1),
        );
        if self.col { (tn, tm) } else { (tm, tn) }
    }

    fn config(&self, m: usize, n: usize) -> LaunchConfig {
        let (gx, gy) = self.grid(m, n);
        LaunchConfig {
            grid_dim: (gx as u32, gy as u32, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: (self.tile.0 * self.tile.1 * self.elem) as u32,
        }
    }
}

/// The loaded kernels.
pub struct CopyKernels {
    funcs: Vec<CudaFunction>,
}

impl CopyKernels {
    /// Loads every variant's entry point.
    pub fn load(gpu: &Gpu) -> Result<Self, String> {
        let funcs = VARIANTS
            .iter()
            .map(|v| {
                gpu.function(v.kernel)
                    .map_err(|e| format!("loading {}: {e}", v.kernel))
            })
            .collect::<Result<_, _>>()?;
        Ok(CopyKernels { funcs })
    }

    /// Validates, then launches (asynchronously) variant `i`.
    pub fn launch(&self, gpu: &Gpu, i: usize, l: &Launch) -> Result<(), String> {
        let v = &VARIANTS[i];
        v.validate(l)?;
        let cfg = v.config(l.m, l.n);
        let (m, n, lds, ldd) = (l.m as i64, l.n as i64, l.lds as i64, l.ldd as i64);
        let mut b = gpu.stream.launch_builder(&self.funcs[i]);
        b.arg(&l.src)
            .arg(&l.dst)
            .arg(&m)
            .arg(&n)
            .arg(&lds)
            .arg(&ldd);
        // SAFETY: the signature is (ptr, ptr, i64 x4); `validate` checked alignment and leading
        // dimensions, and callers pass buffers holding the matrices.
        unsafe { b.launch(cfg) }
            .map(|_| ())
            .map_err(|e| format!("{}: launch: {e}", v.name))
    }
}

fn dptr<T>(gpu: &Gpu, s: &CudaSlice<T>) -> u64 {
    let (p, _sync) = s.device_ptr(&gpu.stream);
    p
}

/// One bit-exact check: random bits in, sentinel-filled output; every element inside the
/// matrix must match the reference, every padding element must still hold the sentinel.
fn check_one(gpu: &Gpu, k: &CopyKernels, i: usize, m: usize, n: usize) -> Result<Row, String> {
    let v = &VARIANTS[i];
    let (lds, ldd) = v.lds_ldd(m, n);
    let (rows_s, rows_d) = if v.transpose {
        (m, n)
    } else if v.col {
        (n, n)
    } else {
        (m, m)
    };
    let (ns, nd) = ((rows_s * lds).max(1), (rows_d * ldd).max(1));
    let words = |count: usize| (count * v.elem).div_ceil(4);
    let mut rng = Rng::new((m * 131 + n) as u64 ^ (i as u64) << 40);
    let host: Vec<u32> = (0..words(ns)).map(|_| rng.next_u32()).collect();
    const SENTINEL: u32 = 0xDEAD_BEEF;
    let s = &gpu.stream;
    let err = |e: cudarc::driver::DriverError| e.to_string();
    let src = s.clone_htod(&host).map_err(err)?;
    let init = vec![SENTINEL; words(nd)];
    let dst = s.clone_htod(&init).map_err(err)?;
    let l = Launch {
        src: dptr(gpu, &src),
        dst: dptr(gpu, &dst),
        m,
        n,
        lds,
        ldd,
    };
    let start = gpu
        .ctx
        .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(err)?;
    let end = gpu
        .ctx
        .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(err)?;
    start.record(s).map_err(err)?;
    k.launch(gpu, i, &l)?;
    end.record(s).map_err(err)?;
    let got: Vec<u32> = s.clone_dtoh(&dst).map_err(err)?;
    let ms = start.elapsed_ms(&end).map_err(err)?;

    // Element views (u16 or u32) of the host buffers.
    let get = |buf: &[u32], idx: usize| -> u32 {
        if v.elem == 4 {
            buf[idx]
        } else {
            (buf[idx / 2] >> (16 * (idx % 2))) & 0xFFFF
        }
    };
    let sentinel = if v.elem == 4 {
        SENTINEL
    } else {
        SENTINEL & 0xFFFF
    };
    let sentinel_at = |idx: usize| {
        if v.elem == 4 {
            sentinel
        } else {
            (SENTINEL >> (16 * (idx % 2))) & 0xFFFF
        }
    };
    let _ = sentinel;
    let mut want_inside = vec![false; nd];
    let mut bad = 0usize;
    for r in 0..m {
        for c in 0..n {
            let si = if v.col { r + c * lds } else { r * lds + c };
            // B[c][r] for the transpose and (r, c) column-major: the same offset.
            let di = if v.transpose || v.col {
                r + c * ldd
            } else {
                r * ldd + c
            };
            want_inside[di] = true;
            if get(&got, di) != get(&host, si) {
                bad += 1;
            }
        }
    }
    let mut clobbered = 0usize;
    for (di, inside) in want_inside.iter().enumerate() {
        if !inside && get(&got, di) != sentinel_at(di) {
            clobbered += 1;
        }
    }
    let bytes = 2 * m * n * v.elem;
    let mut note = format!("lds={lds} ldd={ldd}");
    if ms > 0.0 && bytes >= 1 << 20 {
        note += &format!(" {:.0} GB/s", bytes as f64 / (ms as f64 * 1e6));
    }
    if clobbered > 0 {
        note += &format!(" {clobbered} padding elements overwritten");
    }
    Ok(Row {
        kernel: v.name,
        shape: format!("{m}x{n}"),
        pass: bad == 0 && clobbered == 0,
        max_err: if bad == 0 { 0.0 } else { f64::NAN },
        mismatches: bad + clobbered,
        ms,
        note,
    })
}

/// The awkward shapes every variant is checked on.
pub const SHAPES: [(usize, usize); 8] = [
    (1, 1),
    (4097, 1023),
    (1, 4099),
    (3001, 1),
    (64, 128),
    (128, 64),
    (257, 255),
    (2048, 2048),
];

/// The misaligned-pointer refusal, as a row: passes when the launcher refuses before launching.
fn check_refusal(gpu: &Gpu, k: &CopyKernels) -> Row {
    let r = misaligned_launch(gpu, k);
    Row {
        kernel: "tiled_copy_row_f32_v4",
        shape: "src+4 bytes".into(),
        pass: r.is_err(),
        max_err: 0.0,
        mismatches: 0,
        ms: 0.0,
        note: match r {
            Err(e) => format!(
                "refused before launch: {}",
                e.split(';').next().unwrap_or(&e)
            ),
            Ok(()) => "a misaligned 128-bit copy was launched".into(),
        },
    }
}

fn misaligned_launch(gpu: &Gpu, k: &CopyKernels) -> Result<(), String> {
    let src = gpu
        .stream
        .alloc_zeros::<f32>(64 * 128 + 4)
        .map_err(|e| e.to_string())?;
    let dst = gpu
        .stream
        .alloc_zeros::<f32>(64 * 128 + 4)
        .map_err(|e| e.to_string())?;
    let l = Launch {
        src: dptr(gpu, &src) + 4,
        dst: dptr(gpu, &dst),
        m: 64,
        n: 128,
        lds: 128,
        ldd: 128,
    };
    k.launch(gpu, 0, &l)?;
    gpu.stream.synchronize().map_err(|e| e.to_string())
}

/// Every copy check, as rows of `host run`'s table (errors become FAIL rows).
pub fn check_all(gpu: &Gpu) -> Vec<Row> {
    let k = match CopyKernels::load(gpu) {
        Ok(k) => k,
        Err(e) => {
            return vec![Row {
                kernel: "tiled_copy",
                shape: "-".into(),
                pass: false,
                max_err: f64::NAN,
                mismatches: 0,
                ms: 0.0,
                note: e,
            }];
        }
    };
    let mut rows = Vec::new();
    for (i, v) in VARIANTS.iter().enumerate() {
        for &(m, n) in &SHAPES {
            rows.push(check_one(gpu, &k, i, m, n).unwrap_or_else(|e| Row {
                kernel: v.name,
                shape: format!("{m}x{n}"),
                pass: false,
                max_err: f64::NAN,
                mismatches: 0,
                ms: 0.0,
                note: e,
            }));
        }
    }
    rows.push(check_refusal(gpu, &k));
    rows
}

/// Median over batches of the per-launch time of `f` (ms), timed with CUDA events.
fn time_ms(
    gpu: &Gpu,
    bytes: usize,
    mut f: impl FnMut() -> Result<(), String>,
) -> Result<f64, String> {
    let err = |e: cudarc::driver::DriverError| e.to_string();
    let reps = (((256usize << 20) / bytes.max(1)).clamp(3, 200)) as u32;
    f()?; // warm-up
    let start = gpu
        .ctx
        .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(err)?;
    let end = gpu
        .ctx
        .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(err)?;
    let mut samples = Vec::new();
    for _ in 0..7 {
        start.record(&gpu.stream).map_err(err)?;
        for _ in 0..reps {
            f()?;
        }
        end.record(&gpu.stream).map_err(err)?;
        end.synchronize().map_err(err)?;
        samples.push(start.elapsed_ms(&end).map_err(err)? as f64 / reps as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    Ok(samples[samples.len() / 2])
}

/// The matrix shape a variant is benchmarked on for `bytes` per buffer.
fn bench_shape(v: &Variant, bytes: usize) -> (usize, usize) {
    let elems = bytes / v.elem;
    if v.transpose {
        let s = (elems as f64).sqrt() as usize;
        (s, s)
    } else if v.col {
        (4096, elems / 4096)
    } else {
        (elems / 4096, 4096)
    }
}

/// GB/s (bytes read + written) of every variant beside cudaMemcpy D2D (`cuMemcpyDtoDAsync`),
/// measured in the same run, for buffers of 1 MiB to 1 GiB.
pub fn bench(gpu: &Gpu, progress: &mut dyn FnMut(&str)) -> Result<Vec<BenchRow>, String> {
    let k = CopyKernels::load(gpu)?;
    let mut rows = Vec::new();
    for mib in [1usize, 4, 16, 64, 256, 1024] {
        let bytes = mib << 20;
        let src = gpu
            .stream
            .alloc_zeros::<u8>(bytes)
            .map_err(|e| e.to_string())?;
        let mut dst = gpu
            .stream
            .alloc_zeros::<u8>(bytes)
            .map_err(|e| e.to_string())?;
        let ref_ms = time_ms(gpu, bytes, || {
            gpu.stream
                .memcpy_dtod(&src, &mut dst)
                .map_err(|e| e.to_string())
        })?;
        let (ps, pd) = (dptr(gpu, &src), dptr(gpu, &dst));
        progress(&format!(
            "copy {mib} MiB: memcpy D2D {:.0} GB/s",
            2.0 * bytes as f64 / (ref_ms * 1e6)
        ));
        for (i, v) in VARIANTS.iter().enumerate() {
            let (m, n) = bench_shape(v, bytes);
            let (lds, ldd) = v.lds_ldd(m, n);
            let l = Launch {
                src: ps,
                dst: pd,
                m,
                n,
                lds,
                ldd,
            };
            let ms = time_ms(gpu, bytes, || k.launch(gpu, i, &l))?;
            let work = (2 * m * n * v.elem) as f64;
            let row = BenchRow {
                family: "copy",
                variant: v.name.to_string(),
                size: format!("{mib} MiB ({m}x{n})"),
                work,
                unit: "GB/s",
                ours_ms: ms,
                ref_ms: ref_ms * work / (2 * bytes) as f64,
                reference: "memcpy D2D",
            };
            progress(&format!(
                "copy {mib} MiB: {:<28} {:>7.0} GB/s  memcpy {:>7.0} GB/s  ratio {:.3}",
                v.name,
                row.rate(row.ours_ms),
                row.rate(row.ref_ms),
                row.ratio()
            ));
            rows.push(row);
        }
    }
    Ok(rows)
}

/// `host copy <check|bench|misaligned>`.
pub fn main(rest: &[String]) -> i32 {
    let gpu = match crate::gpu::open(0) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("host copy: no GPU: {why}");
            return 2;
        }
    };
    println!("device: {}", gpu.description);
    match rest.first().map(String::as_str) {
        Some("check") => {
            if crate::checks::print_table(&check_all(&gpu)) {
                0
            } else {
                1
            }
        }
        Some("bench") => match bench(&gpu, &mut |s| println!("{s}")) {
            Ok(_) => 0,
            Err(e) => {
                eprintln!("host copy bench: {e}");
                1
            }
        },
        Some("misaligned") => {
            let r = CopyKernels::load(&gpu).and_then(|k| misaligned_launch(&gpu, &k));
            match r {
                Ok(()) => {
                    eprintln!("host copy misaligned: the misaligned launch was NOT refused");
                    1
                }
                Err(e) => {
                    eprintln!("host copy: error: {e}");
                    1
                }
            }
        }
        _ => {
            eprintln!("usage: host copy <check|bench|misaligned>");
            2
        }
    }
}

/// [`bench`] for the `host bench` front end (`report::Runner`): one progress step per
/// configuration (memcpy D2D and every variant, at each size).
pub fn bench_report(
    gpu: &Gpu,
    progress: &mut crate::report::Progress,
) -> Result<Vec<BenchRow>, String> {
    progress.set_total(6 * (VARIANTS.len() + 1));
    bench(gpu, &mut |s| progress.step(s))
}
