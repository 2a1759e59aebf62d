//! Run cute-rs's GPU kernels from Rust on your own cudarc buffers: [`Context::sgemm`],
//! [`Context::tiled_copy`], [`Context::transpose`].
//!
//! ```sh
//! cargo xtask run    # build the PTX, print per-kernel resources, run every kernel's check on the GPU
//! cargo xtask test   # the test command (CI): PTX build + ptxas checks + cargo test --workspace
//! ```
//!
//! ```no_run
//! use host::{Context, GemmConfig, Trans};
//! let ctx = Context::new(0)?;                          // device 0, embedded PTX loaded
//! let stream = ctx.default_stream();                   // or any cudarc stream of ctx
//! let (m, n, k) = (512, 256, 128);
//! let a = stream.clone_htod(&vec![1.0f32; k * m])?;    // A stored K×M (transposed)
//! let b = stream.clone_htod(&vec![0.5f32; k * n])?;    // B stored K×N
//! let mut c = stream.alloc_zeros::<f32>(m * n)?;       // C is M×N, column-major
//! let g = GemmConfig::new(m, n, k).trans(Trans::T, Trans::N).alpha(2.0);
//! ctx.sgemm(&stream, &g, &a, &b, &mut c)?;             // queued on `stream`; checked first
//! assert!(stream.clone_dtoh(&c)?.iter().all(|&x| x == 128.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate embeds the PTX that the root package's `build.rs` compiles from `kernels/`
//! (`cute_rs::PTX_MODULES`, one module per kernel family); libcuda is loaded at run time (cudarc `fallback-dynamic-loading`), so
//! everything builds without a GPU or a driver. Without one, [`Context::new`] returns an
//! [`Error`] for which [`Error::is_unavailable`] holds; no entry point panics on bad input:
//! sizes, leading dimensions, buffer lengths, alignment, grid limits, the stream's and
//! buffers' context and the device's compute capability against the PTX are checked before
//! anything is queued, and each failure is an [`Error`] variant.
//!
//! | module | what |
//! | --- | --- |
//! | [`attention`] | [`attention::AttentionConfig`]; [`Context::attention`] (bf16/fp16 attention forward, Hopper) and its references |
//! | [`context`] | [`Context`]: device, PTX loading, kernel lookup |
//! | [`gemm`] | [`GemmConfig`], [`Trans`], [`Plan`], [`Tile`]; [`Context::sgemm`] |
//! | [`copy`] | [`CopyConfig`], [`TransposeConfig`], [`TransposeKernel`], [`Element`]; [`Context::tiled_copy`], [`Context::transpose`] |
//! | [`tma`] | TMA atoms from layouts: [`tma::plan_tma_copy`] (CuTe's checks), [`Context::make_tma_copy`] (the `CUtensorMap`) |
//! | [`cublas`] | [`Cublas`]: cuBLAS SGEMM on the same [`GemmConfig`], the reference |
//! | [`ptx`] | the embedded PTX modules |
//!
//! The checks, sweeps, error bounds and benchmarks, and the `host` command line over them, are
//! the `host-cli` crate (`host-cli/`): this crate is what a user's program depends on.

#![warn(missing_docs)]

pub mod attention;
pub mod context;
pub mod copy;
pub mod cublas;
pub mod error;
pub mod gemm;
pub mod gemm_fp8;
pub mod hgemm;
pub mod hgemm_sm80;
pub mod launch;
pub mod overrides;
pub mod ptx;
#[doc(hidden)]
pub mod quiet;
pub mod tma;

pub use context::{ARCH_ENV, CUBIN_DIR_ENV, Context, DeviceInfo, LoadOptions, PTX_DIR_ENV};
pub use copy::{CopyConfig, CopyInstruction, Element, Order, TransposeConfig, TransposeKernel};
pub use cublas::Cublas;
pub use error::{Error, Result};
pub use gemm::{Activation, BiasMode, GemmConfig, GemmKernel, Plan, Tile, Trans};
pub use overrides::Overrides;

/// The cudarc this crate is built on: use it for buffers and streams so the types match.
pub use cudarc;
pub use half;
