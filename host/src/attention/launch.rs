//! The launch of the attention forward kernel (`kernels/attention`): its TMA maps of Q, K and V
//! (rank 4 over (d, token, head, batch), boxes of `64 × rows`, the 128-byte swizzle), its
//! `Params`, the persistent grid and the shared memory. The problem arrives checked
//! ([`AttentionProblem`]); what is checked here is only what the launch itself needs (the TMA
//! maps' rules, as [`crate::tma`] errors).

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut};

use super::problem::{AttentionProblem, Causal};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::hgemm::HalfElement;
use crate::launch::ClusterLaunch;
use crate::tma::launch::TmaParam;
use crate::tma::{GmemTensor, TmaOp, tma_box};
use layout_types::cute::consts::{_64, _80, _128, _176, _192};
use layout_types::value::swizzle::ComposedLayout;

/// The kernel's configuration: `Params`, the causal codes, the tile table
/// (`kernels/attention/src/config.rs`, the one definition the kernel uses too).
#[allow(dead_code)]
mod config {
    include!("../../../kernels/attention/src/config.rs");
}
use config::Params;

/// The kernel's tiles for a problem: the query rows per CTA (one consumer warpgroup per 64:
/// two, or three in head dim 64's 192-row tile), the keys per block (`config::block_n`, or
/// head dim 128's 176, `config::block_n_wide`), whether Q is a register operand of `S = Q·Kᵀ`
/// (head dim 64's 128-row tile, `config::q_regs`), and the entry's measuring variant.
///
/// ```
/// use host::attention::launch::AttentionKernel;
/// // Q, two K and two V stages, two O staging boxes per consumer warpgroup, the barriers
/// assert_eq!(AttentionKernel::for_head_dim(128).map(|k| k.smem_bytes()), Some(128 * 128 * 2 + 4 * 128 * 128 * 2 + 2 * 2 * 8192 + 128));
/// assert!(AttentionKernel::for_head_dim(96).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionKernel {
    /// The head dim.
    pub head_dim: usize,
    /// Query rows per CTA ([`AttentionKernel::BM`], or `config::block_m_wide`'s 192 at d64).
    pub bm: usize,
    /// Keys per block (`config::block_n`, or `config::block_n_wide`'s 176 at d128).
    pub bn: usize,
    /// Stages of the K and V rings.
    pub stages: usize,
    /// Stages of Q's pipeline (`config::Q_STAGES`; 2 in the `q2` measuring variants).
    pub q_stages: usize,
    /// Q as a register operand of `S = Q·Kᵀ` (`wgmma` RS, Q loaded once per tile by
    /// `ldmatrix`): the `_qr` default entries (head dim 64's 128-row tile, `config::q_regs`)
    /// and the `qr` measuring variant. The shared memory is the same (Q is still staged there).
    pub q_regs: bool,
    /// The measuring variant (`serial`, ...; see [`AttentionKernel::variant`]), `""` for a
    /// default entry.
    pub variant: &'static str,
}

