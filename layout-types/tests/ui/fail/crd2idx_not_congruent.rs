// A 3-D coordinate for a 2-D layout.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_1, _4));
    let _i = a.crd2idx((_1, _2, _3));
}
