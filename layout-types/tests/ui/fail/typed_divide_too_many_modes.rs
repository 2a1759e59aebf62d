// A 3-mode tiler for a 2-mode matrix: CuTe's static_assert "logical_divide: Too many modes in
// tiler."
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_8, _4):(_1, _8));
    let _ = logical_divide(a, (_2, _2, _2));
}
