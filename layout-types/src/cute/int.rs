//! Typed integers: a static integer is a zero-sized type whose value is a typenum integer
//! ([`C<T>`], written `_N` or [`Int<N>`]); a dynamic integer is a plain Rust integer (`i32`,
//! `i64`, `u32`, `u64`, `usize`, `isize`). Arithmetic is type-level: the result *type* of
//! `a * b` follows from the operand types, static when CuTe's result is static, with CuTe's
//! rules for mixing (`_0 * n` is `_0`, `n % _1` is `_0`, otherwise static × dynamic is dynamic).
//! After monomorphization only the arithmetic on dynamic values remains.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let a: _12 = int_mul(_3, _4);              // static × static: a static type
//! let n = 5i32;
//! let b: i32 = int_mul(_3, n);               // static × dynamic: dynamic
//! let z: _0 = int_mul(_0, n);                // _0 × anything: static _0
//! assert_eq!((a.value(), b, z.value()), (12, 15, 0));
//! assert_eq!(int_rem(n, _1).to_string(), "_0");
//! ```

use crate::value::int_tuple::Val;
use core::fmt;
use core::marker::PhantomData;
use typenum::{B0, B1, Bit, Integer, NInt, NonZero, PInt, UInt, UTerm, Unsigned, Z0};

/// A static integer (CuTe's `C<N>` / `Int<N>`): zero-sized, its value is the typenum integer `T`.
/// Prints `_N`.
pub struct C<T>(PhantomData<T>);

impl<T> C<T> {
    /// The (only) value of this type.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let x: _8 = C::new();
    /// assert_eq!(x.value(), 8);
    /// ```
    #[inline(always)]
    pub const fn new() -> Self {
        C(PhantomData)
    }
}
impl<T> Clone for C<T> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for C<T> {}
impl<T> Default for C<T> {
    #[inline(always)]
    fn default() -> Self {
        C::new()
    }
}
impl<T> PartialEq for C<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for C<T> {}
impl<T: Integer> fmt::Display for C<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{}", T::I64)
    }
}
impl<T: Integer> fmt::Debug for C<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{}", T::I64)
    }
}

/// Maps an unsigned typenum to the signed one (`U0` → `Z0`, `UN` → `PN`).
pub trait ToSigned {
    /// The signed integer.
    type Output: Integer;
}
impl ToSigned for UTerm {
    type Output = Z0;
}
impl<U: Unsigned, B: Bit> ToSigned for UInt<U, B>
where
    UInt<U, B>: Unsigned + NonZero,
{
    type Output = PInt<UInt<U, B>>;
}

/// `Int<N>`: the static integer `N` (`N` a `usize` literal that typenum maps: 0..=1024, powers of
/// two and of ten). Negative static values are written with typenum's `N1`, `N2`, ...: `C<N1>`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let x: Int<48> = C::new();
/// assert_eq!(x.to_string(), "_48");
/// let y: Int<4096> = int_mul(_64, _64);
/// assert_eq!(y.value(), 4096);
/// ```
pub type Int<const N: usize> =
    C<<<typenum::Const<N> as typenum::ToUInt>::Output as ToSigned>::Output>;

/// Any integer of a layout: static ([`C<T>`]) or dynamic (a Rust integer).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer of a layout: use `_N` / `Int<N>` (static) or a Rust integer (dynamic)"
)]
pub trait Integral: Copy + fmt::Debug + 'static {
    /// Whether the value is known to the type (CuTe's `is_static`).
    const IS_STATIC: bool;
    /// The value of a static integer (0 for a dynamic one), usable in `const` context.
    const STATIC_VALUE: i64;
    /// Whether the type is wider than 32 bits (offsets of such types move pointers directly).
    const WIDE: bool = false;
    /// The value.
    fn value(self) -> i64;
    /// The value with its static mark (for printing and for comparing with the value algebra).
    #[inline(always)]
    fn to_val(self) -> Val {
        if Self::IS_STATIC {
            Val::st(self.value())
        } else {
            Val::dy(self.value())
        }
    }
}

/// A static integer: the value is the type.
pub trait StaticInt: Integral + Default {
    /// The typenum integer.
    type N: Integer;
    /// The value.
    const VALUE: i64 = <Self::N as Integer>::I64;
}

impl<T: Integer + 'static> Integral for C<T> {
    const IS_STATIC: bool = true;
    const STATIC_VALUE: i64 = T::I64;
    #[inline(always)]
    fn value(self) -> i64 {
        T::I64
    }
}
impl<T: Integer + 'static> StaticInt for C<T> {
    type N = T;
}

