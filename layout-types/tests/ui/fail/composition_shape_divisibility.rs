// A tiler of 4 elements lands in a layout mode of 3 elements (the (_3,_8) layout is not compact,
// so the two modes do not merge): CuTe's "Shape Divisibility Condition".
use layout_types::prelude::*;

fn main() {
    let a = layout!((_3, _8):(_1, _4));
    let b = layout!(_4:_1);
    let _c = composition(a, b);
}
