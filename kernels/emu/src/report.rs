//! Case counts for `cargo xtask test`: with `CUTE_EMU_REPORT=<file>` set, every test appends
//! one line `<entry> <cases>` to the file, and xtask sums them up.

use std::io::Write;

/// Appends `entry cases` to `$CUTE_EMU_REPORT` (nothing when it is unset, or for 0 cases).
///
/// ```
/// kernels_emu::report::record("example_entry", 0); // 0 cases: never recorded
/// ```
pub fn record(entry: &str, cases: usize) {
    if cases == 0 {
        return;
    }
    if let Some(path) = std::env::var_os("CUTE_EMU_REPORT") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("CUTE_EMU_REPORT {}: {e}", path.to_string_lossy()));
        // one write per line: concurrent tests append whole lines
        f.write_all(format!("{entry} {cases}\n").as_bytes())
            .expect("writing the emulator report");
    }
}
