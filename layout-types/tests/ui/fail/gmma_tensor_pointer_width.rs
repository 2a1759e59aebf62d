// A tensor over a GMMA atom for 16-bit elements through a pointer to 32-bit elements: CuTe's
// `make_tensor(smem_ptr<T>, ComposedLayout<Sw, smem_ptr_flag_bits<B>, L>)` asserts B == sizeof_bits<T>.
use layout_types::cute::atom::gmma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mut buf = [0u32; 256];
    let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), Layout_K_SW128_Atom::<u16>::new());
    let _ = t.ptr((1i32, 8i32));
}
