//! The `host` command line (clap derive): one module per subcommand over the `host` library,
//! plus rendering (`report`, `svg`) and progress bars (`progress`).
//!
//! Exit codes: 0 ok; 1 a check failed; 2 usage error or no GPU/driver (one line on stderr).

mod attention;
mod bench;
mod copy;
mod eval;
mod gemm;
mod info;
mod layout;
mod mma_svg;
mod progress;
mod report;
mod run;
pub mod svg;
mod wgmma;

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand};

use host::{Context, Error};

/// Run, check and benchmark cute-rs's GPU kernels; a CuTe layout calculator.
#[derive(Debug, Parser)]
#[command(
    name = "host",
    version,
    arg_required_else_help = true,
    after_help = "Exit codes: 0 ok, 1 a check failed, 2 usage error / no GPU (one line on stderr)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Load the PTX built for this architecture instead of, per family, the best one the
    /// device runs (e.g. `--arch sm_80` runs the Ampere build on an H100/H200; sets
    /// CUTE_RS_LOAD_ARCH). `host info` lists the embedded ones.
    #[arg(long, value_name = "ARCH", global = true)]
    arch: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every kernel against a CPU reference and cuBLAS, then the randomized GEMM and
    /// copy sweeps: kernel / shape / PASS-FAIL / max error / time.
    Run(run::RunArgs),
    /// Benchmark ours beside memcpy D2D / cuBLAS: progress, then a table (or JSON / CSV) and
    /// an SVG plot per family.
    Bench(bench::BenchArgs),
    /// Run one attention problem of your choice (--batch --heads --seqlen-q --head-dim),
    /// --check it against the fp32 reference, --bench it.
    Attention(attention::AttentionArgs),
    /// Run one GEMM of your choice (--m --n --k), or the GEMM checks / plan sweep.
    Gemm(gemm::GemmArgs),
    /// The tiled-copy kernels: checks, benchmark, misaligned-pointer refusal.
    Copy(copy::CopyArgs),
    /// The wgmma proof kernels (sm_90a) against a CPU reference, one row per configuration.
    Wgmma(wgmma::WgmmaArgs),
    /// A layout calculator: CuTe text / expressions, print_layout tables, SVG, TV layouts,
    /// coalescing.
    Layout(layout::LayoutArgs),
    /// JSON Lines on stdin ({"id","op","args"}) -> layout_types::text::eval -> JSON Lines on stdout.
    Eval,
    /// What this binary embeds: PTX arch, size, kernels.
    Info,
}

/// `--device N`.
#[derive(Clone, Copy, Debug, Args)]
struct DeviceArg {
    /// CUDA device ordinal.
    #[arg(long, value_name = "N", default_value_t = 0, global = true)]
    device: usize,
}

/// Parses the command line and runs it; the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(usage_error(&e)),
    };
    if let Some(arch) = &cli.arch {
        if !host::ptx::ARCHS.contains(&arch.as_str()) {
            eprintln!(
                "host: --arch {arch}: this binary embeds PTX for {} only",
                host::ptx::ARCHS.join(", ")
            );
            return ExitCode::from(2);
        }
        // SAFETY: single-threaded here, before any context exists.
        unsafe { std::env::set_var(host::ARCH_ENV, arch) };
    }
    let code = match &cli.command {
        Command::Run(a) => run::main(a),
        Command::Bench(a) => bench::main(a),
        Command::Attention(a) => attention::main(a),
        Command::Gemm(a) => gemm::main(a),
        Command::Copy(a) => copy::main(a),
        Command::Wgmma(a) => wgmma::main(a),
        Command::Layout(a) => layout::main(a),
        Command::Eval => eval::main(),
        Command::Info => info::main(),
    };
    ExitCode::from(code)
}

/// Prints help / version (exit 0) or a usage error as one line (exit 2).
fn usage_error(e: &clap::Error) -> u8 {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print(); // to stderr: `host` alone
            2
        }
        _ => {
            let sub = std::env::args()
                .nth(1)
                .filter(|a| !a.starts_with('-') && e.kind() != ErrorKind::InvalidSubcommand);
            let prefix = sub
                .as_deref()
                .map_or("host".to_string(), |s| format!("host {s}"));
            eprintln!("{prefix}: {}; see `{prefix} --help`", one_line(e));
            2
        }
    }
}

/// clap's message in one line, in this CLI's words where it has them.
fn one_line(e: &clap::Error) -> String {
    let value = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    match e.kind() {
        ErrorKind::InvalidSubcommand => {
            if let Some(s) = value(ContextKind::InvalidSubcommand) {
                return format!("unknown subcommand `{s}`");
            }
        }
        ErrorKind::UnknownArgument => {
            if let Some(a) = value(ContextKind::InvalidArg) {
                let what = if a.starts_with('-') {
                    "option"
                } else {
                    "argument"
                };
                return format!("unknown {what} `{a}`");
            }
        }
        _ => {}
    }
    // The message is the first paragraph (the usage and tips follow a blank line).
    let text = e.to_string();
    let para: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let msg = para.join(" ");
    let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
    if msg.is_empty() {
        "usage error".into()
    } else {
        msg.to_string()
    }
}

/// Opens device `ordinal` for subcommand `cmd` with the measuring overrides the `CUTE_RS_*`
/// variables set ([`host::Overrides::from_env`]); without a usable GPU, prints
/// `host <cmd>: no GPU: <why>` and returns the exit code 2, as for a variable's bad value
/// (checked first: refused before the device is opened).
fn open(cmd: &str, ordinal: usize) -> Result<Context, u8> {
    // a variable's bad value is a usage error (exit 2) whatever its error's kind
    let overrides = host::Overrides::from_env().map_err(|e| {
        eprintln!("host {cmd}: {e}");
        2u8
    })?;
    Context::open_with(ordinal, &crate::load_options())
        .map(|c| c.with_overrides(overrides))
        .map_err(|e| fail(cmd, &e))
}

/// Prints an error of subcommand `cmd` as one line; its exit code (2: no GPU, or a problem
/// refused before any launch ([`Error::is_refusal`]); else 1).
fn fail(cmd: &str, e: &Error) -> u8 {
    if e.is_unavailable() {
        eprintln!("host {cmd}: no GPU: {e}");
        2
    } else if e.is_refusal() {
        eprintln!("host {cmd}: {e}");
        2
    } else {
        eprintln!("host {cmd}: {e}");
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn one_line_messages() {
        let e = Cli::try_parse_from(["host", "frob"]).unwrap_err();
        assert_eq!(one_line(&e), "unknown subcommand `frob`");
        let e = Cli::try_parse_from(["host", "layout", "--frob", "_4:_1"]).unwrap_err();
        assert_eq!(one_line(&e), "unknown option `--frob`");
        let e = Cli::try_parse_from(["host", "gemm", "--m", "x"]).unwrap_err();
        assert!(one_line(&e).contains("--m"), "{}", one_line(&e));
        let e = Cli::try_parse_from(["host", "gemm", "--n", "5"]).unwrap_err();
        assert_eq!(
            one_line(&e),
            "the following required arguments were not provided: --m <M>"
        );
        let e = Cli::try_parse_from(["host", "bench", "frob"]).unwrap_err();
        assert!(
            one_line(&e).contains("[possible values: copy, gemm, attention, all]"),
            "{}",
            one_line(&e)
        );
    }
}
