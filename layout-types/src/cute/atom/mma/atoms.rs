//! MMA atoms as zero-sized types named as CuTe names them, each with CuTe's `MMA_Traits` as
//! associated types (`ThrID`, `ALayout`, `BLayout`, `CLayout`, `Shape_MNK`, the value types).

use crate::cute::consts::*;
use crate::cute::int::StaticInt;
use crate::cute::layout::Layout;
use crate::value::mma::{GmmaTypes, MmaOp};
use core::marker::PhantomData;
use device::wgmma::{GmmaMajor, Major};

// ---------------------------------------------------------------------------------------------
// Numeric types
// ---------------------------------------------------------------------------------------------

/// CuTe's `half_t`: an IEEE binary16 value, held as its bits.
///
/// ```
/// use layout_types::cute::atom::mma::half_t;
/// assert_eq!(core::mem::size_of::<half_t>(), 2);
/// assert_eq!(half_t(0x3c00).0, 0x3c00); // 1.0
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct half_t(pub u16);

/// CuTe's `bfloat16_t`: a bfloat16 value, held as its bits.
///
/// ```
/// use layout_types::cute::atom::mma::bfloat16_t;
/// assert_eq!(bfloat16_t::from_f32(1.5).to_f32(), 1.5);
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct bfloat16_t(pub u16);

impl bfloat16_t {
    /// Rounds an `f32` to the nearest bfloat16 (ties to even; NaN stays NaN).
    ///
    /// ```
    /// use layout_types::cute::atom::mma::bfloat16_t;
    /// assert_eq!(bfloat16_t::from_f32(-2.0).0, 0xc000);
    /// ```
    #[inline(always)]
    pub fn from_f32(x: f32) -> Self {
        let b = x.to_bits();
        if x.is_nan() {
            return bfloat16_t(((b >> 16) as u16) | 0x40);
        }
        let round = 0x7fff + ((b >> 16) & 1);
        bfloat16_t((b.wrapping_add(round) >> 16) as u16)
    }
    /// The value as an `f32` (exact).
    ///
    /// ```
    /// use layout_types::cute::atom::mma::bfloat16_t;
    /// assert_eq!(bfloat16_t(0x3f80).to_f32(), 1.0);
    /// ```
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

/// CuTe's `tfloat32_t`: a TF32 value in an `f32`'s bits (the low 13 mantissa bits ignored).
///
/// ```
/// use layout_types::cute::atom::mma::tfloat32_t;
/// assert_eq!(core::mem::size_of::<tfloat32_t>(), 4);
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct tfloat32_t(pub f32);

/// CuTe's `float_e4m3_t`: an 8-bit float (1 sign, 4 exponent bits of bias 7, 3 mantissa bits; no
/// infinity, NaN `0x7f`/`0xff`, largest finite ±448), held as its bits.
///
/// ```
/// use layout_types::cute::atom::mma::float_e4m3_t;
/// assert_eq!(float_e4m3_t::from_f32(1.0).0, 0x38);
/// assert_eq!(float_e4m3_t(0x7e).to_f32(), 448.0);
/// assert_eq!(float_e4m3_t::from_f32(1e6).to_f32(), 448.0); // saturates (satfinite)
/// assert_eq!(float_e4m3_t(0x01).to_f32(), 2f32.powi(-9)); // the smallest subnormal
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct float_e4m3_t(pub u8);

/// CuTe's `float_e5m2_t`: an 8-bit float (1 sign, 5 exponent bits of bias 15, 2 mantissa bits;
/// infinities `0x7c`/`0xfc`, largest finite ±57344), held as its bits.
///
/// ```
/// use layout_types::cute::atom::mma::float_e5m2_t;
/// assert_eq!(float_e5m2_t::from_f32(-1.5).0, 0xbe);
/// assert_eq!(float_e5m2_t(0x7b).to_f32(), 57344.0);
/// assert!(float_e5m2_t(0x7c).to_f32().is_infinite());
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct float_e5m2_t(pub u8);

/// The value of the 8-bit float `bits` with `MAN` mantissa bits and exponent bias `BIAS`
/// (`e4m3`: NaN only at exponent and mantissa all ones; `e5m2`: IEEE's infinities and NaNs).
#[inline(always)]
const fn fp8_to_f32<const MAN: u32, const BIAS: u32>(bits: u8) -> f32 {
    let exp_bits = 7 - MAN;
    let e = ((bits & 0x7f) >> MAN) as u32;
    let m = (bits as u32) & ((1 << MAN) - 1);
    let sign = ((bits as u32) >> 7) << 31;
    let top = (1 << exp_bits) - 1;
    let abs = if MAN == 3 && e == top && m == (1 << MAN) - 1 {
        0x7fc0_0000 // e4m3 NaN
    } else if MAN == 2 && e == top {
        if m == 0 { 0x7f80_0000 } else { 0x7fc0_0000 }
    } else if e == 0 {
        if m == 0 {
            0
        } else {
            // subnormal: m · 2^(1 - BIAS - MAN), normalised into an f32
            let lz = m.leading_zeros() - (32 - MAN); // shifts to bring m's top bit to MAN
            let mm = (m << (lz + 1)) & ((1 << MAN) - 1);
            ((127 + 1 - BIAS - lz - 1) << 23) | (mm << (23 - MAN))
        }
    } else {
        ((e + 127 - BIAS) << 23) | (m << (23 - MAN))
    };
    f32::from_bits(sign | abs)
}

/// `x` rounded to the nearest 8-bit float of `MAN` mantissa bits and bias `BIAS` (ties to even),
/// saturated to the largest finite value `MAX` (PTX's `cvt.rn.satfinite`); NaN stays NaN.
#[inline(always)]
const fn f32_to_fp8<const MAN: u32, const BIAS: u32, const MAX: u8>(x: f32) -> u8 {
    let b = x.to_bits();
    let sign = ((b >> 24) & 0x80) as u8;
    let a = b & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        return sign | 0x7f; // NaN (e4m3's NaN; e5m2's NaN with all mantissa bits)
    }
    let e = (a >> 23) as i32 - 127 + BIAS as i32; // the target's biased exponent
    let code = if e >= 1 {
        let shift = 23 - MAN;
        let r = a + (1 << (shift - 1)) - 1 + ((a >> shift) & 1);
        (r >> shift) - ((127 - BIAS) << MAN)
    } else if (a >> 23) == 0 {
        0
    } else {
        let m = (a & 0x7f_ffff) | 0x80_0000;
        let shift = (23 - MAN) as i32 + 1 - e;
        if shift > 25 {
            0
        } else {
            let shift = shift as u32;
            (m + (1 << (shift - 1)) - 1 + ((m >> shift) & 1)) >> shift
        }
    };
    sign | if code > MAX as u32 { MAX } else { code as u8 }
}

