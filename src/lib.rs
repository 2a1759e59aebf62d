//! Facade crate: re-exports `layout-types` and carries the PTX built from `kernels/`.
pub use layout_types;
