//! `cargo xtask <command>`: the GPU pipeline's driver (std only).
//!
//! ```text
//! cargo xtask build-kernels [--arch sm_90a] [-v]  PTX -> target/ptx/kernels.ptx (+ ptxas table)
//! cargo xtask run [--arch A]                      build PTX, then `host run` (release)
//! cargo xtask test                                the project's test command (CI runs it)
//! cargo xtask test-full                           every GEMM entry, the corpora too slow to compile for `test` (CI runs it after)
//! cargo xtask doc                                 test-full's `cargo doc` step alone (`-D warnings`)
//! cargo xtask bench [copy|gemm|all] [--json|--csv] [--svg FILE]   `host bench` (release)
//! cargo xtask sanitize                            compute-sanitizer on `host run`
//! cargo xtask new-kernel-crate DIR                 a kernel project of your own in DIR
//! ```

mod interop;
mod ptxas;
mod sanitize;
mod scaffold;

use cute_builder as ptx;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <build-kernels [--arch sm_90a] [-v] | run [--arch A] | test | test-full | doc | bench [copy|gemm|all] [--json|--csv] [--svg FILE] | sanitize | new-kernel-crate DIR>";

/// Repository root and target dir.
struct Ws {
    root: PathBuf,
    target: PathBuf,
}

impl Ws {
    fn new() -> Ws {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask in a subfolder")
            .to_path_buf();
        let target = match std::env::var_os("CARGO_TARGET_DIR") {
            Some(d) => root.join(d),
            None => root.join("target"),
        };
        Ws { root, target }
    }
    /// Sets `CUTE_RS_CUBIN_DIR` for a host command to `target/ptx`, where the assembly of
    /// `build-kernels`, `run` and `test` keeps each module's cubin: the host loads them in place
    /// of the driver's JIT where they are of the very text it embeds (a variable the caller set
    /// wins).
    fn with_cubins<'c>(&self, c: &'c mut Command) -> &'c mut Command {
        if std::env::var_os("CUTE_RS_CUBIN_DIR").is_none() {
            c.env("CUTE_RS_CUBIN_DIR", self.target.join("ptx"));
        }
        c
    }
    fn opts(&self, arch: Option<&str>, verbose: bool) -> ptx::Options {
        let mut o = ptx::Options::new(&self.root, &self.target);
        if let Some(a) = arch {
            o.arch = a.to_string();
        }
        o.install = true;
        o.want_llvm_tools = true;
        o.verbose = verbose;
        o
    }
    /// [`Ws::opts`] for one build of the set the host embeds ([`ptx::build_archs`]): a family
    /// written for another architecture of the set is left to that build.
    fn opts_in_set(&self, arch: Option<&str>, verbose: bool) -> ptx::Options {
        let mut o = self.opts(arch, verbose);
        let set = ptx::build_archs();
        if set.contains(&o.arch) {
            o.beside = set;
        }
        o
    }
    /// The cargo that runs us (stable), for workspace commands.
    ///
    /// Under CI (`CI` set, as `.ci/run` sets it) the workspace crates are compiled without
    /// incremental state (`CARGO_INCREMENTAL=0`, unless set): a CI build is never rebuilt, and
    /// the cold test build took 196 CPU-s instead of 211 (2 cores, 2026-11-29). Elsewhere cargo's
    /// default stays, so `cargo xtask test` and a plain `cargo test` share one build.
    fn cargo(&self) -> Command {
        let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        c.current_dir(&self.root);
        if std::env::var_os("CI").is_some() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
            c.env("CARGO_INCREMENTAL", "0");
        }
        c
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ws = Ws::new();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let code = match cmd.as_str() {
        "build-kernels" => {
            parse_build_args(rest).map_or(2, |(a, v)| build_kernels(&ws, a.as_deref(), v))
        }
        "run" => parse_build_args(rest).map_or(2, |(a, v)| run(&ws, a.as_deref(), v)),
        "test" => {
            disk_note(&ws, "test", 3);
            test(&ws)
        }
        "test-full" => {
            disk_note(&ws, "test-full", 2);
            test_full(&ws)
        }
        "doc" => {
            let t0 = std::time::Instant::now();
            summary("doc", &[("cargo doc, no warnings", doc_step(&ws))], t0)
        }
        "bench" => host_release(&ws, "bench", rest),
        "sanitize" => sanitize(&ws),
        "new-kernel-crate" => new_kernel_crate(&ws, rest),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("xtask: unknown command `{other}`; {USAGE}");
            2
        }
    };
    ExitCode::from(code as u8)
}

fn new_kernel_crate(ws: &Ws, rest: &[String]) -> i32 {
    let [dir] = rest else {
        eprintln!(
            "xtask: new-kernel-crate takes one argument, the new project's directory; {USAGE}"
        );
        return 2;
    };
    match scaffold::write(&ws.root, Path::new(dir)) {
        Ok(s) => {
            println!(
                "wrote {dir}: kernels/ ({kernels}: `axpy` in CuTe's form, built to PTX by app/build.rs) \
                 and app/ ({name}: loads it with host::Context::add_ptx, checks it against the CPU)\n\
                 next:\n  cd {dir}\n  cargo build --release\n  cargo run --release    \
                 # on a machine with an NVIDIA GPU: PASS",
                dir = s.dir.display(),
                kernels = s.kernels,
                name = s.name,
            );
            0
        }
        Err(e) => {
            eprintln!("xtask: new-kernel-crate: {e}");
            2
        }
    }
}