impl float_e4m3_t {
    /// Rounds an `f32` to the nearest e4m3 (ties to even), saturating to ±448; NaN stays NaN.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::float_e4m3_t;
    /// assert_eq!(float_e4m3_t::from_f32(0.3).to_f32(), 0.3125);
    /// ```
    #[inline(always)]
    pub const fn from_f32(x: f32) -> Self {
        float_e4m3_t(f32_to_fp8::<3, 7, 0x7e>(x))
    }
    /// The value as an `f32` (exact).
    ///
    /// ```
    /// use layout_types::cute::atom::mma::float_e4m3_t;
    /// assert_eq!(float_e4m3_t(0xb8).to_f32(), -1.0);
    /// ```
    #[inline(always)]
    pub const fn to_f32(self) -> f32 {
        fp8_to_f32::<3, 7>(self.0)
    }
}

impl float_e5m2_t {
    /// Rounds an `f32` to the nearest e5m2 (ties to even), saturating to ±57344; NaN stays NaN.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::float_e5m2_t;
    /// assert_eq!(float_e5m2_t::from_f32(0.3).to_f32(), 0.3125);
    /// ```
    #[inline(always)]
    pub const fn from_f32(x: f32) -> Self {
        float_e5m2_t(f32_to_fp8::<2, 15, 0x7b>(x))
    }
    /// The value as an `f32` (exact).
    ///
    /// ```
    /// use layout_types::cute::atom::mma::float_e5m2_t;
    /// assert_eq!(float_e5m2_t(0x3c).to_f32(), 1.0);
    /// ```
    #[inline(always)]
    pub const fn to_f32(self) -> f32 {
        fp8_to_f32::<2, 15>(self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Fragment kinds and majors
// ---------------------------------------------------------------------------------------------

/// How an atom's thread holds an operand (CuTe's `FrgTypeA` / `FrgTypeB`): [`Registers`] or a
/// GMMA shared-memory descriptor ([`SmemDesc`]).
pub trait FrgKind: Copy + Default {
    /// Whether the operand lives in registers (`make_fragment_like`) rather than behind a
    /// shared-memory descriptor.
    const REGISTERS: bool;
}
/// The operand is held in registers.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Registers;
impl FrgKind for Registers {
    const REGISTERS: bool = true;
}
/// The operand is read from shared memory through a GMMA descriptor of the given major
/// (CuTe's `GMMA::smem_desc<Major>`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct SmemDesc<M>(PhantomData<M>);
impl<M: GmmaMajor> FrgKind for SmemDesc<M> {
    const REGISTERS: bool = false;
}

use device::wgmma::MajorK;

// ---------------------------------------------------------------------------------------------
// The atom trait
// ---------------------------------------------------------------------------------------------

/// An MMA atom: CuTe's `MMA_Atom<MMA_Traits<Op>>`, its traits as associated types. Every
/// layout is a static typed [`Layout`] (zero-sized).
///
/// ```
/// use device::wgmma::{MajorK, MajorMN};
/// use layout_types::cute::atom::mma::*;
/// type C = <SM80_16x8x16_F32BF16BF16F32_TN as MmaAtom>::CLayout;
/// assert_eq!(C::default().to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
/// type G = SM90_64x64x16_F32BF16BF16_SS<MajorK, MajorMN>;
/// assert_eq!(<G as MmaAtom>::BLayout::default().to_string(), "(_128,(_64,_16)):(_0,(_1,_64))");
/// assert_eq!(<G as MmaAtom>::Shape_MNK::default().0.to_string(), "_64");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MMA atom",
    label = "use an atom such as `SM80_16x8x16_F32BF16BF16F32_TN::new()` or `SM90_64x128x16_F32BF16BF16_SS::<MajorK, MajorK>::new()`"
)]
#[allow(non_camel_case_types)]
pub trait MmaAtom: Copy + Default + 'static {
    /// `ValTypeD`: the accumulator written.
    type ValTypeD: Copy + Default;
    /// `ValTypeA`.
    type ValTypeA: Copy + Default;
    /// `ValTypeB`.
    type ValTypeB: Copy + Default;
    /// `ValTypeC`: the accumulator read.
    type ValTypeC: Copy + Default;
    /// `FrgTypeA`: [`Registers`] or [`SmemDesc`].
    type FrgTypeA: FrgKind;
    /// `FrgTypeB`.
    type FrgTypeB: FrgKind;
    /// `size<0>(Shape_MNK)`.
    type M: StaticInt;
    /// `size<1>(Shape_MNK)`.
    type N: StaticInt;
    /// `size<2>(Shape_MNK)`.
    type K: StaticInt;
    /// `Shape_MNK`: `(M, N, K)`.
    type Shape_MNK: Copy + Default;
    /// `ThrID`: logical thread id → thread index in the atom.
    type ThrID: Copy + Default + LayoutSize + core::fmt::Display;
    /// `ALayout`: `(thr, val) → (m, k)` index of the column-major `M × K` tile.
    type ALayout: Copy + Default + core::fmt::Display;
    /// `BLayout`: `(thr, val) → (n, k)` index of the column-major `N × K` tile.
    type BLayout: Copy + Default + core::fmt::Display;
    /// `CLayout`: `(thr, val) → (m, n)` index of the column-major `M × N` tile.
    type CLayout: Copy + Default + core::fmt::Display;
    /// The same atom in the value algebra ([`crate::value::mma::MmaOp`]), for checks and tests.
    const OP: MmaOp;
}

/// `size(layout)` of a static layout, as a type.
pub trait LayoutSize {
    /// The size.
    type Size: StaticInt;
}
impl<S: crate::cute::tuple::Product, D> LayoutSize for Layout<S, D>
where
    S::Output: StaticInt,
{
    type Size = S::Output;
}

