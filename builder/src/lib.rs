//! `cute-builder`: builds a `no_std` Rust kernel crate into self-contained PTX modules, from a
//! `build.rs` (the role Rust-CUDA's `cuda_builder` plays) or from a tool (`cargo xtask
//! build-kernels`). std only, no dependencies.
//!
//! In a `build.rs`, [`PtxBuilder::embed`] does everything: it emits `cargo:rerun-if-changed`
//! for the kernel crate and the path dependencies it uses (`layout-types`, `device`, ...),
//! checks the nightly toolchain and its `rust-src`, builds, writes `$OUT_DIR/<module>.ptx` and
//! sets `CUTE_PTX_<MODULE>` (its path) for the crate being built:
//!
//! ```no_run
//! // build.rs of a host crate whose kernels are in ../kernels (package `my-kernels`), in its
//! // `fn main()`:
//! cute_builder::PtxBuilder::new("../kernels").embed();
//! // src/main.rs:
//! // const PTX: &str = include_str!(env!("CUTE_PTX_MY_KERNELS"));
//! // if let Some(why) = option_env!("CUTE_PTX_ERROR") { /* built without PTX: say why */ }
//! ```
//!
//! When the toolchain is missing (or `CUTE_RS_SKIP_PTX=1`), the build does not fail: a
//! one-line cargo warning says what to install, the PTX files are empty and `CUTE_PTX_ERROR`
//! holds the reason, so the host crate still builds (and can say why at run time).
//! `CUTE_RS_REQUIRE_PTX=1` turns that into a one-line build error. A kernel that does not
//! compile is always an error. `CUTE_RS_ARCH` (default `sm_90a`) and `CUTE_RS_NIGHTLY`
//! (default `nightly`) choose the architecture and toolchain; `CUTE_RS_KERNEL_FEATURES`
//! (`family/feature,...`, e.g. `attention/measure`) turns on features of kernel families
//! ([`kernel_features`]).
//!
//! The route:
//!
//! ```text
//! rustup run nightly cargo build --manifest-path <kernels>/Cargo.toml --release \
//!     --target nvptx64-nvidia-cuda -Zbuild-std=core --target-dir <target>/kernels/<arch>
//! RUSTFLAGS="-Ctarget-cpu=<arch> -Zunstable-options -Cpanic=immediate-abort"
//! ```
//!
//! A kernel crate is one `staticlib` package (one PTX module) or a workspace of them (cute-rs's
//! `kernels/`: one module per member). Each has `lto = "fat"` + `codegen-units = 1` and the
//! profile rustflag `--emit=asm`, so rustc merges the crate, `device`, `layout-types`, `core`
//! and `compiler_builtins` into one LLVM module and prints it as PTX: every function a module
//! calls is in it, no `.extern .func`. Every crate built with the same target dir
//! (`<target>/kernels/<arch>`, by default the cute-rs checkout's `target/`) shares one built
//! `core`; cargo's fingerprints rebuild only what changed.
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The rustup toolchain used for the kernels (`CUTE_RS_NIGHTLY` overrides).
pub const DEFAULT_TOOLCHAIN: &str = "nightly";
/// Default GPU architecture (`CUTE_RS_ARCH` or `--arch` override).
pub const DEFAULT_ARCH: &str = "sm_90a";

/// The architectures a build embeds when neither `CUTE_RS_ARCHS` nor `CUTE_RS_ARCH` says
/// otherwise: the Hopper build first (the primary one), then the one for Ampere, Ada and newer.
pub const DEFAULT_ARCHS: [&str; 2] = ["sm_90a", "sm_80"];

/// The architectures the workspace's build embeds (the root `build.rs`) and `cargo xtask`
/// builds: `CUTE_RS_ARCHS` (comma-separated), else `CUTE_RS_ARCH` alone, else
/// [`DEFAULT_ARCHS`]; the primary one first.
///
/// ```
/// if std::env::var_os("CUTE_RS_ARCHS").is_none() && std::env::var_os("CUTE_RS_ARCH").is_none() {
///     assert_eq!(cute_builder::build_archs(), ["sm_90a", "sm_80"]);
/// }
/// ```
pub fn build_archs() -> Vec<String> {
    match (
        std::env::var("CUTE_RS_ARCHS"),
        std::env::var("CUTE_RS_ARCH"),
    ) {
        (Ok(list), _) => list
            .split(',')
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect(),
        (_, Ok(one)) => vec![one],
        _ => DEFAULT_ARCHS.iter().map(|a| a.to_string()).collect(),
    }
}
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// What a PTX build needs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Repository root (holds `kernels/`).
    pub root: PathBuf,
    /// The kernel crates' manifest directory: `<root>/kernels` (a workspace of families), or
    /// a user's own kernel crate or workspace built by the same pipeline.
    pub kernels_dir: PathBuf,
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
    /// Where the `<module>.ptx` files go instead of [`Options::ptx_dir`]'s default
    /// (a build script's `OUT_DIR`).
    pub ptx_out: Option<PathBuf>,
    /// The other architectures built beside `arch` into the same binary ([`build_archs`]): a
    /// family written for one of them is built there only ([`Family::builds_in`]).
    pub beside: Vec<String>,
    /// Which families of the workspace to build: the product's, the checks' (`role = "check"`)
    /// or all ([`Select`]; default all).
    pub select: Select,
}

/// Which families a build takes: a family whose manifest says `role = "check"` under
/// `[package.metadata.cute]` is a check family (probe, smoke, proof and reference kernels:
/// `tests/kernels/`), built for the tests and the CLI's checks, never into the product's
/// embedded modules.
///
/// ```
/// use cute_builder::{Family, Select};
/// let check = Family { name: "probe".into(), check: true, ..Default::default() };
/// let product = Family { name: "copy".into(), ..Default::default() };
/// assert!(Select::Checks.takes(&check) && !Select::Checks.takes(&product));
/// assert!(Select::Product.takes(&product) && !Select::Product.takes(&check));
/// assert!(Select::All.takes(&check) && Select::All.takes(&product));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// Every family (`cargo xtask build-kernels`: the ptxas checks cover them all).
    #[default]
    All,
    /// The product's families: what `cute_rs::PTX_MODULES` embeds.
    Product,
    /// The check families: what `check_kernels::PTX_MODULES` embeds.
    Checks,
}

impl Select {
    /// Whether this selection builds `family`.
    ///
    /// ```
    /// let probe = cute_builder::Family {
    ///     name: "probe".into(), check: true, ..Default::default()
    /// };
    /// assert!(cute_builder::Select::Checks.takes(&probe));
    /// assert!(!cute_builder::Select::Product.takes(&probe));
    /// ```
    pub fn takes(self, family: &Family) -> bool {
        match self {
            Select::All => true,
            Select::Product => !family.check,
            Select::Checks => family.check,
        }
    }
}

