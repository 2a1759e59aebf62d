//! `mbarrier` (sm_90 transaction barriers), under `cuda_std`-like names: the instructions are
//! `layout_types::cute::arch::mbarrier`'s (one `asm!` each on the GPU; on the host the same
//! barrier word updated atomically, so the emulator's threads can use it).
//!
//! ```
//! let mut bar = 0u64;
//! unsafe {
//!     device::mbarrier::init(&raw mut bar, 1);
//!     device::mbarrier::arrive_expect_tx(&raw mut bar, 32);
//!     device::mbarrier::complete_tx(&raw mut bar, 32);
//!     device::mbarrier::wait_parity(&raw mut bar, 0);
//! }
//! ```

pub use layout_types::cute::arch::mbarrier::{
    fence_barrier_init as fence_init, mbarrier_arrive as arrive,
    mbarrier_arrive_cluster as arrive_cluster, mbarrier_arrive_expect_tx as arrive_expect_tx,
    mbarrier_complete_tx as complete_tx, mbarrier_expect_tx as expect_tx, mbarrier_init as init,
    mbarrier_inval as inval, mbarrier_phase as phase, mbarrier_try_wait_parity as try_wait_parity,
    mbarrier_wait_parity as wait_parity,
};
