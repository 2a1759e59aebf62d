//! `host bench`: progress on stderr, then a table (or `--json` / `--csv`) of ours vs the
//! reference, and an SVG plot of throughput against size per family.
//!
//! Every run also saves its rows to `target/bench/<family>.json` and the plot to
//! `target/bench/<family>.svg` (or `--svg FILE`; with `all`, `FILE` gets `-<family>`).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::bench::BenchRow;

use super::progress::Bar;
use super::report::{bench_dir, csv, load_json, plot, suffixed, table, to_json, write};

/// Which benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// Tiled copies and transposes vs cudaMemcpy D2D.
    Copy,
    /// SGEMM vs cuBLAS.
    Gemm,
    /// Attention (bf16, issue #33's shapes) beside a cuBLAS bf16 GEMM.
    Attention,
    /// All of them.
    All,
}

/// How rows are printed on stdout.
#[derive(Clone, Copy, Debug, Args)]
#[group(multiple = false)]
pub struct FormatArgs {
    /// Rows as a JSON array.
    #[arg(long)]
    pub json: bool,
    /// Rows as CSV (header line first).
    #[arg(long)]
    pub csv: bool,
}

/// `host bench [copy|gemm|attention|all] [--json|--csv] [--svg FILE] [--device N]`,
/// `host bench --from FILE.json [--json|--csv] [--svg FILE]`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The benchmark family.
    #[arg(value_enum, default_value_t = Family::All)]
    family: Family,
    #[command(flatten)]
    format: FormatArgs,
    /// Where to draw the plot (default target/bench/<family>.svg).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Re-render rows saved by an earlier run (no GPU needed).
    #[arg(long, value_name = "FILE.json", conflicts_with = "family")]
    from: Option<PathBuf>,
    #[command(flatten)]
    device: super::DeviceArg,
}

/// Runs it; the exit code.
pub fn main(a: &BenchArgs) -> u8 {
    if let Some(from) = &a.from {
        return match load_json(from) {
            Ok(rows) => emit(&rows, &a.format, a.svg.as_ref(), false),
            Err(e) => {
                eprintln!("host bench: {e}");
                2
            }
        };
    }
    let families: Vec<&str> = match a.family {
        Family::Copy => vec!["copy"],
        Family::Gemm => vec!["gemm"],
        Family::Attention => vec!["attention"],
        Family::All => crate::bench::FAMILIES.to_vec(),
    };
    let ctx = match super::open("bench", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    eprintln!("device: {}", ctx.device());
    let mut rows = Vec::new();
    let mut failed = false;
    for f in families {
        let mut bar = Bar::new(f);
        let r = crate::bench::family(&ctx, f, &mut bar);
        bar.finish();
        match r {
            Ok(r) => rows.extend(r),
            Err(e) => {
                eprintln!("host bench: {f}: {e}");
                failed = true;
            }
        }
    }
    let code = emit(&rows, &a.format, a.svg.as_ref(), true);
    if failed { 1 } else { code }
}

/// Prints the rows in the chosen format; writes the plot(s) (and, for a fresh run, the JSON).
pub fn emit(rows: &[BenchRow], format: &FormatArgs, svg: Option<&PathBuf>, save_json: bool) -> u8 {
    if format.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(rows)).unwrap_or_default()
        );
    } else if format.csv {
        print!("{}", csv(rows));
    } else {
        print!("{}", table(rows));
    }
    let mut families: Vec<&str> = rows.iter().map(|r| r.family).collect();
    families.sort();
    families.dedup();
    let dir = bench_dir();
    for f in &families {
        let mine: Vec<BenchRow> = rows.iter().filter(|r| r.family == *f).cloned().collect();
        let path = match svg {
            Some(p) if families.len() == 1 => p.clone(),
            Some(p) => suffixed(p, f),
            None => dir.join(format!("{f}.svg")),
        };
        if let Err(e) = write(&path, &plot(&mine)) {
            eprintln!("host bench: {e}");
            return 1;
        }
        eprintln!("plot: {}", path.display());
        if save_json {
            let jp = dir.join(format!("{f}.json"));
            let text = serde_json::to_string_pretty(&to_json(&mine)).unwrap_or_default() + "\n";
            match write(&jp, &text) {
                Ok(()) => eprintln!("rows: {}", jp.display()),
                Err(e) => eprintln!("host bench: {e}"),
            }
        }
    }
    0
}
