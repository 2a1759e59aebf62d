// A TiledMMA of 2x2 SM80 16x8x16 atoms covers a 32x16 tile of C; a 48x64 CTA tile is not a
// whole number of those tiles along M (CuTe would read past the tile without a word).
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let mut c = [0f32; 48 * 64];
    let gc = make_tensor(make_gmem_ptr(c.as_mut_ptr()), layout!((_48, _64):(_1, _48)));
    let _ = mma.get_slice(0i32).partition_c(&gc);
}
