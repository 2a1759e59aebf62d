//! CUTLASS's `PipelineTmaAsync` (`include/cutlass/pipeline/sm90_pipeline.hpp`): `STAGES`
//! shared-memory buffers, each guarded by a *full* mbarrier (the producer's TMA load completes
//! its bytes there) and an *empty* mbarrier (the consumers arrive there when done with the
//! buffer).
//!
//! The stage index and phase bit live in [`PipelineState`], inside the two role handles; no
//! kernel writes parity arithmetic. The roles are separate types: only a [`PipelineProducer`]
//! can acquire and commit, only a [`PipelineConsumer`] can wait and release, and the
//! transaction bytes a full barrier expects come from the load atom's type
//! ([`TransactionBytes`], e.g. [`crate::cute::atom::tma::TmaAtom::TX_BYTES`]), never from a number in
//! the kernel.
//!
//! ```
//! use layout_types::cutlass::pipeline::*;
//! struct Box16; // 16 bytes per stage
//! impl TransactionBytes for Box16 { const TX_BYTES: u32 = 16; }
//! let mut storage = PipelineStorage::<2>::new();
//! let mut data = [[0u8; 16]; 2];
//! // one thread plays both roles here (on the GPU: a producer warp and consumer warps)
//! let pipe = unsafe { PipelineTmaAsync::<2, Box16>::init(&mut storage, true, 1, || ()) };
//! let (mut prod, mut cons) = (pipe.producer(), pipe.consumer());
//! for k in 0..5u8 {
//!     let s = unsafe { prod.producer_acquire() };           // waits for an empty buffer
//!     data[s.index() as usize] = [k; 16];                   // (a TMA load on s.full_barrier())
//!     unsafe { device::mbarrier::mbarrier_complete_tx(s.full_barrier(), 16) };
//!     s.producer_commit();
//!     let c = unsafe { cons.consumer_wait() };              // waits for the bytes
//!     assert_eq!(data[c.index() as usize], [k; 16]);
//!     unsafe { cons.consumer_release(c) };
//! }
//! ```

use core::marker::PhantomData;

use crate::cute::atom::tma::TmaAtom;
use crate::cute::layout::StaticLayoutValue;
use device::cluster::warp_uniform_u32;
use device::mbarrier::{
    SmemBarrier, fence_barrier_init, mbarrier_arrive, mbarrier_arrive_cluster,
    mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_test_wait_parity, mbarrier_try_wait_parity,
    mbarrier_wait_parity,
};

/// The bytes one stage's load brings (the full barrier's `expect_tx`): a type-level constant of
/// the load atom.
pub trait TransactionBytes {
    /// Bytes per stage.
    const TX_BYTES: u32;
    /// How the pipeline addresses its barriers: `true`, by the storage's 32-bit shared address
    /// converted once at [`PipelineTmaAsync::init`] ([`SmemBarrier`]: stage `i`'s full barrier
    /// at `base + 8·i`, 32-bit arithmetic; CuTe's `cast_smem_ptr_to_uint`); `false` (the
    /// default), by generic pointers converted at each wait and arrive. A per-kernel choice,
    /// measured in SASS (doc/typed-gmma.md): the GEMM mainloop's k-tile is 79 → 56 instructions
    /// with the base; the attention kernels choose per tile (their `AttnTiles::Addressing`: the
    /// base at head dim 256's, generic pointers at the others, where it spilled or is not
    /// measured yet: doc/attention.md).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; const BARRIER_BASE: bool = true; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer());
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let c = unsafe { cons.consumer_wait() };
    /// unsafe { cons.consumer_release(c) };
    /// ```
    const BARRIER_BASE: bool = false;
}

/// A TMA load's bytes are its box's ([`TmaAtom::TX_BYTES`], CuTe's `TmaTransactionBytes`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};
/// use layout_types::cutlass::pipeline::TransactionBytes;
/// type Box = Layout<(_32, _128), (_128, _1)>;
/// assert_eq!(<TmaAtom<TmaLoad, f32, Box> as TransactionBytes>::TX_BYTES, 32 * 128 * 4);
/// ```
impl<Op, T, L: StaticLayoutValue> TransactionBytes for TmaAtom<Op, T, L> {
    const TX_BYTES: u32 = TmaAtom::<Op, T, L>::TX_BYTES;
}

/// A position in the circular buffer: the stage index and the phase parity of its barriers
/// (CUTLASS's `PipelineState`). Advancing past the last stage wraps to 0 and flips the phase.
///
/// ```
/// use layout_types::cutlass::pipeline::PipelineState;
/// let mut s = PipelineState::<3>::new(0);
/// for _ in 0..4 { s.advance(); }
/// assert_eq!((s.index(), s.phase(), s.count()), (1, 1, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineState<const STAGES: usize> {
    index: u32,
    phase: u32,
    count: u32,
}

