// A TiledCopy from a 32 x 8 tile into a 16 x 8 tile: the partitions hold 8 and 4 values.
use layout_types::cute::prelude::*;

fn main() {
    let mut a = [0f32; 256];
    let mut b = [0f32; 128];
    let sa = make_tensor(make_gmem_ptr(a.as_mut_ptr()), layout!((_32, _8):(_1, _32)));
    let sb = make_tensor(make_gmem_ptr(b.as_mut_ptr()), layout!((_16, _8):(_1, _16)));
    let tc = make_tiled_copy(UniversalCopy::<f32>::new(), layout!((_4, _8):(_1, _4)), layout!((_1, _1):(_0, _0)));
    let thr = tc.get_slice(0u32);
    unsafe { copy(&tc, &thr.partition_s(&sa), &thr.partition_d(&sb)) };
}
