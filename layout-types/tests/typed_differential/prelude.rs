// The scope the generated cases are compiled in (included by `typed_differential.rs` and
// `typed_differential_b.rs` inside their `mod cases`).
use layout_types::cute::prelude::*;
use layout_types::cute::tuple::IntTuple as _;
use layout_types::cute::typenum::{B0, B1, NInt, PInt, UInt, UTerm, Z0};
use std::fmt::Display;

/// The printed value of an IntTuple result.
#[allow(dead_code)]
fn t<T: IntTuple>(x: T) -> String {
    x.to_string_cute().to_string()
}
/// The printed value of a layout result.
#[allow(dead_code)]
fn tl<L: Display>(l: L) -> String {
    l.to_string()
}
