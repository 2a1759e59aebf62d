// A row-major 64x16 tile of 16-bit elements without a swizzle is not a canonical K-major GMMA
// layout: in 128-bit units its 8-row groups are 2 apart, INTERLEAVE needs them 1 apart (CuTe's
// "Not a canonical GMMA_K Layout: Expected stride failure").
use device::wgmma::MajorK;
use layout_types::cute::atom::gmma::*;
use layout_types::cute::prelude::*;

fn main() {
    let mut smem = [0u16; 64 * 16];
    let t = make_tensor(make_smem_ptr(smem.as_mut_ptr()), layout!((_64, _16):(_16, _1)));
    let _ = make_gmma_desc(MajorK, &t);
}