impl Options {
    /// Options for the checkout `root` (its `kernels/`) and the target dir `target_dir`: the
    /// architecture of `CUTE_RS_ARCH` (else [`DEFAULT_ARCH`]), the toolchain of `CUTE_RS_NIGHTLY`
    /// (else [`DEFAULT_TOOLCHAIN`]), nothing installed, quiet, every family.
    ///
    /// ```
    /// use std::path::Path;
    /// let o = cute_builder::Options::new(Path::new("/src/cute-rs"), Path::new("/tmp/target"));
    /// assert_eq!(o.kernels_dir, Path::new("/src/cute-rs/kernels"));
    /// assert_eq!(o.ptx_out, None);
    /// assert_eq!(o.select, cute_builder::Select::All);
    /// assert!(!o.install && !o.verbose && o.beside.is_empty());
    /// ```
    pub fn new(root: &Path, target_dir: &Path) -> Self {
        Options {
            root: root.to_path_buf(),
            kernels_dir: root.join("kernels"),
            target_dir: target_dir.to_path_buf(),
            arch: std::env::var("CUTE_RS_ARCH").unwrap_or_else(|_| DEFAULT_ARCH.to_string()),
            toolchain: std::env::var("CUTE_RS_NIGHTLY")
                .unwrap_or_else(|_| DEFAULT_TOOLCHAIN.to_string()),
            install: false,
            want_llvm_tools: false,
            verbose: false,
            ptx_out: None,
            beside: Vec::new(),
            select: Select::All,
        }
    }
    /// `arch` and the architectures built beside it.
    ///
    /// ```
    /// # use std::path::Path;
    /// let mut o = cute_builder::Options::new(Path::new("/r"), Path::new("/r/target"));
    /// o.arch = "sm_80".into();
    /// o.beside = vec!["sm_90a".into(), "sm_80".into()];
    /// assert_eq!(o.build_set(), ["sm_80", "sm_90a"]); // `arch` first, once
    /// ```
    pub fn build_set(&self) -> Vec<String> {
        let mut set = vec![self.arch.clone()];
        set.extend(self.beside.iter().filter(|a| **a != self.arch).cloned());
        set
    }
    /// `target/kernels/<arch>`: the kernels' own cargo target dir (core built once per arch).
    ///
    /// ```
    /// # use std::path::Path;
    /// let mut o = cute_builder::Options::new(Path::new("/r"), Path::new("/r/target"));
    /// o.arch = "sm_80".into();
    /// assert_eq!(o.kernel_target_dir(), Path::new("/r/target/kernels/sm_80"));
    /// ```
    pub fn kernel_target_dir(&self) -> PathBuf {
        self.target_dir.join("kernels").join(&self.arch)
    }
    /// `target/ptx/` for the default arch, `target/ptx/<arch>/` otherwise: one `<family>.ptx`
    /// per family.
    ///
    /// ```
    /// # use std::path::Path;
    /// let mut o = cute_builder::Options::new(Path::new("/r"), Path::new("/r/target"));
    /// o.arch = "sm_90a".into();
    /// assert_eq!(o.ptx_dir(), Path::new("/r/target/ptx"));
    /// o.arch = "sm_80".into();
    /// assert_eq!(o.ptx_dir(), Path::new("/r/target/ptx/sm_80"));
    /// o.ptx_out = Some("/out".into()); // a build script's OUT_DIR
    /// assert_eq!(o.ptx_dir(), Path::new("/out"));
    /// ```
    pub fn ptx_dir(&self) -> PathBuf {
        if let Some(d) = &self.ptx_out {
            return d.clone();
        }
        let dir = self.target_dir.join("ptx");
        if self.arch == DEFAULT_ARCH {
            dir
        } else {
            dir.join(&self.arch)
        }
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

/// One family's PTX module.
#[derive(Debug)]
pub struct Module {
    /// The family (`kernels/<family>/`, crate `kernels-<family>`).
    pub family: String,
    /// `target/ptx/<family>.ptx`.
    pub ptx_path: PathBuf,
    pub ptx: String,
    /// Names of the `.entry` kernels, in file order.
    pub entries: Vec<String>,
    /// The family's features this build turned on (`CUTE_RS_KERNEL_FEATURES`, e.g.
    /// `representative` for `hgemm/representative`), in that list's order.
    pub features: Vec<String>,
}

/// Every family's module, in `kernels/Cargo.toml`'s member order.
#[derive(Debug)]
pub struct Built {
    pub modules: Vec<Module>,
}

impl Built {
    /// The modules' PTX files.
    ///
    /// ```
    /// # use std::path::PathBuf;
    /// # let m = |f: &str, e: &[&str]| cute_builder::Module { family: f.into(),
    /// #     ptx_path: format!("/t/ptx/{f}.ptx").into(), ptx: String::new(),
    /// #     entries: e.iter().map(|s| s.to_string()).collect(), features: Vec::new() };
    /// let modules = vec![m("copy", &["copy_a", "copy_b"]), m("gemm", &["hgemm"])];
    /// let built = cute_builder::Built { modules };
    /// let paths = [PathBuf::from("/t/ptx/copy.ptx"), PathBuf::from("/t/ptx/gemm.ptx")];
    /// assert_eq!(built.paths(), paths);
    /// ```
    pub fn paths(&self) -> Vec<PathBuf> {
        self.modules.iter().map(|m| m.ptx_path.clone()).collect()
    }

    /// Every kernel entry, module by module.
    ///
    /// ```
    /// # let m = |f: &str, e: &[&str]| cute_builder::Module { family: f.into(),
    /// #     ptx_path: format!("/t/ptx/{f}.ptx").into(), ptx: String::new(),
    /// #     entries: e.iter().map(|s| s.to_string()).collect(), features: Vec::new() };
    /// let modules = vec![m("copy", &["copy_a", "copy_b"]), m("gemm", &["hgemm"])];
    /// let built = cute_builder::Built { modules };
    /// assert_eq!(built.entries(), ["copy_a", "copy_b", "hgemm"]);
    /// ```
    pub fn entries(&self) -> Vec<&str> {
        self.modules
            .iter()
            .flat_map(|m| m.entries.iter().map(String::as_str))
            .collect()
    }
}

/// The command that installs everything the kernel build needs.
///
/// ```
/// let hint = cute_builder::install_hint("nightly-2025-06-01");
/// assert!(hint.contains("`rustup toolchain install nightly-2025-06-01 --profile minimal`"));
/// assert!(hint.contains("--toolchain nightly-2025-06-01 rust-src llvm-tools`"));
/// ```
pub fn install_hint(toolchain: &str) -> String {
    format!(
        "run `rustup toolchain install {toolchain} --profile minimal` and \
         `rustup component add --toolchain {toolchain} rust-src llvm-tools` \
         (or `cargo xtask build-kernels`, which does both)"
    )
}

/// A `Command` with the environment an outer cargo/build script leaves behind
/// removed, so the inner cargo uses the nightly toolchain and its own settings.
///
/// ```
/// let cmd = cute_builder::clean_command("cargo");
/// let removed: Vec<&str> =
///     cmd.get_envs().filter(|(_, v)| v.is_none()).map(|(k, _)| k.to_str().unwrap()).collect();
/// // `cargo test` runs this with the outer package's settings: they go; rustup's and PATH stay
/// let outer = std::env::var_os("CARGO_MANIFEST_DIR").is_some();
/// assert_eq!(removed.contains(&"CARGO_MANIFEST_DIR"), outer);
/// assert!(!removed.iter().any(|k| ["CARGO_HOME", "RUSTUP_HOME", "PATH"].contains(k)));
/// ```
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
///
/// ```no_run
/// let opts = cute_builder::PtxBuilder::new("kernels").options();
/// match cute_builder::ensure_toolchain(&opts) {
///     Ok(rustc_v) => println!("kernels build with {rustc_v}"), // rustc 1.xx.0-nightly (...)
///     Err(e) => eprintln!("{e}"), // missing toolchain: ... (what to install)
/// }
/// ```
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
///
/// ```
/// # let sysroot = std::env::temp_dir().join(format!("cute-builder-llvm-{}", std::process::id()));
/// let bin = sysroot.join("lib/rustlib/x86_64-unknown-linux-gnu/bin");
/// std::fs::create_dir_all(&bin).unwrap();
/// std::fs::write(bin.join("llc"), "").unwrap();
/// assert_eq!(cute_builder::llvm_tool(&sysroot, "llc"), Some(bin.join("llc")));
/// assert_eq!(cute_builder::llvm_tool(&sysroot, "llvm-link"), None);
/// # std::fs::remove_dir_all(&sysroot).unwrap();
/// ```
pub fn llvm_tool(sysroot: &Path, name: &str) -> Option<PathBuf> {
    let rustlib = sysroot.join("lib/rustlib");
    std::fs::read_dir(&rustlib).ok()?.flatten().find_map(|e| {
        let p = e.path().join("bin").join(name);
        p.is_file().then_some(p)
    })
}

/// `RUSTFLAGS` for the kernel crate and `core`.
///
/// ```
/// assert_eq!(
///     cute_builder::rustflags("sm_80"),
///     "-Ctarget-cpu=sm_80 -Zunstable-options -Cpanic=immediate-abort"
/// );
/// ```
pub fn rustflags(arch: &str) -> String {
    format!("-Ctarget-cpu={arch} -Zunstable-options -Cpanic=immediate-abort")
}

/// The `cargo build` invocation (printed by `cargo xtask build-kernels -v`).
///
/// ```
/// # use std::path::Path;
/// let mut o = cute_builder::Options::new(Path::new("/r"), Path::new("/r/target"));
/// (o.arch, o.toolchain) = ("sm_80".into(), "nightly".into());
/// let cmd = cute_builder::cargo_command(&o);
/// let args: Vec<&str> = cmd.get_args().map(|a| a.to_str().unwrap()).collect();
/// assert_eq!(cmd.get_program(), "rustup");
/// assert_eq!(args[..4], ["run", "nightly", "cargo", "build"]);
/// assert!(args.windows(2).any(|w| w == ["--target-dir", "/r/target/kernels/sm_80"]));
/// assert!(args.contains(&"-Zbuild-std=core") && args.last() == Some(&"--quiet"));
/// let rustflags = cmd.get_envs().find(|(k, _)| *k == "RUSTFLAGS").and_then(|(_, v)| v);
/// assert_eq!(rustflags.unwrap(), cute_builder::rustflags("sm_80").as_str());
/// ```
pub fn cargo_command(opts: &Options) -> Command {
    let mut c = rustup(opts);
    c.arg("cargo")
        .arg("build")
        .arg("--manifest-path")
        .arg(opts.kernels_dir.join("Cargo.toml"))
        .args(["--release", "--target", TARGET, "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(opts.kernel_target_dir())
        .env("RUSTFLAGS", rustflags(&opts.arch))
        .current_dir(&opts.kernels_dir);
    if !opts.verbose {
        c.arg("--quiet");
    }
    c
}

/// A kernel family: one `staticlib` crate, one PTX module.
#[derive(Clone, Debug, Default)]
pub struct Family {
    /// The module's name: the member's directory's name (`gemm`, `probe` of
    /// `../tests/kernels/probe`), or the package name of a single-crate manifest.
    pub name: String,
    /// The crate's directory.
    pub dir: PathBuf,
    /// A check family (`role = "check"` under `[package.metadata.cute]`): see [`Select`].
    pub check: bool,
    /// The package (`kernels-gemm`).
    pub package: String,
    /// The crate's name as rustc writes it (`kernels_gemm`): its PTX is `<crate>-<hash>.s`.
    pub krate: String,
    /// The architectures the family is written for (`[package.metadata.cute] archs = [..]` of
    /// its manifest; empty: every architecture). See [`Family::builds_for`].
    pub archs: Vec<String>,
}

impl Family {
    /// Whether the family is built for target `arch`: it declares no architectures, or one of
    /// them runs there — the same one, or a plain `sm_XY` whose capability `arch` reaches (PTX
    /// for `sm_80` runs on `sm_86`, `sm_89`, `sm_90a`; `sm_90a` PTX only on `sm_90a`).
    ///
    /// ```
    /// let f = |archs: &[&str]| cute_builder::Family {
    ///     name: "f".into(), package: "f".into(), krate: "f".into(),
    ///     archs: archs.iter().map(|a| a.to_string()).collect(), ..Default::default()
    /// };
    /// assert!(f(&["sm_80"]).builds_for("sm_80") && f(&["sm_80"]).builds_for("sm_90a"));
    /// assert!(f(&["sm_80"]).builds_for("sm_89") && f(&[]).builds_for("sm_75"));
    /// assert!(f(&["sm_90a"]).builds_for("sm_90a") && !f(&["sm_90a"]).builds_for("sm_80"));
    /// assert!(!f(&["sm_90a"]).builds_for("sm_100a") && !f(&["sm_80"]).builds_for("sm_75"));
    /// ```
    pub fn builds_for(&self, arch: &str) -> bool {
        self.archs.is_empty() || self.archs.iter().any(|a| arch_runs_on(a, arch))
    }

    /// Whether the family is built for `arch` in a build of the architectures `set` (`arch`
    /// among them): a family that names one of `set` in its `archs` is built for exactly the
    /// ones it names (`archs = ["sm_80"]` in a build of sm_90a and sm_80: once, for sm_80 — its
    /// PTX runs on Hopper too; `["sm_80", "sm_90a"]`: both, the sm_90a build adding its
    /// Hopper-only entries); otherwise [`Family::builds_for`].
    ///
    /// ```
    /// let f = |archs: &[&str]| cute_builder::Family {
    ///     name: "f".into(), package: "f".into(), krate: "f".into(),
    ///     archs: archs.iter().map(|a| a.to_string()).collect(), ..Default::default()
    /// };
    /// let both = ["sm_90a".to_string(), "sm_80".to_string()];
    /// assert!(!f(&["sm_80"]).builds_in("sm_90a", &both) && f(&["sm_80"]).builds_in("sm_80", &both));
    /// assert!(f(&["sm_80", "sm_90a"]).builds_in("sm_90a", &both));
    /// assert!(f(&["sm_80"]).builds_in("sm_90a", &["sm_90a".to_string()]));
    /// assert!(f(&[]).builds_in("sm_90a", &both) && !f(&["sm_90a"]).builds_in("sm_80", &both));
    /// ```
    pub fn builds_in(&self, arch: &str, set: &[String]) -> bool {
        if self.archs.iter().any(|a| set.contains(a)) {
            self.archs.iter().any(|a| a == arch)
        } else {
            self.builds_for(arch)
        }
    }
}

/// `(major * 10 + minor, arch-specific)` of `sm_XY[a|f]`.
fn arch_capability(arch: &str) -> Option<(u32, bool)> {
    let rest = arch.strip_prefix("sm_")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &rest[digits.len()..];
    if digits.len() < 2 || !matches!(suffix, "" | "a" | "f") {
        return None;
    }
    Some((digits.parse().ok()?, !suffix.is_empty()))
}

/// Whether PTX written for `written` runs on a device (or target) `target`: the same name, or a
/// plain `sm_XY` at or below `target`'s capability.
///
/// ```
/// assert!(cute_builder::arch_runs_on("sm_80", "sm_86"));
/// assert!(!cute_builder::arch_runs_on("sm_90a", "sm_100a"));
/// ```
pub fn arch_runs_on(written: &str, target: &str) -> bool {
    if written == target {
        return true;
    }
    match (arch_capability(written), arch_capability(target)) {
        (Some((w, false)), Some((t, _))) => w <= t,
        _ => false,
    }
}

/// `archs = ["sm_80", ..]` of a manifest's `[package.metadata.cute]`.
fn declared_archs(manifest: &str) -> Vec<String> {
    let Some(section) = manifest.split("[package.metadata.cute]").nth(1) else {
        return Vec::new();
    };
    let section = section.split("\n[").next().unwrap_or("");
    string_array(section, "archs")
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `role = "check"` in a manifest's `[package.metadata.cute]`.
fn declared_check(manifest: &str) -> bool {
    let Some(section) = manifest.split("[package.metadata.cute]").nth(1) else {
        return false;
    };
    let section = section.split("\n[").next().unwrap_or("");
    section.lines().any(|l| {
        let l = l.trim();
        l.strip_prefix("role")
            .and_then(|r| r.trim_start().strip_prefix('='))
            .is_some_and(|v| v.trim() == "\"check\"")
    })
}

/// The strings of the first array `key = ["a", "b"]` in `text` (on one line or several, `#`
/// comments between its lines).
fn string_array<'a>(text: &'a str, key: &str) -> Option<Vec<&'a str>> {
    let line = text.lines().find(|l| {
        l.trim()
            .strip_prefix(key)
            .is_some_and(|r| r.trim_start().starts_with('='))
    })?;
    // the array from its line's `[` to the first `]` after it (the strings hold none)
    let rest = &text[line.as_ptr() as usize - text.as_ptr() as usize..];
    let open = rest.find('[')?;
    let list = &rest[open + 1..open + rest[open..].find(']')?];
    Some(
        list.lines()
            .map(|l| l.split_once('#').map_or(l, |(a, _)| a))
            .flat_map(|l| l.split(','))
            .map(|a| a.trim().trim_matches('"'))
            .filter(|a| !a.is_empty())
            .collect(),
    )
}

/// `name = "..."` of a manifest's `[package]`.
fn package_name(manifest: &str) -> Option<String> {
    let pkg = manifest.split("[package]").nth(1)?;
    let line = pkg.lines().find(|l| l.trim_start().starts_with("name"))?;
    Some(line.split('"').nth(1)?.to_string())
}

/// The families of `kernels_dir`: the `staticlib` members of its workspace, or the crate
/// itself when its manifest is a single `staticlib` package.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("cute-builder-families-{}", std::process::id()));
/// # for d in ["gemm", "util"] { std::fs::create_dir_all(dir.join(d)).unwrap(); }
/// // a workspace of a staticlib member (a family, written for sm_90a) and a plain library
/// let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
/// write("Cargo.toml", "[workspace]\nmembers = [\"gemm\", \"util\"]\n");
/// write("gemm/Cargo.toml", "[package]\nname = \"kernels-gemm\"\n\
///     [lib]\ncrate-type = [\"staticlib\"]\n[package.metadata.cute]\narchs = [\"sm_90a\"]\n");
/// write("util/Cargo.toml", "[package]\nname = \"util\"\n");
/// let fams = cute_builder::families(&dir).unwrap();
/// assert_eq!(fams.len(), 1);
/// let f = &fams[0];
/// assert_eq!([&*f.name, &*f.package, &*f.krate], ["gemm", "kernels-gemm", "kernels_gemm"]);
/// assert!(f.dir == dir.join("gemm") && f.archs == ["sm_90a"] && !f.check);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn families(kernels_dir: &Path) -> Result<Vec<Family>, String> {
    let manifest = kernels_dir.join("Cargo.toml");
    let read =
        |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("reading {}: {e}", p.display()));
    let text = read(&manifest)?;
    let family = |dir: &str, text: &str, path: &Path| -> Result<Option<Family>, String> {
        if !text.contains("\"staticlib\"") {
            return Ok(None);
        }
        let pkg =
            package_name(text).ok_or_else(|| format!("no [package] name in {}", path.display()))?;
        let last = Path::new(dir).file_name().and_then(|n| n.to_str());
        Ok(Some(Family {
            name: last.map_or_else(|| pkg.clone(), str::to_string),
            dir: kernels_dir.join(dir),
            check: declared_check(text),
            krate: pkg.replace('-', "_"),
            package: pkg,
            archs: declared_archs(text),
        }))
    };
    let Some(members) = string_array(&text, "members") else {
        return Ok(family("", &text, &manifest)?.into_iter().collect());
    };
    let mut out = Vec::new();
    for m in members {
        let member = kernels_dir.join(m).join("Cargo.toml");
        out.extend(family(m, &read(&member)?, &member)?);
    }
    if out.is_empty() {
        return Err(format!("no staticlib crate in {}", manifest.display()));
    }
    Ok(out)
}

/// The families of `kernels_dir` built for `arch` ([`Family::builds_for`]); an error when
/// none is.
///
/// ```
/// let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
/// let hopper = cute_builder::families_for(&root, "sm_90a").unwrap();
/// let ampere = cute_builder::families_for(&root, "sm_80").unwrap();
/// assert!(hopper.iter().any(|f| f.name == "wgmma"));
/// assert!(!ampere.iter().any(|f| f.name == "wgmma") && ampere.iter().any(|f| f.name == "copy"));
/// ```
pub fn families_for(kernels_dir: &Path, arch: &str) -> Result<Vec<Family>, String> {
    families_in(kernels_dir, arch, &[arch.to_string()])
}

/// The families of `kernels_dir` built for `arch` in a build of the architectures `set`
/// ([`Family::builds_in`]); an error when none is.
///
/// ```
/// let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
/// let set = ["sm_90a".to_string(), "sm_80".to_string()];
/// let hopper = cute_builder::families_in(&root, "sm_90a", &set).unwrap();
/// let ampere = cute_builder::families_in(&root, "sm_80", &set).unwrap();
/// // written for sm_80 only: built once, in the sm_80 build (Hopper loads that PTX)
/// assert!(!hopper.iter().any(|f| f.name == "probe") && ampere.iter().any(|f| f.name == "probe"));
/// // the copies have Hopper-only entries too: both builds
/// assert!(hopper.iter().any(|f| f.name == "copy") && ampere.iter().any(|f| f.name == "copy"));
/// ```
pub fn families_in(kernels_dir: &Path, arch: &str, set: &[String]) -> Result<Vec<Family>, String> {
    let all = families(kernels_dir)?;
    let n = all.len();
    let some: Vec<Family> = all.into_iter().filter(|f| f.builds_in(arch, set)).collect();
    if some.is_empty() {
        return Err(format!(
            "none of the {n} kernel families in {} is written for {arch} \
             (their `[package.metadata.cute] archs`)",
            kernels_dir.display()
        ));
    }
    Ok(some)
}

/// The `<krate>-<hash>.s` that cargo's last build of `krate` wrote into `deps`.
///
/// Several checkouts (or a user's kernel crate) may share the kernel target dir, so "the newest
/// `.s`" is not enough: cargo hard-links the unit it just built to `<release>/lib<krate>.a`,
/// and the `deps/lib<krate>-<hash>.a` with the same inode names the hash. Where that link
/// cannot be told (not unix, or cargo copied), the newest `.s` is taken.
fn asm_of(deps: &Path, krate: &str) -> Option<PathBuf> {
    let prefix = format!("{krate}-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let uplifted = deps.parent()?.join(format!("lib{krate}.a"));
        if let Ok(up) = std::fs::metadata(&uplifted) {
            let lib_prefix = format!("lib{prefix}");
            for e in std::fs::read_dir(deps).ok()?.flatten() {
                let name = e.file_name();
                let name = name.to_str().unwrap_or("");
                if let Some(hash) = name
                    .strip_prefix(&lib_prefix)
                    .and_then(|r| r.strip_suffix(".a"))
                    && e.metadata()
                        .is_ok_and(|m| m.ino() == up.ino() && m.dev() == up.dev())
                {
                    let asm = deps.join(format!("{prefix}{hash}.s"));
                    return asm.is_file().then_some(asm);
                }
            }
        }
    }
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(deps).ok()?.flatten() {
        let p = e.path();
        let name = p.file_name()?.to_str()?.to_string();
        if name.starts_with(&prefix) && name.ends_with(".s") {
            let t = e.metadata().ok()?.modified().ok()?;
            if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                best = Some((t, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Marker symbol prefix of `device::launch_bounds!`.
pub const LAUNCH_BOUNDS_PREFIX: &str = "__launch_bounds__";

/// Turns the `device::launch_bounds!` markers of a module into PTX directives: each marker
/// `.visible .global .align 4 .b8 __launch_bounds__K[8] = {..}` (two little-endian u32: max
/// threads, min blocks per SM) is removed, and `.maxntid T, 1, 1` / `.minnctapersm B` go after
/// kernel `K`'s parameter list, where nvcc puts `__launch_bounds__`. A marker for a kernel
/// that is not in the module, or a malformed one, is an error.
///
/// ```
/// let ptx = "\
/// \t// .globl\t__launch_bounds__k
/// .visible .global .align 4 .b8 __launch_bounds__k[8] = {0, 1, 0, 0, 2};
/// .visible .entry k(
/// \t.param .u32 k_param_0
/// )
/// {
/// \tret;
/// }
/// ";
/// let out = cute_builder::apply_launch_bounds(ptx).unwrap();
/// // bytes 0, 1, 0, 0 | 2: 256 threads at most, at least 2 CTAs per SM; the marker is gone
/// assert!(out.contains(")\n.maxntid 256, 1, 1\n.minnctapersm 2\n{"));
/// assert!(!out.contains("__launch_bounds__"));
/// // a marker for a kernel the module does not define
/// assert!(cute_builder::apply_launch_bounds(&ptx.replace(".entry k(", ".entry j(")).is_err());
/// ```
pub fn apply_launch_bounds(ptx: &str) -> Result<String, String> {
    let mut bounds: Vec<(String, u32, u32)> = Vec::new();
    let mut kept: Vec<&str> = Vec::new();
    for line in ptx.lines() {
        let t = line.trim();
        if t.starts_with("// .globl") && t.contains(LAUNCH_BOUNDS_PREFIX) {
            continue;
        }
        let Some(rest) = t
            .strip_prefix(".visible .global .align 4 .b8 ")
            .and_then(|r| r.strip_prefix(LAUNCH_BOUNDS_PREFIX))
        else {
            kept.push(line);
            continue;
        };
        let bad = || format!("malformed launch-bounds marker: {t}");
        let (kernel, init) = rest.split_once("[8]").ok_or_else(bad)?;
        let bytes = init
            .split(['{', '}'])
            .nth(1)
            .unwrap_or("")
            .split(',')
            .filter(|b| !b.trim().is_empty())
            .map(|b| b.trim().parse::<u8>().map_err(|_| bad()))
            .collect::<Result<Vec<u8>, String>>()?;
        if bytes.len() > 8 {
            return Err(bad());
        }
        let mut b = [0u8; 8]; // PTX drops trailing zero bytes of an initializer
        b[..bytes.len()].copy_from_slice(&bytes);
        let threads = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let blocks = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        if threads == 0 || threads > 1024 {
            return Err(format!(
                "launch_bounds!({kernel}, {threads}, {blocks}): a CTA has 1 to 1024 threads"
            ));
        }
        bounds.push((kernel.to_string(), threads, blocks));
    }
    let mut out = String::with_capacity(ptx.len() + 64 * bounds.len());
    let mut pending: Option<(u32, u32)> = None;
    let mut applied = 0;
    for line in kept {
        out.push_str(line);
        out.push('\n');
        // the directives go after the parameter list: its `)` line, or the entry's own line for
        // a kernel without parameters (`.visible .entry k()`)
        let closes = if let Some(rest) = line.trim_start().strip_prefix(".visible .entry ") {
            let name = rest.split('(').next().unwrap_or("").trim();
            pending = bounds
                .iter()
                .find(|(k, _, _)| k == name)
                .map(|&(_, t, b)| (t, b));
            rest.trim_end().ends_with(')')
        } else {
            line.starts_with(')')
        };
        if closes && let Some((t, b)) = pending.take() {
            out.push_str(&format!(".maxntid {t}, 1, 1\n"));
            if b > 0 {
                out.push_str(&format!(".minnctapersm {b}\n"));
            }
            applied += 1;
        }
    }
    if applied != bounds.len() {
        let missing: Vec<&str> = bounds
            .iter()
            .map(|(k, _, _)| k.as_str())
            .filter(|k| !out.contains(&format!(".visible .entry {k}(")))
            .collect();
        return Err(format!(
            "launch_bounds! for kernels not in the module: {}",
            missing.join(", ")
        ));
    }
    Ok(out)
}

/// The marker `device::grid_constant!` leaves in a kernel body (a PTX comment), followed by the
/// parameter's name.
pub const GRID_CONSTANT_MARKER: &str = "// cute-rs grid_constant ";

/// Raises to 64 bytes the alignment of every kernel parameter whose address
/// `device::grid_constant!` takes (`.param .align 16 .b8 <name>[128]` → `.align 64`: a
/// `CUtensorMap` passed by value, CUDA's `__grid_constant__`; rustc cannot declare more than 16).
/// A marker naming no 128-byte `.b8` parameter is an error.
///
/// ```
/// let ptx = "\
/// .visible .entry k(
/// \t.param .align 16 .b8 k_param_0[128],
/// \t.param .u32 k_param_1
/// )
/// {
/// \t// cute-rs grid_constant k_param_0
/// \tmov.b64 %rd1, k_param_0;
/// }
/// ";
/// let out = cute_builder::apply_grid_constants(ptx).unwrap();
/// assert!(out.contains(".param .align 64 .b8 k_param_0[128],"));
/// // the marker must name a 128-byte parameter (the tensor map), not the u32
/// let bad = ptx.replace("grid_constant k_param_0", "grid_constant k_param_1");
/// assert!(cute_builder::apply_grid_constants(&bad).is_err());
/// ```
pub fn apply_grid_constants(ptx: &str) -> Result<String, String> {
    let mut names: Vec<&str> = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(GRID_CONSTANT_MARKER))
        .map(str::trim)
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut out = ptx.to_string();
    for name in names {
        let decl = |a: u32| format!(".param .align {a} .b8 {name}[128]");
        if out.contains(&decl(64)) {
            continue;
        }
        let found = [8, 16, 32]
            .into_iter()
            .find(|&a| out.contains(&decl(a)))
            .ok_or_else(|| {
                format!(
                    "grid_constant!: no 128-byte parameter `{name}` (the tensor map) in the module"
                )
            })?;
        out = out.replace(&decl(found), &decl(64));
    }
    Ok(out)
}

/// Problems that make a PTX module unusable as one self-contained module.
///
/// Returns the module's `.entry` names ([`entries`]) when it is self-contained: no
/// `.extern .func` and at least one kernel.
///
/// ```
/// let ptx = ".visible .entry k1(\n)\n{\n\tret;\n}\n.visible .entry k2(\n)\n{\n\tret;\n}\n";
/// assert_eq!(cute_builder::check_self_contained(ptx).unwrap(), ["k1", "k2"]);
/// // a call to a function no module defines, or no kernel at all
/// let sinf = ".extern .func  (.param .b32 func_retval0) sinf\n(\n\t.param .b32 sinf_param_0\n)\n;\n";
/// let ext = format!("{sinf}{ptx}");
/// assert!(cute_builder::check_self_contained(&ext).unwrap_err().contains("sinf"));
/// assert!(cute_builder::check_self_contained(".version 8.0\n.target sm_90a\n").is_err());
/// ```
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
///
/// ```
/// let ptx = ".visible .func helper(\n)\n\
///            .visible .entry copy_a(\n\t.param .u64 copy_a_param_0\n)\n\
///            .visible .entry copy_b(\n)\n";
/// assert_eq!(cute_builder::entries(ptx), ["copy_a", "copy_b"]); // a `.func` is no kernel
/// ```
pub fn entries(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".visible .entry ")?;
            Some(rest.split(['(', ' ']).next()?.to_string())
        })
        .collect()
}

/// Builds every family and writes `opts.ptx_dir()/<family>.ptx` (each only when its content
/// changed); fails if a module is not self-contained or two modules define the same entry.
///
/// ```no_run
/// # use std::path::Path;
/// let mut opts = cute_builder::Options::new(Path::new("."), Path::new("target"));
/// opts.arch = "sm_80".into();
/// let built = cute_builder::build(&opts)?;
/// assert!(built.paths().iter().all(|p| p.starts_with("target/ptx/sm_80")));
/// # Ok::<(), cute_builder::Error>(())
/// ```
pub fn build(opts: &Options) -> Result<Built, Error> {
    build_each(opts, |_| {})
}

/// [`build`], handing each module to `ready` as soon as its family is built and its PTX
/// written, while cargo still compiles the others (cargo's `--message-format=json` artifact
/// messages say when a family is done), so a caller can assemble it (`ptxas`) meanwhile.
/// `ready` sees every module once, in the order they finish; [`Built`] keeps the member order.
///
/// ```no_run
/// let opts = cute_builder::PtxBuilder::new("kernels").options();
/// let built = cute_builder::build_each(&opts, |m| println!("{} done", m.ptx_path.display()))?;
/// # Ok::<(), cute_builder::Error>(())
/// ```
pub fn build_each(opts: &Options, mut ready: impl FnMut(&Module)) -> Result<Built, Error> {
    ensure_toolchain(opts)?;
    let families: Vec<Family> = families_in(&opts.kernels_dir, &opts.arch, &opts.build_set())
        .map_err(Error::Failed)?
        .into_iter()
        .filter(|f| opts.select.takes(f))
        .collect();
    if families.is_empty() {
        // e.g. the check families of an sm_90a build beside sm_80 that are all written for sm_80
        return Ok(Built {
            modules: Vec::new(),
        });
    }
    let deps = opts
        .kernel_target_dir()
        .join(TARGET)
        .join("release")
        .join("deps");
    let mut done: Vec<Option<Module>> = families.iter().map(|_| None).collect();
    let mut first_error: Option<String> = None;
    for attempt in 0..2 {
        let mut cmd = cargo_command(opts);
        cmd.arg("--message-format=json-render-diagnostics");
        for f in &families {
            cmd.arg("-p").arg(&f.package);
        }
        let features = kernel_features(
            &std::env::var("CUTE_RS_KERNEL_FEATURES").unwrap_or_default(),
            &families,
        );
        if !features.is_empty() {
            cmd.arg("--features").arg(features.join(","));
        }
        if opts.verbose {
            eprintln!("[ptx] {cmd:?}");
        }
        let mut on_artifact = |i: usize| {
            if done[i].is_some() || first_error.is_some() {
                return;
            }
            // A family cargo thought fresh whose `.s` is gone waits for the rebuild below.
            let Some(asm) = asm_of(&deps, &families[i].krate) else {
                return;
            };
            match module_of(opts, &families[i], &asm, &done, &features) {
                Ok(m) => {
                    if opts.verbose {
                        eprintln!("[ptx] {} written", m.ptx_path.display());
                    }
                    ready(&m);
                    done[i] = Some(m);
                }
                Err(e) => first_error = Some(e),
            }
        };
        stream_cargo(&mut cmd, opts.verbose, &families, &mut on_artifact).map_err(Error::Failed)?;
        // Families whose artifact message was missed (none expected) are read once cargo is done.
        for i in 0..families.len() {
            on_artifact(i);
        }
        if let Some(e) = first_error.take() {
            return Err(Error::Failed(e));
        }
        if done.iter().all(Option::is_some) || attempt == 1 {
            break;
        }
        // cargo thought a family fresh but its .s is gone: force a rebuild of those.
        let mut clean = rustup(opts);
        clean
            .args(["cargo", "clean", "--release", "--target", TARGET])
            .arg("--manifest-path")
            .arg(opts.kernels_dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(opts.kernel_target_dir());
        for (f, d) in families.iter().zip(&done) {
            if d.is_none() {
                clean.arg("-p").arg(&f.package);
            }
        }
        run_status(&mut clean, opts.verbose).map_err(Error::Failed)?;
    }
    let mut modules = Vec::new();
    for (f, m) in families.iter().zip(done) {
        modules.push(m.ok_or_else(|| {
            Error::Failed(format!(
                "rustc wrote no {}-*.s under {}",
                f.krate,
                deps.display()
            ))
        })?);
    }
    Ok(Built { modules })
}

/// The `--features` of a kernel build from `CUTE_RS_KERNEL_FEATURES` (`family/feature`, comma
/// or space separated; `family` a module or package name): each as `package/feature`, only for
/// the families this build has (a family built for another architecture is left out).
///
/// ```
/// let f = cute_builder::Family {
///     name: "attention".into(), package: "kernels-attention".into(),
///     krate: "kernels_attention".into(), ..Default::default()
/// };
/// let got = cute_builder::kernel_features("attention/measure, gemm/x", &[f]);
/// assert_eq!(got, ["kernels-attention/measure"]);
/// ```
pub fn kernel_features(list: &str, families: &[Family]) -> Vec<String> {
    list.split([',', ' '])
        .filter_map(|item| {
            let (fam, feat) = item.trim().split_once('/')?;
            let f = families
                .iter()
                .find(|f| f.name == fam || f.package == fam)?;
            Some(format!("{}/{feat}", f.package))
        })
        .collect()
}

/// Runs the kernels' `cargo build` (with a JSON message format), calling `artifact(i)` when
/// the `i`-th family's `compiler-artifact` message arrives.
fn stream_cargo(
    cmd: &mut Command,
    verbose: bool,
    families: &[Family],
    artifact: &mut dyn FnMut(usize),
) -> Result<(), String> {
    use std::io::{BufRead, Read};
    cmd.stdin(Stdio::null()).stdout(Stdio::piped());
    if !verbose {
        cmd.stderr(Stdio::piped());
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    // stderr (diagnostics, progress) is drained beside stdout so neither pipe fills.
    let stderr = child.stderr.take().map(|mut s| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = s.read_to_string(&mut text);
            text
        })
    });
    let mut other = String::new();
    if let Some(out) = child.stdout.take() {
        let names: Vec<String> = families
            .iter()
            .map(|f| format!("\"name\":\"{}\"", f.krate))
            .collect();
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if !line.starts_with('{') {
                other.push_str(&line);
                other.push('\n');
                continue;
            }
            if !line.contains("\"reason\":\"compiler-artifact\"") {
                continue;
            }
            if let Some(i) = names.iter().position(|n| line.contains(n.as_str())) {
                artifact(i);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for {cmd:?}: {e}"))?;
    let err_text = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} exited with {status}\n{other}{err_text}"))
    }
}

/// Reads a family's `.s`, turns its markers into PTX directives, checks it and writes
/// `<family>.ptx`; `done` holds the modules written before it (no entry may be defined twice).
fn module_of(
    opts: &Options,
    f: &Family,
    asm: &Path,
    done: &[Option<Module>],
    features: &[String],
) -> Result<Module, String> {
    let family = &f.name;
    let ptx =
        std::fs::read_to_string(asm).map_err(|e| format!("reading {}: {e}", asm.display()))?;
    let ptx = apply_grid_constants(&ptx)
        .and_then(|p| apply_launch_bounds(&p))
        .map_err(|e| format!("family `{family}`: {e}"))?;
    let entries = check_self_contained(&ptx).map_err(|e| format!("family `{family}`: {e}"))?;
    for e in &entries {
        if let Some(other) = done.iter().flatten().find(|m| m.entries.contains(e)) {
            return Err(format!(
                "kernel `{e}` is defined by both families `{}` and `{family}`",
                other.family
            ));
        }
    }
    let ptx_path = opts.ptx_dir().join(format!("{family}.ptx"));
    write_if_changed(&ptx_path, &ptx)?;
    let own = format!("{}/", f.package);
    Ok(Module {
        family: family.clone(),
        ptx_path,
        ptx,
        entries,
        features: features
            .iter()
            .filter_map(|feat| feat.strip_prefix(&own).map(str::to_string))
            .collect(),
    })
}

/// Writes `text` to `path` unless it already holds exactly that (keeps mtimes stable).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("cute-builder-doc-write-{}", std::process::id()));
/// let path = dir.join("ptx/k.ptx");
/// cute_builder::write_if_changed(&path, ".version 8.0\n").unwrap(); // creates `ptx/` too
/// let mtime = || std::fs::metadata(&path).unwrap().modified().unwrap();
/// let first = mtime();
/// cute_builder::write_if_changed(&path, ".version 8.0\n").unwrap(); // same text: not written
/// assert_eq!(mtime(), first);
/// cute_builder::write_if_changed(&path, ".version 8.5\n").unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), ".version 8.5\n");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// The file name of the cubin `ptxas -arch=<arch>` made of the PTX text `ptx` of module
/// `family`: `<family>-<key>.<arch>.cubin`, `key` the 16 hex digits of the text's 64-bit FNV-1a
/// hash. `cargo xtask build-kernels` keeps each module's cubin under this name beside its PTX
/// (`target/ptx/`), and a host given that folder (`CUTE_RS_CUBIN_DIR`) loads the cubin in place of
/// a text only when the name matches the very text it would load: never a stale build, and
/// one folder may hold the cubins of several variants of a module.
///
/// ```
/// let a = cute_builder::cubin_file_name("hgemm", "sm_90a", ".version 8.0\n");
/// assert!(a.starts_with("hgemm-") && a.ends_with(".sm_90a.cubin") && a.len() == 6 + 16 + 13);
/// assert_ne!(a, cute_builder::cubin_file_name("hgemm", "sm_90a", ".version 8.1\n"));
/// ```
pub fn cubin_file_name(family: &str, arch: &str, ptx: &str) -> String {
    let key = ptx.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{family}-{key:016x}.{arch}.cubin")
}

/// The cute-rs checkout this crate lives in (`<checkout>/builder`).
fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The target directory of the cargo workspace at `root` for a `build.rs`: `$CARGO_TARGET_DIR`
/// (taken relative to `root` when relative), else `root/target`. [`embed_table`] caches the
/// kernels' builds below it, where `cargo xtask build-kernels` puts them.
///
/// ```
/// let root = std::path::Path::new("/work/cute-rs");
/// let t = cute_builder::target_dir(root);
/// match std::env::var_os("CARGO_TARGET_DIR") {
///     Some(d) => assert_eq!(t, root.join(d)),
///     None => assert_eq!(t, root.join("target")),
/// }
/// ```
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d),
        None => root.join("target"),
    }
}

