//! Finding, installing and running `ptxas`, and reading its `-v` report.
//!
//! Used by xtask and, through `#[path]`, by `host/tests/ptx.rs`. std only.
//!
//! `ptxas` comes from PyPI's `nvidia-cuda-nvcc` wheel (CUDA 13: the binary is
//! `nvidia/cu13/bin/ptxas` inside the package; CUDA 12 wheels used
//! `nvidia/cuda_nvcc/bin/ptxas`). `cargo xtask test` installs it with
//! `pip install --no-deps --target target/cuda-tools nvidia-cuda-nvcc==13.0.88`
//! (13.0 matches the driver on the GPU machines; only `ptxas` is used).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The PyPI package and version that provide `ptxas`.
pub const PIP_PACKAGE: &str = "nvidia-cuda-nvcc==13.0.88";
/// Where `cargo xtask test` installs it, relative to the target dir.
pub const TOOLS_SUBDIR: &str = "cuda-tools";
/// The PyPI package and version that provide `nvdisasm`, for the SASS check of the GEMM
/// families' k-loops ([`KLoop`]); installed beside `ptxas` (any 13.x reads sm_90a cubins).
pub const DISASM_PIP_PACKAGE: &str = "nvidia-cuda-nvdisasm==13.5.37";
/// The modules whose k-loops are read in SASS ([`kloops`]): the GEMM families, in their `sm_90*`
/// builds.
pub const KLOOP_MODULES: [&str; 2] = ["hgemm", "hgemm_fp8"];
/// The longest loop around a `GMMA` taken for a k-loop: longer ones are tile loops around a
/// peeled k-tile (thousands of instructions).
pub const KLOOP_MAX_INSTRUCTIONS: usize = 1000;
/// Layouts of `ptxas` inside a `nvidia` Python package tree.
const WHEEL_PATHS: [&str; 2] = ["nvidia/cu13/bin/ptxas", "nvidia/cuda_nvcc/bin/ptxas"];

/// Resources of one kernel, from `ptxas -v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelResources {
    pub name: String,
    pub registers: u32,
    pub barriers: u32,
    /// Static shared memory (dynamic shared memory is a launch parameter).
    pub smem_bytes: u32,
    pub cmem0_bytes: u32,
    pub stack_bytes: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
}

/// A GEMM entry's k-loop in SASS: the innermost loop around its `GMMA`s (a backward branch's
/// span, under [`KLOOP_MAX_INSTRUCTIONS`]), read with `nvdisasm` ([`kloops`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KLoop {
    pub kernel: String,
    /// SASS instructions in the loop (one k-tile, or a pair where the loop is unrolled).
    pub instructions: usize,
    /// Reads of `SR_SWINHI` (the shared window: a generic-to-shared address conversion) in the
    /// loop: a shared-memory address, in practice a `wgmma` descriptor base, rebuilt every k-tile
    /// because ptxas rematerialized it (13 instructions a k-tile in the fused FP8 entries until
    /// session 54; `DescriptorIterator::warp_uniform`). [`performance_losses`] fails on any.
    pub shared_window_reads: usize,
    /// `FFMA`s in the loop that read three registers of one parity from the register file
    /// ([`bank_conflict`]): a bank conflict each, as the block-scale promotion `main[v] +=
    /// s·temp[v]` had where a split tile's 16-byte partial stores tied `main` to the fragment's
    /// parities (32 a k-tile in the 128 × 128 block entry until session 64;
    /// `MmaAccumulation::FIXUP_ORDER`). [`performance_losses`] fails on any.
    pub bank_conflicts: usize,
}

/// `ptxas -v` run on a module.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub ptxas: PathBuf,
    pub version: String,
    pub arch: String,
    pub kernels: Vec<KernelResources>,
    /// Lines ptxas printed that are warnings.
    pub warnings: Vec<String>,
    /// ptxas's "Potential Performance Loss" notes about `wgmma` serialization (C7510, C7511,
    /// C7514, ...: the accumulators were touched or moved inside the asynchronous region) and
    /// ignored `setmaxnreg` (C7508): `cargo xtask test` and `build-kernels` fail on them
    /// ([`performance_losses`]).
    pub losses: Vec<String>,
    /// The raw `ptxas -v` output.
    pub raw: String,
    /// The k-loops of the [`KLOOP_MODULES`] entries (empty for other modules).
    pub kloops: Vec<KLoop>,
    /// Why a [`KLOOP_MODULES`] module's k-loops were not read (no `nvdisasm` beside `ptxas`).
    pub kloops_skipped: Option<String>,
    /// The [`KLOOP_MODULES`] modules whose SASS showed no k-loop at all (nvdisasm's output no
    /// longer as [`kloops`] reads it: the check must not pass on nothing);
    /// [`performance_losses`] fails on them.
    pub kloops_missing: Vec<String>,
}

fn is_exe(p: &Path) -> bool {
    p.is_file()
}

