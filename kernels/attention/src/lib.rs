//! The attention forward pass on Hopper (issue #33), FlashAttention-3's structure:
//! `O = softmax(scale · Q·Kᵀ + mask) · V` and the log-sum-exp of every query row, bf16 or fp16
//! in and out, fp32 accumulation and softmax, head dims 64, 128 and 256.
//!
//! One CTA of three warpgroups (384 threads) computes a 128-row tile of one (batch, query head):
//! warpgroup 0 is the producer (`setmaxnreg.dec 24`): one thread loads the tile's Q once and K
//! and V in blocks of `BN` keys with TMA, each into its own typed [`PipelineTmaAsync`] (Q one
//! stage, K and V [`STAGES`] each; full barriers count the boxes' bytes, empty barriers one
//! arrival per consumer warpgroup). Warpgroups 1 and 2 are the consumers (`setmaxnreg.inc 240`,
//! FlashAttention-3's split; 232 / 32 at head dim 256: `AttnTiles::MMA_REGS`),
//! 64 query rows each: per key block `S = Q·Kᵀ` (`wgmma` SS, `m64nBNk16` over the head dim),
//! the mask, the online softmax in the log2 domain (`exp2`, `log2(e)·scale` folded into one
//! multiplier; row max and sum over the quad of threads that shares a row), P rounded to 16
//! bits *in the accumulator registers* and fed as the A operand of `O += P·V` (`wgmma` RS,
//! `m64nDk16` over the keys; [`acc_as_a`] is the re-view), then the epilogue: O divided by the
//! row sum, converted, and stored through shared memory by TMA — the GEMM's TMA-store epilogue
//! in its row-major form ([`collective::epilogue_rows`]: `stmatrix` into 64 × 64 boxes of
//! `Layout_K_SW128_Atom`, one TMA store per box, drained under the next tile's mainloop) — or,
//! where a tile has no room for the boxes (head dim 256's 128 × 80) or no registers (head dim 128's
//! 176-key tile, [`config::o_boxes`]) or a box could reach past its varlen sequence, directly from
//! registers with per-row predicates; and the LSE.
//!
//! Shared-memory tiles are CuTe's GMMA atoms tiled by `tile_to_shape`: Q and K K-major
//! (`Layout_K_SW128_Atom`, rows × 64-wide column blocks, one TMA box `64 × rows` per block), V
//! the same bytes read MN-major (`Layout_MN_SW128_Atom` in K-then-MN order: head dim contiguous,
//! keys as the K mode of `P·V`). TMA zero-fills rows past the tensor's token extent, so any
//! sequence length works; columns past `seqlen_k` (and above the causal diagonal) are masked to
//! `-inf` before the softmax. The coordinates of every accumulator come from the atom's C layout
//! ([`acc_coord`]).
//!
//! Tensors are (batch, token, head, head_dim) with any 16-byte aligned strides (TMA maps of rank
//! 4 over (d, token, head, batch)); GQA / MQA read key/value head `h / group`; variable-length
//! batches (`cu_seqlens`) pack the sequences along the token mode (batch extent 1): a tile's
//! rows and keys are bounded by its sequence, and its O / LSE rows past the sequence's end are
//! never written (TMA clips a fixed-length tile's rows at the map's token extent; a varlen
//! warpgroup whose rows cross its sequence's end stores directly, per-row predicates).
//!
//! The tile's rows are [`AttnTiles::BM`]: 128 (two consumer warpgroups), or at head dim 64 also
//! 192 (the `_m192` entries: three consumer warpgroups, 512 threads, `setmaxnreg` 32 / 160,
//! FlashAttention-3's d64 tile), the consumer count following from `BM`. Its keys per block are
//! [`AttnTiles::BN`]: 128 at head dims 64 and 128, 80 at 256, and at head dim 128 also 176 (the
//! `_n176` entries, FlashAttention-3's non-causal d128 tile). Head dim 64's 128-row tile also
//! comes with Q as a register operand of `S = Q·Kᵀ` (the `_qr` entries: `wgmma` RS, each
//! consumer thread's share of Q loaded once per tile by `ldmatrix`, so the tensor cores read only
//! K from shared memory for S).
//!
//! Persistent: a grid of at most one CTA per SM deals out the (m-block, head, batch) tiles
//! round-robin; under a causal mask the tiles with the most key blocks (the last m-blocks) come
//! first.
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]
// `#[inline(always)]` on the epilogue's closures (the accumulators must stay registers)
#![feature(stmt_expr_attributes)]

pub mod config;
pub mod tiles;

use collective::epilogue_rows::{self, stage_chunk_rows_b16, store_chunks};
use collective::scheduler::{FixupOrder, FixupSlot};
pub use config::*;
use device::hint::{opaque, opaque_index};
use device::math::{ex2, fma, fmax};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{block_idx_x, grid_dim_x, thread_idx_x, trap};
use device::tma::TmaDescriptor;
use device::warp::shuffle_xor_f32;
use device::wgmma::MajorK;
use device::wgmma::{
    Bf16, F16, FenceOperand, MajorMN, MmaAsync, One, ScaleOut, commit_group, fence, fence_operand,
    mma_async_rs, mma_async_ss, setmaxnreg_dec, setmaxnreg_inc, wait_group,
};
use layout_types::cute::atom::mma::gmma_acc::{acc_as_a, acc_coord};
use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaStore};
use layout_types::cute::prelude::*;
use layout_types::cutlass::pipeline::{
    ConsumerStage, ConsumerToken, OrderedSequenceBarrier, OrderedSequenceBarrierStorage,
    PipelineConsumer, PipelineStorage, PipelineTmaAsync, TransactionBytes,
};
use tiles::{AttnTiles, KvTx, QTx, SmemAddressing, StageDescs, load_regs};

pub use tiles::{
    D64, D64M192, D128, D128N176, D128StreamK, D256, D256Base, D256N64, D256N64Base, D256StreamK,
};

/// `ln(2)`: the LSE back to base e.
const LN_2: f32 = core::f32::consts::LN_2;

/// 1024-byte alignment of the dynamic shared memory (the SW128 pattern's period).
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

/// The 16-bit element: its `wgmma` tag's conversion of two f32 into one packed register.
pub trait Elem {
    /// `lo` and `hi` rounded to nearest even, `lo` in bits 0..16.
    fn pack(lo: f32, hi: f32) -> u32;
}
impl Elem for Bf16 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        device::mma::pack_bf16x2(lo, hi)
    }
}
impl Elem for F16 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        device::mma::pack_f16x2(lo, hi)
    }
}

/// One work tile: (batch, query head, m-block) and its sequence's bounds.
#[derive(Clone, Copy)]
struct Tile {
    b: i32,
    h: i32,
    /// First query row of the tile in its sequence.
    m0: i32,
    /// The sequence's first query token / key token in the token mode.
    q_start: i32,
    k_start: i32,
    /// The sequence's lengths.
    sq: i32,
    sk: i32,
    /// Key blocks to visit: `kb0..n_blocks` (none when the mask hides every key).
    n_blocks: i32,
    /// The first key block of this work unit: 0, or where a stream-K range starts inside the
    /// tile (its tail; the unit's part of the tile is [`unit_part`]'s).
    kb0: i32,
    /// Causal: key `j` is visible from row `i` when `j <= i + offset`.
    offset: i32,
}

impl Tile {
    /// The unit's first key block: [`Tile::kb0`] on a tile with the split (`H::STREAM_K`), else
    /// the constant 0, so that the entries without the split compile to the code they had before
    /// it. (Read from the tile, the 0 was folded too late: their PTX changed, their SASS was
    /// scheduled anew and ran 2–7 % slower, runs s33g / s34a.)
    #[inline(always)]
    fn first_block<H: AttnTiles>(&self) -> i32 {
        if H::STREAM_K { self.kb0 } else { 0 }
    }
}

// the host sizes the split's workspace by `config::split_workspace_bytes`
const _: () =
    assert!(size_of::<FixupSlot>() * split_slots(256) == split_workspace_bytes(1, 1, 256));

/// A work unit holding all of its tile's key blocks.
const PART_WHOLE: i32 = 0;
/// The head of a tile split between two CTAs (key blocks from 0): it merges the tail's partial
/// and runs the epilogue.
const PART_HEAD: i32 = 1;
/// The tail of a split tile (key blocks to the tile's last): it hands its partial to the head.
const PART_TAIL: i32 = 2;

/// The tile after `i` in this CTA's share of the persistent schedule (`≥ n_tiles`: none
/// left). In round `k` the grid's CTAs take tiles `k·grid ..= k·grid + grid − 1`: CTA `c` the
/// `c`-th in one round and the `(grid − 1 − c)`-th in the next (a boustrophedon). Under a causal
/// mask the tiles' work falls with the index ([`tile_of`]: longest first), and taking the `c`-th
/// in every round gave the first CTAs the longest tile of every round: by a schedule model of
/// the bench shapes, 6 % (head dim 128) to 11 % (256) of the kernel idle from 4k keys; taking
/// turns, under 0.5 %. Derived from `i` alone, so it holds no register across the mainloop: the
/// round and the position are `idx2crd` of `i` in `(grid, rounds)`, the grid a [`FastDivmod`]
/// on `H`'s tiles with [`AttnTiles::SCHED_FAST_DIVMOD`] (`p.sched`).
#[inline(always)]
fn next_tile<H: AttnTiles>(p: &Params, i: i32, n_tiles: i32) -> i32 {
    let (c, grid) = (block_idx_x() as i32, grid_dim_x() as i32);
    let rounds = make_layout_left((grid, n_tiles.ceil_div(grid) + 1));
    let (pos, k): (i32, i32) = if H::SCHED_FAST_DIVMOD {
        idx2crd(i, (p.sched.grid, n_tiles))
    } else {
        rounds.idx2crd(i)
    };
    let turn = if pos == c { grid - 1 - c } else { c };
    rounds.crd2idx((turn, k + 1))
}

/// The persistent schedule: tile `i` of `m_blocks · heads · batch`. Without a mask, m-blocks
/// fastest (a head's K and V stay in L2 across its m-blocks); causal, `p.sched.order`: under
/// [`RasterOrder::AlongM`] (up to [`CAUSAL_M_FASTEST_MAX_BLOCKS`] m-blocks) m-blocks fastest too,
/// each head's last first, along [`RasterOrder::AlongHeads`] the m-blocks slowest and last first (all
/// heads' longest tiles first); tiles without [`AttnTiles::SCHED_FAST_DIVMOD`] take the second
/// under every causal mask (their extents are not in `p.sched`). The coordinates are `idx2crd`
/// of `i` in the order's shape, its first two extents the [`FastDivmod`]s of `p.sched` on `H`'s
/// tiles with [`AttnTiles::SCHED_FAST_DIVMOD`].
#[inline(always)]
fn tile_of<H: AttnTiles>(p: &Params, bm: i32, bn: i32, i: i32) -> Tile {
    let m_blocks = p.seqlen_q.ceil_div(bm);
    let (sd, causal) = (&p.sched, p.causal != CAUSAL_NONE);
    let (mb, h, b): (i32, i32, i32) = match (H::SCHED_FAST_DIVMOD, causal) {
        (true, false) => idx2crd(i, (sd.first, sd.second, p.batch)),
        (false, false) => idx2crd(i, (m_blocks, p.heads_q, p.batch)),
        (true, true) if sd.order == RasterOrder::AlongM => {
            // each head's m-blocks side by side, last first (its longest tiles first)
            let (mr, h, b): (i32, i32, i32) = idx2crd(i, (sd.first, sd.second, p.batch));
            (m_blocks - 1 - mr, h, b)
        }
        (true, true) => {
            let (h, b, mr): (i32, i32, i32) = idx2crd(i, (sd.first, sd.second, m_blocks));
            (m_blocks - 1 - mr, h, b)
        }
        (false, true) => {
            let (h, b, mr): (i32, i32, i32) = idx2crd(i, (p.heads_q, p.batch, m_blocks));
            (m_blocks - 1 - mr, h, b)
        }
    };
    let (q_start, k_start, sq, sk) = if p.cu_seqlens_q == 0 {
        (0, 0, p.seqlen_q, p.seqlen_k)
    } else {
        // SAFETY: `batch + 1` entries each (the launch's contract).
        unsafe {
            let (q0, q1) = (
                *(p.cu_seqlens_q as *const i32).add(b as usize),
                *(p.cu_seqlens_q as *const i32).add(b as usize + 1),
            );
            let (k0, k1) = (
                *(p.cu_seqlens_k as *const i32).add(b as usize),
                *(p.cu_seqlens_k as *const i32).add(b as usize + 1),
            );
            (q0, k0, q1 - q0, k1 - k0)
        }
    };
    let m0 = make_layout_left((bm, m_blocks)).crd2idx((0i32, mb));
    let offset = if p.causal == CAUSAL_BOTTOM_RIGHT {
        sk - sq
    } else {
        0
    };
    // the keys any row of the tile sees: all, or up to the last row's diagonal
    let keys = if p.causal == CAUSAL_NONE {
        sk
    } else {
        sk.min(m0 + bm + offset).max(0)
    };
    let n_blocks = if m0 < sq { keys.ceil_div(bn) } else { 0 };
    Tile {
        b,
        h,
        m0,
        q_start,
        k_start,
        sq,
        sk,
        n_blocks,
        kb0: 0,
        offset,
    }
}

