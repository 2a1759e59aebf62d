//! Building `kernels/` into ONE self-contained PTX module.
//!
//! Shared, word for word, by `cargo xtask build-kernels` (as `mod ptx`) and by the
//! root `build.rs` (through `#[path = "xtask/src/ptx.rs"]`), so both build the PTX
//! the same way into the same cache (`target/kernels/<arch>`). std only, no deps.
//!
//! The route (see README "GPU pipeline"):
//!
//! ```text
//! rustup run nightly cargo rustc --manifest-path kernels/Cargo.toml --release \
//!     --target nvptx64-nvidia-cuda -Zbuild-std=core --crate-type staticlib \
//!     --target-dir target/kernels/<arch> -- --emit=asm
//! RUSTFLAGS="-Ctarget-cpu=<arch> -Zunstable-options -Cpanic=immediate-abort"
//! ```
//!
//! `staticlib` + `lto = "fat"` + `codegen-units = 1` (kernels/Cargo.toml) makes
//! rustc merge `kernels`, `layout-types`, `core` and `compiler_builtins` into one
//! LLVM module before code generation, so `--emit=asm` prints every function the
//! kernels call and the PTX has no `.extern .func`. `--emit=asm` alone skips the
//! link step (nvptx's `llvm-bitcode-linker` is not shipped).
#![allow(dead_code)]

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The rustup toolchain used for the kernels (`CUTE_RS_NIGHTLY` overrides).
pub const DEFAULT_TOOLCHAIN: &str = "nightly";
/// Default GPU architecture (`CUTE_RS_ARCH` or `--arch` override).
pub const DEFAULT_ARCH: &str = "sm_90a";
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// What a PTX build needs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Repository root (holds `kernels/`).
    pub root: PathBuf,
    /// The workspace target dir (`target/`); the kernel build goes to `<it>/kernels/<arch>`.
    pub target_dir: PathBuf,
    /// `sm_90a`, `sm_90`, `sm_80`, ...
    pub arch: String,
    /// rustup toolchain name, `nightly` by default.
    pub toolchain: String,
    /// Install what is missing (toolchain, `rust-src`, `llvm-tools`) with rustup.
    pub install: bool,
    /// Also require/install `llvm-tools` (xtask yes; build.rs does not need it).
    pub want_llvm_tools: bool,
    /// Show cargo's progress on stderr (xtask) instead of capturing it (build.rs).
    pub verbose: bool,
}

impl Options {
    pub fn new(root: &Path, target_dir: &Path) -> Self {
        Options {
            root: root.to_path_buf(),
            target_dir: target_dir.to_path_buf(),
            arch: std::env::var("CUTE_RS_ARCH").unwrap_or_else(|_| DEFAULT_ARCH.to_string()),
            toolchain: std::env::var("CUTE_RS_NIGHTLY")
                .unwrap_or_else(|_| DEFAULT_TOOLCHAIN.to_string()),
            install: false,
            want_llvm_tools: false,
            verbose: false,
        }
    }
    /// `target/kernels/<arch>`: the kernels' own cargo target dir (core built once per arch).
    pub fn kernel_target_dir(&self) -> PathBuf {
        self.target_dir.join("kernels").join(&self.arch)
    }
    /// `target/ptx/kernels.ptx` for the default arch, `target/ptx/kernels-<arch>.ptx` otherwise.
    pub fn ptx_path(&self) -> PathBuf {
        let name = if self.arch == DEFAULT_ARCH {
            "kernels.ptx".to_string()
        } else {
            format!("kernels-{}.ptx", self.arch)
        };
        self.target_dir.join("ptx").join(name)
    }
}

/// Why no PTX came out.
#[derive(Debug)]
pub enum Error {
    /// A tool is missing; the text says exactly what to install.
    Missing(String),
    /// The build ran and failed (compile error, bad PTX): a real bug.
    Failed(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Missing(s) => write!(f, "missing toolchain: {s}"),
            Error::Failed(s) => write!(f, "kernel build failed: {s}"),
        }
    }
}

/// A built module.
#[derive(Debug)]
pub struct Built {
    pub ptx_path: PathBuf,
    pub ptx: String,
    /// Names of the `.entry` kernels, in file order.
    pub entries: Vec<String>,
}