// SM80 layouts: (T32,V4) -> (M16,N8) etc.
type Sm80Row16x8 = Layout<((_4, _8), (_2, _2)), ((_32, _1), (_16, _8))>;
type Sm80A16x8x16 = Layout<((_4, _8), (_2, _2, _2)), ((_32, _1), (_16, _8, _128))>;
type Sm80B16x8x16 = Layout<((_4, _8), (_2, _2)), ((_16, _1), (_8, _64))>;
type Sm80B16x8x8 = Layout<((_4, _8), _2), ((_16, _1), _8)>;
type Sm80ATf32 = Layout<((_4, _8), (_2, _2)), ((_16, _1), (_8, _64))>;
type Sm80BTf32 = Layout<((_4, _8), _2), ((_8, _1), _32)>;

macro_rules! sm80_atom {
    ($(#[$doc:meta])* $name:ident, $d:ty, $a:ty, $b:ty, $c:ty, $k:ty, $al:ty, $bl:ty) => {
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
        pub struct $name;
        impl $name {
            /// The atom (zero-sized).
            ///
            /// ```
            /// use layout_types::cute::prelude::*;
            /// use layout_types::cute::atom::mma::*;
            /// // four warps: 2 x 2 atoms of 16 x 8
            #[doc = concat!("let mma = make_tiled_mma(", stringify!($name), "::new(), layout!((_2, _2, _1):(_1, _2, _4)));")]
            /// assert_eq!(mma.size(), 128);
            #[doc = concat!("assert_eq!(mma.tile_shape().to_string_cute(), \"(_32,_16,", stringify!($k), ")\");")]
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name
            }
        }
        impl MmaAtom for $name {
            type ValTypeD = $d;
            type ValTypeA = $a;
            type ValTypeB = $b;
            type ValTypeC = $c;
            type FrgTypeA = Registers;
            type FrgTypeB = Registers;
            type M = _16;
            type N = _8;
            type K = $k;
            type Shape_MNK = (_16, _8, $k);
            type ThrID = Layout<_32, _1>;
            type ALayout = $al;
            type BLayout = $bl;
            type CLayout = Sm80Row16x8;
            const OP: MmaOp = MmaOp::$name;
        }
    };
}

sm80_atom!(
    /// CuTe's `SM80_16x8x8_F16F16F16F16_TN`: `mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// let a = SM80_16x8x8_F16F16F16F16_TN::new();
    /// assert_eq!(core::mem::size_of_val(&a), 0);
    /// ```
    SM80_16x8x8_F16F16F16F16_TN, half_t, half_t, half_t, half_t, _8, Sm80Row16x8, Sm80B16x8x8
);
sm80_atom!(
    /// CuTe's `SM80_16x8x8_F32F16F16F32_TN`: fp32 += fp16 × fp16, `m16n8k8`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// type B = <SM80_16x8x8_F32F16F16F32_TN as MmaAtom>::BLayout;
    /// assert_eq!(B::default().to_string(), "((_4,_8),_2):((_16,_1),_8)");
    /// ```
    SM80_16x8x8_F32F16F16F32_TN, f32, half_t, half_t, f32, _8, Sm80Row16x8, Sm80B16x8x8
);
sm80_atom!(
    /// CuTe's `SM80_16x8x8_F32BF16BF16F32_TN`: fp32 += bf16 × bf16, `m16n8k8`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// assert_eq!(SM80_16x8x8_F32BF16BF16F32_TN::OP.to_string(), "SM80_16x8x8_F32BF16BF16F32_TN");
    /// ```
    SM80_16x8x8_F32BF16BF16F32_TN, f32, bfloat16_t, bfloat16_t, f32, _8, Sm80Row16x8, Sm80B16x8x8
);
sm80_atom!(
    /// CuTe's `SM80_16x8x8_F32TF32TF32F32_TN`: fp32 += tf32 × tf32, `m16n8k8`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// type A = <SM80_16x8x8_F32TF32TF32F32_TN as MmaAtom>::ALayout;
    /// assert_eq!(A::default().to_string(), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
    /// ```
    SM80_16x8x8_F32TF32TF32F32_TN, f32, tfloat32_t, tfloat32_t, f32, _8, Sm80ATf32, Sm80BTf32
);
sm80_atom!(
    /// CuTe's `SM80_16x8x16_F16F16F16F16_TN`: fp16 += fp16 × fp16, `m16n8k16`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// type A = <SM80_16x8x16_F16F16F16F16_TN as MmaAtom>::ALayout;
    /// assert_eq!(A::default().to_string(), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
    /// ```
    SM80_16x8x16_F16F16F16F16_TN, half_t, half_t, half_t, half_t, _16, Sm80A16x8x16, Sm80B16x8x16
);
sm80_atom!(
    /// CuTe's `SM80_16x8x16_F32F16F16F32_TN`: fp32 += fp16 × fp16, `m16n8k16`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// type B = <SM80_16x8x16_F32F16F16F32_TN as MmaAtom>::BLayout;
    /// assert_eq!(B::default().to_string(), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
    /// ```
    SM80_16x8x16_F32F16F16F32_TN, f32, half_t, half_t, f32, _16, Sm80A16x8x16, Sm80B16x8x16
);
sm80_atom!(
    /// CuTe's `SM80_16x8x16_F32BF16BF16F32_TN`: fp32 += bf16 × bf16, `m16n8k16`.
    ///
    /// ```
    /// use layout_types::cute::atom::mma::*;
    /// type T = <SM80_16x8x16_F32BF16BF16F32_TN as MmaAtom>::ThrID;
    /// assert_eq!(T::default().to_string(), "_32:_1");
    /// ```
    SM80_16x8x16_F32BF16BF16F32_TN, f32, bfloat16_t, bfloat16_t, f32, _16, Sm80A16x8x16, Sm80B16x8x16
);

// GMMA layouts
/// `GMMA::ABLayout<64, 16>`: every thread of the warpgroup sees the whole shared-memory tile.
pub type GmmaABLayout<MN> = Layout<(_128, (MN, _16)), (_0, (_1, MN))>;
/// `GMMA::ALayout_64x16`: a register-sourced A of 16-bit elements.
pub type GmmaALayout64x16 =
    Layout<((_4, _8, _4), (_2, _2, _2)), ((_128, _1, _16), (_64, _8, _512))>;
/// `GMMA::CLayout_64xN` (`N8 = N / 8`).
pub type GmmaCLayout<N8> = Layout<((_4, _8, _4), (_2, _2, N8)), ((_128, _1, _16), (_64, _8, _512))>;

