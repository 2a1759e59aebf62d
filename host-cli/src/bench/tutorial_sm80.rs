//! CuTe's sm80 tutorial GEMM (`examples/cute/tutorial/sgemm_sm80.cu` of CUTLASS 4.2: half in,
//! out and accumulation, `mma.sync` m16n8k16, `ldmatrix`, a 3-stage `cp.async` pipeline,
//! 128×128×64 CTA tiles, 4 warps; its TN path) loaded from its compiled PTX and timed beside our
//! Ampere kernel in one harness (issue #35: the same data, launches, timer and clocks for both).
//!
//! The PTX is the tutorial binary's (`cuobjdump -xptx all sgemm_sm80`, built with `nvcc
//! -arch=compute_80`; `tools/gpu/ampere/b2b-vs-tutorial.sh` shows how): it is not in this
//! repository. Its one `gemm_device` entry takes CuTe's objects by value; the static ones
//! (tilers, layouts, copies, the MMA) are empty structs of one byte, so a launch passes
//! `(M, N, K), ∅, A, ldA, ∅, ∅, ∅, B, ldB, ∅, ∅, ∅, C, ldC, ∅, ∅, alpha, beta` as the tutorial's
//! `gemm_tn` does: `dA = (ldA, _1)`, `dB = (ldB, _1)`, `dC = (_1, ldC)`. [`TutorialSm80::load`]
//! checks the entry's parameter list against that before anything runs.

use std::path::Path;

use host::cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg,
};
use host::half::f16;

use super::{BenchRow, Timing};
use host::context::Context;
use host::error::{Error, Result};
use host::gemm::{GemmConfig, Trans};

/// The tutorial's CTA tile (M, N, K) on its TN path.
pub const TILE: (usize, usize, usize) = (128, 128, 64);
/// Its threads per CTA (`size(mmaC)`: 2×2 warps).
pub const THREADS: u32 = 128;
/// Its dynamic shared memory: 3 stages of A's and B's 128×64 half tiles (`sizeof(SharedStorage)`).
pub const SMEM_BYTES: u32 = 3 * (128 + 128) * 64 * 2;

/// The entry's parameters as the PTX declares them (`b8[n]`: an aggregate of n bytes).
const PARAMS: [&str; 18] = [
    "b8[12]", "b8[1]", "u64", "b8[4]", "b8[1]", "b8[1]", "b8[1]", "u64", "b8[4]", "b8[1]", "b8[1]",
    "b8[1]", "u64", "b8[4]", "b8[1]", "b8[1]", "b8[2]", "b8[2]",
];

/// The tutorial's problem shape `(M, N, K)`: `cute::tuple<int, int, int>`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Shape3([i32; 3]);
// SAFETY: `#[repr(C)]`, three `int`s, as the entry's first parameter (12 bytes, align 4).
unsafe impl host::cudarc::driver::DeviceRepr for Shape3 {}

/// The gemm_device entry of the tutorial's PTX: its name, after checking that it is the half TN
/// instance: its 18 parameters have the types that instance declares, in order.
///
/// ```
/// let ptx = ".visible .entry x()\n{\n}\n";
/// let e = host_cli::bench::tutorial_sm80::entry(ptx).unwrap_err();
/// assert!(e.to_string().contains("gemm_device"), "{e}");
/// ```
pub fn entry(ptx: &str) -> Result<String> {
    let bad = |why: String| Error::Unsupported(format!("CuTe's sm80 tutorial PTX: {why}"));
    let mut found = None;
    let mut lines = ptx.lines();
    while let Some(l) = lines.next() {
        let Some(rest) = l.trim().split(".entry ").nth(1) else {
            continue;
        };
        let name = rest.trim_end_matches('(').trim().to_string();
        if !name.contains("gemm_device") || !name.contains("SM80_16x8x16_F16F16F16F16_TN") {
            continue;
        }
        let mut params = Vec::new();
        for p in lines.by_ref() {
            let p = p.trim();
            if p.starts_with(')') {
                break;
            }
            let ty = if p.contains(".u64") {
                "u64".to_string()
            } else if let (Some(a), Some(b)) = (p.rfind('['), p.rfind(']')) {
                format!("b8{}", &p[a..=b])
            } else {
                format!("? ({p})")
            };
            params.push(ty);
        }
        if params != PARAMS {
            return Err(bad(format!(
                "{name}'s parameters are {params:?}, not the half TN gemm_tn's {PARAMS:?}"
            )));
        }
        if found.replace(name).is_some() {
            return Err(bad("two half TN gemm_device entries".into()));
        }
    }
    found.ok_or_else(|| {
        bad(
            "no gemm_device entry with SM80_16x8x16_F16F16F16F16_TN (is it sgemm_sm80's PTX?)"
                .into(),
        )
    })
}

