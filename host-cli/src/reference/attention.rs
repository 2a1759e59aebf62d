//! The attention references' host side, std only (the emulator's tests include this file):
//! the rows of a problem ([`rows`]: where every query row's data lives), an f64 CPU reference
//! for small problems ([`attention_cpu`]) and the error bounds the checks compare with
//! ([`o_bound`], [`lse_bound`]; derived in `doc/attention.md`).
//!
//! The GPU reference (`tests/kernels/attention_ref`, fp32, S materialized per row) writes O in f32
//! at the "reference layout" `(row, head, c)` contiguous, `row` the query token (`b·seqlen_q +
//! i`, varlen `cu_seqlens_q[b] + i`), and LSE at the problem's layout; [`Row`] gives both
//! indices.

use super::problem::{AttentionProblem, Causal};

/// One query row of one head: where its data is and what it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Sequence.
    pub b: usize,
    /// Query head.
    pub h: usize,
    /// Query index within the sequence.
    pub i: usize,
    /// Visible keys: `0..n` of the sequence's keys.
    pub n: usize,
    /// Element offset of the row in Q (and of its first element).
    pub q: i64,
    /// Element offset in O.
    pub o: i64,
    /// Element offset of the sequence's key 0 for this row's key/value head, in K and in V.
    pub k: i64,
    /// See `k`.
    pub v: i64,
    /// Index of the row's first element in the reference layout `(row, head, c)`.
    pub ref_at: usize,
    /// Index of the row's LSE.
    pub lse_at: usize,
}

/// The number of visible keys of query `i` of a sequence of `len_q` queries and `len_k` keys.
///
/// ```
/// use host::attention::Causal;
/// use host_cli::reference::attention::visible;
/// assert_eq!(visible(None, 3, 10, 20), 20);
/// assert_eq!(visible(Some(Causal::TopLeft), 3, 10, 20), 4);
/// assert_eq!(visible(Some(Causal::BottomRight), 3, 10, 20), 14);
/// assert_eq!(visible(Some(Causal::BottomRight), 3, 20, 10), 0); // fully masked
/// ```
pub fn visible(causal: Option<Causal>, i: usize, len_q: usize, len_k: usize) -> usize {
    match causal {
        None => len_k,
        Some(Causal::TopLeft) => (i + 1).min(len_k),
        Some(Causal::BottomRight) => {
            (i as i64 + 1 + len_k as i64 - len_q as i64).clamp(0, len_k as i64) as usize
        }
    }
}

/// Every query row of every head, sequence by sequence.
///
/// ```
/// use host::attention::AttentionConfig;
/// use host_cli::reference::attention::rows;
/// let p = AttentionConfig::varlen(2, 64, vec![0, 2, 3], vec![0, 5, 6]).check_shape()?;
/// let r = rows(&p);
/// assert_eq!(r.len(), 2 * 3);
/// assert_eq!((r[5].b, r[5].h, r[5].i, r[5].n), (1, 1, 0, 1));
/// assert_eq!(r[5].lse_at, 3 + 2);    // (head, token)
/// assert_eq!(r[5].ref_at, (2 * 2 + 1) * 64);
/// # Ok::<(), host::Error>(())
/// ```
pub fn rows(p: &AttentionProblem) -> Vec<Row> {
    let seqs: Vec<(usize, usize, usize, usize)> = match (&p.cu_seqlens_q, &p.cu_seqlens_k) {
        (Some(cq), Some(ck)) => (0..p.batch)
            .map(|b| {
                let (sq, sk) = (cq[b] as usize, ck[b] as usize);
                (sq, cq[b + 1] as usize - sq, sk, ck[b + 1] as usize - sk)
            })
            .collect(),
        _ => (0..p.batch)
            .map(|b| (b * p.seqlen_q, p.seqlen_q, 0, p.seqlen_k))
            .collect(),
    };
    let varlen = p.cu_seqlens_q.is_some();
    let total_q = seqs.last().map_or(0, |s| s.0 + s.1);
    let ratio = p.heads_q / p.heads_kv;
    let mut out = Vec::new();
    for (b, &(row0, len_q, start_k, len_k)) in seqs.iter().enumerate() {
        // the token within the packed tensor (varlen) or within the sequence
        let q_token0 = if varlen { row0 } else { 0 };
        for h in 0..p.heads_q {
            let hk = h / ratio;
            for i in 0..len_q {
                let at = |s: [i64; 3], token: usize, head: usize| {
                    b as i64 * s[0] + token as i64 * s[1] + head as i64 * s[2]
                };
                let row = row0 + i;
                out.push(Row {
                    b,
                    h,
                    i,
                    n: visible(p.causal, i, len_q, len_k),
                    q: at(p.q_stride, q_token0 + i, h),
                    o: at(p.o_stride, q_token0 + i, h),
                    k: at(p.k_stride, start_k, hk),
                    v: at(p.v_stride, start_k, hk),
                    ref_at: (row * p.heads_q + h) * p.head_dim,
                    lse_at: if varlen {
                        h * total_q + row
                    } else {
                        (b * p.heads_q + h) * p.seqlen_q + i
                    },
                });
            }
        }
    }
    out
}

