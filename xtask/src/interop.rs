//! The interop steps of `cargo xtask test`: `host` beside candle's cudarc features, and the
//! Python package's GPU-free tests.

use std::path::Path;
use std::process::Command;

use crate::{Step, Ws, on_path, status_code};

/// `tests/cudarc-compose` builds: `host` and cudarc with candle-core 0.11's exact feature list
/// (`dynamic-linking`, `cuda-version-from-build-system`, ...) in one build, so cudarc's build
/// script must not panic and host must compile against what that resolves to. A library, so
/// nothing links libcuda; the workspace's target dir and dev profile, so layout-types and
/// cute-rs (the PTX) are reused.
pub fn compose_step(ws: &Ws) -> Step {
    let t0 = std::time::Instant::now();
    let manifest = ws.root.join("tests/cudarc-compose/Cargo.toml");
    eprintln!("[test] cargo build --manifest-path tests/cudarc-compose/Cargo.toml");
    let mut c = ws.cargo();
    c.args(["build", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &ws.target);
    match status_code(&mut c) {
        0 => Step::Pass(format!(
            "host + candle-core 0.11's cudarc features build ({:.0} s)",
            t0.elapsed().as_secs_f64()
        )),
        code => Step::Fail(format!("cargo build exited with {code}")),
    }
}

/// `tests/cudarc-compose` with feature `candle` (`cargo xtask test-full`: ~155 CPU-s of candle-core
/// and its dependencies): `examples/candle-op` and the README's "From candle" block compile
/// against candle-core 0.11 (`cuda`) and `host`. Run from that directory, whose
/// `.cargo/config.toml` sets candle-kernels' `NVCC` to a stand-in (`fake-nvcc`: empty PTX, an
/// empty library; a library crate links nothing), so no CUDA toolkit is needed.
pub fn candle_step(ws: &Ws) -> Step {
    let t0 = std::time::Instant::now();
    let dir = ws.root.join("tests/cudarc-compose");
    eprintln!("[test-full] (cd tests/cudarc-compose && cargo build --features candle)");
    let mut c = ws.cargo();
    c.args(["build", "--features", "candle"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &ws.target);
    match status_code(&mut c) {
        0 => Step::Pass(format!(
            "examples/candle-op and the README's candle code compile against candle-core 0.11 ({:.0} s)",
            t0.elapsed().as_secs_f64()
        )),
        code => Step::Fail(format!("cargo build --features candle exited with {code}")),
    }
}

/// The `cute_rs` Python package: a venv under target/ (maturin, pytest from PyPI), the
/// extension built into it (`maturin develop`, dev profile, the workspace's target dir),
/// `pytest python/tests`. Without python3 it is a SKIP; the GPU tests skip themselves
/// without torch or a GPU.
pub fn python_step(ws: &Ws) -> Step {
    let t0 = std::time::Instant::now();
    let Some(python) = on_path("python3") else {
        return Step::Skip("python3 not found: the cute_rs package's tests did not run".into());
    };
    let venv = ws.target.join("py-venv");
    let bin = venv.join("bin");
    if let Err(step) = make_venv(&python, &venv) {
        return step;
    }
    let pkg = ws.root.join("python");
    eprintln!("[test] maturin develop (python/), then pytest python/tests");
    let code = status_code(
        Command::new(bin.join("maturin"))
            .args(["develop", "-q"])
            .current_dir(&pkg)
            .env("VIRTUAL_ENV", &venv)
            .env("PATH", path_with(&bin))
            .env("CARGO_TARGET_DIR", &ws.target),
    );
    if code != 0 {
        return Step::Fail(format!("maturin develop exited with {code}"));
    }
    let out = Command::new(bin.join("python"))
        .args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "."])
        // from tests/: `python -m` puts the working directory first on sys.path, and
        // python/ holds the package's source without its extension
        .current_dir(pkg.join("tests"))
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Step::Fail(format!("could not start pytest: {e}")),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let summary = last.trim().trim_matches('=').trim();
    match out.status.code() {
        Some(0) => Step::Pass(format!(
            "{summary} ({:.0} s with the build)",
            t0.elapsed().as_secs_f64()
        )),
        code => Step::Fail(format!("pytest exited with {code:?}: {summary}")),
    }
}

/// The Python step's venv under `venv` and its PyPI packages (maturin, pytest), unless there;
/// the step's outcome when that fails.
fn make_venv(python: &Path, venv: &Path) -> Result<(), Step> {
    let bin = venv.join("bin");
    if !bin.join("python").exists() {
        eprintln!("[test] {} -m venv {}", python.display(), venv.display());
        let code = status_code(Command::new(python).args(["-m", "venv"]).arg(venv));
        if code != 0 {
            return Err(Step::Skip(format!(
                "python3 -m venv failed ({code}): no venv module (Debian: apt-get install python3-venv)"
            )));
        }
    }
    if !bin.join("maturin").exists() || !bin.join("pytest").exists() {
        eprintln!(
            "[test] pip install maturin pytest (into {})",
            venv.display()
        );
        let code = status_code(Command::new(bin.join("python")).args([
            "-m",
            "pip",
            "install",
            "-q",
            "maturin>=1.5,<2",
            "pytest",
        ]));
        if code != 0 {
            return Err(Step::Fail(format!(
                "pip install maturin pytest exited with {code}"
            )));
        }
    }
    Ok(())
}

/// [`make_venv`] ahead of the Python step (`cargo xtask test` runs this at its start, beside the
/// builds: it is network and disk, not CPU). Quiet (output in `target/xtask/venv.log`); a
/// failure is left for [`python_step`] to retry and report.
pub fn prepare_venv(target: &Path) {
    let Some(python) = on_path("python3") else {
        return;
    };
    let _ = std::fs::create_dir_all(target.join("xtask"));
    let log = std::fs::File::create(target.join("xtask/venv.log")).ok();
    crate::STEP_LOG.with(|l| *l.borrow_mut() = log);
    let _ = make_venv(&python, &target.join("py-venv"));
}

fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(paths).unwrap_or_default()
}
