//! CuTe's Tiler concept on typed values: what the divides take as their second argument.
//!
//! A tiler is
//! - a layout (`layout!((_32, _8):(_1, _32))`): it tiles the whole layout;
//! - an integer `N` (static or dynamic): the layout `N:_1` (CuTe's `make_layout(N)`: `_1:_0`
//!   for the static `_1`);
//! - `_` ([`Underscore`]): the whole mode, untouched;
//! - a tuple of tilers, one a mode (CuTe's `make_tile(l0, l1, ...)`, printed `[l0,l1]` by the
//!   corpus): a shape `(_32, _8)` is the tuple of its extents; modes may be layouts
//!   (`(layout!(_4:_2), layout!(_8:_1))`), integers, `_`, or tuples again (a tuple tiler mode
//!   divides the sub-modes of a nested mode).
//!
//! [`TilerMode::K`] says which ([`IntK`], [`LayK`], [`UnderK`] or [`TupK`]), and
//! [`TilerTuple`] turns a tuple tiler into a list, for the by-mode recursions.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let l = layout!((_8, _12):(_1, _8));
//! // a shape, a tuple of layouts, and a mix
//! assert_eq!(logical_divide(l, (_4, _3)).to_string(), "((_4,_2),(_3,_4)):((_1,_4),(_8,_24))");
//! let t = (layout!(_4:_2), layout!(_3:_4));
//! assert_eq!(logical_divide(l, t).to_string(), "((_4,_2),(_3,_4)):((_2,_1),(_32,_8))");
//! // a tuple in a tuple divides the sub-modes of a nested mode (CuTe's
//! // `make_tile(make_tile(l0, l1), t1)`; the texts are C++ CuTe's)
//! let n = layout!(((_4, _6), _8):((_1, _4), _24));
//! let t = ((layout!(_2:_2), layout!(_3:_1)), Underscore);
//! assert_eq!(logical_divide(n, t).to_string(), "(((_2,_2),(_3,_2)),_8):(((_2,_1),(_4,_12)),_24)");
//! let t = ((layout!(_2:_2), layout!(_3:_1)), _4);
//! let z = zipped_divide(n, t);
//! assert_eq!(z.to_string(), "(((_2,_3),_4),((_2,_2),_2)):(((_2,_4),_24),((_1,_12),_96))");
//! let f = flat_divide(n, t);
//! assert_eq!(f.to_string(), "((_2,_3),_4,(_2,_2),_2):((_2,_4),_24,(_1,_12),_96)");
//! ```

use super::int::C;
use super::layout::Layout;
use super::static_result::SBit;
use super::tuple::IntTuple;
use super::tuple::Underscore;
use super::tuple::{HCons, HNil, IntK, TupK, UnderK, hlist_pat, hlist_ty};
use crate::value::algebra::{Tiler, TilerMode as VMode};
use crate::{value::int_tuple::IntTuple as Value, value::layout::DynLayout};
use typenum::{B0, B1};

/// Kind of a layout used as a tiler (see [`TilerMode`]).
pub struct LayK;

