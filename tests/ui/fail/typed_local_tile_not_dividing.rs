// A 12 x 8 static matrix cannot be tiled by 8 x 8 tiles: 8 does not divide 12.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_12, _8):(_1, _12));
    let _ = local_tile(a, (_8, _8), (0i32, 0i32));
}