/// The command that installs everything the kernel build needs.
pub fn install_hint(toolchain: &str) -> String {
    format!(
        "run `rustup toolchain install {toolchain} --profile minimal` and \
         `rustup component add --toolchain {toolchain} rust-src llvm-tools` \
         (or `cargo xtask build-kernels`, which does both)"
    )
}

/// A `Command` with the environment an outer cargo/build script leaves behind
/// removed, so the inner cargo uses the nightly toolchain and its own settings.
pub fn clean_command(program: &str) -> Command {
    let mut cmd = Command::new(program);
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        let keep = matches!(key, "CARGO_HOME" | "RUSTUP_HOME" | "CARGO_MAKEFLAGS")
            || key.starts_with("CARGO_NET_")
            || key.starts_with("CARGO_HTTP_")
            || key.starts_with("CARGO_REGISTRIES_")
            || key.starts_with("CARGO_REGISTRY_")
            || key.starts_with("CARGO_TERM_");
        let drop = !keep
            && (key.starts_with("CARGO")
                || key.starts_with("__CARGO")
                || key.starts_with("RUST")
                || matches!(
                    key,
                    "TARGET" | "HOST" | "OUT_DIR" | "OPT_LEVEL" | "PROFILE" | "DEBUG" | "NUM_JOBS"
                ));
        if drop {
            cmd.env_remove(key);
        }
    }
    cmd
}

fn output_of(cmd: &mut Command) -> Option<String> {
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn run_status(cmd: &mut Command, verbose: bool) -> Result<(), String> {
    let out = if verbose {
        cmd.stdin(Stdio::null())
            .status()
            .map(|s| (s, String::new()))
    } else {
        cmd.stdin(Stdio::null()).output().map(|o| {
            let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&o.stderr));
            (o.status, text)
        })
    };
    match out {
        Ok((s, _)) if s.success() => Ok(()),
        Ok((s, text)) => Err(format!("{cmd:?} exited with {s}\n{text}")),
        Err(e) => Err(format!("could not start {cmd:?}: {e}")),
    }
}

fn rustup(opts: &Options) -> Command {
    let mut c = clean_command("rustup");
    c.arg("run").arg(&opts.toolchain);
    c
}

/// Checks (and with `opts.install`, installs) the nightly toolchain, `rust-src`
/// and, if wanted, `llvm-tools`. Returns the toolchain's `rustc -V`.
pub fn ensure_toolchain(opts: &Options) -> Result<String, Error> {
    let tc = &opts.toolchain;
    if output_of(clean_command("rustup").arg("--version")).is_none() {
        return Err(Error::Missing(format!(
            "`rustup` is not on PATH; install rustup (https://rustup.rs), then {}",
            install_hint(tc)
        )));
    }
    let version = || output_of(rustup(opts).args(["rustc", "-V"]));
    if version().is_none() {
        if !opts.install {
            return Err(Error::Missing(format!(
                "no `{tc}` toolchain; {}",
                install_hint(tc)
            )));
        }
        eprintln!("[ptx] installing toolchain {tc} ...");
        run_status(
            clean_command("rustup").args(["toolchain", "install", tc, "--profile", "minimal"]),
            opts.verbose,
        )
        .map_err(|e| Error::Missing(format!("{e}\n{}", install_hint(tc))))?;
    }
    let rustc_v = version().ok_or_else(|| Error::Missing(install_hint(tc)))?;
    let sysroot = output_of(rustup(opts).args(["rustc", "--print", "sysroot"]))
        .map(PathBuf::from)
        .ok_or_else(|| Error::Missing(install_hint(tc)))?;
    let has_src = sysroot
        .join("lib/rustlib/src/rust/library/core/Cargo.toml")
        .is_file();
    let has_llvm_tools = llvm_tool(&sysroot, "llc").is_some();
    let mut missing = Vec::new();
    if !has_src {
        missing.push("rust-src");
    }
    if opts.want_llvm_tools && !has_llvm_tools {
        missing.push("llvm-tools");
    }
    if !missing.is_empty() {
        let add = format!(
            "rustup component add --toolchain {tc} {}",
            missing.join(" ")
        );
        if !opts.install {
            return Err(Error::Missing(format!(
                "`{tc}` lacks {}; run `{add}`",
                missing.join(", ")
            )));
        }
        eprintln!("[ptx] {add}");
        let mut c = clean_command("rustup");
        c.args(["component", "add", "--toolchain", tc])
            .args(&missing);
        run_status(&mut c, opts.verbose)
            .map_err(|e| Error::Missing(format!("{e}\nrun `{add}`")))?;
    }
    Ok(rustc_v)
}

