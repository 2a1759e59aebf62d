// A byte swizzle Sw<3,1,3> over 32-bit elements moves parts of an element: CuTe's
// upcast<sizeof(T)>(Swizzle<B,M,S>) has NewM = M - log2(sizeof(T)) < 0.
use layout_types::cute::prelude::*;
use layout_types::cute::swizzle::SmemPtrFlag;
use layout_types::cute::typenum::P32;
use layout_types::value::swizzle::Swizzle;

fn main() {
    let mut buf = [0u32; 64];
    let s = make_composed_layout(Swizzle::<3, 1, 3>, layout!((_8, _8):(_8, _1)))
        .with_offset(SmemPtrFlag::<P32>::default());
    let t = make_tensor(make_smem_ptr(buf.as_mut_ptr()), s);
    let _ = t.ptr((1i32, 2i32));
}
