//! Facade crate: re-exports `layout-types` and carries the PTX of the product's kernel families
//! built from `kernels/` (the check families' is `check-kernels`', `tests/kernels/`).
pub use layout_types;

/// One kernel family's PTX module for one architecture, built by `build.rs` with the nightly
/// toolchain for each of [`KERNELS_PTX_ARCHS`]: self-contained (no `.extern .func`), loaded as
/// one CUDA module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtxModule {
    /// The family (`kernels/<family>/`): `copy`, `gemm_n`, `gemm_t`, `hgemm`, `attention`, ...;
    /// a check family of `check-kernels` (`tests/kernels/<family>/`): `probe`, `smoke`, `wgmma`, ...
    pub family: &'static str,
    /// The architecture it was built for (its `.target`): `sm_90a`, `sm_80`, ...
    pub arch: &'static str,
    /// The PTX text.
    pub ptx: &'static str,
    /// The `.entry` kernels it defines.
    pub entries: &'static [&'static str],
    /// The family's features it was built with (`CUTE_RS_KERNEL_FEATURES`): empty for the
    /// default build; `["representative"]` for the GEMM families' representative entries
    /// (`cargo xtask test` without a GPU).
    pub features: &'static [&'static str],
}

/// The module that defines kernel `entry` for the primary architecture ([`KERNELS_PTX_ARCH`]),
/// else for the first other one that has it.
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

/// The module that defines kernel `entry` in the build for `arch`, if any.
///
/// ```
/// if cute_rs::KERNELS_PTX_ARCHS.contains(&"sm_80") {
///     // the bulk transpose (`cp.async.bulk`) is Hopper only
///     assert!(cute_rs::module_of_arch("transpose_f32_bulk", "sm_80").is_none());
///     assert!(cute_rs::module_of_arch("transpose_f32_swizzled", "sm_80").is_some());
/// }
/// ```
pub fn module_of_arch(entry: &str, arch: &str) -> Option<&'static PtxModule> {
    PTX_MODULES
        .iter()
        .find(|m| m.arch == arch && m.entries.contains(&entry))
}

include!(concat!(env!("OUT_DIR"), "/ptx_meta.rs"));

/// The examples of `doc/typed-gmma.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../doc/typed-gmma.md")]
pub struct TypedGmmaDoc;
