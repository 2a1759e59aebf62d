//! Attention forward on Hopper (issue #33): [`Context::attention`] computes
//! `O = softmax(scale · Q·Kᵀ + mask) · V` and the log-sum-exp of every query row, over bf16 or
//! fp16 tensors ([`AttnElement`]) with fp32 accumulation and softmax.
//!
//! [`AttentionConfig`] describes the problem (builder style, like [`crate::GemmConfig`]);
//! [`AttentionConfig::check`] turns it into the [`AttentionProblem`] the kernel is launched
//! with, or an [`AttentionError`] naming the value that is wrong, before anything is queued.
//!
//! Tensors are FlashAttention's: Q and O `(batch, seqlen_q, heads, head_dim)`, K and V
//! `(batch, seqlen_k, heads_kv, head_dim)`, `head_dim` contiguous, element strides of
//! (batch, token, head) of your choice (positive multiples of 8 = 16 bytes; tight by default).
//! LSE is f32 `(batch, heads, seqlen_q)`. Variable-length batches ([`AttentionConfig::varlen`])
//! pack the sequences along the token mode, `cu_seqlens` giving each one's start; LSE is then
//! `(heads, total_q)`.
//!
//! ```
//! use host::attention::{AttentionConfig, AttentionLens, Causal};
//! let cfg = AttentionConfig::new(2, 16, 1000, 1000, 128).heads_kv(4).causal(Causal::BottomRight);
//! let lens = cfg.lens()?;                    // elements each buffer needs
//! assert_eq!(lens.q, 2 * 1000 * 16 * 128);
//! assert_eq!(lens.k, 2 * 1000 * 4 * 128);
//! assert_eq!(lens.lse, 2 * 16 * 1000);
//! let p = cfg.check(&lens)?;                 // what the kernel is launched with
//! assert_eq!(p.q_stride, [1000 * 16 * 128, 16 * 128, 128]);
//! assert_eq!(p.scale, 1.0 / (128f32).sqrt());
//! # Ok::<(), host::Error>(())
//! ```

pub(crate) mod error;
pub mod launch;
// verbatim from /work/wt/attention-problem.rs (the boundary with the kernel's launch)
#[allow(missing_docs)]
pub mod problem;

use std::fmt;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};

use crate::context::{Context, DeviceInfo};
use crate::error::{Error, Result};

pub use crate::hgemm::HalfElement as AttnElement;
pub use error::AttentionError;
pub use problem::{AttentionProblem, Causal};

/// The head dimensions the kernel is built for.
pub const HEAD_DIMS: [usize; 3] = [64, 128, 256];

/// Elements per 16 bytes of a 16-bit element: every stride is a multiple of it (TMA).
pub const STRIDE_ALIGN: i64 = 8;

impl From<AttentionError> for Error {
    fn from(e: AttentionError) -> Error {
        Error::Attention(e)
    }
}

/// Elements each buffer of a problem needs (the largest offset it addresses, plus one).
///
/// ```
/// let lens = host::attention::AttentionConfig::new(1, 2, 3, 5, 64).lens()?;
/// assert_eq!((lens.q, lens.k, lens.v, lens.o, lens.lse), (384, 640, 640, 384, 6));
/// # Ok::<(), host::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionLens {
    /// Q's elements.
    pub q: usize,
    /// K's elements.
    pub k: usize,
    /// V's elements.
    pub v: usize,
    /// O's elements.
    pub o: usize,
    /// LSE's f32s.
    pub lse: usize,
}

