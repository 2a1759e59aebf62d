//! The CPU emulator (host targets only): runs kernel entries on OS threads, one per CUDA
//! thread, so kernel correctness can be tested without a GPU.
//!
//! [`launch`] runs a grid: blocks are spread over the machine's cores (each worker takes the
//! next block), and every thread of a block is an OS thread with its CTA context in a
//! thread-local (`thread_idx_*`, `block_idx_*`, `block_dim_*`, `grid_dim_*`). The rest of the
//! `device` API dispatches here when not compiled for `nvptx64`:
//!
//! | device API | emulation |
//! | --- | --- |
//! | `sync_threads` | a counting barrier over the block's threads; a thread that returns leaves it (as an exited warp does on the GPU) |
//! | `dynamic_shared_mem` | a per-block buffer of `smem_bytes`, poisoned with `0xff` bytes (every `f32` a NaN) so reads of unwritten shared memory show |
//! | `to_shared_addr`, `ld/st.shared` | 32-bit shared addresses into that buffer, bounds- and alignment-checked |
//! | `ld/st.global.v4`, `ld.global.nc` | plain accesses, 16-byte alignment asserted (the GPU faults), never into shared memory |
//! | `cp.async` | the source is read at issue, the shared destination written at the `wait_group` that covers it (or `wait_all`, or thread exit): a read before the wait sees poison |
//! | `red.global.add.f32` | an atomic compare-and-swap loop |
//! | `shfl.sync`, `bar.warp.sync`, `ldmatrix`, `mma.sync` | per-warp exchange through a warp barrier; the mask must name exactly the warp's threads, all still running |
//! | `trap`, a panic | the launch fails with the block and thread that panicked |
//!
//! Not modeled: timing and occupancy, the GPU memory model beyond what barriers order (a race
//! between threads is a host data race, not a detected error), warp-synchronous behavior other
//! than the collectives above (threads of a warp do not run in lock step), launch bounds.
//!
//! ```
//! use device::emu::launch;
//! use device::thread::{block_dim_x, block_idx_x, sync_threads, thread_idx_x};
//! let mut out = vec![0u32; 8];
//! let p = out.as_mut_ptr() as usize;
//! // SAFETY: each thread writes its own element of `out`, which outlives the launch.
//! unsafe {
//!     launch((2, 1, 1), (4, 1, 1), 0, || {
//!         let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as usize;
//!         sync_threads();
//!         *(p as *mut u32).add(i) = 10 * i as u32;
//!     })
//! };
//! assert_eq!(out, [0, 10, 20, 30, 40, 50, 60, 70]);
//! ```

use std::any::Any;
use std::boxed::Box;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::format;
use std::string::{String, ToString};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use std::vec::Vec;

/// Grid or block dimensions `(x, y, z)`.
pub type Dim3 = (u32, u32, u32);

/// The address [`crate::shared::to_shared_addr`] gives the first byte of dynamic shared memory
/// (not 0, as on the GPU, where the window starts with reserved and static shared memory).
pub const SHARED_BASE: u32 = 0x400;

/// Bytes of dynamic shared memory a block may ask for (the H100's 227 KiB).
pub const MAX_SHARED_BYTES: u32 = 227 * 1024;

/// Byte every shared-memory buffer is filled with before a block starts (`0xffffffff` is a NaN).
pub const SHARED_POISON: u8 = 0xff;

/// How long a barrier waits before it reports a deadlock.
const BARRIER_TIMEOUT: Duration = Duration::from_secs(120);

/// Stack of each emulated thread (the emulator's builds are unoptimized: the GEMM epilogue's
/// unrolled paths, registers and shared memory both in one doc test, overflowed 2 MiB).
const STACK_BYTES: usize = 4 << 20;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The payload of a thread unwound because another thread of its block panicked (not reported).
struct Aborted;

fn abort_unwind() -> ! {
    std::panic::resume_unwind(Box::new(Aborted))
}

