// A profile with three modes for a rank-2 layout (CuTe's static_assert in `coalesce(layout,
// profile)`).
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_1, _4));
    let _ = coalesce_by(a, (_1, _1, _1));
}