/// This CTA's stream-K segments (`p.split`): segment `k` of its range is key blocks
/// `kb0..ke` of tile `tile[k]` of the persistent order, `blocks[k]` the `(kb0, ke)` of
/// [`segment_blocks`] (`ke = 0`: no segment). Written once per CTA into shared memory past the
/// pipelines' barriers ([`Segments::write`]) and read by each role at each of its stream-K
/// units: derived from the split's parameters in the tile loop, the cuts cost both roles
/// registers their loops need (ptxas spilled them, session 33).
#[repr(C)]
struct Segments {
    tile: [i32; 3],
    blocks: [i32; 3],
}

/// A segment's key blocks `(kb0, ke) → kb0 + 2^16·ke` ([`Segments::blocks`]; a tile has fewer than
/// 2^15 key blocks where the host splits).
#[inline(always)]
fn segment_blocks() -> Layout<(_65536, i32), (_1, _65536)> {
    make_layout_left((_65536, 32768))
}

impl Segments {
    /// Thread 0's table of this CTA's segments (all empty without a split).
    ///
    /// # Safety
    /// `this` is the table's place in shared memory; before the CTA's barrier that ends the
    /// set-up (the pipelines' `init`).
    #[inline(always)]
    unsafe fn write(this: *mut Segments, p: &Params) {
        let c = block_idx_x() as i32;
        device::unroll!(3, |k| {
            let (tile, kb0, ke) = if p.split.sk_tiles() > 0 {
                p.split.segment(c, k as i32).unwrap_or((0, 0, 0))
            } else {
                (0, 0, 0)
            };
            unsafe {
                (*this).tile[k] = tile;
                (*this).blocks[k] = segment_blocks().crd2idx((kb0, ke));
            }
        });
    }
    /// Segment `k`'s `(tile, kb0, ke)`, `ke = 0` for none (`k < 3`).
    #[inline(always)]
    fn get(this: *const Segments, k: i32) -> (i32, i32, i32) {
        // SAFETY: the table `write` filled before the set-up's barrier; `k` in 0..3
        let (tile, blocks) = unsafe {
            (
                core::ptr::read_volatile(&raw const (*this).tile[k as usize]),
                core::ptr::read_volatile(&raw const (*this).blocks[k as usize]),
            )
        };
        let (kb0, ke): (i32, i32) = segment_blocks().idx2crd(blocks);
        (tile, kb0, ke)
    }
}

/// This CTA's first work unit: its first whole tile, or, with none (`p.split`'s data-parallel
/// tiles fewer than the grid's CTAs), its stream-K range's first segment; −1 for none. Work
/// units are `p.split.dp_tiles() + k` past the whole tiles, `k` the segment of this CTA's
/// stream-K range (at most three: a range is at least a tile's key blocks and under two
/// tiles', [`StreamKSplit`]).
#[inline(always)]
fn first_work<H: AttnTiles>(p: &Params) -> i32 {
    let c = block_idx_x() as i32;
    if c < p.split.dp_tiles() {
        c
    } else {
        last_or_none::<H>(p, p.split.dp_tiles())
    }
}

/// `i` if it is a unit of this CTA's stream-K range (one of its three segments), else −1 (the
/// end: a negative index, so that no bound is held across the key loop — ptxas spilled one).
#[inline(always)]
fn last_or_none<H: AttnTiles>(p: &Params, i: i32) -> i32 {
    let k = i - p.split.dp_tiles();
    if k < 0 || (H::STREAM_K && k < 3 && p.split.sk_tiles() > 0) {
        i
    } else {
        -1
    }
}

/// Whether `next`, the unit after this one, is past the CTA's last ([`next_work`]'s −1 with the
/// split, [`next_tile`]'s `n_tiles` or more without).
#[inline(always)]
fn last_unit<H: AttnTiles>(next: i32, n_tiles: i32) -> bool {
    if H::STREAM_K {
        next < 0
    } else {
        next >= n_tiles
    }
}

/// The unit after `i` ([`next_tile`] among the whole tiles, then the stream-K segments in
/// turn), −1 after the last.
#[inline(always)]
fn next_work<H: AttnTiles>(p: &Params, i: i32) -> i32 {
    let dp = p.split.dp_tiles();
    let next = if i < dp {
        next_tile::<H>(p, i, dp).min(dp)
    } else {
        i + 1
    };
    last_or_none::<H>(p, next)
}

/// Work unit `i` of this CTA: whole tile `i` of the persistent schedule ([`tile_of`]) below
/// `p.split.dp_tiles()`, else segment `i − dp_tiles` of the CTA's stream-K range — its tile's
/// key blocks `kb0..n_blocks`, a head, a tail or (rarely) the whole tile; a segment past the
/// range comes back as a tile past its sequence (`m0 = sq`: skipped).
#[inline(always)]
fn work_of<H: AttnTiles>(p: &Params, segs: *const Segments, bm: i32, bn: i32, i: i32) -> Tile {
    let k = i - p.split.dp_tiles();
    if !H::STREAM_K || k < 0 {
        return tile_of::<H>(p, bm, bn, i);
    }
    let (j, kb0, ke) = Segments::get(segs, k);
    let mut tile = tile_of::<H>(p, bm, bn, j);
    tile.kb0 = kb0;
    tile.n_blocks = ke;
    if ke == 0 {
        tile.m0 = tile.sq;
    }
    tile
}

/// Work unit `i`'s part of its tile, and the CTA whose workspace slot it meets the other part
/// in: [`PART_WHOLE`] (a whole tile, or a stream-K segment that holds all of its tile), or a
/// split tile's [`PART_HEAD`] (the next CTA's slot) or [`PART_TAIL`] (this CTA's). Derived from
/// `i` after the key loop (held across it, the part cost d128's tiles a register).
#[inline(always)]
fn unit_part<H: AttnTiles>(p: &Params, segs: *const Segments, i: i32) -> (i32, i32) {
    let k = i - p.split.dp_tiles();
    if !H::STREAM_K || k < 0 {
        return (PART_WHOLE, 0);
    }
    let c = block_idx_x() as i32;
    let (_, kb0, ke) = Segments::get(segs, k);
    if kb0 > 0 {
        (PART_TAIL, c)
    } else if ke < p.split.units() {
        (PART_HEAD, c + 1)
    } else {
        (PART_WHOLE, 0)
    }
}

/// Consumer warpgroup `wg`'s first workspace slot of CTA `c` (`p.workspace`'s layout: the
/// `slots` (`split_slots(D)`) of a warpgroup, then the warpgroups of a CTA, side by side).
#[inline(always)]
fn split_slot(p: &Params, slots: usize, consumers: i32, wg: i32, c: i32) -> *mut FixupSlot {
    let slots = slots as i32;
    let i: i32 = make_layout_left((slots, consumers, grid_dim_x() as i32)).crd2idx((0, wg, c));
    // SAFETY: inside the workspace of `split_workspace_bytes(grid, consumers, D)` (the launch's
    // contract for a split)
    unsafe { (p.workspace as *mut FixupSlot).add(i as usize) }
}

/// Where row `j` of a warpgroup's partial lies: `(slot, row)` past its first slot `slot` (32
/// rows of four floats a thread each: `j ↦ (j div 32, j mod 32)`).
#[inline(always)]
fn partial_row(slot: *mut FixupSlot, j: usize) -> (*mut FixupSlot, usize) {
    let (row, k): (i32, i32) = make_layout_left((_32, 2)).idx2crd(j as i32);
    // SAFETY: the warpgroup's `split_slots(D)` slots hold rows `0..32·split_slots(D)`
    (unsafe { slot.add(k as usize) }, row as usize)
}

/// A split tile's merge: this thread's O accumulators, running maxima (log2 domain) and sums
/// of key blocks `0..kb` with the tail's of `kb..` in `slot`'s partial (its O in rows
/// `0..OD2/4`, its maxima then sums in row `OD2/4`, [`partial_row`]) — each side rescaled to
/// the larger max, as the online softmax rescales a block — then the first slot's flag
/// cleared. The tail's O is read four values at a time and merged as it comes (the whole of it
/// beside O cost the mainloop registers).
///
/// # Safety
/// `slot` is the first slot of the tail of this tile (the next CTA's); `t < 128`.
#[inline(always)]
unsafe fn merge_partial<const OD2: usize>(
    slot: *mut FixupSlot,
    t: usize,
    o: &mut [f32; OD2],
    row_max: &mut [f32; 2],
    row_sum: &mut [f32; 2],
) {
    let (ml_slot, ml_row) = partial_row(slot, OD2 / 4);
    let pml = unsafe {
        FixupSlot::wait(slot, t);
        FixupSlot::load::<4>(ml_slot, t, ml_row, FixupOrder::InOrder)
    };
    let (mut ca, mut cb) = ([0f32; 2], [0f32; 2]);
    device::unroll!(2, |h| {
        let m = fmax(row_max[h], pml[h]);
        // (a row that saw no key on either side: subtract 0, no NaN)
        let m_use = if m == f32::NEG_INFINITY { 0.0 } else { m };
        ca[h] = ex2(row_max[h] - m_use);
        cb[h] = ex2(pml[h] - m_use);
        row_sum[h] = fma(row_sum[h], ca[h], pml[2 + h] * cb[h]);
        row_max[h] = m;
    });
    device::unroll!(OD2 / 4, |j| {
        let po = unsafe { FixupSlot::load::<4>(slot, t, j, FixupOrder::InOrder) };
        device::unroll!(4, |e| {
            let v = 4 * j + e;
            o[v] = fma(o[v], ca[e / 2], po[e] * cb[e / 2]);
        });
    });
    unsafe { FixupSlot::clear(slot, t) };
}

/// `S = Q·Kᵀ` of this warpgroup's 64 rows and the `BN` keys of a K stage: the head dim's
/// k-blocks of 16 (`wgmma` SS, the first overwriting S), committed as one group. `q`: (warpgroup,
/// k-block) → the descriptor of the warpgroup's Q rows; `k`: k-block → the K stage's.
///
/// # Safety
/// The whole warpgroup; Q and the K stage loaded (their full barriers passed).
#[inline(always)]
unsafe fn gemm_qk<E, H: AttnTiles, const SN2: usize>(
    q: impl Fn(i32, usize) -> u64,
    wg: i32,
    k: impl Fn(usize) -> u64,
    s: &mut [f32; SN2],
) where
    [f32; SN2]: MmaAsync<E>,
{
    fence_operand(s);
    fence();
    device::unroll!(H::D / 16, |kb| {
        let scale = if kb == 0 {
            ScaleOut::Zero
        } else {
            ScaleOut::One
        };
        // SAFETY: the caller's; canonical GMMA layouts in this CTA's shared memory.
        unsafe { mma_async_ss::<E, MajorK, MajorK, One, One, _>(q(wg, kb), k(kb), s, scale) };
    });
    commit_group();
}

