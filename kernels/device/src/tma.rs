//! The Tensor Memory Accelerator (`cp.async.bulk.tensor`), under `cuda_std`-like names: the
//! instructions are `layout_types::cute::arch::tma`'s and the bulk-group ones of
//! `layout_types::cute::arch` (one `asm!` each; off the GPU the copies panic: no TMA unit).
//!
//! Store pattern: every writing thread [`fence_proxy_async_shared_cta`], a block barrier, one
//! thread [`store`]s, [`commit_group`], and [`wait_group_read::<0>`] before the shared memory is
//! reused.
//!
//! ```
//! let d = device::tma::TmaDescriptor::default();
//! unsafe { device::tma::prefetch_descriptor(&d) }; // a no-op off the GPU
//! device::tma::fence_proxy_async_shared_cta();
//! ```

pub use layout_types::cute::arch::tma::{
    TmaDescriptor, prefetch_tma_descriptor as prefetch_descriptor, tma_load as load,
    tma_load_multicast as load_multicast, tma_store as store,
};
pub use layout_types::cute::arch::{
    tma_store_arrive as commit_group, tma_store_fence as fence_proxy_async_shared_cta,
    tma_store_wait as wait_group_read,
};
