// A transposing ldmatrix atom moves 16-bit halves: it does not fit a 32-bit (tf32) operand.
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN::new(), layout!((_2, _1, _1):(_1, _2, _2)));
    let _tc = make_tiled_copy_a(SM75_U16x8_LDSM_T::new(), &mma);
}
