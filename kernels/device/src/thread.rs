//! Thread, block and grid indices (PTX special registers) and block barriers.
//!
//! Names follow `cuda_std::thread`.

use core::arch::nvptx;

/// `%tid.x`: this thread's index in its block along x.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_x() }
}
/// `%tid.y`.
#[inline(always)]
pub fn thread_idx_y() -> u32 {
    unsafe { nvptx::_thread_idx_y() }
}
/// `%tid.z`.
#[inline(always)]
pub fn thread_idx_z() -> u32 {
    unsafe { nvptx::_thread_idx_z() }
}
/// `%ctaid.x`: this block's index in the grid along x.
#[inline(always)]
pub fn block_idx_x() -> u32 {
    unsafe { nvptx::_block_idx_x() }
}
/// `%ctaid.y`.
#[inline(always)]
pub fn block_idx_y() -> u32 {
    unsafe { nvptx::_block_idx_y() }
}
/// `%ctaid.z`.
#[inline(always)]
pub fn block_idx_z() -> u32 {
    unsafe { nvptx::_block_idx_z() }
}
/// `%ntid.x`: threads per block along x.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    unsafe { nvptx::_block_dim_x() }
}
/// `%ntid.y`.
#[inline(always)]
pub fn block_dim_y() -> u32 {
    unsafe { nvptx::_block_dim_y() }
}
/// `%ntid.z`.
#[inline(always)]
pub fn block_dim_z() -> u32 {
    unsafe { nvptx::_block_dim_z() }
}
/// `%nctaid.x`: blocks in the grid along x.
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    unsafe { nvptx::_grid_dim_x() }
}
/// `%nctaid.y`.
#[inline(always)]
pub fn grid_dim_y() -> u32 {
    unsafe { nvptx::_grid_dim_y() }
}
/// `%nctaid.z`.
#[inline(always)]
pub fn grid_dim_z() -> u32 {
    unsafe { nvptx::_grid_dim_z() }
}

/// Global 1-D thread index: `block_idx_x * block_dim_x + thread_idx_x` (in `usize`).
#[inline(always)]
pub fn index_1d() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}

/// Total threads in a 1-D grid: `grid_dim_x * block_dim_x` (the grid-stride step).
#[inline(always)]
pub fn grid_size_1d() -> usize {
    grid_dim_x() as usize * block_dim_x() as usize
}

/// `%laneid`: this thread's lane in its warp (0..32).
#[inline(always)]
pub fn lane_id() -> u32 {
    let r: u32;
    // SAFETY: reads a special register.
    unsafe {
        core::arch::asm!("mov.u32 {}, %laneid;", out(reg32) r, options(nomem, nostack, pure))
    };
    r
}

/// `bar.sync 0` (`__syncthreads`): waits for every thread of the block and orders
/// their shared/global memory accesses. Every thread of the block must reach it.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a barrier; callers keep it in uniform control flow.
    unsafe { nvptx::_syncthreads() }
}

/// `bar.warp.sync 0xffffffff` (`__syncwarp`): waits for all lanes of the warp.
#[inline(always)]
pub fn sync_warp() {
    unsafe { core::arch::asm!("bar.warp.sync -1;", options(nostack)) }
}

/// `membar.gl` / `fence.sc.gpu`-class fence (`__threadfence`).
#[inline(always)]
pub fn thread_fence() {
    unsafe { core::arch::asm!("membar.gl;", options(nostack)) }
}

/// `trap`: aborts the kernel (the launch reports an error).
#[inline(always)]
pub fn trap() -> ! {
    unsafe { nvptx::trap() }
}
