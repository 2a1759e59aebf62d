//! Typed IntTuples: a leaf is a typed integer ([`Integral`]: static `_N` or a Rust integer), `_`
//! ([`Underscore`]) or `X`; a tuple is a Rust tuple of IntTuples, nested freely. Every operation
//! recurses over the *type* (internally as a heterogeneous list, [`HCons`]/[`HNil`]), so after
//! monomorphization nothing of the tree is left, only the arithmetic on dynamic leaves.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let s = (_4, (3i32, _2));
//! assert_eq!(s.to_string_cute(), "(_4,(3,_2))");
//! assert_eq!(product(s), 24);                     // dynamic: one leaf is dynamic
//! let p: _16 = product((_4, (_2, _2)));           // static: a type
//! assert_eq!(p.value(), 16);
//! assert_eq!(rank_of(s).value(), 2);
//! assert_eq!(depth_of(s).value(), 2);
//! ```

use super::consts::_1;
use super::int::*;
use super::static_result::{Recipe, SBit};
use core::fmt;
use typenum::{B1, Integer, Max, Maximum as TMaximum, U0, Unsigned};

/// CuTe's `X` (an Underscore) in a projection `Step`: "drop this mode".
///
/// ```
/// use layout_types::prelude::*;
/// let l = layout!((_128, _64, _32):(_1, _128, _8192));
/// assert_eq!(l.dice((_1, X, _1)).to_string(), "(_128,_32):(_1,_8192)");
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct X;

/// CuTe's `_` (Underscore) in a tiler or coordinate: "keep this mode".
///
/// ```
/// use layout_types::prelude::*;
/// let l = layout!((_4, _8):(_8, _1));
/// assert_eq!(l.slice((_3, Underscore)).to_string(), "(_8):(_1)");
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Underscore;

/// Kind of a leaf integer.
pub struct IntK;
/// Kind of a tuple.
pub struct TupK;
/// Kind of `_` / `X`.
pub struct UnderK;

/// A typed IntTuple (CuTe's IntTuple concept): an integer, `_`/`X`, or a tuple of IntTuples.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an IntTuple: leaves are `_N`/`Int<N>`, Rust integers, `Underscore` or `X`; tuples of those nest"
)]
pub trait IntTuple: Copy + fmt::Debug + 'static {
    /// [`IntK`], [`TupK`] or [`UnderK`].
    type Kind;
    /// CuTe's `is_static<T>` as a type (`B1` / `B0`): every leaf is a static `_N` (`_` counts as
    /// static).
    type IsStatic: SBit;
    /// [`IntTuple::IsStatic`] as a value.
    const STATIC: bool = <Self::IsStatic as SBit>::B;
    /// The value algebra's [`crate::value::int_tuple::IntTuple`] with its static marks; meaningful only when
    /// [`IntTuple::STATIC`] (a dynamic leaf has no compile-time value and reads `0`). The typed
    /// operations use it to check a fully static call with the value algebra at compile time
    /// instead of monomorphizing their run-time code (doc/compile-time.md).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// const V: layout_types::value::int_tuple::IntTuple = <(_8, (_2, _4)) as IntTuple>::CONST;
    /// assert_eq!(V.to_string(), "(_8,(_2,_4))");
    /// assert!(<(_8, (_2, _4)) as IntTuple>::STATIC && !<(_8, i32) as IntTuple>::STATIC);
    /// ```
    const CONST: crate::value::int_tuple::IntTuple;
    /// `B1` when every leaf is a static integer, a Rust integer, `_` or `X` (no arithmetic
    /// tuple): the leaves the linear path of [`crate::cute::static_result`] can carry.
    #[doc(hidden)]
    type Plain: SBit;
    /// Number of leaves (the defaults are a static leaf's).
    #[doc(hidden)]
    const LEAVES: usize = 1;
    /// Number of dynamic (Rust integer) leaves.
    #[doc(hidden)]
    const NDYN: usize = 0;
    /// Dynamic leaf `j` (in pre-order, counting dynamic leaves only) as an `i64`.
    #[doc(hidden)]
    #[inline(always)]
    fn dyn_at(&self, _j: usize) -> i64 {
        0
    }
    /// The value whose leaves `pos..pos + LEAVES` are given by `r` over the dynamic leaves of
    /// `src` (the linear path of [`crate::cute::static_result`]).
    #[doc(hidden)]
    #[inline(always)]
    fn from_recipe<L: IntTuple>(_r: &Recipe, _pos: usize, _src: &L) -> Self {
        super::static_result::static_result()
    }
    /// Writes CuTe's print text (`(_4,(3,_2))`).
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result;
    /// CuTe's print text as a value that implements `Display`.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// assert_eq!((_2, 5u32).to_string_cute(), "(_2,5)");
    /// ```
    fn to_string_cute(&self) -> Cute<Self> {
        Cute(*self)
    }
}

