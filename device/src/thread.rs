//! Thread, block and grid indices (PTX special registers) and block barriers.
//!
//! Names follow `cuda_std::thread`.

#[cfg(target_arch = "nvptx64")]
use core::arch::nvptx;

/// `%tid.x`: this thread's index in its block along x.
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(thread_idx_x() as usize) = 10 * thread_idx_x();
///     })
/// };
/// assert_eq!(out, [0, 10, 20, 30, 40, 50, 60, 70]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (2, 4, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add((thread_idx_y() * 2 + thread_idx_x()) as usize) = thread_idx_y();
///     })
/// };
/// assert_eq!(out, [0, 0, 1, 1, 2, 2, 3, 3]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (2, 2, 2), 0, || {
///         let o = p as *mut u32;
///         *o.add((thread_idx_z() * 4 + thread_idx_y() * 2 + thread_idx_x()) as usize) = thread_idx_z();
///     })
/// };
/// assert_eq!(out, [0, 0, 0, 0, 1, 1, 1, 1]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((4, 1, 1), (2, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add((block_idx_x() * 2 + thread_idx_x()) as usize) = block_idx_x();
///     })
/// };
/// assert_eq!(out, [0, 0, 1, 1, 2, 2, 3, 3]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((2, 4, 1), (1, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add((block_idx_y() * 2 + block_idx_x()) as usize) = block_idx_y();
///     })
/// };
/// assert_eq!(out, [0, 0, 1, 1, 2, 2, 3, 3]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 2, 4), (1, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add((block_idx_z() * 2 + block_idx_y()) as usize) = block_idx_z();
///     })
/// };
/// assert_eq!(out, [0, 0, 1, 1, 2, 2, 3, 3]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(thread_idx_x() as usize) = block_dim_x();
///     })
/// };
/// assert_eq!(out, [8; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (2, 4, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add((thread_idx_y() * 2 + thread_idx_x()) as usize) = block_dim_y();
///     })
/// };
/// assert_eq!(out, [4; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 1), (1, 1, 8), 0, || {
///         let o = p as *mut u32;
///         *o.add(thread_idx_z() as usize) = block_dim_z();
///     })
/// };
/// assert_eq!(out, [8; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((8, 1, 1), (1, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(block_idx_x() as usize) = grid_dim_x();
///     })
/// };
/// assert_eq!(out, [8; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 8, 1), (1, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(block_idx_y() as usize) = grid_dim_y();
///     })
/// };
/// assert_eq!(out, [8; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((1, 1, 8), (1, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(block_idx_z() as usize) = grid_dim_z();
///     })
/// };
/// assert_eq!(out, [8; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of `out`.
/// unsafe {
///     launch((2, 1, 1), (4, 1, 1), 0, || {
///         let o = p as *mut u32;
///         *o.add(index_1d()) = index_1d() as u32;
///     })
/// };
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
#[inline(always)]
pub fn index_1d() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}

/// Total threads in a 1-D grid: `grid_dim_x * block_dim_x` (the grid-stride step).
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: a grid-stride loop: every element written by exactly one thread.
/// unsafe {
///     launch((2, 1, 1), (2, 1, 1), 0, || {
///         let mut i = index_1d();
///         while i < 8 {
///             *(p as *mut u32).add(i) = i as u32;
///             i += grid_size_1d(); // 4 threads in the grid
///         }
///     })
/// };
/// assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
#[inline(always)]
pub fn grid_size_1d() -> usize {
    grid_dim_x() as usize * block_dim_x() as usize
}

/// `%laneid`: this thread's lane in its warp (0..32).
///
/// ```
/// use device::{emu::launch, thread::*};
///
/// let mut out = [0u32; 64];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element.
/// unsafe { launch((1, 1, 1), (64, 1, 1), 0, || *(p as *mut u32).add(thread_idx_x() as usize) = lane_id()) };
/// assert_eq!((out[31], out[32], out[33]), (31, 0, 1));
/// ```
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