impl<const STAGES: usize> PipelineState<STAGES> {
    const OK: () = if STAGES == 0 || STAGES > 32 {
        crate::Error::with2(
            "PipelineState: STAGES must be in 1..=32 (STAGES, 32)",
            STAGES as i64,
            32,
        )
        .panic()
    };
    /// Stage 0 with phase `phase` (CUTLASS's consumer start is phase 0, the producer's
    /// `make_producer_start_state` phase 1: the buffers start empty).
    ///
    /// ```
    /// assert_eq!(layout_types::cutlass::pipeline::PipelineState::<2>::new(1).phase(), 1);
    /// ```
    #[inline(always)]
    pub const fn new(phase: u32) -> Self {
        let () = Self::OK;
        PipelineState {
            index: 0,
            phase: phase & 1,
            count: 0,
        }
    }
    /// The stage index, `0..STAGES`.
    ///
    /// ```
    /// assert_eq!(layout_types::cutlass::pipeline::PipelineState::<2>::new(0).index(), 0);
    /// ```
    #[inline(always)]
    pub const fn index(&self) -> u32 {
        self.index
    }
    /// The phase parity the stage's barrier is waited on with.
    ///
    /// ```
    /// assert_eq!(layout_types::cutlass::pipeline::PipelineState::<2>::new(0).phase(), 0);
    /// ```
    #[inline(always)]
    pub const fn phase(&self) -> u32 {
        self.phase
    }
    /// How many times the state advanced.
    ///
    /// ```
    /// assert_eq!(layout_types::cutlass::pipeline::PipelineState::<2>::new(0).count(), 0);
    /// ```
    #[inline(always)]
    pub const fn count(&self) -> u32 {
        self.count
    }
    /// The next stage (`++state`).
    ///
    /// ```
    /// let mut s = layout_types::cutlass::pipeline::PipelineState::<2>::new(0);
    /// s.advance();
    /// s.advance();
    /// assert_eq!((s.index(), s.phase()), (0, 1));
    /// ```
    #[inline(always)]
    pub fn advance(&mut self) {
        self.index += 1;
        self.count += 1;
        if self.index == STAGES as u32 {
            self.index = 0;
            self.phase ^= 1;
        }
    }
    /// `n` stages on (`state += n`, CUTLASS's `PipelineState::operator+=`): the index
    /// `n` further round the ring, the phase flipped once per wrap.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::PipelineState;
    /// let (mut a, mut b) = (PipelineState::<3>::new(0), PipelineState::<3>::new(0));
    /// a.advance();
    /// b.advance();
    /// for n in [0, 1, 2, 3, 5, 6, 7, 128] {
    ///     for _ in 0..n { a.advance(); }
    ///     b.advance_by(n);
    ///     assert_eq!(a, b, "n = {n}");
    /// }
    /// ```
    #[inline(always)]
    pub fn advance_by(&mut self, n: u32) {
        let i = self.index + n;
        // whole wraps of the ring: each flips the phase
        let wraps = i / STAGES as u32;
        self.index = i - wraps * STAGES as u32;
        self.phase ^= wraps & 1;
        self.count += n;
    }
    /// The same state, broadcast from lane 0 of the warp ([`warp_uniform_u32`]: one
    /// `shfl.sync.idx` of the index and phase packed): every lane of a warp holds the same
    /// state, but ptxas cannot always prove it (a state carried through a loop with divergent
    /// barrier waits), and then builds each stage's addresses and `wgmma` descriptors in vector
    /// registers and moves them to uniform ones one by one (`R2UR`). After the broadcast they
    /// are uniform arithmetic. Every lane of the warp calls it.
    ///
    /// ```
    /// let mut s = layout_types::cutlass::pipeline::PipelineState::<2>::new(0);
    /// s.advance();
    /// assert_eq!(s.warp_uniform(), s);
    /// ```
    #[inline(always)]
    pub fn warp_uniform(self) -> Self {
        let packed = warp_uniform_u32(self.index | (self.phase << 16));
        PipelineState {
            index: packed & 0xffff,
            phase: packed >> 16,
            count: self.count,
        }
    }
}

/// The pipeline's barriers in shared memory: `STAGES` full and `STAGES` empty mbarriers
/// (CUTLASS's `SharedStorage`).
///
/// ```
/// let s = layout_types::cutlass::pipeline::PipelineStorage::<4>::new();
/// assert_eq!(core::mem::size_of_val(&s), 64);
/// ```
#[derive(Debug)]
#[repr(C, align(8))]
pub struct PipelineStorage<const STAGES: usize> {
    full: [u64; STAGES],
    empty: [u64; STAGES],
}

impl<const STAGES: usize> PipelineStorage<STAGES> {
    /// Uninitialized barriers (zero words), for host tests; on the GPU the storage is a place in
    /// shared memory.
    ///
    /// ```
    /// let _ = layout_types::cutlass::pipeline::PipelineStorage::<2>::new();
    /// ```
    pub const fn new() -> Self {
        PipelineStorage {
            full: [0; STAGES],
            empty: [0; STAGES],
        }
    }
}

impl<const STAGES: usize> Default for PipelineStorage<STAGES> {
    fn default() -> Self {
        Self::new()
    }
}

/// A TMA pipeline over `STAGES` buffers whose loads bring `Tx::TX_BYTES` each; hands out the
/// two role handles.
pub struct PipelineTmaAsync<const STAGES: usize, Tx> {
    storage: *mut PipelineStorage<STAGES>,
    /// The storage's first barrier as a 32-bit shared address, converted once at
    /// [`init`](Self::init); used when [`TransactionBytes::BARRIER_BASE`] (else dead code).
    bars: SmemBarrier,
    _tx: PhantomData<Tx>,
}

impl<const STAGES: usize, Tx> Clone for PipelineTmaAsync<STAGES, Tx> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<const STAGES: usize, Tx> Copy for PipelineTmaAsync<STAGES, Tx> {}