/// An attention problem as the caller describes it; [`AttentionConfig::check`] validates it.
///
/// ```
/// use host::attention::{AttentionConfig, Causal};
/// // 16 query heads over 2 key/value heads (GQA 8), queries at the end of 4096 keys
/// let cfg = AttentionConfig::new(4, 16, 512, 4096, 128)
///     .heads_kv(2)
///     .causal(Causal::BottomRight)
///     .scale(0.1);
/// assert!(cfg.lens().is_ok());
/// // two sequences of 3 and 5 queries over 4 and 9 keys, packed
/// let var = AttentionConfig::varlen(8, 64, vec![0, 3, 8], vec![0, 4, 13]);
/// assert_eq!((var.batch, var.seqlen_q, var.seqlen_k), (2, 5, 9));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionConfig {
    /// Sequences.
    pub batch: usize,
    /// Query (and output) heads.
    pub heads: usize,
    /// Key/value heads (divides `heads`; default `heads`).
    pub heads_kv: usize,
    /// Query tokens per sequence (varlen: the longest).
    pub seqlen_q: usize,
    /// Key tokens per sequence (varlen: the longest).
    pub seqlen_k: usize,
    /// 64, 128 or 256.
    pub head_dim: usize,
    /// The causal mask and its alignment (default none).
    pub causal: Option<Causal>,
    /// The softmax scale (default `1/sqrt(head_dim)`).
    pub scale: Option<f32>,
    /// Element strides of (batch, token, head) for Q, K, V, O (default tight).
    pub strides: [Option<[i64; 3]>; 4],
    /// Varlen: cumulative query offsets, `batch + 1` entries.
    pub cu_seqlens_q: Option<Vec<i32>>,
    /// Varlen: cumulative key offsets.
    pub cu_seqlens_k: Option<Vec<i32>>,
}

/// The longest sequence of a `cu_seqlens` (0 when it has fewer than 2 entries).
fn longest(cu: &[i32]) -> usize {
    cu.windows(2)
        .map(|w| (i64::from(w[1]) - i64::from(w[0])).max(0) as usize)
        .max()
        .unwrap_or(0)
}

const TENSORS: [&str; 4] = ["Q", "K", "V", "O"];
const MODES: [&str; 3] = ["batch", "token", "head"];

impl AttentionConfig {
    /// `batch` sequences of `seqlen_q` queries over `seqlen_k` keys, `heads` heads of
    /// `head_dim`; no mask, `heads_kv = heads`, tight strides.
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::new(1, 8, 100, 100, 64);
    /// assert_eq!(c.heads_kv, 8);
    /// ```
    pub fn new(
        batch: usize,
        heads: usize,
        seqlen_q: usize,
        seqlen_k: usize,
        head_dim: usize,
    ) -> Self {
        AttentionConfig {
            batch,
            heads,
            heads_kv: heads,
            seqlen_q,
            seqlen_k,
            head_dim,
            causal: None,
            scale: None,
            strides: [None; 4],
            cu_seqlens_q: None,
            cu_seqlens_k: None,
        }
    }

    /// A variable-length batch (FlashAttention's varlen API): sequence `b` is query tokens
    /// `cu_seqlens_q[b]..cu_seqlens_q[b + 1]` and key tokens `cu_seqlens_k[b]..[b + 1]` of
    /// tensors packed along the token mode. `batch` and the longest lengths follow from them.
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::varlen(4, 128, vec![0, 7, 7, 20], vec![0, 9, 10, 30]);
    /// assert_eq!((c.batch, c.seqlen_q, c.seqlen_k), (3, 13, 20));
    /// ```
    pub fn varlen(heads: usize, head_dim: usize, cu_q: Vec<i32>, cu_k: Vec<i32>) -> Self {
        let mut c = Self::new(
            cu_q.len().saturating_sub(1),
            heads,
            longest(&cu_q),
            longest(&cu_k),
            head_dim,
        );
        c.cu_seqlens_q = Some(cu_q);
        c.cu_seqlens_k = Some(cu_k);
        c
    }

    /// Key/value heads (GQA: `heads` a multiple of it; MQA: 1).
    ///
    /// ```
    /// assert_eq!(host::attention::AttentionConfig::new(1, 8, 4, 4, 64).heads_kv(1).heads_kv, 1);
    /// ```
    pub fn heads_kv(mut self, heads_kv: usize) -> Self {
        self.heads_kv = heads_kv;
        self
    }

    /// A causal mask aligned [`Causal::TopLeft`] (torch's `is_causal`) or
    /// [`Causal::BottomRight`] (FlashAttention's).
    ///
    /// ```
    /// use host::attention::{AttentionConfig, Causal};
    /// let c = AttentionConfig::new(1, 8, 4, 4, 64).causal(Causal::TopLeft);
    /// assert_eq!(c.causal, Some(Causal::TopLeft));
    /// ```
    pub fn causal(mut self, causal: Causal) -> Self {
        self.causal = Some(causal);
        self
    }

    /// The softmax scale (default `1/sqrt(head_dim)`).
    ///
    /// ```
    /// assert_eq!(host::attention::AttentionConfig::new(1, 1, 1, 1, 64).scale(0.5).scale, Some(0.5));
    /// ```
    pub fn scale(mut self, scale: f32) -> Self {
        self.scale = Some(scale);
        self
    }

