//! Builds `kernels/` (this example's kernel crate, `user-kernels`) to PTX with `cute-builder`
//! and embeds it: `src/main.rs` reads `CUTE_PTX_USER_KERNELS` (the PTX file) and
//! `CUTE_PTX_ERROR` (why there is none: toolchain missing, `CUTE_RS_SKIP_PTX=1`).

fn main() {
    cute_builder::PtxBuilder::new("kernels").embed();
}