/// `S = Q·Kᵀ` as [`gemm_qk`], Q from registers (`wgmma` RS): `qa` holds this thread's Q
/// fragment ([`AttnTiles::q_regs`]), k-block `kb`'s four registers at `4·kb ..`.
///
/// # Safety
/// As [`gemm_qk`]; `qa` is not written until a `wait_group` retires the group.
#[inline(always)]
unsafe fn gemm_qk_rs<E, H: AttnTiles, const SN2: usize, const QA: usize>(
    qa: &[f32; QA],
    k: impl Fn(usize) -> u64,
    s: &mut [f32; SN2],
) where
    [f32; SN2]: MmaAsync<E>,
{
    fence_operand(s);
    fence();
    device::unroll!(H::D / 16, |kb| {
        let scale = if kb == 0 {
            ScaleOut::Zero
        } else {
            ScaleOut::One
        };
        let a = a_kblock(qa, kb);
        // SAFETY: the caller's.
        unsafe { mma_async_rs::<E, MajorK, One, One, _>(a, k(kb), s, scale) };
    });
    commit_group();
}

/// The four registers of k-block `kb` of a 16-bit `wgmma` RS A operand held in `r` (two elements
/// a register: `ALayout_64x16`'s four per thread and k-block, the k-blocks in turn): the
/// k-block mode of the registers' layout `(_4, N/4):(_1, _4)`.
#[inline(always)]
fn a_kblock<const N: usize>(r: &[f32; N], kb: usize) -> [u32; 4] {
    let regs = make_layout_left((_4, (N / 4) as i32));
    core::array::from_fn(|v| r[regs.crd2idx((v as i32, kb as i32)).value() as usize].to_bits())
}

/// `O += P·V`: P (this warpgroup's `64 × BN`, 16-bit, in the registers [`convert_p`] filled) as
/// the A operand of `wgmma` RS, V read MN-major, one k-block per 16 keys, committed as one group.
/// `v`: k-block → the descriptor of the V stage. With `LSUM` the row sums on the tensor core
/// too: per k-block, beside `O += P·V`, a `wgmma` m64n8k16 RS of the same P registers by a
/// 16 × 8 tile of ones (`ones`: its descriptor, [`tiles::ones_desc`]) into `l` (`CLayout_64x8`:
/// value `e + 2·h` is row half `h`, every column the row's sum over the block's keys, the quad's
/// four threads alike), in the same group; without it `l` and `ones` are not read.
///
/// # Safety
/// The whole warpgroup; the V stage loaded; `pa`, `o` (and with `LSUM` `l`) are not touched
/// until a `wait_group` retires the group (then [`retire_pv`]); with `LSUM`, `ones` describes
/// 256 bytes of 16-bit ones in this CTA's shared memory, made visible to the async proxy.
#[inline(always)]
unsafe fn gemm_pv<E, const OD2: usize, const PA: usize, const LSUM: bool>(
    pa: &[f32; PA],
    v: impl Fn(usize) -> u64,
    o: &mut [f32; OD2],
    l: &mut [f32; 4],
    ones: u64,
) where
    [f32; OD2]: MmaAsync<E>,
    [f32; 4]: MmaAsync<E>,
{
    fence_operand(o);
    if LSUM {
        fence_operand(l);
    }
    fence();
    device::unroll!(PA / 4, |kb| {
        let a = a_kblock(pa, kb);
        // SAFETY: the caller's.
        unsafe { mma_async_rs::<E, MajorMN, One, One, _>(a, v(kb), o, ScaleOut::One) };
        if LSUM {
            // SAFETY: the caller's; the ones tile is K-major, its values all 1.
            unsafe { mma_async_rs::<E, MajorK, One, One, _>(a, ones, l, ScaleOut::One) };
        }
    });
    commit_group();
}

/// After the `wait_group` that retired a [`gemm_pv`]: its registers (`o`, `pa`, and with `LSUM`
/// `l`) pinned there, so nothing reads or reuses them earlier.
#[inline(always)]
fn retire_pv<const OD2: usize, const PA: usize, const LSUM: bool>(
    o: &mut [f32; OD2],
    pa: &mut [f32; PA],
    l: &mut [f32; 4],
) where
    [f32; OD2]: FenceOperand,
    [f32; PA]: FenceOperand,
{
    fence_operand(o);
    fence_operand(pa);
    if LSUM {
        fence_operand(l);
    }
}

/// The mask of one tile's warpgroup: keys past the sequence, and above the causal diagonal.
#[derive(Clone, Copy)]
struct Masks {
    /// The thread in its warpgroup.
    t: i32,
    /// The warpgroup's first row in the sequence.
    r0: i32,
    tile: Tile,
    causal: bool,
    bn: i32,
}
impl Masks {
    /// Sets S's hidden entries of key block `n` to `-inf` (only blocks that cross the sequence's
    /// end or the diagonal look at their entries' coordinates, [`acc_coord`]).
    #[inline(always)]
    fn apply<const SN2: usize>(&self, s: &mut [f32; SN2], n: i32, opq: bool) {
        let (tile, n0) = (self.tile, n * self.bn);
        let diag = self.causal && n0 + self.bn - 1 > self.r0 + tile.offset;
        if n0 + self.bn > tile.sk || diag {
            // `opq` (the split's entries): the thread through `opaque`, so its values' coordinates
            // are computed here, not hoisted out of the tile loop into a register each held across
            // the key loop (the registers the split's work units needed; non-causal, the mask
            // touches a ragged last block only)
            let t = if opq { opaque(self.t) } else { self.t };
            device::unroll!(SN2 / 4, |j| device::unroll!(4, |e| {
                let v = 4 * j + e;
                let (r, c) = acc_coord(t, v as i32);
                let (row, col) = (self.r0 + r, n0 + c);
                if col >= tile.sk || (self.causal && col > row + tile.offset) {
                    s[v] = f32::NEG_INFINITY;
                }
            }));
        }
    }

    /// The key blocks before the first that [`Masks::apply`] masks: blocks `n < clean_blocks()`
    /// end inside the sequence and (causal) left of this warpgroup's diagonal, so the key loop
    /// runs them without the mask's code (FlashAttention-3's unmasked loop). The first key each
    /// bound hides — the sequence's end `sk`; the diagonal's first hidden key of the
    /// warpgroup's first row, `r0 + offset + 1` — as a (key in its block, block) coordinate:
    /// the blocks before its block are whole.
    ///
    /// ```text
    /// bn 128, sk 1000, non-causal:                    clean_blocks() == 7   (block 7 ends at 1023)
    /// bn 128, sk 4096, causal, r0 + offset == 1023:   clean_blocks() == 8   (key 1024 hidden)
    /// ```
    #[inline(always)]
    fn clean_blocks(&self) -> i32 {
        let block = |key: i32| -> i32 {
            let (_, n): (i32, i32) = idx2crd(key.max(0), (self.bn, self.tile.n_blocks));
            n
        };
        let seq = block(self.tile.sk);
        if self.causal {
            seq.min(block(self.r0 + self.tile.offset + 1))
        } else {
            seq
        }
    }
}

/// FlashAttention-3's warp scheduler barrier (`warp_scheduler_barrier_sync/arrive`): the two
/// consumer warpgroups take turns issuing their `wgmma`s, so one's softmax runs while the
/// other's GEMMs keep the tensor cores busy. Warpgroup `w` waits at named barrier `1 + w`
/// (256 threads: its own 128 and the other's arrival) and, once its GEMMs are issued, arrives at
/// the other's; warpgroup 0 arrives at its own once at the start, so it goes first. Both
/// warpgroups run the same tiles and key blocks, so their turns pair up. `ON = false`: no-ops.
#[derive(Clone, Copy)]
struct WarpScheduler<const ON: bool> {
    /// The consumer warpgroup (0 or 1), warp-uniform.
    wg: i32,
}
impl<const ON: bool> WarpScheduler<ON> {
    #[inline(always)]
    fn init(wg: i32) -> Self {
        if ON && wg == 0 {
            device::thread::named_barrier_arrive::<1, 256>();
        }
        Self { wg }
    }
    /// Waits for this warpgroup's turn.
    #[inline(always)]
    fn sync(&self) {
        if ON {
            if self.wg == 0 {
                device::thread::named_barrier_sync::<1, 256>();
            } else {
                device::thread::named_barrier_sync::<2, 256>();
            }
        }
    }
    /// Hands the turn to the other warpgroup.
    #[inline(always)]
    fn arrive(&self) {
        if ON {
            if self.wg == 0 {
                device::thread::named_barrier_arrive::<2, 256>();
            } else {
                device::thread::named_barrier_arrive::<1, 256>();
            }
        }
    }
}

/// The phase trace of one (tile, role) (`TR`: the `measure` build's `pt` / `ptw` entries;
/// `config::TRACE_WORDS`): the role's first thread stores `%clock64` at the events `TR_*` into
/// its words of the host's buffer. `TR = false` (every other entry): no-ops, nothing held.
#[derive(Clone, Copy)]
struct Trace<const TR: bool> {
    /// The host's buffer (the entry's parameter).
    buf: u64,
    /// This (tile, role)'s first word in `buf`; negative when off or not the role's first
    /// thread (one register, not a 64-bit pointer, across the mainloop).
    w: i32,
}
impl<const TR: bool> Trace<TR> {
    /// The words of tile `i` of `n_tiles` (its round of the persistent schedule, [`next_tile`]'s
    /// `(grid, rounds)`, and this CTA) and `role` in `buf`, written by this thread if `first`.
    #[inline(always)]
    fn new(buf: u64, i: i32, n_tiles: i32, role: i32, first: bool) -> Self {
        if !TR || !first || buf == 0 {
            return Self { buf, w: -1 };
        }
        let (c, grid) = (block_idx_x() as i32, grid_dim_x() as i32);
        let rounds = n_tiles.ceil_div(grid) + 1;
        let (_, k): (i32, i32) = make_layout_left((grid, rounds)).idx2crd(i);
        let words = make_layout_left((TRACE_WORDS as i32, TRACE_ROLES as i32, grid, rounds));
        Self {
            buf,
            w: words.crd2idx((0i32, role, c, k)),
        }
    }
    /// Word `e` takes `v`.
    #[inline(always)]
    fn value(&self, e: usize, v: u64) {
        if TR && self.w >= 0 {
            // SAFETY: inside the host's buffer (`config::TRACE_WORDS` words a role and tile).
            unsafe { *(self.buf as *mut u64).add(self.w as usize + e) = v };
        }
    }
    /// Word `e` takes the clock.
    #[inline(always)]
    fn mark(&self, e: usize) {
        if TR && self.w >= 0 {
            self.value(e, device::thread::clock64());
        }
    }
}

/// The 128 threads of consumer warpgroup `wg` (0, 1 or 2) meet at named barrier `3 + wg` (ids
/// 1 and 2 are [`WarpScheduler`]'s).
#[inline(always)]
fn warpgroup_barrier(wg: i32) {
    match wg {
        0 => device::thread::named_barrier_sync::<3, 128>(),
        1 => device::thread::named_barrier_sync::<4, 128>(),
        _ => device::thread::named_barrier_sync::<5, 128>(),
    }
}

/// How [`online_softmax`] reduces a row's values to its max (and sum): [`RED_CHAIN`] or
/// [`RED_TREE`]. (`RED_ROWS`, both rows' maxima in four chains each, measured no gain on the
/// H200 and was removed: doc/attention.md.)
pub type Reduction = u8;
/// One dependent chain per row, the rows one after the other (the default).
pub const RED_CHAIN: Reduction = 0;
/// The row max and sum as tree reductions ([`row_reduce`]).
pub const RED_TREE: Reduction = 1;