/// For a `build.rs` that embeds a kernel workspace's modules for every architecture of
/// [`build_archs`] (the root package's `cute_rs::PTX_MODULES`, `check_kernels::PTX_MODULES`):
/// builds the families `select` takes for each architecture ([`PtxBuilder::build_script`],
/// cached in `target_dir/kernels/<arch>`), writes `$OUT_DIR/<arch>-<family>.ptx` and
/// `$OUT_DIR/ptx_meta.rs`, which the crate `include!`s beside its `PtxModule` type:
/// `KERNELS_PTX_ARCH`, `KERNELS_PTX_ARCHS`, `KERNELS_PTX_ERROR` and `PTX_MODULES`. Without the
/// toolchain (or with `CUTE_RS_SKIP_PTX=1`) the table is empty and `KERNELS_PTX_ERROR` says why.
///
/// ```no_run
/// // build.rs of a crate whose lib.rs has `pub struct PtxModule { family, arch, ptx, entries,
/// // features }`
/// // and `include!(concat!(env!("OUT_DIR"), "/ptx_meta.rs"));`
/// let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
/// cute_builder::embed_table(&root.join("kernels"), cute_builder::Select::Product, &root.join("target"));
/// ```
pub fn embed_table(kernels_dir: &Path, select: Select, target_dir: &Path) {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| {
        eprintln!("error: embed_table runs in a build script (OUT_DIR is not set)");
        std::process::exit(1)
    }));
    println!("cargo:rerun-if-env-changed=CUTE_RS_ARCHS");
    let archs = build_archs();
    let mut modules = Vec::new();
    let mut error = None;
    for arch in &archs {
        let builder = PtxBuilder::new(kernels_dir)
            .target_dir(target_dir)
            .arch(arch)
            .beside(&archs)
            .select(select);
        match builder.build_script() {
            Ok(built) => modules.extend(built.modules.into_iter().map(|m| (arch.clone(), m))),
            Err(why) => {
                modules.clear();
                error = Some(why);
                break;
            }
        }
    }
    let mut table = String::new();
    for (arch, m) in &modules {
        let file = format!("{arch}-{}.ptx", m.family);
        if let Err(e) = write_if_changed(&out_dir.join(&file), &m.ptx) {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        table.push_str(&format!(
            "    PtxModule {{\n        family: {family:?},\n        arch: {arch:?},\n        \
             ptx: include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\")),\n        \
             entries: &{entries:?},\n        features: &{features:?},\n    }},\n",
            family = m.family,
            entries = m.entries,
            features = m.features,
        ));
    }
    let primary = archs.first().cloned().unwrap_or_default();
    let meta = format!(
        "/// The primary target architecture of [`PTX_MODULES`] (the first of\n\
         /// [`KERNELS_PTX_ARCHS`]).\n\
         pub const KERNELS_PTX_ARCH: &str = {primary:?};\n\
         /// Every architecture [`PTX_MODULES`] has a build for, primary first.\n\
         pub const KERNELS_PTX_ARCHS: &[&str] = &{archs:?};\n\
         /// Why [`PTX_MODULES`] is empty, if it is (toolchain missing at build time).\n\
         pub const KERNELS_PTX_ERROR: Option<&str> = {error:?};\n\
         /// One self-contained PTX module per kernel family and architecture, in\n\
         /// [`KERNELS_PTX_ARCHS`]' order.\n\
         pub const PTX_MODULES: &[PtxModule] = &[\n{table}];\n",
    );
    if let Err(e) = write_if_changed(&out_dir.join("ptx_meta.rs"), &meta) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// The target dir whose `kernels/<arch>` holds the kernel builds: `CARGO_TARGET_DIR` when it is
/// set and absolute, the cute-rs checkout's `target/` otherwise (so a kernel crate of yours
/// reuses the `core` that `cargo xtask build-kernels` built).
///
/// ```
/// # use std::path::{Path, PathBuf};
/// let t = cute_builder::default_target_dir();
/// match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
///     Some(d) if d.is_absolute() => assert_eq!(t, d),
///     // `<checkout>/target` of the cute-rs checkout holding `builder/`
///     _ => assert_eq!(t, Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("target")),
/// }
/// ```
pub fn default_target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
        Some(d) if d.is_absolute() => d,
        _ => checkout().join("target"),
    }
}

