//! The GEMM epilogue's element-wise fusion (CUTLASS's `fusion::LinCombPerRowBiasEltAct` /
//! `LinCombPerColBiasEltAct`): `D = act(alpha·acc + beta·C + bias)` with the bias a vector along
//! M (one value per row) or N (one per column), `act` one of CUTLASS's
//! `ReLu`, `GELU_taylor` (tanh form), `GELU` (erf form), `SiLu`.
//!
//! The math is portable `f32` (no `libm` on the GPU): `exp` by range reduction and a
//! polynomial, `tanh` from `exp`, `erf` by Abramowitz–Stegun 7.1.26 (absolute error below
//! 1.5·10⁻⁷); the same code runs on the host, where the tests pin it against `f64` references.
//!
//! ```
//! use layout_types::cute::fusion::{Activation, activation};
//! assert_eq!(activation(Activation::Relu, -2.0), 0.0);
//! assert!((activation(Activation::Silu, 1.0) - 0.731_058_6).abs() < 1e-6);
//! ```

/// An element-wise activation (its `u32` code is the kernel parameter's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Activation {
    /// `x`.
    Identity = 0,
    /// `max(x, 0)`.
    Relu = 1,
    /// `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (CUTLASS's `GELU_taylor`, PyTorch's
    /// `gelu(approximate='tanh')`).
    Gelu = 2,
    /// `0.5·x·(1 + erf(x/√2))` (CUTLASS's `GELU`, PyTorch's default `gelu`).
    GeluErf = 3,
    /// `x·sigmoid(x)` (SiLU / swish).
    Silu = 4,
}

impl Activation {
    /// The activation of code `c` (the kernel parameter), `None` for an unknown code.
    ///
    /// ```
    /// use layout_types::cute::fusion::Activation;
    /// assert_eq!(Activation::from_code(3), Some(Activation::GeluErf));
    /// assert_eq!(Activation::from_code(9), None);
    /// ```
    #[inline(always)]
    pub const fn from_code(c: u32) -> Option<Activation> {
        Some(match c {
            0 => Activation::Identity,
            1 => Activation::Relu,
            2 => Activation::Gelu,
            3 => Activation::GeluErf,
            4 => Activation::Silu,
            _ => return None,
        })
    }
}

/// Where a bias vector lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum BiasMode {
    /// No bias.
    None = 0,
    /// One value per row of C (length M).
    M = 1,
    /// One value per column of C (length N).
    N = 2,
}

/// `e^x` in `f32`: `2^n · e^r` with `n = round(x·log₂e)`, `r = x − n·ln 2` (ln 2 in two parts),
/// `e^r` a degree-6 Taylor polynomial on `|r| ≤ ln2/2` (relative error ≈ 2·10⁻⁷); 0 below
/// −87.3, ∞ above 88.7, NaN stays NaN.
///
/// ```
/// use layout_types::cute::fusion::exp_f32;
/// assert!((exp_f32(1.0) - core::f32::consts::E).abs() < 1e-6);
/// assert_eq!((exp_f32(-100.0), exp_f32(100.0)), (0.0, f32::INFINITY));
/// ```
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x > 88.72 {
        return f32::INFINITY;
    }
    if x < -87.33 {
        return 0.0;
    }
    const LOG2E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // round to nearest: adding 1.5·2^23 drops the fraction (|x·log2e| < 2^22)
    const SHIFT: f32 = 12_582_912.0;
    let n = (x * LOG2E + SHIFT) - SHIFT;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    // 2^n in two steps: n in [-126, 128] may not be a normal exponent on its own
    let n = n as i32;
    let h = n / 2;
    let s1 = f32::from_bits(((h + 127) as u32) << 23);
    let s2 = f32::from_bits(((n - h + 127) as u32) << 23);
    p * s1 * s2
}

/// `tanh(x) = 1 − 2/(e^{2x} + 1)` (absolute error ≈ 2·10⁻⁷).
///
/// ```
/// use layout_types::cute::fusion::tanh_f32;
/// assert!((tanh_f32(0.5) - 0.462_117_16).abs() < 1e-6);
/// assert_eq!((tanh_f32(50.0), tanh_f32(-50.0)), (1.0, -1.0));
/// ```
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    1.0 - 2.0 / (exp_f32(2.0 * x) + 1.0)
}

/// `erf(x)` by Abramowitz–Stegun 7.1.26 (absolute error below 1.5·10⁻⁷, plus `f32` rounding).
///
/// ```
/// use layout_types::cute::fusion::erf_f32;
/// assert!((erf_f32(0.5) - 0.520_499_9).abs() < 1e-6);
/// assert!((erf_f32(-2.0) + 0.995_322_3).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * a);
    let poly = t
        * (0.254_829_6
            + t * (-0.284_496_74 + t * (1.421_413_8 + t * (-1.453_152_1 + t * 1.061_405_4))));
    let y = 1.0 - poly * exp_f32(-a * a);
    if x < 0.0 { -y } else { y }
}

