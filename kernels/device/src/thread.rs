//! Thread, block and grid indices (PTX special registers) and block barriers.
//!
//! Names follow `cuda_std::thread`.

#[cfg(target_arch = "nvptx64")]
use core::arch::nvptx;

/// `%tid.x`: this thread's index in its block along x.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: reading a special register has no preconditions.
        unsafe { nvptx::_thread_idx_x() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::thread_idx().0
    }
}
/// `%tid.y`.
#[inline(always)]
pub fn thread_idx_y() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_thread_idx_y() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::thread_idx().1
    }
}
/// `%tid.z`.
#[inline(always)]
pub fn thread_idx_z() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_thread_idx_z() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::thread_idx().2
    }
}
/// `%ctaid.x`: this block's index in the grid along x.
#[inline(always)]
pub fn block_idx_x() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_idx_x() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_idx().0
    }
}
/// `%ctaid.y`.
#[inline(always)]
pub fn block_idx_y() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_idx_y() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_idx().1
    }
}
/// `%ctaid.z`.
#[inline(always)]
pub fn block_idx_z() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_idx_z() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_idx().2
    }
}
/// `%ntid.x`: threads per block along x.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_dim_x() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_dim().0
    }
}
/// `%ntid.y`.
#[inline(always)]
pub fn block_dim_y() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_dim_y() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_dim().1
    }
}
/// `%ntid.z`.
#[inline(always)]
pub fn block_dim_z() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_block_dim_z() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::block_dim().2
    }
}
/// `%nctaid.x`: blocks in the grid along x.
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_grid_dim_x() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::grid_dim().0
    }
}
/// `%nctaid.y`.
#[inline(always)]
pub fn grid_dim_y() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_grid_dim_y() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::grid_dim().1
    }
}
/// `%nctaid.z`.
#[inline(always)]
pub fn grid_dim_z() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::_grid_dim_z() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::grid_dim().2
    }
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
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: reads a special register.
        unsafe {
            core::arch::asm!("mov.u32 {}, %laneid;", out(reg32) r, options(nomem, nostack, pure))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::lane_id()
    }
}

/// `bar.sync 0` (`__syncthreads`): waits for every thread of the block and orders
/// their shared/global memory accesses. Every thread of the block must reach it.
#[inline(always)]
pub fn sync_threads() {
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: a barrier; callers keep it in uniform control flow.
        unsafe { nvptx::_syncthreads() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::sync_threads()
    }
}

/// `bar.warp.sync 0xffffffff` (`__syncwarp`): waits for all lanes of the warp.
#[inline(always)]
pub fn sync_warp() {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { core::arch::asm!("bar.warp.sync -1;", options(nostack)) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::sync_warp(u32::MAX)
    }
}

/// `membar.gl` / `fence.sc.gpu`-class fence (`__threadfence`).
#[inline(always)]
pub fn thread_fence() {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { core::arch::asm!("membar.gl;", options(nostack)) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst)
    }
}

/// `trap`: aborts the kernel (the launch reports an error; in the emulator, a panic).
#[inline(always)]
pub fn trap() -> ! {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { nvptx::trap() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        panic!("trap")
    }
}
