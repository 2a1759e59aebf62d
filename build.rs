//! Builds `kernels/` into one PTX module per kernel family and embeds them (the role
//! `cuda_builder` plays in Rust-CUDA): `cute_rs::PTX_MODULES`.
//!
//! Same builder as `cargo xtask build-kernels` (the `cute-builder` crate, `builder/`), same
//! cache (`target/kernels/<arch>`), so after one of them the other is a no-op.
//!
//! Fallback, on purpose: when the nightly toolchain or its `rust-src` component is
//! missing, this build does NOT fail; it prints a cargo warning with the exact
//! install command and embeds no module, with `KERNELS_PTX_ERROR` set, so the
//! pure-Rust crates still build and test. `host run` then reports that reason and
//! exits 2. Set `CUTE_RS_REQUIRE_PTX=1` (xtask does) to make it a hard error. A
//! kernel that fails to compile is always a hard error.

use std::path::PathBuf;

use cute_builder::{PtxBuilder, write_if_changed};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d),
        None => root.join("target"),
    };
    let builder = PtxBuilder::new(root.join("kernels")).target_dir(&target_dir);
    let arch = builder.options().arch;
    let (modules, error) = match builder.build_script() {
        Ok(built) => (built.modules, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    let mut table = String::new();
    for m in &modules {
        let file = format!("{}.ptx", m.family);
        write_if_changed(&out_dir.join(&file), &m.ptx).expect("write PTX");
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
    );
    write_if_changed(&out_dir.join("ptx_meta.rs"), &meta).expect("write ptx_meta.rs");
}
