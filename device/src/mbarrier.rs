//! `mbarrier`: the 64-bit shared-memory barriers of sm_80/sm_90 (CuTe's `ClusterBarrier` and
//! `ClusterTransactionBarrier`, `cutlass/arch/barrier.h`), and the fences around them.
//!
//! A barrier counts arrivals and, on sm_90, *transaction bytes* (`expect_tx` raises the count
//! the phase waits for, a TMA load's `complete_tx` lowers it); a phase completes when every
//! expected thread has arrived and the byte count is back to zero, and the barrier then moves to
//! the next phase. Waiting is by *phase parity*: [`mbarrier_try_wait_parity`]`(bar, p)` is true
//! once the phase of parity `p` has completed. Kernels do not write that parity by hand: the
//! pipeline (`layout_types::cutlass::pipeline`) keeps it.
//!
//! On `nvptx64` each function is one PTX instruction (`asm!`). Elsewhere (host tests, the CPU
//! emulator's threads) the barrier is the same 64-bit word updated atomically with the same
//! semantics (arrival count, transaction bytes, phase bit), so the pipeline runs on the CPU.
//!
//! ```
//! use device::mbarrier::*;
//! let mut bar = 0u64;
//! let b = &raw mut bar;
//! unsafe {
//!     mbarrier_init(b, 1);                            // one arrival per phase
//!     assert!(!mbarrier_try_wait_parity(b, 0));       // phase 0 still open
//!     mbarrier_arrive_expect_tx(b, 64);               // arrive, and expect 64 bytes
//!     assert!(!mbarrier_try_wait_parity(b, 0));       // the bytes have not landed
//!     mbarrier_complete_tx(b, 64);                    // (the TMA unit does this on the GPU)
//!     assert!(mbarrier_try_wait_parity(b, 0));        // phase 0 complete
//!     assert!(!mbarrier_try_wait_parity(b, 1));       // phase 1 open
//! }
//! ```

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// A barrier's address in the form the barrier instructions take it (CuTe: `uint32_t smem_addr =
/// cast_smem_ptr_to_uint(&bar)`, once). On the GPU the 32-bit `.shared` address: converted once
/// from the generic pointer ([`SmemBarrier::new`], e.g. a pipeline's storage at init), then
/// moved by [`SmemBarrier::offset`] in 32-bit arithmetic, so a stage's barrier is `base + 8·i` in
/// uniform registers (`SYNCS... [UR+imm]`) instead of a 64-bit generic pointer converted at
/// each use. Off the GPU (host tests, the CPU emulator) the pointer itself, which the host
/// model of every barrier function uses. Every function of this module takes
/// `impl Into<SmemBarrier>`: a `*mut u64` converts at the call, as before.
///
/// ```
/// use device::mbarrier::*;
/// let mut bars = [0u64; 2];
/// let b = SmemBarrier::new(bars.as_mut_ptr()); // the one conversion
/// unsafe {
///     mbarrier_init(b.offset(1), 1);                 // bars[1]
///     mbarrier_arrive(b.offset(1));
///     assert!(mbarrier_try_wait_parity(&raw mut bars[1], 0));
/// }
/// assert_eq!(b.offset(1).smem_addr(), device::shared::cast_smem_ptr_to_uint(&raw const bars[1]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemBarrier {
    #[cfg(target_arch = "nvptx64")]
    addr: u32,
    #[cfg(not(target_arch = "nvptx64"))]
    ptr: *mut u64,
}

