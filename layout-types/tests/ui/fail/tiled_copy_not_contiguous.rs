// 128-bit copies of 2-byte elements need 8 contiguous values per thread, but each thread's 8
// values run down a column of a row-major tile, 32 elements apart.
use layout_types::check::tiled_copy;
use layout_types::prelude::*;

fn main() {
    let smem = layout!((_64, _32):(_32, _1)); // row-major
    let _copy = tiled_copy::<u16, 128, _, _, _, _>(
        smem,
        smem,
        layout!((_8, _32):(_1, _8)),  // 256 threads
        layout!((_8, _1):(_1, _0)),   // 8 values down a column
    );
}
