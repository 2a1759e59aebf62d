//! Part C of `typed_differential.rs` (the generated cases are dealt out to three binaries,
//! parts A, B and C, so that they compile in parallel): every case prints C++ CuTe's text, static
//! marks included. Behind layout-types' `typed-full` feature: `cargo xtask test-full`.

#[path = "typed_differential/check.rs"]
mod check;

#[allow(unused_imports)]
mod cases {
    macro_rules! part_a {
        ($($t:tt)*) => {};
    }
    macro_rules! part_b {
        ($($t:tt)*) => {};
    }
    macro_rules! part_c { ($($t:tt)*) => { $($t)* }; }
    include!("typed_differential/prelude.rs");
    include!("typed_differential/cases.rs");
}

/// Every generated case of part C prints CuTe's text.
#[test]
fn typed_results_match_cute_part_c() {
    check::all_match_cute(cases::CASE_FNS, cases::N_CASES, "typed cases (part C)");
}
