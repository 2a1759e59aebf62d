//! CUTLASS's `PipelineTmaAsync` (`include/cutlass/pipeline/sm90_pipeline.hpp`): `STAGES`
//! shared-memory buffers, each guarded by a *full* mbarrier (the producer's TMA load completes
//! its bytes there) and an *empty* mbarrier (the consumers arrive there when done with the
//! buffer).
//!
//! The stage index and phase bit live in [`PipelineState`], inside the two role handles; no
//! kernel writes parity arithmetic. The roles are separate types: only a [`PipelineProducer`]
//! can acquire and commit, only a [`PipelineConsumer`] can wait and release, and the
//! transaction bytes a full barrier expects come from the load atom's type
//! ([`TransactionBytes`], e.g. [`crate::cute::tma::TmaAtom::TX_BYTES`]), never from a number in
//! the kernel.
//!
//! ```
//! use layout_types::cute::pipeline::*;
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
//!     unsafe { layout_types::cute::arch::mbarrier::mbarrier_complete_tx(s.full_barrier(), 16) };
//!     s.producer_commit();
//!     let c = unsafe { cons.consumer_wait() };              // waits for the bytes
//!     assert_eq!(data[c.index() as usize], [k; 16]);
//!     unsafe { cons.consumer_release(c) };
//! }
//! ```

use core::marker::PhantomData;

use super::arch::mbarrier::{
    fence_barrier_init, mbarrier_arrive, mbarrier_arrive_cluster, mbarrier_arrive_expect_tx,
    mbarrier_init, mbarrier_wait_parity,
};

/// The bytes one stage's load brings (the full barrier's `expect_tx`): a type-level constant of
/// the load atom.
pub trait TransactionBytes {
    /// Bytes per stage.
    const TX_BYTES: u32;
}

/// A position in the circular buffer: the stage index and the phase parity of its barriers
/// (CUTLASS's `PipelineState`). Advancing past the last stage wraps to 0 and flips the phase.
///
/// ```
/// use layout_types::cute::pipeline::PipelineState;
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
    /// assert_eq!(layout_types::cute::pipeline::PipelineState::<2>::new(1).phase(), 1);
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
    /// assert_eq!(layout_types::cute::pipeline::PipelineState::<2>::new(0).index(), 0);
    /// ```
    #[inline(always)]
    pub const fn index(&self) -> u32 {
        self.index
    }
    /// The phase parity the stage's barrier is waited on with.
    ///
    /// ```
    /// assert_eq!(layout_types::cute::pipeline::PipelineState::<2>::new(0).phase(), 0);
    /// ```
    #[inline(always)]
    pub const fn phase(&self) -> u32 {
        self.phase
    }
    /// How many times the state advanced.
    ///
    /// ```
    /// assert_eq!(layout_types::cute::pipeline::PipelineState::<2>::new(0).count(), 0);
    /// ```
    #[inline(always)]
    pub const fn count(&self) -> u32 {
        self.count
    }
    /// The next stage (`++state`).
    ///
    /// ```
    /// let mut s = layout_types::cute::pipeline::PipelineState::<2>::new(0);
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
}

/// The pipeline's barriers in shared memory: `STAGES` full and `STAGES` empty mbarriers
/// (CUTLASS's `SharedStorage`).
///
/// ```
/// let s = layout_types::cute::pipeline::PipelineStorage::<4>::new();
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
    /// let _ = layout_types::cute::pipeline::PipelineStorage::<2>::new();
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
    /// use layout_types::cute::pipeline::*;
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
            _tx: PhantomData,
        }
    }
    #[inline(always)]
    fn full(&self, i: u32) -> *mut u64 {
        unsafe { (self.storage as *mut u64).add(i as usize) }
    }
    #[inline(always)]
    fn empty(&self, i: u32) -> *mut u64 {
        unsafe { (self.storage as *mut u64).add(STAGES + i as usize) }
    }
    /// The producer role (`make_producer_start_state`: stage 0, phase 1, every buffer empty).
    /// Only the producer thread (one elected thread) takes it.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.producer().state().phase(), 1);
    /// ```
    #[inline(always)]
    pub fn producer(&self) -> PipelineProducer<STAGES, Tx> {
        PipelineProducer {
            pipe: *self,
            state: PipelineState::new(1),
        }
    }
    /// The consumer role (stage 0, phase 0).
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
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
    /// use layout_types::cute::pipeline::*;
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
    /// use layout_types::cute::pipeline::*;
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
}

