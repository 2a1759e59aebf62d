//! `host attention`: one attention problem of your choice (run and time it, `--check` it
//! against the fp32 GPU reference, `--bench` it beside a cuBLAS GEMM).

use clap::{Args, ValueEnum};

use crate::check::AttentionCase;
use host::attention::launch::AttentionKernel;
use host::attention::{AttentionConfig, Causal, flops};

use super::DeviceArg;
use super::bench::{FormatArgs, emit};
use super::report::check_table;

/// The causal mask's alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CausalArg {
    /// torch's `is_causal`: query i sees keys 0..=i.
    TopLeft,
    /// FlashAttention's: query i sees keys 0..=i + seqlen_k - seqlen_q.
    BottomRight,
}

/// The element of Q, K, V and O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AttnDtype {
    /// bfloat16.
    Bf16,
    /// IEEE fp16.
    F16,
}

/// A size: a positive integer.
fn parse_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("`{s}`: must be a positive integer")),
    }
}

/// `host attention --batch B --heads H [--heads-kv H] --seqlen-q S [--seqlen-k S] --head-dim D
/// [--causal top-left|bottom-right] [--dtype bf16|f16] [--check] [--bench]`.
#[derive(Debug, Args)]
#[command(
    after_help = "O = softmax(scale*Q*K^T + mask)*V and LSE per query row; Q, K, V, O as \
(batch, seqlen, heads, head_dim), tight. TFLOP/s = 4*b*h*sq*sk*d / time, halved for causal. \
Exit codes: 0 ok, 1 a check failed, 2 usage error / refused before launch / no GPU."
)]
pub struct AttentionArgs {
    /// Sequences.
    #[arg(long, value_name = "B", value_parser = parse_size)]
    batch: usize,
    /// Query heads.
    #[arg(long, value_name = "H", value_parser = parse_size)]
    heads: usize,
    /// Key/value heads (default: --heads; GQA: a divisor of it).
    #[arg(long, value_name = "H", value_parser = parse_size)]
    heads_kv: Option<usize>,
    /// Query tokens per sequence.
    #[arg(long, value_name = "S", value_parser = parse_size)]
    seqlen_q: usize,
    /// Key tokens per sequence (default: --seqlen-q).
    #[arg(long, value_name = "S", value_parser = parse_size)]
    seqlen_k: Option<usize>,
    /// 64, 128 or 256.
    #[arg(long, value_name = "D", value_parser = parse_size)]
    head_dim: usize,
    /// A causal mask and its alignment.
    #[arg(long, value_enum)]
    causal: Option<CausalArg>,
    /// Element type.
    #[arg(long, value_enum, default_value_t = AttnDtype::Bf16)]
    dtype: AttnDtype,
    /// Compare with the fp32 GPU reference (and the CPU for small problems); exit 1 on a
    /// mismatch.
    #[arg(long)]
    check: bool,
    /// Time it beside a cuBLAS bf16 GEMM, interleaved (bf16 only).
    #[arg(long)]
    bench: bool,
    /// Measuring builds: write the phase trace of the last launch to FILE (little-endian u64
    /// words) and FILE.json (its layout); needs CUTE_RS_ATTENTION=pt or ptw (the `measure`
    /// build's trace entries).
    #[arg(long, value_name = "FILE")]
    trace: Option<std::path::PathBuf>,
    #[command(flatten)]
    format: FormatArgs,
    #[command(flatten)]
    device: DeviceArg,
}

impl AttentionArgs {
    fn config(&self) -> AttentionConfig {
        let mut c = AttentionConfig::new(
            self.batch,
            self.heads,
            self.seqlen_q,
            self.seqlen_k.unwrap_or(self.seqlen_q),
            self.head_dim,
        )
        .heads_kv(self.heads_kv.unwrap_or(self.heads));
        c.causal = self.causal.map(|c| match c {
            CausalArg::TopLeft => Causal::TopLeft,
            CausalArg::BottomRight => Causal::BottomRight,
        });
        c
    }
}

