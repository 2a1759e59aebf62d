//! The checks and benchmarks of cute-rs's kernels, over the `host` library, and the `host`
//! command line that runs them (`src/main.rs`).
//!
//! ```sh
//! cargo xtask run    # build the PTX, print per-kernel resources, run every kernel's check on the GPU
//! cargo run --release -p host-cli -- gemm --m 4096 --dtype bf16 --check --bench
//! ```
//!
//! | module | what |
//! | --- | --- |
//! | [`check`] | the correctness suite of `host run`: fixed checks against CPU and cuBLAS references, the randomized sweeps and their error bounds |
//! | [`bench`](mod@bench) | benchmarks beside memcpy / cuBLAS / cuDNN ([`bench::BenchRow`]) |
//! | [`timing`] | how a launch is timed: CUDA events, sustained and burst modes |
//! | [`reference`](mod@reference) | the references the checks compare with (attention's CPU and GPU references, its bounds) |
//! | [`progress`] | [`Progress`]: how a long run reports its steps |
//!
//! A program that only runs kernels depends on `host` alone.

#![warn(missing_docs)]

pub mod bench;
pub mod check;
// The `host` binary's command line (`src/main.rs` calls `cli::main`): in the library so that its
// unit tests build with the library's (the binary is not built a second time as a test harness);
// its doc comments are clap's help text (`<family>`, `[PERM]`), not rustdoc's markup.
#[doc(hidden)]
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
pub mod cli;
pub mod progress;
pub mod reference;
pub mod row;
mod smoke;
pub mod timing;

pub use progress::Progress;

/// The [`host::LoadOptions`] every `host` subcommand opens its context with:
/// [`host::LoadOptions::from_env`] (`CUTE_RS_LOAD_ARCH`, `CUTE_RS_PTX_DIR`) with the check
/// kernels (`check_kernels::PTX_MODULES`: the probe, smoke, wgmma proof and attention reference
/// families, which the library does not embed) beside the library's modules. The checks of
/// [`check`] that launch those kernels need a context opened so.
///
/// ```no_run
/// let ctx = host::Context::open_with(0, &host_cli::load_options())?;
/// assert!(ctx.has_kernel("wgmma_ss_bf16_kk_sw128_n256") || ctx.device().capability.0 != 9);
/// # Ok::<(), host::Error>(())
/// ```
pub fn load_options() -> host::LoadOptions {
    host::LoadOptions {
        extra_modules: check_kernels::PTX_MODULES,
        ..host::LoadOptions::from_env()
    }
}
