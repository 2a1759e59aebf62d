//! The GEMM epilogue's element-wise fusion (CUTLASS's `fusion::LinCombPerRowBiasEltAct` /
//! `LinCombPerColBiasEltAct`): `D = act(alpha·acc + beta·C + bias)` with the bias a vector along
//! M (one value per row) or N (one per column), `act` one of CUTLASS's
//! `ReLu`, `GELU_taylor` (tanh form), `GELU` (erf form), `SiLu`.
//!
//! Each activation is a zero-sized type ([`act::Relu`], ... implementing [`ActivationFn`]), so
//! an epilogue generic over it monomorphizes one short per-element body, and the
//! [`Activation`] enum is its run-time code (the kernel parameter; a kernel switches on it once,
//! outside its per-element loops). [`BiasAct`] is the per-element operation an epilogue applies
//! as it walks its accumulator fragments (CUTLASS's EVT visits per subtile): `x ↦ act(x + bias)`
//! with the bias a broadcast tensor over C (stride 1 along the bias's dimension, 0 along the
//! other); [`LinComb`] is the plain GEMM's (nothing after `alpha·acc + beta·C`).
//! [`Scaled`] composes an operation with a factor of the product per element ([`ProductScale`]:
//! [`RowColScale`], per-row and per-column vectors as CUTLASS's EVT row/column broadcasts and
//! `torch._scaled_mm`'s row-wise scales; [`NoScale`]): `D = act(alpha·s_row[r]·s_col[c]·acc +
//! beta·C + bias)`, the scales on the product only.
//!
//! The math is `f32` without `libm`: `exp` and `tanh` from `exp`, `erf` by Abramowitz–Stegun
//! 7.1.26 (absolute error below 1.5·10⁻⁷), and no IEEE division (on the GPU a `div.rn.f32` is a
//! called slow path, which makes ptxas spill the live accumulators around the call). On the host
//! `exp` is range reduction and a polynomial ([`exp_f32`]) and a reciprocal is `1/x`; on the
//! GPU (`nvptx64`) `exp(x)` is `ex2.approx.ftz.f32(x·log₂e)` (relative error about 2⁻²² plus
//! the product's rounding) and a reciprocal `rcp.approx.ftz.f32` (1 ulp). The tests pin the host
//! path against `f64` references; the GPU path is checked by the fused GEMM's checks on a GPU.
//!
//! ```
//! use layout_types::cutlass::fusion::{Activation, activation};
//! assert_eq!(activation(Activation::Relu, -2.0), 0.0);
//! assert!((activation(Activation::Silu, 1.0) - 0.731_058_6).abs() < 1e-6);
//! ```

use crate::cute::algorithm::Fma;

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
    /// Every activation, in code order.
    ///
    /// ```
    /// use layout_types::cutlass::fusion::Activation;
    /// assert!(Activation::ALL.iter().enumerate().all(|(c, &a)| Activation::from_code(c as u32) == Some(a)));
    /// ```
    pub const ALL: [Activation; 5] = [
        Activation::Identity,
        Activation::Relu,
        Activation::Gelu,
        Activation::GeluErf,
        Activation::Silu,
    ];
    /// The activation of code `c` (the kernel parameter), `None` for an unknown code.
    ///
    /// ```
    /// use layout_types::cutlass::fusion::Activation;
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
/// use layout_types::cutlass::fusion::exp_f32;
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

/// `e^x` as the activations compute it: [`exp_f32`] on the host, `ex2.approx.ftz.f32` of
/// `x·log₂e` on the GPU (two instructions).
#[inline(always)]
fn exp(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        device::math::ex2(x * core::f32::consts::LOG2_E)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        exp_f32(x)
    }
}

/// `1/x` as the activations compute it: IEEE division on the host, `rcp.approx.ftz.f32` on the
/// GPU (1 ulp; `1/∞ = 0`).
#[inline(always)]
fn rcp(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        device::math::rcp_approx(x)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        1.0 / x
    }
}

/// `tanh(x) = 1 − 2/(e^{2x} + 1)` (absolute error ≈ 2·10⁻⁷).
///
/// ```
/// use layout_types::cutlass::fusion::tanh_f32;
/// assert!((tanh_f32(0.5) - 0.462_117_16).abs() < 1e-6);
/// assert_eq!((tanh_f32(50.0), tanh_f32(-50.0)), (1.0, -1.0));
/// ```
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    1.0 - 2.0 * rcp(exp(2.0 * x) + 1.0)
}

/// `tanh(x)` as [`act::Gelu`] computes it (CUTLASS's `fast_tanh`): on the GPU one
/// `tanh.approx.f32` (one `MUFU.TANH`; PTX ISA: maximum relative error 2⁻¹¹ over the whole
/// range, `±∞ ↦ ±1`, NaN stays NaN), on the host [`tanh_f32`].
#[inline(always)]
fn tanh_approx(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        device::math::tanh_approx(x)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        tanh_f32(x)
    }
}

/// `erf(x)` by Abramowitz–Stegun 7.1.26 (absolute error below 1.5·10⁻⁷, plus `f32` rounding),
/// its polynomial in Horner form as [`Fma`]s (on the GPU one `fma.rn` a coefficient where
/// separate `mul.rn` and `add.rn` took two; elsewhere the same products and sums as before).
///
/// ```
/// use layout_types::cutlass::fusion::erf_f32;
/// assert!((erf_f32(0.5) - 0.520_499_9).abs() < 1e-6);
/// assert!((erf_f32(-2.0) + 0.995_322_3).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    let a = x.abs();
    let t = rcp(a.fma(0.327_591_1, 1.0));
    let p = t.fma(1.061_405_4, -1.453_152_1);
    let p = p.fma(t, 1.421_413_8);
    let p = p.fma(t, -0.284_496_74);
    let p = p.fma(t, 0.254_829_6);
    let y = (-(p * t)).fma(exp(-a * a), 1.0);
    if x < 0.0 { -y } else { y }
}

/// GELU's tanh form `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` with the `tanh` given:
/// `h + h·tanh(x·(k + k'·x²))`, `h = x/2`, `k = √(2/π)`, `k' = 0.044715·k` (two [`Fma`]s and
/// three products around the `tanh`). With a `tanh` of relative error `δ` the result is within
/// `|x|·(δ/2 + 2·10⁻⁷)` of GELU(x) (`h·tanh·δ`, the argument's and the result's `f32`
/// roundings): for `tanh.approx.f32`'s `δ = 2⁻¹¹`, `2.45·10⁻⁴·|x|` (pinned by the tests).
#[inline(always)]
fn gelu_tanh_form(x: f32, tanh: impl Fn(f32) -> f32) -> f32 {
    gelu_tanh_half(0.5 * x, tanh)
}