/// The online softmax of one key block (FlashAttention-2/3), in the log2 domain: per row the
/// new max of `S·scale·log2 e` (over the thread's values, then the quad of lanes that shares the
/// row), `P = exp2(S·scale·log2 e − max)` in place, the running sum; returns each row's
/// correction `exp2(old max − new max)` of O. Accumulator value `v = e + 2·h + 4·j` is (column
/// pair, row half, column block). `RED`: how the row's values are reduced ([`Reduction`]),
/// tested with inline `const { .. }` (a `let` of it captured by the per-row closure is an
/// environment load in MIR: the dead branch stays and LLVM outlined the closure into a `.func`).
/// `LSUM`: no row sum here (the tensor core sums P, [`gemm_pv`]): `row_sum` is left alone.
#[inline(always)]
fn online_softmax<const SN2: usize, const RED: Reduction, const LSUM: bool>(
    s: &mut [f32; SN2],
    row_max: &mut [f32; 2],
    row_sum: &mut [f32; 2],
    scale_log2: f32,
) -> [f32; 2] {
    let mut corr = [0f32; 2];
    device::unroll!(2, |h| {
        let mut mx = if const { RED == RED_TREE } {
            row_reduce(s, h, fmax)
        } else {
            let mut mx = f32::NEG_INFINITY;
            device::unroll!(SN2 / 4, |j| device::unroll!(2, |e| mx =
                fmax(mx, s[4 * j + 2 * h + e])));
            mx
        };
        // the quad of threads sharing the row (lanes 4r..4r+3)
        mx = fmax(mx, unsafe { shuffle_xor_f32(!0, mx, 1) });
        mx = fmax(mx, unsafe { shuffle_xor_f32(!0, mx, 2) });
        let m_new = fmax(row_max[h], mx * scale_log2);
        // a row that has seen no key yet subtracts 0 (exp2(-inf - 0) = 0, no NaN)
        let m_use = if m_new == f32::NEG_INFINITY {
            0.0
        } else {
            m_new
        };
        corr[h] = ex2(row_max[h] - m_use);
        row_max[h] = m_new;
        let mut sum = 0f32;
        device::unroll!(SN2 / 4, |j| device::unroll!(2, |e| {
            let v = 4 * j + 2 * h + e;
            s[v] = ex2(fma(s[v], scale_log2, -m_use));
            if const { RED != RED_TREE && !LSUM } {
                sum += s[v];
            }
        }));
        if const { RED == RED_TREE && !LSUM } {
            sum = row_reduce(s, h, |a, b| a + b);
        }
        if const { !LSUM } {
            row_sum[h] = fma(row_sum[h], corr[h], sum);
        }
    });
    corr
}

/// `f` over the thread's values of row half `h` (`v = e + 2·h + 4·j`) as a tree: the column
/// pairs first, then the column blocks halved level by level, so the dependent chain is
/// `1 + ⌈log2(SN2/4)⌉` long instead of `SN2/2` (the consumers have two warps a scheduler: a
/// long chain is latency no other warp hides).
#[inline(always)]
fn row_reduce<const SN2: usize>(s: &[f32; SN2], h: usize, f: impl Fn(f32, f32) -> f32) -> f32 {
    let mut x = [0f32; SN2];
    device::unroll!(SN2 / 4, |j| x[4 * j] =
        f(s[4 * j + 2 * h], s[4 * j + 2 * h + 1]));
    // levels over the column blocks x[4·j]: n blocks → ⌈n/2⌉ (at most 6 levels: 64 blocks)
    device::unroll!(6, |level| {
        let n = (SN2 / 4).div_ceil(1 << level);
        let half = n.div_ceil(2);
        if n > 1 {
            device::unroll!(32, |j| if j + half < n {
                x[4 * j] = f(x[4 * j], x[4 * (j + half)]);
            });
        }
    });
    x[0]
}

/// The epilogue's totals of this thread's two rows (accumulator values 0 and 2): `1 / l` and
/// the LSE `(log2 l + max)·ln 2`, `l` the row's sum over the quad of threads that shares it (or,
/// with `LSUM`, the tensor core's whole-row sum already); a row with no visible key keeps 0 and
/// +inf (FlashAttention's).
#[inline(always)]
fn row_totals<const LSUM: bool>(
    row_sum: &[f32; 2],
    row_max: &[f32; 2],
    lsum: &[f32; 4],
) -> ([f32; 2], [f32; 2]) {
    let mut inv = [0f32; 2];
    let mut lse = [f32::INFINITY; 2];
    device::unroll!(2, |h| {
        let l = if LSUM {
            lsum[2 * h]
        } else {
            let mut l = row_sum[h];
            l += unsafe { shuffle_xor_f32(!0, l, 1) };
            l += unsafe { shuffle_xor_f32(!0, l, 2) };
            l
        };
        if l > 0.0 {
            inv[h] = 1.0 / l;
            lse[h] = (device::math::lg2(l) + row_max[h]) * LN_2;
        }
    });
    (inv, lse)
}

/// Stores this thread's two rows' LSE from the quad's first thread (rows past the sequence
/// skipped): `r0` the warpgroup's first row, `t` the thread in the warpgroup.
#[inline(always)]
fn store_lse(p: &Params, tile: &Tile, r0: i32, t: i32, lse: [f32; 2]) {
    let (quad_col, _): (i32, i32) = make_layout_left((_4, _32)).idx2crd(t);
    if quad_col == 0 {
        device::unroll!(2, |h| {
            let (r, _) = acc_coord(t, 2 * h as i32);
            let row = r0 + r;
            if row < tile.sq {
                let at = p.lse_stride[0] * tile.b as i64
                    + p.lse_stride[1] * tile.h as i64
                    + (tile.q_start + row) as i64;
                // SAFETY: inside LSE.
                unsafe { *(p.lse as *mut f32).offset(at as isize) = lse[h] };
            }
        });
    }
}

/// O's rows times their corrections (value `v`'s row half is `(v / 2) mod 2`). `LAZY`: only
/// when some row of the warp has a correction other than 1 (a warp-uniform branch; skipping a
/// product by exactly 1 changes no bit).
#[inline(always)]
fn rescale<const OD2: usize, const LAZY: bool>(o: &mut [f32; OD2], corr: [f32; 2]) {
    if LAZY
        && !unsafe {
            device::warp::vote_any(device::warp::FULL_MASK, corr[0] != 1.0 || corr[1] != 1.0)
        }
    {
        return;
    }
    device::unroll!(OD2 / 4, |j| device::unroll!(4, |e| o[4 * j + e] *=
        corr[e / 2]));
}

/// P rounded to 16 bits, in the A-operand registers of `P·V`: the accumulator re-viewed as A
/// ([`acc_as_a`]: k-block `kb`'s register `r` packs accumulators `(2r, 2r+1)` of its eight). The
/// packed words are held as f32 bit patterns so `fence_operand` can pin them while a `wgmma`
/// reads them.
#[inline(always)]
fn convert_p<E: Elem, const SN2: usize, const PA: usize>(s: &[f32; SN2]) -> [f32; PA] {
    const { assert!(2 * PA == SN2) };
    let a_view = acc_as_a();
    let mut pa = [0f32; PA];
    device::unroll!(PA / 4, |kb| device::unroll!(4, |r| {
        let lo: i32 = a_view.crd2idx((2 * r as i32, kb as i32));
        let hi: i32 = a_view.crd2idx((2 * r as i32 + 1, kb as i32));
        pa[4 * kb + r] = f32::from_bits(E::pack(s[lo as usize], s[hi as usize]));
    }));
    pa
}

/// The next stage of `c`: with a probe taken earlier ([`PipelineConsumer::consumer_try_wait`])
/// it blocks only if the probe saw the stage loading; without one, a plain wait.
///
/// # Safety
/// As [`PipelineConsumer::consumer_wait`].
#[inline(always)]
unsafe fn wait_stage<const ST: usize, Tx: TransactionBytes>(
    c: &mut PipelineConsumer<ST, Tx>,
    token: Option<ConsumerToken>,
) -> ConsumerStage<ST> {
    match token {
        Some(t) => unsafe { c.consumer_wait_with(t) },
        None => unsafe { c.consumer_wait() },
    }
}

/// The attention forward body for element `E` and head dim / key block `H` (`OD2 = D/2`
/// accumulators of O, `SN2 = BN/2` of S, `PA = BN/4` registers of P); `OVERLAP`: the
/// intra-warpgroup overlap of S and P·V (else one `wgmma` group at a time, the baseline);
/// `PINGPONG` (with `OVERLAP`): the two consumer warpgroups take turns issuing their `wgmma`s
/// (CUTLASS's `OrderedSequenceBarrier`), so one's softmax runs under the other's GEMMs;
/// `RED`: how the row max (and sum) reduce ([`Reduction`]: [`RED_CHAIN`], [`RED_TREE`]);
/// `ST`: the stages of the K and V rings ([`STAGES`] by default); `SPLIT`
/// (with `OVERLAP`): the wait for the next V ends the softmax's basic block, so ptxas
/// keeps the `wait_group` for P·V after the softmax (without it the softmax waits for P·V);
/// `RSB` (with `OVERLAP`): O takes block n−1's correction between S_n's and P_{n−1}·V's issue
/// (FlashAttention-3's `RescaleOBeforeGemm`) instead of after P·V's wait; `NB` (with
/// `OVERLAP`): the consumer warpgroups take turns by named barriers ([`WarpScheduler`],
/// FlashAttention-3's `warp_scheduler_barrier`); `TW` (with `OVERLAP`): the next K and V full
/// barriers probed right after the `wgmma` issue
/// ([`PipelineConsumer::consumer_try_wait`]), so the wait that spends the probe usually finds
/// them passed (with `SPLIT`: V_n's wait after the softmax, the basic-block boundary that keeps
/// P·V's `wait_group` below the softmax, is then mostly a taken branch); `LAZY`: O is rescaled
/// only when some row of the warp has a new max (a correction of exactly 1 otherwise: the same
/// bits); `QS`: the stages of Q's pipeline (1, or 2: the producer loads the next tile's Q while
/// this one's last key blocks, P·V and epilogue run, instead of after its last S); `QR` (with
/// `OVERLAP`): Q as a register operand — each consumer thread loads its `QA = D/4` registers of
/// the tile's Q once ([`AttnTiles::q_regs`], `ldmatrix`) and `S = Q·Kᵀ` is `wgmma` RS
/// ([`gemm_qk_rs`]), so the tensor cores read only K from shared memory; Q is released after the
/// tile's first S. The consumer warpgroups are `H::BM / 64` (two, or three in the 192-row tile).
///
/// # Safety
/// Launched as [`attention_fwd_bf16_d128`] documents.
#[inline(always)]
unsafe fn attention_fwd<
    E: Elem,
    H: AttnTiles,
    const OD2: usize,
    const SN2: usize,
    const PA: usize,
    const OVERLAP: bool,
    const PINGPONG: bool,
    const SPLIT: bool,
    const ST: usize,
    const RED: Reduction,
    const RSB: bool,
    const NB: bool,
    const TW: bool,
    const LAZY: bool,
    const QS: usize,
    const QR: bool,
    const LSUM: bool,
    const QA: usize,
    const TR: bool,
