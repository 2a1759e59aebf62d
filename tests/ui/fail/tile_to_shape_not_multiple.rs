// A K-major 128-byte-swizzle GMMA atom of 16-bit elements is 8 rows by 64 columns: a 100-row
// shared-memory tile is not a whole number of atoms.
use layout_types::prelude::*;
use layout_types::static_mma::*;

type Smem = TileToShape<Layout_K_SW128_Atom<16>, (Int<100>, _64, _3)>;
const ELEMS: i64 = Smem::COSIZE;

fn main() {
    let _ = ELEMS;
}