    /// Q's element strides of (batch, token, head).
    ///
    /// ```
    /// // Q as a slice of a fused QKV tensor: tokens 3 * 8 * 64 apart
    /// let c = host::attention::AttentionConfig::new(1, 8, 16, 16, 64).q_stride([0, 3 * 8 * 64, 64]);
    /// assert_eq!(c.strides[0], Some([0, 1536, 64]));
    /// ```
    pub fn q_stride(mut self, s: [i64; 3]) -> Self {
        self.strides[0] = Some(s);
        self
    }

    /// K's element strides of (batch, token, head).
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::new(1, 8, 16, 16, 64).k_stride([8192, 512, 64]);
    /// assert_eq!(c.strides[1], Some([8192, 512, 64]));
    /// ```
    pub fn k_stride(mut self, s: [i64; 3]) -> Self {
        self.strides[1] = Some(s);
        self
    }

    /// V's element strides of (batch, token, head).
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::new(1, 8, 16, 16, 64).v_stride([8192, 512, 64]);
    /// assert_eq!(c.strides[2], Some([8192, 512, 64]));
    /// ```
    pub fn v_stride(mut self, s: [i64; 3]) -> Self {
        self.strides[2] = Some(s);
        self
    }

    /// O's element strides of (batch, token, head).
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::new(1, 8, 16, 16, 64).o_stride([16384, 1024, 128]);
    /// assert_eq!(c.strides[3], Some([16384, 1024, 128]));
    /// ```
    pub fn o_stride(mut self, s: [i64; 3]) -> Self {
        self.strides[3] = Some(s);
        self
    }

    /// Whether this is a variable-length batch.
    ///
    /// ```
    /// assert!(!host::attention::AttentionConfig::new(1, 1, 1, 1, 64).is_varlen());
    /// ```
    pub fn is_varlen(&self) -> bool {
        self.cu_seqlens_q.is_some() || self.cu_seqlens_k.is_some()
    }

    /// The total query and key tokens: `batch · seqlen` or the varlen totals.
    ///
    /// ```
    /// let c = host::attention::AttentionConfig::varlen(1, 64, vec![0, 3, 5], vec![0, 4, 4]);
    /// assert_eq!(c.tokens(), (5, 4));
    /// ```
    pub fn tokens(&self) -> (usize, usize) {
        let last = |cu: &Option<Vec<i32>>| {
            cu.as_ref()
                .and_then(|c| c.last())
                .map_or(0, |&t| t.max(0) as usize)
        };
        if self.is_varlen() {
            (last(&self.cu_seqlens_q), last(&self.cu_seqlens_k))
        } else {
            (
                self.batch.saturating_mul(self.seqlen_q),
                self.batch.saturating_mul(self.seqlen_k),
            )
        }
    }

