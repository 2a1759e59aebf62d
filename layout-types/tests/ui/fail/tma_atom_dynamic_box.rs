// The transaction bytes of a TMA load come from the smem box's type: a box with a dynamic extent
// has no compile-time byte count, so it makes no pipeline.
use device::tma::TmaDescriptor;
use layout_types::cute::prelude::*;
use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};

fn main() {
    let d = TmaDescriptor::default();
    let _atom = TmaAtom::<TmaLoad, f32, Layout<(i32, _128), (_128, _1)>>::new(&d);
}
