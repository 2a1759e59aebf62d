//! `host run`: every kernel's check, as one table.

use super::progress::Bar;
use super::report::check_table;

/// `host run [--device N]`: 0 when every row passes, 1 otherwise, 2 without a GPU.
pub fn main(device: usize) -> u8 {
    let ctx = match super::open("run", device) {
        Ok(c) => c,
        Err(code) => return code,
    };
    println!("device: {}", ctx.device());
    let mut bar = Bar::new("run");
    let rows = host::check::run_all(&ctx, &mut bar);
    bar.finish();
    print!("{}", check_table(&rows));
    u8::from(rows.iter().any(|r| !r.pass))
}
