//! CUTLASS 3's device-side parts that kernels compose from CuTe's atoms ([`crate::cute::atom`]):
//! the typed pipeline, the GEMM operands' shared memory, tile schedulers and epilogue fusion.
//! Each mirrors a CUTLASS header; the collectives and kernels built from them are the
//! `collective` crate's and the kernel families'.
//!
//! - [`pipeline`]: `PipelineTmaAsync`, `PipelineAsync`, the stage state, the barriers' shared
//!   storage (`cutlass/pipeline/sm90_pipeline.hpp`).
//! - [`gmma_operand`]: a GMMA operand's shared-memory tile, TMA box and descriptors per majority,
//!   and the kernel's `SharedStorage` (`cutlass/gemm/collective/builders/sm90_common.inl`'s
//!   `ss_smem_selector`).
//! - [`tile_scheduler`]: persistent, stream-K and grouped tile orders
//!   (`cutlass/gemm/kernel/sm90_tile_scheduler*.hpp`).
//! - [`fusion`]: the epilogue's fused operations, `alpha·acc + beta·C`, bias, activations, scales
//!   (`cutlass/epilogue/fusion/`).
//!
//! ```
//! use layout_types::cutlass::pipeline::PipelineState;
//! let mut s = PipelineState::<4>::new(0); // CUTLASS: PipelineState<4>{}
//! for _ in 0..5 { s.advance(); }
//! assert_eq!((s.index(), s.phase()), (1, 1));
//! ```

pub mod fusion;
pub mod gmma_operand;
pub mod pipeline;
pub mod tile_scheduler;