/// [`gelu_tanh_form`] of `x = 2h` from `h`: `h + h·tanh(h·(2k + 8k'·h²))`, bit for bit the same
/// value (`h = x/2`, `h² = x²/4`, `2k`, `8k'` are exact scalings, so every rounding is the
/// x-form's scaled by a power of two), one multiply fewer where the caller folds the halving
/// into its own multiply-add ([`ActivationFn::apply_half`]).
#[inline(always)]
fn gelu_tanh_half(h: f32, tanh: impl Fn(f32) -> f32) -> f32 {
    const K: f32 = 0.797_884_6;
    const K3: f32 = 0.797_884_6 * 0.044_715;
    let t = tanh(h * (h * h).fma(8.0 * K3, 2.0 * K));
    h.fma(t, h)
}

/// An element-wise activation as a type (CUTLASS's epilogue functors `ReLu`, `GELU_taylor`,
/// `GELU`, `SiLu`): an epilogue generic over it monomorphizes one short per-element body.
///
/// ```
/// use layout_types::cutlass::fusion::{Activation, ActivationFn, act};
/// assert_eq!(act::Relu::apply(-2.0), 0.0);
/// assert_eq!(act::GeluErf::ACT, Activation::GeluErf);
/// ```
pub trait ActivationFn: Copy + Default {
    /// Its run-time code.
    const ACT: Activation;
    /// Whether [`apply_half`](Self::apply_half) starts from `x/2` itself (GELU's forms: `h +
    /// h·…`), so that a caller that folds the halving into its multiply-add saves a multiply
    /// an element ([`BiasActRows`]).
    const HALF: bool = false;
    /// `act(x)`.
    fn apply(x: f32) -> f32;
    /// `act(2·h)`, bit for bit [`apply`](Self::apply)`(2·h)`.
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{ActivationFn, act};
    /// for x in [-7.5f32, -1.0, 0.3, 2.0, 40.0] {
    ///     assert_eq!(act::Gelu::apply_half(x / 2.0), act::Gelu::apply(x));
    ///     assert_eq!(act::GeluErf::apply_half(x / 2.0), act::GeluErf::apply(x));
    ///     assert_eq!(act::Relu::apply_half(x / 2.0), act::Relu::apply(x));
    /// }
    /// ```
    #[inline(always)]
    fn apply_half(h: f32) -> f32 {
        Self::apply(2.0 * h)
    }
}

/// The activations as zero-sized types ([`ActivationFn`]).
pub mod act {
    use super::{Activation, ActivationFn, Fma, erf_f32, exp, rcp, tanh_approx};

    /// `x`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Identity;
    /// `max(x, 0)` (NaN stays NaN).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Relu;
    /// GELU, tanh form: `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (CUTLASS's
    /// `GELU_taylor`, whose `fast_tanh` is also `tanh.approx.f32`), computed as
    /// `h + h·tanh(x·(k + k'·x²))`, `h = x/2` (`fusion::gelu_tanh_form`, private): on the GPU two `fma.rn`,
    /// three `mul.rn` and one `tanh.approx.f32` (one `MUFU` op where `1 − 2/(e^{2u} + 1)` took
    /// `ex2` and `rcp`), within `2.45·10⁻⁴·|x|` of GELU; on the host (exact `tanh`) within
    /// `2·10⁻⁶·(1 + |x|)`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Gelu;
    /// GELU, erf form: `0.5·x·(1 + erf(x/√2))`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct GeluErf;
    /// SiLU: `x·sigmoid(x) = x/(1 + e^{−x})`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Silu;

    impl ActivationFn for Identity {
        const ACT: Activation = Activation::Identity;
        #[inline(always)]
        fn apply(x: f32) -> f32 {
            x
        }
    }
    impl ActivationFn for Relu {
        const ACT: Activation = Activation::Relu;
        #[inline(always)]
        fn apply(x: f32) -> f32 {
            if x < 0.0 { 0.0 } else { x }
        }
    }
    impl ActivationFn for Gelu {
        const ACT: Activation = Activation::Gelu;
        const HALF: bool = true;
        #[inline(always)]
        fn apply(x: f32) -> f32 {
            super::gelu_tanh_form(x, tanh_approx)
        }
        #[inline(always)]
        fn apply_half(h: f32) -> f32 {
            super::gelu_tanh_half(h, tanh_approx)
        }
    }
    impl ActivationFn for GeluErf {
        const ACT: Activation = Activation::GeluErf;
        const HALF: bool = true;
        #[inline(always)]
        fn apply(x: f32) -> f32 {
            Self::apply_half(0.5 * x)
        }
        /// `h + h·erf(h·2/√2)` (one `fma.rn` on the GPU): `x/√2 = h·(2/√2)` with `2/√2` the
        /// exact double of `1/√2`'s `f32`.
        #[inline(always)]
        fn apply_half(h: f32) -> f32 {
            const C: f32 = 2.0 * core::f32::consts::FRAC_1_SQRT_2;
            h.fma(erf_f32(h * C), h)
        }
    }
    impl ActivationFn for Silu {
        const ACT: Activation = Activation::Silu;
        #[inline(always)]
        fn apply(x: f32) -> f32 {
            x * rcp(1.0 + exp(-x))
        }
    }
}

/// `act(x)`, the activation chosen at run time (a switch per call: kernels switch once, outside
/// their loops, and call [`ActivationFn::apply`]).
///
/// ```
/// use layout_types::cutlass::fusion::{Activation, activation};
/// assert_eq!(activation(Activation::Identity, -1.5), -1.5);
/// assert!((activation(Activation::Gelu, 1.0) - 0.841_192).abs() < 1e-5);
/// assert!((activation(Activation::GeluErf, 1.0) - 0.841_344_7).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn activation(a: Activation, x: f32) -> f32 {
    match a {
        Activation::Identity => act::Identity::apply(x),
        Activation::Relu => act::Relu::apply(x),
        Activation::Gelu => act::Gelu::apply(x),
        Activation::GeluErf => act::GeluErf::apply(x),
        Activation::Silu => act::Silu::apply(x),
    }
}

