//! fp32 GEMM (`kernels/src/gemm`): launchers, argument checks, checks against a CPU
//! reference and cuBLAS SGEMM, and the benchmark rows.
//!
//! BLAS conventions, column-major: `C(M×N) = alpha·op(A)·op(B) + beta·C`, `op(A)` is `M×K`
//! (`A` stored `M×K` for "N", `K×M` for "T"), `op(B)` is `K×N` (`K×N` for "N", `N×K` for "T").
//!
//! Launch bounds: rustc has no `__launch_bounds__`. The GEMM entries listed in [`BOUNDED`]
//! are loaded from a copy of the embedded PTX with `.maxntid 256,1,1` and `.minnctapersm 2`
//! after their parameter lists (≤ 128 registers, two CTAs per SM; no spills); the others
//! come from the plain module. `CUTE_RS_GEMM_BOUNDS=0` loads all of them plain.
//!
//! Plans ([`choose_plan`]): 128×128×8 tiles; split-K (`gridDim.z` k-slices added into
//! `beta·C` with `red.global.add.f32`) when the tiles alone leave the GPU under one wave;
//! 64×64×8 tiles for problems too small for either.
//!
//! Tolerances: vs the f64 CPU reference, per element
//! `|got − ref| ≤ 2(K+2)·ε₃₂·(|alpha|·Σₖ|a||b| + |beta|·|c|)` (the γ-bound of fp32 dot
//! products); vs cuBLAS (large sizes), `max |ours − cuBLAS| ≤ 1e-4·√K·|alpha|·max|A|·max|B|
//! + 1e-6·|beta|·max|C|` (summation orders differ; a dropped or doubled k-tile is off by ~0.3).

use std::sync::Arc;

use cudarc::cublas::{CudaBlas, sys as blas_sys};
use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg, sys,
};
use cudarc::nvrtc::Ptx;

use crate::bench::BenchRow;
use crate::checks::{Rng, Row};
use crate::gpu::Gpu;

/// BLAS transpose flag of one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trans {
    N,
    T,
}

impl Trans {
    fn ch(self) -> char {
        if self == Trans::N { 'n' } else { 't' }
    }
    fn blas(self) -> blas_sys::cublasOperation_t {
        match self {
            Trans::N => blas_sys::cublasOperation_t::CUBLAS_OP_N,
            Trans::T => blas_sys::cublasOperation_t::CUBLAS_OP_T,
        }
    }
}

/// A CTA tile configuration (must match an instantiation in `kernels/src/gemm/mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub bm: u32,
    pub bn: u32,
    pub bk: u32,
    pub threads: u32,
}

pub const TILE_128: Tile = Tile {
    bm: 128,
    bn: 128,
    bk: 8,
    threads: 256,
};
pub const TILE_64: Tile = Tile {
    bm: 64,
    bn: 64,
    bk: 8,
    threads: 64,
};
pub const TILES: [Tile; 2] = [TILE_128, TILE_64];

/// How one problem is launched: the tile and the split-K depth (`gridDim.z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub tile: Tile,
    /// k-slices; `> 1`: `C = beta·C` first, then the slices add into C with atomics.
    pub split: u32,
    /// Rasterization: `false`: blockIdx.x walks M tiles (launch order M-fastest); `true`: N.
    pub rast_n: bool,
    /// Use the entry without launch bounds (more registers, one CTA per SM) even where a
    /// bounded one is loaded: faster for long-K problems that fill the GPU (measured).
    pub one_cta: bool,
}

impl Plan {
    pub fn new(tile: Tile) -> Plan {
        Plan {
            tile,
            split: 1,
            rast_n: false,
            one_cta: false,
        }
    }
    /// k-elements per slice: `ceil(K/split)` rounded up to a multiple of `BK`.
    fn kc(&self, k: usize) -> usize {
        let bk = self.tile.bk as usize;
        k.div_ceil(self.split as usize).div_ceil(bk).max(1) * bk
    }
    pub fn label(&self) -> String {
        let mut l = self.tile.name();
        if self.split > 1 {
            l += &format!(" splitk{}", self.split);
        }
        if self.rast_n {
            l += " rastN";
        }
        if self.one_cta {
            l += " 1cta";
        }
        l
    }
}

impl Tile {
    /// Dynamic shared memory: two stages of k-major `(BX,BK):(_1,BX+4)` tiles for A and B
    /// (the kernel's `Cfg::SMEM_BYTES`).
    pub fn smem_bytes(&self) -> u32 {
        let cos = |bx: u32| (bx - 1) + (self.bk - 1) * (bx + 4) + 1;
        2 * (cos(self.bm) + cos(self.bn)) * 4
    }
    pub fn name(&self) -> String {
        format!("sgemm_{}x{}x{}", self.bm, self.bn, self.bk)
    }
    fn entry(&self, ta: Trans, tb: Trans) -> String {
        format!("{}_{}{}", self.name(), ta.ch(), tb.ch())
    }
}

/// The problem: sizes, transposes and leading dimensions.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    pub ta: Trans,
    pub tb: Trans,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
}

