//! The typed products (`logical_product`, `zipped_product`, `tiled_product`, `flat_product`,
//! `blocked_product`, `raked_product`) against C++ CuTe: every exact case of
//! `tests/data/cute-*_product.jsonl` with a layout tiler, written as typed Rust by the generator
//! of `layout-types/tests/typed_differential.rs` into `layout-types/tests/typed_differential/cases_products.rs` (kept in its own
//! binary: each case instantiates complement and composition, which is slow to compile), its
//! printed result compared with CuTe's text, static marks included.

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

    include!("../layout-types/tests/typed_differential/cases_products.rs");
}

/// Every generated product case prints CuTe's text.
#[test]
fn typed_products_match_cute() {
    check::all_match_cute(cases::CASE_FNS, cases::N_CASES, "typed product cases");
}
