//! Builds the product's kernel families of `kernels/` into one PTX module per family and
//! architecture and embeds them (the role `cuda_builder` plays in Rust-CUDA):
//! `cute_rs::PTX_MODULES`. The check families (probe, smoke, proof and reference kernels,
//! `role = "check"`: `tests/kernels/`) are not built here; `check-kernels` embeds them.
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

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    cute_builder::embed_table(
        &root.join("kernels"),
        cute_builder::Select::Product,
        &cute_builder::target_dir(&root),
    );
}