impl Problem {
    /// Tight leading dimensions.
    pub fn new(ta: Trans, tb: Trans, m: usize, n: usize, k: usize) -> Problem {
        let lda = if ta == Trans::N { m } else { k }.max(1);
        let ldb = if tb == Trans::N { k } else { n }.max(1);
        Problem {
            ta,
            tb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc: m.max(1),
        }
    }
    /// (rows, cols) of A and B as stored.
    fn a_dims(&self) -> (usize, usize) {
        if self.ta == Trans::N {
            (self.m, self.k)
        } else {
            (self.k, self.m)
        }
    }
    fn b_dims(&self) -> (usize, usize) {
        if self.tb == Trans::N {
            (self.k, self.n)
        } else {
            (self.n, self.k)
        }
    }
    fn need(rows: usize, cols: usize, ld: usize) -> usize {
        if rows == 0 || cols == 0 {
            0
        } else {
            (cols - 1) * ld + rows
        }
    }
    /// Elements A, B, C must hold.
    pub fn lens(&self) -> (usize, usize, usize) {
        let (ar, ac) = self.a_dims();
        let (br, bc) = self.b_dims();
        (
            Self::need(ar, ac, self.lda),
            Self::need(br, bc, self.ldb),
            Self::need(self.m, self.n, self.ldc),
        )
    }
    /// BLAS argument rules plus the kernel's 32-bit index range and the buffers' lengths.
    pub fn validate(&self, a_len: usize, b_len: usize, c_len: usize) -> Result<(), String> {
        let lim = i32::MAX as usize;
        if self.m > lim || self.n > lim || self.k > lim {
            return Err(format!(
                "gemm: M={}, N={}, K={} must each be < 2^31",
                self.m, self.n, self.k
            ));
        }
        let (ar, _) = self.a_dims();
        let (br, _) = self.b_dims();
        for (name, ld, rows) in [
            ("lda", self.lda, ar),
            ("ldb", self.ldb, br),
            ("ldc", self.ldc, self.m),
        ] {
            if ld < rows.max(1) || ld > lim {
                return Err(format!(
                    "gemm: {name}={ld} must be >= max(1, {rows}) (rows of the stored matrix) and < 2^31"
                ));
            }
        }
        let (na, nb, nc) = self.lens();
        for (name, len, need) in [("A", a_len, na), ("B", b_len, nb), ("C", c_len, nc)] {
            if len < need {
                return Err(format!(
                    "gemm: buffer {name} has {len} elements, the problem needs {need}"
                ));
            }
        }
        if self.n.div_ceil(64) > 65535 {
            return Err(format!(
                "gemm: N={} is too large for the grid's y dimension",
                self.n
            ));
        }
        Ok(())
    }
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    pub fn label(&self) -> String {
        format!(
            "{}x{}x{} {}{}",
            self.m,
            self.n,
            self.k,
            self.ta.ch().to_ascii_uppercase(),
            self.tb.ch().to_ascii_uppercase()
        )
    }
}

/// The GEMM entries, loaded (with launch bounds, see the module docs).
pub struct GemmKernels {
    _module: Arc<CudaModule>,
    fns: Vec<(String, CudaFunction)>,
    /// The same entries without launch bounds (from the embedded module).
    plain: Vec<(String, CudaFunction)>,
    pub bounded: bool,
}

/// Entries loaded with `.maxntid 256` and `.minnctapersm 2` (≤ 128 registers, two CTAs per
/// SM): those that ptxas fits in 128 registers without spilling (`nt` still spills 4 bytes,
/// 44 before the interior fast path; a 128×128×16 variant spilled 160-230 bytes and was
/// dropped), and that measured faster so.
pub const BOUNDED: [&str; 3] = [
    "sgemm_128x128x8_nn",
    "sgemm_128x128x8_tn",
    "sgemm_128x128x8_tt",
];

/// The PTX with launch-bound directives after each GEMM entry's parameter list.
pub fn ptx_with_bounds(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + 4096);
    let mut pending: Option<String> = None;
    for line in ptx.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(rest) = line.trim_start().strip_prefix(".visible .entry ") {
            let name = rest.split('(').next().unwrap_or("").trim();
            pending = BOUNDED
                .contains(&name)
                .then(|| ".maxntid 256, 1, 1\n.minnctapersm 2\n".to_string());
        } else if line.starts_with(')')
            && let Some(d) = pending.take()
        {
            out.push_str(&d);
        }
    }
    out
}

