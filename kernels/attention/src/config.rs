// The attention kernel's configuration shared with the host: `kernels/attention` declares it as
// its `config` module, `host/src/attention/launch.rs` `include!`s this file, so the by-value
// parameter, the causal codes and the tile table have one definition. Plain `core` Rust and
// layout-types' `FastDivmod` (both crates depend on layout-types).

use layout_types::cute::consts::{_0, _1, _64};
use layout_types::cute::fast_divmod::FastDivmod;
use layout_types::cute::layout::Layout;
use layout_types::cute::swizzle::Swizzled;
use layout_types::cutlass::tile_scheduler::StreamKSplit;
use layout_types::value::swizzle::Swizzle;

/// Query rows per CTA tile: two consumer warpgroups of 64 (every head dim; head dim 64 also
/// has the 192-row tile of three, [`block_m_wide`]).
pub const BM: usize = 128;
/// Stages of the K and V rings.
pub const STAGES: usize = 2;
/// Threads per CTA: a producer warpgroup and two consumer warpgroups.
pub const THREADS: u32 = threads(BM);

/// Threads per CTA of a `bm`-row tile: the producer warpgroup and one consumer warpgroup per
/// 64 query rows.
pub const fn threads(bm: usize) -> u32 {
    (128 + 2 * bm) as u32
}

/// Query rows of the wide tile (three consumer warpgroups, 512 threads, `setmaxnreg` 32 / 160:
/// FlashAttention-3's d64 tile, 192 × 128), `None` for a head dim without one. Its keys per
/// block are [`block_n`]'s. The host picks it or the 128-row tile per problem
/// (`AttentionKernel::for_problem`).
pub const fn block_m_wide(d: usize) -> Option<usize> {
    match d {
        64 => Some(192),
        _ => None,
    }
}

/// Whether head dim `d`'s 128-row tile has default entries with Q as a register operand of
/// `S = Q·Kᵀ` (`_qr`: `wgmma` RS, the same shared memory): head dim 64. The host runs them
/// wherever it keeps that head dim at 128 rows (`AttentionKernel::for_problem`); head dim 128's
/// (the `qr` measuring variant) measured level with Q in shared memory, and the wider tiles
/// have no registers for Q.
pub const fn q_regs(d: usize) -> bool {
    d == 64
}

/// The causal mask's alignment (`Params::causal`): none.
pub const CAUSAL_NONE: i32 = 0;
/// Top-left (torch's `is_causal`): query `i` sees keys `0..=i`.
pub const CAUSAL_TOP_LEFT: i32 = 1;
/// Bottom-right (FlashAttention's): query `i` sees keys `0..=i + seqlen_k - seqlen_q`.
pub const CAUSAL_BOTTOM_RIGHT: i32 = 2;

/// Keys per block of head dim `d` (64 and 128: 128 keys; 256: 80), `None` for a head dim the
/// kernel has no entry for.
pub const fn block_n(d: usize) -> Option<usize> {
    match d {
        64 | 128 => Some(128),
        256 => Some(80),
        _ => None,
    }
}

/// Keys per block of the wide-key tile (FlashAttention-3's non-causal d128 tile, 128 × 176),
/// `None` for a head dim without one. The host picks it for non-causal problems
/// (`AttentionKernel::for_problem`); causal ones keep [`block_n`]'s 128 (FlashAttention-3's
/// causal tile: 176 measured up to 10 % slower at 512–2k keys, the diagonal block's masked
/// part a larger share).
pub const fn block_n_wide(d: usize) -> Option<usize> {
    match d {
        128 => Some(176),
        _ => None,
    }
}

/// Keys per block of head dim 256's short-key tile, 64: the default under 2k keys (128 × 64,
/// the `_n64` entries; `AttentionKernel::for_problem`) and the `tile` measuring variant's.
pub const fn block_n_tile(d: usize) -> Option<usize> {
    match d {
        256 => Some(64),
        _ => None,
    }
}

