//! The attention reference (issue #33): `O = softmax(scale · Q·Kᵀ + mask) · V` and the
//! log-sum-exp of every query row, in fp32 over bf16 / fp16 inputs, written to be obviously
//! right rather than fast. `host` checks the tensor-core kernel against it.
//!
//! One CTA per (query row `i`, query head `h`, sequence `b`) = (`blockIdx.x`, `.y`, `.z`):
//!
//! 1. the row `q` goes to shared memory as f32;
//! 2. the visible keys are a prefix `0..n` of the sequence's keys (`n = len_k` without a mask,
//!    `min(len_k, i + 1)` top-left causal, `min(len_k, i + 1 + len_k - len_q)` bottom-right);
//!    warp `w` computes `s_j = scale · q·k_j` for `j = w, w + warps, …` (lanes split the head
//!    dimension, a fixed butterfly sums them) and stores the whole row `S[0..n]` in shared
//!    memory;
//! 3. two passes over `S`: the row max `m`, then `p_j = exp(s_j - m)` in place and `l = Σ p_j`
//!    (each thread sums its keys in order, then a fixed tree over the threads);
//! 4. thread `c` computes `O[c] = Σ_j p_j · v_j[c] / l` (keys in order) and `LSE = m + ln l`.
//!
//! A row with no visible key (bottom-right with `len_q > len_k`, or an empty varlen key
//! sequence) gets `O = 0`, `LSE = +inf` (FlashAttention's convention). Every sum has a fixed
//! order, so a run is bit-identical to the next.
//!
//! Indices are the problem's definition written out (`offset = b·stride_b + token·stride_t +
//! head·stride_h + c`), on purpose independent of the layout algebra whose kernels this checks.
//! `exp` and `ln` are fp32 polynomials of this file (no libm on the GPU), accurate to a few ulp.
//!
//! Outputs (any of them may be null): `o32` f32 `(row, h, c)` contiguous with `row` the query
//! token (`b·seqlen_q + i`, varlen `cu_q[b] + i`); `o16` the element type at O's strides (what
//! `Context::attention` writes); `lse` `(b, h, i)` contiguous (varlen `(h, token)`); `absw`
//! like `o32`, `Σ_j p_j·|v_j[c]| / l` and `rmax` per `(row, h)`, `scale · max_j Σ_c |q_c·k_j[c]|`
//! (the magnitudes the error bound of the comparison is made of).
//!
//! Launch: grid `(seqlen_q, heads_q, batch)` (varlen: `seqlen_q` the longest sequence), a
//! multiple of 32 threads (≤ 1024), `4 · (32 + head_dim + seqlen_k)` bytes of dynamic shared
//! memory.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]
// The entries take the problem as 30 scalars (the kernel ABI).
#![allow(clippy::too_many_arguments)]

use device::shared::dynamic_shared_mem;
use device::thread::{
    block_dim_x, block_idx_x, block_idx_y, block_idx_z, sync_threads, thread_idx_x,
};
use device::warp::{FULL_MASK, shuffle_xor_f32};

/// A 16-bit input element, widened exactly to f32 and rounded back to nearest even.
pub trait Elem {
    /// The value of the bits, exactly.
    fn to_f32(bits: u16) -> f32;
    /// `x` rounded to nearest even.
    fn from_f32(x: f32) -> u16;
}

/// bfloat16.
pub struct Bf16;
/// IEEE binary16.
pub struct F16;

impl Elem for Bf16 {
    fn to_f32(bits: u16) -> f32 {
        f32::from_bits(u32::from(bits) << 16)
    }
    fn from_f32(x: f32) -> u16 {
        device::mma::pack_bf16x2(x, 0.0) as u16
    }
}

impl Elem for F16 {
    /// Sign, exponent and fraction moved to their f32 places; subnormals as `fraction · 2^-24`.
    ///
    /// ```
    /// use kernels_emu::attention_ref::{Elem, F16};
    /// assert_eq!(F16::to_f32(0x3c00), 1.0);
    /// assert_eq!(F16::to_f32(0xc000), -2.0);
    /// assert_eq!(F16::to_f32(0x0001), 2f32.powi(-24));
    /// assert_eq!(F16::to_f32(0x7bff), 65504.0);
    /// assert_eq!(F16::to_f32(0xfc00), f32::NEG_INFINITY);
    /// ```
    fn to_f32(bits: u16) -> f32 {
        let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exp = u32::from((bits >> 10) & 0x1f);
        let frac = u32::from(bits & 0x3ff);
        let magnitude = match exp {
            0 => frac as f32 * (1.0 / 16_777_216.0), // 2^-24, exact
            31 if frac == 0 => f32::INFINITY,
            31 => f32::NAN,
            _ => f32::from_bits(((exp + 112) << 23) | (frac << 13)),
        };
        sign * magnitude
    }
    fn from_f32(x: f32) -> u16 {
        device::mma::pack_f16x2(x, 0.0) as u16
    }
}