/// The check CuTe's `_RS` GMMA atoms make on A's major ("Register source operand A must have K
/// major layout"), evaluated when the atom is built.
pub struct RsMajorCheck<A>(PhantomData<A>);
impl<A: GmmaMajor> RsMajorCheck<A> {
    /// Fails to compile for an MN-major A.
    pub const OK: () = {
        if !matches!(A::MAJOR, Major::K) {
            panic!(
                "SM90 GMMA _RS: Register source operand A must have K major layout (tnspA == GMMA::Major::K), but A is GMMA::Major::MN"
            )
        }
    };
}

macro_rules! gmma_struct {
    ($name:ident, $n:literal, $nt:ident, $n8:ident, $ty:ident, $elt:ty, $rs:literal, $frga:ty, $alay:ty, $check:block, $what:literal) => {
        #[doc = concat!("CuTe's `", stringify!($name), "<tnspA, tnspB>`: `wgmma.mma_async.m64n", stringify!($n),
                        "k16`, ", $what,
                        "; the majors are [`MajorK`](device::wgmma::MajorK) / [`MajorMN`](device::wgmma::MajorMN) (default K).")]
        #[allow(non_camel_case_types)]
        #[derive(Debug, PartialEq, Eq)]
        pub struct $name<A = MajorK, B = MajorK>(PhantomData<(A, B)>);
        impl<A: GmmaMajor, B: GmmaMajor> $name<A, B> {
            /// The atom (zero-sized).
            ///
            /// ```
            /// use device::wgmma::{MajorK, MajorMN};
            /// use layout_types::cute::atom::mma::*;
            #[doc = concat!("let a = ", stringify!($name), "::<MajorK, MajorMN>::new();")]
            /// assert_eq!(core::mem::size_of_val(&a), 0);
            #[doc = concat!("assert_eq!(<", stringify!($name), "<MajorK, MajorMN> as MmaAtom>::OP.to_string(), \"", stringify!($name), "<K,MN>\");")]
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $check
                $name(PhantomData)
            }
        }
        impl<A, B> Clone for $name<A, B> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<A, B> Copy for $name<A, B> {}
        impl<A: GmmaMajor, B: GmmaMajor> Default for $name<A, B> {
            #[inline(always)]
            fn default() -> Self {
                Self::new()
            }
        }
        impl<A: GmmaMajor, B: GmmaMajor> MmaAtom for $name<A, B> {
            type ValTypeD = f32;
            type ValTypeA = $elt;
            type ValTypeB = $elt;
            type ValTypeC = f32;
            type FrgTypeA = $frga;
            type FrgTypeB = SmemDesc<B>;
            type M = _64;
            type N = $nt;
            type K = _16;
            type Shape_MNK = (_64, $nt, _16);
            type ThrID = Layout<_128, _1>;
            type ALayout = $alay;
            type BLayout = GmmaABLayout<$nt>;
            type CLayout = GmmaCLayout<$n8>;
            const OP: MmaOp = MmaOp::Gmma {
                n: $n,
                types: GmmaTypes::$ty,
                rs: $rs,
                a: crate::cute::atom::gmma::value_major::<A>(),
                b: crate::cute::atom::gmma::value_major::<B>(),
            };
        }
    };
}

macro_rules! gmma_all {
    ($($n:literal, $nt:ident, $n8:ident, $bss:ident, $brs:ident, $hss:ident, $hrs:ident;)*) => {$(
        gmma_struct!($bss, $n, $nt, $n8, F32BF16BF16, bfloat16_t, false, SmemDesc<A>, GmmaABLayout<_64>, {}, "A and B from shared memory");
        gmma_struct!($brs, $n, $nt, $n8, F32BF16BF16, bfloat16_t, true, Registers, GmmaALayout64x16, { RsMajorCheck::<A>::OK }, "A from registers (must be [`MajorK`]), B from shared memory");
        gmma_struct!($hss, $n, $nt, $n8, F32F16F16, half_t, false, SmemDesc<A>, GmmaABLayout<_64>, {}, "A and B from shared memory");
        gmma_struct!($hrs, $n, $nt, $n8, F32F16F16, half_t, true, Registers, GmmaALayout64x16, { RsMajorCheck::<A>::OK }, "A from registers (must be [`MajorK`]), B from shared memory");
    )*};
}