impl<const STAGES: usize, Tx: TransactionBytes> PipelineProducer<STAGES, Tx> {
    /// Where the producer is.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.producer().state().index(), 0);
    /// ```
    #[inline(always)]
    pub fn state(&self) -> PipelineState<STAGES> {
        self.state
    }
    /// Waits until the stage's buffer is empty (every consumer released it), then arms its full
    /// barrier with `arrive_expect_tx(Tx::TX_BYTES)`. The stage borrows the producer until it is
    /// committed.
    ///
    /// # Safety
    /// Called by the one producer thread; the pipeline's storage is alive.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
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
            mbarrier_arrive_expect_tx(self.pipe.full(i), Tx::TX_BYTES);
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
    /// use layout_types::cute::pipeline::*;
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
    /// use layout_types::cute::pipeline::*;
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
    /// The full barrier the stage's TMA load completes its bytes on.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let mut prod = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) }.producer();
    /// let s = unsafe { prod.producer_acquire() };
    /// assert!(!s.full_barrier().is_null());
    /// s.producer_commit();
    /// ```
    #[inline(always)]
    pub fn full_barrier(&self) -> *mut u64 {
        self.producer.pipe.full(self.index())
    }
    /// Ends the producer's work on the stage and moves to the next (CUTLASS's
    /// `producer_commit`: with TMA the load itself completes the barrier, so nothing is issued).
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
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
    /// use layout_types::cute::pipeline::*;
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
}

impl<const STAGES: usize, Tx: TransactionBytes> PipelineConsumer<STAGES, Tx> {
    /// Where the consumer is.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
    /// struct B; impl TransactionBytes for B { const TX_BYTES: u32 = 16; }
    /// let mut st = PipelineStorage::<2>::new();
    /// let p = unsafe { PipelineTmaAsync::<2, B>::init(&mut st, true, 1, || ()) };
    /// assert_eq!(p.consumer().state().count(), 0);
    /// ```
    #[inline(always)]
    pub fn state(&self) -> PipelineState<STAGES> {
        self.state
    }
    /// Waits until the next stage's bytes have all landed, and moves past it.
    ///
    /// # Safety
    /// The pipeline's storage is alive; a producer will fill the stage.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
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
    /// Arrives on the stage's empty barrier (a signaling consumer; others only give the stage
    /// back): this consumer is done with the buffer (after the reads, or the TMA store reading
    /// it, have finished).
    ///
    /// # Safety
    /// The pipeline's storage is alive.
    ///
    /// ```
    /// use layout_types::cute::pipeline::*;
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

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cute::arch::mbarrier::mbarrier_complete_tx;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::vec::Vec;

    struct Words4;
    impl TransactionBytes for Words4 {
        const TX_BYTES: u32 = 32;
    }

    /// One producer thread and three consumer threads stream 300 stages through 3 buffers; each
    /// consumer must see every stage's data exactly in order, and the producer must never
    /// overwrite a buffer a consumer still reads.
    #[test]
    fn producer_and_consumers_on_threads_see_every_stage_in_order() {
        const STAGES: usize = 3;
        const N: u64 = 300;
        const CONSUMERS: u32 = 3;
        let storage = std::boxed::Box::leak(std::boxed::Box::new(PipelineStorage::<STAGES>::new()));
        let bufs: &'static [[AtomicU64; 4]; STAGES] =
            std::boxed::Box::leak(std::boxed::Box::new(core::array::from_fn(|_| {
                core::array::from_fn(|_| AtomicU64::new(0))
            })));
        let pipe =
            unsafe { PipelineTmaAsync::<STAGES, Words4>::init(storage, true, CONSUMERS, || ()) };
        let addr = pipe.storage as usize;
        let producer = std::thread::spawn(move || {
            let pipe = PipelineTmaAsync::<STAGES, Words4> {
                storage: addr as *mut _,
                _tx: PhantomData,
            };
            let mut prod = pipe.producer();
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
                    let pipe = PipelineTmaAsync::<STAGES, Words4> {
                        storage: addr as *mut _,
                        _tx: PhantomData,
                    };
                    let mut cons = pipe.consumer();
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
}
