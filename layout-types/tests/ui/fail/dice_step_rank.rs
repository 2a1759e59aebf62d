// Step<_1, X, _1> (for an (M,N,K) tiler) applied to a 2-D layout.
use layout_types::prelude::*;

fn main() {
    let a = layout!((_128, _64):(_1, _128));
    let _p = a.dice((_1, X, _1));
}