gmma_all! {
    8, _8, _1, SM90_64x8x16_F32BF16BF16_SS, SM90_64x8x16_F32BF16BF16_RS, SM90_64x8x16_F32F16F16_SS, SM90_64x8x16_F32F16F16_RS;
    16, _16, _2, SM90_64x16x16_F32BF16BF16_SS, SM90_64x16x16_F32BF16BF16_RS, SM90_64x16x16_F32F16F16_SS, SM90_64x16x16_F32F16F16_RS;
    24, _24, _3, SM90_64x24x16_F32BF16BF16_SS, SM90_64x24x16_F32BF16BF16_RS, SM90_64x24x16_F32F16F16_SS, SM90_64x24x16_F32F16F16_RS;
    32, _32, _4, SM90_64x32x16_F32BF16BF16_SS, SM90_64x32x16_F32BF16BF16_RS, SM90_64x32x16_F32F16F16_SS, SM90_64x32x16_F32F16F16_RS;
    40, _40, _5, SM90_64x40x16_F32BF16BF16_SS, SM90_64x40x16_F32BF16BF16_RS, SM90_64x40x16_F32F16F16_SS, SM90_64x40x16_F32F16F16_RS;
    48, _48, _6, SM90_64x48x16_F32BF16BF16_SS, SM90_64x48x16_F32BF16BF16_RS, SM90_64x48x16_F32F16F16_SS, SM90_64x48x16_F32F16F16_RS;
    56, _56, _7, SM90_64x56x16_F32BF16BF16_SS, SM90_64x56x16_F32BF16BF16_RS, SM90_64x56x16_F32F16F16_SS, SM90_64x56x16_F32F16F16_RS;
    64, _64, _8, SM90_64x64x16_F32BF16BF16_SS, SM90_64x64x16_F32BF16BF16_RS, SM90_64x64x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS;
    72, _72, _9, SM90_64x72x16_F32BF16BF16_SS, SM90_64x72x16_F32BF16BF16_RS, SM90_64x72x16_F32F16F16_SS, SM90_64x72x16_F32F16F16_RS;
    80, _80, _10, SM90_64x80x16_F32BF16BF16_SS, SM90_64x80x16_F32BF16BF16_RS, SM90_64x80x16_F32F16F16_SS, SM90_64x80x16_F32F16F16_RS;
    88, _88, _11, SM90_64x88x16_F32BF16BF16_SS, SM90_64x88x16_F32BF16BF16_RS, SM90_64x88x16_F32F16F16_SS, SM90_64x88x16_F32F16F16_RS;
    96, _96, _12, SM90_64x96x16_F32BF16BF16_SS, SM90_64x96x16_F32BF16BF16_RS, SM90_64x96x16_F32F16F16_SS, SM90_64x96x16_F32F16F16_RS;
    104, _104, _13, SM90_64x104x16_F32BF16BF16_SS, SM90_64x104x16_F32BF16BF16_RS, SM90_64x104x16_F32F16F16_SS, SM90_64x104x16_F32F16F16_RS;
    112, _112, _14, SM90_64x112x16_F32BF16BF16_SS, SM90_64x112x16_F32BF16BF16_RS, SM90_64x112x16_F32F16F16_SS, SM90_64x112x16_F32F16F16_RS;
    120, _120, _15, SM90_64x120x16_F32BF16BF16_SS, SM90_64x120x16_F32BF16BF16_RS, SM90_64x120x16_F32F16F16_SS, SM90_64x120x16_F32F16F16_RS;
    128, _128, _16, SM90_64x128x16_F32BF16BF16_SS, SM90_64x128x16_F32BF16BF16_RS, SM90_64x128x16_F32F16F16_SS, SM90_64x128x16_F32F16F16_RS;
    136, _136, _17, SM90_64x136x16_F32BF16BF16_SS, SM90_64x136x16_F32BF16BF16_RS, SM90_64x136x16_F32F16F16_SS, SM90_64x136x16_F32F16F16_RS;
    144, _144, _18, SM90_64x144x16_F32BF16BF16_SS, SM90_64x144x16_F32BF16BF16_RS, SM90_64x144x16_F32F16F16_SS, SM90_64x144x16_F32F16F16_RS;
    152, _152, _19, SM90_64x152x16_F32BF16BF16_SS, SM90_64x152x16_F32BF16BF16_RS, SM90_64x152x16_F32F16F16_SS, SM90_64x152x16_F32F16F16_RS;
    160, _160, _20, SM90_64x160x16_F32BF16BF16_SS, SM90_64x160x16_F32BF16BF16_RS, SM90_64x160x16_F32F16F16_SS, SM90_64x160x16_F32F16F16_RS;
    168, _168, _21, SM90_64x168x16_F32BF16BF16_SS, SM90_64x168x16_F32BF16BF16_RS, SM90_64x168x16_F32F16F16_SS, SM90_64x168x16_F32F16F16_RS;
    176, _176, _22, SM90_64x176x16_F32BF16BF16_SS, SM90_64x176x16_F32BF16BF16_RS, SM90_64x176x16_F32F16F16_SS, SM90_64x176x16_F32F16F16_RS;
    184, _184, _23, SM90_64x184x16_F32BF16BF16_SS, SM90_64x184x16_F32BF16BF16_RS, SM90_64x184x16_F32F16F16_SS, SM90_64x184x16_F32F16F16_RS;
    192, _192, _24, SM90_64x192x16_F32BF16BF16_SS, SM90_64x192x16_F32BF16BF16_RS, SM90_64x192x16_F32F16F16_SS, SM90_64x192x16_F32F16F16_RS;
    200, _200, _25, SM90_64x200x16_F32BF16BF16_SS, SM90_64x200x16_F32BF16BF16_RS, SM90_64x200x16_F32F16F16_SS, SM90_64x200x16_F32F16F16_RS;
    208, _208, _26, SM90_64x208x16_F32BF16BF16_SS, SM90_64x208x16_F32BF16BF16_RS, SM90_64x208x16_F32F16F16_SS, SM90_64x208x16_F32F16F16_RS;
    216, _216, _27, SM90_64x216x16_F32BF16BF16_SS, SM90_64x216x16_F32BF16BF16_RS, SM90_64x216x16_F32F16F16_SS, SM90_64x216x16_F32F16F16_RS;
    224, _224, _28, SM90_64x224x16_F32BF16BF16_SS, SM90_64x224x16_F32BF16BF16_RS, SM90_64x224x16_F32F16F16_SS, SM90_64x224x16_F32F16F16_RS;
    232, _232, _29, SM90_64x232x16_F32BF16BF16_SS, SM90_64x232x16_F32BF16BF16_RS, SM90_64x232x16_F32F16F16_SS, SM90_64x232x16_F32F16F16_RS;
    240, _240, _30, SM90_64x240x16_F32BF16BF16_SS, SM90_64x240x16_F32BF16BF16_RS, SM90_64x240x16_F32F16F16_SS, SM90_64x240x16_F32F16F16_RS;
    248, _248, _31, SM90_64x248x16_F32BF16BF16_SS, SM90_64x248x16_F32BF16BF16_RS, SM90_64x248x16_F32F16F16_SS, SM90_64x248x16_F32F16F16_RS;
    256, _256, _32, SM90_64x256x16_F32BF16BF16_SS, SM90_64x256x16_F32BF16BF16_RS, SM90_64x256x16_F32F16F16_SS, SM90_64x256x16_F32F16F16_RS;
}

// 8-bit GMMA atoms
/// `GMMA::ABLayout<MN, K>` of any K: `(_128, (MN, K)):(_0, (_1, MN))`.
pub type GmmaABLayoutK<MN, K> = Layout<(_128, (MN, K)), (_0, (_1, MN))>;
/// `GMMA::ALayout_64x32`: a register-sourced A of 8-bit elements (four K-consecutive values in
/// each 32-bit register).
pub type GmmaALayout64x32 =
    Layout<((_4, _8, _4), (_4, _2, _2)), ((_256, _1, _16), (_64, _8, _1024))>;

