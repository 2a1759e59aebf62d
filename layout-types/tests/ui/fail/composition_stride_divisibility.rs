// A tiler stepping by 6 over a first mode of size 4: CuTe's "Stride Divisibility Condition".
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _8):(_1, _8));
    let b = layout!(_2:_6);
    let _c = composition(a, b);
}