/// `*p` if `pred`, else 0 — without a branch on the GPU: one predicated `ld.global.nc.f32`
/// (CUTLASS's predicated loads). An epilogue tests the same uniform `pred` at every element; as
/// branches, LLVM's jump threading and CFG simplification over 128 unrolled elements made
/// the fused GEMM's compile time explode (minutes per entry, in dominator-tree updates).
///
/// # Safety
/// With `pred`, `p` is a readable `f32` (on the GPU: global memory not written by this kernel).
#[inline(always)]
unsafe fn load_if(pred: bool, p: *const f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { device::vec::ld_global_nc_f32_if(pred, p) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if pred { unsafe { *p } } else { 0.0 }
    }
}

/// `*p` if `pred`, else `default` — as [`load_if`], one predicated `ld.global.nc.f32` on the
/// GPU (a scale's "no vector" reads 1).
///
/// # Safety
/// As [`load_if`].
#[inline(always)]
unsafe fn load_or(pred: bool, p: *const f32, default: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        unsafe { device::vec::ld_global_nc_f32_or(pred, p, default) }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        if pred { unsafe { *p } } else { default }
    }
}

/// What an epilogue applies to each element after the linear combination `alpha·acc + beta·C`,
/// as it walks its accumulator fragments: `x` at element `(r, c)` of C ↦ the stored value.
pub trait EpilogueOp: Copy {
    /// Whether [`Self::acc_scale`] may differ from 1 (an epilogue skips it otherwise: the
    /// unscaled operations compile exactly as before the scales existed).
    const SCALED: bool = false;
    /// Whether the stored value depends on the element's coordinate `(r, c)` (an epilogue
    /// computes coordinates only for an operation that reads them: [`LinComb`]'s are dead code,
    /// and the epilogue keeps its own address arithmetic apart from them).
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{act, BiasAct, EpilogueOp, LinComb};
    /// assert!(!LinComb::AT_COORD && <BiasAct<act::Relu>>::AT_COORD);
    /// ```
    const AT_COORD: bool = true;
    /// The stored value of element `(r, c)` (row, column of C; a coordinate outside C is
    /// allowed and gives a value that is not stored).
    fn apply(&self, x: f32, rc: (i32, i32)) -> f32;
    /// The stored value of element `(r, c)` from its accumulator `acc` when `beta` is 0:
    /// `apply(alpha·acc, rc)`; an operation that adds something first may fold `alpha·acc`
    /// into that addition (one `fma.rn`, CUTLASS's `LinCombPerRowBias` as a multiply-add).
    #[inline(always)]
    fn apply_acc(&self, alpha: f32, acc: f32, rc: (i32, i32)) -> f32 {
        self.apply(alpha * acc, rc)
    }
    /// Whether [`apply_acc_half`](Self::apply_acc_half) saves a multiply an element (an op
    /// whose activation starts from `x/2`, [`ActivationFn::HALF`]): a wrapper that scales
    /// `alpha` per element ([`Scaled`]) then hands it over halved.
    const HALF: bool = false;
    /// [`apply_acc`](Self::apply_acc)`(2·alpha_half, acc, rc)`, bit for bit: for an op with
    /// [`HALF`](Self::HALF), `alpha_half·acc` plus half its addend is the activation's `x/2`.
    #[inline(always)]
    fn apply_acc_half(&self, alpha_half: f32, acc: f32, rc: (i32, i32)) -> f32 {
        self.apply_acc(2.0 * alpha_half, acc, rc)
    }
    /// The factor of the product at element `(r, c)` before `beta·C` is added (per-row and
    /// per-column scales, [`Scaled`]): an epilogue that adds `beta·C` computes
    /// `apply(alpha·acc_scale(r, c)·acc + beta·C, rc)`; 1 by default (a constant: `alpha·1`
    /// folds, the unscaled operations compile as before).
    #[inline(always)]
    fn acc_scale(&self, _rc: (i32, i32)) -> f32 {
        1.0
    }
}

/// The plain GEMM's epilogue operation: `x` itself (CUTLASS's `LinearCombination`).
///
/// ```
/// use layout_types::cutlass::fusion::{EpilogueOp, LinComb};
/// assert_eq!(LinComb.apply(1.5, (3, 4)), 1.5);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct LinComb;

impl EpilogueOp for LinComb {
    const AT_COORD: bool = false;
    #[inline(always)]
    fn apply(&self, x: f32, _: (i32, i32)) -> f32 {
        x
    }
}

/// `x ↦ act(x + bias(r, c))` (CUTLASS's `LinCombPerRowBiasEltAct` / `LinCombPerColBiasEltAct`
/// after the linear combination): the bias vector read as a broadcast tensor over C, layout
/// `(M,N):(1,0)` (one value per row) or `(M,N):(0,1)` (one per column), its coordinates clamped
/// into C so that elements outside C (which are not stored) read inside the vector; no bias: 0.
///
/// ```
/// use layout_types::cutlass::fusion::{BiasAct, BiasMode, EpilogueOp, act};
/// let b = [1.0f32, 2.0, 3.0];
/// // C is 5 × 3, the bias along N
/// let f = unsafe { BiasAct::<act::Relu>::new(b.as_ptr(), BiasMode::N, (5, 3)) };
/// assert_eq!(f.apply(-2.5, (4, 1)), 0.0);
/// assert_eq!(f.apply(-2.5, (4, 2)), 0.5);
/// assert_eq!(f.apply(-2.5, (7, 9)), 0.5); // outside C: clamped to (4, 2)
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BiasAct<A> {
    bias: *const f32,
    has_bias: bool,
    /// `(M,N)` with the broadcast strides
    layout: crate::cute::layout::Layout<(i32, i32), (i32, i32)>,
    act: core::marker::PhantomData<A>,
}