impl GemmKernels {
    pub fn load(gpu: &Gpu) -> Result<Self, String> {
        let bounded = std::env::var("CUTE_RS_GEMM_BOUNDS").map_or(true, |v| v != "0");
        Self::load_with(gpu, bounded)
    }
    pub fn load_with(gpu: &Gpu, bounded: bool) -> Result<Self, String> {
        let plain_module = gpu
            .module("gemm")
            .ok_or("no `gemm` PTX module in this build")?
            .clone();
        let module = if bounded {
            let ptx = cute_rs::module_of("sgemm_scale_c")
                .ok_or("no `gemm` PTX module in this build")?
                .ptx;
            gpu.ctx
                .load_module(Ptx::from_src(ptx_with_bounds(ptx)))
                .map_err(|e| format!("loading the GEMM module (PTX with launch bounds): {e}"))?
        } else {
            plain_module.clone()
        };
        let load_all = |module: &Arc<CudaModule>| -> Result<Vec<(String, CudaFunction)>, String> {
            let mut fns = Vec::new();
            for t in TILES {
                for ta in [Trans::N, Trans::T] {
                    for tb in [Trans::N, Trans::T] {
                        let name = t.entry(ta, tb);
                        let f = module
                            .load_function(&name)
                            .map_err(|e| format!("loading {name}: {e}"))?;
                        fns.push((name, f));
                    }
                }
            }
            let f = module
                .load_function("sgemm_scale_c")
                .map_err(|e| format!("loading sgemm_scale_c: {e}"))?;
            fns.push(("sgemm_scale_c".into(), f));
            Ok(fns)
        };
        let fns = load_all(&module)?;
        let plain = if bounded {
            load_all(&plain_module)?
        } else {
            fns.clone()
        };
        Ok(GemmKernels {
            _module: module,
            fns,
            plain,
            bounded,
        })
    }
    /// CTAs of `entry` that fit on one SM (the split-K heuristic's wave size).
    fn ctas_per_sm(&self, entry: &str) -> usize {
        if self.bounded && BOUNDED.contains(&entry) {
            2
        } else {
            1
        }
    }
    fn get(&self, name: &str) -> &CudaFunction {
        Self::find(&self.fns, name)
    }
    fn get_plain(&self, name: &str) -> &CudaFunction {
        Self::find(&self.plain, name)
    }
    fn find<'a>(fns: &'a [(String, CudaFunction)], name: &str) -> &'a CudaFunction {
        &fns.iter()
            .find(|(n, _)| n == name)
            .expect("every entry is loaded")
            .1
    }
}

/// The launch plan for a problem on `sms` multiprocessors: 128×128×8 tiles; when they
/// don't fill one wave (`sms` × CTAs per SM), split K into the most slices that still fit
/// in one wave (each slice ≥ 128 of K), since a partial second wave costs more than it
/// brings; 64×64 tiles when that fills less than half a wave.
pub fn choose_plan(gk: &GemmKernels, p: &Problem, sms: u32) -> Plan {
    for tile in [TILE_128, TILE_64] {
        let slots = sms as usize * gk.ctas_per_sm(&tile.entry(p.ta, p.tb));
        let tiles = p.m.div_ceil(tile.bm as usize) * p.n.div_ceil(tile.bn as usize);
        if tiles >= slots {
            return Plan {
                one_cta: prefer_one_cta(gk, p, 1),
                ..Plan::new(tile)
            };
        }
        let mut split = 1;
        while split < 16 && tiles * (split + 1) <= slots && p.k / (split + 1) >= 128 {
            split += 1;
        }
        if 2 * tiles * split > slots || tile == TILE_64 {
            return Plan {
                tile,
                split: split as u32,
                rast_n: false,
                one_cta: prefer_one_cta(gk, p, split),
            };
        }
    }
    Plan::new(TILE_64)
}

/// Whether a bounded entry should give way to its unbounded twin: measured on the H100
/// (`host gemm --sweep`, `host bench gemm`), for A not transposed one CTA per SM with all
/// registers is faster once K is long and the grid is split at most 2 ways (4096³ NN 0.93 vs
/// 0.90 of cuBLAS), while two CTAs per SM win for short K (8192×8192×256), deep split-K and
/// TN (0.92 bounded vs 0.78 unbounded at 4096³; TT is equal either way).
fn prefer_one_cta(gk: &GemmKernels, p: &Problem, split: usize) -> bool {
    gk.bounded && p.ta == Trans::N && split <= 2 && p.k >= 1024
}

/// Launches `C = alpha·op(A)·op(B) + beta·C` after checking the arguments; returns the
/// kernel's time (ms, CUDA events) when `timed`.
#[allow(clippy::too_many_arguments)]
pub fn sgemm(
    gk: &GemmKernels,
    s: &Arc<CudaStream>,
    tile: Tile,
    p: &Problem,
    alpha: f32,
    a: &CudaSlice<f32>,
    b: &CudaSlice<f32>,
    beta: f32,
    c: &mut CudaSlice<f32>,
) -> Result<f32, String> {
    sgemm_plan(gk, s, Plan::new(tile), p, alpha, a, b, beta, c)
}

/// [`sgemm`] with a launch plan (split-K).
#[allow(clippy::too_many_arguments)]
pub fn sgemm_plan(
    gk: &GemmKernels,
    s: &Arc<CudaStream>,
    plan: Plan,
    p: &Problem,
    alpha: f32,
    a: &CudaSlice<f32>,
    b: &CudaSlice<f32>,
    beta: f32,
    c: &mut CudaSlice<f32>,
) -> Result<f32, String> {
    sgemm_views(gk, s, plan, p, alpha, &a.slice(..), &b.slice(..), beta, c)
}