/// Site-packages folders of `python3` (system and user).
fn python_site_dirs() -> Vec<PathBuf> {
    let script = "import site,sys\nfor p in site.getsitepackages()+[site.getusersitepackages()]+sys.path: print(p)";
    let Ok(out) = Command::new("python3")
        .args(["-c", script])
        .stderr(Stdio::null())
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Looks for `ptxas`: `$PTXAS`, `PATH`, `$CUDA_HOME/bin`, `/usr/local/cuda/bin`,
/// `<target_dir>/cuda-tools` (our pip install), then python's site-packages.
pub fn find(target_dir: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS").map(PathBuf::from)
        && is_exe(&p)
    {
        return Some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("ptxas");
            if is_exe(&p) {
                return Some(p);
            }
        }
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(d) = std::env::var_os(var) {
            let p = PathBuf::from(d).join("bin/ptxas");
            if is_exe(&p) {
                return Some(p);
            }
        }
    }
    let mut roots = vec![PathBuf::from("/usr/local/cuda/bin/ptxas")];
    for w in WHEEL_PATHS {
        roots.push(target_dir.join(TOOLS_SUBDIR).join(w));
    }
    if let Some(p) = roots.into_iter().find(|p| is_exe(p)) {
        return Some(p);
    }
    python_site_dirs()
        .into_iter()
        .flat_map(|d| WHEEL_PATHS.map(|w| d.join(w)))
        .find(|p| is_exe(p))
}

