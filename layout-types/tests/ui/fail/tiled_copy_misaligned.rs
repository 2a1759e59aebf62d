// A padded smem tile (column stride 66 to avoid bank conflicts) breaks 128-bit alignment: each
// thread's 8 values are contiguous, but the threads of the next column start 66 elements later.
use layout_types::check::tiled_copy;
use layout_types::prelude::*;

fn main() {
    let gmem = layout!((_64, _8):(_1, _64));
    let smem = layout!((_64, _8):(_1, _66));
    let _copy = tiled_copy::<u16, 128, _, _, _, _>(
        gmem,
        smem,
        layout!((_8, _8):(_1, _8)),
        layout!((_8, _1):(_1, _0)),
    );
}
