// 32 x 4 threads over a 16 x 8 tile: the threads span 32 rows, the tile has 16 (the leaf form
// the tensor methods use; CuTe's `local_partition` accepts it).
use layout_types::cute::prelude::*;

fn main() {
    let tile = layout!((_16, _8):(_1, _16));
    let thr = layout!((_32, _4):(_1, _32));
    let _ = local_partition_leaf(tile, thr, 5u32);
}