/// Scaffolds a project into a temporary directory and builds it with the workspace's target dir
/// (its host dependencies are already built by `cargo test --workspace`, the kernel target dir
/// holds `core`): the PTX is produced, has the one `axpy` entry and no `.local`, and ptxas
/// assembles it with no spills.
fn scaffold_step(ws: &Ws, arch: &str) -> Step {
    let t0 = std::time::Instant::now();
    let tmp = std::env::temp_dir().join(format!("cute-rs-scaffold-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let s = match scaffold::write(&ws.root, &tmp.join("hello-cute")) {
        Ok(s) => s,
        Err(e) => return Step::Fail(e),
    };
    eprintln!(
        "[test] cargo xtask new-kernel-crate {0}; cargo build in it",
        s.dir.display()
    );
    let mut c = ws.cargo();
    c.current_dir(&s.dir)
        .args(["build", "--message-format=json-render-diagnostics"])
        .env("CARGO_TARGET_DIR", &ws.target)
        .env("CUTE_RS_REQUIRE_PTX", "1")
        .env("CUTE_RS_ARCH", arch)
        .stderr(std::process::Stdio::inherit());
    route_stderr(&mut c);
    let out = match c.output() {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            return Step::Fail(format!(
                "cargo build in {} exited with {}",
                s.dir.display(),
                o.status
            ));
        }
        Err(e) => return Step::Fail(format!("could not start cargo: {e}")),
    };
    let json = String::from_utf8_lossy(&out.stdout);
    let marker = format!("/build/{}-", s.name);
    let Some(out_dir) = json
        .lines()
        .filter(|l| l.contains("\"reason\":\"build-script-executed\""))
        .filter_map(|l| l.split("\"out_dir\":\"").nth(1)?.split('"').next())
        .find(|d| d.contains(&marker))
    else {
        return Step::Fail(format!(
            "no build-script output of `{}` in cargo's messages",
            s.name
        ));
    };
    let ptx_path = Path::new(out_dir).join(format!("{}.ptx", s.kernels));
    let ptx_text = std::fs::read_to_string(&ptx_path).unwrap_or_default();
    let entries = ptx::entries(&ptx_text);
    if entries != ["axpy"] {
        return Step::Fail(format!(
            "{}: entries {entries:?}, want [\"axpy\"]",
            ptx_path.display()
        ));
    }
    if ptx_text.contains(".local") {
        return Step::Fail(format!("{}: a .local frame", ptx_path.display()));
    }
    // `test` installs ptxas in its ptxas step; `test-full` alone installs it here
    let bin = match ptxas::find(&ws.target).map_or_else(|| ptxas::install(&ws.target), Ok) {
        Ok(bin) => bin,
        Err(e) => return Step::Fail(format!("no ptxas: {e}")),
    };
    let report = match ptxas::assemble(&bin, &ptx_path, arch, false) {
        Ok(r) => r,
        Err(e) => return Step::Fail(e),
    };
    let Some(k) = report.kernels.iter().find(|k| k.name == "axpy") else {
        return Step::Fail("ptxas reported no `axpy`".into());
    };
    if k.spill_stores + k.spill_loads + k.stack_bytes > 0 {
        return Step::Fail(format!(
            "axpy: {} B spill stores, {} B spill loads, {} B stack",
            k.spill_stores, k.spill_loads, k.stack_bytes
        ));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Step::Pass(format!(
        "axpy: {} registers, 0 spills ({:.0} s)",
        k.registers,
        t0.elapsed().as_secs_f64()
    ))
}

fn parse_build_args(rest: &[String]) -> Option<(Option<String>, bool)> {
    let (mut arch, mut verbose) = (None, false);
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--arch" => match it.next() {
                Some(v) => arch = Some(v.clone()),
                None => {
                    eprintln!("xtask: --arch needs a value (e.g. sm_90a)");
                    return None;
                }
            },
            s if s.starts_with("--arch=") => arch = Some(s["--arch=".len()..].to_string()),
            "-v" | "--verbose" => verbose = true,
            other => {
                eprintln!("xtask: unknown argument `{other}`; {USAGE}");
                return None;
            }
        }
    }
    Some((arch, verbose))
}

/// What `ptxas -v` said about every module (`None`: no ptxas was given).
type Assembled = Option<Result<ptxas::Report, String>>;

/// Builds the PTX and prints each module's path; with a `ptxas`, assembles each module as soon
/// as its family is built, while cargo still compiles the others.
fn build_ptx(
    opts: ptx::Options,
    ptxas_bin: Option<&Path>,
) -> Result<(ptx::Options, ptx::Built, Assembled), i32> {
    eprintln!(
        "[ptx] building kernels for {} (first build compiles core: ~1 min) ...",
        opts.arch
    );
    let pool = ptxas_bin.map(|b| ptxas::Assembler::new(b, &opts.arch));
    let built = ptx::build_each(&opts, |m| {
        if let Some(p) = &pool {
            p.push(&m.ptx_path);
        }
    });
    match built {
        Ok(b) => {
            for m in &b.modules {
                println!("{}", m.ptx_path.display());
            }
            let report = pool.map(|p| p.finish(&b.paths()));
            Ok((opts, b, report))
        }
        Err(e) => {
            eprintln!("xtask: {e}");
            Err(1)
        }
    }
}

/// Prints the resource table and fails on ptxas's performance-loss notes.
fn print_resources(report: Assembled) -> Result<Option<ptxas::Report>, String> {
    let Some(report) = report else {
        println!(
            "ptxas not found: no resource table (install it: python3 -m pip install {}, or run `cargo xtask test`)",
            ptxas::PIP_PACKAGE
        );
        return Ok(None);
    };
    let report = report?;
    print!("{}", ptxas::table(&report));
    ptxas::performance_losses(&report)?;
    Ok(Some(report))
}

/// `--arch A`: every family that runs on A, built for A. Without it, the builds the host
/// embeds ([`ptx::build_archs`]: sm_90a and sm_80), each family in the build it is written for.
fn build_kernels(ws: &Ws, arch: Option<&str>, verbose: bool) -> i32 {
    let bin = ptxas::find(&ws.target);
    let builds = match arch {
        Some(_) => vec![ws.opts(arch, verbose)],
        None => ptx::build_archs()
            .iter()
            .map(|a| ws.opts_in_set(Some(a), verbose))
            .collect(),
    };
    for opts in builds {
        let (_, _, report) = match build_ptx(opts, bin.as_deref()) {
            Ok(x) => x,
            Err(c) => return c,
        };
        if let Err(e) = print_resources(report) {
            eprintln!("xtask: {e}");
            return 1;
        }
    }
    0
}

/// The kernel features `cargo xtask run` adds (`CUTE_RS_KERNEL_FEATURES`): every `wgmma`
/// proof (all 174 16-bit configurations; `cargo xtask test` builds N = 8 and 256 only).
const RUN_KERNEL_FEATURES: &str = "wgmma/all-proofs,wgmma_mn/all-proofs";