impl<A: ActivationFn> BiasAct<A> {
    /// The operation for C of `(m, n)` (both ≥ 1) with the bias at `bias` along `mode`.
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{BiasAct, BiasMode, EpilogueOp, act};
    /// let b = [1.0f32, 2.0, 3.0];
    /// // C is 3 × 4, one bias value per row
    /// let f = unsafe { BiasAct::<act::Identity>::new(b.as_ptr(), BiasMode::M, (3, 4)) };
    /// assert_eq!((f.apply(0.5, (0, 3)), f.apply(0.5, (2, 0))), (1.5, 3.5));
    /// // no bias: nothing is read, the pointer may be null
    /// let g = unsafe { BiasAct::<act::Relu>::new(core::ptr::null(), BiasMode::None, (3, 4)) };
    /// assert_eq!((g.apply(-1.0, (0, 0)), g.apply(2.0, (1, 1))), (0.0, 2.0));
    /// ```
    ///
    /// # Safety
    /// Unless `mode` is [`BiasMode::None`], `bias` holds M (along M) or N (along N) readable
    /// `f32`s for as long as the operation is applied.
    #[inline(always)]
    pub unsafe fn new(bias: *const f32, mode: BiasMode, (m, n): (i32, i32)) -> Self {
        let stride = match mode {
            BiasMode::M => (1, 0),
            BiasMode::N => (0, 1),
            BiasMode::None => (0, 0),
        };
        BiasAct {
            bias,
            has_bias: mode != BiasMode::None,
            layout: crate::cute::layout::make_layout((m, n), stride),
            act: core::marker::PhantomData,
        }
    }
}

impl<A: ActivationFn> EpilogueOp for BiasAct<A> {
    #[inline(always)]
    fn apply(&self, x: f32, (r, c): (i32, i32)) -> f32 {
        let (m, n) = self.layout.shape();
        let i = self.layout.crd2idx((r.min(m - 1), c.min(n - 1)));
        // SAFETY: with a bias, the clamped coordinate is inside C, its index inside the vector
        // (`new`); without one nothing is read
        let b = unsafe { load_if(self.has_bias, self.bias.wrapping_add(i as usize)) };
        A::apply(x + b)
    }
}

impl<A: ActivationFn> BiasAct<A> {
    /// The operation for one thread of an epilogue whose elements lie in the two rows
    /// `rows` of C (CuTe's `CLayout_64xN` fragment: rows `r` and `r + 8`) and in columns
    /// `first_col + j` for small constants `j ≥ 0`: the bias along M read once for the tile (two
    /// loads) instead of once per element; along N read per element at a constant offset from
    /// the thread's first column, predicated off past N (no clamp per element).
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{BiasAct, BiasMode, EpilogueOp, act};
    /// let b = [1.0f32, 2.0, 3.0, 4.0];
    /// let f = unsafe { BiasAct::<act::Identity>::new(b.as_ptr(), BiasMode::M, (4, 9)) };
    /// let g = unsafe { f.for_rows([1, 9], 0) }; // row 9 is past M: clamped to row 3
    /// assert_eq!((g.apply(0.5, (1, 7)), g.apply(0.5, (9, 0))), (f.apply(0.5, (1, 7)), 4.5));
    /// let h = unsafe { BiasAct::<act::Identity>::new(b.as_ptr(), BiasMode::N, (9, 3)) };
    /// let g = unsafe { h.for_rows([0, 8], 1) };
    /// assert_eq!((g.apply(0.5, (8, 2)), g.apply_acc(2.0, 0.25, (0, 1))), (3.5, 2.5));
    /// assert_eq!(g.apply(0.5, (8, 3)), 0.5); // column 3 is past N: no bias (not stored)
    /// ```
    ///
    /// # Safety
    /// As [`BiasAct::new`]; the rows the result is applied at are `rows[0]` and `rows[1]`, the
    /// columns at least `first_col`.
    #[inline(always)]
    pub unsafe fn for_rows(&self, rows: [i32; 2], first_col: i32) -> BiasActRows<A> {
        let (m, n) = self.layout.shape();
        let (sm, sn) = self.layout.stride();
        let along_m = self.has_bias && sm == 1;
        // SAFETY: along M, the clamped rows are inside the vector (`new`)
        let row_bias = unsafe {
            [
                load_if(along_m, self.bias.wrapping_add(rows[0].min(m - 1) as usize)),
                load_if(along_m, self.bias.wrapping_add(rows[1].min(m - 1) as usize)),
            ]
        };
        BiasActRows {
            row_bias,
            first_row: rows[0],
            col_bias: self.bias.wrapping_add(first_col as usize),
            first_col,
            // no column reads unless along N (every offset is ≥ 0)
            col_end: if self.has_bias && sn == 1 {
                (n - first_col).max(0)
            } else {
                0
            },
            act: core::marker::PhantomData,
        }
    }
}

/// [`BiasAct`] for one thread's two rows ([`BiasAct::for_rows`]): the bias along M in
/// registers; along N, read per element at its offset from the thread's first column.
#[derive(Clone, Copy, Debug)]
pub struct BiasActRows<A> {
    /// The bias of the two rows (0 unless along M).
    row_bias: [f32; 2],
    /// The first of the two rows.
    first_row: i32,
    /// The bias at the thread's first column (read along N only).
    col_bias: *const f32,
    /// The thread's first column.
    first_col: i32,
    /// The column offsets `< col_end` read the bias (`max(N − first_col, 0)` along N, else 0).
    col_end: i32,
    act: core::marker::PhantomData<A>,
}

impl<A: ActivationFn> BiasActRows<A> {
    /// The bias of element `(r, c)`.
    #[inline(always)]
    fn bias(&self, (r, c): (i32, i32)) -> f32 {
        self.row_bias_at(r) + self.col_bias((r, c))
    }
    /// The bias along M of row `r`, one of the two (a constant offset from the first in the
    /// unrolled epilogue: the comparison folds).
    #[inline(always)]
    fn row_bias_at(&self, r: i32) -> f32 {
        if r == self.first_row {
            self.row_bias[0]
        } else {
            self.row_bias[1]
        }
    }
    /// The bias along N of column `c`.
    #[inline(always)]
    fn col_bias(&self, (_, c): (i32, i32)) -> f32 {
        // the column's offset from the thread's first, a constant in the unrolled epilogue
        // (`(first + j) − first` folds): a load at a constant offset, predicated by a compare
        // with a constant
        // (unsigned: a column left of the first reads nothing)
        let j = c.wrapping_sub(self.first_col) as u32;
        // SAFETY: along N, an offset below `col_end` is a column inside the vector
        // (`BiasAct::new`); otherwise nothing is read
        unsafe {
            load_if(
                j < self.col_end as u32,
                self.col_bias.wrapping_add(j as usize),
            )
        }
    }
    /// Half the bias of element `(r, c)`: `b_col/2 + b_row/2` in one `fma.rn`, bit for bit
    /// `(b_row + b_col)/2` (halving is exact; the rows' halves are made once a tile).
    #[inline(always)]
    fn half_bias(&self, (r, c): (i32, i32)) -> f32 {
        0.5f32.fma(self.col_bias((r, c)), 0.5 * self.row_bias_at(r))
    }
}

