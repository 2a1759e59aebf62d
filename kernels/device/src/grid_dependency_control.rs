//! Programmatic dependent launch (sm_90) under CUTLASS's names: `griddepcontrol` of
//! `layout_types::cute::arch::grid_dependency_control`. A kernel the host launches with
//! programmatic stream serialization waits in [`wait_on_dependent_grids`] before it touches
//! global memory, and lets the next kernel start early with [`launch_dependent_grids`]; both
//! are no-ops without that launch attribute and in the emulator.
//!
//! ```
//! device::grid_dependency_control::launch_dependent_grids();
//! device::grid_dependency_control::wait_on_dependent_grids(); // off the GPU: returns at once
//! ```

pub use layout_types::cute::arch::grid_dependency_control::{
    launch_dependent_grids, wait_on_dependent_grids,
};
