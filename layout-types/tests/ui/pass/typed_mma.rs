// The valid counterparts of the TiledMMA compile-fail cases: a dividing CTA tile and a K-major
// register-sourced GMMA build and run.
use device::wgmma::{MajorK, MajorMN};
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let mut c = [0f32; 64 * 64];
    let gc = make_tensor(make_gmem_ptr(c.as_mut_ptr()), layout!((_64, _64):(_1, _64)));
    let acc = mma.get_slice(0i32).partition_c(&gc);
    assert_eq!(acc.layout.shape().to_string_cute().to_string(), "((_2,_2),_2,_4)");
    let wg = make_tiled_mma(SM90_64x64x16_F32BF16BF16_RS::<MajorK, MajorMN>::new(), layout!((_1, _1, _1):(_0, _0, _0)));
    assert_eq!(wg.tile_shape().to_string_cute().to_string(), "(_64,_64,_16)");
}