fn run(ws: &Ws, arch: Option<&str>, verbose: bool) -> i32 {
    let features = match std::env::var("CUTE_RS_KERNEL_FEATURES") {
        Ok(f) if !f.trim().is_empty() => format!("{f},{RUN_KERNEL_FEATURES}"),
        _ => RUN_KERNEL_FEATURES.to_string(),
    };
    // SAFETY of env: single-threaded here; the builds below and their children read it.
    unsafe { std::env::set_var("CUTE_RS_KERNEL_FEATURES", features) };
    // The resource table is shown with or without a GPU: fetch ptxas (PyPI) like `test` does.
    let bin = ptxas::find(&ws.target).or_else(|| {
        eprintln!(
            "[ptxas] not found; installing {} for the resource table ...",
            ptxas::PIP_PACKAGE
        );
        ptxas::install(&ws.target)
            .map_err(|e| eprintln!("xtask: no ptxas ({e}); skipping the resource table"))
            .ok()
    });
    // without --arch: the primary build as the host embeds it (its build script then builds
    // the others)
    let opts = match arch {
        Some(_) => ws.opts(arch, verbose),
        None => ws.opts_in_set(None, verbose),
    };
    let (opts, _, report) = match build_ptx(opts, bin.as_deref()) {
        Ok(x) => x,
        Err(c) => return c,
    };
    if let Err(e) = print_resources(report) {
        eprintln!("xtask: {e}");
        return 1;
    }
    // Without a GPU, `host run` says so in one line and exits 2.
    let mut c = ws.cargo();
    c.args(["run", "--quiet", "--release", "-p", "host-cli", "--", "run"])
        .env("CUTE_RS_REQUIRE_PTX", "1");
    ws.with_cubins(&mut c);
    // Without --arch the host embeds its default builds (sm_90a and sm_80) and picks per device.
    if arch.is_some() {
        c.env("CUTE_RS_ARCH", &opts.arch);
    }
    status_code(&mut c)
}

fn host_release(ws: &Ws, sub: &str, rest: &[String]) -> i32 {
    let mut c = ws.cargo();
    c.args(["run", "--quiet", "--release", "-p", "host-cli", "--", sub])
        .args(rest)
        .env("CUTE_RS_REQUIRE_PTX", "1");
    ws.with_cubins(&mut c);
    status_code(&mut c)
}

thread_local! {
    /// Where the children of this thread's steps write (see [`quietly`]); `None`: the terminal.
    static STEP_LOG: std::cell::RefCell<Option<std::fs::File>> =
        const { std::cell::RefCell::new(None) };
}

/// Sends `c`'s stdout and stderr to this thread's step log, if it has one.
fn route(c: &mut Command) {
    STEP_LOG.with(|l| {
        if let Some(f) = &*l.borrow()
            && let (Ok(o), Ok(e)) = (f.try_clone(), f.try_clone())
        {
            c.stdout(o).stderr(e);
        }
    });
}

/// A step of [`quietly`]: its name and what runs it.
type SideStep<'a> = (&'a str, Box<dyn FnOnce() -> Step + Send + 'a>);

/// Runs `steps` in order with their commands' output in `log` instead of the terminal (they
/// run beside another step that prints); a failing step's log is printed by the caller.
fn quietly<'a>(log: &Path, steps: Vec<SideStep<'a>>) -> Vec<(&'a str, Step)> {
    let file = std::fs::File::create(log).ok();
    STEP_LOG.with(|l| *l.borrow_mut() = file);
    let done = steps.into_iter().map(|(name, f)| (name, f())).collect();
    STEP_LOG.with(|l| *l.borrow_mut() = None);
    done
}

/// [`route`] for stderr only (a command whose stdout the step reads).
fn route_stderr(c: &mut Command) {
    STEP_LOG.with(|l| {
        if let Some(e) = l.borrow().as_ref().and_then(|f| f.try_clone().ok()) {
            c.stderr(e);
        }
    });
}

fn status_code(c: &mut Command) -> i32 {
    route(c);
    match c.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("xtask: could not start {c:?}: {e}");
            1
        }
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

const SANITIZERS: [&str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

/// The sanitizers replay every launch slowly: a short randomized sweep (still random shapes,
/// majorities, offsets) after the fixed checks.
const SANITIZE_SWEEPS: &str = "--sweep-gemm 20 --sweep-copy 10 --sweep-attention 10";

fn sanitize(ws: &Ws) -> i32 {
    let mut b = ws.cargo();
    b.args(["build", "--quiet", "--release", "-p", "host-cli"])
        .env("CUTE_RS_REQUIRE_PTX", "1");
    if status_code(&mut b) != 0 {
        return 1;
    }
    let host = ws.target.join("release/host");
    let cmds: Vec<String> = SANITIZERS
        .iter()
        .map(|t| {
            format!(
                "compute-sanitizer --tool {t} --error-exitcode 1 {} run {SANITIZE_SWEEPS}",
                host.display()
            )
        })
        .collect();
    let gpu = on_path("nvidia-smi").is_some_and(|smi| {
        Command::new(smi)
            .arg("-L")
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
    });
    let Some(sanitizer) = on_path("compute-sanitizer").filter(|_| gpu) else {
        println!("no GPU or no compute-sanitizer here; on a GPU machine run:");
        for c in &cmds {
            println!("  {c}");
        }
        return 0;
    };
    let mut failed = 0;
    for t in SANITIZERS {
        println!("== compute-sanitizer --tool {t}");
        let mut c = Command::new(&sanitizer);
        ws.with_cubins(&mut c);
        if t == "racecheck" {
            // every kernel checked, the report read for ours (cuBLAS's reference kernels report
            // hazards of their own; racecheck's kernel filters fail here: `sanitize.rs`)
            // (every hazard printed, without backtraces: cuBLAS's could fill the print limit
            // before one of ours)
            c.args(["--tool", t, "--print-limit", "0", "--show-backtrace", "no"])
                .arg(&host)
                .arg("run")
                .args(SANITIZE_SWEEPS.split(' '));
            if !racecheck_ours(&mut c, &ws.target.join("ptx")) {
                failed += 1;
            }
            continue;
        }
        c.args(["--tool", t, "--error-exitcode", "1"])
            .arg(&host)
            .arg("run")
            .args(SANITIZE_SWEEPS.split(' '));
        if status_code(&mut c) != 0 {
            failed += 1;
        }
    }
    println!(
        "sanitize: {} passed, {failed} failed",
        SANITIZERS.len() - failed
    );
    i32::from(failed > 0)
}

/// Runs racecheck `c` (its report printed once it ends) and says whether it passed: the program
/// succeeded, the report was read ([`sanitize::unread`]) and no hazard involves a kernel of the
/// modules in `ptx_dir` ([`sanitize::hazards_in`]).
fn racecheck_ours(c: &mut Command, ptx_dir: &Path) -> bool {
    let out = match c.output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("xtask: could not start {c:?}: {e}");
            return false;
        }
    };
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    print!("{stdout}");
    eprint!("{stderr}");
    let ours = sanitize::entries(ptx_dir);
    let report = format!("{stdout}\n{stderr}");
    let hazards = sanitize::hazards_in(&report, &ours);
    if sanitize::unread(&report) {
        println!("racecheck: hazards reported in a form xtask cannot read (see above): failed");
        return false;
    }
    for h in hazards.iter().take(20) {
        println!("racecheck, in our kernels: {h}");
    }
    println!(
        "racecheck: {} hazard(s) in our kernels ({} entries known from {})",
        hazards.len(),
        ours.len(),
        ptx_dir.display()
    );
    out.status.success() && hazards.is_empty()
}

