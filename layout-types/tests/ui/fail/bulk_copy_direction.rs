// A bulk copy atom (`SM90_BULK_COPY_S2G`) used from global to shared memory: `cp.async.bulk`
// of this kind only stores shared memory to global memory.
use layout_types::cute::atom::copy::BulkCopyS2G;
use layout_types::cute::prelude::*;

fn main() {
    let mut g = [0u32; 128];
    let mut s = [0u32; 128];
    let tc = make_tiled_copy(
        BulkCopyS2G::<u32, _64>::new(),
        layout!((_2, _1):(_1, _0)),
        layout!((_1, _64):(_0, _1)),
    );
    let tg = make_tensor(make_gmem_ptr(g.as_mut_ptr()), layout!((_2, _64):(_64, _1)));
    let ts = make_tensor(make_smem_ptr(s.as_mut_ptr()), layout!((_2, _64):(_64, _1)));
    let thr = tc.get_slice(0u32);
    unsafe { copy(&tc, &thr.partition_s(&tg), &thr.partition_d(&ts)) };
}
