// (_4,_3):(_2,_3): the stride 3 is not a multiple of 2, the size of the mode below it (CuTe's
// "Left inverse divisibility condition"): (3,0) and (0,2) both map to 6, no left inverse.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_4, _3):(_2, _3));
    let _inv = left_inverse(a);
}