/// The directories of the path dependencies a kernel crate builds from, recursively: every
/// `path = "..."` of its manifest (and of theirs) that names a directory with a `Cargo.toml`.
/// A build script reruns when their sources change.
///
/// ```
/// // the builder's own checkout: `kernels/` depends on `device` and `layout-types`
/// let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
/// let deps = cute_builder::path_dependencies(&root.join("kernels"));
/// assert!(deps.iter().any(|d| d.ends_with("layout-types")));
/// assert!(deps.iter().any(|d| d.ends_with("device")));
/// ```
pub fn path_dependencies(crate_dir: &Path) -> Vec<PathBuf> {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut todo = vec![crate_dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        for piece in text.split("path").skip(1) {
            let Some(rest) = piece.trim_start().strip_prefix('=') else {
                continue;
            };
            let Some(value) = rest
                .trim_start()
                .strip_prefix('"')
                .and_then(|r| r.split('"').next())
            else {
                continue;
            };
            let dep = dir.join(value);
            if !dep.join("Cargo.toml").is_file() {
                continue;
            }
            let dep = dep.canonicalize().unwrap_or(dep);
            if dep != crate_dir && !seen.contains(&dep) {
                seen.push(dep.clone());
                todo.push(dep);
            }
        }
    }
    seen
}

