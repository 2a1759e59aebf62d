//! Builds the check families of the kernels workspace (`role = "check"`: the crates beside this
//! one, members of `kernels/Cargo.toml`) into one PTX module per family and architecture:
//! `check_kernels::PTX_MODULES`. Same builder, cache and fallback as the root package's
//! `build.rs` (`cute_builder::embed_table`).

use std::path::PathBuf;

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = here.join("../..");
    println!("cargo:rerun-if-changed=build.rs");
    cute_builder::embed_table(
        &root.join("kernels"),
        cute_builder::Select::Checks,
        &cute_builder::target_dir(&root),
    );
}