/// What a reference computes: O at the reference layout, LSE at the problem's, and the
/// magnitudes the bounds are made of (`absw = Σ_j P_j·|v_j[c]|` like O, `rmax = scale · max_j
/// Σ_c |q_c·k_j[c]|` per `(row, head)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// O, `(row, head, c)`.
    pub o: Vec<f64>,
    /// LSE; `+inf` for a row with no visible key.
    pub lse: Vec<f64>,
    /// `Σ_j P_j·|v_j[c]|`, like `o`.
    pub absw: Vec<f64>,
    /// `scale · max_j Σ_c |q_c·k_j[c]|`, `(row, head)`.
    pub rmax: Vec<f64>,
}

/// The problem in f64 on the CPU (for small problems): S materialized, exact-as-f64 softmax.
/// `q`, `k`, `v` are the inputs' values at the problem's strides.
///
/// ```
/// use host::attention::AttentionConfig;
/// use host_cli::reference::attention::attention_cpu;
/// let p = AttentionConfig::new(1, 1, 1, 2, 64).scale(1.0).check_shape()?;
/// // q = e0, k0 = 0, k1 = e0 (scores 0 and 1); v0 = 0, v1 = 1
/// let mut q = vec![0f32; 64]; q[0] = 1.0;
/// let mut k = vec![0f32; 128]; k[64] = 1.0;
/// let mut v = vec![0f32; 128]; v[64..].fill(1.0);
/// let r = attention_cpu(&p, &q, &k, &v);
/// let e = std::f64::consts::E;
/// assert!((r.o[5] - e / (1.0 + e)).abs() < 1e-12);
/// assert!((r.lse[0] - (1.0 + e).ln()).abs() < 1e-12);
/// # Ok::<(), host::Error>(())
/// ```
pub fn attention_cpu(p: &AttentionProblem, q: &[f32], k: &[f32], v: &[f32]) -> Reference {
    let d = p.head_dim;
    let rs = rows(p);
    let n_rows = rs.iter().map(|r| r.ref_at / d + 1).max().unwrap_or(0);
    let n_lse = rs.iter().map(|r| r.lse_at + 1).max().unwrap_or(0);
    let mut out = Reference {
        o: vec![0.0; n_rows * d],
        lse: vec![0.0; n_lse],
        absw: vec![0.0; n_rows * d],
        rmax: vec![0.0; n_rows],
    };
    let scale = f64::from(p.scale);
    for r in rs {
        let qr = &q[r.q as usize..r.q as usize + d];
        let key = |j: usize| {
            let at = (r.k + j as i64 * p.k_stride[1]) as usize;
            &k[at..at + d]
        };
        let val = |j: usize| {
            let at = (r.v + j as i64 * p.v_stride[1]) as usize;
            &v[at..at + d]
        };
        if r.n == 0 {
            out.lse[r.lse_at] = f64::INFINITY;
            continue;
        }
        let mut rmax = 0f64;
        let s: Vec<f64> = (0..r.n)
            .map(|j| {
                let kj = key(j);
                let (mut dot, mut adot) = (0f64, 0f64);
                for c in 0..d {
                    let x = f64::from(qr[c]) * f64::from(kj[c]);
                    dot += x;
                    adot += x.abs();
                }
                rmax = rmax.max(scale * adot);
                scale * dot
            })
            .collect();
        let m = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let pj: Vec<f64> = s.iter().map(|&x| (x - m).exp()).collect();
        let l: f64 = pj.iter().sum();
        for c in 0..d {
            let (mut acc, mut aacc) = (0f64, 0f64);
            for (j, &pw) in pj.iter().enumerate() {
                let x = f64::from(val(j)[c]);
                acc += pw * x;
                aacc += pw * x.abs();
            }
            out.o[r.ref_at + c] = acc / l;
            out.absw[r.ref_at + c] = aacc / l;
        }
        out.lse[r.lse_at] = m + l.ln();
        out.rmax[r.ref_at / d] = rmax;
    }
    out
}