/// cuBLAS SGEMM (FP32 compute, `CUBLAS_DEFAULT_MATH`: no TF32), timed with events.
#[allow(clippy::too_many_arguments)]
pub fn cublas_sgemm(
    blas: &CudaBlas,
    s: &Arc<CudaStream>,
    p: &Problem,
    alpha: f32,
    a: &CudaSlice<f32>,
    b: &CudaSlice<f32>,
    beta: f32,
    c: &mut CudaSlice<f32>,
) -> Result<f32, String> {
    use cudarc::driver::{DevicePtr, DevicePtrMut};
    p.validate(a.len(), b.len(), c.len())?;
    let start = s
        .record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(|e| e.to_string())?;
    {
        let (pa, _ra) = a.device_ptr(s);
        let (pb, _rb) = b.device_ptr(s);
        let (pc, _rc) = c.device_ptr_mut(s);
        // SAFETY: validated sizes; device pointers of live buffers on this stream.
        unsafe {
            cudarc::cublas::result::sgemm(
                *blas.handle(),
                p.ta.blas(),
                p.tb.blas(),
                p.m as i32,
                p.n as i32,
                p.k as i32,
                &alpha,
                pa as *const f32,
                p.lda as i32,
                pb as *const f32,
                p.ldb as i32,
                &beta,
                pc as *mut f32,
                p.ldc as i32,
            )
        }
        .map_err(|e| format!("cublasSgemm: {e:?}"))?;
    }
    let end = s
        .record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .map_err(|e| e.to_string())?;
    start.elapsed_ms(&end).map_err(|e| e.to_string())
}

/// A cuBLAS handle with the default (FP32, no TF32) math mode set explicitly.
pub fn blas(gpu: &Gpu) -> Result<CudaBlas, String> {
    let b = CudaBlas::new(gpu.stream.clone()).map_err(|e| format!("cublasCreate: {e:?}"))?;
    // SAFETY: a live handle.
    let st = unsafe {
        blas_sys::cublasSetMathMode(*b.handle(), blas_sys::cublasMath_t::CUBLAS_DEFAULT_MATH)
    };
    if st != blas_sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        return Err(format!("cublasSetMathMode: {st:?}"));
    }
    Ok(b)
}

/// f64 CPU reference; returns (C, per-element error bound).
fn cpu_ref(
    p: &Problem,
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &[f32],
) -> (Vec<f64>, Vec<f64>) {
    let at = |i: usize, l: usize| if p.ta == Trans::N { a[i + l * p.lda] } else { a[l + i * p.lda] } as f64;
    let bt = |l: usize, j: usize| if p.tb == Trans::N { b[l + j * p.ldb] } else { b[j + l * p.ldb] } as f64;
    let mut out = c.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let mut bound = vec![0f64; c.len()];
    let g = 2.0 * (p.k as f64 + 2.0) * f32::EPSILON as f64;
    for j in 0..p.n {
        for i in 0..p.m {
            let (mut s, mut sa) = (0f64, 0f64);
            for l in 0..p.k {
                let t = at(i, l) * bt(l, j);
                s += t;
                sa += t.abs();
            }
            let ci = i + j * p.ldc;
            let old = c[ci] as f64;
            let bterm = if beta == 0.0 { 0.0 } else { beta as f64 * old };
            out[ci] = alpha as f64 * s + bterm;
            bound[ci] = g * (alpha.abs() as f64 * sa + bterm.abs()) + 1e-30;
        }
    }
    (out, bound)
}

fn rand_vec(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n).map(|_| rng.unit()).collect()
}

/// One correctness case vs the CPU reference.
#[allow(clippy::too_many_arguments)]
fn check_cpu(
    gpu: &Gpu,
    gk: &GemmKernels,
    plan: Plan,
    p: Problem,
    alpha: f32,
    beta: f32,
    pad: usize,
) -> Result<Row, String> {
    let s = &gpu.stream;
    let mut rng = Rng::new((p.m * 31 + p.n * 17 + p.k) as u64 ^ pad as u64);
    let (na, nb, nc) = p.lens();
    // `pad` extra elements in front shift the base off 16-byte alignment (scalar paths).
    let a = rand_vec(&mut rng, na + pad);
    let b = rand_vec(&mut rng, nb + pad);
    let mut c = rand_vec(&mut rng, nc);
    if beta == 0.0 && nc > 0 {
        c[0] = f32::NAN; // beta == 0 must not read C
    }
    let (want, bound) = cpu_ref(&p, alpha, &a[pad..], &b[pad..], beta, &c);
    let da = s.clone_htod(&a).map_err(|e| e.to_string())?;
    let db = s.clone_htod(&b).map_err(|e| e.to_string())?;
    let mut dc = s.clone_htod(&c).map_err(|e| e.to_string())?;
    let (va, vb) = (da.slice(pad..), db.slice(pad..));
    let ms = sgemm_views(gk, s, plan, &p, alpha, &va, &vb, beta, &mut dc)?;
    let got = s.clone_dtoh(&dc).map_err(|e| e.to_string())?;
    let (mut bad, mut max_rel) = (0usize, 0f64);
    for i in 0..nc {
        let in_c = (i % p.ldc.max(1)) < p.m;
        let w = if in_c { want[i] } else { c[i] as f64 };
        let d = (got[i] as f64 - w).abs();
        let lim = if in_c { bound[i] } else { 0.0 };
        if d.is_nan() || d > lim {
            bad += 1;
        }
        if lim > 0.0 {
            max_rel = max_rel.max(d / lim);
        }
    }
    let shape = format!(
        "{} a={alpha} b={beta}{}{}",
        p.label(),
        if pad > 0 { " unaligned" } else { "" },
        if plan.split > 1 {
            format!(" splitk{}", plan.split)
        } else {
            String::new()
        }
    );
    Ok(Row {
        kernel: tile_static_name(plan.tile),
        shape,
        pass: bad == 0,
        max_err: max_rel,
        mismatches: bad,
        ms,
        note: "vs f64 CPU; max_err = max |err|/bound".into(),
    })
}

