//! `y = alpha·x + y` on column-major `m × n` matrices, in CuTe's form: each block takes its
//! 32×32 tile (`local_tile`), each of the block's 256 threads its 4 elements of the tile
//! (`local_partition`), and the identity tensor, tiled and partitioned the same way, gives
//! each element's `(row, column)` to predicate the edges (`elem_less`).
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

use device::thread::{block_idx_x, block_idx_y, thread_idx_x};
use layout_types::cute::prelude::*;

device::kernel! {
    /// `y = alpha·x + y`; `x`, `y`: `m × n`, column-major, leading dimension `m`.
    ///
    /// # Safety
    /// 256 threads per block, grid `(ceil(m/32), ceil(n/32))`; `x` and `y` hold `m·n` floats.
    pub unsafe fn axpy(m: i64, n: i64, alpha: f32, x: *const f32, y: *mut f32) {
        let tile = (_32, _32); // the block's tile of (M,N)
        let thr = layout!((_32, _8):(_1, _32)); // 256 threads over the tile: a warp per column
        let (cta, tid) = ((block_idx_x() as i64, block_idx_y() as i64), thread_idx_x());
        let m_x = make_tensor(make_gmem_ptr(x as *mut f32), layout!((m, n):(_1, m))); // (M,N)
        let m_y = make_tensor(make_gmem_ptr(y), layout!((m, n):(_1, m))); // (M,N)
        let c_mn = make_identity_tensor((m, n)); // (M,N) -> (m,n)
        let t_x = m_x.local_tile(tile, cta).local_partition(thr, tid); // (_1,_4)
        let t_y = m_y.local_tile(tile, cta).local_partition(thr, tid); // (_1,_4)
        let t_c = c_mn.local_tile(tile, cta).local_partition(thr, tid); // (_1,_4) -> (m,n)
        for i in 0..t_y.size().value() as i32 {
            if elem_less(t_c.at(i).0, (m, n)) {
                // SAFETY: (m,n) coordinate inside both matrices.
                unsafe { t_y.write(i, alpha * t_x.read(i) + t_y.read(i)) };
            }
        }
    }
}