impl AttentionKernel {
    /// Query rows per CTA of the 128-row tiles (every head dim).
    pub const BM: usize = config::BM;
    /// Threads per CTA of the 128-row tiles: a producer warpgroup and two consumer warpgroups.
    pub const THREADS: u32 = config::THREADS;
    /// Below this many query rows (the longest sequence's, varlen) a causal problem keeps the
    /// 128-row tile at head dim 64 (see [`AttentionKernel::for_problem`]): up to the 32
    /// m-blocks of 128 rows (`config::CAUSAL_M_FASTEST_MAX_BLOCKS`) whose causal schedule runs
    /// each head's m-blocks side by side, which the 192-row tile does not (doc/attention.md,
    /// session 31: at 2k / 4k queries 1.11 / 1.07 times the 192-row tile, 8k / 16k 0.99 / 0.98).
    pub const WIDE_CAUSAL_MIN_SEQLEN_Q: usize =
        config::CAUSAL_M_FASTEST_MAX_BLOCKS as usize * config::BM + 1;
    /// Head dim 64's 192-row tile is taken only while its m-blocks compute at most this
    /// fraction (17/16) of the rows the 128-row tile's do (the longest sequence's, varlen):
    /// beyond, the padding costs more than the 128-row tile with Q in registers (`_qr`) loses
    /// (see [`AttentionKernel::for_problem`]).
    pub const WIDE_MAX_PADDING: (usize, usize) = (17, 16);
    /// Below this many keys (the longest sequence's, varlen) head dim 256 takes its 128 × 64
    /// tile (`config::block_n_tile`), from it 128 × 80 (see [`AttentionKernel::for_problem`]).
    pub const SHORT_KEYS_MAX_SEQLEN_K: usize = 2048;
    /// The measuring variants: `CUTE_RS_ATTENTION`'s values and the head dims each has an
    /// entry for (bf16). `overlap` and `wg3` force one of the default build's tiles, `n176` the
    /// 176-key tile (a measuring entry since session 33).
    const VARIANTS: [(&'static str, &'static [usize]); 27] = [
        ("overlap", &[64, 128, 256]),
        ("wg3", &[64]),
        ("n176", &[128]),
        ("wg3s3", &[64]),
        ("serial", &[64, 128, 256]),
        ("split", &[64, 128]),
        ("pingpong", &[64, 128]),
        ("tile", &[256]),
        ("stages3", &[64, 128]),
        ("stages3split", &[64, 128]),
        ("tree", &[64, 128, 256]),
        ("nb", &[64, 128]),
        ("splitnb", &[64, 128]),
        ("rsb", &[64, 128]),
        ("fa3", &[64, 128]),
        ("tws", &[64, 128]),
        ("twslazy", &[64, 128]),
        ("q2", &[64, 128]),
        ("qr", &[64, 128]),
        ("lsum", &[64, 128]),
        ("ov64", &[256]),
        ("ov64b", &[256]),
        ("ov80", &[256]),
        ("ov80s", &[256]),
        ("ov80bs", &[256]),
        ("pt", &[64, 128]),
        ("ptw", &[64, 128]),
    ];
    /// The 128-row tiles of head dim `d` (64, 128 or 256).
    ///
    /// ```
    /// use host::attention::launch::AttentionKernel;
    /// let k = AttentionKernel::for_head_dim(256).unwrap();
    /// assert_eq!((k.bm, k.bn), (128, 80));
    /// assert!(AttentionKernel::for_head_dim(96).is_none());
    /// ```
    pub fn for_head_dim(d: usize) -> Option<AttentionKernel> {
        config::block_n(d).map(|bn| AttentionKernel {
            head_dim: d,
            bm: config::BM,
            bn,
            stages: config::STAGES,
            q_stages: config::Q_STAGES,
            q_regs: false,
            variant: "",
        })
    }
    /// The tiles the default build runs `p` on — the one place the tile is chosen, as CUTLASS's
    /// tile heuristics. At head dim 64: FlashAttention-3's 192 × 128 (three consumer
    /// warpgroups) while its m-blocks compute at most
    /// [`WIDE_MAX_PADDING`](Self::WIDE_MAX_PADDING) = 17/16 of the 128-row ones' rows
    /// (`seqlen_q` 512, 1k, 1408: 9/8, 9/8, 12/11 — no; 768, 2k, 8k: 1, 33/32, 129/128 — yes)
    /// and, under a causal mask, from
    /// [`WIDE_CAUSAL_MIN_SEQLEN_Q`](Self::WIDE_CAUSAL_MIN_SEQLEN_Q) query rows; else 128 × 128
    /// with Q as a register operand of `S = Q·Kᵀ` (`_qr`, `config::q_regs`). At head dim 128
    /// 128 × 128 with either mask: its O goes out through the TMA-store epilogue and its
    /// non-causal problems take the stream-K split of a part-empty last wave (`config::split_of`),
    /// which FlashAttention-3's non-causal 128 × 176 has no registers for (session 33, H200, bf16,
    /// 16k tokens, ours / cuDNN in one process, two rounds: at 8k / 16k keys 128 × 128 with the
    /// split 1.017, 1.018 / 1.015, 1.004 against the 176-key tile's 0.930, 0.952 / 0.967, 0.944;
    /// the `n176` variant still runs it). At head dim 256 the
    /// intra-warpgroup overlap on FlashAttention-3's 128 × 80 from
    /// [`SHORT_KEYS_MAX_SEQLEN_K`](Self::SHORT_KEYS_MAX_SEQLEN_K) keys, else on 128 × 64 (`_n64`,
    /// with the softmax under P·V): with either mask, 128 × 64 measured 1.08–1.35 times the serial
    /// 128 × 80 (the default through session 11) at 512–1k keys, 128 × 80 overlapped 1.04–1.07 at
    /// 2k–16k but 0.97 at 2k causal (doc/attention.md, session 12); its non-causal problems take
    /// the split too (its partial in two slots; session 34, seven rounds: 2k level, 1.077
    /// against 1.053 at 4k).
    ///
    /// Measured on the H200, bf16, 16k tokens, like for like (ours / cuDNN in one process,
    /// doc/attention.md, session 11): d64 non-causal at 512 / 768 / 1k / 1408 / 2k, `qr`
    /// 0.79 / 0.83 / 0.85 / 0.86 / 0.88, 192 rows 0.75 / 0.86 / 0.79 / 0.82 / 0.90 (8k: 0.92
    /// against 0.99, session 11): the 192-row tile is 2–8 % faster per computed row, so its
    /// padding decides; causal under 2k queries `qr` 0.73 / 0.76 / 0.75 / 0.78 against 0.60 /
    /// 0.71 / 0.64 / 0.70 for 192 rows and 0.67 / – / 0.72 / – for 128 rows with Q in shared
    /// memory (the choice there before), level with 192 rows at 2k (0.78 / 0.79), behind it
    /// from 4k (until session 31's causal order by head: now ahead to 4k); `qr` is 1.015–1.077 times the same tile's TFLOP/s with Q in shared memory at
    /// every measured shape (session 11). d128 non-causal at 512 … 16k: 176 keys 0.57 / 0.62 /
    /// 0.70 / 0.76 / 0.78 / 0.79, 128 × 128 with the TMA epilogue 0.68 / 0.70 / 0.74 / 0.76 /
    /// 0.74 / 0.79 (2026-11-29, one call); causal the 176-key tile lost at 512–2k (0.49 / 0.56
    /// / 0.59 against 0.53 / 0.58 / 0.64).
    ///
    /// ```
    /// use host::attention::{AttentionConfig, Causal, launch::AttentionKernel};
    /// let k = |c: AttentionConfig| AttentionKernel::for_problem(&c.check_shape().unwrap()).unwrap();
    /// let tl = Causal::TopLeft;
    /// // d64 non-causal: 192 rows unless they pad more than 17/16, else 128 with Q in registers
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1024, 1024, 64)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1024, 1024, 64)).entry::<half::bf16>(), "attention_fwd_bf16_d64_qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 512, 512, 64)).entry::<half::f16>(), "attention_fwd_f16_d64_qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1408, 1408, 64)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 768, 768, 64)).describe(), "192×128");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 2048, 2048, 64)).entry::<half::bf16>(), "attention_fwd_bf16_d64_m192");
    /// // the keys do not enter: only the rows' padding
    /// assert!(k(AttentionConfig::new(1, 8, 1024, 8192, 64)).q_regs);
    /// assert_eq!(k(AttentionConfig::new(1, 8, 4096, 512, 64)).bm, 192);
    /// // d64 causal: 128 rows with Q in registers up to 4k queries, 192 rows from 4097
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1024, 1024, 64).causal(tl)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 768, 768, 64).causal(tl)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 2048, 2048, 64).causal(tl)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 4096, 4096, 64).causal(tl)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 8192, 8192, 64).causal(tl)).describe(), "192×128");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 4097, 8192, 64).causal(tl)).bm, 192);
    /// // one 128-row m-block against a 192-row one: 1.5 times the rows
    /// assert_eq!(k(AttentionConfig::new(4, 8, 100, 4096, 64)).describe(), "128×128 qr");
    /// assert_eq!(k(AttentionConfig::new(4, 8, 380, 4096, 64)).bm, 192);
    /// // rows that see no key (bottom-right, fewer keys than queries: the sweep's #59) too
    /// assert_eq!(k(AttentionConfig::new(1, 24, 5119, 149, 64).causal(Causal::BottomRight)).bm, 192);
    /// // d128: 128 × 128 at every length; Q never in registers
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1024, 8192, 128)).describe(), "128×128");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 8192, 8192, 128).causal(tl)).bn, 128);
    /// assert_eq!(k(AttentionConfig::new(1, 8, 4096, 4096, 128)).describe(), "128×128");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 512, 512, 128)).entry::<half::bf16>(), "attention_fwd_bf16_d128");
    /// // d256: 128 × 64 under 2k keys, 128 × 80 from 2k; either mask
    /// assert_eq!(k(AttentionConfig::new(1, 8, 512, 512, 256)).describe(), "128×64");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 1024, 2047, 256).causal(tl)).entry::<half::f16>(), "attention_fwd_f16_d256_n64");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 512, 2048, 256)).describe(), "128×80");
    /// assert_eq!(k(AttentionConfig::new(1, 8, 4096, 4096, 256).causal(tl)).entry::<half::bf16>(), "attention_fwd_bf16_d256");
    /// ```
    pub fn for_problem(p: &AttentionProblem) -> Option<AttentionKernel> {
        let base = Self::for_head_dim(p.head_dim)?;
        // rows computed: the m-blocks the longest sequence needs, each a whole tile
        let rows = |bm: usize| p.seqlen_q.div_ceil(bm) * bm;
        let (num, den) = Self::WIDE_MAX_PADDING;
        let wide = config::block_m_wide(p.head_dim)
            .filter(|_| p.causal.is_none() || p.seqlen_q >= Self::WIDE_CAUSAL_MIN_SEQLEN_Q)
            .filter(|&bm| den * rows(bm) <= num * rows(base.bm));
        let short_n =
            config::block_n_tile(p.head_dim).filter(|_| p.seqlen_k < Self::SHORT_KEYS_MAX_SEQLEN_K);
        let (bm, bn) = (wide.unwrap_or(base.bm), short_n.unwrap_or(base.bn));
        Some(AttentionKernel {
            bm,
            bn,
            // the 128 × 128 tile of a head dim with a `_qr` entry
            q_regs: config::q_regs(p.head_dim) && (bm, bn) == (base.bm, base.bn),
            ..base
        })
    }
    /// The tiles of `p` for a measuring variant (in a build with the `attention` family's
    /// `measure` feature, `CUTE_RS_KERNEL_FEATURES=attention/measure`): `serial` (no
    /// intra-warpgroup overlap), `split` (the overlap with the softmax in a basic block of its
    /// own), `pingpong` (the consumer warpgroups take turns), `serial` at d256 is session 11's default (the serial mainloop on 128 × 80), `tile` (128 × 64 at d256, serial), `ov64`, `ov64b`, `ov80`, `ov80s`, `ov80bs` (d256's overlapped mainloop on 128 × 64 / 128 × 80: by generic pointers, `b` from 32-bit shared bases, `s` the softmax under P·V; the defaults are `ov80b` and `ov64bs`), `stages3` and `stages3split` (three
    /// K/V stages at d64 and d128), `tree` (the row max and sum as tree reductions), `nb` (the
    /// consumer warpgroups' turns by named barriers, FlashAttention-3's), `splitnb` (`split`
    /// and `nb`), `rsb` (`split` and O rescaled before P·V's issue), `fa3` (`split`, `rsb`,
    /// `nb`); `tws` (`split` with the next K/V full barriers probed right after the `wgmma`
    /// issue), `twslazy` (`tws` with O rescaled only when a row's max moved); `wg3s3` (d64's
    /// 192-row tile with three K/V stages); `q2` (two Q stages: the next tile's Q loads under
    /// this one's last blocks and epilogue; d64 and d128 on 128 × 128); `qr` at d128 (Q as a
    /// register operand: `S = Q·Kᵀ` by `wgmma` RS, Q loaded once per tile by `ldmatrix`, on
    /// 128 × 128); `lsum` (the row sums on the tensor core: `l += P·1` by a `wgmma` m64n8k16 RS
    /// of the same P beside each k-block of `P·V`, no FADD chains; d64 on its default 128-row
    /// tile, Q in registers, d128 on 128 × 128; 256 bytes of ones per consumer warpgroup more
    /// shared memory). In any build: `overlap` (the 128 × 128 tile, Q in shared memory; 128 × 80
    /// at d256, whatever the keys), `wg3` (d64's 192-row tile), `n176` (d128's 176-key tile) and `qr` at d64 (the
    /// 128 × 128 tile with Q in registers, `_d64_qr`) force a default entry; `None`:
    /// [`for_problem`](Self::for_problem).
    /// A variant without an entry for `d` is an error.
    ///
    /// ```
    /// use host::attention::{AttentionConfig, launch::AttentionKernel};
    /// let p = |d| AttentionConfig::new(1, 2, 1000, 1000, d).check_shape().unwrap();
    /// let k = AttentionKernel::variant(&p(256), Some("tile")).unwrap();
    /// assert_eq!((k.bn, k.entry::<half::bf16>()), (64, "attention_fwd_tile_bf16_d256".to_string()));
    /// let k = AttentionKernel::variant(&p(128), Some("n176")).unwrap();
    /// assert_eq!((k.bn, k.entry::<half::f16>()), (176, "attention_fwd_f16_d128_n176".to_string()));
    /// let k = AttentionKernel::variant(&p(128), Some("overlap")).unwrap();
    /// assert_eq!((k.bn, k.entry::<half::bf16>()), (128, "attention_fwd_bf16_d128".to_string()));
    /// let k = AttentionKernel::variant(&p(64), Some("overlap")).unwrap();
    /// assert_eq!((k.bm, k.entry::<half::f16>()), (128, "attention_fwd_f16_d64".to_string()));
    /// let k = AttentionKernel::variant(&p(64), None).unwrap();
    /// assert_eq!((k.bm, k.entry::<half::bf16>()), (128, "attention_fwd_bf16_d64_qr".to_string()));
    /// let k = AttentionKernel::variant(&p(64), Some("wg3")).unwrap();
    /// assert_eq!((k.bm, k.entry::<half::bf16>()), (192, "attention_fwd_bf16_d64_m192".to_string()));
    /// // two Q stages: d128's second Q tile still leaves room for two O boxes per warpgroup
    /// let k = AttentionKernel::variant(&p(128), Some("q2")).unwrap();
    /// assert_eq!(k.smem_bytes(), 2 * 128 * 128 * 2 + 4 * 128 * 128 * 2 + 2 * 2 * 8192 + 128);
    /// assert_eq!(k.entry::<half::bf16>(), "attention_fwd_q2_bf16_d128");
    /// assert!(AttentionKernel::variant(&p(256), Some("q2")).is_err());
    /// // Q in registers: the 128 × 128 tile's shared memory (Q stays staged there by TMA); a
    /// // measuring entry at d128, the default `_qr` one at d64 (Q in shared memory: `overlap`)
    /// let k = AttentionKernel::variant(&p(128), Some("qr")).unwrap();
    /// assert_eq!((k.bn, k.smem_bytes()), (128, AttentionKernel::for_head_dim(128).unwrap().smem_bytes()));
    /// assert_eq!(k.entry::<half::bf16>(), "attention_fwd_qr_bf16_d128");
    /// let k = AttentionKernel::variant(&p(64), Some("qr")).unwrap();
    /// assert_eq!((k.bm, k.variant, k.entry::<half::f16>()), (128, "", "attention_fwd_f16_d64_qr".to_string()));
    /// let k = AttentionKernel::variant(&p(64), Some("overlap")).unwrap();
    /// assert_eq!((k.q_regs, k.entry::<half::bf16>()), (false, "attention_fwd_bf16_d64".to_string()));
    /// assert!(AttentionKernel::variant(&p(256), Some("qr")).is_err());
    /// // the row sums on the tensor core: a tile of ones per consumer warpgroup more
    /// let k = AttentionKernel::variant(&p(64), Some("lsum")).unwrap();
    /// assert_eq!((k.q_regs, k.entry::<half::bf16>()), (true, "attention_fwd_lsum_bf16_d64".to_string()));
    /// assert_eq!(k.smem_bytes(), AttentionKernel::for_head_dim(64).unwrap().smem_bytes() + 2 * 256);
    /// assert!(AttentionKernel::variant(&p(64), Some("tile")).is_err());
    /// assert!(AttentionKernel::variant(&p(128), Some("wg3")).is_err());
    /// assert!(AttentionKernel::variant(&p(128), Some("tile")).is_err());
    /// assert!(AttentionKernel::variant(&p(64), Some("n176")).is_err());
    /// assert!(AttentionKernel::variant(&p(64), Some("fast")).is_err());
    /// ```
    pub fn variant(p: &AttentionProblem, v: Option<&str>) -> Result<AttentionKernel> {
        let d = p.head_dim;
        let base = Self::for_head_dim(d)
            .ok_or_else(|| Error::Unsupported(format!("attention: head dim {d}")))?;
        let v = match v {
            None | Some("") => {
                return Self::for_problem(p)
                    .ok_or_else(|| Error::Unsupported(format!("attention: head dim {d}")));
            }
            Some(v) => v,
        };
        let names = || {
            Self::VARIANTS
                .iter()
                .map(|(n, ds)| format!("{n} (d {ds:?})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(&(name, dims)) = Self::VARIANTS.iter().find(|(n, _)| *n == v) else {
            return Err(Error::Unsupported(format!(
                "CUTE_RS_ATTENTION={v}: the variants are {}",
                names()
            )));
        };
        if !dims.contains(&d) {
            return Err(Error::Unsupported(format!(
                "CUTE_RS_ATTENTION={v}: no entry at head dim {d}; the variants are {}",
                names()
            )));
        }
        let bm = if name.starts_with("wg3") || (name == "ptw" && d == 64) {
            config::block_m_wide(d).unwrap_or(base.bm)
        } else {
            base.bm
        };
        let bn = match name {
            "tile" | "ov64" | "ov64b" => config::block_n_tile(d).unwrap_or(base.bn),
            "n176" | "ptw" => config::block_n_wide(d).unwrap_or(base.bn),
            _ => base.bn,
        };
        Ok(AttentionKernel {
            head_dim: d,
            bm,
            bn,
            stages: if name.starts_with("stages3") || name == "wg3s3" {
                3
            } else {
                base.stages
            },
            q_stages: if name == "q2" { 2 } else { base.q_stages },
            q_regs: name == "qr" || (matches!(name, "lsum" | "pt") && config::q_regs(d)),
            // `overlap`, `wg3`, `n176` and `qr` where it has a `_qr` entry are default entries
            variant: if matches!(name, "overlap" | "wg3" | "n176")
                || (name == "qr" && config::q_regs(d))
            {
                ""
            } else {
                name
            },
        })
    }
    /// Dynamic shared memory: Q, the stages of K and V, the O staging boxes, the barriers
    /// (`config::smem_bytes`), and for `lsum` its tiles of ones (`config::ONES_BYTES` per
    /// consumer warpgroup).
    ///
    /// ```
    /// use host::attention::launch::AttentionKernel;
    /// let k = AttentionKernel::for_head_dim(128).unwrap();
    /// assert!(k.smem_bytes() <= 227 * 1024);
    /// // a deeper K/V pipeline takes more
    /// assert!(AttentionKernel { stages: k.stages + 1, ..k }.smem_bytes() > k.smem_bytes());
    /// ```
    pub fn smem_bytes(self) -> usize {
        // `lsum`: each consumer warpgroup's tile of ones past the barriers
        let ones = if self.variant == "lsum" {
            config::ONES_BYTES * self.bm / 64
        } else {
            0
        };
        config::smem_bytes(self.bm, self.head_dim, self.bn, self.stages, self.q_stages) + ones
    }
    /// Threads per CTA: the producer warpgroup and one consumer warpgroup per 64 query rows
    /// (`config::threads`).
    ///
    /// ```
    /// use host::attention::launch::AttentionKernel;
    /// let k = AttentionKernel { bm: 192, ..AttentionKernel::for_head_dim(64).unwrap() };
    /// assert_eq!(k.threads(), 512);
    /// assert_eq!(AttentionKernel::for_head_dim(64).unwrap().threads(), AttentionKernel::THREADS);
    /// ```
    pub fn threads(self) -> u32 {
        config::threads(self.bm)
    }
    /// The tile as `rows×keys` (`192×128`), and the variant if any, or `qr` for a default entry
    /// with Q in registers (`128×128 qr`): what `host attention` and `host bench attention`
    /// report.
    ///
    /// ```
    /// use host::attention::launch::AttentionKernel;
    /// assert_eq!(AttentionKernel::for_head_dim(256).unwrap().describe(), "128×80");
    /// ```
    pub fn describe(self) -> String {
        let v = if !self.variant.is_empty() {
            format!(" {}", self.variant)
        } else if self.q_regs {
            " qr".to_string()
        } else {
            String::new()
        };
        format!("{}×{}{v}", self.bm, self.bn)
    }
    /// The entry: `attention_fwd_bf16_d128`, `attention_fwd_bf16_d64_m192` (the 192-row tile),
    /// `attention_fwd_f16_d128_n176` (the 176-key tile), `attention_fwd_bf16_d64_qr` (Q in
    /// registers), `attention_fwd_serial_bf16_d128`, ...
    ///
    /// ```
    /// use host::attention::launch::AttentionKernel;
    /// let k = AttentionKernel::for_head_dim(64).unwrap();
    /// assert_eq!(k.entry::<half::bf16>(), "attention_fwd_bf16_d64");
    /// assert_eq!(AttentionKernel { bm: 192, ..k }.entry::<half::f16>(), "attention_fwd_f16_d64_m192");
    /// ```
    pub fn entry<T: HalfElement>(self) -> String {
        if self.variant.is_empty() {
            let m = if self.bm == config::BM {
                String::new()
            } else {
                format!("_m{}", self.bm)
            };
            let n = if Some(self.bn) == config::block_n(self.head_dim) {
                String::new()
            } else {
                format!("_n{}", self.bn)
            };
            let qr = if self.q_regs { "_qr" } else { "" };
            format!("attention_fwd_{}_d{}{m}{n}{qr}", T::NAME, self.head_dim)
        } else {
            format!(
                "attention_fwd_{}_{}_d{}",
                self.variant,
                T::NAME,
                self.head_dim
            )
        }
    }
    /// The kernel `p` runs on: the context's [`Overrides::attention_variant`](crate::Overrides)
    /// if set ([`variant`](Self::variant); `CUTE_RS_ATTENTION` in the CLI), else
    /// [`for_problem`](Self::for_problem)'s, and its entry, checked against the loaded modules:
    /// a measuring variant missing from this build is a clear error.
    ///
    /// ```no_run
    /// use host::attention::{AttentionConfig, launch::AttentionKernel};
    /// let ctx = host::Context::new(0)?;
    /// let p = AttentionConfig::new(1, 8, 1024, 1024, 128).check_shape()?;
    /// let (k, entry) = AttentionKernel::selected::<half::bf16>(&ctx, &p)?;
    /// println!("{entry}: {}", k.describe());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn selected<T: HalfElement>(
        ctx: &Context,
        p: &AttentionProblem,
    ) -> Result<(AttentionKernel, String)> {
        let v = ctx.overrides().attention_variant.as_deref();
        let k = Self::variant(p, v)?;
        let entry = k.entry::<T>();
        if let Some(name) = v.filter(|_| !ctx.has_kernel(&entry)) {
            return Err(Error::Unsupported(format!(
                "CUTE_RS_ATTENTION={name}: {entry} is not in this build (the measuring variants \
                 need the kernels built with CUTE_RS_KERNEL_FEATURES=attention/measure)"
            )));
        }
        Ok((k, entry))
    }
}