    /// Every check that needs no buffer: head dim, head counts and GQA ratio, sequence lengths
    /// and `cu_seqlens`, scale, strides (positive multiples of 8, O not overlapping); the
    /// problem with its strides resolved.
    ///
    /// ```
    /// use host::attention::{AttentionConfig, AttentionError};
    /// let e = AttentionConfig::new(1, 6, 64, 64, 64).heads_kv(4).check_shape().unwrap_err();
    /// assert_eq!(e.to_string(), "attention: heads=6 is not a multiple of heads_kv=4 (GQA needs heads = ratio * heads_kv)");
    /// ```
    pub fn check_shape(&self) -> Result<AttentionProblem> {
        use AttentionError as E;
        if !HEAD_DIMS.contains(&self.head_dim) {
            return Err(E::HeadDim {
                head_dim: self.head_dim,
            }
            .into());
        }
        let varlen = self.is_varlen();
        for (name, value) in [
            ("batch", self.batch),
            ("heads", self.heads),
            ("heads_kv", self.heads_kv),
        ] {
            if value == 0 {
                return Err(E::Zero { name }.into());
            }
            if value >= 1 << 31 {
                return Err(E::TooLarge { name, value }.into());
            }
        }
        if !self.heads.is_multiple_of(self.heads_kv) {
            return Err(E::GqaRatio {
                heads: self.heads,
                heads_kv: self.heads_kv,
            }
            .into());
        }
        let (cu_q, cu_k) = if varlen {
            let cq = self.cu_seqlens(self.cu_seqlens_q.as_deref(), "cu_seqlens_q")?;
            let ck = self.cu_seqlens(self.cu_seqlens_k.as_deref(), "cu_seqlens_k")?;
            (Some(cq), Some(ck))
        } else {
            (None, None)
        };
        let (total_q, total_k) = self.tokens();
        for (name, value) in [
            ("seqlen_q", self.seqlen_q),
            ("seqlen_k", self.seqlen_k),
            ("total query tokens", total_q),
            ("total key tokens", total_k),
        ] {
            if value == 0 && (!varlen || name.starts_with("total")) {
                return Err(E::Zero { name }.into());
            }
            if value >= 1 << 31 {
                return Err(E::TooLarge { name, value }.into());
            }
        }
        let scale = self
            .scale
            .unwrap_or_else(|| 1.0 / (self.head_dim as f32).sqrt());
        if !(scale.is_finite() && scale > 0.0) {
            return Err(E::Scale { scale }.into());
        }
        let [q, k, v, o] = std::array::from_fn(|t| self.stride_of(t));
        for (t, s) in [q, k, v, o].iter().enumerate() {
            for (m, &x) in s.iter().enumerate() {
                let batch_mode = m == 0;
                let why = if varlen && batch_mode && x != 0 {
                    Some("must be 0 in a varlen batch (the sequences are packed along tokens)")
                } else if varlen && batch_mode {
                    None
                } else if x <= 0 {
                    Some("must be positive")
                } else if x % STRIDE_ALIGN != 0 {
                    Some("must be a multiple of 8 elements (16 bytes, TMA)")
                } else if x >= 1 << 39 {
                    Some("must be < 2^39 elements (TMA strides are < 2^40 bytes)")
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err(E::Stride {
                        tensor: TENSORS[t],
                        mode: MODES[m],
                        stride: x,
                        why,
                    }
                    .into());
                }
            }
        }
        // O: no two elements at one address (modes sorted by stride, each steps past the
        // extent of the smaller ones)
        let (rows_o, batches) = if varlen {
            (total_q, 1)
        } else {
            (self.seqlen_q, self.batch)
        };
        let mut modes = [
            (o[0], batches),
            (o[1], rows_o),
            (o[2], self.heads),
            (1, self.head_dim),
        ];
        modes.sort_by_key(|&(s, _)| s);
        let mut reach = 0i128; // the largest offset of the modes so far
        for &(s, n) in &modes {
            if n > 1 {
                if i128::from(s) <= reach {
                    return Err(E::Overlap { strides: o }.into());
                }
                reach += i128::from(s) * (n as i128 - 1);
            }
        }
        let (seqlen_q, seqlen_k) = match (&cu_q, &cu_k) {
            (Some(cq), Some(ck)) => (longest(cq), longest(ck)),
            _ => (self.seqlen_q, self.seqlen_k),
        };
        Ok(AttentionProblem {
            batch: self.batch,
            heads_q: self.heads,
            heads_kv: self.heads_kv,
            head_dim: self.head_dim,
            seqlen_q,
            seqlen_k,
            cu_seqlens_q: cu_q,
            cu_seqlens_k: cu_k,
            q_stride: q,
            k_stride: k,
            v_stride: v,
            o_stride: o,
            causal: self.causal,
            scale,
        })
    }

    /// A varlen `cu_seqlens`: `batch + 1` entries, the first 0, non-decreasing.
    fn cu_seqlens(&self, cu: Option<&[i32]>, name: &'static str) -> Result<Vec<i32>> {
        use AttentionError as E;
        let cu = cu.unwrap_or(&[]);
        if cu.len() != self.batch + 1 {
            return Err(E::CuSeqlensLen {
                name,
                len: cu.len(),
                batch: self.batch,
            }
            .into());
        }
        if cu[0] != 0 {
            return Err(E::CuSeqlensStart { name, first: cu[0] }.into());
        }
        if let Some(i) = (1..cu.len()).find(|&i| cu[i] < cu[i - 1]) {
            return Err(E::CuSeqlensDecreasing {
                name,
                index: i,
                prev: cu[i - 1],
                next: cu[i],
            }
            .into());
        }
        Ok(cu.to_vec())
    }

