// ldmatrix (not transposing) reads 8 halves along K per thread, but this A tile is M-major:
// the row's 8 halves are 32 elements apart (CuTe's copy_unpack cannot recast them to one
// uint128_t). The transposing atom SM75_U16x8_LDSM_T fits this tile.
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    let mut smem = [half_t(0); 32 * 16];
    let s_a = make_tensor(make_smem_ptr(smem.as_mut_ptr()), layout!((_32, _16):(_1, _32)));
    let mut frag = mma.get_slice(0i32).partition_fragment_a(&s_a);
    let thr = s2r.get_slice(0u32);
    unsafe { copy(&s2r, &thr.partition_s(&s_a), &thr.retile_d(&mut frag)) };
}