/// A counting barrier: `live` threads take part; one that exits leaves it. Waiters park and
/// the last arrival unparks exactly them (no thundering herd on a mutex: a block's 256
/// threads on two cores pass a barrier in a few hundred microseconds).
struct Barrier {
    what: &'static str,
    state: Mutex<BarrierState>,
    generation: AtomicU64,
    aborted: AtomicBool,
}

struct BarrierState {
    live: u32,
    arrived: u32,
    waiting: Vec<std::thread::Thread>,
}

impl Barrier {
    fn new(what: &'static str, live: u32) -> Barrier {
        Barrier {
            what,
            state: Mutex::new(BarrierState {
                live,
                arrived: 0,
                waiting: Vec::new(),
            }),
            generation: AtomicU64::new(0),
            aborted: AtomicBool::new(false),
        }
    }

    /// Releases the waiters if every live thread has arrived.
    fn release_if_complete(&self, s: &mut BarrierState) {
        if s.arrived > 0 && s.arrived >= s.live {
            s.arrived = 0;
            self.generation.fetch_add(1, Ordering::Release);
            for t in s.waiting.drain(..) {
                t.unpark();
            }
        }
    }

    fn wait(&self) {
        if self.aborted.load(Ordering::Relaxed) {
            abort_unwind();
        }
        let generation = self.generation.load(Ordering::Acquire);
        {
            let mut s = lock(&self.state);
            s.arrived += 1;
            s.waiting.push(std::thread::current());
            self.release_if_complete(&mut s);
        }
        let t0 = Instant::now();
        while self.generation.load(Ordering::Acquire) == generation {
            if self.aborted.load(Ordering::Relaxed) {
                abort_unwind();
            }
            if t0.elapsed() > BARRIER_TIMEOUT {
                let s = lock(&self.state);
                let (arrived, live) = (s.arrived, s.live);
                drop(s);
                panic!(
                    "{}: deadlock: {arrived} of {live} threads waited {} s at the barrier",
                    self.what,
                    BARRIER_TIMEOUT.as_secs()
                );
            }
            std::thread::park_timeout(Duration::from_millis(500));
        }
    }

    fn leave(&self) {
        let mut s = lock(&self.state);
        s.live -= 1;
        self.release_if_complete(&mut s);
    }

    fn live(&self) -> u32 {
        lock(&self.state).live
    }

    fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
        for t in lock(&self.state).waiting.drain(..) {
            t.unpark();
        }
    }
}

/// One warp's collective state: its barrier and the lanes' exchange slots.
struct Warp {
    /// Lanes that exist (a block's last warp may be partial).
    present: u32,
    bar: Barrier,
    slots: Mutex<[[u32; 12]; 32]>,
}

/// A block's dynamic shared memory.
struct Smem {
    ptr: *mut u8,
    len: usize,
}

const SMEM_ALIGN: usize = 128;

impl Smem {
    fn new(len: usize) -> Smem {
        if len == 0 {
            return Smem {
                ptr: SMEM_ALIGN as *mut u8,
                len,
            };
        }
        let layout = std::alloc::Layout::from_size_align(len, SMEM_ALIGN).expect("smem layout");
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc(layout) };
        assert!(
            !ptr.is_null(),
            "out of memory for {len} bytes of shared memory"
        );
        // SAFETY: freshly allocated, `len` bytes.
        unsafe { ptr.write_bytes(SHARED_POISON, len) };
        Smem { ptr, len }
    }
    fn contains(&self, p: usize, bytes: usize) -> bool {
        let b = self.ptr as usize;
        p < b + self.len && p + bytes > b
    }
}

impl Drop for Smem {
    fn drop(&mut self) {
        if self.len > 0 {
            let layout = std::alloc::Layout::from_size_align(self.len, SMEM_ALIGN).unwrap();
            // SAFETY: allocated in `new` with this layout.
            unsafe { std::alloc::dealloc(self.ptr, layout) };
        }
    }
}

/// One block being run.
struct Cta {
    block_idx: Dim3,
    block_dim: Dim3,
    grid_dim: Dim3,
    smem: Smem,
    bar: Barrier,
    warps: Vec<Warp>,
}

