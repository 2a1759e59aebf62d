// Rows stored as 3 x 2 blocks, divided into 4-row tiles: the tile does not fit the 3-row blocks
// (composition's Shape Divisibility Condition, inside the divide).
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!(((_3, _2), _8):((_1, _4), _16));
    let _ = zipped_divide(a, (_4, _2));
}