>(
    tma_q: *const TmaDescriptor,
    tma_k: *const TmaDescriptor,
    tma_v: *const TmaDescriptor,
    tma_o: *const TmaDescriptor,
    p: &Params,
    trace: u64,
) where
    [f32; OD2]: MmaAsync<E>,
    [f32; SN2]: MmaAsync<E>,
    [f32; PA]: FenceOperand,
    [f32; QA]: FenceOperand,
    [f32; 4]: MmaAsync<E>,
{
    const { assert!(OD2 * 2 == H::D && SN2 * 2 == H::BN && PA * 4 == H::BN && QA * 4 == H::D) };
    const { assert!(!TW || OVERLAP) };
    const { assert!(!QR || OVERLAP) };
    const { assert!(!LSUM || (OVERLAP && !RSB && H::BM == config::BM)) };
    // programmatic dependent launch (CUTLASS's `launch_dependent_grids`): the next kernel in the
    // stream may take each SM this grid's CTA leaves and run its prologue there (a CTA holds a
    // whole SM's shared memory; doc/attention.md "Programmatic dependent launch")
    device::grid_dependency_control::launch_dependent_grids();
    let smem = dynamic_shared_mem::<Align1024>() as *mut u8;
    if to_shared_addr(smem) & 1023 != 0 {
        trap();
    }
    let tid = thread_idx_x() as i32;
    // shared memory: Q, the K stages, the V stages, the O staging boxes (`o_boxes` per consumer
    // warpgroup, 1024-byte aligned: every tile above is a multiple of 1 KiB), then the three
    // pipelines' barriers
    let o_boxes = const { config::o_boxes(H::BM, H::D, H::BN, ST, QS) };
    // (one stage: the index is 0, said so the default entries' addresses stay constants; two:
    // the index through `opaque` at each use, so the Q descriptors derived from it are built
    // where a `wgmma` takes them, not hoisted out of the key loop into registers it needs — with
    // `tiles::PerWgmma`; `tiles::SharedBase` indexes its Q descriptor tensor by the stage)
    let q_buf = |s: u32| {
        let off = if QS == 1 {
            0
        } else {
            opaque(s as i32) as usize * H::Q_BYTES
        };
        unsafe { smem.add(off) as *mut u16 }
    };
    let kv0 = QS * H::Q_BYTES;
    let k_buf = |s: u32| unsafe { smem.add(kv0 + s as usize * H::KV_BYTES) } as *mut u16;
    let v_buf = |s: u32| unsafe { smem.add(kv0 + (ST + s as usize) * H::KV_BYTES) } as *mut u16;
    const { assert!(H::Q_BYTES.is_multiple_of(1024) && H::KV_BYTES.is_multiple_of(1024)) };
    let o_smem = unsafe { smem.add(kv0 + 2 * ST * H::KV_BYTES) };
    let bars = unsafe { o_smem.add(o_boxes * H::BM / 64 * O_BOX_BYTES) };
    // the barriers fit the 128 bytes `config::smem_bytes` leaves them
    const {
        assert!(
            size_of::<PipelineStorage<QS>>()
                + 2 * size_of::<PipelineStorage<ST>>()
                + size_of::<OrderedSequenceBarrierStorage<1, 2>>()
                <= 128
        )
    };
    let st_q = bars as *mut PipelineStorage<QS>;
    let st_k = unsafe { bars.add(size_of::<PipelineStorage<QS>>()) } as *mut PipelineStorage<ST>;
    let st_v =
        unsafe { bars.add(size_of::<PipelineStorage<QS>>() + size_of::<PipelineStorage<ST>>()) }
            as *mut PipelineStorage<ST>;
    let st_seq = unsafe {
        bars.add(size_of::<PipelineStorage<QS>>() + 2 * size_of::<PipelineStorage<ST>>())
    } as *mut OrderedSequenceBarrierStorage<1, 2>;
    // the stream-K segments' table past the barriers, where they leave it room (every entry
    // but the measuring `q2`'s: the host splits no tile there)
    let segs_at = const {
        size_of::<PipelineStorage<QS>>()
            + 2 * size_of::<PipelineStorage<ST>>()
            + size_of::<OrderedSequenceBarrierStorage<1, 2>>()
    };
    let segs = unsafe { bars.add(segs_at) } as *mut Segments;
    // (the host splits only on the `_streamk` entries, the tiles with room for the table; the
    // others ignore `p.split`)
    const {
        assert!(
            !H::STREAM_K
                || size_of::<PipelineStorage<QS>>()
                    + 2 * size_of::<PipelineStorage<ST>>()
                    + size_of::<OrderedSequenceBarrierStorage<1, 2>>()
                    + size_of::<Segments>()
                    <= 128
        )
    };
    if H::STREAM_K && tid == 0 {
        unsafe { Segments::write(segs, p) };
    }
    // consumer warpgroups (each arrives once on an empty barrier per stage): one per 64 rows
    let consumers = (H::BM / 64) as i32;
    // (thread in warpgroup, warpgroup)
    let (t, wg): (i32, i32) = make_layout_left((_128, consumers + 1)).idx2crd(tid);
    let (pipe_q, pipe_k, pipe_v, mut turns) = unsafe {
        (
            PipelineTmaAsync::<QS, QTx<H>>::init(st_q, tid == 0, consumers as u32, || ()),
            PipelineTmaAsync::<ST, KvTx<H>>::init(st_k, tid == 0, consumers as u32, || ()),
            PipelineTmaAsync::<ST, KvTx<H>>::init(st_v, tid == 0, consumers as u32, || ()),
            // the consumer warpgroups' turns at the tensor cores (all 128 threads arrive)
            OrderedSequenceBarrier::<1, 2>::init(
                st_seq,
                tid == 0,
                (wg.max(1) - 1).min(1) as u32,
                128,
                device::thread::sync_threads,
            ),
        )
    };
    // the barriers are ready: from here on global memory (Q, K, V, O, LSE, the sequence
    // lengths), after the kernel before this one in the stream has finished (CUTLASS's
    // `wait_on_dependent_grids`; at once without a programmatic launch)
    device::grid_dependency_control::wait_on_dependent_grids();
    let (bm, bn) = (H::BM as i32, H::BN as i32);
    let n_tiles = p.seqlen_q.ceil_div(bm) * p.heads_q * p.batch;
    let varlen = p.cu_seqlens_q != 0;
    if wg == 0 {
        // the tile's register split (`AttnTiles::MMA_REGS`): 384 threads at 168 registers,
        // the producer's (168 − 24)·128 give the consumers (240 − 168)·256 (head dim 256's
        // (168 − 32)·128 give (232 − 168)·256); 512 threads (three consumer warpgroups) at 128:
        // (128 − 32)·128 give (160 − 128)·384
        if load_regs(H::MMA_REGS) == 24 {
            setmaxnreg_dec::<24>();
        } else {
            setmaxnreg_dec::<32>();
        }
        // the producer warp (CUTLASS's): every lane walks the tiles and stages, so their values
        // are the warp's (uniform registers: no loop over a TMA operand's distinct values), and
        // the elected lane arms the barriers and issues the loads. With three consumer
        // warpgroups one thread produces, as before (measured: the warp is 3-4 % slower there,
        // 1-3 % faster or level with two; doc/attention.md, session 21).
        let warp_producer = consumers != 3;
        let producer = if warp_producer {
            unsafe { device::warp::canonical_warp_idx_sync() == 0 }
        } else {
            t == 0
        };
        if producer {
            let leader = !warp_producer || device::cluster::elect_one_sync();
            if leader {
                unsafe {
                    device::tma::prefetch_tma_descriptor(tma_q);
                    device::tma::prefetch_tma_descriptor(tma_k);
                    device::tma::prefetch_tma_descriptor(tma_v);
                }
            }
            let (mut pq, mut pk, mut pv) = (
                pipe_q.producer_warp(leader),
                pipe_k.producer_warp(leader),
                pipe_v.producer_warp(leader),
            );
            // (without the split, the persistent tile loop as it was: `tile_of`, `next_tile`,
            // `n_tiles`)
            let mut i = if H::STREAM_K {
                first_work::<H>(p)
            } else {
                block_idx_x() as i32
            };
            while if H::STREAM_K { i >= 0 } else { i < n_tiles } {
                let tr = Trace::<TR>::new(trace, i, n_tiles, 0, leader);
                tr.mark(TRP_START);
                tr.value(TR_TILE, i as u64);
                let tile = work_of::<H>(p, segs, bm, bn, i);
                let kb0 = tile.first_block::<H>();
                i = if H::STREAM_K {
                    next_work::<H>(p, i)
                } else {
                    next_tile::<H>(p, i, n_tiles)
                };
                if tile.m0 >= tile.sq {
                    continue;
                }
                tr.value(TR_N_BLOCKS, tile.n_blocks as u64);
                // TMA coordinates: (d, token, head, batch); varlen sequences share batch 0
                let bc = if varlen { 0 } else { tile.b };
                let hk = tile.h / p.group;
                let s = unsafe { pq.producer_acquire() };
                tr.mark(TRP_Q);
                if s.is_leader() {
                    unsafe {
                        H::load_q(
                            tma_q,
                            s.full_barrier(),
                            q_buf(s.index()),
                            [tile.q_start + tile.m0, tile.h, bc],
                        )
                    };
                }
                s.producer_commit();
                for n in kb0..tile.n_blocks {
                    let k0 = tile.k_start + n * bn;
                    let s = unsafe { pk.producer_acquire() };
                    if n == 0 {
                        tr.mark(TRP_K0);
                    }
                    if s.is_leader() {
                        unsafe {
                            H::load_kv(tma_k, s.full_barrier(), k_buf(s.index()), [k0, hk, bc])
                        };
                    }
                    s.producer_commit();
                    let s = unsafe { pv.producer_acquire() };
                    if n == 0 {
                        tr.mark(TRP_V0);
                    }
                    if s.is_leader() {
                        unsafe {
                            H::load_kv(tma_v, s.full_barrier(), v_buf(s.index()), [k0, hk, bc])
                        };
                    }
                    s.producer_commit();
                }
                tr.mark(TRP_END);
            }
        }
        return;
    }
    const { assert!(matches!(H::MMA_REGS, 160 | 232 | 240)) };
    match H::MMA_REGS {
        240 => setmaxnreg_inc::<240>(),
        232 => setmaxnreg_inc::<232>(),
        _ => setmaxnreg_inc::<160>(),
    }
    // consumer warpgroup: rows 64·wg.. of the tile. Broadcast from lane 0 (CUTLASS's
    // `canonical_warp_group_idx`) so ptxas knows it is warp-uniform: the Q descriptors built
    // from it then live in uniform registers, not in the 232 the mainloop needs
    let wg = unsafe { device::warp::shuffle_idx_u32(!0, (wg - 1) as u32, 0) } as i32;
    let signals = t == 0;
    // `LSUM`: the warpgroup's 16 × 8 tile of 16-bit ones (the B operand of the row sums), past
    // the barriers (`config::ONES_BYTES` per consumer warpgroup), written once and made visible
    // to the async proxy before any `wgmma` reads it
    let ones = if LSUM {
        let ones = unsafe { bars.add(128 + wg as usize * ONES_BYTES) } as *mut u32;
        if t < (ONES_BYTES / 4) as i32 {
            // SAFETY: inside the warpgroup's ones tile (the host allots it for `LSUM` entries).
            unsafe { *ones.add(t as usize) = E::pack(1.0, 1.0) };
        }
        device::tma::tma_store_fence();
        warpgroup_barrier(wg);
        tiles::ones_desc(ones as *mut u16)
    } else {
        0
    };
    // the `wgmma` descriptors of Q's, K's and V's stages, as the tile addresses shared memory
    // (`AttnTiles::Addressing`: the descriptor tensors built here once, or nothing ahead)
    let descs = <H::Addressing as SmemAddressing>::stage_descs::<H>(
        q_buf(0),
        QS as u32,
        k_buf(0),
        v_buf(0),
        ST as u32,
    );
    let sched = WarpScheduler::<NB>::init(wg);
    let (mut cq, mut ck, mut cv) = (
        pipe_q.consumer_signaling(signals),
        pipe_k.consumer_signaling(signals),
        pipe_v.consumer_signaling(signals),
    );
    let mut i = if H::STREAM_K {
        first_work::<H>(p)
    } else {
        block_idx_x() as i32
    };
    while if H::STREAM_K { i >= 0 } else { i < n_tiles } {
        let tr = Trace::<TR>::new(trace, i, n_tiles, 1 + wg, signals);
        tr.mark(TR_FETCH);
        tr.value(TR_TILE, i as u64);
        let tile = work_of::<H>(p, segs, bm, bn, i);
        let kb0 = tile.first_block::<H>();
        // with the split the unit's index is held across the key loop and the next one
        // computed at each exit; without, the persistent tile loop as it was (the next tile at
        // once)
        let cur = i;
        if !H::STREAM_K {
            i = next_tile::<H>(p, i, n_tiles);
        }
        // after the CTA's last tile (`i >= n_tiles`) its O stores (and any before) must have
        // read their boxes before the CTA exits (drained in the loop: a wait after the loop
        // cost the mainloop registers, ptxas spilled)
        if tile.m0 >= tile.sq {
            if H::STREAM_K {
                i = next_work::<H>(p, cur);
            }
            if o_boxes > 0 && last_unit::<H>(i, n_tiles) && t == 0 {
                epilogue_rows::drain();
            }
            continue;
        }
        tr.value(TR_N_BLOCKS, tile.n_blocks as u64);
        tr.mark(TR_FETCHED);
        // this warpgroup's first row in the sequence: the (64, consumers) split of the tile's rows
        let r0 = tile.m0 + make_layout_left((_64, consumers)).crd2idx((0i32, wg));
        let mut o: [f32; OD2] = unsafe { core::mem::zeroed() };
        // the thread's two rows (accumulator values 0 and 2): running max (log2 domain) and sum
        let mut row_max = [f32::NEG_INFINITY; 2];
        let mut row_sum = [0f32; 2];
        // `LSUM`: the row sums as the tensor core accumulates them (`CLayout_64x8`)
        let mut lsum = [0f32; 4];
        let q0 = unsafe { cq.consumer_wait() };
        tr.mark(TR_Q);
        let qi = q0.index();
        let mut q = Some(q0);
        let masks = Masks {
            t,
            r0,
            tile,
            causal: p.causal != CAUSAL_NONE,
            bn,
        };
        // the row totals, when computed under the last P·V
        let mut totals: Option<([f32; 2], [f32; 2])> = None;
        if OVERLAP && tile.n_blocks > kb0 {
            // FlashAttention-3's intra-warpgroup overlap: block n's S = Q·Kᵀ and block n-1's
            // O += P·V are in flight together; the softmax of S_n runs while P·V computes
            // `QR`: this thread's Q fragment, loaded once for the tile's key blocks
            let mut qa: [f32; QA] = if QR {
                unsafe { H::q_regs::<QA>(q_buf(qi), (128 * wg + t) as u32) }
            } else {
                unsafe { core::mem::zeroed() }
            };
            // S_n = Q·K_nᵀ: Q from shared memory (SS) or, `QR`, from `qa` (RS). Q's warpgroup
            // through `opaque` at each S where the tile says so (`AttnTiles::Q_DESCS_AT_WGMMA`):
            // its descriptors are then built at the `wgmma`s, not hoisted out of the loops
            let gemm_s = #[inline(always)]
            |qa: &[f32; QA], k: u32, s: &mut [f32; SN2]| unsafe {
                if QR {
                    gemm_qk_rs::<E, H, SN2, QA>(qa, descs.k(k_buf, k), s)
                } else {
                    let q_wg = if H::Q_DESCS_AT_WGMMA { opaque(wg) } else { wg };
                    gemm_qk::<E, H, SN2>(descs.q(q_buf, qi), q_wg, descs.k(k_buf, k), s)
                }
            };
            let k = unsafe { ck.consumer_wait() };
            tr.mark(TR_K0);
            let mut s: [f32; SN2] = unsafe { core::mem::zeroed() };
            // ping-pong: wait for my turn at the tensor cores, hand it over once issued
            if PINGPONG {
                unsafe { turns.wait() };
            }
            sched.sync();
            gemm_s(&qa, k.index(), &mut s);
            if PINGPONG {
                unsafe { turns.arrive() };
            }
            sched.arrive();
            // `TW`: probes of K_1 and V_0 (spent at the loop's top, or V_0 after it)
            let (mut tk, mut tv) = (None, None);
            if TW {
                (tk, tv) = unsafe { (Some(ck.consumer_try_wait()), Some(cv.consumer_try_wait())) };
            }
            wait_group::<0>();
            fence_operand(&mut s);
            tr.mark(TR_S0);
            unsafe { ck.consumer_release(k) };
            if QR {
                // Q's registers stay pinned while an S reads them
                fence_operand(&mut qa);
                // every warp of the warpgroup has read its Q fragment (the RS `wgmma` took all
                // four warps' registers): the producer may load the next tile's Q
                if let Some(q) = q.take() {
                    unsafe { cq.consumer_release(q) };
                }
            }
            masks.apply(&mut s, kb0, H::STREAM_K);
            // O is zero: its correction (0 or 1) changes nothing
            let mut corr =
                online_softmax::<SN2, RED, LSUM>(&mut s, &mut row_max, &mut row_sum, p.scale_log2);
            // `SPLIT`: V_n is waited for after S_n's softmax, not before the P·V that reads it
            let mut v_next = if SPLIT {
                Some(unsafe { wait_stage(&mut cv, tv.take()) })
            } else {
                None
            };
            let mut pa: [f32; PA] = convert_p::<E, SN2, PA>(&s);
            if TR {
                fence_operand(&mut pa);
            }
            tr.mark(TR_SOFTMAX0);
            // key block n ≥ 1: the unmasked ones, then those the mask touches (the same body,
            // `masked` a constant at each call: the first loop has no mask code)
            let mut block = #[inline(always)]
            |n: i32, masked: bool| {
                let k = unsafe { wait_stage(&mut ck, tk.take()) };
                let v = match v_next.take() {
                    Some(v) => v,
                    None => unsafe { wait_stage(&mut cv, tv.take()) },
                };
                let mut s: [f32; SN2] = unsafe { core::mem::zeroed() };
                if PINGPONG {
                    unsafe { turns.wait() };
                }
                sched.sync();
                gemm_s(&qa, k.index(), &mut s);
                if RSB {
                    // FlashAttention-3's `RescaleOBeforeGemm`: O (free since the last
                    // `wait_group 0`) takes block n-1's correction while S_n computes
                    rescale::<OD2, LAZY>(&mut o, corr);
                }
                let v_descs = descs.v(v_buf, v.index(), true);
                unsafe { gemm_pv::<E, OD2, PA, LSUM>(&pa, v_descs, &mut o, &mut lsum, ones) };
                if PINGPONG {
                    unsafe { turns.arrive() };
                }
                sched.arrive();
                if TW {
                    // K_{n+1} and V_n: answered while S_n computes
                    (tk, tv) =
                        unsafe { (Some(ck.consumer_try_wait()), Some(cv.consumer_try_wait())) };
                }
                wait_group::<1>(); // S_n is done (committed first)
                fence_operand(&mut s);
                if QR {
                    fence_operand(&mut qa);
                }
                unsafe { ck.consumer_release(k) };
                if masked {
                    masks.apply(&mut s, n, H::STREAM_K);
                }
                corr = online_softmax::<SN2, RED, LSUM>(
                    &mut s,
                    &mut row_max,
                    &mut row_sum,
                    p.scale_log2,
                );
                if SPLIT {
                    // ptxas moves a `wait_group` to the top of its basic block: with the
                    // softmax above in the same block, it waits for P·V before the softmax
                    // (and gives P's registers to the softmax's temporaries), so nothing
                    // overlaps. V_n's wait (a try-wait loop) ends the block here, after P
                    // (pinned by the fence)
                    fence_operand(&mut s);
                    v_next = Some(unsafe { wait_stage(&mut cv, tv.take()) });
                }
                wait_group::<0>(); // P_{n-1}·V_{n-1} is done: O and P's registers are free
                retire_pv::<OD2, PA, LSUM>(&mut o, &mut pa, &mut lsum);
                unsafe { cv.consumer_release(v) };
                if !RSB {
                    rescale::<OD2, LAZY>(&mut o, corr);
                    if LSUM {
                        rescale::<4, false>(&mut lsum, corr);
                    }
                }
                pa = convert_p::<E, SN2, PA>(&s);
            };
            let clean = if H::CLEAN_LOOP {
                masks.clean_blocks().clamp(kb0 + 1, tile.n_blocks)
            } else {
                kb0 + 1
            };
            for n in kb0 + 1..clean {
                block(n, false);
            }
            for n in clean..tile.n_blocks {
                block(n, true);
            }
            tr.mark(TR_LOOP);
            // every S is done: the producer may load the next tile's Q meanwhile
            if let Some(q) = q.take() {
                unsafe { cq.consumer_release(q) };
            }
            let v = match v_next.take() {
                Some(v) => v,
                None => unsafe { wait_stage(&mut cv, tv.take()) },
            };
            tr.mark(TR_V_LAST);
            if PINGPONG {
                unsafe { turns.wait() };
            }
            if RSB {
                rescale::<OD2, LAZY>(&mut o, corr);
            }
            let v_descs = descs.v(v_buf, v.index(), true);
            unsafe { gemm_pv::<E, OD2, PA, LSUM>(&pa, v_descs, &mut o, &mut lsum, ones) };
            if PINGPONG {
                unsafe { turns.arrive() };
            }
            if H::ROW_TOTALS_UNDER_PV && !LSUM {
                // the row sums, 1 / l and the LSE under the last P·V (they read none of its
                // registers): the epilogue's part that needs no O
                totals = Some(row_totals::<false>(&row_sum, &row_max, &lsum));
            }
            wait_group::<0>();
            retire_pv::<OD2, PA, LSUM>(&mut o, &mut pa, &mut lsum);
            tr.mark(TR_PV_LAST);
            unsafe { cv.consumer_release(v) };
        } else {
            for n in kb0..tile.n_blocks {
                let k = unsafe { ck.consumer_wait() };
                let mut s: [f32; SN2] = unsafe { core::mem::zeroed() };
                unsafe {
                    gemm_qk::<E, H, SN2>(descs.q(q_buf, qi), wg, descs.k(k_buf, k.index()), &mut s)
                };
                wait_group::<0>();
                fence_operand(&mut s);
                unsafe { ck.consumer_release(k) };
                if n + 1 == tile.n_blocks
                    && let Some(q) = q.take()
                {
                    // the last S is done: the producer may load the next tile's Q meanwhile
                    unsafe { cq.consumer_release(q) };
                }
                masks.apply(&mut s, n, H::STREAM_K);
                // (never `LSUM`'s: it requires `OVERLAP`, and this loop runs no block then)
                let corr = online_softmax::<SN2, RED, false>(
                    &mut s,
                    &mut row_max,
                    &mut row_sum,
                    p.scale_log2,
                );
                rescale::<OD2, LAZY>(&mut o, corr);
                let mut pa: [f32; PA] = convert_p::<E, SN2, PA>(&s);
                let v = unsafe { cv.consumer_wait() };
                let v_descs = descs.v(v_buf, v.index(), false);
                unsafe { gemm_pv::<E, OD2, PA, false>(&pa, v_descs, &mut o, &mut lsum, ones) };
                wait_group::<0>();
                retire_pv::<OD2, PA, false>(&mut o, &mut pa, &mut lsum);
                unsafe { cv.consumer_release(v) };
            }
        }
        if let Some(q) = q.take() {
            if tile.n_blocks == kb0 {
                // no key block, so no warpgroup-wide instruction between the Q wait and this
                // release: every warp of the warpgroup must have passed the wait before its one
                // arrival (warp 0's) lets the producer load the next Q. Without this barrier a
                // lagging warp's parity wait aliased to the phase after and waited for a load
                // that never came (the hang of `host run`'s attention sweep #59 on the 192-row
                // tile: bf16 h24/3 sq3119 sk149 d64 bottom-right, H200 2026-11-29)
                warpgroup_barrier(wg);
            }
            unsafe { cq.consumer_release(q) };
        }
        // a tile split between two CTAs (`p.split`): its tail hands this thread's partial O,
        // maxima and sums to the CTA holding its head (the one before) and is done; the head
        // waits for them and merges them before the epilogue
        // (the part under `H::STREAM_K` and no `continue` for the tail: either changed the code
        // of the entries without the split, session 34)
        let (kind, cta) = if H::STREAM_K {
            unit_part::<H>(p, segs, cur)
        } else {
            (PART_WHOLE, 0)
        };
        if kind != PART_WHOLE {
            // (the partial has no row sums of `LSUM`'s tensor core: the host splits no `lsum`
            // entry)
            if LSUM {
                trap();
            }
            let (t, slot) = (
                t as usize,
                split_slot(p, split_slots(H::D), consumers, wg, cta),
            );
            if kind == PART_TAIL {
                let ml = [row_max[0], row_max[1], row_sum[0], row_sum[1]];
                let (ml_slot, ml_row) = partial_row(slot, OD2 / 4);
                // SAFETY: this CTA's slots of the workspace; the first one's flags are 0 (the
                // head of the last launch cleared them, or the host's zeroes); the flag after
                // both stores
                unsafe {
                    FixupSlot::store(slot, t, 0, &o, FixupOrder::InOrder);
                    FixupSlot::store(ml_slot, t, ml_row, &ml, FixupOrder::InOrder);
                    FixupSlot::signal(slot, t);
                }
            } else {
                // the head: the tail is the first unit of the next CTA's range
                // SAFETY: the next CTA's slot, which its tail of this tile fills
                unsafe { merge_partial(slot, t, &mut o, &mut row_max, &mut row_sum) };
                totals = None;
            }
        }
        // (a tail's partial went to its head: no epilogue)
        if kind != PART_TAIL {
            // epilogue: the row sums over the quad (unless under the last P·V), O / sum, the LSE
            let (inv, lse) =
                totals.unwrap_or_else(|| row_totals::<LSUM>(&row_sum, &row_max, &lsum));
            tr.mark(TR_SUMS);
            // O: through shared memory and TMA stores (the GEMM's TMA-store epilogue, row-major:
            // `collective::epilogue_rows`) where the tile has staging boxes and the box cannot reach
            // past the sequence (varlen: a warpgroup whose rows cross its sequence's end would write
            // the next sequence's rows; fixed lengths: TMA clips at the map's token extent), else
            // directly from registers, row-predicated
            let tma = o_boxes > 0 && p.epilogue == EPILOGUE_TMA && !(varlen && r0 + 64 > tile.sq);
            if tma {
                // the thread and warpgroup through `opaque`: the boxes' addresses and the
                // `stmatrix` lanes' swizzled row addresses depend on nothing else, so LLVM would
                // hoist them out of the tile loop and keep them live across the mainloop
                // SAFETY: t is the thread's index in its warpgroup (0..128), wg a consumer warpgroup's (0..3)
                let (t, wg) = unsafe { (opaque_index::<128>(t), opaque_index::<4>(wg)) };
                // accumulator v's row half (value v = e + 2·h + 4·j)
                let half = Layout::<(_2, _2, _64), (_0, _1, _0)>::default();
                let value = #[inline(always)]
                |v: usize| {
                    let h: i32 = half.crd2idx(v as i32);
                    o[v] * inv[h as usize]
                };
                let atom = TmaAtom::<TmaStore, u16, BoxLayout<config::TokenBox<_64>>>::new(tma_o);
                let bc = if varlen { 0 } else { tile.b };
                let boxes = unsafe { o_smem.add(wg as usize * o_boxes * O_BOX_BYTES) };
                // SAFETY: the warpgroup's own boxes; the map is O's (d, token, head, batch)
                unsafe {
                    store_chunks(
                        H::D / 64,
                        o_boxes,
                        boxes,
                        t,
                        #[inline(always)]
                        || warpgroup_barrier(wg),
                        #[inline(always)]
                        |buf, chunk| {
                            stage_chunk_rows_b16(buf as *mut u16, chunk, t, value, E::pack)
                        },
                        #[inline(always)]
                        |buf, chunk| {
                            atom.copy(
                                buf as *const u16,
                                [64 * chunk, tile.q_start + r0, tile.h, bc],
                            )
                        },
                    )
                };
            } else if QR {
                // `_d64_qr` (Q in registers, the tightest entry): each store's address computed
                // whole — with the two rows' addresses held (below), ptxas spilled 4 bytes in its
                // mask block (session 19)
                let o_row = |row: i32| unsafe {
                    (p.o as *mut u16).offset(
                        (p.o_stride[0] * tile.b as i64
                            + p.o_stride[1] * (tile.q_start + row) as i64
                            + p.o_stride[2] * tile.h as i64) as isize,
                    )
                };
                device::unroll!(OD2 / 4, |j| device::unroll!(2, |h| {
                    let v = 4 * j + 2 * h;
                    let (r, c) = acc_coord(t, v as i32);
                    let row = r0 + r;
                    if row < tile.sq {
                        let w = E::pack(o[v] * inv[h], o[v + 1] * inv[h]);
                        // SAFETY: inside O (row < seqlen, column pair < D, 4-byte aligned).
                        unsafe { *(o_row(row).add(c as usize) as *mut u32) = w };
                    }
                }));
            } else {
                // accumulator v at the thread's origin plus the value's offset (`acc_coord(t, v) =
                // acc_coord(t, 0) + acc_coord(0, v)`: CLayout_64xN's thread and value modes land in
                // disjoint digits of (64, N)), so the addresses of the thread's two rows (value 0's
                // and value 2's) are computed once and each store adds a constant to one of them
                // (an element address per store cost about 30 instructions: three 64-bit products)
                let (rt, ct) = acc_coord(t, 0);
                let row_of = |h: usize| r0 + rt + acc_coord(0, 2 * h as i32).0;
                let row_at = |h: usize| {
                    let at = p.o_stride[0] * tile.b as i64
                        + p.o_stride[1] * (tile.q_start + row_of(h)) as i64
                        + p.o_stride[2] * tile.h as i64
                        + ct as i64;
                    // (an address only: a row past the sequence is not stored)
                    (p.o as *mut u16).wrapping_offset(at as isize)
                };
                let rows = [row_at(0), row_at(1)];
                device::unroll!(OD2 / 4, |j| device::unroll!(2, |h| {
                    let v = 4 * j + 2 * h;
                    let (_, dc) = acc_coord(0, v as i32);
                    if row_of(h) < tile.sq {
                        let w = E::pack(o[v] * inv[h], o[v + 1] * inv[h]);
                        // SAFETY: inside O (the row < seqlen, the column pair < D, 4-byte aligned).
                        unsafe { *(rows[h].add(dc as usize) as *mut u32) = w };
                    }
                }));
            }
            tr.mark(TR_O);
            // (none asked for: FlashAttention's inference forward). The test through `opaque`
            // at each tile: hoisted out of the tile loop, its value held across the mainloop
            // spilled the 192-row tile (160 registers)
            if opaque((p.lse != 0) as i32) != 0 {
                store_lse(p, &tile, r0, t, lse);
            }
            tr.mark(TR_END);
        }
        if H::STREAM_K {
            i = next_work::<H>(p, cur);
        }
        if o_boxes > 0 && last_unit::<H>(i, n_tiles) && t == 0 {
            epilogue_rows::drain();
        }
    }
}