/// Runs it; the exit code.
pub fn main(a: &AttentionArgs) -> u8 {
    let cfg = a.config();
    // argument errors are usage errors, with or without a GPU
    if let Err(e) = cfg.lens() {
        eprintln!("host attention: {e}");
        return 2;
    }
    let dtype = match a.dtype {
        AttnDtype::Bf16 => "bf16",
        AttnDtype::F16 => "f16",
    };
    if a.bench && dtype != "bf16" {
        eprintln!("host attention: --bench is bf16 (the issue's shapes); drop --dtype f16");
        return 2;
    }
    let ctx = match super::open("attention", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Err(e) = host::attention::check_device(ctx.device()) {
        eprintln!("host attention: {e}");
        return 2;
    }
    // with --json / --csv, stdout holds the rows alone
    // the kernel that runs it (the tile heuristic, or `CUTE_RS_ATTENTION`)
    let kernel = cfg.check_shape().and_then(|p| match a.dtype {
        AttnDtype::Bf16 => AttentionKernel::selected::<host::half::bf16>(&ctx, &p),
        AttnDtype::F16 => AttentionKernel::selected::<host::half::f16>(&ctx, &p),
    });
    let kernel = match kernel {
        Ok((k, entry)) => format!("{entry} ({} tile)", k.describe()),
        Err(e) => return super::fail("attention", &e),
    };
    let info = format!(
        "device: {}\nproblem: {dtype} {cfg}, {:.3} TFLOP\nkernel: {kernel}",
        ctx.device(),
        flops(&cfg) / 1e12
    );
    if a.format.json || a.format.csv {
        eprintln!("{info}");
    } else {
        println!("{info}");
    }
    let mut code = 0;
    if a.check {
        let case = AttentionCase {
            dtype,
            cfg: cfg.clone(),
            data_seed: crate::check::DEFAULT_SEED,
            sharp: 3.0,
        };
        match crate::check::attention_case(&ctx, &case) {
            Ok(out) => {
                let row = out.to_row("attention", case.describe());
                print!("{}", check_table(std::slice::from_ref(&row)));
                code = u8::from(!row.pass);
            }
            Err(e) => return super::fail("attention --check", &e),
        }
    }
    if a.bench {
        let r = host::Cublas::new(&ctx, ctx.default_stream())
            .and_then(|blas| crate::bench::attention::attention_problem(&ctx, &blas, &cfg, None));
        match r {
            Ok(row) => code = code.max(emit(std::slice::from_ref(&row), &a.format, None, false)),
            Err(e) => return super::fail("attention --bench", &e),
        }
    }
    if let Some(path) = &a.trace {
        match write_trace(&ctx, path, &kernel) {
            Ok(()) => {}
            Err(e) => return super::fail("attention --trace", &e),
        }
    }
    if !a.check && !a.bench {
        let r = match a.dtype {
            AttnDtype::Bf16 => run_once::<host::half::bf16>(&ctx, &cfg),
            AttnDtype::F16 => run_once::<host::half::f16>(&ctx, &cfg),
        };
        match r {
            Ok(ms) => println!(
                "time: {ms:.3} ms, {:.1} TFLOP/s",
                flops(&cfg) / (f64::from(ms) * 1e9)
            ),
            Err(e) => return super::fail("attention", &e),
        }
    }
    code
}

/// The phase trace of the last launch (`host::attention::launch::take_trace`) to `path` (the
/// words, little-endian) and `path.json` (grid, rounds, the words' names).
fn write_trace(ctx: &host::Context, path: &std::path::Path, kernel: &str) -> host::Result<()> {
    use host::attention::launch::{TRACE_EVENTS, TRACE_PRODUCER_EVENTS, TRACE_ROLES, TRACE_WORDS};
    let Some((words, grid, rounds)) = host::attention::launch::take_trace(&ctx.default_stream())?
    else {
        return Err(host::Error::Unsupported(
            "no trace: run it with --bench (or --check) under CUTE_RS_ATTENTION=pt or ptw".into(),
        ));
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let io = |e: std::io::Error| host::Error::Unsupported(format!("{}: {e}", path.display()));
    std::fs::write(path, bytes).map_err(io)?;
    let names = |ev: &[(&str, usize)]| {
        ev.iter()
            .map(|(n, i)| format!("\"{n}\": {i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let meta = format!(
        "{{\"kernel\": \"{kernel}\", \"grid\": {grid}, \"rounds\": {rounds}, \"words\": {TRACE_WORDS}, \"roles\": {TRACE_ROLES}, \"consumer\": {{{}}}, \"producer\": {{{}}}}}\n",
        names(&TRACE_EVENTS),
        names(&TRACE_PRODUCER_EVENTS)
    );
    let mut j = path.as_os_str().to_owned();
    j.push(".json");
    std::fs::write(&j, meta).map_err(io)?;
    eprintln!(
        "trace: {} words ({grid} CTAs, {rounds} rounds) in {}",
        words.len(),
        path.display()
    );
    Ok(())
}

/// One launch on zeroed tensors after a warm-up; its GPU time in ms.
fn run_once<T: host::attention::AttnElement>(
    ctx: &host::Context,
    cfg: &AttentionConfig,
) -> host::Result<f32> {
    let s = ctx.default_stream();
    let lens = cfg.lens()?;
    let q = s.alloc_zeros::<T>(lens.q)?;
    let k = s.alloc_zeros::<T>(lens.k)?;
    let v = s.alloc_zeros::<T>(lens.v)?;
    let mut o = s.alloc_zeros::<T>(lens.o)?;
    let mut lse = s.alloc_zeros::<f32>(lens.lse)?;
    ctx.attention(&s, cfg, &q, &k, &v, &mut o, &mut lse)?;
    let flags = Some(host::cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = s.record_event(flags)?;
    ctx.attention(&s, cfg, &q, &k, &v, &mut o, &mut lse)?;
    let end = s.record_event(flags)?;
    Ok(start.elapsed_ms(&end)?)
}

#[cfg(test)]
mod tests {
    use super::super::Cli;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<super::AttentionArgs, String> {
        let mut v = vec!["host", "attention"];
        v.extend_from_slice(args);
        match Cli::try_parse_from(v) {
            Ok(cli) => match cli.command {
                super::super::Command::Attention(a) => Ok(a),
                other => Err(format!("{other:?}")),
            },
            Err(e) => Err(super::super::one_line(&e)),
        }
    }

    #[test]
    fn usage_errors_are_one_line() {
        let base = [
            "--batch",
            "2",
            "--heads",
            "8",
            "--seqlen-q",
            "100",
            "--head-dim",
            "128",
        ];
        let a = parse(&base).unwrap();
        let c = a.config();
        assert_eq!(
            (c.batch, c.heads, c.heads_kv, c.seqlen_k, c.causal),
            (2, 8, 8, 100, None)
        );
        let e = parse(&["--batch", "2", "--heads", "8", "--seqlen-q", "100"]).unwrap_err();
        assert!(e.contains("--head-dim"), "{e}");
        let e = parse(&[&base[..], &["--seqlen-k", "0"]].concat()).unwrap_err();
        assert!(e.contains("must be at least 1"), "{e}");
        let e = parse(&[&base[..], &["--causal", "diagonal"]].concat()).unwrap_err();
        assert!(e.contains("top-left"), "{e}");
        let a =
            parse(&[&base[..], &["--causal", "bottom-right", "--heads-kv", "2"]].concat()).unwrap();
        assert_eq!(
            a.config().causal,
            Some(host::attention::Causal::BottomRight)
        );
        // checked before any GPU: a head dim the kernel does not have, a GQA ratio
        let a = parse(&[
            "--batch",
            "1",
            "--heads",
            "8",
            "--seqlen-q",
            "9",
            "--head-dim",
            "96",
        ])
        .unwrap();
        assert_eq!(super::main(&a), 2);
        let a = parse(&[&base[..], &["--heads-kv", "3"]].concat()).unwrap();
        assert_eq!(super::main(&a), 2);
    }
}
