//! Builds `kernels/` into one PTX module per kernel family and embeds them (the role
//! `cuda_builder` plays in Rust-CUDA): `cute_rs::PTX_MODULES`.
//!
//! Same code as `cargo xtask build-kernels` (`xtask/src/ptx.rs`), same cache
//! (`target/kernels/<arch>`), so after one of them the other is a no-op.
//!
//! Fallback, on purpose: when the nightly toolchain or its `rust-src` component is
//! missing, this build does NOT fail; it prints a cargo warning with the exact
//! install command and embeds no module, with `KERNELS_PTX_ERROR` set, so the
//! pure-Rust crates still build and test. `host run` then reports that reason and
//! exits 2. Set `CUTE_RS_REQUIRE_PTX=1` (xtask does) to make it a hard error. A
//! kernel that fails to compile is always a hard error.

#[path = "xtask/src/ptx.rs"]
mod ptx;

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    for p in [
        "build.rs",
        "xtask/src/ptx.rs",
        "kernels",
        "layout-types/src",
        "layout-types/Cargo.toml",
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

    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d),
        None => root.join("target"),
    };
    let opts = ptx::Options::new(&root, &target_dir);
    // An explicit skip (e.g. trybuild's nested builds) wins over CUTE_RS_REQUIRE_PTX.
    let skip = std::env::var("CUTE_RS_SKIP_PTX").is_ok_and(|v| v == "1");
    let require = !skip && std::env::var("CUTE_RS_REQUIRE_PTX").is_ok_and(|v| v == "1");

    let result = if skip {
        Err(ptx::Error::Missing(
            "CUTE_RS_SKIP_PTX=1 was set".to_string(),
        ))
    } else {
        ptx::build(&opts)
    };
    let (modules, error) = match result {
        Ok(built) => (built.modules, None),
        Err(ptx::Error::Missing(why)) if !require => {
            println!("cargo:warning=kernels not built, PTX_MODULES is empty: {why}");
            (Vec::new(), Some(why))
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let mut table = String::new();
    for m in &modules {
        let file = format!("{}.ptx", m.family);
        ptx::write_if_changed(&out_dir.join(&file), &m.ptx).expect("write PTX");
        table.push_str(&format!(
            "    PtxModule {{\n        family: {family:?},\n        \
             ptx: include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\")),\n        \
             entries: &{entries:?},\n    }},\n",
            family = m.family,
            entries = m.entries,
        ));
    }
    let meta = format!(
        "/// Target architecture of [`PTX_MODULES`].\n\
         pub const KERNELS_PTX_ARCH: &str = {arch:?};\n\
         /// Why [`PTX_MODULES`] is empty, if it is (toolchain missing at build time).\n\
         pub const KERNELS_PTX_ERROR: Option<&str> = {error:?};\n\
         /// One self-contained PTX module per kernel family (`kernels/<family>/`).\n\
         pub const PTX_MODULES: &[PtxModule] = &[\n{table}];\n",
        arch = opts.arch,
    );
    ptx::write_if_changed(&out_dir.join("ptx_meta.rs"), &meta).expect("write ptx_meta.rs");
}
