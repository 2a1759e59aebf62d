// Stepping by 4 over a mode of size 3 (then 4): CuTe's Stride Divisibility Condition.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_3, _4):(_4, _1));
    let _ = composition(a, layout!(_2:_4));
}