/// The TMA box of Q's, K's and V's loads and O's stores: `64 (d) × Rows` tokens of one head and
/// one batch, d contiguous, the 128-byte swizzle of 16-bit elements (`Sw<3,3,3>` in elements:
/// `Layout_K_SW128_Atom<half_t>`'s `Sw<3,4,3>` in bytes), coordinates `(d, token, head, batch)`
/// of the tensors' rank-4 maps: the kernel's atoms (Q's `BM` rows, K's and V's `BN`, O's 64 a
/// consumer warpgroup) and the host's maps are this one type.
///
/// ```text
/// TokenBox<_128>::default().to_string() == "Sw<3,3,3> o _0 o (_64,_128,_1,_1):(_1,_64,_0,_0)"
/// ```
/// (the host's `attention::launch` tests check each box the host encodes against its plan)
pub type TokenBox<Rows> =
    Swizzled<Swizzle<3, 3, 3>, Layout<(_64, Rows, _1, _1), (_1, _64, _0, _0)>>;

/// Shared memory a CTA may have on sm_90 (227 KiB).
pub const SMEM_MAX: usize = 232_448;
/// Bytes of one O staging box: 64 rows × 64 head-dim columns of 16-bit O (one consumer
/// warpgroup's rows; `collective::epilogue_rows::BOX_BYTES`).
pub const O_BOX_BYTES: usize = 64 * 64 * 2;

/// Stages of Q's pipeline in the default entries: one (the producer loads a tile's Q once the
/// previous tile's last `S = Q·Kᵀ` is done); the `q2` measuring variants have two.
pub const Q_STAGES: usize = 1;

/// Bytes of the mainloop's tiles: the `q_stages` Q stages, the K and V stages.
pub const fn mainloop_bytes(
    bm: usize,
    d: usize,
    bn: usize,
    stages: usize,
    q_stages: usize,
) -> usize {
    q_stages * bm * d * 2 + 2 * stages * bn * d * 2
}

/// O staging boxes per consumer warpgroup of the TMA-store epilogue: one per 64 columns of the
/// head dim where they fit beside the mainloop's tiles, else one, else 0: the tile stores O
/// directly from registers — no room (head dim 256's 128 × 80), or no registers to spare: the
/// 176-key tile, whose mainloop ptxas spilled (228 bytes in round 7, 220 in session 14) once the
/// TMA epilogue was in the same entry. The 192-row tile (160 registers per consumer thread)
/// spilled 8 bytes with it in round 7 and none since session 14 (the schedule's and the row
/// totals' changes): it has its box.
pub const fn o_boxes(bm: usize, d: usize, bn: usize, stages: usize, q_stages: usize) -> usize {
    let per_box = bm / 64 * O_BOX_BYTES;
    let room = SMEM_MAX - 128 - mainloop_bytes(bm, d, bn, stages, q_stages);
    if bn > 128 {
        0
    } else if room >= d / 64 * per_box {
        d / 64
    } else if room >= per_box {
        1
    } else {
        0
    }
}

/// Dynamic shared memory of the kernel for `bm` query rows ([`BM`] but in a measuring
/// variant), head dim `d`, `bn` keys per block, `stages` K/V stages ([`STAGES`] but in a
/// measuring variant) and `q_stages` Q stages ([`Q_STAGES`] but in a measuring variant): the Q
/// stages, the K and V stages, the O staging boxes ([`o_boxes`] per consumer
/// warpgroup), 128 bytes of barriers (the pipelines' and the ping-pong's).
pub const fn smem_bytes(bm: usize, d: usize, bn: usize, stages: usize, q_stages: usize) -> usize {
    mainloop_bytes(bm, d, bn, stages, q_stages)
        + o_boxes(bm, d, bn, stages, q_stages) * bm / 64 * O_BOX_BYTES
        + 128
}

/// Bytes of one consumer warpgroup's tile of 16-bit ones in the `lsum` measuring variant (the
/// B operand, 16 keys × 8 columns, of its row sums on the tensor core), past the barriers: the
/// host allots `ONES_BYTES` per consumer warpgroup beyond [`smem_bytes`] for those entries.
pub const ONES_BYTES: usize = 256;

