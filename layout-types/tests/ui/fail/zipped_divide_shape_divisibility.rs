// Rows of a smem tile stored as 3 x 4 blocks, divided into 4-row tiles: the 4-row tile does not
// fit the 3-row blocks (Shape Divisibility Condition), reported for a divide in a kernel's
// configuration function.
use layout_types::prelude::*;

fn tiles() -> i64 {
    let smem = layout!(((_3, _4), _8):((_1, _4), _16));
    zipped_divide(smem, (_4, _8)).size().value()
}

fn main() {
    let _ = tiles();
}