/// With a [`HALF`](ActivationFn::HALF) activation (GELU) the halving of `x` folds into the
/// multiply-adds (`alpha/2·acc + b/2`, `x/2 + b/2`): one multiply an element fewer, the same
/// value bit for bit.
///
/// ```
/// use layout_types::cutlass::fusion::{ActivationFn, BiasAct, BiasMode, EpilogueOp, act};
/// let b = [0.75f32, -2.0, 3.5];
/// let f = unsafe { BiasAct::<act::Gelu>::new(b.as_ptr(), BiasMode::N, (4, 3)) };
/// let g = unsafe { f.for_rows([0, 8], 0) };
/// let x: f32 = 1.3 * 0.7 + b[2];
/// assert_eq!(g.apply_acc(1.3, 0.7, (0, 2)), act::Gelu::apply(x));
/// assert_eq!(g.apply(-0.4, (8, 1)), act::Gelu::apply(-0.4 + b[1]));
/// ```
impl<A: ActivationFn> EpilogueOp for BiasActRows<A> {
    const HALF: bool = A::HALF;
    #[inline(always)]
    fn apply(&self, x: f32, rc: (i32, i32)) -> f32 {
        if A::HALF {
            A::apply_half(0.5f32.fma(x, self.half_bias(rc)))
        } else {
            A::apply(x + self.bias(rc))
        }
    }
    #[inline(always)]
    fn apply_acc(&self, alpha: f32, acc: f32, rc: (i32, i32)) -> f32 {
        if A::HALF {
            self.apply_acc_half(0.5 * alpha, acc, rc)
        } else {
            A::apply(alpha.fma(acc, self.bias(rc)))
        }
    }
    #[inline(always)]
    fn apply_acc_half(&self, alpha_half: f32, acc: f32, rc: (i32, i32)) -> f32 {
        if A::HALF {
            A::apply_half(alpha_half.fma(acc, self.half_bias(rc)))
        } else {
            self.apply_acc(2.0 * alpha_half, acc, rc)
        }
    }
}

/// A factor of the product per element of C, `(r, c) ↦ s` ([`Scaled`] multiplies
/// `alpha·acc` by it before `beta·C` and the bias are added).
///
/// ```
/// use layout_types::cutlass::fusion::{NoScale, ProductScale};
/// assert_eq!(NoScale.at((3, 4)), 1.0);
/// ```
pub trait ProductScale: Copy {
    /// Whether the factor may differ from 1 ([`EpilogueOp::SCALED`]).
    const SCALED: bool = true;
    /// The factor of element `(r, c)` (a coordinate outside C is allowed: its value is not
    /// stored).
    fn at(&self, rc: (i32, i32)) -> f32;
    /// `alpha` times the factor of element `(r, c)` ([`Scaled::apply_acc`]'s product); a
    /// scale may order the product so that its per-row part with `alpha` is shared by a row's
    /// elements (as [`RowColScaleRows`]: `(alpha·s_row)·s_col`, one multiply an element).
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{NoScale, ProductScale};
    /// assert_eq!(NoScale.scaled(2.5, (3, 4)), 2.5);
    /// ```
    #[inline(always)]
    fn scaled(&self, alpha: f32, rc: (i32, i32)) -> f32 {
        alpha * self.at(rc)
    }
}

/// A scale kind an epilogue builds from its kernel's parameters: the row vector (M `f32`s,
/// null: none) and the column vector (N `f32`s, null: none), and its per-thread form for two
/// rows ([`RowColScale::for_rows`]).
///
/// ```
/// use layout_types::cutlass::fusion::{NoScale, ProductScale, ScaleKind};
/// let s = unsafe { NoScale::from_vectors(core::ptr::null(), core::ptr::null(), (4, 4)) };
/// assert_eq!(unsafe { s.for_rows([0, 8], 0) }.at((8, 1)), 1.0);
/// ```
pub trait ScaleKind: ProductScale {
    /// The per-thread form ([`ScaleKind::for_rows`]).
    type Rows: ProductScale;
    /// The scale of C of `(m, n)` (both ≥ 1) from the row and column vectors.
    ///
    /// # Safety
    /// A non-null `row` holds M readable `f32`s, a non-null `col` N, for as long as the scale
    /// is applied.
    unsafe fn from_vectors(row: *const f32, col: *const f32, mn: (i32, i32)) -> Self;
    /// The scale for one thread whose elements lie in rows `rows[0]`, `rows[1]` and in columns
    /// `first_col + j` (`j ≥ 0`), as [`BiasAct::for_rows`].
    ///
    /// # Safety
    /// As [`ScaleKind::from_vectors`]; applied at those rows and columns only.
    unsafe fn for_rows(&self, rows: [i32; 2], first_col: i32) -> Self::Rows;
}

/// No scale: the factor 1 (a constant: the unscaled epilogues compile as before).
///
/// ```
/// use layout_types::cutlass::fusion::{EpilogueOp, LinComb, NoScale, Scaled};
/// let f = Scaled::new(NoScale, LinComb);
/// assert_eq!((f.apply_acc(2.0, 1.5, (0, 0)), <Scaled<NoScale, LinComb>>::SCALED), (3.0, false));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct NoScale;

impl ProductScale for NoScale {
    const SCALED: bool = false;
    #[inline(always)]
    fn at(&self, _: (i32, i32)) -> f32 {
        1.0
    }
}

impl ScaleKind for NoScale {
    type Rows = NoScale;
    #[inline(always)]
    unsafe fn from_vectors(_: *const f32, _: *const f32, _: (i32, i32)) -> NoScale {
        NoScale
    }
    #[inline(always)]
    unsafe fn for_rows(&self, _: [i32; 2], _: i32) -> NoScale {
        NoScale
    }
}