/// The phase trace of the last launch of a trace entry (`CUTE_RS_ATTENTION=pt` / `ptw`, the
/// `measure` build): its device words (`config::TRACE_WORDS` per (round, CTA, role)), the grid
/// and the rounds. Read back by [`take_trace`].
struct TraceBuf {
    words: cudarc::driver::CudaSlice<u64>,
    grid: usize,
    rounds: usize,
}

static TRACE: std::sync::Mutex<Option<TraceBuf>> = std::sync::Mutex::new(None);

/// Whether the entry of `k` takes a phase-trace buffer (the `pt` / `ptw` measuring variants).
fn traced(k: AttentionKernel) -> bool {
    matches!(k.variant, "pt" | "ptw")
}

/// The phase trace of the last `pt` / `ptw` launch (doc/attention.md, session 13): its words,
/// `(TRACE_WORDS, TRACE_ROLES, grid, rounds)` column-major (`config::TRACE_WORDS`'s layout), the
/// grid and the rounds; `None` if no trace entry ran since the last call. Waits for `stream`.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// // after a launch of a `pt` / `ptw` entry (the `measure` build, CUTE_RS_ATTENTION=pt)
/// if let Some((words, grid, rounds)) = host::attention::launch::take_trace(&ctx.default_stream())? {
///     assert_eq!(words.len() % (grid * rounds), 0);
/// }
/// # Ok::<(), host::Error>(())
/// ```
pub fn take_trace(stream: &Arc<CudaStream>) -> Result<Option<(Vec<u64>, usize, usize)>> {
    let Some(t) = TRACE
        .lock()
        .map_err(|_| Error::Unsupported("trace lock".into()))?
        .take()
    else {
        return Ok(None);
    };
    stream.synchronize()?;
    Ok(Some((stream.clone_dtoh(&t.words)?, t.grid, t.rounds)))
}

