//! The interop steps: the Python package's GPU-free tests (`cargo xtask test`; `test-full`: the
//! package built by maturin), and `host` beside candle's and burn's cudarc features with candle's
//! code compiled against candle-core (`cargo xtask test-full`).

use std::path::Path;
use std::process::Command;

use crate::{Step, Ws, on_path, status_code};

/// `tests/cudarc-compose` with feature `candle` (`cargo xtask test-full`: ~155 CPU-s of candle-core
/// and its dependencies): `host` and cudarc with candle-core 0.11's and burn's exact feature lists
/// (`dynamic-linking`, `cuda-version-from-build-system`, ...) resolve to one cudarc whose build
/// script does not panic and that `host` compiles against, and `examples/candle-op` and the
/// README's "From candle" block compile against candle-core 0.11 (`cuda`) and `host`. A library,
/// so nothing links libcuda; no PTX (`CUTE_RS_SKIP_PTX=1`). Run from that directory, whose
/// `.cargo/config.toml` sets candle-kernels' `NVCC` to a stand-in (`fake-nvcc`: empty PTX, an
/// empty library; a library crate links nothing), so no CUDA toolkit is needed.
pub fn candle_step(ws: &Ws) -> Step {
    let t0 = std::time::Instant::now();
    let dir = ws.root.join("tests/cudarc-compose");
    eprintln!("[test-full] (cd tests/cudarc-compose && cargo build --features candle)");
    let mut c = ws.cargo();
    c.args(["build", "--features", "candle"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &ws.target)
        .env("CUTE_RS_SKIP_PTX", "1");
    match status_code(&mut c) {
        0 => Step::Pass(format!(
            "host beside candle's and burn's cudarc features; examples/candle-op and the README's candle code compile against candle-core 0.11 ({:.0} s)",
            t0.elapsed().as_secs_f64()
        )),
        code => Step::Fail(format!("cargo build --features candle exited with {code}")),
    }
}

/// How the Python step gets the `cute_rs` extension.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Extension {
    /// The `cdylib` of `cargo build --workspace --lib --tests` (after the test build: `--tests`
    /// resolves features as `cargo test` does, dev-dependencies included, so only the extension
    /// itself is compiled — 2 s, where `--lib` alone compiled `host`, cudarc and their
    /// dependencies a second time under other features, ~45 s) in `target/debug`, staged with
    /// the package's Python sources under `target/xtask/py/cute_rs`.
    Workspace,
    /// `maturin develop` into the venv, as `pip install ./python` builds it (the packaging path:
    /// `cargo xtask test-full`).
    Maturin,
}

