// A by-mode tiler with three modes cannot compose with a rank-2 layout (CuTe's static_assert:
// Mismatched ranks).
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_1, _4));
    let _ = composition(a, (_2, _2, _2));
}
