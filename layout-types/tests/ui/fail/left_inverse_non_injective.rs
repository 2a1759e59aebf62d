// (_4,_3):(_2,_3) maps both (3,0) and (0,2) to 6: not injective, no left inverse.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _3):(_2, _3));
    let _inv = left_inverse(a);
}
