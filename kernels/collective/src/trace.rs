//! The CTA trace, a measuring build's timeline of the kernel's CTAs (feature `cta-trace`; off in
//! every default build, where [`record`] is nothing and the module holds no memory): each
//! record is four words in the module's global `cute_rs_cta_trace` — the launch
//! (`%gridid`), what happened and where (`kind`, the warpgroup, `%smid`, the CTA, the kernel's
//! `tag`), two values of the event (a work unit's tile and k-range) and `%globaltimer` — in a
//! ring of [`CAP`] records whose slot an atomic counter (the global's first word) hands out.
//! The host reads it after a run (`CUTE_RS_CTA_TRACE=FILE host gemm ...`; doc/fp8-gemm.md,
//! session 71): when each CTA of two launches started, waited, computed and stored its units.
//!
//! ```
//! use collective::trace::*;
//! // the record's second word: kind, warpgroup, SM, CTA, tag
//! let w1 = Kind::Unit.word1(1, 37, 201, 0x1_00c0);
//! assert_eq!((w1 & 15, (w1 >> 4) & 15, (w1 >> 8) & 255, (w1 >> 16) & 0xffff, w1 >> 32),
//!            (Kind::Unit as u64, 1, 37, 201, 0x1_00c0));
//! ```

/// Records in the ring (the latest `CAP` are kept; a power of two, the slot's modulus).
pub const CAP: usize = 1 << 18;
const _: () = assert!(CAP.is_power_of_two());
/// Words a record.
pub const WORDS: usize = 4;

/// The ring: word 0 the counter (its low 32 bits), then `CAP` records of [`WORDS`] words.
#[cfg(feature = "cta-trace")]
#[unsafe(no_mangle)]
#[allow(non_upper_case_globals)]
pub static mut cute_rs_cta_trace: [u64; 1 + CAP * WORDS] = [0; 1 + CAP * WORDS];

/// What a record says happened (its time the event's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// The CTA's barriers are initialized (before any wait); values: the cluster, its size.
    Start = 0,
    /// The wait for the kernel ahead returned (`griddepcontrol.wait`).
    Waited = 1,
    /// A consumer warpgroup begins a work unit's mainloop; values: the tile,
    /// `k_begin | k_count << 16`.
    Unit = 2,
    /// Its last `wgmma` retired (before the fixup).
    MmaDone = 3,
    /// The fixup returned; values: the tile, whether this warpgroup stores it.
    FixupDone = 4,
    /// Its epilogue's store returned.
    Stored = 5,
    /// A consumer warpgroup leaves its loop.
    End = 6,
    /// The producer warp leaves (after its tail and any wait).
    ProducerEnd = 7,
}

impl Kind {
    /// A record's second word: `kind | wg << 4 | sm << 8 | cta << 16 | tag << 32`.
    pub const fn word1(self, wg: u32, sm: u32, cta: u32, tag: u32) -> u64 {
        self as u64
            | ((wg as u64 & 15) << 4)
            | ((sm as u64 & 255) << 8)
            | ((cta as u64 & 0xffff) << 16)
            | ((tag as u64) << 32)
    }
}

/// Records `kind` of warpgroup `wg` with values `a`, `b` (one thread calls it) in the module's
/// ring; nothing unless the build has feature `cta-trace`.
#[inline(always)]
pub fn record(kind: Kind, wg: u32, tag: u32, a: u32, b: u32) {
    #[cfg(feature = "cta-trace")]
    // SAFETY: the ring is the module's global, of `1 + CAP · WORDS` words.
    unsafe {
        record_into(
            &raw mut cute_rs_cta_trace as *mut u64,
            CAP,
            kind,
            wg,
            tag,
            a,
            b,
        )
    };
    #[cfg(not(feature = "cta-trace"))]
    let _ = (kind, wg, tag, a, b);
}

/// [`record`] into the ring at `ring` of `cap` records (a power of two): the slot the counter
/// (`ring`'s first word) hands out, modulo `cap`, gets `%gridid`, [`Kind::word1`] (this CTA's
/// `%smid` and `%ctaid.x`), `a | b << 32` and `%globaltimer`.
///
/// ```
/// use collective::trace::*;
/// use device::emu::launch;
/// let mut ring = vec![0u64; 1 + 4 * WORDS];
/// let p = ring.as_mut_ptr() as usize;
/// // six CTAs of one thread record one event each into a ring of four records
/// // SAFETY: the ring holds 1 + 4 records; slots are handed out atomically.
/// unsafe {
///     launch((6, 1, 1), (1, 1, 1), 0, || {
///         let cta = device::thread::block_idx_x();
///         record_into(p as *mut u64, 4, Kind::Unit, 1, 7, cta, 10 * cta);
///     })
/// };
/// assert_eq!(ring[0] as u32, 6); // six records taken, the latest four kept
/// // each kept slot holds another CTA's record
/// let mut ctas: Vec<u64> = (0..4).map(|i| (ring[1 + WORDS * i + 1] >> 16) & 0xffff).collect();
/// ctas.sort();
/// ctas.dedup();
/// assert_eq!(ctas.len(), 4);
/// for i in 0..4 {
///     let r = &ring[1 + WORDS * i..1 + WORDS * (i + 1)];
///     let cta = (r[1] >> 16) & 0xffff;
///     assert_eq!((r[1] & 15, r[1] >> 32, r[2]), (Kind::Unit as u64, 7, cta | (10 * cta) << 32));
/// }
/// ```
///
/// # Safety
/// `ring` is a generic pointer to `1 + cap · WORDS` words of global memory, `cap` a power of
/// two.
#[inline(always)]
pub unsafe fn record_into(
    ring: *mut u64,
    cap: usize,
    kind: Kind,
    wg: u32,
    tag: u32,
    a: u32,
    b: u32,
) {
    use device::thread::{block_idx_x, global_timer, grid_id, sm_id};
    let t = global_timer();
    // SAFETY: the counter is the ring's first word; each slot is `WORDS` words inside it.
    unsafe {
        let slot = device::atomic::atomic_add_u32(ring as *mut u32, 1) as usize & (cap - 1);
        let r = ring.add(1 + slot * WORDS);
        *r = grid_id();
        *r.add(1) = kind.word1(wg, sm_id(), block_idx_x(), tag);
        *r.add(2) = a as u64 | ((b as u64) << 32);
        *r.add(3) = t;
    }
}
