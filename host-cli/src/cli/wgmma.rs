//! `host wgmma`: the wgmma proof kernels alone (the rows `host run` prints for them).

use clap::Args;

use super::DeviceArg;
use super::report::check_table;

/// `host wgmma [--seed S] [--device N]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Every wgmma_* entry (bf16/f16, SS/RS, K-/MN-major A and B, INTER/SW32/SW64/SW128 \
smem atoms, N in {8, 64, 128, 256}) computes C(64xN) = A(64x64)*B(Nx64)^T on one warpgroup from \
random multiples of 1/16, compared bit-exactly with the exact product. Needs an sm_90a GPU."
)]
pub struct WgmmaArgs {
    /// Seed of the inputs (decimal or 0x-hex); fresh each run by default (printed in the rows).
    #[arg(long, value_name = "S", value_parser = super::run::parse_seed)]
    seed: Option<u64>,
    #[command(flatten)]
    device: DeviceArg,
}

/// `host wgmma`: 0 when every configuration passes, 1 otherwise, 2 without a GPU.
pub fn main(a: &WgmmaArgs) -> u8 {
    let ctx = match super::open("wgmma", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    let seed = a.seed.unwrap_or_else(crate::check::fresh_seed);
    let rows = crate::check::wgmma(&ctx, seed);
    print!("{}", check_table(&rows));
    println!(
        "{} of {} configurations passed (seed {seed:#x})",
        rows.iter().filter(|r| r.pass).count(),
        rows.len()
    );
    u8::from(rows.iter().any(|r| !r.pass))
}
