//! The checked attention problem that `Context::attention` hands to the kernel launch.
//! Shared by `host/src/attention/mod.rs` (the checks: owner attn-host) and
//! `host/src/attention/launch.rs` (the launch: owner attn). Copy this file verbatim to
//! `host/src/attention/problem.rs`; change it only by agreement (write the change and why
//! into /work/wt/attention-interface-changes.md, which the other helper reads).

/// Where a causal mask's diagonal sits when `seqlen_q != seqlen_k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causal {
    /// torch's `is_causal`: query `i` sees keys `0..=i`.
    TopLeft,
    /// FlashAttention's: query `i` sees keys `0..=i + seqlen_k - seqlen_q` (queries at the end
    /// of a longer key sequence).
    BottomRight,
}

/// A problem every check has passed: sizes, strides (in elements), lengths, alignment.
/// Q: `(batch, seqlen_q, heads_q, head_dim)`, K and V: `(batch, seqlen_k, heads_kv, head_dim)`,
/// O like Q, `head_dim` contiguous. Variable-length batches (FlashAttention's varlen API): the
/// sequences are packed along the token mode, `cu_seqlens_*` give each one's start
/// (`batch + 1` entries, first 0, non-decreasing) and the batch stride is 0.
/// LSE: f32, `(batch, heads_q, seqlen_q)` contiguous; varlen: `(heads_q, total_q)`.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionProblem {
    pub batch: usize,
    pub heads_q: usize,
    /// Divides `heads_q` (GQA / MQA): query head `h` reads key/value head `h / (heads_q / heads_kv)`.
    pub heads_kv: usize,
    /// 64, 128 or 256.
    pub head_dim: usize,
    /// Fixed length: every sequence's; varlen: the longest.
    pub seqlen_q: usize,
    /// See `seqlen_q`.
    pub seqlen_k: usize,
    /// Varlen only: cumulative query offsets (host copy; the launch uploads them).
    pub cu_seqlens_q: Option<Vec<i32>>,
    /// Varlen only: cumulative key offsets.
    pub cu_seqlens_k: Option<Vec<i32>>,
    /// Element strides of (batch, token, head); each a multiple of 8 (16 bytes).
    pub q_stride: [i64; 3],
    pub k_stride: [i64; 3],
    pub v_stride: [i64; 3],
    pub o_stride: [i64; 3],
    pub causal: Option<Causal>,
    /// The softmax scale (default `1/sqrt(head_dim)`), finite and > 0.
    pub scale: f32,
}