/// `act(x)`.
///
/// ```
/// use layout_types::cute::fusion::{Activation, activation};
/// assert_eq!(activation(Activation::Identity, -1.5), -1.5);
/// assert!((activation(Activation::Gelu, 1.0) - 0.841_192).abs() < 1e-5);
/// assert!((activation(Activation::GeluErf, 1.0) - 0.841_344_7).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn activation(act: Activation, x: f32) -> f32 {
    match act {
        Activation::Identity => x,
        Activation::Relu => {
            if x > 0.0 {
                x
            } else {
                0.0
            }
        }
        Activation::Gelu => {
            // √(2/π)
            const K: f32 = 0.797_884_6;
            0.5 * x * (1.0 + tanh_f32(K * (x + 0.044_715 * x * x * x)))
        }
        Activation::GeluErf => 0.5 * x * (1.0 + erf_f32(x * core::f32::consts::FRAC_1_SQRT_2)),
        Activation::Silu => x / (1.0 + exp_f32(-x)),
    }
}

/// The fusion of one launch: bias (a device pointer to `f32`, along M or N) and activation.
#[derive(Clone, Copy, Debug)]
pub struct Fusion {
    /// The bias vector's first element (null: no bias).
    pub bias: *const f32,
    /// Where the bias lies.
    pub bias_mode: BiasMode,
    /// The activation.
    pub act: Activation,
}

impl Fusion {
    /// Whether the epilogue is the plain linear combination (no bias, identity).
    ///
    /// ```
    /// use layout_types::cute::fusion::*;
    /// let f = Fusion { bias: core::ptr::null(), bias_mode: BiasMode::None, act: Activation::Identity };
    /// assert!(f.is_linear());
    /// ```
    #[inline(always)]
    pub fn is_linear(&self) -> bool {
        self.bias_mode == BiasMode::None && self.act == Activation::Identity
    }
    /// `act(x + bias(r, c))` for the element `(r, c)` of C (`r < M`, `c < N`).
    ///
    /// # Safety
    /// With a bias, `bias` holds M (along M) or N (along N) elements and `(r, c)` is inside C.
    ///
    /// ```
    /// use layout_types::cute::fusion::*;
    /// let b = [1.0f32, 2.0, 3.0];
    /// let f = Fusion { bias: b.as_ptr(), bias_mode: BiasMode::N, act: Activation::Relu };
    /// assert_eq!(unsafe { f.apply(-2.5, (7, 1)) }, 0.0);
    /// assert_eq!(unsafe { f.apply(-2.5, (7, 2)) }, 0.5);
    /// ```
    #[inline(always)]
    pub unsafe fn apply(&self, x: f32, (r, c): (i32, i32)) -> f32 {
        let b = match self.bias_mode {
            BiasMode::None => 0.0,
            BiasMode::M => unsafe { *self.bias.add(r as usize) },
            BiasMode::N => unsafe { *self.bias.add(c as usize) },
        };
        activation(self.act, x + b)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    use std::f64::consts::PI;

    fn erf64(x: f64) -> f64 {
        // series / continued fraction-free: high-precision erf by Simpson on [0, x]
        let n = 2000;
        let h = x / n as f64;
        let f = |t: f64| (-t * t).exp();
        let mut s = f(0.0) + f(x);
        for i in 1..n {
            s += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        s * h / 3.0 * 2.0 / PI.sqrt()
    }

    /// Every activation against its `f64` definition on a grid over [−12, 12]: absolute error
    /// below 2·10⁻⁶·(1 + |x|) (`exp` relative, the others absolute).
    #[test]
    fn activations_match_f64() {
        for i in -2400..=2400 {
            let x = i as f32 * 0.005;
            let xd = x as f64;
            let e = exp_f32(x) as f64;
            assert!((e - xd.exp()).abs() <= 3e-7 * xd.exp(), "exp {x}: {e}");
            let cases = [
                (Activation::Relu, xd.max(0.0)),
                (
                    Activation::Gelu,
                    0.5 * xd * (1.0 + ((2.0 / PI).sqrt() * (xd + 0.044715 * xd.powi(3))).tanh()),
                ),
                (
                    Activation::GeluErf,
                    0.5 * xd * (1.0 + erf64(xd / 2f64.sqrt())),
                ),
                (Activation::Silu, xd / (1.0 + (-xd).exp())),
            ];
            for (act, want) in cases {
                let got = activation(act, x) as f64;
                assert!(
                    (got - want).abs() <= 2e-6 * (1.0 + xd.abs()),
                    "{act:?}({x}) = {got}, want {want}"
                );
            }
        }
        assert!(activation(Activation::Gelu, f32::NAN).is_nan());
        assert_eq!(activation(Activation::Silu, -200.0), -0.0);
    }
}