// SAFETY: `smem` is a buffer the block's threads share as the GPU's threads do; every other
// field is immutable or synchronized.
unsafe impl Sync for Cta {}
unsafe impl Send for Cta {}

/// This thread's `cp.async` copies: issued (source already read) but not yet written.
#[derive(Default)]
struct CpAsync {
    uncommitted: Vec<(usize, [u8; 16])>,
    groups: VecDeque<Vec<(usize, [u8; 16])>>,
}

/// The context of one emulated thread.
struct Thread<'a> {
    cta: &'a Cta,
    tid: Dim3,
    linear: u32,
    cp: RefCell<CpAsync>,
}

std::thread_local! {
    static CURRENT: Cell<*const Thread<'static>> = const { Cell::new(std::ptr::null()) };
}

fn with<R>(what: &str, f: impl FnOnce(&Thread<'_>) -> R) -> R {
    let p = CURRENT.with(|c| c.get());
    if p.is_null() {
        panic!("{what} called outside a kernel launch (run kernels with device::emu::launch)");
    }
    // SAFETY: set by `run_thread` for the duration of the kernel call on this thread.
    f(unsafe { &*p })
}

/// `f` on the calling emulated thread's context; nothing outside a launch (the fences and waits
/// of copies that, off the GPU, land at once when issued outside a launch: the typed layer's
/// host tests).
fn with_launched(f: impl FnOnce(&Thread<'_>)) {
    let p = CURRENT.with(|c| c.get());
    if !p.is_null() {
        // SAFETY: set by `run_thread` for the duration of the kernel call on this thread.
        f(unsafe { &*p })
    }
}

/// `(threadIdx.x, .y, .z)` of the calling emulated thread.
pub(crate) fn thread_idx() -> Dim3 {
    with("thread_idx", |t| t.tid)
}
/// `(blockIdx.x, .y, .z)`.
pub(crate) fn block_idx() -> Dim3 {
    with("block_idx", |t| t.cta.block_idx)
}
/// `(blockDim.x, .y, .z)`.
pub(crate) fn block_dim() -> Dim3 {
    with("block_dim", |t| t.cta.block_dim)
}
/// `(gridDim.x, .y, .z)`.
pub(crate) fn grid_dim() -> Dim3 {
    with("grid_dim", |t| t.cta.grid_dim)
}
/// `%laneid`.
pub(crate) fn lane_id() -> u32 {
    with("lane_id", |t| t.linear % 32)
}

/// `bar.sync 0`.
pub(crate) fn sync_threads() {
    with("sync_threads", |t| t.cta.bar.wait())
}

/// Start of the block's dynamic shared memory.
pub(crate) fn dynamic_shared_mem(align: usize) -> *mut u8 {
    assert!(
        align <= SMEM_ALIGN,
        "dynamic_shared_mem: alignment {align} > {SMEM_ALIGN} is not emulated"
    );
    with("dynamic_shared_mem", |t| t.cta.smem.ptr)
}

/// Generic pointer into dynamic shared memory → shared address.
pub(crate) fn to_shared_addr(p: usize) -> u32 {
    with("to_shared_addr", |t| {
        let b = t.cta.smem.ptr as usize;
        if p < b || p > b + t.cta.smem.len {
            panic!(
                "to_shared_addr({p:#x}): not a shared-memory address (dynamic smem is \
                 [{b:#x}, {:#x}), {} bytes)",
                b + t.cta.smem.len,
                t.cta.smem.len
            );
        }
        SHARED_BASE + (p - b) as u32
    })
}

/// The host pointer behind `bytes` bytes at shared address `addr`, checked for bounds and
/// `align`-byte alignment.
pub(crate) fn shared_ptr(what: &str, addr: u32, bytes: usize, align: u32) -> *mut u8 {
    with(what, |t| shared_ptr_in(t.cta, what, addr, bytes, align))
}

fn shared_ptr_in(cta: &Cta, what: &str, addr: u32, bytes: usize, align: u32) -> *mut u8 {
    if !addr.is_multiple_of(align) {
        panic!("{what}: shared address {addr:#x} is not {align}-byte aligned (misaligned address)");
    }
    let len = cta.smem.len;
    let off = addr.wrapping_sub(SHARED_BASE) as usize;
    if addr < SHARED_BASE || off + bytes > len {
        panic!(
            "{what}: shared address {addr:#x} + {bytes} bytes is outside dynamic shared memory \
             [{SHARED_BASE:#x}, {:#x}) (out-of-range shared access)",
            SHARED_BASE as usize + len
        );
    }
    // SAFETY: in bounds, checked above.
    unsafe { cta.smem.ptr.add(off) }
}

/// Checks a global-memory access: non-null, `align`-byte aligned, not into shared memory.
pub(crate) fn check_global(what: &str, p: usize, bytes: usize, align: usize) {
    if p == 0 {
        panic!("{what}: null global address");
    }
    if !p.is_multiple_of(align) {
        panic!("{what}: global address {p:#x} is not {align}-byte aligned (misaligned address)");
    }
    with(what, |t| {
        if t.cta.smem.contains(p, bytes) {
            panic!("{what}: {p:#x} is a shared-memory address, not a global one");
        }
    })
}

/// `cp.async` of 16 bytes: `src_size` bytes read now, the rest zero; written at the wait.
pub(crate) fn cp_async_16(dst_shared: u32, src: *const u8, src_size: u32) {
    let what = "cp.async.cg.shared.global";
    assert!(src_size <= 16, "{what}: src-size {src_size} > 16 (cp-size)");
    check_global(what, src as usize, src_size.max(1) as usize, 16);
    with(what, |t| {
        let dst = shared_ptr_in(t.cta, what, dst_shared, 16, 16);
        let mut data = [0u8; 16];
        // SAFETY: the caller guarantees `src` is valid for `src_size` bytes.
        unsafe { std::ptr::copy_nonoverlapping(src, data.as_mut_ptr(), src_size as usize) };
        let off = dst as usize - t.cta.smem.ptr as usize;
        t.cp.borrow_mut().uncommitted.push((off, data));
    })
}

fn apply_copies(cta: &Cta, copies: &[(usize, [u8; 16])]) {
    for (off, data) in copies {
        // SAFETY: `off` was bounds-checked at issue.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), cta.smem.ptr.add(*off), 16) };
    }
}

/// `cp.async.commit_group`.
pub(crate) fn cp_async_commit() {
    with_launched(|t| {
        let mut cp = t.cp.borrow_mut();
        let g = std::mem::take(&mut cp.uncommitted);
        cp.groups.push_back(g);
    })
}

/// `cp.async.wait_group n`: the oldest committed groups land until at most `n` are pending.
pub(crate) fn cp_async_wait(n: u32) {
    with_launched(|t| {
        let mut cp = t.cp.borrow_mut();
        while cp.groups.len() > n as usize {
            let g = cp.groups.pop_front().expect("non-empty");
            apply_copies(t.cta, &g);
        }
    })
}

/// `cp.async.wait_all`: every copy lands, committed or not.
pub(crate) fn cp_async_wait_all() {
    with("cp.async.wait_all", flush_copies)
}

fn flush_copies(t: &Thread<'_>) {
    let mut cp = t.cp.borrow_mut();
    while let Some(g) = cp.groups.pop_front() {
        apply_copies(t.cta, &g);
    }
    let u = std::mem::take(&mut cp.uncommitted);
    apply_copies(t.cta, &u);
}

/// `red.global.add.f32`.
///
/// # Safety
/// `p` is valid for reads and writes of an `f32` for the whole launch.
pub(crate) unsafe fn red_add_f32(p: *mut f32, v: f32) {
    check_global("red.global.add.f32", p as usize, 4, 4);
    // SAFETY: aligned (checked) and valid (caller); every concurrent update is atomic too.
    let a = unsafe { AtomicU32::from_ptr(p as *mut u32) };
    let mut cur = a.load(Ordering::Relaxed);
    loop {
        let new = (f32::from_bits(cur) + v).to_bits();
        match a.compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return,
            Err(c) => cur = c,
        }
    }
}

/// `ld.acquire.gpu.global.u32` on the host: an atomic acquire load.
pub(crate) unsafe fn ld_acquire_gpu_u32(p: *const u32) -> u32 {
    check_global("ld.acquire.gpu.global.u32", p as usize, 4, 4);
    // SAFETY: aligned (checked) and valid (caller); concurrent writers are atomic too.
    unsafe { AtomicU32::from_ptr(p as *mut u32) }.load(Ordering::Acquire)
}

/// `atom.global.add.u32` on the host: an atomic `fetch_add`.
pub(crate) unsafe fn atomic_add_u32(p: *mut u32, v: u32) -> u32 {
    check_global("atom.global.add.u32", p as usize, 4, 4);
    // SAFETY: aligned (checked) and valid (caller); concurrent updates are atomic too.
    unsafe { AtomicU32::from_ptr(p) }.fetch_add(v, Ordering::Relaxed)
}

/// `%globaltimer` on the host: nanoseconds since the process's first read.
pub(crate) fn global_timer() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// `st.release.gpu.global.u32` on the host: an atomic release store.
pub(crate) unsafe fn st_release_gpu_u32(p: *mut u32, v: u32) {
    check_global("st.release.gpu.global.u32", p as usize, 4, 4);
    // SAFETY: aligned (checked) and valid (caller); concurrent readers are atomic too.
    unsafe { AtomicU32::from_ptr(p) }.store(v, Ordering::Release)
}

/// A warp collective: every lane named in `mask` posts `mine`, then `f` computes this lane's
/// result from all 32 lanes' posts. The mask must be exactly the warp's threads, all running.
pub(crate) fn warp_exchange<R>(
    what: &str,
    mask: u32,
    mine: [u32; 12],
    f: impl FnOnce(u32, &[[u32; 12]; 32]) -> R,
) -> R {
    with(what, |t| {
        let w = &t.cta.warps[(t.linear / 32) as usize];
        let lane = t.linear % 32;
        if mask != w.present {
            panic!(
                "{what}: member mask {mask:#010x} is not emulated: only the warp's full mask \
                 ({:#010x}) is",
                w.present
            );
        }
        if w.bar.live() != w.present.count_ones() {
            panic!("{what}: a lane named in the member mask {mask:#010x} has exited");
        }
        lock(&w.slots)[lane as usize] = mine;
        w.bar.wait();
        let all = *lock(&w.slots);
        w.bar.wait();
        f(lane, &all)
    })
}

/// `bar.warp.sync mask`.
pub(crate) fn sync_warp(mask: u32) {
    warp_exchange("bar.warp.sync", mask, [0; 12], |_, _| ())
}

/// Reads the word at `addr` (shared) for `ldmatrix`.
pub(crate) fn shared_u32(what: &str, addr: u32) -> u32 {
    let p = shared_ptr(what, addr, 4, 4);
    // SAFETY: bounds and alignment checked.
    unsafe { (p as *const u32).read() }
}

/// Reads the half at `addr` (shared) for `ldmatrix .trans`.
pub(crate) fn shared_u16(what: &str, addr: u32) -> u16 {
    let p = shared_ptr(what, addr, 2, 2);
    // SAFETY: bounds and alignment checked.
    unsafe { (p as *const u16).read() }
}

/// Word `q` of `lane`'s `ldmatrix` result: matrix `q`'s row addresses are the posts of lanes
/// `8q..8q+8`; without `trans` lane `l` gets row `l/4`, halves `2(l%4)` and `+1`; with
/// `trans` it gets column `l/4`, rows `2(l%4)` and `+1`.
pub(crate) fn ldmatrix_word(
    what: &str,
    all: &[[u32; 12]; 32],
    q: usize,
    lane: u32,
    trans: bool,
) -> u32 {
    let row = |r: usize| {
        let a = all[8 * q + r][0];
        if !a.is_multiple_of(16) {
            panic!(
                "{what}: row address {a:#x} (lane {}) is not 16-byte aligned",
                8 * q + r
            );
        }
        a
    };
    let l = lane as usize;
    if trans {
        let lo = shared_u16(what, row(2 * (l % 4)) + 2 * (l / 4) as u32);
        let hi = shared_u16(what, row(2 * (l % 4) + 1) + 2 * (l / 4) as u32);
        lo as u32 | (hi as u32) << 16
    } else {
        shared_u32(what, row(l / 4) + 4 * (l % 4) as u32)
    }
}

/// An IEEE binary16 value as f32 (exact: every binary16 is an f32).
pub(crate) fn f16_bits_to_f32(h: u16) -> f32 {
    f16_to_f64(h) as f32
}

/// An IEEE binary16 value, exactly.
fn f16_to_f64(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    match e {
        0 => s * m * 2f64.powi(-24),
        31 if m == 0.0 => s * f64::INFINITY,
        31 => f64::NAN,
        _ => s * (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` for `lane`, from every lane's posted
/// fragments `[a0..a3, b0, b1, c0..c3]` (the PTX ISA's fragment layouts): each result is the
/// exact sum rounded once to `f32`.
pub(crate) fn mma_m16n8k16(lane: u32, all: &[[u32; 12]; 32]) -> [f32; 4] {
    mma_m16n8k16_of(lane, all, f16_to_f64)
}

/// [`mma_m16n8k16`] with A and B in bf16 (exact in `f64`: the top half of an `f32`).
pub(crate) fn mma_m16n8k16_bf16(lane: u32, all: &[[u32; 12]; 32]) -> [f32; 4] {
    mma_m16n8k16_of(lane, all, |h| f64::from(f32::from_bits((h as u32) << 16)))
}

/// `mma.m16n8k16` with the 16-bit inputs read by `elem`.
fn mma_m16n8k16_of(lane: u32, all: &[[u32; 12]; 32], elem: fn(u16) -> f64) -> [f32; 4] {
    let half = |w: u32, hi: bool| elem(if hi { (w >> 16) as u16 } else { w as u16 });
    // A (16x16, row-major fragments): lane (r%8)*4 + (c%8)/2, register by (r >= 8, c >= 8).
    let a = |r: usize, c: usize| {
        let reg = (r / 8) + 2 * (c / 8);
        half(all[(r % 8) * 4 + (c % 8) / 2][reg], c % 2 == 1)
    };
    // B (16x8, "col"): lane n*4 + (k%8)/2, register k / 8.
    let b = |k: usize, n: usize| half(all[n * 4 + (k % 8) / 2][4 + k / 8], k % 2 == 1);
    // C (16x8): lane (r%8)*4 + n/2, register 2·(r >= 8) + n%2.
    let c = |r: usize, n: usize| f32::from_bits(all[(r % 8) * 4 + n / 2][6 + 2 * (r / 8) + n % 2]);
    let (g, t) = ((lane / 4) as usize, (lane % 4) as usize);
    let d = |r: usize, n: usize| {
        let mut acc = c(r, n) as f64;
        for k in 0..16 {
            acc += a(r, k) * b(k, n);
        }
        acc as f32
    };
    [
        d(g, 2 * t),
        d(g, 2 * t + 1),
        d(g + 8, 2 * t),
        d(g + 8, 2 * t + 1),
    ]
}

/// Why a launch failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaunchError {
    /// The launch configuration is invalid (what CUDA's launch would reject).
    Config(String),
    /// A thread panicked (assertion, `trap`, bounds check, a check of this emulator).
    Panic {
        /// `blockIdx` of the thread.
        block: Dim3,
        /// `threadIdx` of the thread.
        thread: Dim3,
        /// The panic message.
        message: String,
    },
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Config(m) => write!(f, "invalid launch: {m}"),
            LaunchError::Panic {
                block,
                thread,
                message,
            } => write!(
                f,
                "kernel panicked in block {block:?}, thread {thread:?}: {message}"
            ),
        }
    }
}

impl std::error::Error for LaunchError {}

fn panic_message(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

struct Shared<'f, F> {
    f: &'f F,
    failed: AtomicBool,
    error: Mutex<Option<LaunchError>>,
}

// SAFETY: the kernel closure is called from many threads, as a CUDA kernel is; the caller of
// `launch` promised that this is sound.
unsafe impl<F> Sync for Shared<'_, F> {}

fn check_config(grid: Dim3, block: Dim3, smem_bytes: u32) -> Result<(), LaunchError> {
    let bad = |m: String| Err(LaunchError::Config(m));
    let threads = block.0 as u64 * block.1 as u64 * block.2 as u64;
    if threads == 0 || threads > 1024 || block.2 > 64 {
        return bad(format!(
            "block {block:?}: 1..=1024 threads, z <= 64 (CUDA_ERROR_INVALID_VALUE)"
        ));
    }
    if grid.0 == 0 || grid.1 == 0 || grid.2 == 0 || grid.1 > 65535 || grid.2 > 65535 {
        return bad(format!(
            "grid {grid:?}: every dimension >= 1, y and z <= 65535 (CUDA_ERROR_INVALID_VALUE)"
        ));
    }
    if smem_bytes > MAX_SHARED_BYTES {
        return bad(format!(
            "{smem_bytes} bytes of dynamic shared memory > {MAX_SHARED_BYTES}"
        ));
    }
    Ok(())
}

/// Runs kernel `f` on a `grid` of blocks of `block` threads with `smem_bytes` of dynamic
/// shared memory, as `f<<<grid, block, smem_bytes>>>()` would; returns when every block is
/// done. Blocks run on the machine's cores in parallel (each block's threads are OS threads);
/// a thread's panic fails the launch with its block and thread ids.
///
/// ```
/// use device::emu::{LaunchError, try_launch};
/// use device::thread::{thread_idx_x, trap};
/// // SAFETY: the kernel touches no memory.
/// let r = unsafe { try_launch((1, 1, 1), (64, 1, 1), 0, || if thread_idx_x() == 33 { trap() }) };
/// match r {
///     Err(LaunchError::Panic { thread, .. }) => assert_eq!(thread, (33, 0, 0)),
///     _ => panic!("the trap was not reported"),
/// }
/// ```
///
/// # Safety
/// `f` is called concurrently from every emulated thread, each with its own thread context:
/// what it does must be sound under that, as a CUDA kernel's body must (pointers valid for
/// the launch, no conflicting accesses between threads except through the device API's
/// barriers and atomics).
pub unsafe fn try_launch<F: Fn()>(
    grid: Dim3,
    block: Dim3,
    smem_bytes: u32,
    f: F,
) -> Result<(), LaunchError> {
    check_config(grid, block, smem_bytes)?;
    let blocks = grid.0 as usize * grid.1 as usize * grid.2 as usize;
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(blocks);
    let shared = Shared {
        f: &f,
        failed: AtomicBool::new(false),
        error: Mutex::new(None),
    };
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..workers {
            let (shared, next) = (&shared, &next);
            std::thread::Builder::new()
                .name("emu-worker".into())
                .spawn_scoped(s, move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= blocks || shared.failed.load(Ordering::Relaxed) {
                            break;
                        }
                        let (gx, gy) = (grid.0 as usize, grid.1 as usize);
                        let b = (
                            (i % gx) as u32,
                            ((i / gx) % gy) as u32,
                            (i / (gx * gy)) as u32,
                        );
                        run_block(shared, b, grid, block, smem_bytes);
                    }
                })
                .expect("spawning an emulator worker");
        }
    });
    match lock(&shared.error).take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// [`try_launch`], panicking with the [`LaunchError`] if the launch fails (a test failure
/// naming the block and thread).
///
/// ```
/// use device::emu::launch;
/// use device::shared::dynamic_shared_mem;
/// use device::thread::{sync_threads, thread_idx_x};
/// let mut out = [0f32; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: each thread writes its own element; shared memory is written before it is read.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 128, || {
///         let s = dynamic_shared_mem::<f32>();
///         let t = thread_idx_x() as usize;
///         *s.add(t) = t as f32;
///         sync_threads();
///         *(p as *mut f32).add(t) = *s.add(31 - t); // another thread's value
///     })
/// };
/// assert_eq!(out[0], 31.0);
/// ```
///
/// # Safety
/// As [`try_launch`].
pub unsafe fn launch<F: Fn()>(grid: Dim3, block: Dim3, smem_bytes: u32, f: F) {
    // SAFETY: forwarded.
    if let Err(e) = unsafe { try_launch(grid, block, smem_bytes, f) } {
        panic!("{e}");
    }
}

fn run_block<F: Fn()>(shared: &Shared<'_, F>, block_idx: Dim3, grid: Dim3, block: Dim3, smem: u32) {
    let n = block.0 * block.1 * block.2;
    let warps = (0..n.div_ceil(32))
        .map(|w| {
            let lanes = (n - 32 * w).min(32);
            Warp {
                present: if lanes == 32 {
                    u32::MAX
                } else {
                    (1 << lanes) - 1
                },
                bar: Barrier::new("bar.warp.sync / warp collective", lanes),
                slots: Mutex::new([[0; 12]; 32]),
            }
        })
        .collect();
    let cta = Cta {
        block_idx,
        block_dim: block,
        grid_dim: grid,
        smem: Smem::new(smem as usize),
        bar: Barrier::new("bar.sync (sync_threads)", n),
        warps,
    };
    let cta = &cta;
    let remaining = AtomicUsize::new(n as usize);
    let (remaining, me) = (&remaining, std::thread::current());
    for linear in 0..n {
        let tid = (
            linear % block.0,
            (linear / block.0) % block.1,
            linear / (block.0 * block.1),
        );
        let me = me.clone();
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
            run_thread(shared, cta, tid, linear);
            if remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
                me.unpark();
            }
        });
        // SAFETY: the job borrows `shared`, `cta` and `remaining`, which live until every
        // job has run: this function returns only when `remaining` reaches 0, which each job
        // decrements as its last use of them (`run_thread` catches the kernel's panics).
        pool_run(unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) });
    }
    while remaining.load(Ordering::Acquire) != 0 {
        std::thread::park();
    }
}