/// The tutorial's kernel, loaded into a [`Context`]'s CUDA context.
#[derive(Debug)]
pub struct TutorialSm80 {
    f: CudaFunction,
}

impl TutorialSm80 {
    /// Loads the PTX file (the driver JIT-compiles it for this device) and its entry.
    ///
    /// ```no_run
    /// use std::path::Path;
    /// use host_cli::bench::tutorial_sm80::TutorialSm80;
    /// let ctx = host::Context::new(0)?;
    /// // the tutorial binary's PTX (`cuobjdump -xptx all sgemm_sm80`)
    /// let tutorial = TutorialSm80::load(&ctx, Path::new("sgemm_sm80.1.sm_80.ptx"))?;
    /// # let _ = tutorial;
    /// // a file without the half TN `gemm_device` entry is refused before the driver sees it
    /// let e = TutorialSm80::load(&ctx, Path::new("Cargo.toml")).unwrap_err();
    /// assert!(e.to_string().contains("no gemm_device entry"), "{e}");
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn load(ctx: &Context, path: &Path) -> Result<TutorialSm80> {
        let ptx = std::fs::read_to_string(path)
            .map_err(|e| Error::Unsupported(format!("{}: {e}", path.display())))?;
        let name = entry(&ptx)?;
        // the tutorial's kernel is `static` (an entry without `.visible`): made visible, so that
        // the driver's lookup by name finds it whatever its linkage rules
        let ptx = match ptx.contains(&format!(".visible .entry {name}")) {
            true => ptx,
            false => ptx.replacen(
                &format!(".entry {name}"),
                &format!(".visible .entry {name}"),
                1,
            ),
        };
        let module = ctx
            .cuda_context()
            .load_module(host::cudarc::nvrtc::Ptx::from_src(ptx))?;
        let f = module.load_function(&name)?;
        f.set_attribute(
            host::cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            SMEM_BYTES as i32,
        )?;
        // as the tutorial's gemm_tn: "Set L1 to be SMEM only"
        f.set_attribute(
            host::cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
            100,
        )?;
        Ok(TutorialSm80 { f })
    }

    /// Why `g` is not a problem the tutorial's TN path computes: its tiles must divide M, N and K
    /// (it has no bound checks), A and B row-major by K (`--ta`, B `N`), C column-major; alpha
    /// 1, beta 0 (its `main`'s values).
    ///
    /// ```
    /// use host::{GemmConfig, Trans};
    /// use host_cli::bench::tutorial_sm80::TutorialSm80;
    /// let g = GemmConfig::new(256, 256, 128).trans(Trans::T, Trans::N);
    /// assert!(TutorialSm80::check(&g).is_ok());
    /// assert!(TutorialSm80::check(&GemmConfig::new(256, 256, 128)).is_err()); // NN
    /// let e = TutorialSm80::check(&GemmConfig::new(200, 256, 128).trans(Trans::T, Trans::N));
    /// assert!(e.unwrap_err().to_string().contains("multiples"));
    /// ```
    pub fn check(g: &GemmConfig) -> Result<()> {
        let (bm, bn, bk) = TILE;
        let no = |why: &str| {
            Err(Error::Unsupported(format!(
                "CuTe's sm80 tutorial: {g}: {why}"
            )))
        };
        if (g.transa, g.transb) != (Trans::T, Trans::N) {
            return no("its half path is TN only (--ta)");
        }
        if !g.m.is_multiple_of(bm) || !g.n.is_multiple_of(bn) || !g.k.is_multiple_of(bk) || g.k == 0
        {
            return no("M, N and K must be multiples of its 128×128×64 tile");
        }
        if g.alpha != 1.0 || g.beta != 0.0 || g.is_fused() {
            return no("alpha 1, beta 0, no epilogue only");
        }
        if g.lda != g.k || g.ldb != g.k || g.ldc != g.m {
            return no("tight leading dimensions only");
        }
        Ok(())
    }

