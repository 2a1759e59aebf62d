// Mode 0 of `((_3,_4),_8):((_1,_8),_32)` composed with `_2:_4` steps by 4 over a mode of size 3:
// CuTe's Stride Divisibility Condition, checked by the by-mode composition too.
use layout_types::cute::prelude::*;

fn main() {
    let a = layout!(((_3, _4), _8):((_1, _8), _32));
    let _ = composition(a, (layout!(_2:_4), Underscore));
}