/// Installs `ptxas` with pip into `<target_dir>/cuda-tools` and returns its path.
pub fn install(target_dir: &Path) -> Result<PathBuf, String> {
    let dest = target_dir.join(TOOLS_SUBDIR);
    eprintln!(
        "[ptxas] python3 -m pip install --no-deps --target {} {PIP_PACKAGE} {DISASM_PIP_PACKAGE}",
        dest.display()
    );
    let out = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            "--upgrade",
        ])
        .arg("--target")
        .arg(&dest)
        .arg(PIP_PACKAGE)
        .arg(DISASM_PIP_PACKAGE)
        .env("PIP_ROOT_USER_ACTION", "ignore")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "could not run python3 -m pip ({e}); install `{PIP_PACKAGE}` or put ptxas on PATH"
            )
        })?;
    if !out.status.success() {
        return Err(format!(
            "pip install {PIP_PACKAGE} {DISASM_PIP_PACKAGE} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    WHEEL_PATHS
        .iter()
        .map(|w| dest.join(w))
        .find(|p| is_exe(p))
        .ok_or_else(|| {
            format!(
                "{PIP_PACKAGE} installed, but no ptxas under {}",
                dest.display()
            )
        })
}

/// `ptxas --version`'s last line, e.g. "Cuda compilation tools, release 13.0, V13.0.88".
pub fn version(ptxas: &Path) -> String {
    Command::new(ptxas)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .find(|l| l.contains("release"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "unknown version".to_string())
}

/// Assembles `ptx_path` for `arch` with `ptxas -v` and parses the report; with `keep`, the
/// cubin is kept beside the PTX under [`cute_builder::cubin_file_name`] ([`keep_cubin`]: the
/// build outputs of `target/ptx/`), else discarded.
pub fn assemble(ptxas: &Path, ptx_path: &Path, arch: &str, keep: bool) -> Result<Report, String> {
    // the text ptxas reads, to name its cubin by (a build script may rewrite the file meanwhile)
    let text = keep
        .then(|| std::fs::read_to_string(ptx_path).ok())
        .flatten();
    let stem = ptx_path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("module");
    // a kept cubin is written beside the PTX, so that keeping it is a rename within the folder
    let cubin = match (&text, ptx_path.parent()) {
        (Some(_), Some(dir)) => dir.join(format!(".{stem}.{arch}.{}.part", std::process::id())),
        _ => std::env::temp_dir().join(format!(
            "cute-rs-{}-{stem}-{arch}.cubin",
            std::process::id()
        )),
    };
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg("-o")
        .arg(&cubin)
        .arg(ptx_path)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run {}: {e}", ptxas.display()))?;
    // the GEMM families' wgmma builds (an sm_80 build has no `GMMA` to find)
    let gemm = arch.starts_with("sm_90") && KLOOP_MODULES.contains(&stem);
    let sass = (out.status.success() && gemm).then(|| disassemble(ptxas, &cubin));
    if let Some(text) = text.filter(|_| out.status.success()) {
        keep_cubin(&cubin, ptx_path, &text, stem, arch);
    }
    let _ = std::fs::remove_file(&cubin);
    let mut raw = String::from_utf8_lossy(&out.stdout).into_owned();
    raw.push_str(&String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(format!(
            "ptxas -arch={arch} rejected {}:\n{raw}",
            ptx_path.display()
        ));
    }
    let mut report = parse(&raw);
    match sass.map(|r| r.map(|text| kloops(&text))) {
        // a GEMM module with no k-loop found: nvdisasm's format changed (the check would pass
        // on nothing)
        Some(Ok(k)) if k.is_empty() => report.kloops_missing.push(stem.to_string()),
        Some(Ok(k)) => report.kloops = k,
        Some(Err(why)) => report.kloops_skipped = Some(format!("{stem}: {why}")),
        None => {}
    }
    report.ptxas = ptxas.to_path_buf();
    report.version = version(ptxas);
    report.arch = arch.to_string();
    Ok(report)
}

/// Renames `cubin` (written by ptxas in `ptx_path`'s folder from `text`, module `family`'s
/// PTX, for `arch`) to the name [`cute_builder::cubin_file_name`] gives it there, and removes
/// that module's older cubins: what a host given the folder (`CUTE_RS_CUBIN_DIR`) loads instead
/// of JIT-compiling the text. Kept only if the file still holds `text` (a build that rewrote it
/// while ptxas ran would otherwise leave the old cubin under the new text's name); the rename
/// within the folder means a host never reads half a cubin. Best effort: a cubin not kept only
/// costs the driver's JIT (the caller removes what is left of `cubin`).
fn keep_cubin(cubin: &Path, ptx_path: &Path, text: &str, family: &str, arch: &str) {
    let Some(dir) = ptx_path.parent() else {
        return;
    };
    if std::fs::read_to_string(ptx_path).ok().as_deref() != Some(text) {
        return;
    }
    let name = cute_builder::cubin_file_name(family, arch, text);
    let (prefix, suffix) = (format!("{family}-"), format!(".{arch}.cubin"));
    if let Ok(old) = std::fs::read_dir(dir) {
        for e in old.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            let key = n
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(&suffix));
            if key.is_some_and(|k| k.len() == 16) && n != name {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    let _ = std::fs::rename(cubin, dir.join(&name));
}

/// [`assemble`] for each module (cubins kept), one report (kernels of all modules, sorted by name).
pub fn assemble_all(ptxas: &Path, ptx_paths: &[PathBuf], arch: &str) -> Result<Report, String> {
    let pool = Assembler::new(ptxas, arch);
    for p in ptx_paths {
        pool.push(p);
    }
    pool.finish(ptx_paths)
}

/// `ptxas -v` on one worker per core, fed while the modules are still being built
/// (`cute_builder::build_each`): `push` a module as soon as its PTX is written, `finish`
/// once every module is pushed; each module's cubin is kept beside its PTX ([`keep_cubin`]).
/// Of the modules waiting, the largest goes first (longest processing time first). Run one
/// after the other they were the cold `build-kernels`' last ~13 s (9.6 s of it hgemm's);
/// started as each family finishes, only the last family's `ptxas` is left after cargo.
pub struct Assembler {
    shared: std::sync::Arc<Queue>,
    workers: Vec<std::thread::JoinHandle<()>>,
}

/// An assembler dropped without `finish` (the build failed) lets its workers end.
impl Drop for Assembler {
    fn drop(&mut self) {
        self.close();
    }
}

#[derive(Default)]
struct Queue {
    /// (waiting modules, no more will come)
    state: std::sync::Mutex<(Vec<PathBuf>, bool)>,
    more: std::sync::Condvar,
    reports: std::sync::Mutex<Vec<(PathBuf, Result<Report, String>)>>,
}

impl Queue {
    /// The largest waiting module, or `None` once the queue is closed and empty.
    fn next(&self) -> Option<PathBuf> {
        let mut st = self.state.lock().ok()?;
        loop {
            if !st.0.is_empty() {
                let size = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
                let (i, _) = st.0.iter().enumerate().max_by_key(|(_, p)| size(p))?;
                return Some(st.0.swap_remove(i));
            }
            if st.1 {
                return None;
            }
            st = self.more.wait(st).ok()?;
        }
    }
}

impl Assembler {
    /// Starts the workers (one per core) for `arch`.
    pub fn new(ptxas: &Path, arch: &str) -> Assembler {
        let shared = std::sync::Arc::new(Queue::default());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = (0..cores)
            .map(|_| {
                let q = shared.clone();
                let (ptxas, arch) = (ptxas.to_path_buf(), arch.to_string());
                std::thread::spawn(move || {
                    while let Some(p) = q.next() {
                        let r = assemble(&ptxas, &p, &arch, true);
                        if let Ok(mut d) = q.reports.lock() {
                            d.push((p, r));
                        }
                    }
                })
            })
            .collect();
        Assembler { shared, workers }
    }

    /// No more modules: the workers stop once the queue is empty.
    fn close(&self) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.1 = true;
        }
        self.shared.more.notify_all();
    }

    /// Queues a module.
    pub fn push(&self, ptx_path: &Path) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.0.push(ptx_path.to_path_buf());
        }
        self.shared.more.notify_one();
    }

    /// Waits for every queued module and merges their reports in `order` (each path of
    /// `order` must have been pushed).
    pub fn finish(mut self, order: &[PathBuf]) -> Result<Report, String> {
        self.close();
        for w in std::mem::take(&mut self.workers) {
            w.join()
                .map_err(|_| "a ptxas worker panicked".to_string())?;
        }
        let mut done = std::mem::take(
            &mut *self
                .shared
                .reports
                .lock()
                .map_err(|_| "a ptxas worker panicked".to_string())?,
        );
        let mut all: Option<Report> = None;
        for p in order {
            let i = done
                .iter()
                .position(|(q, _)| q == p)
                .ok_or_else(|| format!("{} was not assembled", p.display()))?;
            let r = done.swap_remove(i).1?;
            match all.as_mut() {
                None => all = Some(r),
                Some(a) => {
                    a.kernels.extend(r.kernels);
                    a.warnings.extend(r.warnings);
                    a.losses.extend(r.losses);
                    a.raw.push_str(&r.raw);
                    a.kloops.extend(r.kloops);
                    a.kloops_skipped = a.kloops_skipped.take().or(r.kloops_skipped);
                    a.kloops_missing.extend(r.kloops_missing);
                }
            }
        }
        let mut all = all.ok_or("no PTX modules to assemble")?;
        all.kernels.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(all)
    }
}

