// Slicing row 4 out of a 4 x 8 layout.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_8, _1));
    let _row = a.slice((_4, Underscore));
}