/// A tiler or a mode of a by-mode tiler: an integer, `_`, a layout, or a tuple of tiler modes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a CuTe tiler: a tiler is a layout, an integer (`_N` or a Rust integer), `_`, or a tuple of tilers (one a mode)"
)]
pub trait TilerMode: Copy + 'static + IsShapeT {
    /// [`IntK`], [`LayK`], [`UnderK`] or [`TupK`].
    type K;
    /// `B1` when every part of the tiler is static and the value algebra's [`Tiler`] can express
    /// it (a tuple mode inside a tuple must be a shape): then the typed operations check a fully
    /// static call with the value algebra at compile time ([`TilerMode::TILER`]) instead of
    /// monomorphizing their run-time code.
    type IsStatic: SBit;
    /// Static and, as a mode of a tuple tiler, expressible by the value algebra (a tuple mode
    /// must be a shape), as a type.
    type AsMode: SBit;
    /// [`TilerMode::IsStatic`] as a value.
    const STATIC: bool = <Self::IsStatic as SBit>::B;
    /// As one mode of a by-mode tiler: its kind and layout (meaningful when [`TilerMode::STATIC`]).
    const MODE: (VMode, DynLayout);
    /// As a whole tiler, in the value algebra (meaningful when [`TilerMode::STATIC`]).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use layout_types::cute::tiler::TilerMode;
    /// type T = (_4, Layout<(_2, _3), (_1, _8)>, Underscore);
    /// assert!(T::STATIC);
    /// assert_eq!(T::TILER.shape().to_string(), "(_4,_6,_)");
    /// assert!(!<(_4, i32) as TilerMode>::STATIC);
    /// ```
    const TILER: Tiler;
}
/// The tiler `N:_1` of the integer `n`.
const fn int_mode(n: Value) -> (VMode, DynLayout) {
    (VMode::Int, DynLayout::raw(n, Value::st(1)))
}
const fn whole(t: Result<Tiler, crate::Error>) -> Tiler {
    match t {
        Ok(t) => t,
        Err(e) => e.panic(),
    }
}
impl<T: typenum::Integer + 'static> TilerMode for C<T> {
    type K = IntK;
    type IsStatic = B1;
    type AsMode = B1;
    const MODE: (VMode, DynLayout) = int_mode(Value::st(T::I64));
    const TILER: Tiler = whole(Tiler::from_shape(&Value::st(T::I64)));
}
macro_rules! dyn_tiler {
    ($($t:ty),*) => {$( impl TilerMode for $t {
        type K = IntK;
        type IsStatic = B0;
        type AsMode = B0;
        const MODE: (VMode, DynLayout) = int_mode(Value::dy(0));
        const TILER: Tiler = Tiler::under();
    } )*};
}
dyn_tiler!(i32, i64, u32, u64, usize, isize);
impl TilerMode for Underscore {
    type K = UnderK;
    type IsStatic = B1;
    type AsMode = B1;
    const MODE: (VMode, DynLayout) = (VMode::Under, DynLayout::raw(Value::under(), Value::st(0)));
    const TILER: Tiler = Tiler::under();
}
impl<S: IntTuple, D: IntTuple> TilerMode for Layout<S, D> {
    type K = LayK;
    type IsStatic = <S::IsStatic as SBit>::And<D::IsStatic>;
    type AsMode = Self::IsStatic;
    const MODE: (VMode, DynLayout) = (VMode::Layout, DynLayout::raw(S::CONST, D::CONST));
    const TILER: Tiler = Tiler::layout(DynLayout::raw(S::CONST, D::CONST));
}

/// A tuple tiler as a list of its modes.
pub trait TilerTuple: TilerMode<K = TupK> {
    /// The modes as a list.
    type H;
    /// The modes as a list.
    fn tiler_h(self) -> Self::H;
}

/// `A::AsMode && B::AsMode && ...` as a type.
macro_rules! and_mode {
    ($a:ident) => { <$a as TilerMode>::AsMode };
    ($a:ident $($r:ident)+) => { <<$a as TilerMode>::AsMode as SBit>::And<and_mode!($($r)+)> };
}
/// `A::B && B::B && ...` ([`IsShapeT`]) as a type.
macro_rules! and_shape {
    ($a:ident) => { <$a as IsShapeT>::B };
    ($a:ident $($r:ident)+) => { <<$a as IsShapeT>::B as SBit>::And<and_shape!($($r)+)> };
}
/// Whether a tiler is a shape (integers, `_` and tuples of them; no layout), as a type.
pub trait IsShapeT {
    /// `B1` for a shape.
    type B: SBit;
}
impl<T: typenum::Integer + 'static> IsShapeT for C<T> {
    type B = B1;
}
macro_rules! dyn_shape {
    ($($t:ty),*) => {$( impl IsShapeT for $t { type B = B1; } )*};
}
dyn_shape!(i32, i64, u32, u64, usize, isize);
impl IsShapeT for Underscore {
    type B = B1;
}
impl<S, D> IsShapeT for Layout<S, D> {
    type B = B0;
}
macro_rules! tiler_tuples {
    ($(($($n:ident)+))*) => {$(
        impl<$($n: IsShapeT),+> IsShapeT for ($($n,)+) {
            type B = and_shape!($($n)+);
        }
        impl<$($n: TilerMode + IsShapeT),+> TilerMode for ($($n,)+) {
            type K = TupK;
            type IsStatic = and_mode!($($n)+);
            type AsMode = <Self::IsStatic as SBit>::And<<Self as IsShapeT>::B>;
            const MODE: (VMode, DynLayout) = {
                let mut s = Value::empty();
                $( s.push(&$n::MODE.1.shape); )+
                let d = s.repeat_like(&Value::st(1));
                (VMode::Shape, DynLayout::raw(s, d))
            };
            const TILER: Tiler = {
                let mut t = Tiler::by_mode();
                $( let (k, l) = $n::MODE; if let Err(e) = t.push_kind(k, &l.shape, &l.stride) { e.panic() } )+
                t
            };
        }
        #[allow(non_snake_case)]
        impl<$($n: TilerMode + IsShapeT),+> TilerTuple for ($($n,)+) {
            type H = hlist_ty!($($n)+);
            #[inline(always)]
            fn tiler_h(self) -> Self::H {
                let ($($n,)+) = self;
                hlist_pat!($($n)+)
            }
        }
    )*};
}
tiler_tuples! {
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
