//! Programmatic dependent launch (sm_90, CUTLASS's `cutlass/arch/grid_dependency_control.h`):
//! `griddepcontrol`. A kernel launched with the driver's programmatic stream serialization
//! attribute may start while the kernel before it in the stream is still running; it must
//! [`wait_on_dependent_grids`] before its first access to global memory that kernel may
//! write or read, and the kernel before it may [`launch_dependent_grids`] to let it start
//! early. Without the attribute both are no-ops, as they are off the GPU (a CPU launch runs
//! alone).
//!
//! ```
//! use device::grid_dependency_control::*;
//! launch_dependent_grids(); // the next kernel in the stream may start its prologue
//! wait_on_dependent_grids(); // the previous kernel has finished and its writes are visible
//! ```

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `griddepcontrol.launch_dependents` (CUTLASS's `launch_dependent_grids`): the kernel after
/// this one in the stream, if launched programmatically dependent, may be scheduled once
/// every CTA of this grid has executed this or exited. Only when the next kernel starts depends
/// on it, not what it may read: that kernel still waits for this one's completion in
/// [`wait_on_dependent_grids`].
///
/// ```
/// device::grid_dependency_control::launch_dependent_grids();
/// ```
#[inline(always)]
pub fn launch_dependent_grids() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a scheduling hint; no memory is touched.
    unsafe {
        asm!(
            "griddepcontrol.launch_dependents;",
            options(nostack, preserves_flags)
        )
    }
}

/// `griddepcontrol.wait` (CUTLASS's `wait_on_dependent_grids`): blocks until the grids this
/// one depends on (the kernel before it in the stream, when launched programmatically
/// dependent) have completed and their memory operations are visible to this grid; returns at
/// once otherwise. A programmatically dependent kernel calls it before any access to global
/// memory the previous kernel may touch.
///
/// ```
/// device::grid_dependency_control::wait_on_dependent_grids();
/// ```
#[inline(always)]
pub fn wait_on_dependent_grids() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a wait; it orders this grid's later memory accesses after the previous grid's.
    unsafe {
        asm!("griddepcontrol.wait;", options(nostack, preserves_flags))
    }
}