/// [`sgemm`] on buffer views (the unaligned cases).
#[allow(clippy::too_many_arguments)]
fn sgemm_views(
    gk: &GemmKernels,
    s: &Arc<CudaStream>,
    plan: Plan,
    p: &Problem,
    alpha: f32,
    a: &cudarc::driver::CudaView<'_, f32>,
    b: &cudarc::driver::CudaView<'_, f32>,
    beta: f32,
    c: &mut CudaSlice<f32>,
) -> Result<f32, String> {
    p.validate(a.len(), b.len(), c.len())?;
    if p.m == 0 || p.n == 0 {
        return Ok(0.0);
    }
    let tile = plan.tile;
    let f = if plan.one_cta {
        gk.get_plain(&tile.entry(p.ta, p.tb))
    } else {
        gk.get(&tile.entry(p.ta, p.tb))
    };
    let kc = plan.kc(p.k);
    let split = if plan.split > 1 {
        p.k.div_ceil(kc).max(1)
    } else {
        1
    };
    if split > 65535 {
        return Err(format!("gemm: split-K depth {split} is too large"));
    }
    let (gm, gn) = (
        p.m.div_ceil(tile.bm as usize) as u32,
        p.n.div_ceil(tile.bn as usize) as u32,
    );
    if gm.max(gn) > 65535 * 64 || (if plan.rast_n { gm } else { gn }) > 65535 {
        return Err(format!(
            "gemm: {gm}x{gn} tiles exceed the grid's y dimension"
        ));
    }
    let cfg = LaunchConfig {
        grid_dim: if plan.rast_n {
            (gn, gm, split as u32)
        } else {
            (gm, gn, split as u32)
        },
        block_dim: (tile.threads, 1, 1),
        shared_mem_bytes: tile.smem_bytes(),
    };
    let (m, n, k, kc) = (p.m as i32, p.n as i32, p.k as i32, kc as i32);
    let rast = i32::from(plan.rast_n);
    let (lda, ldb, ldc) = (p.lda as i32, p.ldb as i32, p.ldc as i32);
    let ev = |s: &Arc<CudaStream>| {
        s.record_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| e.to_string())
    };
    let start = ev(s)?;
    if split > 1 {
        // C = beta·C, then the k-slices add alpha·A·B into it
        let mut l = s.launch_builder(gk.get("sgemm_scale_c"));
        l.arg(&m).arg(&n).arg(&beta).arg(&mut *c).arg(&ldc);
        let sc = LaunchConfig {
            grid_dim: (p.m.div_ceil(256) as u32, p.n.min(65535) as u32, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: `c` holds (M,N) with leading dimension ldc (validated).
        unsafe { l.launch(sc) }.map_err(|e| format!("launching sgemm_scale_c: {e}"))?;
    }
    let mut l = s.launch_builder(f);
    l.arg(&m)
        .arg(&n)
        .arg(&k)
        .arg(&kc)
        .arg(&rast)
        .arg(&alpha)
        .arg(a)
        .arg(&lda)
        .arg(b)
        .arg(&ldb)
        .arg(&beta)
        .arg(c)
        .arg(&ldc);
    // SAFETY: as in `sgemm`.
    unsafe { l.launch(cfg) }.map_err(|e| format!("launching {}: {e}", tile.entry(p.ta, p.tb)))?;
    let end = ev(s)?;
    start.elapsed_ms(&end).map_err(|e| e.to_string())
}

fn tile_static_name(t: Tile) -> &'static str {
    if t == TILE_128 {
        "sgemm_128x128x8"
    } else {
        "sgemm_64x64x8"
    }
}

fn max_abs(v: &[f32]) -> f64 {
    v.iter().fold(0f64, |m, &x| m.max((x as f64).abs()))
}

