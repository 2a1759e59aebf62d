//! Compiles only when `host`, candle-core 0.11 (its `cuda` feature: cudarc with
//! `dynamic-linking`, `cuda-version-from-build-system`, ...) and burn's cudarc feature list
//! (cubecl-cuda: `fallback-dynamic-loading`, `nccl`, `fallback-latest`) resolve to one cudarc:
//! the types below are the same. With feature `candle` (`cargo xtask test-full`) it also compiles
//! `examples/candle-op` and the README's candle code against candle-core 0.11 itself
//! (candle-kernels' nvcc step is a stand-in here: `fake-nvcc`, set by `.cargo/config.toml`).

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

/// candle's own CUDA context is the one `host` takes.
#[cfg(feature = "candle")]
pub fn ours_on_candles(dev: &candle_core::CudaDevice) -> host::Result<host::Context> {
    host::Context::from_cuda_context_lazy(dev.cuda_stream().context().clone())
}

/// `examples/candle-op` (a program; its `main` is not called here).
#[cfg(feature = "candle")]
#[allow(dead_code)]
#[path = "../../../examples/candle-op/src/main.rs"]
mod candle_op;

/// The README's "From candle" code, as written there (build.rs puts it in its impl).
#[cfg(feature = "candle")]
pub mod readme_candle {
    include!(concat!(env!("OUT_DIR"), "/readme_candle.rs"));
}