/// `Params::epilogue`: O stored from registers (the direct path, every tile).
pub const EPILOGUE_DIRECT: i32 = 0;
/// `Params::epilogue`: O through shared memory and TMA stores where the tile has staging boxes
/// ([`o_boxes`] > 0) and the store cannot reach past its sequence (varlen: a warpgroup whose
/// rows cross the sequence's end stores directly; fixed lengths: TMA clips at the map's extent).
pub const EPILOGUE_TMA: i32 = 1;

/// The problem as the kernel reads it, passed by value. Addresses are device addresses (`u64`,
/// 0 for none).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Params {
    /// O's element strides (batch, token, head); varlen: batch stride 0.
    pub o_stride: [i64; 3],
    /// LSE's element strides (batch, head); the token stride is 1. Varlen: (0, total_q).
    pub lse_stride: [i64; 2],
    /// O (16-bit elements).
    pub o: u64,
    /// LSE (f32); 0: not stored (`Context::attention_without_lse`).
    pub lse: u64,
    /// Varlen: cumulative query starts (`batch + 1` i32); 0 for fixed lengths.
    pub cu_seqlens_q: u64,
    /// Varlen: cumulative key starts.
    pub cu_seqlens_k: u64,
    /// Sequences.
    pub batch: i32,
    /// Query heads.
    pub heads_q: i32,
    /// `heads_q / heads_kv`.
    pub group: i32,
    /// Fixed length: every sequence's; varlen: the longest (sizes the m-blocks).
    pub seqlen_q: i32,
    /// See `seqlen_q`.
    pub seqlen_k: i32,
    /// [`CAUSAL_NONE`], [`CAUSAL_TOP_LEFT`], [`CAUSAL_BOTTOM_RIGHT`].
    pub causal: i32,
    /// `scale · log2(e)`.
    pub scale_log2: f32,
    /// [`EPILOGUE_DIRECT`] or [`EPILOGUE_TMA`].
    pub epilogue: i32,
    /// The persistent schedule's divisors ([`SchedDivs::new`] of this problem and grid).
    pub sched: SchedDivs,
    /// The persistent schedule's stream-K split of the tiles' key blocks over the grid
    /// ([`StreamKSplit`], units key blocks): the last `T mod C + C` tiles' key blocks cut
    /// evenly over the CTAs where the last wave would be part-empty ([`split_of`]); else every
    /// tile whole.
    pub split: StreamKSplit,
    /// The split's workspace: [`split_slots`] `collective::scheduler::FixupSlot`s per (CTA,
    /// consumer warpgroup), flags zero ([`split_workspace_bytes`]); 0 without a split.
    pub workspace: u64,
}

/// A split tile's partial, per consumer thread: its O accumulators (`D/2` floats) and its two
/// rows' running max and sum, in [`split_slots`] `FixupSlot`s of 128 floats a thread.
pub const fn split_partial_floats(d: usize) -> usize {
    d / 2 + 4
}

/// `FixupSlot`s per (CTA, consumer warpgroup) of the split's workspace: one at head dims 64 and
/// 128, two at 256 (132 floats a thread; the partial's row `j` is row `j mod 32` of slot
/// `j div 32`).
pub const fn split_slots(d: usize) -> usize {
    split_partial_floats(d).div_ceil(128)
}

/// Whether the tile of `bm` rows, head dim `d` and `bn` keys a block has entries with the
/// stream-K split (`_streamk`: its work units and merge, [`split_of`]): head dim 128's 128 × 128
/// tile and head dim 256's 128 × 80. (The 176-key and 192-row tiles spilled with the split's
/// code; the others are not measured with it; sessions 33, 34.)
pub const fn tile_splits(d: usize, bm: usize, bn: usize) -> bool {
    bm == BM && ((d == 128 && bn == 128) || (d == 256 && bn == 80))
}

/// Bytes of the split's workspace for `grid` CTAs of `consumers` consumer warpgroups at head
/// dim `d`: [`split_slots`] `FixupSlot`s (128 threads' 128 floats and flags) each (the kernel
/// checks the size against the type).
pub const fn split_workspace_bytes(grid: usize, consumers: usize, d: usize) -> usize {
    grid * consumers * split_slots(d) * (128 * 128 * 4 + 128 * 4)
}