/// One case vs cuBLAS (same inputs).
fn check_cublas(
    gpu: &Gpu,
    gk: &GemmKernels,
    blas: &CudaBlas,
    plan: Plan,
    p: Problem,
    alpha: f32,
    beta: f32,
) -> Result<Row, String> {
    let s = &gpu.stream;
    let mut rng = Rng::new((p.m ^ p.n << 7 ^ p.k << 14) as u64);
    let (na, nb, nc) = p.lens();
    let (a, b, c) = (
        rand_vec(&mut rng, na),
        rand_vec(&mut rng, nb),
        rand_vec(&mut rng, nc),
    );
    let e = |e: cudarc::driver::DriverError| e.to_string();
    let da = s.clone_htod(&a).map_err(e)?;
    let db = s.clone_htod(&b).map_err(e)?;
    let mut dc = s.clone_htod(&c).map_err(e)?;
    let mut dr = s.clone_htod(&c).map_err(e)?;
    let ms = sgemm_plan(gk, s, plan, &p, alpha, &da, &db, beta, &mut dc)?;
    cublas_sgemm(blas, s, &p, alpha, &da, &db, beta, &mut dr)?;
    let (got, want) = (s.clone_dtoh(&dc).map_err(e)?, s.clone_dtoh(&dr).map_err(e)?);
    let tol = 1e-4 * (p.k as f64).sqrt() * alpha.abs() as f64 * max_abs(&a) * max_abs(&b)
        + 1e-6 * beta.abs() as f64 * max_abs(&c);
    let mut bad = 0;
    let mut maxd = 0f64;
    for (g, w) in got.iter().zip(&want) {
        let d = (*g as f64 - *w as f64).abs();
        if d.is_nan() || d > tol {
            bad += 1;
        }
        maxd = maxd.max(if d.is_nan() { f64::INFINITY } else { d });
    }
    let tf = p.flops() / (ms as f64 * 1e9);
    Ok(Row {
        kernel: tile_static_name(plan.tile),
        shape: format!(
            "{} a={alpha} b={beta}{}",
            p.label(),
            if plan.split > 1 {
                format!(" splitk{}", plan.split)
            } else {
                String::new()
            }
        ),
        pass: bad == 0,
        max_err: maxd,
        mismatches: bad,
        ms,
        note: format!("vs cuBLAS (tol {tol:.1e}); {tf:.1} TFLOP/s"),
    })
}

/// Rows for `host run`: irregular sizes × majorities × tiles vs the CPU, larger vs cuBLAS,
/// and argument errors rejected before launch.
pub fn checks(gpu: &Gpu) -> Vec<Row> {
    let fail = |kernel: &'static str, shape: String, e: String| Row {
        kernel,
        shape,
        pass: false,
        max_err: f64::NAN,
        mismatches: 0,
        ms: 0.0,
        note: e,
    };
    let gk = match GemmKernels::load(gpu) {
        Ok(g) => g,
        Err(e) => return vec![fail("sgemm", String::new(), e)],
    };
    let mut rows = Vec::new();
    let small_only = std::env::var("CUTE_RS_GEMM_SMALL").is_ok_and(|v| v == "1");
    let trans = [
        (Trans::N, Trans::N),
        (Trans::N, Trans::T),
        (Trans::T, Trans::N),
        (Trans::T, Trans::T),
    ];
    let small: [(usize, usize, usize, f32, f32, usize); 6] = [
        (1, 1, 1, 1.0, 0.0, 0),
        (7, 13, 5, 1.5, -0.5, 0),
        (128, 128, 8, 1.0, 0.0, 0),
        (130, 67, 33, -1.0, 2.0, 0),
        (257, 129, 100, 0.5, 1.0, 1),
        (64, 200, 0, 1.0, 0.5, 0),
    ];
    for tile in TILES {
        for &(ta, tb) in &trans {
            for &(m, n, k, alpha, beta, pad) in &small {
                let p = Problem::new(ta, tb, m, n, k);
                let r = check_cpu(gpu, &gk, Plan::new(tile), p, alpha, beta, pad);
                rows.push(r.unwrap_or_else(|e| fail(tile_static_name(tile), p.label(), e)));
            }
            // split-K: 3 k-slices (the last one partial), atomics into beta·C
            for &(m, n, k, alpha, beta, pad) in &[
                (130usize, 67usize, 100usize, -1.0f32, 2.0f32, 0usize),
                (257, 129, 300, 0.5, 0.0, 1),
            ] {
                let p = Problem::new(ta, tb, m, n, k);
                let plan = Plan {
                    tile,
                    split: 3,
                    rast_n: ta == Trans::T,
                    one_cta: false,
                };
                let r = check_cpu(gpu, &gk, plan, p, alpha, beta, pad);
                rows.push(r.unwrap_or_else(|e| fail(tile_static_name(tile), p.label(), e)));
            }
            // non-tight leading dimensions (ld % 4 != 0: scalar loads)
            let mut p = Problem::new(ta, tb, 100, 90, 77);
            p.lda += 3;
            p.ldb += 1;
            p.ldc += 5;
            let r = check_cpu(gpu, &gk, Plan::new(tile), p, 1.25, 0.75, 0);
            rows.push(
                r.unwrap_or_else(|e| fail(tile_static_name(tile), format!("{} ld+", p.label()), e)),
            );
        }
    }
    match blas(gpu) {
        Ok(_) if small_only => {}
        Ok(bl) => {
            for &(ta, tb) in &trans {
                for (tile, split, (m, n, k)) in [
                    (TILE_128, 1, (1024, 1024, 1024)),
                    (TILE_128, 1, (1000, 1030, 999)),
                    (TILE_64, 1, (512, 384, 1000)),
                    (TILE_128, 8, (1000, 130, 4000)),
                ] {
                    let p = Problem::new(ta, tb, m, n, k);
                    let plan = Plan {
                        tile,
                        split,
                        rast_n: split == 1,
                        one_cta: split == 1,
                    };
                    let r = check_cublas(gpu, &gk, &bl, plan, p, 1.0, 0.5);
                    rows.push(r.unwrap_or_else(|e| fail(tile_static_name(tile), p.label(), e)));
                }
            }
        }
        Err(e) => rows.push(fail("sgemm", "vs cuBLAS".into(), e)),
    }
    // argument errors: rejected with a message, nothing launched
    let p = Problem {
        lda: 3,
        ..Problem::new(Trans::N, Trans::N, 8, 8, 8)
    };
    let s = &gpu.stream;
    let r = (|| -> Result<Row, String> {
        let a = s.alloc_zeros::<f32>(64).map_err(|e| e.to_string())?;
        let mut c = s.alloc_zeros::<f32>(64).map_err(|e| e.to_string())?;
        let e1 = sgemm(&gk, s, TILE_128, &p, 1.0, &a, &a, 0.0, &mut c).err();
        let short = Problem::new(Trans::N, Trans::N, 8, 9, 8);
        let e2 = sgemm(&gk, s, TILE_128, &short, 1.0, &a, &a, 0.0, &mut c).err();
        let ok = e1.is_some() && e2.is_some();
        Ok(Row {
            kernel: "sgemm",
            shape: "bad lda / short C".into(),
            pass: ok,
            max_err: 0.0,
            mismatches: usize::from(!ok),
            ms: 0.0,
            note: format!("{} | {}", e1.unwrap_or_default(), e2.unwrap_or_default()),
        })
    })();
    rows.push(r.unwrap_or_else(|e| fail("sgemm", "bad args".into(), e)));
    rows
}

