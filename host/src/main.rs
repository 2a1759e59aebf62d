//! `host`: the project's CLI.
//!
//! ```text
//! host run [--device N]     run every kernel's check: kernel/shape/PASS-FAIL/max error/time
//! host bench [copy|gemm|all] [--json|--csv] [--svg FILE]   progress, table, plot (report.rs)
//! host eval                 JSON Lines on stdin -> layout_types::eval -> JSON Lines on stdout
//! host layout EXPR | --tv THR VAL | --coalescing GMEM THR   print/draw layouts (layout_cmd.rs)
//! host info                 what the binary embeds (PTX arch, size, kernels)
//! ```
//!
//! Exit codes: 0 ok; 1 a check failed; 2 usage error, not implemented, or no
//! GPU/driver (with a one-line reason on stderr).

mod bench;
mod checks;
mod copy;
mod eval;
mod gemm;
mod gpu;
mod kernels;
mod layout_cmd;
mod mma_svg;
mod quiet;
mod report;
mod svg;

use std::process::ExitCode;

const USAGE: &str = "usage: host <run [--device N] | bench [copy|gemm|all] [--json|--csv] [--svg FILE] | eval | layout EXPR [--svg FILE] | layout --tv THR VAL | layout --coalescing GMEM THR | info | help>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let code = match cmd.as_str() {
        "run" => run(rest),
        "eval" => eval::main(),
        "copy" => copy::main(rest),
        "gemm" => gemm::main(rest),
        "bench" => report::main(rest),
        "layout" => layout_cmd::main(rest),
        "info" => info(),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("host: unknown subcommand `{other}`; {USAGE}");
            2
        }
    };
    ExitCode::from(code as u8)
}

fn info() -> i32 {
    let ptx = cute_rs::KERNELS_PTX;
    println!("ptx arch: {}", cute_rs::KERNELS_PTX_ARCH);
    println!("ptx bytes: {}", ptx.len());
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR {
        println!("ptx error: {why}");
    }
    for l in ptx.lines() {
        if let Some(rest) = l.trim_start().strip_prefix(".visible .entry ") {
            println!("kernel: {}", rest.split('(').next().unwrap_or(rest));
        }
    }
    0
}

fn parse_device(rest: &[String]) -> Result<usize, String> {
    let mut device = 0;
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--device" => {
                let v = it.next().ok_or("--device needs a number")?;
                device = v
                    .parse()
                    .map_err(|_| format!("--device: `{v}` is not a number"))?;
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(device)
}

fn run(rest: &[String]) -> i32 {
    let device = match parse_device(rest) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("host run: {e}; {USAGE}");
            return 2;
        }
    };
    let gpu = match gpu::open(device) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("host run: no GPU: {why}");
            return 2;
        }
    };
    println!("device: {}", gpu.description);
    let k = match kernels::Kernels::load(&gpu) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("host run: loading kernels from the PTX module: {e}");
            return 1;
        }
    };
    let rows = checks::run_all(&gpu, &k);
    if checks::print_table(&rows) { 0 } else { 1 }
}
