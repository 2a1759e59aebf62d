//! `host run`: every kernel's check, then the randomized sweeps, as one table.

use crate::Progress as _;
use clap::Args;

use crate::check::{
    DEFAULT_ATTENTION_PROBLEMS, DEFAULT_COPY_SHAPES, DEFAULT_GEMM_PROBLEMS, DEFAULT_HGEMM_PROBLEMS,
    DEFAULT_SEED, SweepConfig,
};

use super::DeviceArg;
use super::progress::Bar;
use super::report::check_table;

/// `host run [--seed S] [--sweep-gemm N] [--sweep-copy N] [--sweep-hgemm N] [--sweep-attention N] [--only tma|hgemm|attention] [--device N]`.
#[derive(Debug, Args)]
#[command(
    after_help = "After the fixed checks, two randomized sweeps drawn from --seed: GEMM \
problems (M, N, K in 1..=3000, random transposes, alpha, beta, leading dimensions, base \
offsets) against cuBLAS within |ours-ref| <= 2*gamma(K+4)*(|alpha|*sum|a||b| + |beta|*|c|), \
gamma(n) = n*2^-24/(1-n*2^-24); copy/transpose shapes (M, N in 1..=5000) bit-exact; bf16/fp16 \
GEMM problems (M, N, K in 1..=3000, majorities, alpha, beta, padded leading dimensions, f32 or half \
C) against cuBLAS GemmEx within 2*gamma(K+2)*(sum|alpha*a*b| + |beta*c|) + 2*u_C*|ref| (u_C: \
2^-24 f32, 2^-8 bf16, 2^-11 f16) plus C's smallest subnormal; attention problems (seqlens \
1..=4096, head dims 64/128/256, GQA, causal top-left/bottom-right, varlen, strides) against the \
fp32 GPU reference within the bound of doc/attention.md (2u_16 + fp32 terms) * sum_j P_j|v_j|, \
LSE within its own, a second run bit-identical. Padding \
around every output must stay untouched. A failing problem gets its own row with every \
parameter; the same --seed reproduces it."
)]
pub struct RunArgs {
    /// Seed of the randomized sweeps (decimal or 0x-hex): sizes, arguments and data follow
    /// from it.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED, value_parser = parse_seed)]
    seed: u64,
    /// GEMM problems checked against cuBLAS in the randomized sweep (0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GEMM_PROBLEMS)]
    sweep_gemm: usize,
    /// Copy / transpose shapes checked bit-exactly in the randomized sweep (0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_COPY_SHAPES)]
    sweep_copy: usize,
    /// bf16/fp16 GEMM problems checked against cuBLAS GemmEx (0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HGEMM_PROBLEMS)]
    sweep_hgemm: usize,
    /// Attention problems checked against the fp32 GPU reference (0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ATTENTION_PROBLEMS)]
    sweep_attention: usize,
    /// bf16/fp16 GEMM problems run by the Ampere kernel (`kernels/hgemm_sm80`, forced on any
    /// GPU from sm_80 on, Hopper included) and checked against cuBLAS GemmEx like
    /// --sweep-hgemm's, after its fixed cases (0: none of them). Seed: --seed + 80.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HGEMM_PROBLEMS)]
    sweep_hgemm_sm80: usize,
    /// Only one section. `tma`: the TMA copies on the fixed shapes, the misaligned refusal, and
    /// the TMA problems of the copy sweep (as many as --sweep-copy). `hgemm`: the bf16/fp16
    /// GEMM's fixed cases, argument errors and its sweep (as many as --sweep-hgemm).
    /// `attention`: attention's fixed cases, argument errors and its sweep (as many as
    /// --sweep-attention).
    /// `hgemm_sm80`: the Ampere kernel's fixed cases, argument errors and its sweep (as many as
    /// --sweep-hgemm-sm80).
    #[arg(long, value_name = "SECTION", value_parser = ["tma", "hgemm", "hgemm_sm80", "attention"])]
    only: Option<String>,
    #[command(flatten)]
    device: DeviceArg,
}

