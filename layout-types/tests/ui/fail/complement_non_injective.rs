// (_4,_2):(_1,_2): the second mode (stride 2) overlaps the first (which spans 4): no complement.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_4, _2):(_1, _2));
    let _c = complement(a, _16);
}
