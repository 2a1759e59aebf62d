//! A user's own kernel on `layout-types`: `Y = alpha·X + Y` for column-major `M × N`
//! matrices in CuTe's form: each block takes its 32×32 tile (`local_tile`), each of the block's
//! 256 threads its 4 elements of the tile (`local_partition` by a 32×8 column-major thread
//! layout: consecutive threads on consecutive rows, so every warp access is coalesced), and the
//! identity tensor, tiled and partitioned the same way, gives each element's `(row, column)` to
//! predicate the edges (`elem_less`). All static layout arithmetic folds at compile time.
//!
//! On any target but nvptx64 this crate is empty.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx))]

#[cfg(target_arch = "nvptx64")]
mod device {
    use core::arch::nvptx;
    use layout_types::prelude::*;

    /// `y = alpha·x + y` on `m × n` column-major matrices (`ldx`, `ldy` ≥ m).
    ///
    /// # Safety
    /// 256 threads per block, grid `(ceil(m/32), ceil(n/32))`; `x`, `y` hold the matrices.
    #[unsafe(no_mangle)]
    pub unsafe extern "ptx-kernel" fn tiled_axpy(
        m: i64,
        n: i64,
        alpha: f32,
        x: *const f32,
        ldx: i64,
        y: *mut f32,
        ldy: i64,
    ) {
        // SAFETY: special registers.
        let (t, bm, bn) = unsafe {
            (
                nvptx::_thread_idx_x() as i64,
                nvptx::_block_idx_x() as i64,
                nvptx::_block_idx_y() as i64,
            )
        };
        let tile = (_32, _32); // the block's tile of (M,N)
        let thr = layout!((_32, _8):(_1, _32)); // 256 threads over the tile: a warp per column
        let cta = (bm, bn);
        let m_x = make_tensor(make_gmem_ptr(x as *mut f32), layout!((m, n):(_1, ldx))); // (M,N)
        let m_y = make_tensor(make_gmem_ptr(y), layout!((m, n):(_1, ldy))); // (M,N)
        let c_mn = make_identity_tensor((m, n)); // (M,N) -> (m,n)
        let t_x = m_x.local_tile(tile, cta).local_partition(thr, t); // (_1,_4)
        let t_y = m_y.local_tile(tile, cta).local_partition(thr, t); // (_1,_4)
        let t_c = c_mn.local_tile(tile, cta).local_partition(thr, t); // (_1,_4) -> (m,n)
        for i in 0..t_y.size().value() as i32 {
            if elem_less(t_c.at(i).0, (m, n)) {
                // SAFETY: the (m,n) coordinate is inside both matrices.
                unsafe { t_y.write(i, alpha * t_x.read(i) + t_y.read(i)) };
            }
        }
    }

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        // SAFETY: ends the thread.
        unsafe { nvptx::trap() }
    }
}
