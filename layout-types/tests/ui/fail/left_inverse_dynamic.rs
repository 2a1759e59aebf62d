// left_inverse needs static strides; a runtime extent makes the layout dynamic.
use layout_types::prelude::*;

fn main() {
    let n: i64 = std::env::args().count() as i64;
    let a = layout!((n, _2):(_1, n));
    let _inv = left_inverse(a);
}