/// The trace's words per (round, CTA, role): `config::TRACE_WORDS`.
pub const TRACE_WORDS: usize = config::TRACE_WORDS;
/// The trace's roles per CTA: the producer and up to three consumer warpgroups.
pub const TRACE_ROLES: usize = config::TRACE_ROLES;
/// The trace's words per (round, CTA).
pub const TRACE_WORDS_PER_CTA: usize = TRACE_WORDS * TRACE_ROLES;
/// Names of the trace's words (`config::TR_*`, consumer roles; the producer's `TRP_*` share
/// the first five indices), by index.
pub const TRACE_EVENTS: [(&str, usize); 14] = [
    ("fetch", config::TR_FETCH),
    ("fetched", config::TR_FETCHED),
    ("q", config::TR_Q),
    ("k0", config::TR_K0),
    ("s0", config::TR_S0),
    ("softmax0", config::TR_SOFTMAX0),
    ("loop", config::TR_LOOP),
    ("v_last", config::TR_V_LAST),
    ("pv_last", config::TR_PV_LAST),
    ("sums", config::TR_SUMS),
    ("o", config::TR_O),
    ("end", config::TR_END),
    ("n_blocks", config::TR_N_BLOCKS),
    ("tile", config::TR_TILE),
];
/// The producer's words (`config::TRP_*`).
pub const TRACE_PRODUCER_EVENTS: [(&str, usize); 5] = [
    ("start", config::TRP_START),
    ("q_acquired", config::TRP_Q),
    ("k0_acquired", config::TRP_K0),
    ("v0_acquired", config::TRP_V0),
    ("end", config::TRP_END),
];