/// Median time (ms) of `f` over enough launches (≥ 5, ~150 ms in all, ≤ 50), after a warm-up.
fn median_ms(mut f: impl FnMut() -> Result<f32, String>) -> Result<f64, String> {
    let first = f()? as f64;
    let reps = ((150.0 / first.max(1e-3)) as usize).clamp(5, 50);
    let mut t: Vec<f64> = (0..reps)
        .map(|_| f().map(|x| x as f64))
        .collect::<Result<_, _>>()?;
    t.sort_by(|a, b| a.total_cmp(b));
    Ok(t[t.len() / 2])
}

/// The benchmark: ours (tile chosen by size) and cuBLAS SGEMM on the same buffers, NN for all
/// shapes, the four majorities at 4096³.
pub fn bench(gpu: &Gpu, progress: &mut crate::report::Progress) -> Result<Vec<BenchRow>, String> {
    let gk = GemmKernels::load(gpu)?;
    let bl = blas(gpu)?;
    let sms = gpu
        .ctx
        .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .unwrap_or(132) as u32;
    let (n, t) = (Trans::N, Trans::T);
    let mut cases: Vec<Problem> = [1024, 2048, 4096, 8192]
        .iter()
        .map(|&s| Problem::new(n, n, s, s, s))
        .collect();
    for (ta, tb) in [(n, t), (t, n), (t, t)] {
        cases.push(Problem::new(ta, tb, 4096, 4096, 4096));
    }
    for (m, nn, k) in [
        (8192, 8192, 256),
        (256, 8192, 8192),
        (4096, 128, 4096),
        (128, 4096, 4096),
    ] {
        cases.push(Problem::new(n, n, m, nn, k));
    }
    let s = &gpu.stream;
    let e = |e: cudarc::driver::DriverError| e.to_string();
    let mut rows = Vec::new();
    progress.set_total(cases.len());
    if !gk.bounded {
        progress.note("CUTE_RS_GEMM_BOUNDS=0: GEMM entries without launch bounds");
    }
    for p in cases {
        let plan = choose_plan(&gk, &p, sms);
        progress.step(&format!("{} ({})", p.label(), plan.label()));
        let (na, nb, nc) = p.lens();
        let mut rng = Rng::new(42);
        let da = s.clone_htod(&rand_vec(&mut rng, na)).map_err(e)?;
        let db = s.clone_htod(&rand_vec(&mut rng, nb)).map_err(e)?;
        let mut dc = s.alloc_zeros::<f32>(nc).map_err(e)?;
        let ours = median_ms(|| sgemm_plan(&gk, s, plan, &p, 1.0, &da, &db, 0.0, &mut dc))?;
        let refm = median_ms(|| cublas_sgemm(&bl, s, &p, 1.0, &da, &db, 0.0, &mut dc))?;
        rows.push(BenchRow {
            family: "gemm",
            variant: format!("{} {}", plan.label(), &p.label()[p.label().len() - 2..]),
            size: format!("{}x{}x{}", p.m, p.n, p.k),
            work: p.flops(),
            unit: "TFLOP/s",
            ours_ms: ours,
            ref_ms: refm,
            reference: "cuBLAS SGEMM",
        });
    }
    Ok(rows)
}

