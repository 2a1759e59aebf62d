//! Builds `kernels/` (this example's device crate, `user_kernels`) to PTX with cute-rs's own
//! pipeline, `xtask/src/ptx.rs` included as is, and embeds it (`src/main.rs`: `USER_PTX`).
//!
//! It runs `ptx::cargo_command` (nightly `cargo rustc ... --target nvptx64-nvidia-cuda
//! -Zbuild-std=core --crate-type staticlib -- --emit=asm`, same RUSTFLAGS, same kernel target
//! dir `target/kernels/<arch>`, so the `core` and `layout-types` built there for cute-rs's
//! kernels are reused: about 2 s) with the manifest path swapped for `kernels/Cargo.toml`
//! here, then reads the newest `user_kernels-*.s`. Same fallback as cute-rs's `build.rs`:
//! without the nightly toolchain (or with `CUTE_RS_SKIP_PTX=1`) the PTX is empty and the
//! reason recorded, so the crate still builds; `CUTE_RS_REQUIRE_PTX=1` makes that an error.

#[path = "../../xtask/src/ptx.rs"]
mod ptx;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The device crate's name: its PTX is `user_kernels-<hash>.s`.
const CRATE: &str = "user_kernels";

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let workspace = here.join("../..");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    for p in [
        "build.rs",
        "kernels/src",
        "kernels/Cargo.toml",
        "../../layout-types/src",
    ] {
        println!("cargo:rerun-if-changed={p}");
    }
    for v in [
        "CUTE_RS_ARCH",
        "CUTE_RS_NIGHTLY",
        "CUTE_RS_REQUIRE_PTX",
        "CUTE_RS_SKIP_PTX",
    ] {
        println!("cargo:rerun-if-env-changed={v}");
    }
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => workspace.join(d),
        None => workspace.join("target"),
    };
    let opts = ptx::Options::new(&workspace, &target);
    let skip = std::env::var("CUTE_RS_SKIP_PTX").is_ok_and(|v| v == "1");
    let require = !skip && std::env::var("CUTE_RS_REQUIRE_PTX").is_ok_and(|v| v == "1");
    let result = if skip {
        Err(ptx::Error::Missing("CUTE_RS_SKIP_PTX=1 was set".into()))
    } else {
        build(&opts, &here.join("kernels"))
    };
    let (text, error) = match result {
        Ok(text) => (text, None),
        Err(ptx::Error::Missing(why)) if !require => {
            println!("cargo:warning=user kernels not built, USER_PTX is empty: {why}");
            (String::new(), Some(why))
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    ptx::write_if_changed(&out_dir.join("user_kernels.ptx"), &text).expect("write PTX");
    let meta = format!(
        "/// Why [`USER_PTX`] is empty, if it is.\nconst USER_PTX_ERROR: Option<&str> = {error:?};\n"
    );
    ptx::write_if_changed(&out_dir.join("user_ptx_meta.rs"), &meta).expect("write meta");
}

/// `ptx::cargo_command(opts)` for the crate in `dir` instead of `<root>/kernels`.
fn cargo_command(opts: &ptx::Options, dir: &Path) -> Command {
    let base = ptx::cargo_command(opts);
    let theirs = opts.root.join("kernels/Cargo.toml");
    let mut cmd = ptx::clean_command(base.get_program().to_str().unwrap_or("rustup"));
    for a in base.get_args() {
        if Path::new(a) == theirs {
            cmd.arg(dir.join("Cargo.toml"));
        } else {
            cmd.arg(a);
        }
    }
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.current_dir(dir);
    cmd
}

/// Builds the crate in `dir`; its PTX text, checked to be self-contained.
fn build(opts: &ptx::Options, dir: &Path) -> Result<String, ptx::Error> {
    ptx::ensure_toolchain(opts)?;
    let out = cargo_command(opts, dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| ptx::Error::Failed(format!("running cargo for {CRATE}: {e}")))?;
    if !out.status.success() {
        return Err(ptx::Error::Failed(format!(
            "building {CRATE}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let deps = opts
        .kernel_target_dir()
        .join(ptx::TARGET)
        .join("release/deps");
    let asm = newest_asm(&deps).ok_or_else(|| {
        ptx::Error::Failed(format!(
            "no {CRATE}-*.s under {} (delete target/kernels to rebuild)",
            deps.display()
        ))
    })?;
    let text = std::fs::read_to_string(&asm)
        .map_err(|e| ptx::Error::Failed(format!("reading {}: {e}", asm.display())))?;
    ptx::check_self_contained(&text).map_err(ptx::Error::Failed)?;
    Ok(text)
}

/// The newest `user_kernels-*.s` in `deps`.
fn newest_asm(deps: &Path) -> Option<PathBuf> {
    std::fs::read_dir(deps)
        .ok()?
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with(&format!("{CRATE}-")) && name.ends_with(".s")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}
