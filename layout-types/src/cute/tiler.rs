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
use super::tuple::Underscore;
use super::tuple::{HCons, HNil, IntK, TupK, UnderK, hlist_pat, hlist_ty};

/// Kind of a layout used as a tiler (see [`TilerMode`]).
pub struct LayK;

/// A tiler or a mode of a by-mode tiler: an integer, `_`, a layout, or a tuple of tiler modes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a CuTe tiler: a tiler is a layout, an integer (`_N` or a Rust integer), `_`, or a tuple of tilers (one a mode)"
)]
pub trait TilerMode: Copy + 'static {
    /// [`IntK`], [`LayK`], [`UnderK`] or [`TupK`].
    type K;
}
impl<T: typenum::Integer + 'static> TilerMode for C<T> {
    type K = IntK;
}
macro_rules! dyn_tiler {
    ($($t:ty),*) => {$( impl TilerMode for $t { type K = IntK; } )*};
}
dyn_tiler!(i32, i64, u32, u64, usize, isize);
impl TilerMode for Underscore {
    type K = UnderK;
}
impl<S: Copy + 'static, D: Copy + 'static> TilerMode for Layout<S, D> {
    type K = LayK;
}

/// A tuple tiler as a list of its modes.
pub trait TilerTuple: TilerMode<K = TupK> {
    /// The modes as a list.
    type H;
    /// The modes as a list.
    fn tiler_h(self) -> Self::H;
}

macro_rules! tiler_tuples {
    ($(($($n:ident)+))*) => {$(
        impl<$($n: TilerMode),+> TilerMode for ($($n,)+) {
            type K = TupK;
        }
        #[allow(non_snake_case)]
        impl<$($n: TilerMode),+> TilerTuple for ($($n,)+) {
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
