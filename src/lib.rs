//! Facade crate: re-exports `layout-types` and carries the PTX built from `kernels/`.
pub use layout_types;

/// One kernel family's PTX module, built by `build.rs` with the nightly toolchain for
/// [`KERNELS_PTX_ARCH`]: self-contained (no `.extern .func`), loaded as one CUDA module.
#[derive(Clone, Copy, Debug)]
pub struct PtxModule {
    /// The family (`kernels/<family>/`): `smoke`, `copy`, `gemm_n`, `gemm_t`, `probe`, ...
    pub family: &'static str,
    /// The PTX text.
    pub ptx: &'static str,
    /// The `.entry` kernels it defines.
    pub entries: &'static [&'static str],
}

/// The module that defines kernel `entry`, if any.
///
/// ```
/// if let Some(m) = cute_rs::module_of("sgemm_128x128x8_nn") {
///     assert_eq!(m.family, "gemm_n");
///     assert!(m.ptx.contains(".entry sgemm_128x128x8_nn("));
/// }
/// assert!(cute_rs::module_of("no_such_kernel").is_none());
/// ```
pub fn module_of(entry: &str) -> Option<&'static PtxModule> {
    PTX_MODULES.iter().find(|m| m.entries.contains(&entry))
}

include!(concat!(env!("OUT_DIR"), "/ptx_meta.rs"));

/// The examples of `doc/typed-gmma.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../doc/typed-gmma.md")]
pub struct TypedGmmaDoc;
