//! Builds `kernels/` into one PTX module per kernel family and architecture and embeds them (the
//! role `cuda_builder` plays in Rust-CUDA): `cute_rs::PTX_MODULES`.
//!
//! Same builder as `cargo xtask build-kernels` (the `cute-builder` crate, `builder/`), same
//! cache (`target/kernels/<arch>`), so after one of them the other is a no-op.
//!
//! The architectures: `CUTE_RS_ARCHS` (comma-separated), else `CUTE_RS_ARCH` alone, else
//! `cute_builder::DEFAULT_ARCHS` (`sm_90a` and `sm_80`: Hopper, and everything from Ampere on)
//! — `cute_builder::build_archs`. Each is built with the families written for it
//! (`[package.metadata.cute] archs` of each family; a family written for `sm_80` only is built
//! once, for `sm_80`, and runs on Hopper from that PTX); the host picks per family and device at
//! run time (`host::Context`).
//!
//! Fallback, on purpose: when the nightly toolchain or its `rust-src` component is
//! missing, this build does NOT fail; it prints a cargo warning with the exact
//! install command and embeds no module, with `KERNELS_PTX_ERROR` set, so the
//! pure-Rust crates still build and test. `host run` then reports that reason and
//! exits 2. Set `CUTE_RS_REQUIRE_PTX=1` (xtask does) to make it a hard error. A
//! kernel that fails to compile is always a hard error.

use std::path::PathBuf;

use cute_builder::{PtxBuilder, build_archs, write_if_changed};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CUTE_RS_ARCHS");
    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d),
        None => root.join("target"),
    };
    let archs = build_archs();
    let mut modules = Vec::new();
    let mut error = None;
    for arch in &archs {
        let builder = PtxBuilder::new(root.join("kernels"))
            .target_dir(&target_dir)
            .arch(arch)
            .beside(&archs);
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
        write_if_changed(&out_dir.join(&file), &m.ptx).expect("write PTX");
        table.push_str(&format!(
            "    PtxModule {{\n        family: {family:?},\n        arch: {arch:?},\n        \
             ptx: include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\")),\n        \
             entries: &{entries:?},\n    }},\n",
            family = m.family,
            entries = m.entries,
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
         /// One self-contained PTX module per kernel family (`kernels/<family>/`) and\n\
         /// architecture, in [`KERNELS_PTX_ARCHS`]' order.\n\
         pub const PTX_MODULES: &[PtxModule] = &[\n{table}];\n",
    );
    write_if_changed(&out_dir.join("ptx_meta.rs"), &meta).expect("write ptx_meta.rs");
}
