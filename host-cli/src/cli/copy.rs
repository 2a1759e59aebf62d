//! `host copy`: the tiled-copy kernels alone (what the sanitizers run).

use clap::{Args, Subcommand};

use host::{CopyConfig, Error, Order};

use super::DeviceArg;
use super::progress::Bar;
use super::report::{check_table, table};

/// `host copy <check|bench|misaligned>`.
#[derive(Debug, Args)]
pub struct CopyArgs {
    #[command(subcommand)]
    what: CopyCommand,
    #[command(flatten)]
    device: DeviceArg,
}

#[derive(Debug, Clone, Copy, Subcommand)]
enum CopyCommand {
    /// The copy checks only, as `host run`'s table.
    Check,
    /// GB/s of every variant and of memcpy D2D, 1 MiB .. 1 GiB.
    Bench,
    /// Launch a 128-bit copy on a misaligned pointer: refused before launch, exit 1.
    Misaligned,
}

/// Runs it; the exit code.
pub fn main(a: &CopyArgs) -> u8 {
    let ctx = match super::open("copy", a.device.device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    match a.what {
        CopyCommand::Check => {
            let rows = crate::check::copy(&ctx);
            print!("{}", check_table(&rows));
            u8::from(rows.iter().any(|r| !r.pass))
        }
        CopyCommand::Bench => {
            let mut bar = Bar::new("copy");
            let r = crate::bench::copy(&ctx, &mut bar);
            bar.finish();
            match r {
                Ok(rows) => {
                    print!("{}", table(&rows));
                    0
                }
                Err(e) => super::fail("copy bench", &e),
            }
        }
        CopyCommand::Misaligned => {
            let r = (|| -> host::Result<()> {
                let s = ctx.default_stream();
                let src = s.alloc_zeros::<f32>(64 * 128 + 4)?;
                let mut dst = s.alloc_zeros::<f32>(64 * 128 + 4)?;
                let cfg = CopyConfig::new(Order::RowMajor, 64, 128);
                ctx.tiled_copy(&s, &cfg, &src.slice(1..), &mut dst)?;
                Ok(s.synchronize()?)
            })();
            match r {
                Ok(()) => eprintln!("host copy misaligned: the misaligned launch was NOT refused"),
                Err(e @ Error::Misaligned { .. }) => eprintln!("host copy: error: {e}"),
                Err(e) => eprintln!("host copy misaligned: unexpected: {e}"),
            }
            1
        }
    }
}