/// `e^x` in fp32 for `x ≤ 0` (what the softmax needs): `x = k·ln 2 + r` with `|r| ≤ ln 2 / 2`
/// (ln 2 in two parts, so `r` is exact to ~2^-32), `e^r` by its Taylor polynomial to `r^8/8!`
/// (truncation < 2^-30 relative), times `2^k` built in the exponent bits. Below `-87`
/// (`2^-125.5`) it returns 0.
///
/// ```
/// use kernels_emu::attention_ref::exp_f32;
/// for x in [0.0f32, -1e-6, -0.3, -1.0, -7.25, -20.0, -80.0] {
///     let rel = ((exp_f32(x) as f64 - (x as f64).exp()) / (x as f64).exp()).abs();
///     assert!(rel < 4.0 * f32::EPSILON as f64, "{x}: {rel}");
/// }
/// assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
/// ```
pub fn exp_f32(x: f32) -> f32 {
    if x < -87.0 || x.is_nan() {
        return 0.0;
    }
    const LOG2E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_145_75; // 0x3f317200: 16 significant bits, k·LN2_HI exact
    const LN2_LO: f32 = 1.428_606_8e-6; // ln 2 - LN2_HI
    let kf = x * LOG2E;
    // round to nearest integer (x ≤ 0: kf in [-126, 0])
    let k = if kf < 0.0 {
        (kf - 0.5) as i32
    } else {
        (kf + 0.5) as i32
    };
    let r = (x - k as f32 * LN2_HI) - k as f32 * LN2_LO;
    // Horner: 1 + r(1 + r/2(1 + r/3(1 + r/4(1 + r/5(1 + r/6(1 + r/7(1 + r/8)))))))
    let mut p = 1.0 + r * (1.0 / 8.0);
    p = 1.0 + r * (1.0 / 7.0) * p;
    p = 1.0 + r * (1.0 / 6.0) * p;
    p = 1.0 + r * (1.0 / 5.0) * p;
    p = 1.0 + r * (1.0 / 4.0) * p;
    p = 1.0 + r * (1.0 / 3.0) * p;
    p = 1.0 + r * 0.5 * p;
    p = 1.0 + r * p;
    // 2^k for k in [-126, 0]: a normal number
    p * f32::from_bits(((k + 127) as u32) << 23)
}

/// `ln x` in fp32 for finite `x ≥ 1` (the softmax's row sum): `x = 2^e·f` with `f` in
/// `[√½, √2)`, `ln f = 2·atanh(u)`, `u = (f - 1)/(f + 1)`, `|u| ≤ 0.172`, by its series to
/// `u^11/11` (truncation < 2^-31).
///
/// ```
/// use kernels_emu::attention_ref::ln_f32;
/// for x in [1.0f32, 1.5, 2.0, 3.0, 10.0, 4095.7, 1e6] {
///     let err = (ln_f32(x) as f64 - (x as f64).ln()).abs();
///     assert!(err <= 4.0 * f32::EPSILON as f64 * (x as f64).ln().max(1.0), "{x}: {err}");
/// }
/// assert_eq!(ln_f32(1.0), 0.0);
/// ```
pub fn ln_f32(x: f32) -> f32 {
    let bits = x.to_bits();
    let mut e = ((bits >> 23) & 0xff) as i32 - 127;
    let mut f = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000); // [1, 2)
    if f > core::f32::consts::SQRT_2 {
        f *= 0.5;
        e += 1;
    }
    let u = (f - 1.0) / (f + 1.0);
    let u2 = u * u;
    let mut s = 1.0 / 11.0;
    s = 1.0 / 9.0 + u2 * s;
    s = 1.0 / 7.0 + u2 * s;
    s = 1.0 / 5.0 + u2 * s;
    s = 1.0 / 3.0 + u2 * s;
    s = 1.0 + u2 * s;
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    (e as f32 * LN2_HI + 2.0 * u * s) + e as f32 * LN2_LO
}

