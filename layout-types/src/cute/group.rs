//! `group<B, E>`: the modes `[B, E)` of a tuple (or of a layout's shape and stride) gathered
//! into one mode, in place (CuTe's `group<B, E>` of `tuple_algorithms.hpp` / `layout.hpp`). As in
//! CuTe, `E = -1` means "to the end", `B == E` leaves the tuple as it is, a leaf is one mode (so
//! `group::<0, 1, _>(_8:_1)` is `((_8)):((_1))`), and `B > E` or `E` past the last mode fail to
//! compile.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let l = layout!((_2, 3i32, _4, _5):(_1, _2, 6i32, _24));
//! assert_eq!(l.group::<1, 3>().to_string(), "(_2,(3,_4),_5):(_1,(_2,6),_24)");
//! assert_eq!(group::<2, -1, _>(l).to_string(), "(_2,3,(_4,_5)):(_1,_2,(6,_24))");
//! assert_eq!(group::<1, 3, _>((_2, 3i32, _4, _5)).to_string_cute(), "(_2,(3,_4),_5)");
//! ```

use super::layout::{Layout, WrapH};
use super::tuple::*;
use core::ops::Sub;
use typenum::{B0, B1, Diff, IsLess, Le, Sub1, UInt, UTerm, Unsigned};

/// A mode index of [`group`] (CuTe's `int` template argument) as a type.
pub struct Idx<const N: i32>;
/// The begin index `B` of [`group`] as a typenum unsigned (`0..=10`).
pub trait BeginU {
    /// The index.
    type U: Unsigned;
}
/// The end index `E` of [`group`] for a tuple of rank `R`: `-1` is `R`.
pub trait EndU<R> {
    /// The index.
    type U: Unsigned;
}
impl<R: Unsigned> EndU<R> for Idx<-1> {
    type U = R;
}
macro_rules! idx_u {
    ($($n:literal => $u:ident),*) => {$(
        impl BeginU for Idx<$n> { type U = typenum::$u; }
        impl<R> EndU<R> for Idx<$n> { type U = typenum::$u; }
    )*};
}
idx_u!(0 => U0, 1 => U1, 2 => U2, 3 => U3, 4 => U4, 5 => U5, 6 => U6, 7 => U7, 8 => U8, 9 => U9, 10 => U10);

/// A list split after its first `N` elements.
#[diagnostic::on_unimplemented(
    message = "group<B, E>: the tuple has fewer modes than the group's end (`E` must be at most the rank, or -1)"
)]
pub trait SplitAt<N> {
    /// The first `N` elements.
    type A;
    /// The others.
    type B;
    /// Both parts.
    fn split_at(self) -> (Self::A, Self::B);
}
impl<L> SplitAt<UTerm> for L {
    type A = HNil;
    type B = L;
    #[inline(always)]
    fn split_at(self) -> (HNil, L) {
        (HNil, self)
    }
}
impl<H, T, U, Bt> SplitAt<UInt<U, Bt>> for HCons<H, T>
where
    UInt<U, Bt>: Sub<B1>,
    T: SplitAt<Sub1<UInt<U, Bt>>>,
{
    type A = HCons<H, T::A>;
    type B = T::B;
    #[inline(always)]
    fn split_at(self) -> (Self::A, Self::B) {
        let (a, b) = self.1.split_at();
        (HCons(self.0, a), b)
    }
}

