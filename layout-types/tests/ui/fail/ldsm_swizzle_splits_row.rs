// An element-unit Swizzle<3,2,3> over halves keeps only 4 halves (8 bytes) in place, so the
// 16-byte row each thread points ldmatrix at would not be contiguous: CuTe's
// upcast<uint128_t>(Swizzle<B,M,S>) has NewM < 0.
use layout_types::cute::atom::mma::*;
use layout_types::cute::prelude::*;
use layout_types::value::swizzle::Swizzle;

fn main() {
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
    let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
    let mut smem = [half_t(0); 32 * 32];
    let tile = make_composed_layout(Swizzle::<3, 2, 3>, layout!((_32, _32):(_32, _1)));
    let s_a = make_tensor(make_smem_ptr(smem.as_mut_ptr()), tile);
    let _ = s2r.get_slice(0u32).partition_s(&s_a);
}