/// Outcome of one `cargo xtask test` step.
enum Step {
    Pass(String),
    Fail(String),
    Skip(String),
}

/// Instructions the smoke kernels must contain (the device wrappers really emit them).
const EXPECTED_INSTRUCTIONS: [&str; 13] = [
    "ld.global.v4.f32",
    "st.global.v4.f32",
    "ld.shared.v4.f32",
    "cp.async.cg.shared.global",
    "cp.async.commit_group",
    "cp.async.wait_group",
    "ldmatrix.sync.aligned.m8n8.x4",
    "mma.sync.aligned.m16n8k16",
    "shfl.sync.bfly.b32",
    "wgmma.fence.sync.aligned",
    "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
    "wgmma.wait_group.sync.aligned",
];

/// The kernel features of `cargo xtask test`'s build where no GPU runs the entries: the GEMM
/// families' representative entries only (one per schedule, tile, epilogue form and operand
/// majority: `kernels/hgemm/Cargo.toml`); `cargo xtask test-full` builds and checks every entry.
const REPRESENTATIVE_FEATURES: &str = "hgemm/representative,hgemm_fp8/representative";

/// Sets `CUTE_RS_KERNEL_FEATURES` for the builds this process starts: the caller's list with
/// [`REPRESENTATIVE_FEATURES`] added (`on`) or taken out. Call it before any thread or build
/// starts.
fn set_representative(on: bool) {
    let list = std::env::var("CUTE_RS_KERNEL_FEATURES").unwrap_or_default();
    let mut kept: Vec<&str> = list
        .split([',', ' '])
        .map(str::trim)
        .filter(|f| !f.is_empty() && !REPRESENTATIVE_FEATURES.split(',').any(|r| r == *f))
        .collect();
    if on {
        kept.push(REPRESENTATIVE_FEATURES);
    }
    // SAFETY of env: single-threaded here; the builds started afterwards and their children read it.
    unsafe { std::env::set_var("CUTE_RS_KERNEL_FEATURES", kept.join(",")) };
}

/// Whether this machine has an NVIDIA GPU to run the kernels on (`nvidia-smi -L` lists one): the
/// test command's GPU step then runs every GEMM entry, so it builds them all.
fn gpu_present() -> bool {
    Command::new("nvidia-smi")
        .arg("-L")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GPU "))
}