/// The environment variable [`PtxBuilder::embed`] sets to a module's PTX file:
/// `CUTE_PTX_<MODULE>`, the module's name upper-cased with `-` as `_`.
///
/// ```
/// assert_eq!(cute_builder::env_var_of("my-kernels"), "CUTE_PTX_MY_KERNELS");
/// ```
pub fn env_var_of(module: &str) -> String {
    format!(
        "CUTE_PTX_{}",
        module
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            })
            .collect::<String>()
    )
}

/// A kernel crate to build to PTX from a `build.rs`: where it is, for which architecture, into
/// which shared target dir.
///
/// ```no_run
/// // build.rs: build ../kernels for sm_80, embed it (`CUTE_PTX_<MODULE>`)
/// cute_builder::PtxBuilder::new("../kernels").arch("sm_80").embed();
/// ```
#[derive(Clone, Debug)]
pub struct PtxBuilder {
    kernels_dir: PathBuf,
    arch: Option<String>,
    target_dir: Option<PathBuf>,
    beside: Vec<String>,
    select: Select,
}

impl PtxBuilder {
    /// The kernel crate (or workspace of kernel crates) in `kernels_dir`; a relative path is
    /// relative to the package being built (`CARGO_MANIFEST_DIR`).
    ///
    /// ```
    /// let b = cute_builder::PtxBuilder::new("../kernels");
    /// assert_eq!(b.options().arch, std::env::var("CUTE_RS_ARCH").unwrap_or("sm_90a".into()));
    /// ```
    pub fn new(kernels_dir: impl AsRef<Path>) -> Self {
        let dir = kernels_dir.as_ref();
        let kernels_dir = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            std::env::var_os("CARGO_MANIFEST_DIR")
                .map(PathBuf::from)
                .unwrap_or_default()
                .join(dir)
        };
        PtxBuilder {
            kernels_dir,
            arch: None,
            target_dir: None,
            beside: Vec::new(),
            select: Select::All,
        }
    }

    /// The other architectures built into the same binary ([`Options::beside`]): a family
    /// written for one of them is left to that build.
    ///
    /// ```
    /// let b = cute_builder::PtxBuilder::new("k").arch("sm_90a").beside(&["sm_90a", "sm_80"]);
    /// assert_eq!(b.options().build_set(), ["sm_90a", "sm_80"]);
    /// ```
    pub fn beside<S: AsRef<str>>(mut self, archs: &[S]) -> Self {
        self.beside = archs.iter().map(|a| a.as_ref().to_string()).collect();
        self
    }

    /// The GPU architecture (`sm_90a`, `sm_80`, ...); without it `CUTE_RS_ARCH`, else `sm_90a`.
    ///
    /// ```
    /// let b = cute_builder::PtxBuilder::new("k").arch("sm_80");
    /// assert_eq!(b.options().arch, "sm_80");
    /// ```
    pub fn arch(mut self, arch: &str) -> Self {
        self.arch = Some(arch.to_string());
        self
    }

    /// The target dir whose `kernels/<arch>` the kernel build uses (default:
    /// [`default_target_dir`]). Crates built into the same one share `core`.
    ///
    /// ```
    /// let b = cute_builder::PtxBuilder::new("/k").target_dir("/t");
    /// assert_eq!(b.options().kernel_target_dir(), std::path::Path::new("/t/kernels/sm_90a"));
    /// # let _ = cute_builder::PtxBuilder::new("/k").arch("sm_90a");
    /// ```
    pub fn target_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.target_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Which families to build ([`Select`]; default all).
    ///
    /// ```
    /// let b = cute_builder::PtxBuilder::new("k").select(cute_builder::Select::Checks);
    /// assert_eq!(b.options().select, cute_builder::Select::Checks);
    /// ```
    pub fn select(mut self, select: Select) -> Self {
        self.select = select;
        self
    }

    /// The low-level [`Options`] this builder runs [`build`] with.
    ///
    /// ```
    /// let o = cute_builder::PtxBuilder::new("/k").options();
    /// assert_eq!(o.kernels_dir, std::path::Path::new("/k"));
    /// ```
    pub fn options(&self) -> Options {
        let target = self.target_dir.clone().unwrap_or_else(default_target_dir);
        let mut o = Options::new(&checkout(), &target);
        o.kernels_dir = self.kernels_dir.clone();
        if let Some(a) = &self.arch {
            o.arch = a.clone();
        }
        o.beside = self.beside.clone();
        o.select = self.select;
        o
    }

    /// Builds the PTX now, outside of cargo's build-script protocol (prints nothing): the
    /// modules, their text ([`Module::ptx`], embeddable) and files (`<target>/ptx/`).
    ///
    /// ```no_run
    /// let built = cute_builder::PtxBuilder::new("kernels").build()?;
    /// for m in &built.modules {
    ///     println!("{}: {} ({} kernels)", m.family, m.ptx_path.display(), m.entries.len());
    /// }
    /// # Ok::<(), cute_builder::Error>(())
    /// ```
    pub fn build(&self) -> Result<Built, Error> {
        build(&self.options())
    }

    /// For a `build.rs`: prints `cargo:rerun-if-changed` for the kernel crate and its path
    /// dependencies and `cargo:rerun-if-env-changed` for the settings, then builds. `Err` holds
    /// why no PTX was built when the toolchain is missing or `CUTE_RS_SKIP_PTX=1` (also printed
    /// as a one-line cargo warning); with `CUTE_RS_REQUIRE_PTX=1`, or when a kernel does not
    /// compile, the build script prints `error: ...` and exits 1.
    ///
    /// ```no_run
    /// match cute_builder::PtxBuilder::new("kernels").build_script() {
    ///     Ok(built) => println!("{} modules", built.modules.len()),
    ///     Err(why) => println!("no PTX: {why}"),
    /// }
    /// ```
    pub fn build_script(&self) -> Result<Built, String> {
        self.build_script_with(|o| o)
    }

    fn build_script_with(&self, f: impl FnOnce(Options) -> Options) -> Result<Built, String> {
        let opts = f(self.options());
        println!("cargo:rerun-if-changed={}", opts.kernels_dir.display());
        // members outside the workspace's folder (the check families, `../tests/kernels/*`)
        for fam in families(&opts.kernels_dir).unwrap_or_default() {
            if opts.select.takes(&fam) && !fam.dir.starts_with(&opts.kernels_dir) {
                println!("cargo:rerun-if-changed={}", fam.dir.display());
            }
        }
        for dep in path_dependencies(&opts.kernels_dir) {
            println!("cargo:rerun-if-changed={}", dep.join("src").display());
            println!(
                "cargo:rerun-if-changed={}",
                dep.join("Cargo.toml").display()
            );
        }
        for v in [
            "CUTE_RS_ARCH",
            "CUTE_RS_KERNEL_FEATURES",
            "CUTE_RS_NIGHTLY",
            "CUTE_RS_REQUIRE_PTX",
            "CUTE_RS_SKIP_PTX",
        ] {
            println!("cargo:rerun-if-env-changed={v}");
        }
        // An explicit skip (e.g. trybuild's nested builds, clippy) wins over CUTE_RS_REQUIRE_PTX.
        let flag = |v: &str| std::env::var(v).is_ok_and(|v| v == "1");
        let skip = flag("CUTE_RS_SKIP_PTX");
        let require = !skip && flag("CUTE_RS_REQUIRE_PTX");
        let result = if skip {
            Err(Error::Missing("CUTE_RS_SKIP_PTX=1 was set".to_string()))
        } else {
            build(&opts)
        };
        match result {
            Ok(built) => Ok(built),
            Err(Error::Missing(why)) if !require => {
                println!(
                    "cargo:warning=kernels in {} not built: {why}",
                    opts.kernels_dir.display()
                );
                if !skip {
                    // A path that never exists makes cargo run this script again at every build,
                    // so a host built before `cargo xtask` installed the toolchain (or
                    // `rust-src`) picks the kernels up at its next build instead of keeping an
                    // empty table until `build.rs` changes.
                    println!(
                        "cargo:rerun-if-changed={}",
                        PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default())
                            .join("rerun-until-the-toolchain-is-installed")
                            .display()
                    );
                }
                Err(why)
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }

    /// For a `build.rs`: [`build_script`](Self::build_script), then `$OUT_DIR/<module>.ptx` for
    /// every module and `cargo:rustc-env=CUTE_PTX_<MODULE>=<that file>` ([`env_var_of`]), so
    /// the crate embeds it with `include_str!(env!("CUTE_PTX_<MODULE>"))`. Without PTX
    /// (toolchain missing, `CUTE_RS_SKIP_PTX=1`) the files are empty and `CUTE_PTX_ERROR` says
    /// why. Returns the modules built.
    ///
    /// ```no_run
    /// // build.rs
    /// let modules = cute_builder::PtxBuilder::new("../kernels").embed();
    /// assert!(modules.len() <= 1 || std::env::var("CUTE_RS_SKIP_PTX").is_err());
    /// ```
    pub fn embed(&self) -> Vec<Module> {
        let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| {
            eprintln!("error: PtxBuilder::embed runs in a build script (OUT_DIR is not set)");
            std::process::exit(1)
        }));
        let result = self.build_script_with(|mut o| {
            o.ptx_out = Some(out_dir.clone());
            o
        });
        match result {
            Ok(built) => {
                for m in &built.modules {
                    println!(
                        "cargo:rustc-env={}={}",
                        env_var_of(&m.family),
                        m.ptx_path.display()
                    );
                }
                built.modules
            }
            Err(why) => {
                let names = families(&self.kernels_dir).unwrap_or_else(|e| {
                    eprintln!("error: {e}");
                    std::process::exit(1)
                });
                let select = self.select;
                for name in names
                    .into_iter()
                    .filter(|f| select.takes(f))
                    .map(|f| f.name)
                {
                    let path = out_dir.join(format!("{name}.ptx"));
                    if let Err(e) = write_if_changed(&path, "") {
                        eprintln!("error: {e}");
                        std::process::exit(1);
                    }
                    println!("cargo:rustc-env={}={}", env_var_of(&name), path.display());
                }
                println!(
                    "cargo:rustc-env=CUTE_PTX_ERROR={}",
                    why.replace(['\n', '\r'], " ")
                );
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "\
.version 8.0
.target sm_90a
\t// .globl\tk2
.visible .global .align 4 .b8 __launch_bounds__k2[8] = {0, 1, 0, 0, 2};
.visible .entry k1(
\t.param .u32 k1_param_0
)
{
\tret;
}
.visible .entry k2(
\t.param .u32 k2_param_0
)
{
\tret;
}
";

    #[test]
    fn families_declare_their_architectures() {
        let manifest = "[package]\nname = \"k\"\n[package.metadata.cute]\narchs = [\"sm_80\", \"sm_90a\"]\n[dependencies]\narchs = [\"no\"]\n";
        assert_eq!(declared_archs(manifest), ["sm_80", "sm_90a"]);
        assert!(declared_archs("[package]\nname = \"k\"\n").is_empty());
        assert_eq!(
            string_array("members = [\"a\", \"b\",]", "members"),
            Some(vec!["a", "b"])
        );
        assert_eq!(string_array("x = 1", "members"), None);
        // an array over several lines, with comments (the form `cargo new` and rustfmt's TOML
        // tools leave), and a key that only starts with the name
        let ws = "[workspace]\nmembers-extra = [\"x\"]\nmembers = [\n  \"gemm\", # the GEMMs\n  # \"old\",\n  \"copy\",\n]\n";
        assert_eq!(string_array(ws, "members"), Some(vec!["gemm", "copy"]));
    }

    #[test]
    fn grid_constant_params_get_64_byte_alignment() {
        let ptx = ".visible .entry k(\n\t.param .align 16 .b8 k_param_0[128],\n\t.param .u32 k_param_1\n)\n{\n\t// cute-rs grid_constant k_param_0\n\tmov.b64 %rd1, k_param_0;\n}\n";
        let out = apply_grid_constants(ptx).unwrap();
        assert!(
            out.contains(".param .align 64 .b8 k_param_0[128],"),
            "{out}"
        );
        assert_eq!(apply_grid_constants(&out).unwrap(), out);
        assert_eq!(apply_grid_constants("no markers").unwrap(), "no markers");
        let e = apply_grid_constants(
            &ptx.replace("grid_constant k_param_0", "grid_constant k_param_1"),
        )
        .unwrap_err();
        assert!(e.contains("k_param_1"), "{e}");
    }

    #[test]
    fn launch_bounds_become_directives_after_the_parameter_list() {
        let out = apply_launch_bounds(MODULE).unwrap();
        assert!(!out.contains(LAUNCH_BOUNDS_PREFIX), "{out}");
        let k2 = &out[out.find(".entry k2(").unwrap()..];
        assert!(
            k2.contains(")\n.maxntid 256, 1, 1\n.minnctapersm 2\n{"),
            "{out}"
        );
        let k1 = &out[out.find(".entry k1(").unwrap()..out.find(".entry k2(").unwrap()];
        assert!(!k1.contains(".maxntid"), "{out}");
        // a module without markers is unchanged
        let plain = MODULE.replace(
            ".visible .global .align 4 .b8 __launch_bounds__k2[8] = {0, 1, 0, 0, 2};\n",
            "",
        );
        assert_eq!(apply_launch_bounds(&plain).unwrap(), plain);
        // a kernel without parameters: LLVM closes its list on the entry's line
        let bare = ".visible .global .align 4 .b8 __launch_bounds__k[8] = {128};\n.visible .entry k()\n{\n\tret;\n}\n";
        let out = apply_launch_bounds(bare).unwrap();
        assert!(
            out.ends_with(".visible .entry k()\n.maxntid 128, 1, 1\n{\n\tret;\n}\n"),
            "{out}"
        );
    }

    #[test]
    fn launch_bounds_for_a_missing_kernel_or_bad_marker_fail() {
        let e = apply_launch_bounds(&MODULE.replace("__launch_bounds__k2", "__launch_bounds__k9"))
            .unwrap_err();
        assert!(e.contains("k9"), "{e}");
        let e =
            apply_launch_bounds(&MODULE.replace("{0, 1, 0, 0, 2}", "{0, 0, 0, 0, 2}")).unwrap_err();
        assert!(e.contains("1 to 1024 threads"), "{e}");
    }
}