/// The `cute_rs` Python package's pytest (`python/tests`), with the extension as `how` says:
/// python3 with pytest in `target/py-pytest` ([`Extension::Workspace`]), or a venv under target/
/// with pytest and maturin ([`Extension::Maturin`]), from PyPI. Without python3 it is a SKIP;
/// the GPU tests skip themselves without torch or a GPU.
pub fn python_step(ws: &Ws, how: Extension) -> Step {
    let t0 = std::time::Instant::now();
    let Some(python) = on_path("python3") else {
        return Step::Skip("python3 not found: the cute_rs package's tests did not run".into());
    };
    let venv = ws.target.join("py-venv");
    let bin = venv.join("bin");
    let pkg = ws.root.join("python");
    let mut pytest = match how {
        Extension::Workspace => Command::new(&python),
        Extension::Maturin => Command::new(bin.join("python")),
    };
    match how {
        Extension::Workspace => {
            let site = match pytest_site(&python, &ws.target) {
                Ok(dir) => dir,
                Err(step) => return step,
            };
            // the workspace's libraries as a user builds them: `python/` is a `cdylib` that no
            // test target builds; everything else is the test build's (same environment)
            eprintln!("[test] cargo build --workspace --lib --tests (the Python extension)");
            let mut lib = ws.cargo();
            lib.args(["build", "--workspace", "--lib", "--tests"])
                .env("CUTE_RS_REQUIRE_PTX", "1");
            let code = status_code(&mut lib);
            if code != 0 {
                return Step::Fail(format!(
                    "cargo build --workspace --lib --tests exited with {code}"
                ));
            }
            let staged = match stage_package(ws) {
                Ok(dir) => dir,
                Err(e) => return Step::Fail(e),
            };
            eprintln!(
                "[test] pytest python/tests (cute_rs from {}: the workspace build's extension)",
                staged.display()
            );
            let path = std::env::join_paths([staged, site]).unwrap_or_default();
            pytest.env("PYTHONPATH", path);
        }
        Extension::Maturin => {
            if let Err(step) = make_venv(&python, &venv) {
                return step;
            }
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
        }
    }
    let out = pytest
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

/// `target/xtask/py/cute_rs`: the package's Python sources (`python/cute_rs/*.py`) and the
/// workspace build's `lib_native.so` as `_native.abi3.so` (the name maturin gives it).
fn stage_package(ws: &Ws) -> Result<std::path::PathBuf, String> {
    let so = ws.target.join("debug/lib_native.so");
    if !so.is_file() {
        return Err(format!(
            "{} is missing (cargo build --workspace --lib --tests builds it)",
            so.display()
        ));
    }
    let root = ws.target.join("xtask/py");
    let dir = root.join("cute_rs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = ws.root.join("python/cute_rs");
    let entries = std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "py") {
            let to = dir.join(e.file_name());
            std::fs::copy(&path, &to).map_err(|e| format!("{}: {e}", to.display()))?;
        }
    }
    let to = dir.join("_native.abi3.so");
    std::fs::copy(&so, &to).map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(root)
}

/// [`Extension::Maturin`]'s venv under `venv` and its PyPI packages (pytest, maturin), unless
/// there; the step's outcome when that fails.
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
    let wanted = [("pytest", "pytest"), ("maturin", "maturin>=1.5,<2")];
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|(exe, _)| !bin.join(exe).exists())
        .map(|(_, req)| *req)
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "[test] pip install {} (into {})",
            missing.join(" "),
            venv.display()
        );
        let code = status_code(
            Command::new(bin.join("python"))
                .args(["-m", "pip", "install", "-q"])
                .args(&missing),
        );
        if code != 0 {
            return Err(Step::Fail(format!(
                "pip install {} exited with {code}",
                missing.join(" ")
            )));
        }
    }
    Ok(())
}

/// [`Extension::Workspace`]'s pytest: `python3 -m pip install --target <target>/py-pytest
/// pytest` (no venv: making one, with its own pip, took ~8 CPU-s of a fresh clone's run), unless
/// there; its directory goes on `PYTHONPATH` beside the staged package. The step's outcome when
/// pip fails.
fn pytest_site(python: &Path, target: &Path) -> Result<std::path::PathBuf, Step> {
    let dir = target.join("py-pytest");
    if dir.join("pytest/__init__.py").is_file() {
        return Ok(dir);
    }
    eprintln!(
        "[test] {} -m pip install --target {} pytest",
        python.display(),
        dir.display()
    );
    let code = status_code(
        Command::new(python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(["--no-warn-script-location", "--upgrade", "--target"])
            .arg(&dir)
            .arg("pytest"),
    );
    if code != 0 {
        return Err(Step::Fail(format!(
            "python3 -m pip install --target {} pytest exited with {code}",
            dir.display()
        )));
    }
    Ok(dir)
}

/// [`pytest_site`] ahead of the Python step (`cargo xtask test` runs this at its start, beside
/// the builds: it is mostly network and disk). Quiet (output in `target/xtask/pytest.log`); a
/// failure is left for [`python_step`] to retry and report.
pub fn prepare_pytest(target: &Path) {
    let Some(python) = on_path("python3") else {
        return;
    };
    let _ = std::fs::create_dir_all(target.join("xtask"));
    let log = std::fs::File::create(target.join("xtask/pytest.log")).ok();
    crate::STEP_LOG.with(|l| *l.borrow_mut() = log);
    let _ = pytest_site(&python, target);
}

fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(paths).unwrap_or_default()
}