/// Stream-K only where the last wave would leave at least this many key blocks per CTA idle
/// on average: a split tile costs its two warpgroups' partials through L2 (34 KiB each at head
/// dim 128) and the head's wait, about a key block.
pub const SPLIT_MIN_IDLE_BLOCKS: i32 = 4;

/// The key-block split of a problem's tiles (`tiles` of `blocks` key blocks each, `grid` CTAs):
/// stream-K for non-causal fixed-length problems `allow`ed (a tile with `_streamk` entries,
/// [`tile_splits`]; not the measuring variants), else data-parallel; `None` when `grid < 1`.
///
/// ```text
/// split_of(2048, 16, 132, true, true) → 1848 tiles whole, the last 200 shared (24.2 key blocks a CTA)
/// split_of(2112, 16, 132, true, true) → every tile whole (16 full waves)
/// split_of(2048, 16, 132, false, true) → every tile whole (causal)
/// ```
/// (host/src/attention/launch.rs's tests pin these.)
pub fn split_of(
    tiles: i32,
    blocks: i32,
    grid: i32,
    plain: bool,
    allow: bool,
) -> Option<StreamKSplit> {
    if plain && allow {
        StreamKSplit::new(tiles, blocks, grid, SPLIT_MIN_IDLE_BLOCKS)
    } else {
        StreamKSplit::data_parallel(tiles, blocks, grid)
    }
}

/// The phase trace of the `measure` build's `pt` / `ptw` entries (`CUTE_RS_ATTENTION=pt`,
/// `host attention --trace FILE`; doc/attention.md, session 13): per (round of the persistent
/// schedule, CTA, role, word) one `u64`, the layout `(TRACE_WORDS, TRACE_ROLES, grid, rounds)`
/// column-major, rounds `⌈tiles / grid⌉ + 1`. Role 0 is the producer, `1 + w` consumer
/// warpgroup `w`; a word is a `%clock64` reading of the role's first thread (the events
/// `TR_*`), or a value ([`TR_N_BLOCKS`], [`TR_TILE`]); a slot no tile used stays 0.
pub const TRACE_WORDS: usize = 16;
/// Roles of the phase trace: the producer and at most three consumer warpgroups.
pub const TRACE_ROLES: usize = 4;
/// Consumer: the tile loop's top (before the schedule's arithmetic).
pub const TR_FETCH: usize = 0;
/// Consumer: the tile known (its key blocks counted).
pub const TR_FETCHED: usize = 1;
/// Consumer: Q's full barrier passed.
pub const TR_Q: usize = 2;
/// Consumer: K_0's full barrier passed.
pub const TR_K0: usize = 3;
/// Consumer: `S_0 = Q·K_0ᵀ` retired (`wait_group 0`).
pub const TR_S0: usize = 4;
/// Consumer: S_0's mask and softmax done, P_0 converted.
pub const TR_SOFTMAX0: usize = 5;
/// Consumer: the key loop left (every S and softmax done; the last P·V not yet issued).
pub const TR_LOOP: usize = 6;
/// Consumer: the last V's full barrier passed.
pub const TR_V_LAST: usize = 7;
/// Consumer: the last P·V retired.
pub const TR_PV_LAST: usize = 8;
/// Consumer: the row sums, `1 / l` and the LSE computed.
pub const TR_SUMS: usize = 9;
/// Consumer: O stored (TMA stores issued, or the direct stores).
pub const TR_O: usize = 10;
/// Consumer: the LSE stored (the tile's end).
pub const TR_END: usize = 11;
/// Producer: the tile loop's top.
pub const TRP_START: usize = 0;
/// Producer: Q's empty barrier passed (the consumers released the last tile's Q).
pub const TRP_Q: usize = 1;
/// Producer: K_0's empty barrier passed.
pub const TRP_K0: usize = 2;
/// Producer: V_0's empty barrier passed.
pub const TRP_V0: usize = 3;
/// Producer: the tile's last load issued.
pub const TRP_END: usize = 4;
/// Either role: the tile's key blocks (a value).
pub const TR_N_BLOCKS: usize = 12;
/// Either role: the tile's index in the schedule (a value).
pub const TR_TILE: usize = 13;

