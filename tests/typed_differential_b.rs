//! Part B of `tests/typed_differential.rs` (the generated cases are split in two halves so that
//! the two test binaries compile in parallel): every case prints C++ CuTe's text, static marks
//! included.

#[allow(unused_imports)]
mod cases {
    macro_rules! part_a {
        ($($t:tt)*) => {};
    }
    macro_rules! part_b { ($($t:tt)*) => { $($t)* }; }
    include!("typed_differential/prelude.rs");
    include!("typed_differential/cases.rs");
}

/// Every generated case of part B prints CuTe's text.
#[test]
fn typed_results_match_cute_part_b() {
    let mut fails = Vec::new();
    let mut n = 0;
    for f in cases::CASE_FNS {
        for (id, expected, got) in f() {
            n += 1;
            if got != expected {
                fails.push(format!("  {id}: expected {expected}, got {got}"));
            }
        }
    }
    assert_eq!(n, cases::N_CASES);
    println!("{n} typed cases (part B), {} mismatches", fails.len());
    assert!(
        fails.is_empty(),
        "{} of {n} typed cases differ from CuTe:\n{}",
        fails.len(),
        fails.join("\n")
    );
}