macro_rules! gmma_fp8_struct {
    ($name:ident, $n:literal, $nt:ident, $n8:ident, $ty:ident, $ea:ty, $eb:ty, $rs:literal, $frga:ty, $alay:ty, $what:literal) => {
        #[doc = concat!("CuTe's `", stringify!($name), "`: `wgmma.mma_async.m64n", stringify!($n),
                        "k32` with 8-bit inputs, ", $what, "; both operands K-major (the instruction has no transpose for 8-bit types).")]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl $name {
            /// The atom (zero-sized).
            ///
            /// ```
            /// use layout_types::cute::atom::mma::*;
            #[doc = concat!("let a = ", stringify!($name), "::new();")]
            /// assert_eq!(core::mem::size_of_val(&a), 0);
            #[doc = concat!("assert_eq!(<", stringify!($name), " as MmaAtom>::OP.to_string(), \"", stringify!($name), "\");")]
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name
            }
        }
        impl MmaAtom for $name {
            type ValTypeD = f32;
            type ValTypeA = $ea;
            type ValTypeB = $eb;
            type ValTypeC = f32;
            type FrgTypeA = $frga;
            type FrgTypeB = SmemDesc<MajorK>;
            type M = _64;
            type N = $nt;
            type K = _32;
            type Shape_MNK = (_64, $nt, _32);
            type ThrID = Layout<_128, _1>;
            type ALayout = $alay;
            type BLayout = GmmaABLayoutK<$nt, _32>;
            type CLayout = GmmaCLayout<$n8>;
            const OP: MmaOp = MmaOp::Gmma {
                n: $n,
                types: GmmaTypes::$ty,
                rs: $rs,
                a: crate::value::mma::Major::K,
                b: crate::value::mma::Major::K,
            };
        }
    };
}

macro_rules! gmma_fp8_all {
    ($($n:literal, $nt:ident, $n8:ident, [$($ty:ident, $ea:ty, $eb:ty, $ss:ident, $rsn:ident;)*])*) => {$($(
        gmma_fp8_struct!($ss, $n, $nt, $n8, $ty, $ea, $eb, false, SmemDesc<MajorK>, GmmaABLayoutK<_64, _32>, "A and B from shared memory");
        gmma_fp8_struct!($rsn, $n, $nt, $n8, $ty, $ea, $eb, true, Registers, GmmaALayout64x32, "A from registers, B from shared memory");
    )*)*};
}

