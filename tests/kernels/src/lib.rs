//! The check families' PTX: the probe, smoke, proof and reference kernels (`probe`, `smoke`,
//! `wgmma`, `wgmma_mn`, `attention_ref`, the crates in this folder; `role = "check"` in their
//! manifests), built for the tests and the `host` CLI's checks by `build.rs` and kept out of the
//! product's modules (`cute_rs::PTX_MODULES`, what the `host` library loads). The CLI hands them
//! to a context through `host::LoadOptions::extra_modules`.

pub use cute_rs::PtxModule;

include!(concat!(env!("OUT_DIR"), "/ptx_meta.rs"));

/// The check module that defines kernel `entry` for the primary architecture
/// ([`KERNELS_PTX_ARCH`]), else for the first other one that has it.
pub fn module_of(entry: &str) -> Option<&'static PtxModule> {
    PTX_MODULES.iter().find(|m| m.entries.contains(&entry))
}