impl<const STAGES: usize, Tx: TransactionBytes> PipelineTmaAsync<STAGES, Tx> {
    /// Every thread of the CTA calls this with the same `storage`: the `initializer` thread
    /// initializes the barriers (full: one arrival, the producer's `arrive_expect_tx`; empty:
    /// `consumer_arrivals` arrivals) and fences them (`fence.mbarrier_init`), then all
    /// threads run `sync` (the CTA barrier, `__syncthreads()`) before anyone uses them.
    ///
    /// # Safety
    /// `storage` is shared memory (host tests: any memory) that outlives the pipeline, used by
    /// nothing else; exactly one thread is the initializer; `consumer_arrivals` is the number of
    /// [`PipelineConsumer::consumer_release`] calls of signaling consumers per stage and phase
    /// (1..2^20).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 128; }
    /// let mut st = PipelineStorage::<3>::new();
    /// let _p = unsafe { PipelineTmaAsync::<3, B>::init(&mut st, true, 4, || ()) };
    /// ```
    #[inline(always)]
    pub unsafe fn init(
        storage: *mut PipelineStorage<STAGES>,
        initializer: bool,
        consumer_arrivals: u32,
        sync: impl FnOnce(),
    ) -> Self {
        let () = PipelineState::<STAGES>::OK;
        if initializer {
            let s = storage as *mut u64;
            for i in 0..STAGES {
                unsafe {
                    mbarrier_init(s.add(i), 1);
                    mbarrier_init(s.add(STAGES + i), consumer_arrivals);
                }
            }
            fence_barrier_init();
        }
        sync();
        PipelineTmaAsync {
            storage,
            bars: SmemBarrier::new(storage as *mut u64),
            _tx: PhantomData,
        }
    }
    /// Barrier `STAGES_BEFORE + i` of the storage (the full barriers, then the empty ones), as
    /// [`TransactionBytes::BARRIER_BASE`] says. The generic path keeps main's pointer arithmetic
    /// (`storage + STAGES_BEFORE + i` in 64-bit element offsets, the constant folded into the
    /// pointer): a 32-bit `STAGES + i` there cost the attention kernels 3 % on the H200.
    #[inline(always)]
    fn barrier<const STAGES_BEFORE: usize>(&self, i: u32) -> SmemBarrier {
        if Tx::BARRIER_BASE {
            self.bars.offset(STAGES_BEFORE as u32 + i)
        } else {
            SmemBarrier::new(unsafe { (self.storage as *mut u64).add(STAGES_BEFORE + i as usize) })
        }
    }
    /// Stage `i`'s full barrier.
    #[inline(always)]
    fn full(&self, i: u32) -> SmemBarrier {
        self.barrier::<0>(i)
    }
    /// Stage `i`'s empty barrier.
    #[inline(always)]
    fn empty(&self, i: u32) -> SmemBarrier {
        self.barrier::<STAGES>(i)
    }
    /// The producer role (`make_producer_start_state`: stage 0, phase 1, every buffer empty).
    /// Only the producer thread (one elected thread) takes it.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.producer().state().phase(), 1);
    /// ```
    #[inline(always)]
    pub fn producer(&self) -> PipelineProducer<STAGES, Tx> {
        self.producer_warp(true)
    }
    /// The producer role taken by a whole warp (CUTLASS's producer warp with `is_leader` the
    /// lane `elect_one_sync` picks): every lane walks the stages and waits, so the stage
    /// index, phase and load coordinates are the warp's values, which the compiler keeps in
    /// uniform registers; only the leader arms the full barrier, and the loads are issued under
    /// [`ProducerStage::is_leader`].
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut follower = p.producer_warp(false);
    /// let s = unsafe { follower.producer_acquire() }; // waits, arms nothing
    /// assert!(!s.is_leader());
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    pub fn producer_warp(&self, is_leader: bool) -> PipelineProducer<STAGES, Tx> {
        PipelineProducer {
            pipe: *self,
            state: PipelineState::new(1),
            leader: is_leader,
        }
    }
    /// The consumer role (stage 0, phase 0).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.consumer().state().phase(), 0);
    /// ```
    #[inline(always)]
    pub fn consumer(&self) -> PipelineConsumer<STAGES, Tx> {
        self.consumer_signaling(true)
    }
    /// The consumer role where only the signaling threads arrive on the empty barrier
    /// (CUTLASS's `is_signaling_thread`): e.g. one thread per consumer warpgroup, the barrier
    /// initialized with one arrival per warpgroup. Every consumer thread still waits on the
    /// full barrier and calls [`consumer_release`](PipelineConsumer::consumer_release); a
    /// signaling thread's release stands for its whole warpgroup, so it must come after the
    /// warpgroup's reads of the stage are complete (`wgmma.wait_group`, which waits for the
    /// warpgroup's `wgmma`s).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<1>::new();
    /// // two consumers, one of which signals: the barrier counts one arrival
    /// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut c0, mut c1) = (p.producer(), p.consumer_signaling(true), p.consumer_signaling(false));
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let (s0, s1) = unsafe { (c0.consumer_wait(), c1.consumer_wait()) };
    /// unsafe { c1.consumer_release(s1); c0.consumer_release(s0) };
    /// unsafe { prod.producer_acquire() }.producer_commit(); // empty again after one arrival
    /// ```
    #[inline(always)]
    pub fn consumer_signaling(&self, is_signaling_thread: bool) -> PipelineConsumer<STAGES, Tx> {
        PipelineConsumer {
            pipe: *self,
            state: PipelineState::new(0),
            signals: is_signaling_thread,
            dst_cta: None,
        }
    }
    /// The consumer role of a cluster whose producers multicast into every CTA (CUTLASS's
    /// `PipelineTmaAsync` with a cluster shape): a stage may be refilled only once the consumers
    /// of every CTA it is written into are done, so each signaling thread arrives on the empty
    /// barrier of the CTA of rank `dst_cta_rank` (`mapa` + `mbarrier.arrive.release.cluster`),
    /// and the empty barriers are initialized with one arrival per (consumer warpgroup, CTA of
    /// the cluster). Typically thread 0 of warp `r` of each consumer warpgroup signals CTA `r`.
    /// The barriers' initialization must be visible cluster-wide before use: pass a cluster
    /// barrier (`barrier.cluster.arrive` + `wait`) as [`init`](Self::init)'s `sync`; and a CTA
    /// must not exit while others may still arrive on its barriers: its producer ends with
    /// [`producer_tail`](PipelineProducer::producer_tail).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<1>::new();
    /// // off the GPU a cluster is one CTA: rank 0 is this CTA
    /// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer_cluster(true, 0));
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let c = unsafe { cons.consumer_wait() };
    /// unsafe { cons.consumer_release(c) };
    /// unsafe { prod.producer_tail() };
    /// ```
    #[inline(always)]
    pub fn consumer_cluster(
        &self,
        is_signaling_thread: bool,
        dst_cta_rank: u32,
    ) -> PipelineConsumer<STAGES, Tx> {
        PipelineConsumer {
            pipe: *self,
            state: PipelineState::new(0),
            signals: is_signaling_thread,
            dst_cta: Some(dst_cta_rank),
        }
    }
}

/// The producer's handle: [`producer_acquire`](Self::producer_acquire) a stage, load into it,
/// [`producer_commit`](ProducerStage::producer_commit).
pub struct PipelineProducer<const STAGES: usize, Tx> {
    pipe: PipelineTmaAsync<STAGES, Tx>,
    state: PipelineState<STAGES>,
    leader: bool,
}

