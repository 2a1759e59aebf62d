// `max_common_vector` composes `a` with `right_inverse(b)` (here `_4:_1`: b's stride-1 run of 4);
// `a`'s first mode has 3 elements (the (_3,_8) layout is not compact, its modes do not merge), which
// do not divide 4: CuTe's "Shape Divisibility Condition", a static_assert in C++ as here.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_3, _8):(_1, _4));
    let b = layout!((_4, _6):(_1, _8));
    let _v = max_common_vector(a, b);
}
