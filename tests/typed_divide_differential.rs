//! The typed divides through composition and complement (`logical_divide`, `zipped_divide`,
//! `tiled_divide`, `flat_divide` with a layout tiler, a by-mode tiler of layouts, or an integer
//! tile over a nested mode) against C++ CuTe: every such exact case of
//! `tests/data/cute-*_divide.jsonl`, written as typed Rust by the generator of
//! `layout-types/tests/typed_differential.rs` into
//! `layout-types/tests/typed_differential/cases_divides.rs` (kept in its own binary: each case
//! instantiates coalesce, complement and composition, which is slow to compile), its printed
//! result compared with CuTe's text, static marks included. The divides by shape tilers over leaf
//! modes are in the `typed_differential*` binaries of `layout-types`; CI covers these with
//! `tests/typed_props.rs` (against the value algebra).

#[path = "../layout-types/tests/typed_differential/check.rs"]
mod check;

#[allow(unused_imports)]
mod cases {
    use cute_rs::layout_types::cute::prelude::*;
    use cute_rs::layout_types::cute::typenum::{B0, B1, NInt, PInt, UInt, UTerm, Z0};
    use std::fmt::Display;

    /// The printed value of a layout result.
    fn tl<L: Display>(l: L) -> String {
        l.to_string()
    }

    include!("../layout-types/tests/typed_differential/cases_divides.rs");
}

/// Every generated divide case prints CuTe's text.
#[test]
fn typed_divides_match_cute() {
    check::all_match_cute(cases::CASE_FNS, cases::N_CASES, "typed divide cases");
}