/// A pool thread's work: one emulated thread of one block.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// Idle pool threads (the sending ends of their job queues). Emulated threads are pool
/// threads reused across blocks and launches: spawning 256 OS threads per block cost more
/// than the kernels' work.
static POOL: Mutex<Vec<std::sync::mpsc::Sender<Job>>> = Mutex::new(Vec::new());

/// Runs `job` on an idle pool thread, or on a new one.
fn pool_run(job: Job) {
    let idle = lock(&POOL).pop();
    let job = match idle {
        Some(tx) => match tx.send(job) {
            Ok(()) => return,
            Err(e) => e.0,
        },
        None => job,
    };
    std::thread::Builder::new()
        .name("emu-thread".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let (tx, rx) = std::sync::mpsc::channel::<Job>();
            job();
            loop {
                lock(&POOL).push(tx.clone());
                match rx.recv() {
                    Ok(job) => job(),
                    Err(_) => return,
                }
            }
        })
        .expect("spawning an emulated thread");
}

fn run_thread<F: Fn()>(shared: &Shared<'_, F>, cta: &Cta, tid: Dim3, linear: u32) {
    let t = Thread {
        cta,
        tid,
        linear,
        cp: RefCell::new(CpAsync::default()),
    };
    CURRENT.with(|c| c.set((&t as *const Thread<'_>).cast()));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (shared.f)()));
    match r {
        Ok(()) => flush_copies(&t),
        Err(p) => {
            if !p.is::<Aborted>() {
                let mut e = lock(&shared.error);
                if e.is_none() {
                    *e = Some(LaunchError::Panic {
                        block: cta.block_idx,
                        thread: tid,
                        message: panic_message(&*p),
                    });
                }
                shared.failed.store(true, Ordering::Relaxed);
            }
            cta.bar.abort();
            for w in &cta.warps {
                w.bar.abort();
            }
        }
    }
    CURRENT.with(|c| c.set(std::ptr::null()));
    cta.bar.leave();
    cta.warps[(linear / 32) as usize].bar.leave();
}