/// `group` on a list with typenum indices `B <= E`: `B1` (`B < E`) gathers, `B0` (`B == E`)
/// keeps the list.
pub trait GroupH<B, E> {
    /// The grouped list.
    type Output: HList;
    /// The grouped list.
    fn group_h(self) -> Self::Output;
}
impl<L, B: IsLess<E>, E> GroupH<B, E> for L
where
    Le<B, E>: GroupK<L, B, E>,
{
    type Output = <Le<B, E> as GroupK<L, B, E>>::Output;
    #[inline(always)]
    fn group_h(self) -> Self::Output {
        <Le<B, E> as GroupK<L, B, E>>::f(self)
    }
}
/// The step of [`GroupH`].
pub trait GroupK<L, B, E> {
    /// The grouped list.
    type Output: HList;
    /// The grouped list.
    fn f(l: L) -> Self::Output;
}
impl<L: HList, B, E> GroupK<L, B, E> for B0 {
    type Output = L;
    #[inline(always)]
    fn f(l: L) -> L {
        l
    }
}
type Mid<L, B, E> = <<L as SplitAt<B>>::B as SplitAt<Diff<E, B>>>::A;
type After<L, B, E> = <<L as SplitAt<B>>::B as SplitAt<Diff<E, B>>>::B;
impl<L, B, E> GroupK<L, B, E> for B1
where
    L: SplitAt<B>,
    E: Sub<B>,
    <L as SplitAt<B>>::B: SplitAt<Diff<E, B>>,
    Mid<L, B, E>: HList,
    <L as SplitAt<B>>::A: Concat<HCons<<Mid<L, B, E> as HList>::Tuple, After<L, B, E>>>,
    <<L as SplitAt<B>>::A as Concat<HCons<<Mid<L, B, E> as HList>::Tuple, After<L, B, E>>>>::Output:
        HList,
{
    type Output = <<L as SplitAt<B>>::A as Concat<
        HCons<<Mid<L, B, E> as HList>::Tuple, After<L, B, E>>,
    >>::Output;
    #[inline(always)]
    fn f(l: L) -> Self::Output {
        let (a, rest) = l.split_at();
        let (m, b) = rest.split_at();
        a.concat(HCons(m.into_tuple(), b))
    }
}

/// `group<B, E>(self)` (see [`group`]).
pub trait Group<const B: i32, const E: i32> {
    /// The grouped value.
    type Output: Copy;
    /// The grouped value.
    fn group_modes(self) -> Self::Output;
}
/// The typenum end index of `group<_, E>` on `T`.
pub type EndOf<const E: i32, T> = <Idx<E> as EndU<<<T as WrapH>::H as HLen>::L>>::U;
impl<const B: i32, const E: i32, T> Group<B, E> for T
where
    T: IntTuple + WrapH,
    T::H: HLen,
    Idx<B>: BeginU,
    Idx<E>: EndU<<T::H as HLen>::L>,
    T::H: GroupH<<Idx<B> as BeginU>::U, EndOf<E, T>>,
{
    type Output = <<T::H as GroupH<<Idx<B> as BeginU>::U, EndOf<E, T>>>::Output as HList>::Tuple;
    #[inline(always)]
    fn group_modes(self) -> Self::Output {
        const {
            if E != -1 && B > E {
                panic!(
                    "group<B, E>: B <= E (CuTe's static_assert: the group's begin is past its end)"
                )
            }
        }
        self.wrap_h().group_h().into_tuple()
    }
}
impl<const B: i32, const E: i32, S: Group<B, E>, D: Group<B, E>> Group<B, E> for Layout<S, D> {
    type Output = Layout<S::Output, D::Output>;
    #[inline(always)]
    fn group_modes(self) -> Self::Output {
        Layout {
            shape: self.shape.group_modes(),
            stride: self.stride.group_modes(),
        }
    }
}

/// `group<B, E>(t)`: modes `[B, E)` of a layout or an IntTuple as one mode (`E = -1`: to the
/// end). Call it as `group::<B, E, _>(t)`, or `layout.group::<B, E>()`.
///
/// ```
/// use layout_types::cute::prelude::*;
/// let l = layout!((_4, _8, 3i64):(_1, _4, _32));
/// assert_eq!(group::<0, 2, _>(l).to_string(), "((_4,_8),3):((_1,_4),_32)");
/// assert_eq!(group::<1, 1, _>(l).to_string(), "(_4,_8,3):(_1,_4,_32)");       // B == E: as it is
/// assert_eq!(group::<0, 1, _>(layout!(_8:_1)).to_string(), "((_8)):((_1))");  // a leaf is one mode
/// ```
#[inline(always)]
pub fn group<const B: i32, const E: i32, T: Group<B, E>>(t: T) -> T::Output {
    t.group_modes()
}

impl<S, D> Layout<S, D> {
    /// `group<B, E>(layout)`: modes `[B, E)` as one mode (see [`group`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// let l = layout!((_4, _8, _2):(_1, _4, _32));
    /// assert_eq!(l.group::<1, -1>().to_string(), "(_4,(_8,_2)):(_1,(_4,_32))");
    /// ```
    #[inline(always)]
    pub fn group<const B: i32, const E: i32>(self) -> <Self as Group<B, E>>::Output
    where
        Self: Group<B, E>,
    {
        self.group_modes()
    }
}