/// Sum (`MAX = false`) or max over a warp by a fixed butterfly; every lane gets the same bits.
fn warp_reduce<const MAX: bool>(mut v: f32) -> f32 {
    let mut m = 16;
    while m > 0 {
        // SAFETY: every lane of the warp calls this together.
        let o = unsafe { shuffle_xor_f32(FULL_MASK, v, m) };
        v = if MAX { v.max(o) } else { v + o };
        m >>= 1;
    }
    v
}

/// Sum or max over the block: warps by [`warp_reduce`], then the warps' results in order. Every
/// thread calls it and gets the same bits; `red` is the block's 32-float scratch.
fn block_reduce<const MAX: bool>(v: f32, red: *mut f32) -> f32 {
    let (tid, warps) = (thread_idx_x() as usize, block_dim_x() as usize / 32);
    let w = warp_reduce::<MAX>(v);
    if tid % 32 == 0 {
        unsafe { *red.add(tid / 32) = w };
    }
    sync_threads();
    let mut r = unsafe { *red };
    for k in 1..warps {
        let x = unsafe { *red.add(k) };
        r = if MAX { r.max(x) } else { r + x };
    }
    sync_threads(); // `red` is free again
    r
}

/// Where a tensor starts and how it steps: element strides of (sequence, token, head).
#[derive(Clone, Copy)]
struct Strides {
    b: i64,
    t: i64,
    h: i64,
}

impl Strides {
    fn offset(self, b: usize, token: usize, h: usize) -> isize {
        (b as i64 * self.b + token as i64 * self.t + h as i64 * self.h) as isize
    }
}

/// The body of every entry (see the module docs).
///
/// # Safety
/// As the entries'.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn attention_ref<E: Elem>(
    q: *const u16,
    k: *const u16,
    v: *const u16,
    outs: [*mut f32; 4], // o32, lse, absw, rmax
    o16: *mut u16,
    cu: [*const i32; 2],
    dims: [u32; 6],     // heads_q, heads_kv, head_dim, seqlen_q, seqlen_k, total_q
    strides: [i64; 12], // q, k, v, o: (batch, token, head)
    causal: u32,
    scale: f32,
) {
    let [o32, lse, absw, rmax] = outs;
    let [heads_q, heads_kv, d, seqlen_q, seqlen_k, total_q] = dims.map(|x| x as usize);
    let st = |t: usize| Strides {
        b: strides[3 * t],
        t: strides[3 * t + 1],
        h: strides[3 * t + 2],
    };
    let (sq, sk, sv, so) = (st(0), st(1), st(2), st(3));
    let (i, h, b) = (
        block_idx_x() as usize,
        block_idx_y() as usize,
        block_idx_z() as usize,
    );
    let (tid, threads) = (thread_idx_x() as usize, block_dim_x() as usize);
    let (lane, warp, warps) = (tid % 32, tid / 32, threads / 32);
    // this sequence's tokens: fixed length, or cu_seqlens[b]..cu_seqlens[b + 1]
    let (start_q, len_q, start_k, len_k) = if cu[0].is_null() {
        (0, seqlen_q, 0, seqlen_k)
    } else {
        let c = |p: *const i32, j: usize| unsafe { *p.add(j) } as usize;
        (
            c(cu[0], b),
            c(cu[0], b + 1) - c(cu[0], b),
            c(cu[1], b),
            c(cu[1], b + 1) - c(cu[1], b),
        )
    };
    if i >= len_q {
        return;
    }
    let hk = h / (heads_q / heads_kv);
    let token = start_q + i;
    // the visible keys: 0..n
    let n = match causal {
        1 => (i + 1).min(len_k),
        2 => (i as i64 + 1 + len_k as i64 - len_q as i64).clamp(0, len_k as i64) as usize,
        _ => len_k,
    };
    let ref_row = (if cu[0].is_null() { b * seqlen_q } else { 0 }) + token;
    let ref_at = ref_row * heads_q * d + h * d;
    let lse_at = if cu[0].is_null() {
        (b * heads_q + h) * seqlen_q + i
    } else {
        h * total_q + token
    };
    let qp = unsafe { q.offset(sq.offset(b, token, h)) };
    let op = o16.wrapping_offset(so.offset(b, token, h));
    let kp = unsafe { k.offset(sk.offset(b, start_k, hk)) };
    let vp = unsafe { v.offset(sv.offset(b, start_k, hk)) };

    // shared memory: the reduction scratch, the query row, the score row
    let red = dynamic_shared_mem::<f32>();
    let qs = unsafe { red.add(32) };
    let s = unsafe { qs.add(d) };

    let mut c = tid;
    while c < d {
        unsafe { *qs.add(c) = E::to_f32(*qp.add(c)) };
        c += threads;
    }
    sync_threads();

    // S[j] = scale · q·k_j, one warp per key, lanes over the head dimension
    let mut amax = 0.0f32;
    let mut j = warp;
    while j < n {
        let kj = unsafe { kp.offset(j as isize * sk.t as isize) };
        let (mut dot, mut adot) = (0.0f32, 0.0f32);
        let mut c = lane;
        while c < d {
            let (x, y) = (unsafe { *qs.add(c) }, E::to_f32(unsafe { *kj.add(c) }));
            dot += x * y;
            adot += (x * y).abs();
            c += 32;
        }
        let dot = warp_reduce::<false>(dot);
        let adot = warp_reduce::<false>(adot);
        if lane == 0 {
            unsafe { *s.add(j) = scale * dot };
        }
        amax = amax.max(scale * adot);
        j += warps;
    }
    sync_threads();
    let amax = block_reduce::<true>(amax, red);

    // pass 1: the row max; pass 2: p_j = exp(s_j - m) in place and l = Σ p_j
    let mut m = f32::NEG_INFINITY;
    let mut j = tid;
    while j < n {
        m = m.max(unsafe { *s.add(j) });
        j += threads;
    }
    let m = block_reduce::<true>(m, red);
    let mut l = 0.0f32;
    let mut j = tid;
    while j < n {
        let p = exp_f32(unsafe { *s.add(j) } - m);
        unsafe { *s.add(j) = p };
        l += p;
        j += threads;
    }
    let l = block_reduce::<false>(l, red); // synchronizes: every p_j is in S

    // O[c] = Σ_j p_j v_j[c] / l, keys in order
    let mut c = tid;
    while c < d {
        let (mut acc, mut aacc) = (0.0f32, 0.0f32);
        for j in 0..n {
            let p = unsafe { *s.add(j) };
            let x = E::to_f32(unsafe { *vp.offset(j as isize * sv.t as isize + c as isize) });
            acc += p * x;
            aacc += p * x.abs();
        }
        let (o, a) = if n == 0 {
            (0.0, 0.0)
        } else {
            (acc / l, aacc / l)
        };
        unsafe {
            if !o32.is_null() {
                *o32.add(ref_at + c) = o;
            }
            if !absw.is_null() {
                *absw.add(ref_at + c) = a;
            }
            if !o16.is_null() {
                *op.add(c) = E::from_f32(o);
            }
        }
        c += threads;
    }
    if tid == 0 {
        unsafe {
            if !lse.is_null() {
                *lse.add(lse_at) = if n == 0 { f32::INFINITY } else { m + ln_f32(l) };
            }
            if !rmax.is_null() {
                *rmax.add(ref_row * heads_q + h) = amax;
            }
        }
    }
}

