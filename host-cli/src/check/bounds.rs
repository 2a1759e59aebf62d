//! The error bounds the checks allow between a kernel and its reference, one function a
//! family: the 16-bit GEMM's ([`error_bound`]), the fused epilogue's ([`fused_epilogue_bound`]
//! over [`activation_f64`]) and the FP8 GEMM's ([`fp8_error_bound`],
//! [`fp8_error_bound_promoted`], [`fp8_fused_error_bound`]).
//!
//! Error bound (fast accumulation, checked by `host run`'s FP8 sweep): the FP8 tensor core adds
//! exact products into an accumulator that keeps about 14 significant bits (DeepSeek-V3's
//! measurement on H800). Modelled as a relative error of at most `2^-13` of the partial sums'
//! magnitude `S = Σ|a_k·b_k|` per addition, with at most `K/4` additions (groups of 4 products),
//! plus the fp32 epilogue and D's rounding: `|D − ref| ≤ sa·sb·S·(K/4·2^-13 + 2^-22) + u_D·|ref|`,
//! `ref` the f64 product of the dequantized inputs. [`fp8_error_bound`]. With promotion the
//! tensor core's sums span one k-block (at most 32 additions), the fp32 promotions add at most
//! `⌈K/128⌉ + 1` roundings of `2^-24`: [`fp8_error_bound_promoted`], where `S` carries the block
//! scales (`Σ|sa·sb·a_k·b_k|`).

use host::Activation;
use host::hgemm::GemmOut;

/// `act(z)` in `f64` with the exact `tanh` and `erf`: the fused epilogues' checks' reference
/// (the 16-bit GEMM's and the FP8 GEMM's).
///
/// ```
/// use host::Activation;
/// use host_cli::check::bounds::activation_f64;
/// assert_eq!(activation_f64(Activation::Relu, -2.0), 0.0);
/// assert!((activation_f64(Activation::Silu, 2.0) - 1.761_594_156).abs() < 1e-9); // 2/(1+e^-2)
/// // GELU: z·Φ(z) with the exact erf, or its tanh form (what `Gelu` computes)
/// assert!((activation_f64(Activation::GeluErf, 1.0) - 0.841_344_746).abs() < 1e-9);
/// assert!((activation_f64(Activation::Gelu, 1.0) - 0.841_191_991).abs() < 1e-9);
/// ```
pub fn activation_f64(act: Activation, z: f64) -> f64 {
    match act {
        Activation::Identity => z,
        Activation::Relu => z.max(0.0),
        Activation::Gelu => {
            let c = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * z * (1.0 + (c * (z + 0.044715 * z * z * z)).tanh())
        }
        Activation::GeluErf => 0.5 * z * (1.0 + libm::erf(z / std::f64::consts::SQRT_2)),
        Activation::Silu => z / (1.0 + (-z).exp()),
    }
}

/// The fused epilogue's error bound on `y = act(z)` given the bound `ez` on `z` (the product,
/// the scales and the bias before the activation): the activation multiplies `ez` by at most
/// 1.13 (GELU's largest slope, 1.1289; ReLU, SiLU and GELU-erf below), its `f32` math adds
/// `4·10⁻⁶·(1 + |z|)` (and `2.45·10⁻⁴·|z|` for GELU's `tanh.approx.f32`), D's rounding
/// `2·u_D·|y|`. One definition for the 16-bit and the FP8 fused checks.
///
/// ```
/// use host::Activation;
/// use host_cli::check::bounds::{activation_f64, fused_epilogue_bound};
/// let (ez, z, u) = (1e-3, 2.0, 2f64.powi(-8)); // a bf16 D
/// // 1.13·ez + 4e-6·(1 + 2) + 2·u·|relu(2)|
/// let relu = fused_epilogue_bound(ez, z, activation_f64(Activation::Relu, z), Activation::Relu, u);
/// assert!((relu - 0.016_767).abs() < 1e-12);
/// // GELU adds its tanh.approx term 2.45e-4·|z| (and its y = 1.9546 is a little smaller)
/// let gelu = fused_epilogue_bound(ez, z, activation_f64(Activation::Gelu, z), Activation::Gelu, u);
/// assert!((gelu - 0.016_902_294).abs() < 1e-9);
/// ```
pub fn fused_epilogue_bound(ez: f64, z: f64, y: f64, act: Activation, u_d: f64) -> f64 {
    let tanh_approx = if act == Activation::Gelu {
        2.45e-4 * z.abs()
    } else {
        0.0
    };
    1.13 * ez + 4e-6 * (1.0 + z.abs()) + tanh_approx + 2.0 * u_d * y.abs()
}

