//! Compiles only when `host`, candle-core 0.11's cudarc feature list (`dynamic-linking`,
//! `cuda-version-from-build-system`, ...) and burn's (cubecl-cuda: `fallback-dynamic-loading`,
//! `nccl`, `fallback-latest`) resolve to one cudarc: the types below are the same.

use std::sync::Arc;

/// A candle-side (or burn-side) cudarc context handed to our kernels: one `CudaContext` type.
pub fn ours_on_theirs(ctx: Arc<cudarc::driver::CudaContext>) -> host::Result<host::Context> {
    host::Context::from_cuda_context(ctx)
}

/// The renamed dependency is the same crate.
pub fn same_crate(
    ctx: Arc<burn_cudarc::cudarc::driver::CudaContext>,
) -> Arc<cudarc::driver::CudaContext> {
    ctx
}
