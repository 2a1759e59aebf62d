// ldmatrix.x4 gives each thread 8 halves; the B fragment of a 16x8x16 MMA has 4.
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let _tc = make_tiled_copy_b(SM75_U32x4_LDSM_N::new(), &mma);
}