/// The bound the checks allow between ours and cuBLAS for one element of C: the products are
/// exact in fp32 (bf16/fp16 have ≤ 11-bit significands) and each side sums them in fp32 in its
/// own order, `|err| ≤ γ_{K+2}·(Σ|alpha·a·b| + |beta·c|)` from the exact value with
/// `γ_n = n·u₃₂/(1 − n·u₃₂)` (any order; the `+2` covers the alpha and beta steps), so twice
/// that between the two; plus the rounding of C to its element on both sides
/// (`2·u_O·|result|`), plus C's smallest subnormal.
///
/// ```
/// use host_cli::check::bounds::error_bound;
/// let b = error_bound::<f32>(1000, 10.0, 0.0, 10.0);
/// assert!(b > 0.0 && b < 1e-2); // 2·γ_1002·10 ≈ 1.2e-3
/// ```
pub fn error_bound<O: GemmOut>(k: usize, sum_abs: f64, beta_c_abs: f64, result_abs: f64) -> f64 {
    let u = 1.0 / (1u64 << 24) as f64;
    let ku = (k.max(1) as f64 + 2.0) * u;
    let gamma = ku / (1.0 - ku);
    let tiny = match O::CODE {
        0 => f64::from(f32::from_bits(1)),
        1 => f64::from(f32::from_bits(1 << 16)),
        _ => 2f64.powi(-24),
    };
    2.0 * gamma * (sum_abs + beta_c_abs) + 2.0 * O::UNIT_ROUNDOFF * result_abs + tiny
}

/// The bound of the module docs for one element of D: `S = Σ|a_k·b_k|` of the dequantized
/// inputs (without the scales), `reference` the exact result, `u_d` D's unit roundoff.
///
/// ```
/// let b = host_cli::check::bounds::fp8_error_bound(4096, 1.0, 10.0, 2f64.powi(-8), 100.0);
/// assert!((b - (1.0 * (1024.0 * 2f64.powi(-13) + 2f64.powi(-22)) * 10.0 + 100.0 / 256.0)).abs() < 1e-12);
/// ```
pub fn fp8_error_bound(k: usize, scales: f64, sum_abs: f64, u_d: f64, reference: f64) -> f64 {
    let adds = (k as f64 / 4.0).max(1.0);
    scales.abs() * sum_abs * (adds * 2f64.powi(-13) + 2f64.powi(-22)) + u_d * reference.abs()
}

/// [`fp8_error_bound`] with promotion every k-block of 128: `S·(min(K,128)/4·2^-13 +
/// (⌈K/128⌉ + 1)·2^-24 + 2^-22) + u_D·|ref|`, `S = Σ|s·a_k·b_k|` with every scale in `s`
/// (per-tensor and block).
///
/// ```
/// let b = host_cli::check::bounds::fp8_error_bound_promoted(4096, 10.0, 2f64.powi(-8), 100.0);
/// let want = 10.0 * (32.0 * 2f64.powi(-13) + 33.0 * 2f64.powi(-24) + 2f64.powi(-22)) + 100.0 / 256.0;
/// assert!((b - want).abs() < 1e-12);
/// ```
pub fn fp8_error_bound_promoted(k: usize, scaled_sum_abs: f64, u_d: f64, reference: f64) -> f64 {
    let adds = (k.min(128) as f64 / 4.0).max(1.0);
    let promotions = k.div_ceil(128) as f64 + 1.0;
    scaled_sum_abs * (adds * 2f64.powi(-13) + promotions * 2f64.powi(-24) + 2f64.powi(-22))
        + u_d * reference.abs()
}

