// A K-major 128-byte-swizzle GMMA atom of 16-bit elements is 8 rows by 64 columns: a 100-row
// shared-memory tile is not a whole number of atoms.
use layout_types::cute::atom::gmma::*;
use layout_types::cute::prelude::*;

fn main() {
    let smem = tile_to_shape(
        Layout_K_SW128_Atom::<u16>::new(),
        (Int::<100>::new(), _64, _3),
        LayoutLeft,
    );
    let _ = smem.crd2idx((1i32, 2i32, 0i32));
}