/// `%globaltimer`: the GPU's global nanosecond timer (one clock for every SM: times of different
/// CTAs compare; CUDA's `globaltimer`). In the emulator: nanoseconds since the process's first
/// read.
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut t = [0u64; 2];
/// let p = t.as_mut_ptr() as usize;
/// // SAFETY: one thread writes both elements.
/// unsafe { launch((1, 1, 1), (1, 1, 1), 0, || { let o = p as *mut u64; *o = global_timer(); *o.add(1) = global_timer(); }) };
/// assert!(t[1] >= t[0]);
/// ```
#[inline(always)]
pub fn global_timer() -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u64;
        // SAFETY: reads a special register (volatile: each read is a new time).
        unsafe {
            core::arch::asm!("mov.u64 {}, %globaltimer;", out(reg64) r, options(nomem, nostack))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emu::global_timer()
    }
}

/// `%smid`: the SM this thread runs on. In the emulator: the block's linear index (one SM a
/// block).
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [9u32; 3];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each block's thread writes its own element.
/// unsafe { launch((3, 1, 1), (1, 1, 1), 0, || *(p as *mut u32).add(block_idx_x() as usize) = sm_id()) };
/// assert_eq!(out, [0, 1, 2]);
/// ```
#[inline(always)]
pub fn sm_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: reads a special register.
        unsafe {
            core::arch::asm!("mov.u32 {}, %smid;", out(reg32) r, options(nomem, nostack, pure))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let (x, y, z) = crate::emu::block_idx();
        let (gx, gy, _) = crate::emu::grid_dim();
        x + gx * (y + gy * z)
    }
}

/// `%gridid`: the launch's grid identifier (distinct for the launches a context runs at one
/// time; CUDA's `gridid`). In the emulator: 0.
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = 7u64;
/// let p = &mut out as *mut u64 as usize;
/// // SAFETY: one thread writes `out`.
/// unsafe { launch((1, 1, 1), (1, 1, 1), 0, || *(p as *mut u64) = grid_id()) };
/// assert_eq!(out, 0);
/// ```
#[inline(always)]
pub fn grid_id() -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u64;
        // SAFETY: reads a special register.
        unsafe {
            core::arch::asm!("mov.u64 {}, %gridid;", out(reg64) r, options(nomem, nostack, pure))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        0
    }
}

/// `bar.sync 0` (`__syncthreads`): waits for every thread of the block and orders
/// their shared/global memory accesses. Every thread of the block must reach it.
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element of shared memory and of `out`; every thread
/// // reaches the barrier before any reads another's element.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 32, || {
///         let s = device::shared::dynamic_shared_mem::<u32>();
///         let t = thread_idx_x() as usize;
///         *s.add(t) = t as u32;
///         sync_threads();
///         *(p as *mut u32).add(t) = *s.add(7 - t);
///     })
/// };
/// assert_eq!(out, [7, 6, 5, 4, 3, 2, 1, 0]);
/// ```
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