impl SmemBarrier {
    /// The barrier at `bar` (a generic pointer into shared memory; on the GPU one
    /// `cvta.to.shared`).
    ///
    /// ```
    /// let mut bar = 0u64;
    /// let _b = device::mbarrier::SmemBarrier::new(&raw mut bar);
    /// ```
    #[inline(always)]
    pub fn new(bar: *mut u64) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            SmemBarrier {
                addr: crate::shared::cast_smem_ptr_to_uint(bar),
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            SmemBarrier { ptr: bar }
        }
    }
    /// The barrier `i` barriers (8 bytes each) on: `base + 8·i`, 32-bit on the GPU.
    ///
    /// ```
    /// let mut bars = [0u64; 4];
    /// let b = device::mbarrier::SmemBarrier::new(bars.as_mut_ptr());
    /// assert_eq!(b.offset(3), device::mbarrier::SmemBarrier::new(&raw mut bars[3]));
    /// ```
    #[inline(always)]
    pub fn offset(self, i: u32) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            SmemBarrier {
                addr: self.addr.wrapping_add(8 * i),
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            SmemBarrier {
                ptr: self.ptr.wrapping_add(i as usize),
            }
        }
    }
    /// The 32-bit `.shared` address (off the GPU: the pointer's low 32 bits, as [`cast_smem_ptr_to_uint`](crate::shared::cast_smem_ptr_to_uint)).
    ///
    /// ```
    /// let mut bar = 0u64;
    /// let b = device::mbarrier::SmemBarrier::new(&raw mut bar);
    /// assert_eq!(b.smem_addr(), (&raw const bar) as usize as u32);
    /// ```
    #[inline(always)]
    pub fn smem_addr(self) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            self.addr
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.ptr as usize as u32
        }
    }
    /// The host model's pointer.
    #[cfg(not(target_arch = "nvptx64"))]
    #[inline(always)]
    fn ptr(self) -> *mut u64 {
        self.ptr
    }
}

impl From<*mut u64> for SmemBarrier {
    #[inline(always)]
    fn from(bar: *mut u64) -> Self {
        SmemBarrier::new(bar)
    }
}

/// `mbarrier.init.shared::cta.b64 [bar], count`: phase 0, `count` arrivals expected per phase,
/// no transaction bytes. Follow with [`fence_barrier_init`] (cluster) or a block barrier before
/// other threads use it.
///
/// # Safety
/// `bar` is an 8-byte aligned generic pointer into shared memory (on the host: any valid
/// 8-byte aligned `u64`); `1 <= count < 2^20`; no other thread uses the barrier during init.
///
/// ```
/// let mut bar = 0u64;
/// unsafe { device::mbarrier::mbarrier_init(&raw mut bar, 128) };
/// ```
#[inline(always)]
pub unsafe fn mbarrier_init(bar: impl Into<SmemBarrier>, count: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.init.shared::cta.b64 [{b}], {c};",
            b = in(reg32) bar.into().smem_addr(), c = in(reg32) count, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::init(bar.into().ptr(), count)
    }
}

/// `mbarrier.inval.shared::cta.b64 [bar]`: ends the barrier's life, so its shared memory may be
/// reused for anything else.
///
/// # Safety
/// As [`mbarrier_init`]; no thread uses the barrier afterwards.
///
/// ```
/// let mut bar = 0u64;
/// unsafe {
///     device::mbarrier::mbarrier_init(&raw mut bar, 1);
///     device::mbarrier::mbarrier_inval(&raw mut bar);
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_inval(bar: impl Into<SmemBarrier>) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.inval.shared::cta.b64 [{b}];",
            b = in(reg32) bar.into().smem_addr(), options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        bar.into().ptr().write_volatile(0)
    }
}

/// `mbarrier.arrive.shared::cta.b64 _, [bar]`: one arrival on the current phase (release
/// semantics at CTA scope).
///
/// # Safety
/// As [`mbarrier_init`], on an initialized barrier.
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_arrive(&raw mut bar);
///     assert!(mbarrier_try_wait_parity(&raw mut bar, 0));
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: impl Into<SmemBarrier>) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.arrive.shared::cta.b64 _, [{b}];",
            b = in(reg32) bar.into().smem_addr(), options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::update(bar.into().ptr(), 1, 0)
    }
}

/// `mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes`: raises the phase's transaction
/// count by `bytes`, then arrives once (what a TMA producer does before issuing its loads).
///
/// # Safety
/// As [`mbarrier_arrive`]; `bytes < 2^20`.
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_arrive_expect_tx(&raw mut bar, 16);
///     assert!(!mbarrier_try_wait_parity(&raw mut bar, 0));
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: impl Into<SmemBarrier>, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {n};",
            b = in(reg32) bar.into().smem_addr(), n = in(reg32) bytes, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::update(bar.into().ptr(), 1, bytes as i32)
    }
}