impl RunArgs {
    /// The sweeps these flags ask for.
    fn sweeps(&self) -> SweepConfig {
        SweepConfig {
            seed: self.seed,
            gemm: self.sweep_gemm,
            copy: self.sweep_copy,
            hgemm: self.sweep_hgemm,
            attention: self.sweep_attention,
        }
    }
}

/// A seed: a decimal or `0x`-hexadecimal `u64`.
pub(super) fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse(),
    };
    r.map_err(|_| "expected a decimal or 0x-hex integer below 2^64".to_string())
}

/// `host run`: 0 when every row passes, 1 otherwise, 2 without a GPU.
pub fn main(a: &RunArgs) -> u8 {
    let ctx = match super::open("run", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    println!("{}", loaded_line(&ctx));
    let sweeps = a.sweeps();
    if sweeps.steps() > 0 {
        println!(
            "sweeps: seed {} ({} GEMM problems, {} copy shapes, {} bf16/fp16 GEMM problems, {} attention problems; `host run --seed {}` reproduces them)",
            sweeps.seed, sweeps.gemm, sweeps.copy, sweeps.hgemm, sweeps.attention, sweeps.seed
        );
    }
    let mut bar = Bar::new("run");
    let rows = match a.only.as_deref() {
        Some("tma") => crate::check::tma(&ctx, sweeps.seed, sweeps.copy, &mut bar),
        Some("hgemm") => crate::check::hgemm(&ctx, sweeps.seed, sweeps.hgemm),
        Some("attention") => {
            bar.set_total(2 + sweeps.attention);
            crate::check::attention(&ctx, sweeps.seed, sweeps.attention, &mut bar)
        }
        Some("hgemm_sm80") => hgemm_sm80(&ctx, a),
        _ => {
            let mut rows = crate::check::run_all_with(&ctx, &sweeps, &mut bar);
            if a.sweep_hgemm_sm80 > 0 {
                rows.extend(hgemm_sm80(&ctx, a));
            }
            rows
        }
    };
    bar.finish();
    print!("{}", check_table(&rows));
    u8::from(rows.iter().any(|r| !r.pass))
}

/// The Ampere GEMM forced ([`host::GemmKernel::Sm80`]): its fixed cases and
/// `--sweep-hgemm-sm80` problems of seed `--seed + 80`; a SKIP row where it is not loaded.
fn hgemm_sm80(ctx: &host::Context, a: &RunArgs) -> Vec<crate::check::CheckRow> {
    crate::check::unavailable(ctx, "hgemm_sm80", "hgemm_sm80_bf16_tn").unwrap_or_else(|| {
        crate::check::hgemm_with(
            ctx,
            a.seed.wrapping_add(80),
            a.sweep_hgemm_sm80,
            host::GemmKernel::Sm80,
        )
    })
}

/// `ptx: sm_90a (smoke, copy, ...), sm_80 (...); forced to sm_80`: which build of each family
/// the device loaded.
pub(super) fn loaded_line(ctx: &host::Context) -> String {
    let loaded = ctx.families();
    let parts: Vec<String> = ctx
        .archs()
        .iter()
        .map(|a| {
            let fams: Vec<&str> = loaded
                .iter()
                .filter(|(_, x)| x == a)
                .map(|(f, _)| *f)
                .collect();
            format!("{a} ({})", fams.join(", "))
        })
        .collect();
    let forced = ctx
        .forced_arch()
        .map_or(String::new(), |a| format!("; forced to {a} (--arch)"));
    format!("ptx: {}{forced}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse_in_decimal_and_hex() {
        assert_eq!(parse_seed("12"), Ok(12));
        assert_eq!(parse_seed("0x1F"), Ok(31));
        assert_eq!(parse_seed("0XfF"), Ok(255));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        for bad in ["", "x", "-1", "0x", "1.5", "18446744073709551616", "0xg"] {
            assert!(parse_seed(bad).is_err(), "{bad}");
        }
    }
}