/// Declares one entry: `name, element, head-dim tiles, D/2, BN/2, BN/4, overlap, ping-pong,
/// split` and optionally `stages`, `red`, then `rsb, nb`, then `tw, lazy`, then `qs`,
/// then `qr`, then `lsum` (see [`attention_fwd`]).
macro_rules! entry {
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, STAGES);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, RED_CHAIN);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, false, false);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt, $rsb:literal, $nb:literal) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, $rsb, $nb, false, false);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt, $rsb:literal, $nb:literal, $tw:tt, $lazy:literal) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, $rsb, $nb, $tw, $lazy, Q_STAGES);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt, $rsb:literal, $nb:literal, $tw:tt, $lazy:literal, $qs:tt) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, $rsb, $nb, $tw, $lazy, $qs, false);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt, $rsb:literal, $nb:literal, $tw:tt, $lazy:literal, $qs:tt, $qr:literal) => {
        entry!($name, $e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, $rsb, $nb, $tw, $lazy, $qs, $qr, false);
    };
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $ov:literal, $pp:literal, $sp:literal, $st:tt, $red:tt, $rsb:literal, $nb:literal, $tw:tt, $lazy:literal, $qs:tt, $qr:literal, $lsum:literal) => {
        device::kernel! {
            #[doc = concat!("Attention forward, ", stringify!($e), ", ", stringify!($h), ", overlap ", stringify!($ov), ", ping-pong ", stringify!($pp), " (see the crate docs).\n\n",
                            "# Safety\n`tma_q`, `tma_k`, `tma_v`, `tma_o`: tensor maps of Q, K, V, O over (d, token, head, batch) with ",
                            "boxes `64 × BM` (Q), `64 × BN` (K, V) and `64 × 64` (O) and the 128-byte swizzle; `p` as [`Params`] documents; ",
                            "`config::threads(BM)` threads (384; 512 with three consumer warpgroups), the dynamic shared memory of the tiles' `SMEM_BYTES`, 1024-byte aligned.")]
            pub unsafe fn $name(tma_q: TmaDescriptor, tma_k: TmaDescriptor, tma_v: TmaDescriptor, tma_o: TmaDescriptor, p: Params) {
                let tma_q = device::grid_constant!($name, 0, tma_q);
                let tma_k = device::grid_constant!($name, 1, tma_k);
                let tma_v = device::grid_constant!($name, 2, tma_v);
                let tma_o = device::grid_constant!($name, 3, tma_o);
                // SAFETY: as the entry's.
                unsafe { attention_fwd::<$e, $h, $od2, $sn2, $pa, $ov, $pp, $sp, $st, $red, $rsb, $nb, $tw, $lazy, $qs, $qr, $lsum, { $od2 / 2 }, false>(tma_q, tma_k, tma_v, tma_o, &p, 0) }
            }
        }
        device::launch_bounds!($name, config::threads(<$h as AttnTiles>::BM), 1);
    };
}

