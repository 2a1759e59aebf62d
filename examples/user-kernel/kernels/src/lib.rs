//! A user's own kernel on `layout-types`: `Y = alpha·X + Y` for column-major `M × N`
//! matrices, one 32×32 tile per block, the tile split among 256 threads by a static
//! `zipped_divide` (each thread: 4 elements, consecutive threads on consecutive rows, so
//! every warp access is coalesced). All layout arithmetic folds at compile time.
//!
//! On any target but nvptx64 this crate is empty.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx))]

#[cfg(target_arch = "nvptx64")]
mod device {
    use core::arch::nvptx;
    use layout_types::prelude::*;

    /// The block tile, column-major: `(_32,_32):(_1,_32)`.
    type Tile = Layout<(_32, _32), (_1, _32)>;
    /// 256 threads, column-major over 32 rows × 8 columns.
    type Thr = Layout<(_32, _8), (_1, _32)>;
    /// `zipped_divide(Tile, Thr)`: ((thread), (value)) -> offset in the tile.
    type Part = ZippedDivide<Tile, Thr>;
    /// Values per thread: 32·32 / 256.
    const VALS: i64 = <Tile as StaticLayout>::SIZE / <Thr as StaticLayout>::SIZE;

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
        let mut v = 0;
        while v < VALS {
            // offset in the column-major 32x32 tile -> (row, column); static: shifts and masks
            let o = <Part as StaticLayout>::FLAT.crd(&[t, v]);
            let (r, c) = (bm * 32 + o % 32, bn * 32 + o / 32);
            if r < m && c < n {
                // SAFETY: (r, c) is inside both matrices.
                unsafe {
                    let yp = y.add((r + c * ldy) as usize);
                    *yp = alpha * *x.add((r + c * ldx) as usize) + *yp;
                }
            }
            v += 1;
        }
    }

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        // SAFETY: ends the thread.
        unsafe { nvptx::trap() }
    }
}
