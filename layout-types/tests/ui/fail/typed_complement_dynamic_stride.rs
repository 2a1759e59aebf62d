// Two modes, one with a dynamic stride: CuTe orders the modes by their static strides, so the
// complement of a multi-mode layout needs static strides.
use layout_types::cute::prelude::*;

fn main() {
    let ld = 64i32;
    let a = layout!((_4, _8):(_1, ld));
    let _ = complement(a, _1024);
}