/// fp32's unit roundoff, `2^-24`.
pub const U32: f64 = 1.0 / 16_777_216.0;

/// The relative error allowed for one `exp` (`ex2.approx` on the GPU: 2 ulp; the reference's
/// polynomial: ≤ 4 ulp): `2^-21`.
pub const EPS_EXP: f64 = 1.0 / 2_097_152.0;

/// A lower bound on the keys per K tile the kernel's online softmax rescales at (its running
/// sums are rescaled at most once per tile): 32, below every tile of `kernels/attention` (d64
/// and d128: 128 keys, d256: 80; the measuring variants: 176, 64).
pub const MIN_TILE_N: usize = 32;

/// `γ(n) = n·u / (1 - n·u)`, Higham's bound on the relative error of an `n`-term fp32 sum,
/// with `u = 2^-23` (twice fp32's unit roundoff: tensor-core accumulation truncates).
///
/// ```
/// let g = host_cli::reference::attention::gamma(128);
/// assert!((g / (128.0 * 2f64.powi(-23)) - 1.0).abs() < 1e-4);
/// ```
pub fn gamma(n: usize) -> f64 {
    let nu = n as f64 * 2.0 * U32;
    nu / (1.0 - nu)
}

/// The 16-bit element's share of a bound: the unit roundoff of P and O (`2^-8` bf16, `2^-11`
/// fp16; 0 for an fp32 result) and the absolute error of one P or O value below the normal
/// range: fp16 half its subnormal spacing (`2^-25`); bf16 `2^-126`, what `ex2.approx.ftz`
/// flushes (bf16's own subnormal rounding, `2^-134`, is smaller).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounding {
    /// Unit roundoff.
    pub unit: f64,
    /// Half the subnormal spacing.
    pub tiny: f64,
}

impl Rounding {
    /// bf16.
    pub const BF16: Rounding = Rounding {
        unit: 1.0 / 256.0,
        tiny: 1.0 / (1u128 << 126) as f64,
    };
    /// fp16.
    pub const F16: Rounding = Rounding {
        unit: 1.0 / 2048.0,
        tiny: 1.0 / 33_554_432.0,
    };
    /// No 16-bit rounding (the fp32 reference).
    pub const NONE: Rounding = Rounding {
        unit: 0.0,
        tiny: 0.0,
    };
}

/// The bound's inputs for one row: `d` the head dim, `n` its visible keys, `rmax =
/// scale · max_j Σ_c |q_c·k_j[c]|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowMagnitudes {
    /// Head dim.
    pub d: usize,
    /// Visible keys.
    pub n: usize,
    /// `scale · max_j Σ_c |q_c·k_j[c]|`.
    pub rmax: f64,
}