fn test(ws: &Ws) -> i32 {
    let mut steps: Vec<(&str, Step)> = Vec::new();
    let t0 = std::time::Instant::now();

    // 1. toolchain + PTX build (installs nightly components if needed).
    // ptxas (found, or installed from PyPI first) assembles each module as its family finishes;
    // if the install failed, it is tried again after the build, for step 3.
    if let Err(e) = ptx::ensure_toolchain(&ws.opts(None, false)) {
        eprintln!("xtask: {e}");
        steps.push(("ptx builds", Step::Fail("see the error above".into())));
        return summary("test", &steps, t0);
    }
    // Without a GPU no step launches the GEMM families' entries: their representative ones are
    // built and checked here, every entry by `cargo xtask test-full` (set before any build starts:
    // the host's build script embeds the same PTX).
    let representative = !gpu_present();
    set_representative(representative);
    if representative {
        eprintln!(
            "[test] no GPU: the GEMM families' representative entries ({REPRESENTATIVE_FEATURES}); `cargo xtask test-full` builds and checks every entry"
        );
    }
    // The workspace's test build (step 5) runs beside the nightly steps 1–4: those build in
    // target/kernels/<arch> and target/kernels/emu, it in target/, so no cargo lock is shared;
    // the host's build script waits for the PTX builds' lock and then finds them done. On 2 cores
    // this fills the core each serial stretch of the other leaves idle (a family's LTO, core).
    let prebuild = spawn_test_build(ws);
    // The Python step's pytest (a pip install), meanwhile (network and disk).
    let venv_target = ws.target.clone();
    let venv = std::thread::spawn(move || interop::prepare_pytest(&venv_target));
    // ptxas: found, else installed from PyPI now (the test build keeps the cores busy while it
    // downloads), so that each module is assembled as soon as its family is built.
    let found = ptxas::find(&ws.target).or_else(|| {
        ptxas::install(&ws.target)
            .map_err(|e| eprintln!("xtask: ptxas: {e} (tried again after the build)"))
            .ok()
    });
    // The sm_80 build (3b) and the CPU emulator (4) do not depend on the sm_90a build (each has
    // its own target dir under target/kernels): they run beside it, so a core that one chain
    // leaves idle (a family's fat LTO, `core`, a test binary's link) the others fill. The
    // emulator's output goes to a log (printed when it fails); the sm_80 table is printed after.
    let emu_log = ws.target.join("xtask/emu.log");
    eprintln!(
        "[test] beside the sm_90a build: the sm_80 build and the CPU emulator (log: {})",
        emu_log.display()
    );
    let (built, ampere, emu) = std::thread::scope(|sc| {
        let ampere = sc.spawn(|| ampere_step(ws));
        let emu = sc.spawn(|| {
            let file = std::fs::File::create(&emu_log).ok();
            STEP_LOG.with(|l| *l.borrow_mut() = file);
            emu_step(ws, &ws.opts_in_set(None, false))
        });
        let built = build_ptx(ws.opts_in_set(None, false), found.as_deref());
        (built, ampere.join(), emu.join())
    });
    let (ampere, ampere_ptx, ampere_table) = ampere.unwrap_or_else(|_| {
        let panicked = Step::Fail("its thread panicked".into());
        (panicked, String::new(), String::new())
    });
    print!("{ampere_table}");
    let emu = emu.unwrap_or_else(|_| Step::Fail("its thread panicked".into()));
    let emu_text = std::fs::read_to_string(&emu_log).unwrap_or_default();
    if matches!(emu, Step::Fail(_)) {
        eprint!("{emu_text}");
        eprintln!(
            "[test] (the emulator's output above, from {})",
            emu_log.display()
        );
    } else {
        for l in emu_text.lines().filter(|l| l.starts_with("test result:")) {
            eprintln!("[emu] {l}");
        }
    }
    let (opts, built, assembled) = match built {
        Ok(x) => x,
        Err(_) => {
            steps.push(("ptx builds", Step::Fail("see the error above".into())));
            finish_test_build(prebuild);
            return summary("test", &steps, t0);
        }
    };
    steps.push((
        "ptx builds",
        Step::Pass(format!(
            "{} modules, {} kernels{}: {}",
            built.modules.len(),
            built.entries().len(),
            if representative {
                " (the GEMM families' representative entries)"
            } else {
                ""
            },
            built.entries().join(", ")
        )),
    ));

    // 2. self-contained (+ the expected instructions, over both builds, after 3b).
    let mut all_ptx: String = built.modules.iter().map(|m| m.ptx.as_str()).collect();
    steps.push((
        "ptx self-contained",
        match built
            .modules
            .iter()
            .map(|m| ptx::check_self_contained(&m.ptx).map_err(|e| format!("{}: {e}", m.family)))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(_) => Step::Pass(format!("{} modules, no .extern .func", built.modules.len())),
            Err(e) => Step::Fail(e),
        },
    ));

    // 3. ptxas (installed from PyPI if absent): assembles, no spills.
    let assembled = assembled.unwrap_or_else(|| {
        ptxas::install(&ws.target).and_then(|b| ptxas::assemble_all(&b, &built.paths(), &opts.arch))
    });
    let (checks, ptxas_path) = ptxas_steps(assembled, &opts.arch);
    steps.extend(checks);

    // 3b. the Ampere build (every family written for sm_80; the host embeds it beside sm_90a):
    // builds, and ptxas assembles every module for sm_80 with no spills.
    steps.push(("sm_80 build: ptx builds, ptxas assembles", ampere));
    // the families written for sm_80 only are in that build alone (they run on Hopper from it)
    all_ptx.push_str(&ampere_ptx);
    let missing: Vec<&str> = EXPECTED_INSTRUCTIONS
        .iter()
        .copied()
        .filter(|i| !all_ptx.contains(i))
        .collect();
    steps.push((
        "ptx instructions",
        if missing.is_empty() {
            Step::Pass(format!(
                "{} expected instructions present (both builds)",
                EXPECTED_INSTRUCTIONS.len()
            ))
        } else {
            Step::Fail(format!("missing: {}", missing.join(", ")))
        },
    ));

    // 4. the kernel entries on the CPU emulator (kernels/emu, nightly, host target).
    steps.push(("kernels on the CPU emulator", emu));

    // 5. the workspace's tests (root package included), PTX embedded for real: built beside
    // steps 1–4 (above), run here.
    if let Some(fail) = finish_test_build(prebuild) {
        steps.push(("cargo test --workspace (build)", fail));
    }
    // The tests' run in two parts that run at once (cargo holds the build directory's lock
    // only while it compiles, and everything is built): the test targets (the trybuild cases
    // are most of it, one core) and the doc tests (rustdoc, one core).
    let ptxas_checked = steps.iter().all(|(_, s)| matches!(s, Step::Pass(_)));
    // steps 3 and 3b assembled every module of both builds (the same target/ptx the tests
    // embed) with the same checks: host/tests/ptx.rs's ptxas test need not do it again
    // (every step so far passed: otherwise the test checks for itself)
    let test_cmd = |what: &[&str]| {
        let mut args = vec!["test", "--workspace", "--no-fail-fast"];
        args.extend(what);
        embedded_ptx_test(ws, &args, ptxas_checked, ptxas_path.as_deref())
    };
    let mut c = test_cmd(&["--lib", "--bins", "--tests", "--examples"]);
    // the compile-fail suite: one case of each group here (81 s for all 55 on 2 cores, at the
    // command's tail); `cargo xtask test-full` runs every case
    c.env("CUTE_RS_UI_QUICK", "1");
    // layout-types' 605 examples (one merged doctest crate, ~2 min of one core) run in
    // `cargo xtask test-full`
    let mut doc = test_cmd(&["--doc", "--exclude", "layout-types"]);
    // The side steps (5b) run beside the tests too; their output goes to a log, printed when one fails.
    // They start a few seconds late: each takes the build directory's lock for a whole build,
    // and the two test runs need it first, for their (no-op) builds.
    let side_log = ws.target.join("xtask/side-steps.log");
    let _ = venv.join();
    let (tests, side) = std::thread::scope(|sc| {
        let side = sc.spawn(|| {
            std::thread::sleep(std::time::Duration::from_secs(4));
            let steps: Vec<SideStep> = vec![
                // 5b. the Python package's GPU-free tests (host beside candle's and burn's cudarc
                // features is `cargo xtask test-full`'s candle step: the same crate, candle added).
                (
                    "python: cute_rs (pytest)",
                    Box::new(|| interop::python_step(ws, interop::Extension::Workspace)),
                ),
            ];
            quietly(&side_log, steps)
        });
        let doc_log = ws.target.join("xtask/doc-tests.log");
        let docs = sc.spawn(move || {
            eprintln!(
                "[test] cargo test --workspace --doc --exclude layout-types (beside the test targets, log: {})",
                doc_log.display()
            );
            STEP_LOG.with(|l| *l.borrow_mut() = std::fs::File::create(&doc_log).ok());
            let code = status_code(&mut doc);
            let text = std::fs::read_to_string(&doc_log).unwrap_or_default();
            if code == 0 {
                // the summary line of each crate's doc tests
                for l in text
                    .lines()
                    .filter(|l| l.contains("Doc-tests") || l.starts_with("test result:"))
                {
                    eprintln!("[doc tests] {l}");
                }
            } else {
                eprint!("{text}");
            }
            code
        });
        eprintln!(
            "[test] cargo test --workspace --lib --bins --tests --examples (the side steps beside it, log: {})",
            side_log.display()
        );
        let targets = status_code(&mut c);
        let docs = docs.join().unwrap_or(1);
        let tests = match (targets, docs) {
            (0, 0) => Step::Pass("ok (test targets and doc tests)".into()),
            (t, d) => Step::Fail(format!(
                "exit codes: test targets {t}, doc tests {d} (the failures are above)"
            )),
        };
        (tests, side.join())
    });
    steps.push(("cargo test --workspace", tests));
    match side {
        Ok(side) => {
            if side.iter().any(|(_, s)| matches!(s, Step::Fail(_))) {
                eprint!("{}", std::fs::read_to_string(&side_log).unwrap_or_default());
                eprintln!(
                    "[test] (the output of the side steps above, from {})",
                    side_log.display()
                );
            }
            steps.extend(side);
        }
        Err(_) => steps.push(("side steps", Step::Fail("their thread panicked".into()))),
    }

    // 8. GPU checks: `host run` (debug build from step 5); skipped without a GPU.
    let host = ws.target.join("debug/host");
    let gpu = match gpu_step(ws, &host) {
        // a GPU that `nvidia-smi -L` did not list: the build above left entries out
        Step::Fail(why) if representative => Step::Fail(format!(
            "{why} (this build has the GEMM families' representative entries only: `nvidia-smi -L` listed no GPU)"
        )),
        step => step,
    };
    steps.push(("gpu: host run", gpu));
    summary("test", &steps, t0)
}