/// `host gemm --sweep`: every plan (tile × split-K × launch bounds) on the bench shapes,
/// NN, then the chosen plan for all four majorities; TFLOP/s and the ratio to cuBLAS.
fn sweep(gpu: &Gpu) -> Result<(), String> {
    let mods = [
        GemmKernels::load_with(gpu, false)?,
        GemmKernels::load_with(gpu, true)?,
    ];
    let bl = blas(gpu)?;
    let sms = gpu
        .ctx
        .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .unwrap_or(132) as u32;
    let s = &gpu.stream;
    let e = |e: cudarc::driver::DriverError| e.to_string();
    let shapes = [
        (1024, 1024, 1024),
        (2048, 2048, 2048),
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        (8192, 8192, 256),
        (256, 8192, 8192),
        (4096, 128, 4096),
        (128, 4096, 4096),
    ];
    let all = [
        (Trans::N, Trans::N),
        (Trans::N, Trans::T),
        (Trans::T, Trans::N),
        (Trans::T, Trans::T),
    ];
    for &(m, n, k) in &shapes {
        for &(ta, tb) in &all {
            let p = Problem::new(ta, tb, m, n, k);
            let (na, nb, nc) = p.lens();
            let mut rng = Rng::new(42);
            let da = s.clone_htod(&rand_vec(&mut rng, na)).map_err(e)?;
            let db = s.clone_htod(&rand_vec(&mut rng, nb)).map_err(e)?;
            let mut dc = s.alloc_zeros::<f32>(nc).map_err(e)?;
            let refm = median_ms(|| cublas_sgemm(&bl, s, &p, 1.0, &da, &db, 0.0, &mut dc))?;
            let tf = |ms: f64| p.flops() / (ms * 1e9);
            println!("{} cuBLAS {:.1}", p.label(), tf(refm));
            let chosen = choose_plan(&mods[1], &p, sms);
            let tiles = m.div_ceil(128) * n.div_ceil(128);
            let mut plans = vec![chosen];
            if tiles >= 2 * sms as usize {
                plans.push(Plan {
                    rast_n: true,
                    ..chosen
                });
            } else if (ta, tb) == (Trans::N, Trans::N) {
                for split in [1u32, 2, 4, 8] {
                    for tile in [TILE_128, TILE_64] {
                        plans.push(Plan {
                            tile,
                            split,
                            rast_n: false,
                            one_cta: false,
                        });
                    }
                }
            }
            for plan in plans {
                for (bi, gk) in mods.iter().enumerate() {
                    let ours =
                        median_ms(|| sgemm_plan(gk, s, plan, &p, 1.0, &da, &db, 0.0, &mut dc))?;
                    println!(
                        "  {:<28} {:<4} {:6.1} TFLOP/s  {:.3}{}",
                        plan.label(),
                        if bi == 1 { "bnd" } else { "unb" },
                        tf(ours),
                        refm / ours,
                        if plan == chosen { "  (chosen)" } else { "" }
                    );
                }
            }
        }
    }
    Ok(())
}

/// `host gemm [--small] [--device N]`: only the GEMM checks, as `host run`'s table
/// (`--small`: CPU-reference cases only, for compute-sanitizer).
pub fn main(rest: &[String]) -> i32 {
    let mut device = 0;
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            // SAFETY: single-threaded at this point; read back in `checks`.
            "--small" => unsafe { std::env::set_var("CUTE_RS_GEMM_SMALL", "1") },
            "--sweep" => unsafe { std::env::set_var("CUTE_RS_GEMM_SWEEP", "1") },
            "--device" => match it.next().and_then(|v| v.parse().ok()) {
                Some(d) => device = d,
                None => {
                    eprintln!("host gemm: --device needs a number");
                    return 2;
                }
            },
            other => {
                eprintln!(
                    "host gemm: unknown argument `{other}`; usage: host gemm [--small] [--device N]"
                );
                return 2;
            }
        }
    }
    let gpu = match crate::gpu::open(device) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("host gemm: no GPU: {why}");
            return 2;
        }
    };
    println!("device: {}", gpu.description);
    if std::env::var("CUTE_RS_GEMM_SWEEP").is_ok_and(|v| v == "1") {
        return match sweep(&gpu) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("host gemm --sweep: {e}");
                1
            }
        };
    }
    if crate::checks::print_table(&checks(&gpu)) {
        0
    } else {
        1
    }
}
