// A 4 x 2 register fragment has values 0..8: index 8 is outside.
use layout_types::cute::prelude::*;

fn main() {
    let f = Fragment::<f32, _>::new(make_layout_left((_4, _2)));
    let _ = f.at(_8);
}