/// The kernel's `causal` argument (`CAUSAL_NONE`, `CAUSAL_TOP_LEFT`, `CAUSAL_BOTTOM_RIGHT`).
fn causal_code(c: Option<Causal>) -> i32 {
    match c {
        None => config::CAUSAL_NONE,
        Some(Causal::TopLeft) => config::CAUSAL_TOP_LEFT,
        Some(Causal::BottomRight) => config::CAUSAL_BOTTOM_RIGHT,
    }
}

/// The kernel's `epilogue` argument: the TMA-store epilogue (`EPILOGUE_TMA`, where the tile
/// has staging boxes), or with the context's `Overrides::attention_direct_epilogue`
/// (`CUTE_RS_ATTENTION_EPILOGUE=direct` in the CLI) every O stored from registers
/// (`EPILOGUE_DIRECT`, the kernel before the TMA epilogue: for measuring).
fn epilogue_code(ctx: &Context) -> i32 {
    if ctx.overrides().attention_direct_epilogue {
        config::EPILOGUE_DIRECT
    } else {
        config::EPILOGUE_TMA
    }
}

/// The smem box of a TMA load or store of `rows` tokens: the kernel's
/// [`config::TokenBox`] (`64 (d) × rows`, one head, one batch), one arm per row count the
/// tiles use (Q's 128 and 192, K's and V's 64, 80, 128 and 176, O's 64).
fn token_box(rows: usize) -> Result<ComposedLayout> {
    match rows {
        64 => tma_box::<config::TokenBox<_64>>(),
        80 => tma_box::<config::TokenBox<_80>>(),
        128 => tma_box::<config::TokenBox<_128>>(),
        176 => tma_box::<config::TokenBox<_176>>(),
        192 => tma_box::<config::TokenBox<_192>>(),
        _ => Err(Error::Unsupported(format!(
            "attention: no tile loads boxes of {rows} tokens"
        ))),
    }
}