/// Displays an IntTuple in CuTe's print format.
#[derive(Clone, Copy)]
pub struct Cute<T>(pub T);
impl<T: IntTuple> fmt::Display for Cute<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt_cute(f)
    }
}
impl<T: IntTuple> PartialEq<&str> for Cute<T> {
    fn eq(&self, o: &&str) -> bool {
        struct Cmp<'a>(&'a str, bool);
        impl fmt::Write for Cmp<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.0.strip_prefix(s) {
                    Some(r) => self.0 = r,
                    None => self.1 = false,
                }
                Ok(())
            }
        }
        let mut c = Cmp(o, true);
        let _ = self.0.fmt_cute(&mut c);
        c.1 && c.0.is_empty()
    }
}
impl<T: IntTuple> fmt::Debug for Cute<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt_cute(f)
    }
}

impl<T: Integer + 'static> IntTuple for C<T> {
    type Kind = IntK;
    type IsStatic = typenum::B1;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::st(T::I64);
    type Plain = typenum::B1;
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "_{}", T::I64)
    }
}
macro_rules! dyn_leaf {
    ($($t:ty),*) => {$(
        impl IntTuple for $t {
            type Kind = IntK;
            type IsStatic = typenum::B0;
            const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::dy(0);
            type Plain = typenum::B1;
            const LEAVES: usize = 1;
            const NDYN: usize = 1;
            #[inline(always)]
            fn dyn_at(&self, _: usize) -> i64 {
                *self as i64
            }
            #[inline(always)]
            fn from_recipe<L: IntTuple>(r: &Recipe, pos: usize, src: &L) -> Self {
                r.eval(pos, |j| src.dyn_at(j)) as $t
            }
            fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
                write!(f, "{}", self)
            }
        }
    )*};
}
dyn_leaf!(i32, i64, u32, u64, usize, isize);
impl IntTuple for Underscore {
    type Kind = UnderK;
    type IsStatic = typenum::B1;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::under();
    type Plain = typenum::B1;
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str("_")
    }
}
impl IntTuple for X {
    type Kind = UnderK;
    type IsStatic = typenum::B1;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::x();
    type Plain = typenum::B1;
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str("X")
    }
}

/// The empty heterogeneous list.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct HNil;
/// A heterogeneous list: head and tail (the internal form of a tuple).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct HCons<H, T>(pub H, pub T);

/// A heterogeneous list that converts back to a Rust tuple.
pub trait HList: Copy + 'static {
    /// The tuple.
    type Tuple: Tuple<H = Self>;
    /// Back to the tuple.
    fn into_tuple(self) -> Self::Tuple;
}

/// A Rust tuple of IntTuples.
pub trait Tuple: IntTuple<Kind = TupK> {
    /// The list form.
    type H: HList<Tuple = Self>;
    /// Into the list form.
    fn into_h(self) -> Self::H;
}

impl IntTuple for () {
    type Kind = TupK;
    type IsStatic = typenum::B1;
    const CONST: crate::value::int_tuple::IntTuple = crate::value::int_tuple::IntTuple::empty();
    type Plain = typenum::B1;
    const LEAVES: usize = 0;
    fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str("()")
    }
}
impl Tuple for () {
    type H = HNil;
    #[inline(always)]
    fn into_h(self) -> HNil {
        HNil
    }
}
impl HList for HNil {
    type Tuple = ();
    #[inline(always)]
    fn into_tuple(self) {}
}