impl<T: Integer + 'static> C<T> {
    /// The value.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!(_32.value(), 32);
    /// ```
    #[inline(always)]
    pub const fn value(self) -> i64 {
        T::I64
    }
}

/// A dynamic integer: a Rust integer type, its value known at run time only.
pub trait DynInt:
    Integral
    + PartialOrd
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Div<Output = Self>
    + core::ops::Rem<Output = Self>
{
    /// Converts a constant (static operand) to this type; folded after inlining.
    fn from_i64(v: i64) -> Self;
}

macro_rules! dyn_ints {
    ($($t:ty),*) => {$(
        impl Integral for $t {
            const IS_STATIC: bool = false;
            const STATIC_VALUE: i64 = 0;
            const WIDE: bool = core::mem::size_of::<$t>() > 4;
            #[inline(always)]
            fn value(self) -> i64 { self as i64 }
        }
        impl DynInt for $t {
            #[inline(always)]
            fn from_i64(v: i64) -> Self { v as $t }
        }
    )*};
}
dyn_ints!(i32, i64, u32, u64, usize, isize);

/// The dynamic type of an operation on two dynamic integers: the type itself when both are the
/// same, `i64` otherwise.
pub trait Promote<B> {
    /// The result type.
    type Output: DynInt;
}
macro_rules! promote_same {
    ($($t:ty),*) => {$( impl Promote<$t> for $t { type Output = $t; } )*};
}
promote_same!(i32, i64, u32, u64, usize, isize);
macro_rules! promote_pairs {
    ($a:ty; $($b:ty),*) => {$( impl Promote<$b> for $a { type Output = i64; } )*};
}
promote_pairs!(i32; i64, u32, u64, usize, isize);
promote_pairs!(i64; i32, u32, u64, usize, isize);
promote_pairs!(u32; i32, i64, u64, usize, isize);
promote_pairs!(u64; i32, i64, u32, usize, isize);
promote_pairs!(usize; i32, i64, u32, u64, isize);
promote_pairs!(isize; i32, i64, u32, u64, usize);

// ---------------------------------------------------------------------------------------------
// Binary operations
// ---------------------------------------------------------------------------------------------

macro_rules! dyn_op {
    (int_add, $a:expr, $b:expr) => {
        $a + $b
    };
    (int_sub, $a:expr, $b:expr) => {
        $a - $b
    };
    (int_mul, $a:expr, $b:expr) => {
        $a * $b
    };
    (int_div, $a:expr, $b:expr) => {
        $a / $b
    };
    (int_rem, $a:expr, $b:expr) => {
        $a % $b
    };
    (int_min, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        if a < b { a } else { b }
    }};
    (int_max, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        if a > b { a } else { b }
    }};
}

