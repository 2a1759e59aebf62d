// TMA writes a box dense: a padded smem layout (row stride 132 for 128 columns) is not one.
use device::tma::TmaDescriptor;
use layout_types::cute::prelude::*;
use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};

type Padded = Layout<(_32, _128), (Int<132>, _1)>;

fn main() {
    let d = TmaDescriptor::default();
    let _atom = TmaAtom::<TmaLoad, f32, Padded>::new(&d);
}