macro_rules! hlist_ty {
    () => { HNil };
    ($a:ident $($r:ident)*) => { HCons<$a, hlist_ty!($($r)*)> };
}
macro_rules! hlist_pat {
    () => { HNil };
    ($a:ident $($r:ident)*) => { HCons($a, hlist_pat!($($r)*)) };
}
// Shared with the other tuple-shaped traits of the typed layer (`tiler.rs`).
pub(crate) use {hlist_pat, hlist_ty};
/// `A::P && B::P && ...` as a type, for an [`SBit`] item `P` of [`IntTuple`] (`IsStatic`, `Plain`).
macro_rules! and_bits {
    ($p:ident; $a:ident) => { <$a as IntTuple>::$p };
    ($p:ident; $a:ident $($r:ident)+) => { <<$a as IntTuple>::$p as SBit>::And<and_bits!($p; $($r)+)> };
}
macro_rules! tuples {
    ($(($($n:ident)+))*) => {$(
        #[allow(non_snake_case)]
        impl<$($n: IntTuple),+> IntTuple for ($($n,)+) {
            type Kind = TupK;
            type IsStatic = and_bits!(IsStatic; $($n)+);
            const CONST: crate::value::int_tuple::IntTuple = {
                let mut t = crate::value::int_tuple::IntTuple::empty();
                $( t.push(&$n::CONST); )+
                t
            };
            type Plain = and_bits!(Plain; $($n)+);
            const LEAVES: usize = 0 $(+ $n::LEAVES)+;
            const NDYN: usize = 0 $(+ $n::NDYN)+;
            #[inline(always)]
            fn dyn_at(&self, j: usize) -> i64 {
                let ($($n,)+) = self;
                let mut k = j;
                $(
                    if k < $n::NDYN {
                        return $n.dyn_at(k);
                    }
                    k -= $n::NDYN;
                )+
                let _ = k;
                0
            }
            #[inline(always)]
            #[allow(unused_assignments)]
            fn from_recipe<L: IntTuple>(r: &Recipe, pos: usize, src: &L) -> Self {
                let mut p = pos;
                ($({
                    let v = $n::from_recipe(r, p, src);
                    p += $n::LEAVES;
                    v
                },)+)
            }
            fn fmt_cute(&self, f: &mut dyn fmt::Write) -> fmt::Result {
                let ($($n,)+) = self;
                f.write_str("(")?;
                let mut first = true;
                $(
                    if !first { f.write_str(",")?; }
                    first = false;
                    $n.fmt_cute(f)?;
                )+
                let _ = first;
                f.write_str(")")
            }
        }
        #[allow(non_snake_case)]
        impl<$($n: IntTuple),+> Tuple for ($($n,)+) {
            type H = hlist_ty!($($n)+);
            #[inline(always)]
            fn into_h(self) -> Self::H {
                let ($($n,)+) = self;
                hlist_pat!($($n)+)
            }
        }
        #[allow(non_snake_case)]
        impl<$($n: IntTuple),+> HList for hlist_ty!($($n)+) {
            type Tuple = ($($n,)+);
            #[inline(always)]
            fn into_tuple(self) -> Self::Tuple {
                let hlist_pat!($($n)+) = self;
                ($($n,)+)
            }
        }
    )*};
}

/// Length of a list, as a typenum unsigned.
pub trait HLen {
    /// The length.
    type L: Unsigned;
}
impl HLen for HNil {
    type L = U0;
}
impl<H, T: HLen> HLen for HCons<H, T>
where
    T::L: core::ops::Add<B1>,
    <T::L as core::ops::Add<B1>>::Output: Unsigned,
{
    type L = <T::L as core::ops::Add<B1>>::Output;
}

tuples! {
    (A)
    (A B)
    (A B C2)
    (A B C2 D)
    (A B C2 D E)
    (A B C2 D E F)
    (A B C2 D E F G)
    (A B C2 D E F G H)
    (A B C2 D E F G H I)
    (A B C2 D E F G H I J)
}

// ---------------------------------------------------------------------------------------------
// Concatenation (type level)
// ---------------------------------------------------------------------------------------------

/// `self ++ b` on lists.
pub trait Concat<B> {
    /// The concatenation.
    type Output;
    /// The concatenation.
    fn concat(self, b: B) -> Self::Output;
}
impl<B> Concat<B> for HNil {
    type Output = B;
    #[inline(always)]
    fn concat(self, b: B) -> B {
        b
    }
}
impl<H, T: Concat<B>, B> Concat<B> for HCons<H, T> {
    type Output = HCons<H, T::Output>;
    #[inline(always)]
    fn concat(self, b: B) -> Self::Output {
        HCons(self.0, self.1.concat(b))
    }
}

// ---------------------------------------------------------------------------------------------
// product / rank / depth
// ---------------------------------------------------------------------------------------------