/// `mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], bytes`: raises the transaction count
/// without arriving.
///
/// # Safety
/// As [`mbarrier_arrive_expect_tx`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_expect_tx(&raw mut bar, 16);
///     mbarrier_arrive(&raw mut bar);
///     assert!(!mbarrier_try_wait_parity(&raw mut bar, 0));
///     mbarrier_complete_tx(&raw mut bar, 16);
///     assert!(mbarrier_try_wait_parity(&raw mut bar, 0));
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_expect_tx(bar: impl Into<SmemBarrier>, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [{b}], {n};",
            b = in(reg32) bar.into().smem_addr(), n = in(reg32) bytes, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::update(bar.into().ptr(), 0, bytes as i32)
    }
}

/// `mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], bytes`: lowers the transaction count
/// as if `bytes` had arrived (the TMA unit does this for its loads; used by the host model).
///
/// # Safety
/// As [`mbarrier_arrive_expect_tx`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_complete_tx(&raw mut bar, 8); // bytes may land before they are expected
///     mbarrier_arrive_expect_tx(&raw mut bar, 8);
///     assert!(mbarrier_try_wait_parity(&raw mut bar, 0));
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_complete_tx(bar: impl Into<SmemBarrier>, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [{b}], {n};",
            b = in(reg32) bar.into().smem_addr(), n = in(reg32) bytes, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::update(bar.into().ptr(), 0, -(bytes as i32))
    }
}

/// `mapa.shared::cluster.u32` + `mbarrier.arrive.shared::cluster.b64`: one arrival on the
/// barrier at the same shared-memory offset in the CTA of rank `cta_rank` of this cluster
/// (CUTLASS's `ClusterBarrier::arrive(cta_id, pred)`, the same PTX: a consumer releasing a
/// multicast stage in every CTA that wrote it). The arrive has the default `.release.cta`
/// semantics, as CUTLASS's: a `.release.cluster` arrive made every one of the GEMM's stage
/// releases wait as if for the warpgroup's `wgmma`s in flight (the kernel ran ~30% slower on
/// an H100). Off the GPU a cluster is one CTA: rank 0 is this CTA's barrier.
///
/// # Safety
/// As [`mbarrier_arrive`]; `cta_rank < %cluster_nctarank`, and that CTA's barrier is
/// initialized and alive.
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_arrive_cluster(&raw mut bar, 0);
///     assert!(mbarrier_try_wait_parity(&raw mut bar, 0));
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(bar: impl Into<SmemBarrier>, cta_rank: u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!("{{ .reg .b32 r; mapa.shared::cluster.u32 r, {b}, {c}; mbarrier.arrive.shared::cluster.b64 _, [r]; }}",
            b = in(reg32) bar.into().smem_addr(), c = in(reg32) cta_rank, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        assert!(
            cta_rank == 0,
            "mbarrier arrive on CTA {cta_rank}: off the GPU a cluster is one CTA"
        );
        host::update(bar.into().ptr(), 1, 0)
    }
}

/// `mbarrier.try_wait.parity.shared::cta.b64`: whether the phase of parity `parity` (0 or 1)
/// has completed; the hardware waits a bounded, short time before answering false, so a loop on
/// it still spins (attention's producer: 7 % of the kernel's instructions, doc/attention.md,
/// session 16): [`mbarrier_wait_parity`] loops on [`mbarrier_try_wait_parity_hint`] instead.
///
/// # Safety
/// As [`mbarrier_arrive`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 2);
///     mbarrier_arrive(&raw mut bar);
///     assert!(!mbarrier_try_wait_parity(&raw mut bar, 0)); // one of two arrivals
///     assert!(mbarrier_try_wait_parity(&raw mut bar, 1));  // the phase before phase 0
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_try_wait_parity(bar: impl Into<SmemBarrier>, parity: u32) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let done: u32;
        unsafe {
            asm!("{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{b}], {q}; selp.u32 {d}, 1, 0, p; }}",
                b = in(reg32) bar.into().smem_addr(), q = in(reg32) parity, d = out(reg32) done,
                options(nostack, preserves_flags))
        };
        done != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::phase(bar.into().ptr()) != parity & 1
    }
}

