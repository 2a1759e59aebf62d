//! cudarc as burn's cubecl-cuda asks for it.
pub use cudarc;
