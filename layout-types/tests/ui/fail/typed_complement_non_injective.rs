// (_4,_2):(_1,_2): the second mode (stride 2) starts inside the first (which spans 4): the layout
// is not injective, and CuTe's complement rejects it.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!((_4, _2):(_1, _2));
    let _ = complement(a, _16);
}