/// The suspend-time hint of [`mbarrier_wait_parity`]'s waits, in nanoseconds: 50 µs, the value
/// cuBLAS's and cuBLASLt's sm90 kernels (`nvjet`) wait with (their SASS's `NANOSLEEP.SYNCS 0xc350`).
pub const SUSPEND_HINT_NS: u32 = 50_000;

/// `mbarrier.try_wait.parity.shared::cta.b64` with a suspend-time hint (PTX's `suspendTimeHint`):
/// as [`mbarrier_try_wait_parity`], but a thread whose phase has not completed sleeps up to
/// `HINT_NS` nanoseconds (woken by the barrier unit: ptxas emits `NANOSLEEP.SYNCS`) before
/// answering false, instead of retrying at once: a waiting warp takes no issue slots from the
/// warps that share its scheduler.
///
/// # Safety
/// As [`mbarrier_arrive`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     assert!(mbarrier_try_wait_parity_hint::<SUSPEND_HINT_NS>(&raw mut bar, 1)); // the phase before
///     mbarrier_arrive(&raw mut bar);
///     assert!(mbarrier_try_wait_parity_hint::<SUSPEND_HINT_NS>(&raw mut bar, 0)); // phase 0 complete
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_try_wait_parity_hint<const HINT_NS: u32>(
    bar: impl Into<SmemBarrier>,
    parity: u32,
) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let done: u32;
        unsafe {
            asm!("{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{b}], {q}, {h}; selp.u32 {d}, 1, 0, p; }}",
                b = in(reg32) bar.into().smem_addr(), q = in(reg32) parity, h = const HINT_NS,
                d = out(reg32) done, options(nostack, preserves_flags))
        };
        done != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::phase(bar.into().ptr()) != parity & 1
    }
}

/// `mbarrier.test_wait.parity.shared::cta.b64`: whether the phase of parity `parity` has
/// completed, answered at once (no suspend: the non-blocking probe CUTLASS's
/// `ClusterBarrier::test_wait` is). A probe issued early and read later hides the barrier's
/// latency behind other work (`layout_types::cutlass::pipeline::PipelineConsumer::consumer_try_wait`).
///
/// # Safety
/// As [`mbarrier_arrive`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     assert!(!mbarrier_test_wait_parity(&raw mut bar, 0)); // phase 0 open
///     mbarrier_arrive(&raw mut bar);
///     assert!(mbarrier_test_wait_parity(&raw mut bar, 0));  // complete
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_test_wait_parity(bar: impl Into<SmemBarrier>, parity: u32) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let done: u32;
        unsafe {
            asm!("{{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [{b}], {q}; selp.u32 {d}, 1, 0, p; }}",
                b = in(reg32) bar.into().smem_addr(), q = in(reg32) parity, d = out(reg32) done,
                options(nostack, preserves_flags))
        };
        done != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe {
        host::phase(bar.into().ptr()) != parity & 1
    }
}

/// The parity of the phase `bar` is in (the one not yet completed): 0 or 1, from
/// [`mbarrier_test_wait_parity`] (a barrier whose phase of parity 0 has completed is in a phase
/// of parity 1). Lets a waiter that keeps no state find the phase to wait for, as long as
/// nothing can complete the phase between this read and the wait's start (CUTLASS carries a
/// `PipelineState` instead).
///
/// # Safety
/// As [`mbarrier_arrive`].
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     assert_eq!(mbarrier_phase(&raw mut bar), 0);
///     mbarrier_arrive(&raw mut bar);
///     assert_eq!(mbarrier_phase(&raw mut bar), 1);
///     mbarrier_wait_parity(&raw mut bar, 0); // the phase read before the arrival
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_phase(bar: impl Into<SmemBarrier>) -> u32 {
    unsafe { mbarrier_test_wait_parity(bar, 0) as u32 }
}