    /// Tensor `t`'s strides (0 Q, 1 K, 2 V, 3 O): given, or tight.
    fn stride_of(&self, t: usize) -> [i64; 3] {
        if let Some(s) = self.strides[t] {
            return s;
        }
        let heads = if t == 1 || t == 2 {
            self.heads_kv
        } else {
            self.heads
        } as i64;
        let seqlen = if t == 1 || t == 2 {
            self.seqlen_k
        } else {
            self.seqlen_q
        } as i64;
        let d = self.head_dim as i64;
        let batch = if self.is_varlen() {
            0
        } else {
            seqlen.saturating_mul(heads).saturating_mul(d)
        };
        [batch, heads.saturating_mul(d), d]
    }

    /// Elements each buffer needs ([`check_shape`](Self::check_shape) first).
    ///
    /// ```
    /// use host::attention::AttentionConfig;
    /// let c = AttentionConfig::varlen(2, 64, vec![0, 3, 5], vec![0, 4, 4]).q_stride([0, 256, 64]);
    /// let lens = c.lens()?;
    /// assert_eq!(lens.q, 4 * 256 + 64 + 64);   // token 4, head 1, 64 elements
    /// assert_eq!(lens.lse, 2 * 5);
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn lens(&self) -> Result<AttentionLens> {
        let p = self.check_shape()?;
        Ok(problem_lens(&p))
    }

    /// [`check_shape`](Self::check_shape), then every buffer's length against
    /// [`lens`](Self::lens): the problem `Context::attention` launches.
    ///
    /// ```
    /// use host::attention::{AttentionConfig, AttentionLens};
    /// let c = AttentionConfig::new(1, 2, 3, 5, 64);
    /// let mut lens = c.lens()?;
    /// lens.v -= 1;
    /// let e = c.check(&lens).unwrap_err();
    /// assert_eq!(e.to_string(), "buffer V has 639 elements, the problem needs 640");
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn check(&self, have: &AttentionLens) -> Result<AttentionProblem> {
        let p = self.check_shape()?;
        check_lens(have, &problem_lens(&p))?;
        Ok(p)
    }
}

/// Every buffer of `have` at least as long as `need`'s, in the order Q, K, V, O, LSE.
fn check_lens(have: &AttentionLens, need: &AttentionLens) -> Result<()> {
    for (name, len, needed) in [
        ("Q", have.q, need.q),
        ("K", have.k, need.k),
        ("V", have.v, need.v),
        ("O", have.o, need.o),
        ("LSE", have.lse, need.lse),
    ] {
        if len < needed {
            return Err(Error::BufferTooSmall { name, len, needed });
        }
    }
    Ok(())
}

impl From<&AttentionProblem> for AttentionConfig {
    /// The configuration that checks to `p` again (every stride, the scale and the
    /// `cu_seqlens` given explicitly): for problems built by hand, e.g. a kernel's own tests.
    ///
    /// ```
    /// use host::attention::{AttentionConfig, Causal};
    /// let p = AttentionConfig::varlen(8, 64, vec![0, 3, 9], vec![0, 5, 5])
    ///     .heads_kv(2)
    ///     .causal(Causal::BottomRight)
    ///     .check_shape()?;
    /// assert_eq!(AttentionConfig::from(&p).check_shape()?, p);
    /// # Ok::<(), host::Error>(())
    /// ```
    fn from(p: &AttentionProblem) -> AttentionConfig {
        AttentionConfig {
            batch: p.batch,
            heads: p.heads_q,
            heads_kv: p.heads_kv,
            seqlen_q: p.seqlen_q,
            seqlen_k: p.seqlen_k,
            head_dim: p.head_dim,
            causal: p.causal,
            scale: Some(p.scale),
            strides: [
                Some(p.q_stride),
                Some(p.k_stride),
                Some(p.v_stride),
                Some(p.o_stride),
            ],
            cu_seqlens_q: p.cu_seqlens_q.clone(),
            cu_seqlens_k: p.cu_seqlens_k.clone(),
        }
    }
}