/// Declares one phase-trace entry (feature `measure`; `config::TRACE_WORDS`): the default body
/// of `entry!`'s first form with `qr` (Q as a register operand) and the trace on, its buffer
/// a sixth parameter `trace` (a device address).
#[cfg(feature = "measure")]
macro_rules! trace_entry {
    ($name:ident, $e:ident, $h:ident, $od2:literal, $sn2:literal, $pa:literal, $qr:literal) => {
        device::kernel! {
            #[doc = concat!("Attention forward with the phase trace, ", stringify!($e), ", ", stringify!($h), " (see the crate docs).\n\n",
                            "# Safety\nAs the default entries'; `trace`: `config::TRACE_WORDS · TRACE_ROLES · grid · (⌈tiles / grid⌉ + 1)` ",
                            "zeroed `u64` in device memory.")]
            pub unsafe fn $name(tma_q: TmaDescriptor, tma_k: TmaDescriptor, tma_v: TmaDescriptor, tma_o: TmaDescriptor, p: Params, trace: u64) {
                let tma_q = device::grid_constant!($name, 0, tma_q);
                let tma_k = device::grid_constant!($name, 1, tma_k);
                let tma_v = device::grid_constant!($name, 2, tma_v);
                let tma_o = device::grid_constant!($name, 3, tma_o);
                // SAFETY: as the entry's.
                unsafe { attention_fwd::<$e, $h, $od2, $sn2, $pa, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, $qr, false, { $od2 / 2 }, true>(tma_q, tma_k, tma_v, tma_o, &p, trace) }
            }
        }
        device::launch_bounds!($name, config::threads(<$h as AttnTiles>::BM), 1);
    };
}

pub use entries::*;