/// Waits until the phase of parity `parity` has completed: [`mbarrier_try_wait_parity_hint`] in a
/// loop (CUTLASS's `ClusterBarrier::wait`, with cuBLAS's suspend hint [`SUSPEND_HINT_NS`]: a
/// producer that waits for a free stage sleeps instead of spinning; measured, doc/performance.md
/// run `s16-hint`).
///
/// # Safety
/// As [`mbarrier_try_wait_parity`]; some thread (or TMA transfer) will complete the phase.
///
/// ```
/// use device::mbarrier::*;
/// let mut bar = 0u64;
/// unsafe {
///     mbarrier_init(&raw mut bar, 1);
///     mbarrier_arrive(&raw mut bar);
///     mbarrier_wait_parity(&raw mut bar, 0);
/// }
/// ```
#[inline(always)]
pub unsafe fn mbarrier_wait_parity(bar: impl Into<SmemBarrier> + Copy, parity: u32) {
    while !unsafe { mbarrier_try_wait_parity_hint::<SUSPEND_HINT_NS>(bar, parity) } {
        #[cfg(not(target_arch = "nvptx64"))]
        std::thread::yield_now();
    }
}

/// `fence.mbarrier_init.release.cluster` (CuTe's `fence_barrier_init`): makes this thread's
/// `mbarrier.init`s visible to the other CTAs of the cluster (and to the TMA unit) before a
/// cluster barrier. Nothing elsewhere.
///
/// ```
/// device::mbarrier::fence_barrier_init();
/// ```
#[inline(always)]
pub fn fence_barrier_init() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        asm!(
            "fence.mbarrier_init.release.cluster;",
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst)
}

/// The host model of a barrier word: `[0, 21)` pending arrivals, `[21, 42)` arrivals per phase,
/// `[42, 63)` the transaction count (two's complement, 21 bits), bit 63 the phase parity.
#[cfg(not(target_arch = "nvptx64"))]
mod host {
    use core::sync::atomic::{AtomicU64, Ordering};

    const BITS: u32 = 21;
    const MASK: u64 = (1 << BITS) - 1;

    fn fields(w: u64) -> (u64, u64, i32, u32) {
        let tx = ((w >> (2 * BITS)) & MASK) as i32;
        let tx = (tx << (32 - BITS)) >> (32 - BITS); // sign-extend 21 bits
        (w & MASK, (w >> BITS) & MASK, tx, (w >> 63) as u32)
    }
    fn word(pending: u64, count: u64, tx: i32, phase: u32) -> u64 {
        pending | count << BITS | ((tx as u32 as u64) & MASK) << (2 * BITS) | (phase as u64) << 63
    }

    pub(super) unsafe fn init(bar: *mut u64, count: u32) {
        assert!(
            (1..1 << 20).contains(&count),
            "mbarrier.init: count {count} outside [1, 2^20)"
        );
        let c = count as u64;
        unsafe { AtomicU64::from_ptr(bar) }.store(word(c, c, 0, 0), Ordering::SeqCst);
    }

    pub(super) unsafe fn phase(bar: *mut u64) -> u32 {
        fields(unsafe { AtomicU64::from_ptr(bar) }.load(Ordering::SeqCst)).3
    }

    /// `arrivals` arrivals and `tx` transaction bytes (+ expect, - complete); completes the
    /// phase when both reach zero.
    pub(super) unsafe fn update(bar: *mut u64, arrivals: u64, tx: i32) {
        let a = unsafe { AtomicU64::from_ptr(bar) };
        let mut cur = a.load(Ordering::SeqCst);
        loop {
            let (pending, count, t, phase) = fields(cur);
            assert!(count != 0, "mbarrier used before mbarrier.init");
            assert!(
                pending >= arrivals,
                "mbarrier: more arrivals than the {count} expected in a phase"
            );
            let (pending, t) = (pending - arrivals, t + tx);
            let next = if pending == 0 && t == 0 {
                word(count, count, 0, phase ^ 1)
            } else {
                word(pending, count, t, phase)
            };
            match a.compare_exchange_weak(cur, next, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return,
                Err(w) => cur = w,
            }
        }
    }
}