/// The persistent schedule's divisors (CUTLASS's `FastDivmod`s in its tile scheduler's
/// params): `first` and `second` are the first two extents of the tile order (m-blocks and
/// heads, or along [`RasterOrder::AlongHeads`] heads and batch), `grid` the CTAs, `order` which
/// order the tiles take. The kernel's `tile_of` and
/// `next_tile` take `idx2crd` of the tile index in shapes of these, so their divisions are
/// multiply-shifts (doc/attention.md, session 13: the divisions by run-time extents were 770–1,040
/// cycles of every tile's fixed cost).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct SchedDivs {
    /// The tile order's first extent.
    pub first: FastDivmod,
    /// Its second.
    pub second: FastDivmod,
    /// The grid's CTAs.
    pub grid: FastDivmod,
    /// The order.
    pub order: RasterOrder,
}

/// The order the persistent schedule deals out the tiles in: which coordinate advances fastest
/// (CUTLASS's tile schedulers' `RasterOrder`, there along M or N).
///
/// ```text
/// SchedDivs::new(16, 8, 2, true, 132)  → AlongM:     (m-block, head, batch), each head's last first
/// SchedDivs::new(64, 8, 2, true, 132)  → AlongHeads: (head, batch, m-block), the last m-blocks first
/// SchedDivs::new(64, 8, 2, false, 132) → AlongM:     (m-block, head, batch)
/// ```
/// (host/src/attention/launch.rs's tests pin these.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(i32)]
pub enum RasterOrder {
    /// Each head's m-blocks next to each other (without a mask always; causal, the m-blocks
    /// last first, so each head's longest tiles start first): the tiles that read one head's K
    /// and V run side by side and share them in L2.
    #[default]
    AlongM = 0,
    /// Causal, all heads' longest tiles first (m-blocks slowest, last first, heads fastest):
    /// every CTA's rounds fall in length together, the best balance of a static round robin,
    /// but a head's m-blocks run a round apart, each reading its K and V from DRAM again.
    AlongHeads = 1,
}
/// Causal problems of at most this many m-blocks take [`RasterOrder::AlongM`] (doc/attention.md,
/// session 31: under the heads-fastest order the short causal problems read their K and V from
/// DRAM once per m-block, 76–81 % of its bandwidth at d128 512 and 2k keys, where cuDNN hits L2;
/// each head's m-blocks side by side gained 14–25 % at 512–2k keys and 3–5 % at d128 4k; at 128
/// m-blocks the static round robin cannot balance a head's tiles, d128 16k 0.70 of the other
/// order; 64 level).
pub const CAUSAL_M_FASTEST_MAX_BLOCKS: i32 = 32;

impl SchedDivs {
    /// The divisors of a schedule of `m_blocks` query blocks, `heads_q` heads and `batch`
    /// sequences over `grid` CTAs, causal or not, and its order: [`RasterOrder::AlongHeads`] for
    /// causal problems of more than [`CAUSAL_M_FASTEST_MAX_BLOCKS`] m-blocks, else [`RasterOrder::AlongM`] (the
    /// order `tile_of` takes); `None` when an extent is below 1.
    pub const fn new(
        m_blocks: i32,
        heads_q: i32,
        batch: i32,
        causal: bool,
        grid: i32,
    ) -> Option<SchedDivs> {
        let order = if causal && m_blocks > CAUSAL_M_FASTEST_MAX_BLOCKS {
            RasterOrder::AlongHeads
        } else {
            RasterOrder::AlongM
        };
        let (first, second) = match order {
            RasterOrder::AlongHeads => (heads_q, batch),
            RasterOrder::AlongM => (m_blocks, heads_q),
        };
        match (
            FastDivmod::new(first),
            FastDivmod::new(second),
            FastDivmod::new(grid),
        ) {
            (Some(first), Some(second), Some(grid)) => Some(SchedDivs {
                first,
                second,
                grid,
                order,
            }),
            _ => None,
        }
    }
}
