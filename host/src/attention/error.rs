//! [`AttentionError`]: why an attention problem is refused (no dependency: `crate::error`
//! holds it as `Error::Attention`).

/// Why an attention problem is refused; each names the values.
///
/// ```
/// use host::attention::{AttentionConfig, AttentionError};
/// use host::Error;
/// let e = AttentionConfig::new(1, 6, 64, 64, 96).check_shape().unwrap_err();
/// assert!(matches!(e, Error::Attention(AttentionError::HeadDim { head_dim: 96 })));
/// assert_eq!(e.to_string(), "attention: head_dim=96: the kernel has head dims 64, 128 and 256");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AttentionError {
    /// `head_dim` not in [`super::HEAD_DIMS`].
    #[error("attention: head_dim={head_dim}: the kernel has head dims 64, 128 and 256")]
    HeadDim {
        /// The head dimension given.
        head_dim: usize,
    },
    /// A size that must be at least 1 is 0 (`batch`, `heads`, `heads_kv`, `seqlen_q`,
    /// `seqlen_k`, a varlen total).
    #[error("attention: {name}=0: must be at least 1")]
    Zero {
        /// Which size.
        name: &'static str,
    },
    /// A size at or beyond 2^31.
    #[error("attention: {name}={value} is too large: must be < 2^31")]
    TooLarge {
        /// Which size.
        name: &'static str,
        /// The value.
        value: usize,
    },
    /// `heads` is not a multiple of `heads_kv` (GQA / MQA: query head `h` reads key/value head
    /// `h / (heads / heads_kv)`).
    #[error(
        "attention: heads={heads} is not a multiple of heads_kv={heads_kv} (GQA needs heads = ratio * heads_kv)"
    )]
    GqaRatio {
        /// Query heads.
        heads: usize,
        /// Key/value heads.
        heads_kv: usize,
    },
    /// A stride that is not a positive multiple of 8 elements (16 bytes) below 2^39, or a
    /// non-zero batch stride in a varlen batch.
    #[error("attention: {tensor} {mode} stride {stride}: {why}")]
    Stride {
        /// "Q", "K", "V", "O".
        tensor: &'static str,
        /// "batch", "token", "head".
        mode: &'static str,
        /// The stride given, in elements.
        stride: i64,
        /// What it must be.
        why: &'static str,
    },
    /// O's strides make two of its elements share an address.
    #[error(
        "attention: O strides (batch {0}, token {1}, head {2}) overlap: two output elements would share an address",
        .strides[0], .strides[1], .strides[2]
    )]
    Overlap {
        /// O's (batch, token, head) strides.
        strides: [i64; 3],
    },
    /// `cu_seqlens_*` with a length other than `batch + 1`.
    #[error("attention: {name} has {len} entries, a batch of {batch} needs {}", .batch + 1)]
    CuSeqlensLen {
        /// "cu_seqlens_q" or "cu_seqlens_k".
        name: &'static str,
        /// Its length.
        len: usize,
        /// The batch.
        batch: usize,
    },
    /// `cu_seqlens_*[0] != 0`.
    #[error("attention: {name}[0]={first}, must be 0")]
    CuSeqlensStart {
        /// "cu_seqlens_q" or "cu_seqlens_k".
        name: &'static str,
        /// The first entry.
        first: i32,
    },
    /// `cu_seqlens_*` decreases.
    #[error("attention: {name} decreases at {index}: {prev} then {next}")]
    CuSeqlensDecreasing {
        /// "cu_seqlens_q" or "cu_seqlens_k".
        name: &'static str,
        /// The index of `next`.
        index: usize,
        /// The entry before.
        prev: i32,
        /// The smaller entry.
        next: i32,
    },
    /// The softmax scale is not finite and positive.
    #[error("attention: scale={scale}: must be finite and > 0")]
    Scale {
        /// The scale given.
        scale: f32,
    },
    /// A buffer's base address that is not 16-byte aligned (TMA).
    #[error("attention: buffer {tensor} at {address:#x} is not 16-byte aligned")]
    Misaligned {
        /// "Q", "K", "V", "O", "LSE".
        tensor: &'static str,
        /// The device address.
        address: u64,
    },
    /// The device is not compute capability 9.0 (the kernel is `wgmma` + TMA, sm_90a).
    #[error(
        "attention: {device} is sm_{}{}; the attention kernel needs sm_90 (Hopper: wgmma, TMA)",
        .capability.0, .capability.1
    )]
    ComputeCapability {
        /// The device, as `DeviceInfo` prints it.
        device: String,
        /// Its compute capability.
        capability: (i32, i32),
    },
}