/// [`fp8_fused_error_bound`]'s bound for an element of a fused FP8 GEMM: `z = sa·sb·s_row·s_col·
/// Σa·b + bias` (the exact pre-activation, `f64`), `y = act(z)`; `scaled_sum_abs` is
/// `Σ|sa·sb·s_row·s_col·a_k·b_k|` (every factor of the product), `act` the activation, `u_d`
/// D's unit roundoff.
///
/// The product's error is [`fp8_error_bound_promoted`]'s (without D's rounding), plus four
/// `f32` roundings of `2^-24` relative (`sa·sb` in `alpha`, `s_row·s_col`, `alpha·(s_row·s_col)`
/// and the product with the accumulator) and the bias `fma`'s rounding `2^-24·|z|`; the
/// activation multiplies that by at most 1.13 (GELU's largest slope, 1.1289; ReLU, SiLU,
/// GELU-erf below), its `f32` math adds `4·10⁻⁶·(1 + |z|)` (and `2.45·10⁻⁴·|z|` for GELU's
/// `tanh.approx.f32`), D's rounding `2·u_D·|y|` — the 16-bit fused check's terms
/// (`host-cli/src/check/hgemm.rs`) on the FP8 product's bound.
///
/// ```
/// use host::Activation;
/// use host_cli::check::bounds::{fp8_error_bound_promoted, fp8_fused_error_bound};
/// let b = fp8_fused_error_bound(4096, 10.0, 2.0, Activation::Identity, 2f64.powi(-8));
/// let prod = fp8_error_bound_promoted(4096, 10.0, 0.0, 0.0) + 4.0 * 2f64.powi(-24) * 10.0;
/// let want = 1.13 * (prod + 2f64.powi(-24) * 2.0) + 4e-6 * 3.0 + 2.0 * 2f64.powi(-8) * 2.0;
/// assert!((b - want).abs() < 1e-15);
/// ```
pub fn fp8_fused_error_bound(
    k: usize,
    scaled_sum_abs: f64,
    z: f64,
    act: Activation,
    u_d: f64,
) -> f64 {
    let product = fp8_error_bound_promoted(k, scaled_sum_abs, 0.0, 0.0)
        + 4.0 * 2f64.powi(-24) * scaled_sum_abs;
    let ez = product + 2f64.powi(-24) * z.abs();
    fused_epilogue_bound(ez, z, activation_f64(act, z), act, u_d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use host::half::bf16;

    #[test]
    fn bound_grows_with_k_and_output_rounding() {
        let small = error_bound::<f32>(16, 1.0, 0.0, 1.0);
        assert!(error_bound::<f32>(4096, 1.0, 0.0, 1.0) > small);
        assert!(error_bound::<bf16>(16, 1.0, 0.0, 1.0) > 2.0 / 256.0);
    }

    /// The fused bound: at least the product's promoted bound, growing with |z|, GELU's
    /// `tanh.approx` term only for GELU.
    #[test]
    fn fused_bound_terms() {
        let u = 2f64.powi(-8);
        let base = fp8_error_bound_promoted(1024, 50.0, 0.0, 0.0);
        for act in Activation::ALL {
            let b = fp8_fused_error_bound(1024, 50.0, 3.0, act, u);
            assert!(b > base, "{act:?}");
            assert!(
                fp8_fused_error_bound(1024, 50.0, 30.0, act, u) > b,
                "{act:?}"
            );
        }
        let g = fp8_fused_error_bound(1024, 50.0, 3.0, Activation::Gelu, 0.0);
        let e = fp8_fused_error_bound(1024, 50.0, 3.0, Activation::GeluErf, 0.0);
        assert!((g - e - 2.45e-4 * 3.0).abs() < 1e-12);
    }
}