macro_rules! entry {
    ($name:ident, $elem:ty) => {
        device::kernel! {
        /// The reference for one element type (see the module docs); strides in elements of
        /// (batch, token, head) for Q, K, V, O in that order; `causal` 0 none, 1 top-left,
        /// 2 bottom-right; `cu_q`, `cu_k` null for fixed-length batches.
        ///
        /// # Safety
        /// Every non-null pointer is a device buffer holding what the problem addresses; the
        /// launch as in the module docs.
        pub unsafe fn $name(
            q: *const u16, k: *const u16, v: *const u16,
            o32: *mut f32, o16: *mut u16, lse: *mut f32, absw: *mut f32, rmax: *mut f32,
            cu_q: *const i32, cu_k: *const i32,
            heads_q: u32, heads_kv: u32, head_dim: u32, seqlen_q: u32, seqlen_k: u32, total_q: u32,
            q_sb: i64, q_st: i64, q_sh: i64, k_sb: i64, k_st: i64, k_sh: i64,
            v_sb: i64, v_st: i64, v_sh: i64, o_sb: i64, o_st: i64, o_sh: i64,
            causal: u32, scale: f32,
        ) {
            unsafe {
                attention_ref::<$elem>(
                    q, k, v, [o32, lse, absw, rmax], o16, [cu_q, cu_k],
                    [heads_q, heads_kv, head_dim, seqlen_q, seqlen_k, total_q],
                    [q_sb, q_st, q_sh, k_sb, k_st, k_sh, v_sb, v_st, v_sh, o_sb, o_st, o_sh],
                    causal, scale,
                )
            }
        }
        }
    };
}

entry!(attention_ref_bf16, Bf16);
entry!(attention_ref_f16, F16);