/// `nvdisasm -c` of `cubin` with the `nvdisasm` beside `ptxas` (our pip install puts both in
/// one folder): the SASS text, or why there is none.
fn disassemble(ptxas: &Path, cubin: &Path) -> Result<String, String> {
    let nvdisasm = ptxas.with_file_name("nvdisasm");
    if !is_exe(&nvdisasm) {
        return Err(format!(
            "no nvdisasm beside {} (python3 -m pip install {DISASM_PIP_PACKAGE})",
            ptxas.display()
        ));
    }
    let out = Command::new(&nvdisasm)
        .arg("-c")
        .arg(cubin)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run {}: {e}", nvdisasm.display()))?;
    if !out.status.success() {
        return Err(format!(
            "nvdisasm failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The three register sources of an `FFMA` (`@P0 FFMA R4, R24, R146.reuse, R4`), each as
/// (register number, reuse flag); `None` for another instruction or a source that is not a
/// register (an immediate, `RZ`, a constant).
fn ffma_sources(ins: &str) -> Option<[(u32, bool); 3]> {
    let ins = match ins.strip_prefix('@') {
        Some(p) => p.split_once(' ')?.1.trim_start(),
        None => ins,
    };
    let (op, args) = ins.split_once(' ')?;
    if op.split('.').next() != Some("FFMA") {
        return None;
    }
    let mut regs = args.split(',').skip(1).map(|a| {
        let a = a.trim().trim_start_matches(['-', '|']);
        let (r, reuse) = match a.strip_suffix(".reuse") {
            Some(r) => (r, true),
            None => (a, false),
        };
        let n: u32 = r.trim_end_matches('|').strip_prefix('R')?.parse().ok()?;
        Some((n, reuse))
    });
    Some([regs.next()??, regs.next()??, regs.next()??])
}

/// Whether SASS instruction `ins` (after `prev`) is an `FFMA` that reads three registers of one
/// parity from the register file: the register file's two banks are the register numbers'
/// parities, and three reads from one bank take an extra cycle; a source that `prev` kept in
/// the operand reuse cache (the same register in the same slot, marked `.reuse` there) is not
/// read from the file. Examples in the unit test `bank_conflicts_are_three_reads_of_one_parity`.
fn bank_conflict(prev: Option<&str>, ins: &str) -> bool {
    let Some(src) = ffma_sources(ins) else {
        return false;
    };
    let cached = prev.and_then(ffma_sources);
    let read: Vec<u32> = (0..3)
        .filter(|&i| cached.is_none_or(|c| !(c[i].1 && c[i].0 == src[i].0)))
        .map(|i| src[i].0 % 2)
        .collect();
    read.len() == 3 && read.iter().all(|&p| p == read[0])
}

/// The k-loops in `nvdisasm -c` output: per function (`.text.<name>:`), the loops (a backward
/// branch to a label `.L_x_N`, and the span from the label to the branch) that are the
/// innermost around a `GMMA` (no other such loop inside), up to [`KLOOP_MAX_INSTRUCTIONS`]
/// long. The unit tests below show the input.
pub fn kloops(sass: &str) -> Vec<KLoop> {
    // per function: its name, (address, instruction) and (label, address)
    type Func = (String, Vec<(u32, String)>, Vec<(String, u32)>);
    let mut funcs: Vec<Func> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for line in sass.lines() {
        if let Some(name) = line
            .strip_prefix(".text.")
            .and_then(|r| r.strip_suffix(':'))
        {
            funcs.push((name.to_string(), Vec::new(), Vec::new()));
            pending.clear();
        } else if line.starts_with(".L_x_") && line.ends_with(':') {
            pending.push(line.trim_end_matches(':').to_string());
        } else if let Some((addr, ins)) = line
            .trim_start()
            .strip_prefix("/*")
            .and_then(|r| r.split_once("*/"))
            && let Ok(a) = u32::from_str_radix(addr, 16)
            && let Some(f) = funcs.last_mut()
        {
            f.2.extend(pending.drain(..).map(|l| (l, a)));
            let ins = ins.split(';').next().unwrap_or("").trim();
            f.1.push((a, ins.to_string()));
        }
    }
    let mut out = Vec::new();
    for (name, ins, labels) in funcs {
        let label = |l: &str| labels.iter().find(|(k, _)| k == l).map(|&(_, a)| a);
        // the backward branches: (target, branch)
        let back: Vec<(u32, u32)> = ins
            .iter()
            .filter(|(_, i)| i.contains("BRA"))
            .filter_map(|(a, i)| {
                let t = label(i.split("`(").nth(1)?.split(')').next()?)?;
                (t <= *a).then_some((t, *a))
            })
            .collect();
        let mut spans: Vec<(u32, u32)> = ins
            .iter()
            .filter(|(_, i)| i.contains("GMMA"))
            .filter_map(|&(a, _)| {
                back.iter()
                    .filter(|&&(s, e)| s <= a && a <= e)
                    .min_by_key(|&&(s, e)| e - s)
                    .copied()
            })
            .collect();
        spans.sort_unstable();
        spans.dedup();
        for &(s, e) in &spans {
            let inner = !spans
                .iter()
                .any(|&(s2, e2)| (s2, e2) != (s, e) && s <= s2 && e2 <= e);
            let body: Vec<&String> = ins
                .iter()
                .filter(|(a, _)| s <= *a && *a <= e)
                .map(|(_, i)| i)
                .collect();
            if inner && body.len() <= KLOOP_MAX_INSTRUCTIONS {
                out.push(KLoop {
                    kernel: name.clone(),
                    instructions: body.len(),
                    shared_window_reads: body.iter().filter(|i| i.contains("SR_SWINHI")).count(),
                    bank_conflicts: body
                        .iter()
                        .enumerate()
                        .filter(|&(j, i)| {
                            bank_conflict(j.checked_sub(1).map(|p| body[p].as_str()), i)
                        })
                        .count(),
                });
            }
        }
    }
    out
}

/// Numbers before `word` in a comma-separated ptxas line: "Used 22 registers, ...".
fn number_before(line: &str, word: &str) -> Option<u32> {
    line.split(',').find_map(|part| {
        let part = part.trim();
        let idx = part.find(word)?;
        part[..idx].split_whitespace().last()?.parse().ok()
    })
}

/// Parses `ptxas -v` output (CUDA 12/13 formats) into per-kernel resources.
pub fn parse(raw: &str) -> Report {
    let mut report = Report {
        raw: raw.to_string(),
        ..Report::default()
    };
    let mut current: Option<KernelResources> = None;
    for line in raw.lines() {
        let l = line.trim();
        if l.contains("warning") {
            report.warnings.push(l.to_string());
        }
        if is_performance_loss(l) {
            report.losses.push(l.to_string());
        }
        if let Some(rest) = l.split("Compiling entry function '").nth(1) {
            if let Some(k) = current.take() {
                report.kernels.push(k);
            }
            let name = rest.split('\'').next().unwrap_or(rest).to_string();
            current = Some(KernelResources {
                name,
                ..KernelResources::default()
            });
        } else if let Some(k) = current.as_mut() {
            if l.contains("bytes stack frame") {
                k.stack_bytes = number_before(l, "bytes stack frame").unwrap_or(0);
                k.spill_stores = number_before(l, "bytes spill stores").unwrap_or(0);
                k.spill_loads = number_before(l, "bytes spill loads").unwrap_or(0);
            } else if l.contains("Used ") && l.contains("registers") {
                let used = &l[l.find("Used ").unwrap()..];
                k.registers = number_before(used, "registers").unwrap_or(0);
                k.barriers = number_before(used, "barriers").unwrap_or(0);
                k.smem_bytes = number_before(used, "bytes smem").unwrap_or(0);
                k.cmem0_bytes = number_before(used, "bytes cmem[0]").unwrap_or(0);
            }
        }
    }
    if let Some(k) = current.take() {
        report.kernels.push(k);
    }
    report.kernels.sort_by(|a, b| a.name.cmp(&b.name));
    report
}

/// Whether a ptxas line is a `wgmma` serialization or an ignored `setmaxnreg`. ptxas prints them
/// as `info` lines, e.g. `ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async
/// instructions are serialized due to ... in the function 'k'` and `(C7508) Potential
/// Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.`
pub fn is_performance_loss(line: &str) -> bool {
    line.contains("Potential Performance Loss")
        && (line.contains("wgmma") || line.contains("setmaxnreg"))
}

/// Every kernel of `r` that spills or has a stack frame, one line each (`name: N B spill stores,
/// N B spill loads, N B stack`); empty when none does.
pub fn spilling(r: &Report) -> Vec<String> {
    r.kernels
        .iter()
        .filter(|k| k.spill_stores + k.spill_loads + k.stack_bytes > 0)
        .map(|k| {
            format!(
                "{}: {} B spill stores, {} B spill loads, {} B stack",
                k.name, k.spill_stores, k.spill_loads, k.stack_bytes
            )
        })
        .collect()
}

/// The `wgmma` serializations and ignored `setmaxnreg`s of a report, as one error message
/// (`Ok` when there are none).
pub fn performance_losses(r: &Report) -> Result<(), String> {
    let rebuilt: Vec<String> = r
        .kloops
        .iter()
        .filter(|k| k.shared_window_reads > 0)
        .map(|k| {
            format!(
                "{}: its k-loop ({} SASS instructions) reads SR_SWINHI {} time(s): a shared-memory address (a wgmma descriptor base) rebuilt every k-tile (doc/fp8-gemm.md, session 54)",
                k.kernel, k.instructions, k.shared_window_reads
            )
        })
        .collect();
    let mut msg = Vec::new();
    if !r.losses.is_empty() {
        msg.push(format!(
            "{} ptxas performance-loss note(s) (wgmma serialized / setmaxnreg ignored):\n  {}",
            r.losses.len(),
            r.losses.join("\n  ")
        ));
    }
    if !r.kloops_missing.is_empty() {
        msg.push(format!(
            "no k-loop found in the SASS of {} (nvdisasm's output not as `kloops` reads it)",
            r.kloops_missing.join(", ")
        ));
    }
    if !rebuilt.is_empty() {
        msg.push(format!(
            "{} k-loop(s) rebuild a shared address:\n  {}",
            rebuilt.len(),
            rebuilt.join("\n  ")
        ));
    }
    let conflicted: Vec<String> = r
        .kloops
        .iter()
        .filter(|k| k.bank_conflicts > 0)
        .map(|k| {
            format!(
                "{}: its k-loop ({} SASS instructions) has {} FFMA(s) reading three registers of one parity (a register-bank conflict each: doc/fp8-gemm.md, session 64)",
                k.kernel, k.instructions, k.bank_conflicts
            )
        })
        .collect();
    if !conflicted.is_empty() {
        msg.push(format!(
            "{} k-loop(s) with register-bank conflicts:\n  {}",
            conflicted.len(),
            conflicted.join("\n  ")
        ));
    }
    if msg.is_empty() {
        Ok(())
    } else {
        Err(msg.join("\n"))
    }
}

/// The resource table printed by `cargo xtask build-kernels`.
pub fn table(r: &Report) -> String {
    let mut s = format!("ptxas -arch={} -v  ({})\n", r.arch, r.version);
    s.push_str(&format!(
        "{:<28} {:>5} {:>9} {:>10} {:>7} {:>13} {:>12}\n",
        "kernel", "regs", "barriers", "smem(B)", "stack", "spill_st(B)", "spill_ld(B)"
    ));
    for k in &r.kernels {
        s.push_str(&format!(
            "{:<28} {:>5} {:>9} {:>10} {:>7} {:>13} {:>12}\n",
            k.name,
            k.registers,
            k.barriers,
            k.smem_bytes,
            k.stack_bytes,
            k.spill_stores,
            k.spill_loads
        ));
    }
    if let Some(why) = &r.kloops_skipped {
        s.push_str(&format!("SASS k-loops: SKIP ({why})\n"));
    } else if !r.kloops.is_empty() {
        let mut entries: Vec<&str> = r.kloops.iter().map(|k| k.kernel.as_str()).collect();
        entries.dedup();
        let lens = r.kloops.iter().map(|k| k.instructions);
        s.push_str(&format!(
            "SASS k-loops (nvdisasm): {} in {} entries, {}-{} instructions, {} rebuilding a shared address, {} with bank conflicts\n",
            r.kloops.len(),
            entries.len(),
            lens.clone().min().unwrap_or(0),
            lens.max().unwrap_or(0),
            r.kloops.iter().filter(|k| k.shared_window_reads > 0).count(),
            r.kloops.iter().filter(|k| k.bank_conflicts > 0).count()
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'warp_sum_smoke' for 'sm_90a'
ptxas info    : Function properties for warp_sum_smoke
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compiling entry function 'big' for 'sm_90a'
ptxas info    : Function properties for big
    40 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]
";

    const LOSSES: &str = "\
ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.
ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline stage in the function 'k2'
ptxas info    : (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized due to the presence of Extern calls in the function 'k3'
ptxas info    : 0 bytes gmem
";

    #[test]
    fn finds_wgmma_serialization_and_ignored_setmaxnreg() {
        let r = parse(LOSSES);
        assert_eq!(r.losses.len(), 3);
        let e = performance_losses(&r).unwrap_err();
        assert!(
            e.contains("C7508") && e.contains("C7514") && e.contains("C7510"),
            "{e}"
        );
        assert!(performance_losses(&parse(SAMPLE)).is_ok());
    }

    /// `nvdisasm -c` output as it prints it: a tile loop (`.L_x_1`) around a peeled k-tile's
    /// `GMMA` and a k-loop (`.L_x_2`) that rebuilds a shared address; a second function whose
    /// k-loop does not.
    const SASS: &str = "\
.text.k1:
        /*0000*/                   MOV R1, c[0x0][0x28] ;
.L_x_1:
        /*0010*/                   HGMMA.64x8x16.F32 R0, gdesc[UR4], RZ ;
.L_x_2:
        /*0020*/                   S2UR UR6, SR_SWINHI ;
        /*0030*/                   USHF.R.U32.HI UR4, URZ, 0x4, UR6 ;
        /*0040*/                   HGMMA.64x8x16.F32 R0, gdesc[UR4], R0 ;
        /*0050*/               @P0 BRA `(.L_x_2) ;
        /*0060*/               @P1 BRA `(.L_x_1) ;
        /*0070*/                   EXIT ;
.text.k2:
.L_x_3:
        /*0000*/                   QGMMA.64x8x32.F32.E4M3.E4M3 R0, gdesc[UR4], R0 ;
        /*0010*/                   UIADD3 UR4, UR4, 0x2, URZ ;
        /*0020*/               @P0 BRA `(.L_x_3) ;
        /*0030*/                   BRA `(.L_x_4) ;
.L_x_4:
        /*0040*/                   EXIT ;
";

    #[test]
    fn kloops_are_the_innermost_gmma_loops() {
        let k = kloops(SASS);
        assert_eq!(
            k,
            vec![
                KLoop {
                    kernel: "k1".into(),
                    instructions: 4,
                    shared_window_reads: 1,
                    bank_conflicts: 0
                },
                KLoop {
                    kernel: "k2".into(),
                    instructions: 3,
                    shared_window_reads: 0,
                    bank_conflicts: 0
                },
            ]
        );
        let r = Report {
            kloops: k,
            ..Report::default()
        };
        let e = performance_losses(&r).unwrap_err();
        assert!(
            e.contains("k1: its k-loop (4 SASS instructions) reads SR_SWINHI 1 time(s)"),
            "{e}"
        );
        assert!(!e.contains("k2"), "{e}");
        assert!(
            table(&r).contains(
                "SASS k-loops (nvdisasm): 2 in 2 entries, 3-4 instructions, 1 rebuilding"
            )
        );
    }

    #[test]
    fn bank_conflicts_are_three_reads_of_one_parity() {
        // main's `_staged1_tma5sk` before session 64: main, temporary and scale all even
        assert!(bank_conflict(None, "FFMA R124, R24, R146, R124"));
        assert!(bank_conflict(
            Some("MOV R1, R2"),
            "@P0 FFMA R127, R27, R157.reuse, R127"
        ));
        // main at the other parity, an immediate, a negated source of another parity
        assert!(!bank_conflict(None, "FFMA R129, R24, R146, R129"));
        assert!(!bank_conflict(None, "FFMA R4, R88, 1, R4"));
        assert!(!bank_conflict(None, "FFMA R4, -R89, R6, R4"));
        assert!(!bank_conflict(None, "FADD R4, R88, R4"));
        // the scale kept in the reuse cache by the previous FFMA (same slot, same register)
        let prev = "FFMA R125, R25, R146.reuse, R125";
        assert!(!bank_conflict(Some(prev), "FFMA R120, R28, R146, R120"));
        assert!(bank_conflict(Some(prev), "FFMA R120, R146, R28, R120"));
        assert!(bank_conflict(
            Some("FFMA R125, R25, R146, R125"),
            "FFMA R120, R28, R146, R120"
        ));
        // in a k-loop: counted, reported, and failed on
        let sass = "\
.text.k:
.L_x_1:
        /*0000*/                   QGMMA.64x8x32.F32.E4M3.E4M3 R24, gdesc[UR4], RZ ;
        /*0010*/                   FFMA R124, R24, R146, R124 ;
        /*0020*/                   FFMA R125, R25, R146.reuse, R125 ;
        /*0030*/                   FFMA R120, R28, R146, R120 ;
        /*0040*/                   FFMA R127, R27, R157, R127 ;
        /*0050*/               @P0 BRA `(.L_x_1) ;
";
        let k = kloops(sass);
        assert_eq!((k.len(), k[0].instructions, k[0].bank_conflicts), (1, 6, 2));
        let r = Report {
            kloops: k,
            ..Report::default()
        };
        let e = performance_losses(&r).unwrap_err();
        assert!(
            e.contains("k: its k-loop (6 SASS instructions) has 2 FFMA(s)"),
            "{e}"
        );
        assert!(table(&r).contains("1 with bank conflicts"), "{}", table(&r));
    }

    /// The same through a real ptxas (skipped when none is installed): a `setmaxnreg` in an
    /// entry without a register count, and an accumulator read between two `wgmma`s.
    #[test]
    fn real_ptxas_reports_the_losses() {
        let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
        let Some(bin) = find(&target) else {
            eprintln!("no ptxas: skipped");
            return;
        };
        let dir = std::env::temp_dir().join(format!("cute-rs-losses-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let head = ".version 8.0\n.target sm_90a\n.address_size 64\n";
        let cases = [
            (
                "setmaxnreg",
                ".visible .entry k(.param .u64 p)\n{\n setmaxnreg.inc.sync.aligned.u32 240;\n ret;\n}\n",
            ),
            (
                "wgmma",
                ".visible .entry k2(.param .u64 p, .param .u64 q)\n{\n .reg .b64 %rd<4>;\n .reg .f32 %f<8>;\n .reg .pred %p;\n \
                 ld.param.u64 %rd1, [p];\n ld.param.u64 %rd2, [q];\n \
                 mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000; mov.f32 %f3, 0f00000000;\n \
                 setp.ne.b32 %p, 1, 0;\n wgmma.fence.sync.aligned;\n \
                 wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, %p, 1, 1, 0, 0;\n \
                 add.f32 %f4, %f0, %f1;\n \
                 wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, %p, 1, 1, 0, 0;\n \
                 wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;\n \
                 st.global.f32 [%rd2], %f4;\n st.global.v4.f32 [%rd2+16], {%f0, %f1, %f2, %f3};\n ret;\n}\n",
            ),
        ];
        for (what, body) in cases {
            let p = dir.join(format!("{what}.ptx"));
            std::fs::write(&p, format!("{head}{body}")).unwrap();
            let r = assemble(&bin, &p, "sm_90a", false).unwrap();
            assert!(
                performance_losses(&r).is_err_and(|e| e.contains(what)),
                "{what}: ptxas said\n{}",
                r.raw
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn parses_ptxas_13_report() {
        let r = parse(SAMPLE);
        assert_eq!(r.kernels.len(), 2);
        assert_eq!(
            r.kernels[0],
            KernelResources {
                name: "big".into(),
                registers: 255,
                barriers: 1,
                smem_bytes: 4096,
                cmem0_bytes: 384,
                stack_bytes: 40,
                spill_stores: 8,
                spill_loads: 12,
            }
        );
        assert_eq!(r.kernels[1].name, "warp_sum_smoke");
        assert_eq!(r.kernels[1].registers, 12);
        assert_eq!(r.kernels[1].spill_stores, 0);
        let missing = Report {
            kloops_missing: vec!["hgemm".into()],
            ..Report::default()
        };
        let e = performance_losses(&missing).unwrap_err();
        assert!(e.contains("no k-loop found in the SASS of hgemm"), "{e}");
        assert!(table(&r).contains("warp_sum_smoke"));
    }

    #[test]
    fn keep_cubin_names_it_by_the_text_and_drops_that_modules_older_ones() {
        let dir = std::env::temp_dir().join(format!("cute-rs-keep-cubin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let ptx = dir.join("hgemm.ptx");
        std::fs::write(&ptx, ".version 8.0\n").unwrap();
        let older = dir.join("hgemm-0123456789abcdef.sm_90a.cubin");
        let other = dir.join("hgemm_fp8-0123456789abcdef.sm_90a.cubin");
        let other_arch = dir.join("hgemm-0123456789abcdef.sm_80.cubin");
        for f in [&older, &other, &other_arch] {
            std::fs::write(f, "old").unwrap();
        }
        let fresh = dir.join(".hgemm.sm_90a.1.part");
        std::fs::write(&fresh, "new").unwrap();
        // the file rewritten while ptxas ran: nothing kept, nothing pruned
        keep_cubin(&fresh, &ptx, ".version 7.9\n", "hgemm", "sm_90a");
        assert!(older.exists() && fresh.exists());
        keep_cubin(&fresh, &ptx, ".version 8.0\n", "hgemm", "sm_90a");
        let kept = dir.join(cute_builder::cubin_file_name(
            "hgemm",
            "sm_90a",
            ".version 8.0\n",
        ));
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "new");
        assert!(!older.exists());
        // no partial file left behind
        let mut names = std::fs::read_dir(&dir).unwrap().flatten();
        assert!(names.all(|e| !e.file_name().to_string_lossy().ends_with(".part")));
        // another family's cubin (`hgemm_fp8-` begins with `hgemm`) and another architecture's stay
        assert!(other.exists() && other_arch.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