/// A (batch, token, head, d) tensor as TMA's (d, token, head, batch); a varlen batch (stride
/// 0) is one batch of `tokens` packed tokens.
fn gmem(
    addr: u64,
    d: usize,
    tokens: usize,
    heads: usize,
    batch: usize,
    stride: [i64; 3],
) -> GmemTensor {
    let (b, sb) = if stride[0] == 0 {
        (1, stride[1] as u64 * tokens as u64)
    } else {
        (batch as u64, stride[0] as u64)
    };
    GmemTensor::new::<u16>(
        addr,
        &[d as u64, tokens as u64, heads as u64, b],
        &[1, stride[1] as u64, stride[2] as u64, sb.max(8)],
    )
}

/// Queues the attention forward of the checked problem `p` on `stream`: O and LSE (see
/// [`AttentionProblem`] for the layouts).
#[allow(clippy::too_many_arguments)]
pub(crate) fn attention_fwd<T: HalfElement>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    p: &AttentionProblem,
    q: &impl DevicePtr<T>,
    k: &impl DevicePtr<T>,
    v: &impl DevicePtr<T>,
    o: &mut impl DevicePtrMut<T>,
    lse: Option<&mut impl DevicePtrMut<f32>>,
) -> Result<()> {
    let (kern, entry) = AttentionKernel::selected::<T>(ctx, p)?;
    let varlen = p.cu_seqlens_q.is_some();
    let (total_q, total_k) = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(cq), Some(ck)) => (
            *cq.last().unwrap_or(&0) as usize,
            *ck.last().unwrap_or(&0) as usize,
        ),
        _ => (p.seqlen_q, p.seqlen_k),
    };
    let cu = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(cq), Some(ck)) => Some((stream.clone_htod(cq)?, stream.clone_htod(ck)?)),
        _ => None,
    };
    let (pq, _gq) = q.device_ptr(stream);
    let (pk, _gk) = k.device_ptr(stream);
    let (pv, _gv) = v.device_ptr(stream);
    let (po, _go) = o.device_ptr_mut(stream);
    // (no LSE: address 0, which the kernel does not store to)
    let (pl, _gl) = match lse {
        Some(lse) => {
            let (pl, gl) = lse.device_ptr_mut(stream);
            (pl, Some(gl))
        }
        None => (0, None),
    };
    let d = p.head_dim;
    let q_t = gmem(pq, d, total_q.max(1), p.heads_q, p.batch, p.q_stride);
    let k_t = gmem(pk, d, total_k.max(1), p.heads_kv, p.batch, p.k_stride);
    let v_t = gmem(pv, d, total_k.max(1), p.heads_kv, p.batch, p.v_stride);
    let tma_q = ctx.make_tma_copy(TmaOp::Load, &q_t, &token_box(kern.bm)?)?;
    let tma_k = ctx.make_tma_copy(TmaOp::Load, &k_t, &token_box(kern.bn)?)?;
    let tma_v = ctx.make_tma_copy(TmaOp::Load, &v_t, &token_box(kern.bn)?)?;
    // O's map for the TMA-store epilogue (boxes of 64 rows: one consumer warpgroup's)
    let o_t = gmem(po, d, total_q.max(1), p.heads_q, p.batch, p.o_stride);
    let tma_o = ctx.make_tma_copy(TmaOp::Store, &o_t, &token_box(64)?)?;
    let (cu_q, cu_k, _gcq, _gck) = match &cu {
        Some((cq, ck)) => {
            let (a, ga) = cq.device_ptr(stream);
            let (b, gb) = ck.device_ptr(stream);
            (a, b, Some(ga), Some(gb))
        }
        None => (0, 0, None, None),
    };
    let lse_stride = if varlen {
        [0, total_q as i64]
    } else {
        [(p.heads_q * p.seqlen_q) as i64, p.seqlen_q as i64]
    };
    let tiles = p.seqlen_q.div_ceil(kern.bm) * p.heads_q * p.batch;
    if tiles == 0 {
        return Ok(());
    }
    if tiles > i32::MAX as usize {
        return Err(Error::GridTooLarge {
            kernel: "attention",
            x: tiles,
            y: 1,
            z: 1,
        });
    }
    let grid = tiles.min(ctx.device().sms.max(1) as usize) as u32;
    // the persistent schedule's divisors (`tile_of`'s and `next_tile`'s `FastDivmod`s): every
    // extent is at least 1 and at most `tiles` here
    let sched = config::SchedDivs::new(
        p.seqlen_q.div_ceil(kern.bm) as i32,
        p.heads_q as i32,
        p.batch as i32,
        p.causal.is_some(),
        grid as i32,
    )
    .ok_or_else(|| Error::Unsupported(format!("attention schedule of {tiles} tiles")))?;
    // the stream-K split of a part-empty last wave's key blocks: non-causal fixed lengths on a
    // default entry whose tile has `_streamk` entries (`config::tile_splits`)
    let blocks = p.seqlen_k.div_ceil(kern.bn);
    let consumers = kern.bm / 64;
    let split = config::split_of(
        tiles as i32,
        blocks.min(i32::MAX as usize) as i32,
        grid as i32,
        p.causal.is_none() && !varlen,
        config::tile_splits(d, kern.bm, kern.bn)
            && kern.variant.is_empty()
            && !ctx.overrides().attention_whole_tiles,
    )
    .ok_or_else(|| Error::Unsupported(format!("attention split of {tiles} tiles")))?;
    // a split launch runs the tile's `_streamk` entry (the others' tile loop stays the one
    // without work units)
    let entry = if split.sk_tiles() > 0 {
        format!("{entry}_streamk")
    } else {
        entry
    };
    let workspace = if split.sk_tiles() > 0 {
        ctx.stream_k_workspace(
            stream,
            config::split_workspace_bytes(grid as usize, consumers, d),
        )?
    } else {
        0
    };
    let params = Params {
        o_stride: p.o_stride,
        lse_stride,
        o: po,
        lse: pl,
        cu_seqlens_q: cu_q,
        cu_seqlens_k: cu_k,
        batch: p.batch as i32,
        heads_q: p.heads_q as i32,
        group: (p.heads_q / p.heads_kv) as i32,
        seqlen_q: p.seqlen_q as i32,
        seqlen_k: p.seqlen_k as i32,
        causal: causal_code(p.causal),
        scale_log2: p.scale * std::f32::consts::LOG2_E,
        epilogue: epilogue_code(ctx),
        sched,
        split,
        workspace,
    };
    let f = ctx.function(&entry)?;
    f.set_attribute(
        cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        kern.smem_bytes() as i32,
    )?;
    let (mq, mk, mv, mo) = (
        TmaParam(tma_q.desc.0),
        TmaParam(tma_k.desc.0),
        TmaParam(tma_v.desc.0),
        TmaParam(tma_o.desc.0),
    );
    // programmatically dependent on the kernel before it in the stream (the kernel waits for
    // it before touching global memory), but for a traced launch (its buffer zeroed just before)
    let launch = ClusterLaunch::new(grid, kern.threads(), kern.smem_bytes() as u32, 1, stream)
        .programmatic(!ctx.overrides().serial_launches && !traced(kern));
    ctx.cuda_context().bind_to_thread()?;
    // a trace entry's sixth parameter: its buffer, zeroed per launch (kept for `take_trace`)
    let mut trace_ptr = 0u64;
    let mut trace = TRACE
        .lock()
        .map_err(|_| Error::Unsupported("trace lock".into()))?;
    if traced(kern) {
        let rounds = tiles.div_ceil(grid as usize) + 1;
        let n = TRACE_WORDS_PER_CTA * grid as usize * rounds;
        let words = match trace.take() {
            Some(mut t) if t.words.len() == n => {
                stream.memset_zeros(&mut t.words)?;
                t.words
            }
            _ => stream.alloc_zeros::<u64>(n)?,
        };
        *trace = Some(TraceBuf {
            words,
            grid: grid as usize,
            rounds,
        });
        if let Some(t) = trace.as_mut() {
            trace_ptr = t.words.device_ptr_mut(stream).0;
        }
    }
    let mut args: [*mut c_void; 6] = [
        (&raw const mq) as *mut c_void,
        (&raw const mk) as *mut c_void,
        (&raw const mv) as *mut c_void,
        (&raw const mo) as *mut c_void,
        (&raw const params) as *mut c_void,
        (&raw const trace_ptr) as *mut c_void,
    ];
    let args = if traced(kern) {
        &mut args[..]
    } else {
        &mut args[..5]
    };
    // SAFETY: the signature is (CUtensorMap Q, K, V, O, Params); the maps describe the checked
    // tensors with the kernel's boxes; O, LSE and the cumulative lengths hold what `Params`
    // says (the problem's checks); 384 threads and the kernel's shared memory; the buffers'
    // guards live until the launch is queued, the `cu` copies until this function returns:
    // they were allocated on `stream`, and cudarc frees a slice on its own stream
    // (`cuMemFreeAsync`, or a synchronize first where the device has no stream-ordered
    // allocator), so the free is ordered after the kernel without a host-side wait.
    unsafe { launch.launch(&f, args) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_match_the_kernel_layout() {
        // kernels/attention's Params: 3 + 2 i64, 4 pointers, 8 four-byte fields, the schedule's
        // three FastDivmods of 16 bytes (8-aligned) and its order (padded to 8), the split's
        // two FastDivmods and three i32 (padded to 8), the workspace's address
        assert_eq!(
            size_of::<Params>(),
            5 * 8 + 4 * 8 + 8 * 4 + 3 * 16 + 8 + (2 * 16 + 3 * 4 + 4) + 8usize
        );
        assert_eq!(std::mem::offset_of!(Params, sched), 5 * 8 + 4 * 8 + 8 * 4);
        assert_eq!(std::mem::offset_of!(Params, batch), 72);
        assert_eq!(std::mem::offset_of!(Params, split), 160);
    }

    #[test]
    fn a_part_empty_last_wave_is_split_by_key_blocks() {
        // the bench's d128 shapes: 2048 tiles on 132 SMs, 15 full waves and 68 tiles
        let s = config::split_of(2048, 16, 132, true, true).unwrap();
        assert_eq!((s.dp_tiles(), s.sk_tiles()), (1848, 200));
        // 200 tiles' 3200 key blocks, 24 or 25 a CTA; CTA 0: tile 1848 whole, the head of 1849
        assert_eq!([s.cut(1), s.cut(132)], [24, 3200]);
        assert_eq!(s.segment(0, 0), Some((1848, 0, 16)));
        assert_eq!(s.segment(0, 1), Some((1849, 0, 8)));
        assert_eq!(s.segment(1, 0), Some((1849, 8, 16)));
        // every tile's key blocks once: whole, or a head and the next CTA's tail
        let mut seen = vec![0; 200 * 16];
        for c in 0..132 {
            for k in 0..3 {
                if let Some((t, b, e)) = s.segment(c, k) {
                    for u in b..e {
                        seen[((t - 1848) * 16 + u) as usize] += 1;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        // whole waves, causal or varlen, or a tile without `_streamk` entries: every tile whole
        for s in [
            config::split_of(2112, 16, 132, true, true),
            config::split_of(2048, 16, 132, false, true),
            config::split_of(2048, 16, 132, true, false),
        ] {
            assert_eq!(s.unwrap().sk_tiles(), 0);
        }
        // few key blocks idle on average (2 of 132 CTAs idle, 16 blocks: 0.24 a CTA)
        assert_eq!(
            config::split_of(2110, 16, 132, true, true)
                .unwrap()
                .sk_tiles(),
            0
        );
        // the tiles with `_streamk` entries: d128's 128 × 128 and d256's 128 × 80, whose partial
        // (132 floats a thread) takes two slots
        assert!(config::tile_splits(128, 128, 128) && config::tile_splits(256, 128, 80));
        assert!(!config::tile_splits(64, 128, 128) && !config::tile_splits(256, 128, 64));
        assert_eq!([config::split_slots(128), config::split_slots(256)], [1, 2]);
    }

    #[test]
    fn split_entries_are_the_kernels() {
        // every default tile the split takes (`config::tile_splits`) has its `_streamk` entries
        // in kernels/attention, in both types, and no other `_streamk` entry is declared: a
        // split launch asks for `{entry}_streamk`
        use crate::attention::AttentionConfig;
        let src = include_str!("../../../kernels/attention/src/lib.rs");
        let declared: std::collections::BTreeSet<String> = src
            .split("entry!(")
            .skip(1)
            .filter_map(|s| s.split(',').next())
            .map(|e| e.trim().to_string())
            .filter(|e| e.ends_with("_streamk"))
            .collect();
        let mut named = std::collections::BTreeSet::new();
        for d in [64, 128, 256] {
            for s in [512, 1024, 2048, 4096, 8192, 16384] {
                let p = AttentionConfig::new(1, 8, s, s, d).check_shape().unwrap();
                let k = AttentionKernel::for_problem(&p).unwrap();
                if config::tile_splits(d, k.bm, k.bn) {
                    named.insert(format!("{}_streamk", k.entry::<half::bf16>()));
                    named.insert(format!("{}_streamk", k.entry::<half::f16>()));
                }
            }
        }
        assert_eq!(declared, named);
        assert_eq!(named.len(), 4);
    }

    #[test]
    fn the_causal_schedule_runs_by_head_up_to_its_reach() {
        use config::{CAUSAL_M_FASTEST_MAX_BLOCKS as MAX, RasterOrder, SchedDivs};
        let s = SchedDivs::new(16, 8, 2, true, 132).unwrap();
        assert_eq!(
            (s.order, s.first.divisor(), s.second.divisor()),
            (RasterOrder::AlongM, 16, 8)
        );
        let s = SchedDivs::new(MAX + 1, 8, 2, true, 132).unwrap();
        assert_eq!(
            (s.order, s.first.divisor(), s.second.divisor()),
            (RasterOrder::AlongHeads, 8, 2)
        );
        let s = SchedDivs::new(64, 8, 2, false, 132).unwrap();
        assert_eq!((s.order, s.first.divisor()), (RasterOrder::AlongM, 64));
        // the order is an i32 of the kernel's parameters
        assert_eq!(size_of::<RasterOrder>(), 4);
        assert_eq!(RasterOrder::AlongHeads as i32, 1);
    }

    /// The boxes the launch encodes, the kernel's `TokenBox` types, plan rank-4 maps of
    /// `64 × rows` boxes: `(box_dim, order, swizzle, tx_bytes)`.
    #[test]
    fn boxes_plan_as_rank_4_maps() {
        use crate::tma::{TmaSwizzle, plan_tma_copy};
        let g = gmem(0x1000, 128, 1000, 8, 2, [1000 * 8 * 128, 8 * 128, 128]);
        // Q's 128 and 192 (three consumer warpgroups), K's and V's, O's 64
        for rows in TOKEN_BOX_ROWS {
            for op in [TmaOp::Load, TmaOp::Store] {
                let p = plan_tma_copy(op, &g, &token_box(rows).unwrap()).unwrap();
                let r = rows as u32;
                assert_eq!(
                    (p.box_dim, p.order, p.swizzle, p.tx_bytes),
                    (
                        vec![64, r, 1, 1],
                        vec![0, 1, 2, 3],
                        TmaSwizzle::B128,
                        64 * r * 2
                    )
                );
                assert_eq!(p.global_dim, [128, 1000, 8, 2]);
            }
        }
        assert!(token_box(96).is_err());
        let varlen = gmem(0x1000, 64, 77, 4, 3, [0, 4 * 64, 64]);
        assert_eq!(varlen.shape, [64, 77, 4, 1]);
    }

    /// The tokens of the boxes the tiles load and store.
    const TOKEN_BOX_ROWS: [usize; 5] = [64, 80, 128, 176, 192];
}