impl<const STAGES: usize, Tx: TransactionBytes> PipelineProducer<STAGES, Tx> {
    /// Where the producer is.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.producer().state().index(), 0);
    /// ```
    #[inline(always)]
    pub fn state(&self) -> PipelineState<STAGES> {
        self.state
    }
    /// Waits until the stage's buffer is empty (every consumer released it), then (the leader)
    /// arms its full barrier with `arrive_expect_tx(Tx::TX_BYTES)`. The stage borrows the
    /// producer until it is committed.
    ///
    /// # Safety
    /// Called by the one producer thread, or by every lane of the producer warp
    /// ([`PipelineTmaAsync::producer_warp`]); the pipeline's storage is alive.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut prod = p.producer();
    /// let s = unsafe { prod.producer_acquire() };
    /// assert_eq!(s.index(), 0);
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    #[must_use = "a stage is loaded, then committed with producer_commit"]
    pub unsafe fn producer_acquire(&mut self) -> ProducerStage<'_, STAGES, Tx> {
        let i = self.state.index();
        unsafe {
            mbarrier_wait_parity(self.pipe.empty(i), self.state.phase());
            if self.leader {
                mbarrier_arrive_expect_tx(self.pipe.full(i), Tx::TX_BYTES);
            }
        }
        ProducerStage { producer: self }
    }
    /// Waits until the consumers have released every stage the producer filled (CUTLASS's
    /// `producer_tail`): after it no consumer of any CTA arrives on this CTA's barriers any
    /// more, so a CTA of a cluster may exit.
    ///
    /// # Safety
    /// Called by the one producer thread after its last commit; the storage is alive.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer());
    /// for _ in 0..3 {
    ///     unsafe { prod.producer_acquire() }.producer_commit();
    ///     let c = unsafe { cons.consumer_wait() };
    ///     unsafe { cons.consumer_release(c) };
    /// }
    /// unsafe { prod.producer_tail() }; // every stage was released
    /// ```
    #[inline(always)]
    pub unsafe fn producer_tail(&mut self) {
        for _ in 0..STAGES {
            unsafe {
                mbarrier_wait_parity(self.pipe.empty(self.state.index()), self.state.phase())
            };
            self.state.advance();
        }
    }
}

/// A stage the producer holds: load into buffer [`index`](Self::index) on
/// [`full_barrier`](Self::full_barrier), then [`producer_commit`](Self::producer_commit).
#[must_use = "a stage is loaded, then committed with producer_commit"]
pub struct ProducerStage<'a, const STAGES: usize, Tx> {
    producer: &'a mut PipelineProducer<STAGES, Tx>,
}

impl<const STAGES: usize, Tx: TransactionBytes> ProducerStage<'_, STAGES, Tx> {
    /// The buffer index, `0..STAGES`.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let mut prod = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) }.producer();
    /// let s = unsafe { prod.producer_acquire() };
    /// assert_eq!(s.index(), 0);
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    pub fn index(&self) -> u32 {
        self.producer.state.index()
    }
    /// Whether this thread issues the stage's loads: always for [`PipelineTmaAsync::producer`],
    /// the elected lane for [`PipelineTmaAsync::producer_warp`].
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let mut prod = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) }.producer();
    /// let s = unsafe { prod.producer_acquire() };
    /// assert!(s.is_leader());
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    pub fn is_leader(&self) -> bool {
        self.producer.leader
    }
    /// The full barrier the stage's TMA load completes its bytes on.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let mut prod = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) }.producer();
    /// let s = unsafe { prod.producer_acquire() };
    /// assert!(!s.full_barrier().is_null());
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    pub fn full_barrier(&self) -> *mut u64 {
        unsafe { (self.producer.pipe.storage as *mut u64).add(self.index() as usize) }
    }
    /// Ends the producer's work on the stage and moves to the next (CUTLASS's
    /// `producer_commit`: with TMA the load itself completes the barrier, so nothing is issued).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let mut prod = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) }.producer();
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// assert_eq!(prod.state().index(), 1);
    /// ```
    #[inline(always)]
    pub fn producer_commit(self) {
        self.producer.state.advance();
    }
}

/// A consumer's handle: [`consumer_wait`](Self::consumer_wait) for a full stage, read it,
/// [`consumer_release`](Self::consumer_release) it (possibly later: a stage is a token).
pub struct PipelineConsumer<const STAGES: usize, Tx> {
    pipe: PipelineTmaAsync<STAGES, Tx>,
    state: PipelineState<STAGES>,
    signals: bool,
    dst_cta: Option<u32>,
}

/// A full stage a consumer holds until [`PipelineConsumer::consumer_release`] takes it back
/// (neither `Copy` nor `Clone`: released exactly once).
#[must_use = "a stage is released with consumer_release"]
pub struct ConsumerStage<const STAGES: usize> {
    index: u32,
}

impl<const STAGES: usize> ConsumerStage<STAGES> {
    /// The buffer index, `0..STAGES`.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut prod = p.producer();
    /// unsafe { prod.producer_acquire() }.producer_commit(); // 0 bytes: full at once
    /// let mut cons = p.consumer();
    /// let c = unsafe { cons.consumer_wait() };
    /// assert_eq!(c.index(), 0);
    /// unsafe { cons.consumer_release(c) };
    /// ```
    #[inline(always)]
    pub fn index(&self) -> u32 {
        self.index
    }
    /// The same stage with its index broadcast from lane 0 of the warp (see
    /// [`PipelineState::warp_uniform`]), so the buffer's addresses and descriptors are built in
    /// uniform registers. Every lane of the warp calls it.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut prod = p.producer();
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let mut cons = p.consumer();
    /// let c = unsafe { cons.consumer_wait() }.warp_uniform();
    /// assert_eq!(c.index(), 0);
    /// unsafe { cons.consumer_release(c) };
    /// ```
    #[inline(always)]
    pub fn warp_uniform(self) -> Self {
        ConsumerStage {
            index: warp_uniform_u32(self.index),
        }
    }
}