impl RowMagnitudes {
    /// The relative error of one `p_j = exp(s_j - m)`: the scores' dot products (`γ(d)·R` each,
    /// and `m` is one of them), the argument's roundings (the scale and `log2 e` folded into
    /// one product, the subtraction: `6u·R` with `|s_j - m| ≤ 2R`, `log2 e < 1.5`), `exp`.
    fn eps_p(&self) -> f64 {
        2.0 * gamma(self.d) * self.rmax + 6.0 * U32 * self.rmax + EPS_EXP
    }
    /// How many times an online softmax may rescale its sums.
    fn rescales(&self) -> f64 {
        self.n.div_ceil(MIN_TILE_N) as f64
    }
    /// The relative error one rescale by `exp(m_old - m_new)` adds to the weight of the keys
    /// before it: `exp` and the rounding of its argument (`|m_old - m_new| ≤ 2R`, times the
    /// scale and log2 e). The maxima's own dot-product errors cancel: the same computed maxima
    /// enter the rescale and the `p_j`.
    fn eps_rescale(&self) -> f64 {
        EPS_EXP + 6.0 * U32 * self.rmax
    }
}

/// `|O - O_ref|` allowed for one element of a row, `O` rounded as `t` by the tensor-core kernel
/// (online softmax, P rounded to `t`), `O_ref` the fp32 reference; `t = Rounding::NONE` and
/// `online = false` give the reference's own error against the exact result. `absw = Σ_j
/// P_j·|v_j[c]|`, `vmax = max |v|` (for P's values below `t`'s normal range). The derivation
/// is in `doc/attention.md`; second-order terms are covered by the factor `1 + 2^-6`.
///
/// ```
/// use host_cli::reference::attention::{Rounding, RowMagnitudes, o_bound};
/// let row = RowMagnitudes { d: 128, n: 1000, rmax: 4.0 };
/// let b = o_bound(Rounding::BF16, true, &row, 0.5, 1.0);
/// // the 16-bit rounding of P and O (2 u_16 A) dominates
/// assert!(b > 2.0 * 0.5 / 256.0 && b < 2.4 * 0.5 / 256.0, "{b}");
/// ```
pub fn o_bound(t: Rounding, online: bool, row: &RowMagnitudes, absw: f64, vmax: f64) -> f64 {
    if row.n == 0 {
        return 0.0;
    }
    let n = row.n + if online { row.rescales() as usize } else { 0 };
    let eps_p = row.eps_p();
    let resc = if online {
        row.rescales() * row.eps_rescale()
    } else {
        0.0
    };
    // this side: P and O rounded, P = p/l (2 eps_p), l and P·V summed (2 γ(n)), the division
    // (a reciprocal and a product)
    let ours = (2.0 * t.unit + 2.0 * eps_p + resc + 2.0 * gamma(n) + 2.0 * U32) * absw
        + t.tiny * (row.n as f64 * vmax + 1.0);
    // the fp32 reference's own error (none of it when `t` is the reference itself)
    let reference = if online {
        (2.0 * eps_p + 2.0 * gamma(row.n) + U32) * absw
    } else {
        0.0
    };
    (ours + reference) * (1.0 + 1.0 / 64.0)
}

/// `|LSE - LSE_ref|` allowed for a row (as [`o_bound`]): the max's error (`γ(d)·R + u·R`), the
/// row sum's (`eps_p + γ(n)` and the rescales), `ln` (`2^-20 + 2^-21·ln n`) and the final
/// addition (`u·(R + ln n)`), for each side.
///
/// ```
/// use host_cli::reference::attention::{RowMagnitudes, lse_bound};
/// let b = lse_bound(true, &RowMagnitudes { d: 128, n: 1000, rmax: 4.0 });
/// assert!(b > 1e-4 && b < 1e-3, "{b}");
/// ```
pub fn lse_bound(online: bool, row: &RowMagnitudes) -> f64 {
    if row.n == 0 {
        return 0.0;
    }
    let ln_n = (row.n as f64).ln();
    let side = |resc: f64, n: usize| {
        gamma(row.d) * row.rmax
            + U32 * row.rmax
            + row.eps_p()
            + gamma(n)
            + resc
            + EPS_EXP * 2.0
            + EPS_EXP * ln_n
            + 2.0 * U32 * (row.rmax + ln_n)
    };
    let ours = if online {
        side(
            row.rescales() * row.eps_rescale(),
            row.n + row.rescales() as usize,
        )
    } else {
        side(0.0, row.n)
    };
    let reference = if online { side(0.0, row.n) } else { 0.0 };
    (ours + reference) * (1.0 + 1.0 / 64.0)
}
