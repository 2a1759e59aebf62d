//! Facade crate: re-exports `layout-types` and carries the PTX built from `kernels/`.
pub use layout_types;

/// The whole `kernels/` crate as ONE self-contained PTX module (no `.extern .func`),
/// built by `build.rs` with the nightly toolchain for [`KERNELS_PTX_ARCH`].
/// Empty when the toolchain was missing at build time; see [`KERNELS_PTX_ERROR`].
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

include!(concat!(env!("OUT_DIR"), "/ptx_meta.rs"));