impl<const STAGES: usize, Tx: TransactionBytes> PipelineConsumer<STAGES, Tx> {
    /// Broadcasts the consumer's state from lane 0 of the warp
    /// ([`PipelineState::warp_uniform`]): the stages it waits for next have warp-uniform
    /// indices. Every lane of the warp calls it.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut c = p.consumer();
    /// c.make_warp_uniform();
    /// assert_eq!(c.state(), PipelineState::new(0));
    /// ```
    #[inline(always)]
    pub fn make_warp_uniform(&mut self) {
        self.state = self.state.warp_uniform();
    }
    /// Where the consumer is.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.consumer().state().count(), 0);
    /// ```
    #[inline(always)]
    pub fn state(&self) -> PipelineState<STAGES> {
        self.state
    }
    /// Moves past the next `n` stages without waiting or releasing (CUTLASS's
    /// `consumer_state += n`): stages another consumer reads (the ping-pong GEMM's other
    /// warpgroup's tile). The next [`consumer_wait`](Self::consumer_wait) waits for the stage
    /// after them, on the phase that stage's fill of that round completes: the caller must
    /// know the skipped stages' fills have completed (else the wait's parity could match an
    /// older fill of the same buffer).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let mut c = p.consumer();
    /// c.skip(3);
    /// assert_eq!((c.state().index(), c.state().phase(), c.state().count()), (1, 1, 3));
    /// ```
    #[inline(always)]
    pub fn skip(&mut self, n: u32) {
        self.state.advance_by(n);
    }
    /// Waits until the next stage's bytes have all landed, and moves past it.
    ///
    /// # Safety
    /// The pipeline's storage is alive; a producer will fill the stage.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<1>::new();
    /// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
    /// let mut prod = p.producer();
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let mut cons = p.consumer();
    /// let c = unsafe { cons.consumer_wait() };
    /// unsafe { cons.consumer_release(c) };
    /// ```
    #[inline(always)]
    pub unsafe fn consumer_wait(&mut self) -> ConsumerStage<STAGES> {
        let index = self.state.index();
        unsafe { mbarrier_wait_parity(self.pipe.full(index), self.state.phase()) };
        self.state.advance();
        ConsumerStage { index }
    }
    /// Probes the next stage's full barrier without blocking (CUTLASS's `consumer_try_wait`,
    /// with the non-blocking `mbarrier.test_wait`) and does not move: the
    /// [`ConsumerToken`] says whether the bytes had all landed. Issue it early (e.g. right after
    /// a `wgmma` issue) and hand it to [`consumer_wait_with`](Self::consumer_wait_with) later:
    /// the barrier's latency is hidden behind the work between, and the wait blocks only if the
    /// probe found the stage still loading.
    ///
    /// # Safety
    /// As [`consumer_wait`](Self::consumer_wait).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer());
    /// let s = unsafe { prod.producer_acquire() };
    /// let full = s.full_barrier();
    /// s.producer_commit();
    /// let token = unsafe { cons.consumer_try_wait() };
    /// assert!(!token.is_ready()); // 16 bytes expected, none landed yet
    /// unsafe { device::mbarrier::mbarrier_complete_tx(full, 16) };
    /// let c = unsafe { cons.consumer_wait_with(token) }; // the probe failed: this one waits
    /// assert_eq!(c.index(), 0);
    /// unsafe { cons.consumer_release(c) };
    /// ```
    #[inline(always)]
    pub unsafe fn consumer_try_wait(&self) -> ConsumerToken {
        let ready = unsafe {
            mbarrier_test_wait_parity(self.pipe.full(self.state.index()), self.state.phase())
        };
        ConsumerToken {
            ready,
            count: self.state.count(),
        }
    }
    /// [`consumer_wait`](Self::consumer_wait) given a probe of this same stage
    /// ([`consumer_try_wait`](Self::consumer_try_wait), CUTLASS's `consumer_wait(state,
    /// token)`): returns at once if the probe saw the stage full, else waits as
    /// `consumer_wait` does; then moves past the stage.
    ///
    /// # Safety
    /// As [`consumer_wait`](Self::consumer_wait); `token` came from a probe of the stage this
    /// consumer is at (checked in debug builds).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer());
    /// unsafe { prod.producer_acquire() }.producer_commit(); // 0 bytes: full at once
    /// let token = unsafe { cons.consumer_try_wait() };
    /// assert!(token.is_ready());
    /// // ... work that hides the probe's latency ...
    /// let c = unsafe { cons.consumer_wait_with(token) }; // no wait
    /// unsafe { cons.consumer_release(c) };
    /// assert_eq!(cons.state().count(), 1);
    /// ```
    #[inline(always)]
    pub unsafe fn consumer_wait_with(&mut self, token: ConsumerToken) -> ConsumerStage<STAGES> {
        debug_assert_eq!(
            token.count,
            self.state.count(),
            "a ConsumerToken of another stage"
        );
        let index = self.state.index();
        if !token.ready {
            unsafe { mbarrier_wait_parity(self.pipe.full(index), self.state.phase()) };
        }
        self.state.advance();
        ConsumerStage { index }
    }
    /// Arrives on the stage's empty barrier (a signaling consumer; others only give the stage
    /// back): this consumer is done with the buffer (after the reads, or the TMA store reading
    /// it, have finished).
    ///
    /// # Safety
    /// The pipeline's storage is alive.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<1>::new();
    /// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
    /// let (mut prod, mut cons) = (p.producer(), p.consumer());
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// let c = unsafe { cons.consumer_wait() };
    /// unsafe { cons.consumer_release(c) };
    /// unsafe { prod.producer_acquire() }.producer_commit(); // the buffer is empty again
    /// ```
    #[inline(always)]
    pub unsafe fn consumer_release(&mut self, stage: ConsumerStage<STAGES>) {
        match (self.signals, self.dst_cta) {
            (false, _) => {}
            (true, None) => unsafe { mbarrier_arrive(self.pipe.empty(stage.index)) },
            (true, Some(rank)) => unsafe {
                mbarrier_arrive_cluster(self.pipe.empty(stage.index), rank)
            },
        }
    }
}

