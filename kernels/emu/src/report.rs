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

/// Runs every case of `kernel` through `run` (case, seed `seed0 + i`), fails with every failing
/// case listed, and records the count.
///
/// ```
/// kernels_emu::report::check_cases("example_entry", &[1, 2, 3], 0, |c, _| {
///     if *c > 0 { Ok(()) } else { Err("not positive".to_string()) }
/// });
/// ```
pub fn check_cases<C: std::fmt::Debug>(
    kernel: &str,
    cases: &[C],
    seed0: u64,
    run: impl Fn(&C, u64) -> Result<(), String>,
) {
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            run(c, seed0 + i as u64)
                .err()
                .map(|e| format!("{c:?}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{kernel}: {} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    record(kernel, cases.len());
}