/// Steps 3's checks of one assembled build: ptxas assembles every module, no kernel spills or
/// has a stack frame, and no ptxas performance-loss note or k-loop defect (`cargo xtask test`'s
/// sm_90a build, `cargo xtask test-full`'s GEMM families with every entry). Returns the steps and
/// the ptxas that ran.
fn ptxas_steps(
    assembled: Result<ptxas::Report, String>,
    arch: &str,
) -> (Vec<(&'static str, Step)>, Option<PathBuf>) {
    let mut steps = Vec::new();
    let report = match assembled {
        Ok(report) => report,
        Err(e) => return (vec![("ptxas assembles", Step::Fail(e))], None),
    };
    print!("{}", ptxas::table(&report));
    steps.push((
        "ptxas assembles",
        Step::Pass(format!("{arch} ({})", report.version)),
    ));
    let spills = ptxas::spilling(&report);
    steps.push((
        "no spills, no stack frame",
        if spills.is_empty() && !report.kernels.is_empty() {
            Step::Pass(format!("{} kernels, 0 spill bytes", report.kernels.len()))
        } else if report.kernels.is_empty() {
            Step::Fail("ptxas reported no kernels".into())
        } else {
            Step::Fail(spills.join("; "))
        },
    ));
    // the GEMM families' k-loops read in SASS (nvdisasm, installed beside ptxas): none
    // rebuilds a shared-memory address (a wgmma descriptor base) every k-tile, none has
    // an FFMA reading three registers of one bank
    let kloops = match &report.kloops_skipped {
        Some(why) => format!("k-loops SKIP: {why}"),
        None => format!(
            "{} GEMM k-loops hold their shared addresses, no bank conflict",
            report.kloops.len()
        ),
    };
    steps.push((
        "no wgmma serialization, no ignored setmaxnreg, no k-loop rebuilding an address or with bank conflicts",
        match ptxas::performance_losses(&report) {
            Ok(()) => Step::Pass(format!(
                "{} kernels, no C7508/C751x performance-loss note; {kloops}",
                report.kernels.len()
            )),
            Err(e) => Step::Fail(e),
        },
    ));
    (steps, Some(report.ptxas.clone()))
}

/// `cargo doc` of the library crates with `-D warnings` (broken intra-doc links included); xtask
/// and the user-kernel example are binaries with nothing to link to. Without the PTX
/// (`CUTE_RS_SKIP_PTX=1`: the docs do not depend on it), so it builds no kernel on any tree —
/// after `cargo xtask test`'s representative build it would otherwise build every GEMM entry.
fn doc_step(ws: &Ws) -> Step {
    let mut d = ws.cargo();
    d.args([
        "doc",
        "--no-deps",
        "-p",
        "cute-rs",
        "-p",
        "layout-types",
        "-p",
        "host",
        "-p",
        "host-cli",
        "-p",
        "cute-builder",
        "-p",
        "device",
    ])
    .env("RUSTDOCFLAGS", "-D warnings")
    .env("CUTE_RS_SKIP_PTX", "1");
    eprintln!(
        "[test] cargo doc --no-deps -p cute-rs -p layout-types -p host -p host-cli -p cute-builder (RUSTDOCFLAGS=-D warnings)"
    );
    match status_code(&mut d) {
        0 => Step::Pass("ok".into()),
        code => Step::Fail(format!("exit code {code}")),
    }
}

/// The typed corpora that take too long to compile for `cargo xtask test` (CI runs this after
/// it): the typed differential corpus, parts A, B and C (`layout-types`, feature `typed-full`;
/// `cargo xtask test` keeps the typed layer's property tests against the value algebra) and its
/// typed ldmatrix TiledCopies, and
/// the root package's typed products and divides through complement and composition and its
/// typed TiledMMA / GMMA suites (feature `typed-full`), and layout-types' doc examples (the PTX
/// not needed: `CUTE_RS_SKIP_PTX=1`), after the GEMM families' every entry built, assembled and
/// checked ([`every_gemm_entry_steps`]: `cargo xtask test` without a GPU builds their
/// representative ones). Then `examples/candle-op` and the README's candle code
/// compiled against candle-core ([`interop::candle_step`]), `cargo doc` with no warnings, a
/// scaffolded kernel project (`new-kernel-crate`) built, and the Python package built as
/// `pip install ./python` builds it (maturin) and its pytest.
fn test_full(ws: &Ws) -> i32 {
    let t0 = std::time::Instant::now();
    let mut steps: Vec<(&str, Step)> = Vec::new();
    // every GEMM entry (`cargo xtask test` builds the representative ones where no GPU runs them)
    steps.extend(every_gemm_entry_steps(ws));
    let runs: [(&str, &[&str]); 4] = [
        (
            // every compile-fail case (`cargo xtask test` runs one of each group)
            "compile-fail cases, all",
            &["-p", "layout-types", "--test", "compile_fail"],
        ),
        (
            // layout-types' doc examples (605, one merged doctest crate: ~2 min of one core)
            "layout-types doc tests",
            &["-p", "layout-types", "--doc"],
        ),
        (
            "typed corpus (A, B, C, new forms), ldmatrix",
            &[
                "-p",
                "layout-types",
                "--test",
                "typed_differential",
                "--test",
                "typed_differential_b",
                "--test",
                "typed_differential_c",
                "--test",
                "typed_ldsm",
                "--test",
                "typed_differential_forms",
            ],
        ),
        (
            "typed products, divides, TiledMMA, GMMA",
            &[
                "-p",
                "cute-rs",
                "--test",
                "typed_product_differential",
                "--test",
                "typed_divide_differential",
                "--test",
                "typed_mma",
                "--test",
                "typed_gmma",
            ],
        ),
    ];
    for (name, args) in runs {
        let mut c = ws.cargo();
        c.arg("test")
            .args(args)
            .args(["--features", "typed-full"])
            .env("CUTE_RS_SKIP_PTX", "1");
        eprintln!(
            "[test-full] cargo test {} --features typed-full",
            args.join(" ")
        );
        steps.push((
            name,
            match status_code(&mut c) {
                0 => Step::Pass("ok".into()),
                code => Step::Fail(format!("exit code {code}")),
            },
        ));
    }
    // host beside candle's and burn's cudarc features, the candle example and the README's candle
    // code against candle-core itself (#36)
    steps.push((
        "host + candle's cudarc, candle code",
        interop::candle_step(ws),
    ));
    // the docs build with no warnings (broken intra-doc links included)
    steps.push(("cargo doc, no warnings", doc_step(ws)));
    // a scaffolded kernel project builds (PTX, ptxas, no .local)
    let arch = ws.opts(None, false).arch;
    steps.push(("new-kernel-crate builds", scaffold_step(ws, &arch)));
    // the Python package as `pip install ./python` builds it (maturin), and its tests
    steps.push((
        "python: cute_rs built by maturin (pytest)",
        interop::python_step(ws, interop::Extension::Maturin),
    ));
    summary("test-full", &steps, t0)
}

/// `cargo xtask test-full`'s first steps: the sm_90a build with every entry of the GEMM families
/// (`cargo xtask test` without a GPU builds their representative ones), assembled and checked as
/// `cargo xtask test`'s steps 1–3 check its build, then the host's PTX tests on it (the entry
/// counts, instructions and barriers of `host/tests/ptx.rs`).
fn every_gemm_entry_steps(ws: &Ws) -> Vec<(&'static str, Step)> {
    // this build and the tests' embedded PTX: every entry
    set_representative(false);
    let found = ptxas::find(&ws.target).or_else(|| ptxas::install(&ws.target).ok());
    eprintln!(
        "[test-full] every GEMM entry: the sm_90a build, ptxas, the sm_80 build, host/tests/ptx.rs"
    );
    let (opts, built, assembled) = match build_ptx(ws.opts_in_set(None, false), found.as_deref()) {
        Ok(x) => x,
        Err(_) => {
            return vec![(
                "GEMM families, every entry: ptx builds",
                Step::Fail("see the error above".into()),
            )];
        }
    };
    let gemm: Vec<String> = built
        .modules
        .iter()
        .filter(|m| m.family == "hgemm" || m.family == "hgemm_fp8")
        .map(|m| format!("{} {}", m.family, m.entries.len()))
        .collect();
    let mut steps = vec![(
        "GEMM families, every entry: ptx builds",
        Step::Pass(format!(
            "{} modules, {} kernels ({} entries)",
            built.modules.len(),
            built.entries().len(),
            gemm.join(", ")
        )),
    )];
    let assembled = assembled.unwrap_or_else(|| Err("ptxas could not be installed".into()));
    let (checks, ptxas_path) = ptxas_steps(assembled, &opts.arch);
    // the sm_80 build's cubins too (`test`'s step 3b; cargo's no-op where `test` ran first):
    // host/tests/ptx.rs checks the kept cubin of every embedded module, both architectures', so
    // without it `test-full` alone on a tree `test` never built failed there
    let (ampere, _, _) = ampere_step(ws);
    let checked =
        checks.iter().all(|(_, s)| matches!(s, Step::Pass(_))) && matches!(ampere, Step::Pass(_));
    steps.extend(checks);
    steps.push(("sm_80 build: ptx builds, ptxas assembles", ampere));
    // (the builds above assembled every module with the same checks)
    let mut c = embedded_ptx_test(
        ws,
        &["test", "-p", "host", "--test", "ptx"],
        checked,
        ptxas_path.as_deref(),
    );
    eprintln!("[test-full] cargo test -p host --test ptx (every GEMM entry embedded)");
    steps.push((
        "host/tests/ptx.rs on every GEMM entry",
        match status_code(&mut c) {
            0 => Step::Pass("ok".into()),
            code => Step::Fail(format!("exit code {code}")),
        },
    ));
    steps
}

/// `cargo <args>` on the embedded PTX (`CUTE_RS_REQUIRE_PTX=1`), told that ptxas already assembled
/// and checked it (`CUTE_RS_PTXAS_CHECKED=1`: `host/tests/ptx.rs` skips its own ptxas run) when
/// `checked`, with that `ptxas`.
fn embedded_ptx_test(ws: &Ws, args: &[&str], checked: bool, ptxas: Option<&Path>) -> Command {
    let mut c = ws.cargo();
    c.args(args).env("CUTE_RS_REQUIRE_PTX", "1");
    if checked {
        c.env("CUTE_RS_PTXAS_CHECKED", "1");
    }
    if let Some(p) = ptxas {
        c.env("PTXAS", p);
    }
    c
}

/// Step 5's build (`cargo test --workspace --no-run`, the environment step 5 runs with) started
/// in the background, its output in `target/xtask/test-build.log`.
struct TestBuild {
    child: std::io::Result<std::process::Child>,
    log: PathBuf,
    t0: std::time::Instant,
}

fn spawn_test_build(ws: &Ws) -> TestBuild {
    let log = ws.target.join("xtask/test-build.log");
    let _ = std::fs::create_dir_all(log.parent().expect("a parent"));
    let child = std::fs::File::create(&log).and_then(|out| {
        let err = out.try_clone()?;
        let mut c = ws.cargo();
        c.args(["test", "--workspace", "--no-run"])
            .env("CUTE_RS_REQUIRE_PTX", "1")
            .stdin(std::process::Stdio::null())
            .stdout(out)
            .stderr(err);
        c.spawn()
    });
    eprintln!(
        "[test] cargo test --workspace --no-run, beside the PTX steps (log: {})",
        log.display()
    );
    TestBuild {
        child,
        log,
        t0: std::time::Instant::now(),
    }
}

/// Waits for the background test build; `Some(step)` when it failed (its log printed).
fn finish_test_build(b: TestBuild) -> Option<Step> {
    let status = b.child.and_then(|mut c| c.wait());
    let secs = b.t0.elapsed().as_secs_f64();
    match status {
        Ok(s) if s.success() => {
            eprintln!("[test] the background test build finished ({secs:.0} s)");
            None
        }
        other => {
            let text = std::fs::read_to_string(&b.log).unwrap_or_default();
            eprint!("{text}");
            Some(Step::Fail(match other {
                Ok(s) => format!("{s} (its output is above, and in {})", b.log.display()),
                Err(e) => format!("could not run cargo: {e}"),
            }))
        }
    }
}

/// The `sm_80` build: only the families written for it (`[package.metadata.cute] archs`), each
/// module through ptxas for `sm_80`, no spills, no stack frame. Its target dir is the one the
/// host's build script uses for its `sm_80` modules, so that build is then a no-op.
///
/// Returns the outcome, the PTX text and ptxas's resource table (printed by the caller: the
/// step runs beside the sm_90a build).
fn ampere_step(ws: &Ws) -> (Step, String, String) {
    const ARCH: &str = "sm_80";
    let Some(bin) = ptxas::find(&ws.target) else {
        let step = Step::Fail("no ptxas (the ptxas step installs it)".into());
        return (step, String::new(), String::new());
    };
    let (_, built, report) = match build_ptx(ws.opts_in_set(Some(ARCH), false), Some(&bin)) {
        Ok(x) => x,
        Err(_) => {
            let step = Step::Fail("see the error above".into());
            return (step, String::new(), String::new());
        }
    };
    let text: String = built.modules.iter().map(|m| m.ptx.as_str()).collect();
    let report = match report {
        Some(Ok(r)) => r,
        Some(Err(e)) => return (Step::Fail(e), text, String::new()),
        None => return (Step::Fail("ptxas did not run".into()), text, String::new()),
    };
    let table = ptxas::table(&report);
    let bad = ptxas::spilling(&report);
    if !bad.is_empty() {
        return (Step::Fail(bad.join("; ")), text, table);
    }
    if report.kernels.len() != built.entries().len() {
        let e = format!(
            "ptxas reported {} kernels, the modules have {}",
            report.kernels.len(),
            built.entries().len()
        );
        return (Step::Fail(e), text, table);
    }
    let families: Vec<&str> = built.modules.iter().map(|m| m.family.as_str()).collect();
    let pass = Step::Pass(format!(
        "{} modules ({}), {} kernels, 0 spills",
        built.modules.len(),
        families.join(", "),
        report.kernels.len()
    ));
    (pass, text, table)
}

/// `cargo test -p device -p kernels-emu` with the nightly toolchain for the host: every copy,
/// transpose, GEMM, smoke and probe entry run by `device::emu` against CPU references (and the
/// emulator's own doc tests). Each test appends `<entry> <cases>` to `CUTE_EMU_REPORT`; the
/// step reports the distinct entries and the cases.
fn emu_step(ws: &Ws, opts: &ptx::Options) -> Step {
    let kernels = ws.root.join("kernels");
    let report = ws.target.join("kernels/emu-report.txt");
    let _ = std::fs::remove_file(&report);
    let mut c = ptx::clean_command("rustup");
    c.arg("run")
        .arg(&opts.toolchain)
        .args(["cargo", "test", "--manifest-path"])
        .arg(kernels.join("Cargo.toml"))
        .args([
            "-p",
            "device",
            "-p",
            "kernels-emu",
            // the GEMM collectives' unit and doc tests (scheduler, storage)
            "-p",
            "collective",
            "--profile",
            "emu",
            "--target-dir",
        ])
        .arg(ws.target.join("kernels/emu"))
        .env("CUTE_EMU_REPORT", &report)
        .current_dir(&kernels);
    eprintln!(
        "[test] kernels on the CPU emulator: cargo test -p device -p kernels-emu (nightly, host)"
    );
    let t0 = std::time::Instant::now();
    let code = status_code(&mut c);
    let secs = t0.elapsed().as_secs_f64();
    if code != 0 {
        return Step::Fail(format!(
            "exit code {code} (the failing entry and case are above)"
        ));
    }
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let mut entries = std::collections::BTreeSet::new();
    let mut cases = 0usize;
    for line in text.lines() {
        if let Some((entry, n)) = line.split_once(' ') {
            entries.insert(entry.to_string());
            cases += n.trim().parse::<usize>().unwrap_or(0);
        }
    }
    if entries.is_empty() {
        return Step::Fail(format!("no cases recorded in {}", report.display()));
    }
    Step::Pass(format!(
        "{} entries, {cases} cases ({secs:.0} s with the build)",
        entries.len()
    ))
}

fn gpu_step(ws: &Ws, host: &Path) -> Step {
    // The debug build's host-side sweep work is slow: a shorter sweep in the test command
    // (`host run` in release runs the full 300 + 100).
    match ws
        .with_cubins(&mut Command::new(host))
        .args([
            "run",
            "--sweep-gemm",
            "40",
            "--sweep-copy",
            "20",
            "--sweep-attention",
            "20",
        ])
        .output()
    {
        Ok(o) => {
            let stdout = String::from_utf8_lossy(&o.stdout);
            let stderr = String::from_utf8_lossy(&o.stderr);
            print!("{stdout}");
            match o.status.code() {
                Some(0) => Step::Pass("all kernels PASS".into()),
                Some(2) => Step::Skip(stderr.trim().to_string()),
                _ => Step::Fail(format!(
                    "{}{}",
                    stderr.trim(),
                    stdout.lines().last().unwrap_or("")
                )),
            }
        }
        Err(e) => Step::Fail(format!("could not start {}: {e}", host.display())),
    }
}

/// Warns before a test run when the disk under `target/` has less room than the run writes
/// (measured from fresh clones: `cargo xtask test` leaves 1.7 GiB in `target/`, `test-full` about
/// 0.8 GiB more): a full disk otherwise shows up as every later step failing with "No space left
/// on device" (os error 28) or "database or disk is full". `df` missing or unreadable: no note.
fn disk_note(ws: &Ws, what: &str, needs_gib: u64) {
    let dir = if ws.target.exists() {
        &ws.target
    } else {
        &ws.root
    };
    let Ok(out) = Command::new("df").arg("-Pk").arg(dir).output() else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // POSIX format: a header, then "filesystem blocks used available capacity mount"
    let avail_kib = text
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(kib) = avail_kib {
        let gib = kib as f64 / (1024.0 * 1024.0);
        if gib < needs_gib as f64 {
            eprintln!(
                "xtask: warning: {gib:.1} GiB free under {} (cargo xtask {what} needs about \
                 {needs_gib} GiB there: what it writes and some room); free some space if steps \
                 fail with \"No space left on device\"",
                dir.display()
            );
        }
    }
}

fn summary(title: &str, steps: &[(&str, Step)], t0: std::time::Instant) -> i32 {
    let (mut p, mut f, mut s) = (0, 0, 0);
    println!(
        "\n== cargo xtask {title} ({:.0} s)",
        t0.elapsed().as_secs_f64()
    );
    for (name, step) in steps {
        let (tag, text) = match step {
            Step::Pass(t) => {
                p += 1;
                ("PASS", t)
            }
            Step::Fail(t) => {
                f += 1;
                ("FAIL", t)
            }
            Step::Skip(t) => {
                s += 1;
                ("SKIP", t)
            }
        };
        println!("{tag}  {name:<27} {text}");
    }
    println!("xtask: {p} passed, {f} failed, {s} skipped");
    i32::from(f > 0)
}