/// The answer of [`PipelineConsumer::consumer_try_wait`] (CUTLASS's `ConsumerToken`): whether
/// the probed stage was full. Spent by [`PipelineConsumer::consumer_wait_with`] (not `Copy`:
/// one probe, one wait).
///
/// ```
/// use layout_types::cutlass::pipeline::*;
/// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
/// let mut st = PipelineStorage::<1>::new();
/// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
/// assert!(!unsafe { p.consumer().consumer_try_wait() }.is_ready()); // nothing committed
/// ```
#[must_use = "a probe is spent by consumer_wait_with"]
#[derive(Debug)]
pub struct ConsumerToken {
    ready: bool,
    count: u32,
}

impl ConsumerToken {
    /// Whether the probe found the stage's bytes all landed.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 0; }
    /// let mut st = PipelineStorage::<1>::new();
    /// let p = unsafe { PipelineTmaAsync::<1, B>::init(&mut st, true, 1, || ()) };
    /// let mut prod = p.producer();
    /// unsafe { prod.producer_acquire() }.producer_commit();
    /// assert!(unsafe { p.consumer().consumer_try_wait() }.is_ready());
    /// ```
    #[inline(always)]
    pub fn is_ready(&self) -> bool {
        self.ready
    }
}

/// The barriers of an [`OrderedSequenceBarrier`]: `DEPTH × LENGTH` mbarriers in shared memory
/// (CUTLASS's `OrderedSequenceBarrier::SharedStorage`, `barrier_[Depth][Length]`).
///
/// ```
/// use layout_types::cutlass::pipeline::OrderedSequenceBarrierStorage;
/// assert_eq!(core::mem::size_of::<OrderedSequenceBarrierStorage<2, 2>>(), 32);
/// ```
#[derive(Debug)]
#[repr(C, align(8))]
pub struct OrderedSequenceBarrierStorage<const DEPTH: usize, const LENGTH: usize> {
    barrier: [[u64; LENGTH]; DEPTH],
}

impl<const DEPTH: usize, const LENGTH: usize> OrderedSequenceBarrierStorage<DEPTH, LENGTH> {
    /// Uninitialized barriers (zero words), for host tests; on the GPU the storage is a place in
    /// shared memory.
    ///
    /// ```
    /// let _ = layout_types::cutlass::pipeline::OrderedSequenceBarrierStorage::<2, 2>::new();
    /// ```
    pub const fn new() -> Self {
        OrderedSequenceBarrierStorage {
            barrier: [[0; LENGTH]; DEPTH],
        }
    }
}

impl<const DEPTH: usize, const LENGTH: usize> Default
    for OrderedSequenceBarrierStorage<DEPTH, LENGTH>
{
    fn default() -> Self {
        Self::new()
    }
}

/// CUTLASS's `OrderedSequenceBarrier<SequenceDepth, SequenceLength>` (`sm90_pipeline.hpp`):
/// `LENGTH` groups of threads (e.g. the two consumer warpgroups of a ping-pong GEMM) take turns
/// through `DEPTH` ordered sections (e.g. 0: the mainloop's `wgmma`s, 1: the epilogue). Group
/// `g` enters section `d` of a round only after group `g − 1` left it (group 0: after group
/// `LENGTH − 1` left it in the previous round), so while group 1 issues its `wgmma`s group 0
/// runs its epilogue, and the tensor cores serve one group at a time.
///
/// Each section is one mbarrier per group (`group_size` arrivals: every thread of the group
/// signals). [`wait`](Self::wait) blocks until the section is this group's turn;
/// [`arrive`](Self::arrive) hands the section to the next group and moves to the next section.
/// The section index and phase live in a [`PipelineState`]; group 0 starts a phase ahead (its
/// first round waits for nobody).
///
/// ```
/// use layout_types::cutlass::pipeline::*;
/// // two groups of one thread, two sections (mma, epilogue), played in turn by one thread
/// let mut st = OrderedSequenceBarrierStorage::<2, 2>::new();
/// let mut g0 = unsafe { OrderedSequenceBarrier::<2, 2>::init(&mut st, true, 0, 1, || ()) };
/// let mut g1 = unsafe { OrderedSequenceBarrier::<2, 2>::init(&mut st, false, 1, 1, || ()) };
/// let turns = |a: &OrderedSequenceBarrier<2, 2>, b: &OrderedSequenceBarrier<2, 2>| unsafe {
///     (a.is_turn(), b.is_turn())
/// };
/// assert_eq!(turns(&g0, &g1), (true, false)); // group 0 issues its mma first
/// unsafe { g0.wait(); g0.arrive() };           // group 0: mma section done
/// assert_eq!(turns(&g0, &g1), (true, true));   // group 0's epilogue; group 1's mma
/// unsafe { g1.wait(); g1.arrive() };           // group 1: mma done
/// assert_eq!(turns(&g0, &g1), (true, false));  // group 1's epilogue waits for group 0's
/// unsafe { g0.wait(); g0.arrive() };           // group 0: epilogue done
/// assert_eq!(turns(&g0, &g1), (true, true));   // group 0's next mma; group 1's epilogue
/// ```
pub struct OrderedSequenceBarrier<const DEPTH: usize, const LENGTH: usize> {
    storage: *mut OrderedSequenceBarrierStorage<DEPTH, LENGTH>,
    group_id: u32,
    stage: PipelineState<DEPTH>,
}