macro_rules! binop_traits {
    ($($(#[$m:meta])* $tr:ident $f:ident $alias:ident;)*) => {$(
        $(#[$m])*
        pub trait $tr<B> {
            /// The result type (an [`Integral`] for integers; an arithmetic tuple for basis
            /// strides, see [`super::arith`]).
            type Output: Copy + fmt::Debug + 'static;
            /// The operation.
            fn $f(self, b: B) -> Self::Output;
        }
        #[doc = concat!("The result type of [`", stringify!($tr), "`].")]
        pub type $alias<A, B> = <A as $tr<B>>::Output;

        impl<A: DynInt + Promote<B>, B: DynInt> $tr<B> for A {
            type Output = <A as Promote<B>>::Output;
            #[inline(always)]
            fn $f(self, b: B) -> Self::Output {
                type P<A, B> = <A as Promote<B>>::Output;
                dyn_op!($f, P::<A, B>::from_i64(self.value()), P::<A, B>::from_i64(b.value()))
            }
        }
    )*};
}

binop_traits! {
    /// `a + b`: static when both are.
    IntAdd int_add Sum;
    /// `a - b`: static when both are.
    IntSub int_sub Diff;
    /// `a * b`: static when both are, or when either is `_0`.
    IntMul int_mul Prod;
    /// `a / b` (truncating): static when both are, or when `a` is `_0`.
    IntDiv int_div Quot;
    /// `a % b`: static when both are, when `b` is `_1`/`_-1`, or when `a` is `_0`.
    IntRem int_rem Mod;
    /// `min(a, b)`: static when both are.
    IntMin int_min Minimum;
    /// `max(a, b)`: static when both are.
    IntMax int_max Maximum;
}

// static ∘ static: typenum arithmetic.
impl<A: Integer + core::ops::Add<B> + 'static, B: Integer + 'static> IntAdd<C<B>> for C<A>
where
    <A as core::ops::Add<B>>::Output: Integer + 'static,
{
    type Output = C<<A as core::ops::Add<B>>::Output>;
    #[inline(always)]
    fn int_add(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + core::ops::Sub<B> + 'static, B: Integer + 'static> IntSub<C<B>> for C<A>
where
    <A as core::ops::Sub<B>>::Output: Integer + 'static,
{
    type Output = C<<A as core::ops::Sub<B>>::Output>;
    #[inline(always)]
    fn int_sub(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + core::ops::Mul<B> + 'static, B: Integer + 'static> IntMul<C<B>> for C<A>
where
    <A as core::ops::Mul<B>>::Output: Integer + 'static,
{
    type Output = C<<A as core::ops::Mul<B>>::Output>;
    #[inline(always)]
    fn int_mul(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + core::ops::Div<B> + 'static, B: Integer + 'static> IntDiv<C<B>> for C<A>
where
    <A as core::ops::Div<B>>::Output: Integer + 'static,
{
    type Output = C<<A as core::ops::Div<B>>::Output>;
    #[inline(always)]
    fn int_div(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + core::ops::Rem<B> + 'static, B: Integer + 'static> IntRem<C<B>> for C<A>
where
    <A as core::ops::Rem<B>>::Output: Integer + 'static,
{
    type Output = C<<A as core::ops::Rem<B>>::Output>;
    #[inline(always)]
    fn int_rem(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + typenum::Min<B> + 'static, B: Integer + 'static> IntMin<C<B>> for C<A>
where
    <A as typenum::Min<B>>::Output: Integer + 'static,
{
    type Output = C<<A as typenum::Min<B>>::Output>;
    #[inline(always)]
    fn int_min(self, _: C<B>) -> Self::Output {
        C::new()
    }
}
impl<A: Integer + typenum::Max<B> + 'static, B: Integer + 'static> IntMax<C<B>> for C<A>
where
    <A as typenum::Max<B>>::Output: Integer + 'static,
{
    type Output = C<<A as typenum::Max<B>>::Output>;
    #[inline(always)]
    fn int_max(self, _: C<B>) -> Self::Output {
        C::new()
    }
}

// static ∘ dynamic and dynamic ∘ static where the result is always dynamic.
macro_rules! mixed_dynamic {
    ($($tr:ident $f:ident;)*) => {$(
        impl<A: Integer + 'static, D: DynInt> $tr<D> for C<A> {
            type Output = D;
            #[inline(always)]
            fn $f(self, b: D) -> D {
                dyn_op!($f, D::from_i64(A::I64), b)
            }
        }
    )*};
}
mixed_dynamic! {
    IntAdd int_add;
    IntSub int_sub;
    IntMin int_min;
    IntMax int_max;
}
macro_rules! dynamic_mixed {
    ($($tr:ident $f:ident;)*) => {$(
        impl<D: DynInt, B: Integer + 'static> $tr<C<B>> for D {
            type Output = D;
            #[inline(always)]
            fn $f(self, _: C<B>) -> D {
                dyn_op!($f, self, D::from_i64(B::I64))
            }
        }
    )*};
}
dynamic_mixed! {
    IntAdd int_add;
    IntSub int_sub;
    IntMin int_min;
    IntMax int_max;
    IntDiv int_div;
}

/// Dispatch on a static integer's value for the mixed cases that CuTe keeps static: `_0`
/// (products, quotients and remainders of zero) and `_1`/`_-1` (remainders by one).
pub trait StaticCase: Integer + 'static {
    /// `self * d` (and `d * self`): `_0` stays static.
    type MulDyn<D: DynInt>: Integral;
    /// `self * d`.
    fn mul_dyn<D: DynInt>(d: D) -> Self::MulDyn<D>;
    /// `self / d` and `self % d`: `_0` stays static.
    type ZeroOrDyn<D: DynInt>: Integral;
    /// `self / d`.
    fn div_dyn<D: DynInt>(d: D) -> Self::ZeroOrDyn<D>;
    /// `self % d`.
    fn rem_dyn<D: DynInt>(d: D) -> Self::ZeroOrDyn<D>;
    /// `d % self`: `_0` when `self` is `_1` or `_-1`.
    type RemBy<D: DynInt>: Integral;
    /// `d % self`.
    fn rem_by<D: DynInt>(d: D) -> Self::RemBy<D>;
    /// Whether the value is `_1` (a typenum bit, for type-level decisions).
    type IsOne: Bit;
    /// Whether the value is `_0`.
    type IsZero: Bit;
}

/// A compile error for `d % _0` (only when instantiated).
struct RemByZero<D>(PhantomData<D>);
impl<D> RemByZero<D> {
    const FAIL: () = panic!("remainder by the static zero _0");
}

impl StaticCase for Z0 {
    type MulDyn<D: DynInt> = C<Z0>;
    #[inline(always)]
    fn mul_dyn<D: DynInt>(_: D) -> C<Z0> {
        C::new()
    }
    type ZeroOrDyn<D: DynInt> = C<Z0>;
    #[inline(always)]
    fn div_dyn<D: DynInt>(_: D) -> C<Z0> {
        C::new()
    }
    #[inline(always)]
    fn rem_dyn<D: DynInt>(_: D) -> C<Z0> {
        C::new()
    }
    type RemBy<D: DynInt> = D;
    fn rem_by<D: DynInt>(_: D) -> D {
        #[allow(clippy::let_unit_value)]
        let () = RemByZero::<D>::FAIL;
        unreachable!()
    }
    type IsOne = B0;
    type IsZero = B1;
}

/// Whether an unsigned typenum is 1 (`UInt<UTerm, B1>`).
pub trait UIsOne {
    /// `B1` for 1.
    type B: Bit + RemOneAny;
}
impl UIsOne for UInt<UTerm, B1> {
    type B = B1;
}
impl<U, B, B2> UIsOne for UInt<UInt<U, B>, B2> {
    type B = B0;
}

macro_rules! nonzero_case {
    ($($int:ident),*) => {$(
        impl<U: Unsigned + NonZero + UIsOne + 'static> StaticCase for $int<U>
        where
            <U as UIsOne>::B: RemOneAny,
        {
            type MulDyn<D: DynInt> = D;
            #[inline(always)]
            fn mul_dyn<D: DynInt>(d: D) -> D {
                D::from_i64(Self::I64) * d
            }
            type ZeroOrDyn<D: DynInt> = D;
            #[inline(always)]
            fn div_dyn<D: DynInt>(d: D) -> D {
                D::from_i64(Self::I64) / d
            }
            #[inline(always)]
            fn rem_dyn<D: DynInt>(d: D) -> D {
                D::from_i64(Self::I64) % d
            }
            type RemBy<D: DynInt> = <<U as UIsOne>::B as RemOneAny>::Out<D>;
            #[inline(always)]
            fn rem_by<D: DynInt>(d: D) -> Self::RemBy<D> {
                <<U as UIsOne>::B as RemOneAny>::rem(d, Self::I64)
            }
            type IsOne = nonzero_case!(@one $int U);
            type IsZero = B0;
        }
    )*};
    (@one PInt $u:ident) => { <$u as UIsOne>::B };
    (@one NInt $u:ident) => { B0 };
}

/// `n % by` for every dynamic type at once, chosen by whether the static divisor is one (`n % _1` is `_0`, as in CuTe).
pub trait RemOneAny {
    /// The remainder's type.
    type Out<D: DynInt>: Integral;
    /// The remainder.
    fn rem<D: DynInt>(d: D, by: i64) -> Self::Out<D>;
}
impl RemOneAny for B1 {
    type Out<D: DynInt> = C<Z0>;
    #[inline(always)]
    fn rem<D: DynInt>(_: D, _: i64) -> C<Z0> {
        C::new()
    }
}
impl RemOneAny for B0 {
    type Out<D: DynInt> = D;
    #[inline(always)]
    fn rem<D: DynInt>(d: D, by: i64) -> D {
        d % D::from_i64(by)
    }
}
nonzero_case!(PInt, NInt);

impl<A: StaticCase, D: DynInt> IntMul<D> for C<A> {
    type Output = A::MulDyn<D>;
    #[inline(always)]
    fn int_mul(self, d: D) -> Self::Output {
        A::mul_dyn(d)
    }
}
impl<D: DynInt, B: StaticCase> IntMul<C<B>> for D {
    type Output = B::MulDyn<D>;
    #[inline(always)]
    fn int_mul(self, _: C<B>) -> Self::Output {
        B::mul_dyn(self)
    }
}
impl<A: StaticCase, D: DynInt> IntDiv<D> for C<A> {
    type Output = A::ZeroOrDyn<D>;
    #[inline(always)]
    fn int_div(self, d: D) -> Self::Output {
        A::div_dyn(d)
    }
}
impl<A: StaticCase, D: DynInt> IntRem<D> for C<A> {
    type Output = A::ZeroOrDyn<D>;
    #[inline(always)]
    fn int_rem(self, d: D) -> Self::Output {
        A::rem_dyn(d)
    }
}
impl<D: DynInt, B: StaticCase> IntRem<C<B>> for D {
    type Output = B::RemBy<D>;
    #[inline(always)]
    fn int_rem(self, _: C<B>) -> Self::Output {
        B::rem_by(self)
    }
}

/// `a + b` on typed integers (see [`IntAdd`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_add(_2, _3).to_string(), "_5");
/// assert_eq!(int_add(_2, 3i64), 5);
/// ```
#[inline(always)]
pub fn int_add<A: IntAdd<B>, B>(a: A, b: B) -> Sum<A, B> {
    a.int_add(b)
}
/// `a - b` on typed integers (see [`IntSub`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_sub(_5, _3).to_string(), "_2");
/// assert_eq!(int_sub(5u32, _3), 2);
/// ```
#[inline(always)]
pub fn int_sub<A: IntSub<B>, B>(a: A, b: B) -> Diff<A, B> {
    a.int_sub(b)
}
/// `a * b` on typed integers (see [`IntMul`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_mul(_4, _8).to_string(), "_32");
/// assert_eq!(int_mul(7i32, _0).to_string(), "_0");
/// ```
#[inline(always)]
pub fn int_mul<A: IntMul<B>, B>(a: A, b: B) -> Prod<A, B> {
    a.int_mul(b)
}
/// `a / b` on typed integers (see [`IntDiv`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_div(_8, _2).to_string(), "_4");
/// assert_eq!(int_div(9i32, _2), 4);
/// ```
#[inline(always)]
pub fn int_div<A: IntDiv<B>, B>(a: A, b: B) -> Quot<A, B> {
    a.int_div(b)
}
/// `a % b` on typed integers (see [`IntRem`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_rem(_7, _4).to_string(), "_3");
/// assert_eq!(int_rem(7i32, _4), 3);
/// ```
#[inline(always)]
pub fn int_rem<A: IntRem<B>, B>(a: A, b: B) -> Mod<A, B> {
    a.int_rem(b)
}
/// `min(a, b)` on typed integers.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_min(_2, _3).to_string(), "_2");
/// assert_eq!(int_min(_2, 3i32), 2);
/// ```
#[inline(always)]
pub fn int_min<A: IntMin<B>, B>(a: A, b: B) -> Minimum<A, B> {
    a.int_min(b)
}
/// `max(a, b)` on typed integers.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(int_max(_2, _3).to_string(), "_3");
/// assert_eq!(int_max(_2, 3i32), 3);
/// ```
#[inline(always)]
pub fn int_max<A: IntMax<B>, B>(a: A, b: B) -> Maximum<A, B> {
    a.int_max(b)
}

/// `ceil_div(a, b) = (a + b - _1) / b` with CuTe's marks.
pub trait CeilDiv<B> {
    /// The result type.
    type Output: Integral;
    /// The quotient, rounded up.
    fn ceil_div(self, b: B) -> Self::Output;
}
impl<A, B: Copy> CeilDiv<B> for A
where
    A: IntAdd<B>,
    Quot<Diff<Sum<A, B>, C<PInt<UInt<UTerm, B1>>>>, B>: Integral,
    Sum<A, B>: IntSub<C<PInt<UInt<UTerm, B1>>>>,
    Diff<Sum<A, B>, C<PInt<UInt<UTerm, B1>>>>: IntDiv<B>,
{
    type Output = Quot<Diff<Sum<A, B>, C<PInt<UInt<UTerm, B1>>>>, B>;
    #[inline(always)]
    fn ceil_div(self, b: B) -> Self::Output {
        self.int_add(b).int_sub(C::new()).int_div(b)
    }
}

/// Type-level facts about an integer used by the algebra's decisions (which C++ CuTe takes on
/// static values only): whether it is the static `_1` or `_0`.
pub trait IntFacts: Integral {
    /// `B1` when this is the static `_1`.
    type IsOne: Bit;
    /// `B1` when this is the static `_0`.
    type IsZero: Bit;
}
impl<T: StaticCase> IntFacts for C<T> {
    type IsOne = T::IsOne;
    type IsZero = T::IsZero;
}
macro_rules! dyn_facts {
    ($($t:ty),*) => {$( impl IntFacts for $t { type IsOne = B0; type IsZero = B0; } )*};
}
dyn_facts!(i32, i64, u32, u64, usize, isize);
