// An ldmatrix copy from a 64 x 32 A tile into the fragment of a 32 x 16 tile: 4 atoms per thread
// against 1.
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    let mut smem = [half_t(0); 64 * 32];
    let s_a = make_tensor(make_smem_ptr(smem.as_mut_ptr()), layout!((_64, _32):(_32, _1)));
    let small = make_tensor(Counting(0i32), layout!((_32, _16):(_16, _1)));
    let mut frag = mma.get_slice(0i32).partition_fragment_a(&small);
    let thr = s2r.get_slice(0u32);
    unsafe { copy(&s2r, &thr.partition_s(&s_a), &thr.retile_d(&mut frag)) };
}
