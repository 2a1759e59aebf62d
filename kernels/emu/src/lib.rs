//! The kernel families' real entries, compiled for the host and run on the CPU emulator
//! (`device::emu`), with the launch geometry of `host/` and CPU references.
//!
//! The families are `staticlib` crates (one fat-LTO PTX module each), which another crate
//! cannot link; their sources are included here as modules instead (`#[path]`), so these are
//! the same functions the PTX build compiles, entry for entry. On the host `device::kernel!`
//! makes each entry a plain `pub unsafe fn` and the `device` API runs on the emulator.
//!
//! - [`geometry`]: grid, block, shared memory and arguments of every entry, as `host/` launches
//!   them (copied from `host/src/copy.rs` and `host/src/gemm.rs`, each item naming its source);
//! - [`check`]: buffers with guard bytes, inputs, the CPU references and their error bounds;
//! - `tests/emu/`: every copy/transpose and GEMM entry (and the smoke and probe families) on
//!   small problems, and checks that a wrong kernel or a wrong result is caught.
//!
//! ```
//! use kernels_emu::{check, geometry};
//! // one 3x5 row-major f32 copy through `tiled_copy_row_f32_v4`
//! let v = &geometry::COPY_VARIANTS[0];
//! let case = check::CopyCase { m: 3, n: 5, lds: 8, ldd: 8, offset: 0 };
//! assert_eq!(check::run_copy(v, &case, 1), Ok(()));
//! ```

#![allow(internal_features)]
// `#[inline(always)]` closures in the hgemm epilogue (included below)
#![feature(stmt_expr_attributes)]
// `probe/src/typed.rs` is a private module of the probe family, included a second time to
// reach its entries.
#![allow(clippy::duplicate_mod)]
// Kernel bodies (included above, linted on the host only since they compile there) use
// `x % n == 0`; they are being rewritten on the typed layer, so the lint is not fixed here.
#![allow(clippy::manual_is_multiple_of)]

/// The fp32 attention reference (its doc tests run here; `tests/emu/attention_ref.rs` checks its
/// entries against `host`'s f64 CPU reference).
#[path = "../../../tests/kernels/attention_ref/src/lib.rs"]
pub mod attention_ref;
/// The bf16/fp16 GEMM's configuration and kernel parameters (`kernels/hgemm_kernel/src/config.rs`,
/// shared with the host): their doc tests run here.
#[path = "../../hgemm_kernel/src/config.rs"]
pub mod config;
#[path = "../../copy/src/lib.rs"]
pub mod copy;
#[path = "../../gemm_n/src/lib.rs"]
pub mod gemm_n;
#[path = "../../gemm_t/src/lib.rs"]
pub mod gemm_t;
/// The bf16/fp16 GEMM's epilogue conversions (`kernels/hgemm_kernel/src/epilogue.rs`; the entries need
/// TMA and an sm_90a tensor core): their doc tests run here.
#[path = "../../hgemm_kernel/src/epilogue.rs"]
pub mod hgemm_epilogue;
/// The bf16/fp16 Ampere GEMM (`mma.sync`, `ldmatrix`, `cp.async`): its entries run here.
#[path = "../../hgemm_sm80/src/lib.rs"]
pub mod hgemm_sm80;
#[path = "../../../tests/kernels/probe/src/lib.rs"]
pub mod probe;
/// The typed probes (a private module of the probe family, included again to reach them).
#[path = "../../../tests/kernels/probe/src/typed.rs"]
pub mod probe_typed;
#[path = "../../../tests/kernels/smoke/src/lib.rs"]
pub mod smoke;
/// The wgmma proof kernels' layouts (`tests/kernels/wgmma/src/tile.rs`; the entries themselves need an
/// sm_90a tensor core, which the emulator does not have): their doc tests run here.
#[path = "../../../tests/kernels/wgmma/src/tile.rs"]
pub mod wgmma_tile;

pub mod check;
pub mod geometry;
pub mod report;