/// `product(t)` (CuTe's `size` of a shape): the product of the leaves, typed.
pub trait Product: IntTuple {
    /// The product's type.
    type Output: Integral;
    /// The product.
    fn product(self) -> Self::Output;
}
impl<T: IntTuple> Product for T
where
    T::Kind: ProductK<T>,
{
    type Output = <T::Kind as ProductK<T>>::Output;
    #[inline(always)]
    fn product(self) -> Self::Output {
        <T::Kind as ProductK<T>>::product(self)
    }
}
/// Kind dispatch of [`Product`].
pub trait ProductK<T> {
    /// The product's type.
    type Output: Integral;
    /// The product.
    fn product(t: T) -> Self::Output;
}
impl<T: Integral> ProductK<T> for IntK {
    type Output = T;
    #[inline(always)]
    fn product(t: T) -> T {
        t
    }
}
impl<T: Tuple> ProductK<T> for TupK
where
    T::H: ProductH,
{
    type Output = <T::H as ProductH>::Output;
    #[inline(always)]
    fn product(t: T) -> Self::Output {
        t.into_h().product_h()
    }
}
/// [`Product`] of a list: `_1` for the empty list, else `p0 * p1 * ...` (left to right).
pub trait ProductH {
    /// The product's type.
    type Output: Integral;
    /// The product.
    fn product_h(self) -> Self::Output;
}
impl ProductH for HNil {
    type Output = _1;
    #[inline(always)]
    fn product_h(self) -> _1 {
        C::new()
    }
}
impl<H: Product> ProductH for HCons<H, HNil> {
    type Output = H::Output;
    #[inline(always)]
    fn product_h(self) -> Self::Output {
        self.0.product()
    }
}
impl<H: Product, H2, T> ProductH for HCons<H, HCons<H2, T>>
where
    HCons<H2, T>: ProductH,
    H::Output: IntMul<<HCons<H2, T> as ProductH>::Output>,
    Prod<H::Output, <HCons<H2, T> as ProductH>::Output>: Integral,
{
    type Output = Prod<H::Output, <HCons<H2, T> as ProductH>::Output>;
    #[inline(always)]
    fn product_h(self) -> Self::Output {
        self.0.product().int_mul(self.1.product_h())
    }
}

/// `product(t)`: the product of all leaves (`size` of a shape), static when every leaf is.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(product((_2, (_3, _4))).to_string(), "_24");
/// assert_eq!(product((_2, 3i32)), 6);
/// assert_eq!(product(()).to_string(), "_1");
/// ```
#[inline(always)]
pub fn product<T: Product>(t: T) -> T::Output {
    t.product()
}

/// `rank(t)` and `depth(t)`, as static integers.
pub trait RankDepth: IntTuple {
    /// Number of top-level modes (1 for a leaf).
    type Rank: Unsigned;
    /// Nesting depth (0 for a leaf).
    type Depth: Unsigned;
}
impl<T: IntTuple> RankDepth for T
where
    T::Kind: RankDepthK<T>,
{
    type Rank = <T::Kind as RankDepthK<T>>::Rank;
    type Depth = <T::Kind as RankDepthK<T>>::Depth;
}
/// Kind dispatch of [`RankDepth`].
pub trait RankDepthK<T> {
    /// Rank.
    type Rank: Unsigned;
    /// Depth.
    type Depth: Unsigned;
}
impl<T> RankDepthK<T> for IntK {
    type Rank = typenum::U1;
    type Depth = U0;
}
impl<T> RankDepthK<T> for UnderK {
    type Rank = typenum::U1;
    type Depth = U0;
}
impl<T: Tuple> RankDepthK<T> for TupK
where
    T::H: HLen + MaxDepth,
    <T::H as MaxDepth>::D: core::ops::Add<B1>,
    <<T::H as MaxDepth>::D as core::ops::Add<B1>>::Output: Unsigned,
{
    type Rank = <T::H as HLen>::L;
    type Depth = <<T::H as MaxDepth>::D as core::ops::Add<B1>>::Output;
}
/// The largest depth of a list's elements.
pub trait MaxDepth {
    /// The depth.
    type D: Unsigned;
}
impl MaxDepth for HNil {
    type D = U0;
}
impl<H: RankDepth, T: MaxDepth> MaxDepth for HCons<H, T>
where
    H::Depth: Max<T::D>,
    TMaximum<H::Depth, T::D>: Unsigned,
{
    type D = TMaximum<H::Depth, T::D>;
}

/// The static integer of a typenum unsigned.
pub type UC<U> = C<<U as ToSigned>::Output>;

/// `rank(t)`: the number of top-level modes, a static integer.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(rank_of((_2, (_3, _4), 5i32)).to_string(), "_3");
/// assert_eq!(rank_of(_7).to_string(), "_1");
/// ```
#[inline(always)]
pub fn rank_of<T: RankDepth>(_: T) -> UC<T::Rank>
where
    T::Rank: ToSigned,
{
    C::new()
}
/// `depth(t)`: the nesting depth, a static integer.
///
/// ```
/// use layout_types::cute::prelude::*;
/// assert_eq!(depth_of((_2, (_3, _4))).to_string(), "_2");
/// assert_eq!(depth_of(_7).to_string(), "_0");
/// ```
#[inline(always)]
pub fn depth_of<T: RankDepth>(_: T) -> UC<T::Depth>
where
    T::Depth: ToSigned,
{
    C::new()
}