    /// Queues one launch of `C = A·B` (half) on `stream`, as the tutorial's `gemm_tn` does.
    ///
    /// ```no_run
    /// use host::half::f16;
    /// use host::{GemmConfig, Trans};
    /// use host_cli::bench::tutorial_sm80::TutorialSm80;
    /// let ctx = host::Context::new(0)?;
    /// let tutorial = TutorialSm80::load(&ctx, std::path::Path::new("sgemm_sm80.1.sm_80.ptx"))?;
    /// let s = ctx.default_stream();
    /// let g = GemmConfig::new(256, 256, 128).trans(Trans::T, Trans::N);
    /// let (na, nb, nc) = g.lens();
    /// let (a, b) = (s.clone_htod(&vec![f16::ONE; na])?, s.clone_htod(&vec![f16::ONE; nb])?);
    /// let mut c = s.alloc_zeros::<f16>(nc)?;
    /// tutorial.launch(&s, &g, &a, &b, &mut c)?;
    /// // every element of C: K = 128 products of ones, exact in f16
    /// assert!(s.clone_dtoh(&c)?.iter().all(|&x| x == f16::from_f32(128.0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn launch(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        a: &CudaSlice<f16>,
        b: &CudaSlice<f16>,
        c: &mut CudaSlice<f16>,
    ) -> Result<()> {
        Self::check(g)?;
        g.validate(a.len(), b.len(), c.len())?;
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        let (pc, _rc) = c.device_ptr_mut(stream);
        let shape = Shape3([g.m as i32, g.n as i32, g.k as i32]);
        let (lda, ldb, ldc) = (g.lda as i32, g.ldb as i32, g.ldc as i32);
        let (alpha, beta, empty) = (f16::ONE, f16::ZERO, 0u8);
        let cfg = host::cudarc::driver::LaunchConfig {
            grid_dim: ((g.m / TILE.0) as u32, (g.n / TILE.1) as u32, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: SMEM_BYTES,
        };
        let mut l = stream.launch_builder(&self.f);
        l.arg(&shape).arg(&empty).arg(&pa).arg(&lda);
        l.arg(&empty).arg(&empty).arg(&empty);
        l.arg(&pb).arg(&ldb).arg(&empty).arg(&empty).arg(&empty);
        l.arg(&pc).arg(&ldc).arg(&empty).arg(&empty);
        l.arg(&alpha).arg(&beta);
        // SAFETY: the entry's parameter list was checked against PARAMS at load; the static
        // CuTe objects are empty (one byte each, never read); A (M×K, ldA = K), B (N×K, ldB =
        // K) and C (M×N, ldC = M) hold the validated extents, and the tiles divide M, N, K.
        unsafe { l.launch(cfg) }?;
        Ok(())
    }
}