/// The default entries, bf16 and fp16, all with the intra-warpgroup overlap. d256 has two tiles
/// addressing shared memory from 32-bit bases (`tiles::SharedBase`): FlashAttention-3's 128 × 80
/// from 2k keys and 128 × 64 (`_n64`, the softmax under P·V: `SPLIT`) below (session 12: against
/// the serial 128 × 80 before, 1.08–1.35 at 512–1k keys, 1.04–1.07 from 2k but 0.97 at 2k
/// causal; doc/attention.md; the serial loop stays as `CUTE_RS_ATTENTION=serial`). d64 has two
/// tiles: 128 × 128 (two consumer warpgroups) and FlashAttention-3's 192 × 128 (`_m192`: three,
/// 0.79–0.87 of cuDNN from 2k keys against 0.72–0.76; the host keeps 128 rows for causal
/// problems under 2k queries, where 192 measured 10 % slower: `AttentionKernel::for_problem`).
/// d128 has two: 128 × 128 (causal) and FlashAttention-3's non-causal 128 × 176 (`_n176`:
/// 0.58–0.80 of cuDNN at 512–16k against 0.57–0.79, +1–6 % at every size; causal it lost at
/// 512–2k). d64's 128 × 128 tile also has Q as a register operand (`_qr`: `S = Q·Kᵀ` by `wgmma`
/// RS, Q loaded once per tile by `ldmatrix`; +1.5–7.7 % over the same tile with Q in shared
/// memory at every measured shape, doc/attention.md, session 11): the host's choice wherever d64
/// runs 128 rows, and for non-causal problems up to 1k keys instead of the 192-row tile;
/// `attention_fwd_{bf16,f16}_d64` stay for `CUTE_RS_ATTENTION=overlap` (the like-for-like
/// baseline).
#[rustfmt::skip]
mod entries {
    use super::*;
    entry!(attention_fwd_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false);
    entry!(attention_fwd_bf16_d64_qr, Bf16, D64, 32, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, true);
    entry!(attention_fwd_f16_d64_qr, F16, D64, 32, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, true);
    entry!(attention_fwd_bf16_d64_m192, Bf16, D64M192, 32, 64, 32, true, false, false);
    entry!(attention_fwd_f16_d64_m192, F16, D64M192, 32, 64, 32, true, false, false);
    entry!(attention_fwd_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false);
    entry!(attention_fwd_bf16_d256, Bf16, D256Base, 128, 40, 20, true, false, false);
    entry!(attention_fwd_bf16_d256_n64, Bf16, D256N64Base, 128, 32, 16, true, false, true);
    entry!(attention_fwd_f16_d256_n64, F16, D256N64Base, 128, 32, 16, true, false, true);
    entry!(attention_fwd_f16_d64, F16, D64, 32, 64, 32, true, false, false);
    entry!(attention_fwd_f16_d128, F16, D128, 64, 64, 32, true, false, false);
    entry!(attention_fwd_bf16_d128_streamk, Bf16, D128StreamK, 64, 64, 32, true, false, false);
    entry!(attention_fwd_f16_d128_streamk, F16, D128StreamK, 64, 64, 32, true, false, false);
    entry!(attention_fwd_f16_d256, F16, D256Base, 128, 40, 20, true, false, false);
    entry!(attention_fwd_bf16_d256_streamk, Bf16, D256StreamK, 128, 40, 20, true, false, false);
    entry!(attention_fwd_f16_d256_streamk, F16, D256StreamK, 128, 40, 20, true, false, false);
}

/// FlashAttention-3's non-causal d128 tile, 128 × 176: the default from 8k keys through session
/// 32, now a measuring entry (`CUTE_RS_ATTENTION=n176`): 128 × 128 with the stream-K split
/// (`_streamk`) ran 6–7 % ahead of it at 8k–16k keys, and with the split's parameters it spills 12
/// bytes (session 33).
#[cfg(feature = "measure")]
#[rustfmt::skip]
mod wide_key_entries {
    use super::*;
    entry!(attention_fwd_bf16_d128_n176, Bf16, D128N176, 64, 88, 44, true, false, false);
    entry!(attention_fwd_f16_d128_n176, F16, D128N176, 64, 88, 44, true, false, false);
}

/// The measuring-only variants (feature `measure`, off by default; the host's
/// `CUTE_RS_ATTENTION` picks them), bf16: the steps of doc/attention.md's tables.
#[cfg(feature = "measure")]
#[rustfmt::skip]
mod measure {
    use super::*;
    // FlashAttention-3's loop: the named-barrier ping-pong of the consumer warpgroups (`nb`),
    // with the softmax kept under P·V (`splitnb`), O rescaled while S computes (`rsb`), all
    // three (`fa3`)
    entry!(attention_fwd_nb_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false, STAGES, RED_CHAIN, false, true);
    entry!(attention_fwd_nb_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, STAGES, RED_CHAIN, false, true);
    entry!(attention_fwd_splitnb_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, STAGES, RED_CHAIN, false, true);
    entry!(attention_fwd_splitnb_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, STAGES, RED_CHAIN, false, true);
    entry!(attention_fwd_rsb_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, STAGES, RED_CHAIN, true, false);
    entry!(attention_fwd_rsb_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, STAGES, RED_CHAIN, true, false);
    entry!(attention_fwd_fa3_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, STAGES, RED_CHAIN, true, true);
    entry!(attention_fwd_fa3_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, STAGES, RED_CHAIN, true, true);
    // the baseline without the intra-warpgroup overlap (at d256 the default through session 11)
    entry!(attention_fwd_serial_bf16_d64, Bf16, D64, 32, 64, 32, false, false, false);
    entry!(attention_fwd_serial_bf16_d128, Bf16, D128, 64, 64, 32, false, false, false);
    entry!(attention_fwd_serial_bf16_d256, Bf16, D256, 128, 40, 20, false, false, false);
    // the overlap with `SPLIT` (the softmax in a basic block of its own)
    entry!(attention_fwd_split_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true);
    entry!(attention_fwd_split_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true);
    // the two consumer warpgroups in ping-pong
    entry!(attention_fwd_pingpong_bf16_d64, Bf16, D64, 32, 64, 32, true, true, false);
    entry!(attention_fwd_pingpong_bf16_d128, Bf16, D128, 64, 64, 32, true, true, false);
    // another tile: 128 × 64 at d256 (serial)
    entry!(attention_fwd_tile_bf16_d256, Bf16, D256N64, 128, 32, 16, false, false, false);
    // three K/V stages at d64 and d128, without and with `SPLIT`
    entry!(attention_fwd_stages3_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false, 3);
    entry!(attention_fwd_stages3_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, 3);
    entry!(attention_fwd_stages3split_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, 3);
    entry!(attention_fwd_stages3split_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, 3);
    // the row max and sum as tree reductions (built, not measured yet: doc/attention.md)
    entry!(attention_fwd_tree_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false, STAGES, RED_TREE);
    entry!(attention_fwd_tree_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, STAGES, RED_TREE);
    entry!(attention_fwd_tree_bf16_d256, Bf16, D256, 128, 40, 20, false, false, false, STAGES, RED_TREE);
    // the next K/V full barriers probed right after the `wgmma` issue (`consumer_try_wait`)
    // with `SPLIT` (V_n's wait after the softmax mostly a taken branch: `tws`), and with O
    // rescaled only when a row's max moved (`twslazy`); measured in the fourth round, neither
    // beats the default (doc/attention.md; `tw` without `SPLIT`, `twl` probing after the
    // softmax and `lazy` alone measured slower and were dropped)
    entry!(attention_fwd_tws_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, STAGES, RED_CHAIN, false, false, true, false);
    entry!(attention_fwd_tws_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, STAGES, RED_CHAIN, false, false, true, false);
    entry!(attention_fwd_twslazy_bf16_d64, Bf16, D64, 32, 64, 32, true, false, true, STAGES, RED_CHAIN, false, false, true, true);
    entry!(attention_fwd_twslazy_bf16_d128, Bf16, D128, 64, 64, 32, true, false, true, STAGES, RED_CHAIN, false, false, true, true);
    // the 192-row d64 tile (three consumer warpgroups) with three K/V stages (measured level
    // with two: doc/attention.md)
    entry!(attention_fwd_wg3s3_bf16_d64, Bf16, D64M192, 32, 64, 32, true, false, false, 3);
    // Q in two stages (`q2`: the producer loads the next tile's Q while this one's last key
    // blocks and epilogue run, not after its last S), on the 128-row tiles of d64 and d128
    // (d128 at 32/232 registers spilled 12 bytes, the Q stage's index and phase; at the tiles'
    // 24/240 since session 32 it does not; on d64's 192-row tile, 160 registers, it does)
    entry!(attention_fwd_q2_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, 2);
    entry!(attention_fwd_q2_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, 2);
    // Q as a register operand (`qr`: `S = Q·Kᵀ` by `wgmma` RS, Q loaded once per tile by
    // `ldmatrix`; the tensor cores read only K from shared memory for S) on d128's 128 × 128 tile
    // (d64's is a default entry, `_d64_qr`; on d64's 192-row tile, 160 registers, it spilled 180
    // bytes and ptxas serialized the `wgmma`s, C7512; the 176-key d128 tile and d256 have no
    // 16–32 registers to spare either). Measured like for like (doc/attention.md, session 11):
    // d128 level with the same tile
    entry!(attention_fwd_qr_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, true);
    // the row sums on the tensor core (`lsum`: `l += P·1`, a `wgmma` m64n8k16 RS of the same P
    // beside each k-block of P·V; no FADD chains, no quad shuffles of the sum) on d64's default
    // 128-row tile (Q in registers) and d128's 128 × 128 (doc/attention.md, session 12)
    entry!(attention_fwd_lsum_bf16_d64, Bf16, D64, 32, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, true, true);
    entry!(attention_fwd_lsum_bf16_d128, Bf16, D128, 64, 64, 32, true, false, false, STAGES, RED_CHAIN, false, false, false, false, Q_STAGES, false, true);
    // head dim 256 with the intra-warpgroup overlap (S_n beside P_{n-1}·V; session 12, helper
    // attn256), the defaults' steps: 128 × 64 (`ov64`) and 128 × 80 (`ov80`) by generic pointers,
    // from 32-bit bases (`b`: `tiles::SharedBase`), with the softmax in a basic block of its own
    // (`s`: `SPLIT`). The defaults are `ov80b` (128 × 80) and `ov64bs` (`_n64`, 128 × 64). All at
    // 32/232 registers (at 24/240 ptxas spilled 8–12 bytes; without `Q_DESCS_AT_WGMMA`, 4–64)
    entry!(attention_fwd_ov64_bf16_d256, Bf16, D256N64, 128, 32, 16, true, false, false);
    entry!(attention_fwd_ov64b_bf16_d256, Bf16, D256N64Base, 128, 32, 16, true, false, false);
    entry!(attention_fwd_ov80_bf16_d256, Bf16, D256, 128, 40, 20, true, false, false);
    entry!(attention_fwd_ov80s_bf16_d256, Bf16, D256, 128, 40, 20, true, false, true);
    entry!(attention_fwd_ov80bs_bf16_d256, Bf16, D256Base, 128, 40, 20, true, false, true);
    // the phase trace (session 13, helper attnfix: `CUTE_RS_ATTENTION=pt` / `ptw` and
    // `host attention --bench --trace FILE`): the default tiles of d64 and d128 with `%clock64`
    // at each phase of a tile. `pt`: the 128-row tiles (d64 with Q in registers, `_qr`; d128
    // 128 × 128), `ptw`: the wide ones (d64 192 × 128, d128 128 × 176)
    trace_entry!(attention_fwd_pt_bf16_d64, Bf16, D64, 32, 64, 32, true);
    trace_entry!(attention_fwd_pt_bf16_d128, Bf16, D128, 64, 64, 32, false);
    trace_entry!(attention_fwd_ptw_bf16_d64, Bf16, D64M192, 32, 64, 32, false);
    trace_entry!(attention_fwd_ptw_bf16_d128, Bf16, D128N176, 64, 88, 44, false);
}
