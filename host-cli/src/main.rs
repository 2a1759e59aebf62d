//! `host`: the project's CLI over the `host` library (see `host --help`).
//!
//! ```text
//! host run [--device N]                      every kernel's check: kernel/shape/PASS-FAIL/max error/time
//! host bench [copy|gemm|all] [--json|--csv] [--svg FILE]   progress, table, plot
//! host attention --batch B --heads H --seqlen-q S --head-dim D [--causal top-left|bottom-right] [--check] [--bench]
//! host gemm --m M [--n N] [--k K] [--ta] [--tb] [--check] [--bench]   one GEMM of your choice
//! host copy <check|bench|misaligned>         the tiled-copy kernels alone
//! host layout EXPR | --tv THR VAL | --coalescing GMEM THR   print/draw layouts
//! host eval                                  JSON Lines on stdin -> layout_types::text::eval -> stdout
//! host info                                  what the binary embeds (PTX arch, size, kernels)
//! ```
//!
//! Exit codes: 0 ok; 1 a check failed; 2 usage error or no GPU/driver (one line on stderr).

fn main() -> std::process::ExitCode {
    // Like every Unix filter: a closed stdout (`host info | head -5`) ends the process quietly
    // (SIGPIPE) instead of panicking in `println!` ("failed printing to stdout").
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    host_cli::cli::main()
}