/// Per-row and per-column scales of the product (CUTLASS's EVT `Sm90ColBroadcast` /
/// `Sm90RowBroadcast` multiplied into the accumulator; `torch._scaled_mm`'s row-wise scaling,
/// `scale_a` of shape `(M, 1)` and `scale_b` of `(1, N)`): the factor of element `(r, c)` is
/// `row[r]·col[c]`, a missing vector reading 1; coordinates clamped into C, as [`BiasAct`]'s.
///
/// ```
/// use layout_types::cutlass::fusion::{ProductScale, RowColScale, ScaleKind};
/// let (row, col) = ([2.0f32, 3.0], [0.5f32, 4.0, 8.0]);
/// let s = unsafe { RowColScale::from_vectors(row.as_ptr(), col.as_ptr(), (2, 3)) };
/// assert_eq!((s.at((1, 2)), s.at((0, 1)), s.at((5, 9))), (24.0, 8.0, 24.0));
/// let rows_only = unsafe { RowColScale::from_vectors(row.as_ptr(), core::ptr::null(), (2, 3)) };
/// assert_eq!(rows_only.at((1, 2)), 3.0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RowColScale {
    row: *const f32,
    col: *const f32,
    mn: (i32, i32),
}

impl ProductScale for RowColScale {
    #[inline(always)]
    fn at(&self, (r, c): (i32, i32)) -> f32 {
        let (m, n) = self.mn;
        // SAFETY: a non-null vector holds M (N) elements (`from_vectors`), the clamped
        // coordinate is inside it; a null one is not read
        unsafe {
            load_or(
                !self.row.is_null(),
                self.row.wrapping_add(r.min(m - 1) as usize),
                1.0,
            ) * load_or(
                !self.col.is_null(),
                self.col.wrapping_add(c.min(n - 1) as usize),
                1.0,
            )
        }
    }
}

impl ScaleKind for RowColScale {
    type Rows = RowColScaleRows;
    #[inline(always)]
    unsafe fn from_vectors(row: *const f32, col: *const f32, mn: (i32, i32)) -> RowColScale {
        RowColScale { row, col, mn }
    }
    /// The row scales of the two rows in registers (two loads per tile), the column scale
    /// read per element at a constant offset from the first column, predicated off past N
    /// (as [`BiasActRows`]).
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{ProductScale, RowColScale, ScaleKind};
    /// let (row, col) = ([2.0f32, 3.0], [0.5f32, 4.0, 8.0]);
    /// let s = unsafe { RowColScale::from_vectors(row.as_ptr(), col.as_ptr(), (2, 3)) };
    /// let t = unsafe { s.for_rows([0, 8], 1) }; // row 8 is past M: clamped to row 1
    /// assert_eq!((t.at((0, 2)), t.at((8, 1)), t.at((8, 3))), (16.0, 12.0, 3.0));
    /// ```
    #[inline(always)]
    unsafe fn for_rows(&self, rows: [i32; 2], first_col: i32) -> RowColScaleRows {
        let (m, n) = self.mn;
        let has_row = !self.row.is_null();
        // SAFETY: the clamped rows are inside a non-null row vector
        let row_scale = unsafe {
            [
                load_or(
                    has_row,
                    self.row.wrapping_add(rows[0].min(m - 1) as usize),
                    1.0,
                ),
                load_or(
                    has_row,
                    self.row.wrapping_add(rows[1].min(m - 1) as usize),
                    1.0,
                ),
            ]
        };
        RowColScaleRows {
            row_scale,
            first_row: rows[0],
            col_scale: self.col.wrapping_add(first_col as usize),
            first_col,
            col_end: if self.col.is_null() {
                0
            } else {
                (n - first_col).max(0)
            },
        }
    }
}

/// [`RowColScale`] for one thread's two rows ([`ScaleKind::for_rows`]).
///
/// ```
/// use layout_types::cutlass::fusion::{ProductScale, RowColScale, ScaleKind};
/// let col = [0.5f32, 4.0];
/// let s = unsafe { RowColScale::from_vectors(core::ptr::null(), col.as_ptr(), (16, 2)) };
/// let t = unsafe { s.for_rows([3, 11], 0) }; // no row vector: rows read 1
/// assert_eq!((t.at((3, 0)), t.at((11, 1))), (0.5, 4.0));
/// assert_eq!(t.scaled(3.0, (11, 1)), 12.0); // alpha · s_row · s_col
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RowColScaleRows {
    /// The scales of the two rows (1 without a row vector).
    row_scale: [f32; 2],
    /// The first of the two rows.
    first_row: i32,
    /// The column scale at the thread's first column.
    col_scale: *const f32,
    /// The thread's first column.
    first_col: i32,
    /// The column offsets `< col_end` read the column scale (0 without a column vector).
    col_end: i32,
}

impl RowColScaleRows {
    /// The scale of row `r` (one of the two: a constant offset from the first in the unrolled
    /// epilogue, so the comparison folds, as `BiasActRows`).
    #[inline(always)]
    fn row(&self, r: i32) -> f32 {
        if r == self.first_row {
            self.row_scale[0]
        } else {
            self.row_scale[1]
        }
    }
    /// The scale of column `c` (a constant offset from the first: a load at a constant
    /// offset, predicated by a compare with a constant).
    #[inline(always)]
    fn col(&self, c: i32) -> f32 {
        let j = c.wrapping_sub(self.first_col) as u32;
        // SAFETY: an offset below `col_end` is a column inside the vector (`for_rows`)
        unsafe {
            load_or(
                j < self.col_end as u32,
                self.col_scale.wrapping_add(j as usize),
                1.0,
            )
        }
    }
}

impl ProductScale for RowColScaleRows {
    #[inline(always)]
    fn at(&self, (r, c): (i32, i32)) -> f32 {
        self.row(r) * self.col(c)
    }
    /// `(alpha·s_row)·s_col`: the two rows' `alpha·s_row` are shared by their elements.
    #[inline(always)]
    fn scaled(&self, alpha: f32, (r, c): (i32, i32)) -> f32 {
        (alpha * self.row(r)) * self.col(c)
    }
}

