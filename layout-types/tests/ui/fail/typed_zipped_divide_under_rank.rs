// The whole tiler `_` keeps the layout, and zipped_divide then reads it as (tile, rest): a 3-mode
// layout is not rank 2 (CuTe's static_assert in zip2_by: "Mismatched ranks").
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_4, _8, _4):(_16, _128, _1));
    let _ = zipped_divide(a, Underscore);
}