/// Converts a typed IntTuple of integers to the value algebra's [`crate::value::int_tuple::IntTuple`] (static
/// marks kept), for comparison with the reference implementation.
pub trait ToValue {
    /// The value.
    fn to_value(&self) -> crate::value::int_tuple::IntTuple;
}
impl<T: Integer + 'static> ToValue for C<T> {
    fn to_value(&self) -> crate::value::int_tuple::IntTuple {
        crate::value::int_tuple::IntTuple::st(T::I64)
    }
}
macro_rules! dyn_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> crate::value::int_tuple::IntTuple { crate::value::int_tuple::IntTuple::dy(*self as i64) }
        }
    )*};
}
dyn_value!(i32, i64, u32, u64, usize, isize);
impl ToValue for Underscore {
    fn to_value(&self) -> crate::value::int_tuple::IntTuple {
        crate::value::int_tuple::IntTuple::under()
    }
}
impl ToValue for X {
    fn to_value(&self) -> crate::value::int_tuple::IntTuple {
        crate::value::int_tuple::IntTuple::x()
    }
}
impl ToValue for () {
    fn to_value(&self) -> crate::value::int_tuple::IntTuple {
        crate::value::int_tuple::IntTuple::empty()
    }
}
macro_rules! tuple_value {
    ($(($($n:ident)+))*) => {$(
        #[allow(non_snake_case)]
        impl<$($n: ToValue),+> ToValue for ($($n,)+) {
            fn to_value(&self) -> crate::value::int_tuple::IntTuple {
                let ($($n,)+) = self;
                let mut t = crate::value::int_tuple::IntTuple::empty();
                $( t.push(&$n.to_value()); )+
                t
            }
        }
    )*};
}
tuple_value! {
    (A)
    (A B)
    (A B C2)
    (A B C2 D)
    (A B C2 D E)
    (A B C2 D E F)
    (A B C2 D E F G)
    (A B C2 D E F G H)
    (A B C2 D E F G H I)
    (A B C2 D E F G H I J)
}

/// The top-level modes of a mode that is unpacked by `repeat<rank>(_)`: a tuple of rank ≥ 2
/// gives its modes; a leaf or a rank-1 tuple stays whole (CuTe's `repeat<1>(_)` is `_`).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cute::tuple::{HCons, Unpack};
/// let (HCons(a, HCons(b, _)), HCons(c, _)) = ((_2, 3i32).unpack(), _4.unpack());
/// assert_eq!((a.to_string(), b, c.to_string()), ("_2".to_string(), 3, "_4".to_string()));
/// ```
pub trait Unpack {
    /// The modes.
    type H;
    /// The modes.
    fn unpack(self) -> Self::H;
}
impl<T: IntTuple> Unpack for T
where
    T::Kind: UnpackK<T>,
{
    type H = <T::Kind as UnpackK<T>>::H;
    #[inline(always)]
    fn unpack(self) -> Self::H {
        <T::Kind as UnpackK<T>>::f(self)
    }
}
/// Kind dispatch of [`Unpack`].
pub trait UnpackK<T> {
    /// The modes.
    type H;
    /// The modes.
    fn f(t: T) -> Self::H;
}
impl<T> UnpackK<T> for IntK {
    type H = HCons<T, HNil>;
    #[inline(always)]
    fn f(t: T) -> Self::H {
        HCons(t, HNil)
    }
}
impl<T: Tuple> UnpackK<T> for TupK
where
    T::H: UnpackList<T>,
{
    type H = <T::H as UnpackList<T>>::H;
    #[inline(always)]
    fn f(t: T) -> Self::H {
        <T::H as UnpackList<T>>::f(t)
    }
}
/// [`Unpack`] of a tuple `T` by its list form.
pub trait UnpackList<T> {
    /// The modes.
    type H;
    /// The modes.
    fn f(t: T) -> Self::H;
}
impl<T, X> UnpackList<T> for HCons<X, HNil> {
    type H = HCons<T, HNil>;
    #[inline(always)]
    fn f(t: T) -> Self::H {
        HCons(t, HNil)
    }
}
impl<T: Tuple<H = HCons<X, HCons<Y, Z>>>, X, Y, Z> UnpackList<T> for HCons<X, HCons<Y, Z>> {
    type H = T::H;
    #[inline(always)]
    fn f(t: T) -> Self::H {
        t.into_h()
    }
}
