// A swizzled tile whose swizzle acts on element offsets (a composed layout without CuTe's
// smem_ptr_flag_bits) is not a GMMA layout: GMMA swizzles the shared-memory address (CuTe's
// make_gmma_desc reads the swizzle from the tensor's swizzle_ptr). Here Sw<3,4,3> on half_t
// indices would be a 256-byte pattern, while the descriptor would say SW128.
use device::wgmma::MajorK;
use layout_types::cute::atom::gmma::*;
use layout_types::cute::prelude::*;
use layout_types::value::swizzle::Swizzle;

fn main() {
    let mut smem = [0u16; 64 * 64];
    let tile = make_composed_layout(Swizzle::<3, 4, 3>, layout!(((_8, _8), (_16, _1)):((_64, _512), (_1, _0))));
    let t = make_tensor(make_smem_ptr(smem.as_mut_ptr()), tile);
    let _ = make_gmma_desc(MajorK, &t);
}