impl fmt::Display for AttentionConfig {
    /// `b2 h16/4 sq1000 sk1000 d128 causal=bottom-right` (varlen: `varlen3 total_q.. `).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heads = if self.heads_kv == self.heads {
            format!("h{}", self.heads)
        } else {
            format!("h{}/{}", self.heads, self.heads_kv)
        };
        if self.is_varlen() {
            let (tq, tk) = self.tokens();
            write!(
                f,
                "varlen{} {heads} tq{tq} tk{tk} (max {}/{}) d{}",
                self.batch, self.seqlen_q, self.seqlen_k, self.head_dim
            )?;
        } else {
            write!(
                f,
                "b{} {heads} sq{} sk{} d{}",
                self.batch, self.seqlen_q, self.seqlen_k, self.head_dim
            )?;
        }
        match self.causal {
            Some(Causal::TopLeft) => write!(f, " causal=top-left")?,
            Some(Causal::BottomRight) => write!(f, " causal=bottom-right")?,
            None => {}
        }
        if self.strides.iter().any(Option::is_some) {
            write!(f, " strided")?;
        }
        Ok(())
    }
}

/// Elements each buffer of a checked problem needs.
///
/// ```
/// use host::attention::{AttentionConfig, problem_lens};
/// // dense (batch, token, head, dim): 3 query and 5 key tokens, 2 heads of 64
/// let p = AttentionConfig::new(1, 2, 3, 5, 64).check_shape()?;
/// let lens = problem_lens(&p);
/// assert_eq!((lens.q, lens.k, lens.v, lens.o, lens.lse), (384, 640, 640, 384, 6));
/// # Ok::<(), host::Error>(())
/// ```
pub fn problem_lens(p: &AttentionProblem) -> AttentionLens {
    let (rows_q, rows_k, batches) = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(cq), Some(ck)) => (
            *cq.last().unwrap_or(&0) as usize,
            *ck.last().unwrap_or(&0) as usize,
            1,
        ),
        _ => (p.seqlen_q, p.seqlen_k, p.batch),
    };
    let extent = |s: [i64; 3], rows: usize, heads: usize| -> usize {
        if rows == 0 {
            return 0;
        }
        let last = (batches as i128 - 1) * i128::from(s[0])
            + (rows as i128 - 1) * i128::from(s[1])
            + (heads as i128 - 1) * i128::from(s[2]);
        (last + p.head_dim as i128).min(usize::MAX as i128) as usize
    };
    AttentionLens {
        q: extent(p.q_stride, rows_q, p.heads_q),
        k: extent(p.k_stride, rows_k, p.heads_kv),
        v: extent(p.v_stride, rows_k, p.heads_kv),
        o: extent(p.o_stride, rows_q, p.heads_q),
        lse: p.heads_q * batches * rows_q,
    }
}

