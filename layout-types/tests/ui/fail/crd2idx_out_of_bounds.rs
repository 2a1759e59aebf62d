// Column 8 of a 4 x 8 layout does not exist.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_1, _4));
    let _i = a.crd2idx((_2, _8));
}