/// Path of an llvm-tools binary (`llc`, `llvm-link`, ...) in the toolchain's sysroot.
pub fn llvm_tool(sysroot: &Path, name: &str) -> Option<PathBuf> {
    let rustlib = sysroot.join("lib/rustlib");
    std::fs::read_dir(&rustlib).ok()?.flatten().find_map(|e| {
        let p = e.path().join("bin").join(name);
        p.is_file().then_some(p)
    })
}

/// `RUSTFLAGS` for the kernel crate and `core`.
pub fn rustflags(arch: &str) -> String {
    format!("-Ctarget-cpu={arch} -Zunstable-options -Cpanic=immediate-abort")
}

/// The `cargo rustc` invocation (printed by `cargo xtask build-kernels -v`).
pub fn cargo_command(opts: &Options) -> Command {
    let mut c = rustup(opts);
    c.arg("cargo")
        .arg("rustc")
        .arg("--manifest-path")
        .arg(opts.root.join("kernels/Cargo.toml"))
        .args([
            "--release",
            "--target",
            TARGET,
            "-Zbuild-std=core",
            "--crate-type",
            "staticlib",
        ])
        .arg("--target-dir")
        .arg(opts.kernel_target_dir())
        .args(["--", "--emit=asm"])
        .env("RUSTFLAGS", rustflags(&opts.arch))
        .current_dir(opts.root.join("kernels"));
    c
}

fn newest_asm(dir: &Path) -> Option<PathBuf> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let name = p.file_name()?.to_str()?.to_string();
        if name.starts_with("kernels-") && name.ends_with(".s") {
            let t = e.metadata().ok()?.modified().ok()?;
            if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                best = Some((t, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Problems that make a PTX module unusable as one self-contained module.
pub fn check_self_contained(ptx: &str) -> Result<Vec<String>, String> {
    let externs: Vec<&str> = ptx
        .lines()
        .filter(|l| l.trim_start().starts_with(".extern .func"))
        .collect();
    if !externs.is_empty() {
        return Err(format!(
            "unresolved functions in the PTX:\n{}",
            externs.join("\n")
        ));
    }
    let entries = entries(ptx);
    if entries.is_empty() {
        return Err("the PTX has no .entry (kernel) at all".to_string());
    }
    Ok(entries)
}

/// `.entry` names in file order.
pub fn entries(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".visible .entry ")?;
            Some(rest.split(['(', ' ']).next()?.to_string())
        })
        .collect()
}

/// Builds the kernels and writes `opts.ptx_path()` (only when its content changed).
pub fn build(opts: &Options) -> Result<Built, Error> {
    ensure_toolchain(opts)?;
    let deps = opts
        .kernel_target_dir()
        .join(TARGET)
        .join("release")
        .join("deps");
    let mut asm = None;
    for attempt in 0..2 {
        if opts.verbose {
            eprintln!("[ptx] {:?}", cargo_command(opts));
        }
        run_status(&mut cargo_command(opts), opts.verbose).map_err(Error::Failed)?;
        asm = newest_asm(&deps);
        if asm.is_some() || attempt == 1 {
            break;
        }
        // cargo thought the crate fresh but the .s is gone: force a rebuild.
        let mut clean = rustup(opts);
        clean
            .args([
                "cargo",
                "clean",
                "-p",
                "kernels",
                "--release",
                "--target",
                TARGET,
            ])
            .arg("--manifest-path")
            .arg(opts.root.join("kernels/Cargo.toml"))
            .arg("--target-dir")
            .arg(opts.kernel_target_dir());
        run_status(&mut clean, opts.verbose).map_err(Error::Failed)?;
    }
    let asm = asm.ok_or_else(|| {
        Error::Failed(format!(
            "rustc wrote no kernels-*.s under {}",
            deps.display()
        ))
    })?;
    let ptx = std::fs::read_to_string(&asm)
        .map_err(|e| Error::Failed(format!("reading {}: {e}", asm.display())))?;
    let entries = check_self_contained(&ptx).map_err(Error::Failed)?;
    let ptx_path = opts.ptx_path();
    write_if_changed(&ptx_path, &ptx).map_err(Error::Failed)?;
    Ok(Built {
        ptx_path,
        ptx,
        entries,
    })
}

/// Writes `text` to `path` unless it already holds exactly that (keeps mtimes stable).
pub fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}