gmma_fp8_all! {
    8, _8, _1, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x8x32_F32E4M3E4M3_SS_TN, SM90_64x8x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x8x32_F32E4M3E5M2_SS_TN, SM90_64x8x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x8x32_F32E5M2E4M3_SS_TN, SM90_64x8x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x8x32_F32E5M2E5M2_SS_TN, SM90_64x8x32_F32E5M2E5M2_RS_TN;
    ]
    16, _16, _2, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x16x32_F32E4M3E4M3_SS_TN, SM90_64x16x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x16x32_F32E4M3E5M2_SS_TN, SM90_64x16x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x16x32_F32E5M2E4M3_SS_TN, SM90_64x16x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x16x32_F32E5M2E5M2_SS_TN, SM90_64x16x32_F32E5M2E5M2_RS_TN;
    ]
    24, _24, _3, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x24x32_F32E4M3E4M3_SS_TN, SM90_64x24x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x24x32_F32E4M3E5M2_SS_TN, SM90_64x24x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x24x32_F32E5M2E4M3_SS_TN, SM90_64x24x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x24x32_F32E5M2E5M2_SS_TN, SM90_64x24x32_F32E5M2E5M2_RS_TN;
    ]
    32, _32, _4, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x32x32_F32E4M3E4M3_SS_TN, SM90_64x32x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x32x32_F32E4M3E5M2_SS_TN, SM90_64x32x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x32x32_F32E5M2E4M3_SS_TN, SM90_64x32x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x32x32_F32E5M2E5M2_SS_TN, SM90_64x32x32_F32E5M2E5M2_RS_TN;
    ]
    40, _40, _5, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x40x32_F32E4M3E4M3_SS_TN, SM90_64x40x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x40x32_F32E4M3E5M2_SS_TN, SM90_64x40x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x40x32_F32E5M2E4M3_SS_TN, SM90_64x40x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x40x32_F32E5M2E5M2_SS_TN, SM90_64x40x32_F32E5M2E5M2_RS_TN;
    ]
    48, _48, _6, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x48x32_F32E4M3E4M3_SS_TN, SM90_64x48x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x48x32_F32E4M3E5M2_SS_TN, SM90_64x48x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x48x32_F32E5M2E4M3_SS_TN, SM90_64x48x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x48x32_F32E5M2E5M2_SS_TN, SM90_64x48x32_F32E5M2E5M2_RS_TN;
    ]
    56, _56, _7, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x56x32_F32E4M3E4M3_SS_TN, SM90_64x56x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x56x32_F32E4M3E5M2_SS_TN, SM90_64x56x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x56x32_F32E5M2E4M3_SS_TN, SM90_64x56x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x56x32_F32E5M2E5M2_SS_TN, SM90_64x56x32_F32E5M2E5M2_RS_TN;
    ]
    64, _64, _8, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x64x32_F32E4M3E4M3_SS_TN, SM90_64x64x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x64x32_F32E4M3E5M2_SS_TN, SM90_64x64x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x64x32_F32E5M2E4M3_SS_TN, SM90_64x64x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x64x32_F32E5M2E5M2_SS_TN, SM90_64x64x32_F32E5M2E5M2_RS_TN;
    ]
    72, _72, _9, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x72x32_F32E4M3E4M3_SS_TN, SM90_64x72x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x72x32_F32E4M3E5M2_SS_TN, SM90_64x72x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x72x32_F32E5M2E4M3_SS_TN, SM90_64x72x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x72x32_F32E5M2E5M2_SS_TN, SM90_64x72x32_F32E5M2E5M2_RS_TN;
    ]
    80, _80, _10, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x80x32_F32E4M3E4M3_SS_TN, SM90_64x80x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x80x32_F32E4M3E5M2_SS_TN, SM90_64x80x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x80x32_F32E5M2E4M3_SS_TN, SM90_64x80x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x80x32_F32E5M2E5M2_SS_TN, SM90_64x80x32_F32E5M2E5M2_RS_TN;
    ]
    88, _88, _11, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x88x32_F32E4M3E4M3_SS_TN, SM90_64x88x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x88x32_F32E4M3E5M2_SS_TN, SM90_64x88x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x88x32_F32E5M2E4M3_SS_TN, SM90_64x88x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x88x32_F32E5M2E5M2_SS_TN, SM90_64x88x32_F32E5M2E5M2_RS_TN;
    ]
    96, _96, _12, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x96x32_F32E4M3E4M3_SS_TN, SM90_64x96x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x96x32_F32E4M3E5M2_SS_TN, SM90_64x96x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x96x32_F32E5M2E4M3_SS_TN, SM90_64x96x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x96x32_F32E5M2E5M2_SS_TN, SM90_64x96x32_F32E5M2E5M2_RS_TN;
    ]
    104, _104, _13, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x104x32_F32E4M3E4M3_SS_TN, SM90_64x104x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x104x32_F32E4M3E5M2_SS_TN, SM90_64x104x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x104x32_F32E5M2E4M3_SS_TN, SM90_64x104x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x104x32_F32E5M2E5M2_SS_TN, SM90_64x104x32_F32E5M2E5M2_RS_TN;
    ]
    112, _112, _14, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x112x32_F32E4M3E4M3_SS_TN, SM90_64x112x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x112x32_F32E4M3E5M2_SS_TN, SM90_64x112x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x112x32_F32E5M2E4M3_SS_TN, SM90_64x112x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x112x32_F32E5M2E5M2_SS_TN, SM90_64x112x32_F32E5M2E5M2_RS_TN;
    ]
    120, _120, _15, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x120x32_F32E4M3E4M3_SS_TN, SM90_64x120x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x120x32_F32E4M3E5M2_SS_TN, SM90_64x120x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x120x32_F32E5M2E4M3_SS_TN, SM90_64x120x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x120x32_F32E5M2E5M2_SS_TN, SM90_64x120x32_F32E5M2E5M2_RS_TN;
    ]
    128, _128, _16, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x128x32_F32E4M3E4M3_SS_TN, SM90_64x128x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x128x32_F32E4M3E5M2_SS_TN, SM90_64x128x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x128x32_F32E5M2E4M3_SS_TN, SM90_64x128x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x128x32_F32E5M2E5M2_SS_TN, SM90_64x128x32_F32E5M2E5M2_RS_TN;
    ]
    136, _136, _17, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x136x32_F32E4M3E4M3_SS_TN, SM90_64x136x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x136x32_F32E4M3E5M2_SS_TN, SM90_64x136x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x136x32_F32E5M2E4M3_SS_TN, SM90_64x136x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x136x32_F32E5M2E5M2_SS_TN, SM90_64x136x32_F32E5M2E5M2_RS_TN;
    ]
    144, _144, _18, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x144x32_F32E4M3E4M3_SS_TN, SM90_64x144x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x144x32_F32E4M3E5M2_SS_TN, SM90_64x144x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x144x32_F32E5M2E4M3_SS_TN, SM90_64x144x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x144x32_F32E5M2E5M2_SS_TN, SM90_64x144x32_F32E5M2E5M2_RS_TN;
    ]
    152, _152, _19, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x152x32_F32E4M3E4M3_SS_TN, SM90_64x152x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x152x32_F32E4M3E5M2_SS_TN, SM90_64x152x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x152x32_F32E5M2E4M3_SS_TN, SM90_64x152x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x152x32_F32E5M2E5M2_SS_TN, SM90_64x152x32_F32E5M2E5M2_RS_TN;
    ]
    160, _160, _20, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x160x32_F32E4M3E4M3_SS_TN, SM90_64x160x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x160x32_F32E4M3E5M2_SS_TN, SM90_64x160x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x160x32_F32E5M2E4M3_SS_TN, SM90_64x160x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x160x32_F32E5M2E5M2_SS_TN, SM90_64x160x32_F32E5M2E5M2_RS_TN;
    ]
    168, _168, _21, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x168x32_F32E4M3E4M3_SS_TN, SM90_64x168x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x168x32_F32E4M3E5M2_SS_TN, SM90_64x168x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x168x32_F32E5M2E4M3_SS_TN, SM90_64x168x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x168x32_F32E5M2E5M2_SS_TN, SM90_64x168x32_F32E5M2E5M2_RS_TN;
    ]
    176, _176, _22, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x176x32_F32E4M3E4M3_SS_TN, SM90_64x176x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x176x32_F32E4M3E5M2_SS_TN, SM90_64x176x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x176x32_F32E5M2E4M3_SS_TN, SM90_64x176x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x176x32_F32E5M2E5M2_SS_TN, SM90_64x176x32_F32E5M2E5M2_RS_TN;
    ]
    184, _184, _23, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x184x32_F32E4M3E4M3_SS_TN, SM90_64x184x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x184x32_F32E4M3E5M2_SS_TN, SM90_64x184x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x184x32_F32E5M2E4M3_SS_TN, SM90_64x184x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x184x32_F32E5M2E5M2_SS_TN, SM90_64x184x32_F32E5M2E5M2_RS_TN;
    ]
    192, _192, _24, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x192x32_F32E4M3E4M3_SS_TN, SM90_64x192x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x192x32_F32E4M3E5M2_SS_TN, SM90_64x192x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x192x32_F32E5M2E4M3_SS_TN, SM90_64x192x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x192x32_F32E5M2E5M2_SS_TN, SM90_64x192x32_F32E5M2E5M2_RS_TN;
    ]
    200, _200, _25, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x200x32_F32E4M3E4M3_SS_TN, SM90_64x200x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x200x32_F32E4M3E5M2_SS_TN, SM90_64x200x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x200x32_F32E5M2E4M3_SS_TN, SM90_64x200x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x200x32_F32E5M2E5M2_SS_TN, SM90_64x200x32_F32E5M2E5M2_RS_TN;
    ]
    208, _208, _26, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x208x32_F32E4M3E4M3_SS_TN, SM90_64x208x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x208x32_F32E4M3E5M2_SS_TN, SM90_64x208x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x208x32_F32E5M2E4M3_SS_TN, SM90_64x208x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x208x32_F32E5M2E5M2_SS_TN, SM90_64x208x32_F32E5M2E5M2_RS_TN;
    ]
    216, _216, _27, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x216x32_F32E4M3E4M3_SS_TN, SM90_64x216x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x216x32_F32E4M3E5M2_SS_TN, SM90_64x216x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x216x32_F32E5M2E4M3_SS_TN, SM90_64x216x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x216x32_F32E5M2E5M2_SS_TN, SM90_64x216x32_F32E5M2E5M2_RS_TN;
    ]
    224, _224, _28, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x224x32_F32E4M3E4M3_SS_TN, SM90_64x224x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x224x32_F32E4M3E5M2_SS_TN, SM90_64x224x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x224x32_F32E5M2E4M3_SS_TN, SM90_64x224x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x224x32_F32E5M2E5M2_SS_TN, SM90_64x224x32_F32E5M2E5M2_RS_TN;
    ]
    232, _232, _29, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x232x32_F32E4M3E4M3_SS_TN, SM90_64x232x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x232x32_F32E4M3E5M2_SS_TN, SM90_64x232x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x232x32_F32E5M2E4M3_SS_TN, SM90_64x232x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x232x32_F32E5M2E5M2_SS_TN, SM90_64x232x32_F32E5M2E5M2_RS_TN;
    ]
    240, _240, _30, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x240x32_F32E4M3E4M3_SS_TN, SM90_64x240x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x240x32_F32E4M3E5M2_SS_TN, SM90_64x240x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x240x32_F32E5M2E4M3_SS_TN, SM90_64x240x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x240x32_F32E5M2E5M2_SS_TN, SM90_64x240x32_F32E5M2E5M2_RS_TN;
    ]
    248, _248, _31, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x248x32_F32E4M3E4M3_SS_TN, SM90_64x248x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x248x32_F32E4M3E5M2_SS_TN, SM90_64x248x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x248x32_F32E5M2E4M3_SS_TN, SM90_64x248x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x248x32_F32E5M2E5M2_SS_TN, SM90_64x248x32_F32E5M2E5M2_RS_TN;
    ]
    256, _256, _32, [
        F32E4M3E4M3, float_e4m3_t, float_e4m3_t, SM90_64x256x32_F32E4M3E4M3_SS_TN, SM90_64x256x32_F32E4M3E4M3_RS_TN;
        F32E4M3E5M2, float_e4m3_t, float_e5m2_t, SM90_64x256x32_F32E4M3E5M2_SS_TN, SM90_64x256x32_F32E4M3E5M2_RS_TN;
        F32E5M2E4M3, float_e5m2_t, float_e4m3_t, SM90_64x256x32_F32E5M2E4M3_SS_TN, SM90_64x256x32_F32E5M2E4M3_RS_TN;
        F32E5M2E5M2, float_e5m2_t, float_e5m2_t, SM90_64x256x32_F32E5M2E5M2_SS_TN, SM90_64x256x32_F32E5M2E5M2_RS_TN;
    ]
}

