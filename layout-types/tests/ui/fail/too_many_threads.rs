// A 32 x 64 thread layout is 2048 threads: a block has at most 1024.
use layout_types::check::thread_layout;
use layout_types::prelude::*;

fn main() {
    let _thr = thread_layout(layout!((_32, _64):(_1, _32)));
}