impl<const DEPTH: usize, const LENGTH: usize> OrderedSequenceBarrier<DEPTH, LENGTH> {
    const OK: () = if LENGTH == 0 || LENGTH > 32 {
        crate::Error::with2(
            "OrderedSequenceBarrier: LENGTH (groups) must be in 1..=32 (LENGTH, 32)",
            LENGTH as i64,
            32,
        )
        .panic()
    };
    /// Every thread of the CTA calls this with the same `storage` and its group `group_id`
    /// (threads in no group pass any id and never wait or arrive): the `initializer` thread
    /// initializes the `DEPTH × LENGTH` barriers with `group_size` arrivals each and fences
    /// them, then all threads run `sync` (the CTA barrier) before anyone uses them (CUTLASS's
    /// constructor with `Params { group_id, group_size }`).
    ///
    /// # Safety
    /// `storage` is shared memory (host tests: any memory) that outlives the barrier, used by
    /// nothing else; exactly one thread is the initializer; `group_id < LENGTH`; `group_size`
    /// (1..2^20) is the number of threads of each group that call [`arrive`](Self::arrive).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<2, 2>::new();
    /// let b = unsafe { OrderedSequenceBarrier::<2, 2>::init(&mut st, true, 1, 128, || ()) };
    /// assert_eq!((b.group_id(), b.state().phase()), (1, 0));
    /// ```
    #[inline(always)]
    pub unsafe fn init(
        storage: *mut OrderedSequenceBarrierStorage<DEPTH, LENGTH>,
        initializer: bool,
        group_id: u32,
        group_size: u32,
        sync: impl FnOnce(),
    ) -> Self {
        let () = Self::OK;
        let () = PipelineState::<DEPTH>::OK;
        if initializer {
            let s = storage as *mut u64;
            for i in 0..DEPTH * LENGTH {
                unsafe { mbarrier_init(s.add(i), group_size) };
            }
            fence_barrier_init();
        }
        sync();
        OrderedSequenceBarrier {
            storage,
            group_id,
            // group 0 starts with the opposite phase: its first round is not waited for
            stage: PipelineState::new((group_id == 0) as u32),
        }
    }
    /// The barrier of section `stage.index()` that group `group` waits on.
    #[inline(always)]
    fn barrier(&self, group: u32) -> *mut u64 {
        let i = self.stage.index() as usize * LENGTH + group as usize;
        unsafe { (self.storage as *mut u64).add(i) }
    }
    /// This group's id, `0..LENGTH`.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<1, 3>::new();
    /// let b = unsafe { OrderedSequenceBarrier::<1, 3>::init(&mut st, true, 2, 1, || ()) };
    /// assert_eq!(b.group_id(), 2);
    /// ```
    #[inline(always)]
    pub fn group_id(&self) -> u32 {
        self.group_id
    }
    /// The section this group is at (`index`) and the phase it waits on.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<2, 2>::new();
    /// let b = unsafe { OrderedSequenceBarrier::<2, 2>::init(&mut st, true, 0, 1, || ()) };
    /// assert_eq!((b.state().index(), b.state().phase()), (0, 1));
    /// ```
    #[inline(always)]
    pub fn state(&self) -> PipelineState<DEPTH> {
        self.stage
    }
    /// Whether it is this group's turn at its current section ([`wait`](Self::wait) would not
    /// block).
    ///
    /// # Safety
    /// As [`wait`](Self::wait).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<1, 2>::new();
    /// let b = unsafe { OrderedSequenceBarrier::<1, 2>::init(&mut st, true, 1, 1, || ()) };
    /// assert!(!unsafe { b.is_turn() }); // group 1 waits for group 0
    /// ```
    #[inline(always)]
    pub unsafe fn is_turn(&self) -> bool {
        unsafe { mbarrier_try_wait_parity(self.barrier(self.group_id), self.stage.phase()) }
    }
    /// Waits until the previous group has left this group's current section (CUTLASS's
    /// `wait()`).
    ///
    /// # Safety
    /// The storage is alive and initialized; the previous group will arrive.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<1, 2>::new();
    /// let b = unsafe { OrderedSequenceBarrier::<1, 2>::init(&mut st, true, 0, 1, || ()) };
    /// unsafe { b.wait() }; // group 0's first turn
    /// ```
    #[inline(always)]
    pub unsafe fn wait(&self) {
        unsafe { mbarrier_wait_parity(self.barrier(self.group_id), self.stage.phase()) }
    }
    /// Hands the current section to the next group (`(group_id + 1) mod LENGTH`; every thread
    /// of the group arrives) and moves to the next section (CUTLASS's `arrive()`).
    ///
    /// # Safety
    /// As [`wait`](Self::wait); called once per section by each of the group's `group_size`
    /// threads, after the section's work is issued.
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<1, 2>::new();
    /// let mut g0 = unsafe { OrderedSequenceBarrier::<1, 2>::init(&mut st, true, 0, 1, || ()) };
    /// let g1 = unsafe { OrderedSequenceBarrier::<1, 2>::init(&mut st, false, 1, 1, || ()) };
    /// unsafe { g0.arrive() };
    /// assert!(unsafe { g1.is_turn() });
    /// ```
    #[inline(always)]
    pub unsafe fn arrive(&mut self) {
        let next = if self.group_id as usize + 1 == LENGTH {
            0
        } else {
            self.group_id + 1
        };
        unsafe { mbarrier_arrive(self.barrier(next)) };
        self.stage.advance();
    }
    /// Moves to the next section without signaling (CUTLASS's `advance()`: a group that skips
    /// a section, e.g. a tile with no k-tiles).
    ///
    /// ```
    /// use layout_types::cutlass::pipeline::*;
    /// let mut st = OrderedSequenceBarrierStorage::<2, 2>::new();
    /// let mut b = unsafe { OrderedSequenceBarrier::<2, 2>::init(&mut st, true, 0, 1, || ()) };
    /// b.advance();
    /// assert_eq!(b.state().index(), 1);
    /// ```
    #[inline(always)]
    pub fn advance(&mut self) {
        self.stage.advance();
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use device::mbarrier::mbarrier_complete_tx;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::vec::Vec;

    struct Words4;
    impl TransactionBytes for Words4 {
        const TX_BYTES: u32 = 32;
    }

    /// A pipeline of `STAGES` buffers of four words, initialized for `consumers`, leaked so
    /// threads share it: its storage's address (each thread builds its handle with [`handle`])
    /// and the buffers.
    fn shared_pipeline<const STAGES: usize>(
        consumers: u32,
    ) -> (usize, &'static [[AtomicU64; 4]; STAGES]) {
        let storage = std::boxed::Box::leak(std::boxed::Box::new(PipelineStorage::<STAGES>::new()));
        let bufs = std::boxed::Box::leak(std::boxed::Box::new(core::array::from_fn(|_| {
            core::array::from_fn(|_| AtomicU64::new(0))
        })));
        let pipe =
            unsafe { PipelineTmaAsync::<STAGES, Words4>::init(storage, true, consumers, || ()) };
        (pipe.storage as usize, bufs)
    }

    /// A thread's handle on [`shared_pipeline`]'s pipeline (no initialization).
    fn handle<const STAGES: usize>(addr: usize) -> PipelineTmaAsync<STAGES, Words4> {
        PipelineTmaAsync {
            storage: addr as *mut _,
            bars: device::mbarrier::SmemBarrier::new(addr as *mut u64),
            _tx: PhantomData,
        }
    }

    /// One producer thread and three consumer threads stream 300 stages through 3 buffers; each
    /// consumer must see every stage's data exactly in order, and the producer must never
    /// overwrite a buffer a consumer still reads.
    #[test]
    fn producer_and_consumers_on_threads_see_every_stage_in_order() {
        const STAGES: usize = 3;
        const N: u64 = 300;
        const CONSUMERS: u32 = 3;
        let (addr, bufs) = shared_pipeline::<STAGES>(CONSUMERS);
        let producer = std::thread::spawn(move || {
            let mut prod = handle::<STAGES>(addr).producer();
            for k in 1..=N {
                let s = unsafe { prod.producer_acquire() };
                for w in &bufs[s.index() as usize] {
                    assert_eq!(
                        w.swap(k, Ordering::SeqCst),
                        if k as usize > STAGES {
                            k - STAGES as u64
                        } else {
                            0
                        }
                    );
                }
                unsafe { mbarrier_complete_tx(s.full_barrier(), 32) };
                s.producer_commit();
            }
        });
        let consumers: Vec<_> = (0..CONSUMERS)
            .map(|_| {
                std::thread::spawn(move || {
                    let mut cons = handle::<STAGES>(addr).consumer();
                    for k in 1..=N {
                        let c = unsafe { cons.consumer_wait() };
                        for w in &bufs[c.index() as usize] {
                            assert_eq!(w.load(Ordering::SeqCst), k);
                        }
                        unsafe { cons.consumer_release(c) };
                    }
                })
            })
            .collect();
        producer.join().unwrap();
        for c in consumers {
            c.join().unwrap();
        }
    }

    /// The token API in the attention consumers' order: each consumer probes stage k+1
    /// (`consumer_try_wait`) while it still reads stage k, releases k, then waits for k+1 with the
    /// probe (`consumer_wait_with`). Every stage's data must be complete and in order whether the
    /// probe saw it ready or not.
    #[test]
    fn consumer_try_wait_tokens_see_every_stage_in_order() {
        const STAGES: usize = 2;
        const N: u64 = 300;
        const CONSUMERS: u32 = 2;
        let (addr, bufs) = shared_pipeline::<STAGES>(CONSUMERS);
        let producer = std::thread::spawn(move || {
            let mut prod = handle::<STAGES>(addr).producer();
            for k in 1..=N {
                let s = unsafe { prod.producer_acquire() };
                for w in &bufs[s.index() as usize] {
                    w.store(k, Ordering::SeqCst);
                }
                unsafe { mbarrier_complete_tx(s.full_barrier(), 32) };
                s.producer_commit();
                if k % 7 == 0 {
                    std::thread::yield_now();
                }
            }
        });
        let consumers: Vec<_> = (0..CONSUMERS)
            .map(|_| {
                std::thread::spawn(move || {
                    let mut cons = handle::<STAGES>(addr).consumer();
                    let (mut ready, mut waited) = (0u32, 0u32);
                    let mut cur = unsafe { cons.consumer_wait() };
                    for k in 1..=N {
                        let token = (k < N).then(|| unsafe { cons.consumer_try_wait() });
                        for w in &bufs[cur.index() as usize] {
                            assert_eq!(w.load(Ordering::SeqCst), k);
                        }
                        unsafe { cons.consumer_release(cur) };
                        let Some(token) = token else { break };
                        if token.is_ready() {
                            ready += 1;
                        } else {
                            waited += 1;
                        }
                        cur = unsafe { cons.consumer_wait_with(token) };
                    }
                    assert_eq!(cons.state().count() as u64, N);
                    (ready, waited)
                })
            })
            .collect();
        producer.join().unwrap();
        for c in consumers {
            let (ready, waited) = c.join().unwrap();
            assert_eq!((ready + waited) as u64, N - 1);
        }
    }

    /// Two groups of four threads each take turns through two sections (mma, epilogue) for 50
    /// rounds: the log of section entries must be exactly the ping-pong order — mma sections
    /// alternate 0,1,0,1..., epilogue sections alternate 0,1,..., and group g's epilogue of
    /// round r starts only after group g's mma of round r.
    #[test]
    fn ordered_sequence_barrier_alternates_two_groups() {
        const ROUNDS: usize = 50;
        const THREADS: u32 = 4;
        let storage = std::boxed::Box::leak(std::boxed::Box::new(OrderedSequenceBarrierStorage::<
            2,
            2,
        >::new()));
        let addr = storage as *mut _ as usize;
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        // initialize once; every thread then builds its handle without initializing
        let _ = unsafe { OrderedSequenceBarrier::<2, 2>::init(storage, true, 0, THREADS, || ()) };
        let threads: Vec<_> = (0..2 * THREADS)
            .map(|t| {
                let log = log.clone();
                std::thread::spawn(move || {
                    let g = t / THREADS;
                    let mut b = unsafe {
                        OrderedSequenceBarrier::<2, 2>::init(
                            addr as *mut _,
                            false,
                            g,
                            THREADS,
                            || (),
                        )
                    };
                    for r in 0..ROUNDS {
                        for section in 0..2 {
                            unsafe { b.wait() };
                            if t % THREADS == 0 {
                                log.lock().unwrap().push((section, g, r));
                            }
                            unsafe { b.arrive() };
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 4 * ROUNDS);
        for section in 0..2 {
            let seq: Vec<_> = log.iter().filter(|e| e.0 == section).collect();
            for (i, e) in seq.iter().enumerate() {
                assert_eq!(
                    (e.1, e.2),
                    ((i % 2) as u32, i / 2),
                    "section {section}: {seq:?}"
                );
            }
        }
        for (i, e) in log.iter().enumerate().filter(|(_, e)| e.0 == 1) {
            assert!(
                log[..i].contains(&(0, e.1, e.2)),
                "epilogue before its mma: {e:?}"
            );
        }
    }
}
