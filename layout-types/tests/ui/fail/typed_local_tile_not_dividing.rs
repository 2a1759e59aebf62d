// A 12 x 8 static matrix cannot be tiled by 8 x 8 tiles by the leaf form the tensor methods use
// (a kernel's rule: 8 does not divide 12; CuTe's `local_tile` gives a partial `ceil_div` tile).
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_12, _8):(_1, _12));
    let _ = local_tile_leaf(a, (_8, _8), (0i32, 0i32));
}
