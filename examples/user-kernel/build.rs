//! Builds `kernels/` (this example's device crate, `user-kernels`) to PTX with cute-rs's own
//! pipeline — `xtask/src/ptx.rs`, the code behind cute-rs's `build.rs` and
//! `cargo xtask build-kernels`, included as is — and embeds it (`src/main.rs`: `USER_PTX`).
//!
//! `Options::kernels_dir` points the pipeline at this crate instead of cute-rs's `kernels/`;
//! it shares the kernel target dir (`target/kernels/<arch>`), so the `core` built there for
//! cute-rs's kernels is reused. Same fallback as cute-rs's `build.rs`: without the nightly
//! toolchain (or with `CUTE_RS_SKIP_PTX=1`) the PTX is empty and the reason recorded, so the
//! crate still builds; `CUTE_RS_REQUIRE_PTX=1` makes that an error.

#[path = "../../xtask/src/ptx.rs"]
mod ptx;

use std::path::PathBuf;

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let workspace = here.join("../..");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    for p in ["build.rs", "kernels", "../../layout-types/src"] {
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
    let mut opts = ptx::Options::new(&workspace, &target);
    opts.kernels_dir = here.join("kernels");
    let skip = std::env::var("CUTE_RS_SKIP_PTX").is_ok_and(|v| v == "1");
    let require = !skip && std::env::var("CUTE_RS_REQUIRE_PTX").is_ok_and(|v| v == "1");
    let result = if skip {
        Err(ptx::Error::Missing("CUTE_RS_SKIP_PTX=1 was set".into()))
    } else {
        ptx::build(&opts)
    };
    let (text, error) = match result {
        // one staticlib package: one module
        Ok(built) => (built.modules.into_iter().map(|m| m.ptx).collect(), None),
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
