// left_inverse orders the modes by their static strides (CuTe's `static_assert(is_static<Stride>)`,
// "Left inverse requires static strides."): a runtime stride is rejected.
use layout_types::cute::prelude::*;

fn main() {
    let ld: i64 = std::env::args().count() as i64 + 7;
    let a = layout!((_8, _4):(_1, ld));
    let _inv = left_inverse(a);
}