/// An [`EpilogueOp`] `op` whose product is scaled by `scale` first: element `(r, c)` stores
/// `op(alpha·scale(r, c)·acc + beta·C)` — the scale multiplies the product only, not `beta·C`
/// (CUTLASS's EVT `alpha·(s_row ⊗ s_col)·acc + beta·C` then the bias and activation). With
/// [`RowColScale`] and [`BiasAct`]: `D = act(alpha·s_row[r]·s_col[c]·acc + beta·C + bias)`.
///
/// ```
/// use layout_types::cutlass::fusion::*;
/// let (row, col, bias) = ([2.0f32, 3.0], [0.5f32, 4.0, 8.0], [1.0f32, -100.0]);
/// let s = unsafe { RowColScale::from_vectors(row.as_ptr(), col.as_ptr(), (2, 3)) };
/// let b = unsafe { BiasAct::<act::Relu>::new(bias.as_ptr(), BiasMode::M, (2, 3)) };
/// let f = Scaled::new(s, b);
/// // alpha 0.5, acc 1.5 at (0, 2): relu(0.5·(2·8)·1.5 + 1) = 13
/// assert_eq!(f.apply_acc(0.5, 1.5, (0, 2)), 13.0);
/// // with beta·C = 4 (the direct path): relu(0.5·acc_scale·1.5 + 4 + 1)
/// let x = 0.5 * f.acc_scale((0, 2)) * 1.5 + 4.0;
/// assert_eq!(f.apply(x, (0, 2)), 17.0);
/// assert_eq!(f.apply_acc(0.5, 1.5, (1, 0)), 0.0); // relu(1.125 − 100)
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Scaled<S, O> {
    scale: S,
    op: O,
}

impl<S: ProductScale, O: EpilogueOp> Scaled<S, O> {
    /// `op` with its product scaled by `scale`.
    ///
    /// ```
    /// use layout_types::cutlass::fusion::{EpilogueOp, LinComb, RowColScale, ScaleKind, Scaled};
    /// let row = [3.0f32];
    /// let s = unsafe { RowColScale::from_vectors(row.as_ptr(), core::ptr::null(), (1, 8)) };
    /// assert_eq!(Scaled::new(s, LinComb).apply_acc(0.5, 2.0, (0, 5)), 3.0);
    /// ```
    #[inline(always)]
    pub fn new(scale: S, op: O) -> Self {
        Scaled { scale, op }
    }
}

impl<S: ProductScale, O: EpilogueOp> EpilogueOp for Scaled<S, O> {
    const SCALED: bool = S::SCALED || O::SCALED;
    const AT_COORD: bool = S::SCALED || O::AT_COORD;
    #[inline(always)]
    fn apply(&self, x: f32, rc: (i32, i32)) -> f32 {
        self.op.apply(x, rc)
    }
    const HALF: bool = O::HALF;
    #[inline(always)]
    fn apply_acc(&self, alpha: f32, acc: f32, rc: (i32, i32)) -> f32 {
        if O::HALF {
            // `alpha/2` scaled is exactly half the scaled `alpha` (a power of two), and the
            // halving is done once, not per element
            self.op
                .apply_acc_half(self.scale.scaled(0.5 * alpha, rc), acc, rc)
        } else {
            self.op.apply_acc(self.scale.scaled(alpha, rc), acc, rc)
        }
    }
    #[inline(always)]
    fn apply_acc_half(&self, alpha_half: f32, acc: f32, rc: (i32, i32)) -> f32 {
        self.op
            .apply_acc_half(self.scale.scaled(alpha_half, rc), acc, rc)
    }
    #[inline(always)]
    fn acc_scale(&self, rc: (i32, i32)) -> f32 {
        self.scale.at(rc) * self.op.acc_scale(rc)
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
    /// use layout_types::cutlass::fusion::*;
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
    /// use layout_types::cutlass::fusion::*;
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
        assert_eq!(activation(Activation::Gelu, 50.0), 50.0);
        assert_eq!(activation(Activation::Gelu, -50.0), 0.0);
    }

    /// The GPU's GELU bound (`act::Gelu`: `tanh.approx.f32`, relative error ≤ 2⁻¹¹ by the PTX
    /// ISA): the same formula with a `tanh` off by ±2⁻¹¹ (relative, both signs) stays within
    /// `2.45·10⁻⁴·|x|` of the `f64` GELU on [−20, 20] (the host check's activation term for
    /// GELU, `host-cli/src/check/hgemm.rs`).
    #[test]
    fn gelu_with_approximate_tanh_within_bound() {
        let d = 2f64.powi(-11);
        for i in -8000..=8000 {
            let x = i as f32 * 0.0025;
            let xd = x as f64;
            let want = 0.5 * xd * (1.0 + ((2.0 / PI).sqrt() * (xd + 0.044715 * xd.powi(3))).tanh());
            for s in [-1.0, 0.0, 1.0] {
                let got = gelu_tanh_form(x, |v| ((v as f64).tanh() * (1.0 + s * d)) as f32) as f64;
                assert!(
                    (got - want).abs() <= 2.45e-4 * xd.abs() + 1e-30,
                    "gelu({x}) with tanh·(1{s:+}·2⁻¹¹) = {got}, want {want}"
                );
            }
        }
        assert_eq!(activation(Activation::Silu, -200.0), -0.0);
    }

    /// GELU's half form against the x-form it replaced (`h + h·tanh(x·(k + k'·x²))`, `h =
    /// x/2`), and erf's FMA form against the separate products and sums it replaced: bit for bit
    /// over `[-40, 40]` (here `Fma` is a product and a sum, as the x-forms were; on the GPU each
    /// `fma.rn` of the half form is the x-form's scaled by a power of two, the same argument).
    #[test]
    fn half_and_fma_forms_match_the_forms_they_replaced() {
        const K: f32 = 0.797_884_6;
        const K3: f32 = 0.797_884_6 * 0.044_715;
        let x_form = |x: f32| {
            let h = 0.5 * x;
            let t = tanh_approx(x * (x * x).fma(K3, K));
            h.fma(t, h)
        };
        let erf_before = |x: f32| {
            let a = x.abs();
            let t = rcp(1.0 + 0.327_591_1 * a);
            let poly = t
                * (0.254_829_6
                    + t * (-0.284_496_74
                        + t * (1.421_413_8 + t * (-1.453_152_1 + t * 1.061_405_4))));
            let y = 1.0 - poly * exp(-a * a);
            if x < 0.0 { -y } else { y }
        };
        for i in -16000..=16000 {
            let x = i as f32 * 0.0025;
            assert_eq!(
                act::Gelu::apply(x).to_bits(),
                x_form(x).to_bits(),
                "gelu({x})"
            );
            assert_eq!(erf_f32(x).to_bits(), erf_before(x).to_bits(), "erf({x})");
        }
    }