/// Ours (`ctx.hgemm`, f16 in and out: the kernel `g.kernel` picks, e.g. [`GemmKernel::Sm80`])
/// beside the tutorial's kernel on the same f16 TN problem, timed the `timing` way in turn, on the
/// data [`super::hgemm_problem_timed`] uses; then both C's compared (the tutorial accumulates in
/// f16: a relative RMS difference above 0.1 means a broken launch, an error). A row's variant is
/// `hgemm f16->f16 TN vs tutorial` and [`Timing::suffix`].
///
/// ```no_run
/// use host_cli::bench::{Timing, tutorial_sm80};
/// let ctx = host::Context::new(0)?;
/// let path = std::path::Path::new("sgemm_sm80.1.sm_80.ptx");
/// let tutorial = tutorial_sm80::TutorialSm80::load(&ctx, path)?;
/// let g = host::GemmConfig::new(4096, 4096, 4096).trans(host::Trans::T, host::Trans::N);
/// let r = tutorial_sm80::bench(&ctx, &tutorial, &g, Timing::BackToBack)?;
/// assert_eq!(r.variant, "hgemm f16->f16 TN vs tutorial b2b");
/// println!("{:.0} TFLOP/s, {:.2} of the tutorial's", r.rate(r.ours_ms), r.ratio());
/// # Ok::<(), host::Error>(())
/// ```
///
/// [`GemmKernel::Sm80`]: host::GemmKernel::Sm80
pub fn bench(
    ctx: &Context,
    tutorial: &TutorialSm80,
    g: &GemmConfig,
    timing: Timing,
) -> Result<BenchRow> {
    TutorialSm80::check(g)?;
    let s = ctx.default_stream();
    let (na, nb, nc) = g.lens();
    ctx.check_fits(
        &g.to_string(),
        2 * (na as u128 + nb as u128) + 4 * nc as u128,
    )?;
    let mut rng = crate::check::Rng::new(42);
    let mut data = |n: usize| -> Vec<f16> { (0..n).map(|_| f16::from_f32(rng.unit())).collect() };
    let (da, db) = (s.clone_htod(&data(na))?, s.clone_htod(&data(nb))?);
    let mut dc = s.alloc_zeros::<f16>(nc)?;
    let mut dt = s.alloc_zeros::<f16>(nc)?;
    let dc_cell = std::cell::RefCell::new(&mut dc);
    let dt_cell = std::cell::RefCell::new(&mut dt);
    let ours = || ctx.hgemm(&s, g, &da, &db, *dc_cell.borrow_mut());
    let theirs = || tutorial.launch(&s, g, &da, &db, *dt_cell.borrow_mut());
    let (ours_ms, ref_ms) = timing.pair_ms(&s, ours, theirs)?;
    let (c, t) = (s.clone_dtoh(&dc)?, s.clone_dtoh(&dt)?);
    let (mut diff, mut norm) = (0f64, 0f64);
    for (x, y) in c.iter().zip(&t) {
        let (x, y) = (x.to_f64(), y.to_f64());
        diff += (x - y) * (x - y);
        norm += x * x;
    }
    let rel = (diff / norm.max(f64::MIN_POSITIVE)).sqrt();
    // NaN fails too
    if rel.is_nan() || rel > 0.1 {
        return Err(Error::Unsupported(format!(
            "CuTe's sm80 tutorial: {g}: its C differs from ours by {rel:.3} (relative RMS): not timed"
        )));
    }
    Ok(BenchRow {
        family: "gemm",
        variant: format!("hgemm f16->f16 TN vs tutorial{}", timing.suffix()),
        size: format!("{}x{}x{}", g.m, g.n, g.k),
        work: g.flops(),
        unit: "TFLOP/s",
        ours_ms,
        ref_ms,
        reference: "CuTe sm80 tutorial",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx(params: &[&str]) -> String {
        let name = "_Z11gemm_deviceIN4cute28SM80_16x8x16_F16F16F16F16_TNE";
        let mut s = format!(".entry {name}(\n");
        for (i, p) in params.iter().enumerate() {
            match *p {
                "u64" => s += &format!(".param .u64 {name}_param_{i},\n"),
                b => s += &format!(".param .align 1 .b8 {name}_param_{i}{},\n", &b[2..]),
            }
        }
        s + ")\n.maxntid 128, 1, 1\n{\n}\n"
    }

    #[test]
    fn entry_checks_the_parameter_list() {
        let name = entry(&ptx(&PARAMS)).unwrap();
        assert!(name.starts_with("_Z11gemm_device"), "{name}");
        let e = entry(&ptx(&PARAMS[..17])).unwrap_err();
        assert!(e.to_string().contains("parameters"), "{e}");
        let e = entry(&(ptx(&PARAMS) + &ptx(&PARAMS))).unwrap_err();
        assert!(e.to_string().contains("two"), "{e}");
    }
}