/// `barrier.sync ID, COUNT` (CUTLASS's `NamedBarrier::sync`, unaligned form): waits until
/// `COUNT` threads (a multiple of 32) have arrived at barrier `ID` (1..16; 0 is
/// [`sync_threads`]'s). Unlike `bar.sync`, the threads may reach it from different places in the
/// code, as a warp-specialized kernel's producer and consumer branches do; each warp must be
/// converged. In the emulator only the whole block (`COUNT` = the block's size) is emulated.
///
/// ```
/// device::kernel! {
///     /// Two halves of the block meet at named barrier 1 from different branches.
///     pub unsafe fn split(out: *mut u32) {
///         let t = device::thread::thread_idx_x();
///         if t < 32 {
///             unsafe { *out.add(t as usize) = t };
///             device::thread::named_barrier_sync::<1, 64>();
///         } else {
///             device::thread::named_barrier_sync::<1, 64>();
///             unsafe { *out.add(t as usize) = *out.add(t as usize - 32) + 100 };
///         }
///     }
/// }
/// let mut v = [0u32; 64];
/// let p = v.as_mut_ptr() as usize;
/// // SAFETY: 64 threads, 64 elements.
/// unsafe { device::emu::launch((1, 1, 1), (64, 1, 1), 0, || split(p as *mut u32)) };
/// assert_eq!(v[40], 108);
/// ```
#[inline(always)]
pub fn named_barrier_sync<const ID: u32, const COUNT: u32>() {
    const {
        assert!(
            ID < 16,
            "named_barrier_sync: the barrier id must be below 16"
        );
        assert!(
            COUNT > 0 && COUNT.is_multiple_of(32),
            "named_barrier_sync: the count must be a positive multiple of 32"
        );
    };
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a barrier; the caller gives it COUNT threads.
    unsafe {
        core::arch::asm!("barrier.sync {id}, {n};", id = const ID, n = const COUNT, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let d = crate::emu::block_dim();
        if d.0 * d.1 * d.2 != COUNT {
            panic!(
                "barrier.sync {ID}, {COUNT}: only a barrier of the whole block ({} threads) is emulated",
                d.0 * d.1 * d.2
            );
        }
        crate::emu::sync_threads()
    }
}

/// `barrier.arrive ID, COUNT` (CUTLASS's `NamedBarrier::arrive`): counts the calling warp's
/// threads at barrier `ID` without waiting; the barrier completes when `COUNT` threads have
/// arrived or synced ([`named_barrier_sync`]). A producer/consumer hand-off: the arriving
/// threads go on, the syncing ones wait for them. Not emulated (the emulator runs whole blocks
/// only): there it panics.
///
/// ```no_run
/// device::kernel! {
///     /// Warps 1.. publish a value; warp 0 waits for them at named barrier 1, they go on.
///     pub unsafe fn handoff(out: *mut u32) {
///         let t = device::thread::thread_idx_x();
///         if t < 32 {
///             device::thread::named_barrier_sync::<1, 64>();
///             unsafe { *out.add(t as usize) = *out.add(t as usize + 32) };
///         } else if t < 64 {
///             unsafe { *out.add(t as usize) = t };
///             device::thread::named_barrier_arrive::<1, 64>();
///         }
///     }
/// }
/// ```
#[inline(always)]
pub fn named_barrier_arrive<const ID: u32, const COUNT: u32>() {
    const {
        assert!(
            ID < 16,
            "named_barrier_arrive: the barrier id must be below 16"
        );
        assert!(
            COUNT > 0 && COUNT.is_multiple_of(32),
            "named_barrier_arrive: the count must be a positive multiple of 32"
        );
    };
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a barrier arrival; the caller gives it COUNT threads.
    unsafe {
        core::arch::asm!("barrier.arrive {id}, {n};", id = const ID, n = const COUNT, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    panic!("barrier.arrive {ID}, {COUNT}: named barriers are not emulated")
}

/// `bar.warp.sync 0xffffffff` (`__syncwarp`): waits for all lanes of the warp.
///
/// ```
/// use device::{emu::launch, thread::*};
///
/// let mut out = [0u32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: as for `sync_threads`, within one warp.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 128, || {
///         let s = device::shared::dynamic_shared_mem::<u32>();
///         let l = lane_id() as usize;
///         *s.add(l) = l as u32;
///         sync_warp();
///         *(p as *mut u32).add(l) = *s.add(l ^ 1);
///     })
/// };
/// assert_eq!((out[0], out[1], out[30]), (1, 0, 31));
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
/// let mut out = [0u32; 8];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element.
/// unsafe {
///     launch((1, 1, 1), (8, 1, 1), 0, || {
///         *(p as *mut u32).add(thread_idx_x() as usize) = 1;
///         thread_fence(); // the write is visible to the whole device before what follows
///     })
/// };
/// assert_eq!(out, [1; 8]);
/// ```
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
///
/// ```
/// use device::{emu::launch, thread::*};
///
/// use device::emu::try_launch;
/// // SAFETY: the kernel touches no memory.
/// let r = unsafe { try_launch((1, 1, 1), (4, 1, 1), 0, || if thread_idx_x() == 2 { trap() }) };
/// assert!(r.is_err()); // the launch reports the trapped thread
/// ```
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

/// `%clock64`: this SM's cycle counter (a `volatile` read: it stays where it is written among
/// the other instructions). For measuring builds (phase timestamps); in the emulator, the
/// nanoseconds since the first call.
///
/// ```
/// let (a, b) = (device::thread::clock64(), device::thread::clock64());
/// assert!(b >= a);
/// ```
#[inline(always)]
pub fn clock64() -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let c: u64;
        // SAFETY: reading a special register has no preconditions.
        unsafe {
            core::arch::asm!("mov.u64 {0}, %clock64;", out(reg64) c, options(nomem, nostack))
        };
        c
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_nanos() as u64
    }
}