    /// The half forms (GELU's `apply_half`, the per-thread bias op's halved multiply-adds)
    /// give the x-forms' values bit for bit over a sweep of accumulators, biases and `alpha`s,
    /// the bias along M and along N: the GPU's fused epilogue computes them, the host's check
    /// the x-forms.
    #[test]
    fn half_forms_are_bit_identical() {
        fn sweep<A: ActivationFn>() {
            let b = [0.375f32, -1.75, 3.0e-3, 12.5, -0.0];
            let mut checked = 0;
            for mode in [BiasMode::M, BiasMode::N] {
                let f = unsafe { BiasAct::<A>::new(b.as_ptr(), mode, (5, 5)) };
                let g = unsafe { f.for_rows([1, 4], 0) };
                for i in -600..=600 {
                    let acc = i as f32 * 0.0173 + (i as f32).powi(3) * 1e-6;
                    for alpha in [1.0f32, 0.3, -2.5, 7.0e-3] {
                        for (r, c) in [(1, 0), (4, 1), (1, 2), (4, 3), (1, 4)] {
                            // the x-form's bias: the row's plus the column's, the other 0
                            let bias = match mode {
                                BiasMode::M => b[r as usize] + 0.0,
                                _ => 0.0 + b[c as usize],
                            };
                            let x = alpha.fma(acc, bias);
                            let (got, want) = (g.apply_acc(alpha, acc, (r, c)), A::apply(x));
                            assert_eq!(
                                got.to_bits(),
                                want.to_bits(),
                                "{:?} acc {acc} alpha {alpha} at {:?}",
                                A::ACT,
                                (r, c)
                            );
                            assert_eq!(A::apply_half(x / 2.0).to_bits(), want.to_bits());
                            // the source path's `apply(alpha·acc + beta·C)`
                            let y = alpha * acc;
                            assert_eq!(g.apply(y, (r, c)).to_bits(), A::apply(y + bias).to_bits());
                            checked += 1;
                        }
                    }
                }
            }
            assert_eq!(checked, 2 * 1201 * 4 * 5);
        }
        sweep::<act::Gelu>();
        sweep::<act::GeluErf>();
        sweep::<act::Relu>();
    }

    /// `Scaled<RowColScale, BiasAct<A>>` against `act(alpha·s_row[r]·s_col[c]·acc + beta·C +
    /// bias)` in `f64`, on both of an epilogue's paths (`apply_acc` for beta 0, `acc_scale` then
    /// `apply` with `beta·C`), every combination of row/column vectors and bias modes, and the
    /// per-thread forms (`for_rows`) equal to the general ones at the thread's rows and columns
    /// (inside C, and past its edges where the general form clamps).
    #[test]
    fn row_col_scales_compose_with_bias_and_activation() {
        let (m, n) = (5i32, 7i32);
        let row: std::vec::Vec<f32> = (0..m).map(|i| 0.25 + 0.5 * i as f32).collect();
        let col: std::vec::Vec<f32> = (0..n).map(|j| 2.0 - 0.375 * j as f32).collect();
        let bias_m: std::vec::Vec<f32> = (0..m).map(|i| 0.1 * i as f32 - 0.2).collect();
        let bias_n: std::vec::Vec<f32> = (0..n).map(|j| 0.3 - 0.05 * j as f32).collect();
        let null = core::ptr::null();
        for (has_row, has_col) in [(false, false), (true, false), (false, true), (true, true)] {
            let rp = if has_row { row.as_ptr() } else { null };
            let cp = if has_col { col.as_ptr() } else { null };
            let s = unsafe { RowColScale::from_vectors(rp, cp, (m, n)) };
            for mode in [BiasMode::None, BiasMode::M, BiasMode::N] {
                let bp = match mode {
                    BiasMode::M => bias_m.as_ptr(),
                    _ => bias_n.as_ptr(),
                };
                let b = unsafe { BiasAct::<act::Silu>::new(bp, mode, (m, n)) };
                let f = Scaled::new(s, b);
                for r in 0..m {
                    for c in 0..n {
                        let (alpha, acc, bc) = (0.75f32, 1.5 - 0.3 * (r * n + c) as f32, 0.625f32);
                        let sr = if has_row { row[r as usize] as f64 } else { 1.0 };
                        let sc = if has_col { col[c as usize] as f64 } else { 1.0 };
                        let bias = match mode {
                            BiasMode::None => 0.0,
                            BiasMode::M => bias_m[r as usize] as f64,
                            BiasMode::N => bias_n[c as usize] as f64,
                        };
                        let silu = |z: f64| z / (1.0 + (-z).exp());
                        let z0 = alpha as f64 * sr * sc * acc as f64 + bias;
                        let got = f.apply_acc(alpha, acc, (r, c)) as f64;
                        assert!((got - silu(z0)).abs() <= 1e-5 * (1.0 + z0.abs()), "{r} {c}");
                        // the direct path with beta·C: the scale on the product only
                        let x = alpha * f.acc_scale((r, c)) * acc + bc;
                        let z1 = z0 + bc as f64;
                        let got = f.apply(x, (r, c)) as f64;
                        assert!((got - silu(z1)).abs() <= 1e-5 * (1.0 + z1.abs()), "{r} {c}");
                    }
                }
                // a thread's rows 1 and 9 (past M), columns from 2 on (past N at 7)
                let (rows, first) = ([1, 9], 2);
                let t = Scaled::new(unsafe { s.for_rows(rows, first) }, unsafe {
                    b.for_rows(rows, first)
                });
                for r in rows {
                    for c in first..first + 4 {
                        let general = f.apply_acc(0.75, 1.25, (r, c));
                        let here = t.apply_acc(0.75, 1.25, (r, c));
                        if c < n {
                            assert_eq!(here, general, "row {r} col {c}");
                            assert_eq!(t.acc_scale((r, c)), f.acc_scale((r, c)));
                        } else {
                            // past N: not stored; the column's scale and bias read nothing
                            assert!(here.is_finite());
                        }
                    }
                }
            }
        }
        // no scale: the factor 1 at every element
        let no = Scaled::new(NoScale, LinComb);
        assert_eq!(
            (no.apply_acc(2.0, 3.0, (9, 9)), no.acc_scale((0, 0))),
            (6.0, 1.0)
        );
    }
}
