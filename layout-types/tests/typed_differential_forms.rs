//! The forms of the typed layer that issue #39 added, against C++ CuTe: every exact case of
//! `tests/data/cute-*.jsonl` of `composition` by a tiler (a by-mode `[...]` tuple or a shape),
//! `coalesce` with a profile, `filter`, and `make_layout` with `LayoutRight`, written as typed
//! Rust by the generator (`typed_differential/generator.rs`, [`is_new_form`]) into
//! `typed_differential/cases_forms.rs`, its printed result compared with CuTe's text, static
//! marks included. Behind layout-types' `typed-full` feature (`cargo xtask test-full`), so that
//! `cargo xtask test` compiles no more cases; `tests/typed_forms.rs` checks each form on a few
//! cases there.
//!
//! [`is_new_form`]: ../typed_differential/generator.rs

#[path = "typed_differential/check.rs"]
mod check;

#[allow(unused_imports)]
mod cases {
    include!("typed_differential/prelude.rs");
    include!("typed_differential/cases_forms.rs");
}

/// Every generated case of the new forms prints CuTe's text.
#[test]
fn typed_forms_match_cute() {
    check::all_match_cute(cases::CASE_FNS, cases::N_CASES, "typed cases (new forms)");
}
