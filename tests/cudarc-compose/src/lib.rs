//! Compiles only when `host` and candle-core 0.11's cudarc feature set (`dynamic-linking`,
//! `cuda-version-from-build-system`, ...) resolve to one cudarc: the types below are the same.

use std::sync::Arc;

/// A candle-side cudarc context handed to our kernels: the same `CudaContext` type.
pub fn ours_on_theirs(ctx: Arc<cudarc::driver::CudaContext>) -> host::Result<host::Context> {
    host::Context::from_cuda_context(ctx)
}
