// A rank-2 shape with a rank-3 stride.
use layout_types::prelude::*;

fn main() {
    let _a = layout!((_4, _8):(_1, _4, _32));
}