/// `Ok` when the base addresses are 16-byte aligned (TMA), else the first that is not.
///
/// ```
/// use host::attention::check_addresses;
/// assert!(check_addresses(&[("Q", 0x1000), ("K", 0x2010)]).is_ok());
/// let e = check_addresses(&[("Q", 0x1000), ("K", 0x2008)]).unwrap_err();
/// assert_eq!(e.to_string(), "attention: buffer K at 0x2008 is not 16-byte aligned");
/// ```
pub fn check_addresses(addrs: &[(&'static str, u64)]) -> Result<()> {
    match addrs.iter().find(|(_, a)| a % 16 != 0) {
        Some(&(tensor, address)) => Err(AttentionError::Misaligned { tensor, address }.into()),
        None => Ok(()),
    }
}

/// `Ok` on compute capability 9.0 (the kernel's `wgmma` and TMA are sm_90a).
///
/// ```
/// use host::DeviceInfo;
/// let a100 = DeviceInfo { ordinal: 0, name: "NVIDIA A100".into(), capability: (8, 0), sms: 108 };
/// let e = host::attention::check_device(&a100).unwrap_err();
/// assert!(e.to_string().contains("is sm_80; the attention kernel needs sm_90"), "{e}");
/// ```
pub fn check_device(d: &DeviceInfo) -> Result<()> {
    if d.capability == (9, 0) {
        Ok(())
    } else {
        Err(AttentionError::ComputeCapability {
            device: d.to_string(),
            capability: d.capability,
        }
        .into())
    }
}

/// TFLOP counted for a problem: `4 · Σ_b sq_b · sk_b · heads · d`, halved under a causal mask
/// (the convention of FlashAttention's and the issue's tables).
///
/// ```
/// use host::attention::{AttentionConfig, Causal, flops};
/// let c = AttentionConfig::new(2, 8, 1024, 1024, 128);
/// assert_eq!(flops(&c), 4.0 * 2.0 * 8.0 * 1024.0 * 1024.0 * 128.0);
/// assert_eq!(flops(&c.clone().causal(Causal::TopLeft)), flops(&c) / 2.0);
/// ```
pub fn flops(c: &AttentionConfig) -> f64 {
    let pairs = pairs(
        c.batch,
        c.seqlen_q,
        c.seqlen_k,
        c.cu_seqlens_q.as_deref(),
        c.cu_seqlens_k.as_deref(),
    );
    let f = 4.0 * pairs * c.heads as f64 * c.head_dim as f64;
    if c.causal.is_some() { f / 2.0 } else { f }
}

/// `Σ_b sq_b · sk_b`: the (query, key) pairs of a batch, masked ones included (`cu_q`, `cu_k`:
/// a variable-length batch's `cu_seqlens`).
///
/// ```
/// assert_eq!(host::attention::pairs(2, 3, 4, None, None), 24.0);
/// assert_eq!(host::attention::pairs(2, 0, 0, Some(&[0, 1, 3]), Some(&[0, 2, 6])), 1.0 * 2.0 + 2.0 * 4.0);
/// ```
pub fn pairs(
    batch: usize,
    seqlen_q: usize,
    seqlen_k: usize,
    cu_q: Option<&[i32]>,
    cu_k: Option<&[i32]>,
) -> f64 {
    match (cu_q, cu_k) {
        (Some(cq), Some(ck)) => cq
            .windows(2)
            .zip(ck.windows(2))
            .map(|(a, b)| f64::from(a[1] - a[0]) * f64::from(b[1] - b[0]))
            .sum(),
        _ => batch as f64 * seqlen_q as f64 * seqlen_k as f64,
    }
}

impl Context {
    /// `O = softmax(scale · Q·Kᵀ + mask) · V` and `LSE` (natural log, f32) for every query row,
    /// bf16 or fp16 in and out (`T`), fp32 accumulation, queued on `stream`.
    ///
    /// Checked before anything is queued: the stream and buffers belong to this context,
    /// [`AttentionConfig::check`] (head dim, head counts, lengths, `cu_seqlens`, scale, strides,
    /// buffer lengths), 16-byte aligned base addresses, a compute capability 9.0 device. A row
    /// with no visible key gets `O = 0`, `LSE = +inf`.
    ///
    /// ```no_run
    /// use half::bf16;
    /// use host::attention::{AttentionConfig, Causal};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let cfg = AttentionConfig::new(2, 16, 1024, 1024, 128).causal(Causal::TopLeft);
    /// let lens = cfg.lens()?;
    /// let q = s.clone_htod(&vec![bf16::from_f32(0.5); lens.q])?;
    /// let k = s.clone_htod(&vec![bf16::from_f32(0.5); lens.k])?;
    /// let v = s.clone_htod(&vec![bf16::ONE; lens.v])?;
    /// let mut o = s.alloc_zeros::<bf16>(lens.o)?;
    /// let mut lse = s.alloc_zeros::<f32>(lens.lse)?;
    /// ctx.attention(&s, &cfg, &q, &k, &v, &mut o, &mut lse)?;
    /// assert!(s.clone_dtoh(&o)?.iter().all(|&x| x == bf16::ONE)); // rows of V are all 1
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// The buffers are any cudarc device buffers (`CudaSlice`, views, or memory another
    /// library owns behind [`DevicePtr`]), as for [`Context::hgemm`].
    #[allow(clippy::too_many_arguments)]
    pub fn attention<T, Q, K, V, O, L>(
        &self,
        stream: &Arc<CudaStream>,
        cfg: &AttentionConfig,
        q: &Q,
        k: &K,
        v: &V,
        o: &mut O,
        lse: &mut L,
    ) -> Result<()>
    where
        T: AttnElement,
        Q: DevicePtr<T>,
        K: DevicePtr<T>,
        V: DevicePtr<T>,
        O: DevicePtrMut<T>,
        L: DevicePtrMut<f32>,
    {
        self.attention_with(stream, cfg, q, k, v, o, Some(lse))
    }

    /// [`Context::attention`] without the LSE (FlashAttention's `return_softmax_lse=False`, an
    /// inference forward): `O` alone, the kernel stores no log-sum-exp. The same checks but
    /// LSE's.
    ///
    /// ```no_run
    /// use half::bf16;
    /// use host::attention::AttentionConfig;
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let cfg = AttentionConfig::new(2, 16, 512, 512, 64);
    /// let lens = cfg.lens()?;
    /// let q = s.clone_htod(&vec![bf16::from_f32(0.5); lens.q])?;
    /// let k = s.clone_htod(&vec![bf16::from_f32(0.5); lens.k])?;
    /// let v = s.clone_htod(&vec![bf16::ONE; lens.v])?;
    /// let mut o = s.alloc_zeros::<bf16>(lens.o)?;
    /// ctx.attention_without_lse(&s, &cfg, &q, &k, &v, &mut o)?;
    /// assert!(s.clone_dtoh(&o)?.iter().all(|&x| x == bf16::ONE));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn attention_without_lse<T, Q, K, V, O>(
        &self,
        stream: &Arc<CudaStream>,
        cfg: &AttentionConfig,
        q: &Q,
        k: &K,
        v: &V,
        o: &mut O,
    ) -> Result<()>
    where
        T: AttnElement,
        Q: DevicePtr<T>,
        K: DevicePtr<T>,
        V: DevicePtr<T>,
        O: DevicePtrMut<T>,
    {
        self.attention_with(stream, cfg, q, k, v, o, None::<&mut CudaSlice<f32>>)
    }

    /// [`Context::attention`] with the LSE or without it (`None`, as
    /// [`Context::attention_without_lse`]): every check, in its order (without an LSE, none of
    /// LSE's), then the launch — for a caller that decides at run time whether it wants the LSE.
    ///
    /// ```no_run
    /// use half::bf16;
    /// use host::attention::AttentionConfig;
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// let cfg = AttentionConfig::new(1, 8, 256, 256, 64);
    /// let lens = cfg.lens()?;
    /// let q = s.clone_htod(&vec![bf16::from_f32(0.5); lens.q])?;
    /// let k = s.clone_htod(&vec![bf16::from_f32(0.5); lens.k])?;
    /// let v = s.clone_htod(&vec![bf16::ONE; lens.v])?;
    /// let mut o = s.alloc_zeros::<bf16>(lens.o)?;
    /// let want_lse = true;
    /// let mut lse = want_lse.then(|| s.alloc_zeros::<f32>(lens.lse)).transpose()?;
    /// ctx.attention_with(&s, &cfg, &q, &k, &v, &mut o, lse.as_mut())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn attention_with<T: AttnElement>(
        &self,
        stream: &Arc<CudaStream>,
        cfg: &AttentionConfig,
        q: &impl DevicePtr<T>,
        k: &impl DevicePtr<T>,
        v: &impl DevicePtr<T>,
        o: &mut impl DevicePtrMut<T>,
        mut lse: Option<&mut impl DevicePtrMut<f32>>,
    ) -> Result<()> {
        self.check_stream(stream)?;
        self.check_buffer("buffer Q", q)?;
        self.check_buffer("buffer K", k)?;
        self.check_buffer("buffer V", v)?;
        self.check_buffer("buffer O", o)?;
        if let Some(lse) = &lse {
            self.check_buffer("buffer LSE", *lse)?;
        }
        // `AttentionConfig::check`, with no LSE buffer to be short of without one
        let p = cfg.check_shape()?;
        let need = problem_lens(&p);
        let have = AttentionLens {
            q: q.len(),
            k: k.len(),
            v: v.len(),
            o: o.len(),
            lse: lse.as_ref().map_or(need.lse, |l| l.len()),
        };
        check_lens(&have, &need)?;
        let lse_addr = lse.as_mut().map(|l| l.device_ptr_mut(stream).0);
        check_addresses(&[
            ("Q", addr(q, stream)),
            ("K", addr(k, stream)),
            ("V", addr(v, stream)),
            ("O", o.device_ptr_mut(stream).0),
            // (no LSE: 0 passes)
            ("LSE", lse_addr.unwrap_or(0)),
        ])?;
        check_device(self.device())?;
        launch::attention_fwd(self, stream, &p, q, k, v, o, lse)
    }
}

/// A device buffer's address.
fn addr<T>(b: &impl DevicePtr<T>, stream: &Arc<CudaStream>) -> u64 {
    let (p, _sync) = b.device_ptr(stream);
    p
}

#[cfg(test)]
mod tests;