#[cfg(test)]
mod fp8_tests {
    extern crate std;
    use super::*;
    use crate::value::mma::MmaAtom as DynAtom;
    use std::string::ToString;

    /// The typed 8-bit atoms are the value algebra's (which `tests/differential.rs` checks
    /// against C++ CuTe: `tests/data/cute-tiled_mma_*_fp8.jsonl`), for every type pair, SS and
    /// RS, at a few N.
    #[test]
    fn typed_fp8_atoms_are_the_value_algebras() {
        fn check<G: MmaAtom>() {
            let d = DynAtom::new(G::OP).unwrap();
            assert_eq!(G::ALayout::default().to_string(), d.layout_a_tv.to_string());
            assert_eq!(G::BLayout::default().to_string(), d.layout_b_tv.to_string());
            assert_eq!(G::CLayout::default().to_string(), d.layout_c_tv.to_string());
            assert_eq!(
                crate::value::mma::MmaOp::parse(&G::OP.to_string()).unwrap(),
                G::OP,
                "{}",
                G::OP
            );
            assert_eq!((d.bits_a, d.bits_b), (8, 8));
        }
        check::<SM90_64x8x32_F32E4M3E4M3_SS_TN>();
        check::<SM90_64x8x32_F32E4M3E4M3_RS_TN>();
        check::<SM90_64x64x32_F32E4M3E5M2_SS_TN>();
        check::<SM90_64x128x32_F32E5M2E4M3_RS_TN>();
        check::<SM90_64x200x32_F32E5M2E5M2_SS_TN>();
        check::<SM90_64x256x32_F32E4M3E4M3_RS_TN>();
        assert_eq!(
            SM90_64x256x32_F32E4M3E4M3_RS_TN::OP.to_string(),
            "SM90_64x256x32_F32E4M3E4M3_RS_TN"
        );
        assert_eq!(
            <SM90_64x64x32_F32E4M3E4M3_RS_TN as MmaAtom>::ALayout::default().to_string(),
            "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))"
        );
    }

    /// Every 8-bit code decodes and re-encodes to itself (NaNs to NaN); rounding is to the
    /// nearest code, ties to the even one, saturating: checked against a search over all codes.
    #[test]
    fn fp8_conversions() {
        fn all(dec: fn(u8) -> f32, enc: fn(f32) -> u8, max: f32) {
            for c in 0..=255u8 {
                let x = dec(c);
                if x.is_nan() {
                    assert!(dec(enc(x)).is_nan());
                } else if x.is_finite() {
                    assert_eq!(enc(x), c, "code {c:#x} = {x}");
                }
            }
            let mut seed = 1u64;
            for i in 0..20000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mag = 2f32.powi((seed >> 59) as i32 - 18);
                let x = ((seed >> 32) as u32 as f32 / 4294967296.0 - 0.5) * mag * 2.0;
                let x = if i % 97 == 0 { max * 1.1 } else { x };
                let got = dec(enc(x));
                let mut best = f32::INFINITY;
                let mut best_c = 0u8;
                for c in 0..=255u8 {
                    let y = dec(c);
                    if !y.is_finite() {
                        continue;
                    }
                    let d = (y - x).abs();
                    if d < best || (d == best && c & 1 == 0) {
                        best = d;
                        best_c = c;
                    }
                }
                let want = if x.abs() > max {
                    max.copysign(x)
                } else {
                    dec(best_c)
                };
                assert!(
                    got == want || (got == 0.0 && want == 0.0),
                    "{x}: got {got}, want {want}"
                );
            }
        }
        all(
            |c| float_e4m3_t(c).to_f32(),
            |x| float_e4m3_t::from_f32(x).0,
            448.0,
        );
        all(
            |c| float_e5m2_t(c).to_f32(),
            |x| float_e5m2_t::from_f32(x).0,
            57344.0,
        );
    }
}
