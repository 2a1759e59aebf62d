//! The typed operations' static fast path: `static_call!` runs an operation's check on the
//! value algebra at compile time when its inputs are static (and builds a linear result from a
//! [`Recipe`]), `value_of` is a typed layout's compile-time value,
//! [`FromRecipe`] a typed layout built from a recipe. Above [`layout`](super::layout),
//! [`tuple`](super::tuple) and [`tiler`](super::tiler), which it reads; below the operations
//! (coalesce, composition, complement, divides, products, inverses) that use it.

use super::static_result::{Recipe, static_result};

/// The body of a typed operation with its static fast path:
/// `static_call!(int: [S, D, ...], tiler: [T, ...], check: <value-algebra Result>, <body>)`:
/// when every `int` type ([`IntTuple`](crate::cute::tuple::IntTuple)) and `tiler` type
/// ([`TilerMode`](crate::cute::tiler::TilerMode)) is static, `check` runs at compile time and
/// the body is not instantiated; otherwise the body runs.
///
/// The linear form, `static_call!(int: [S, ...], tiler: [T, ...], linear: D = <value>, out:
/// <result type>, check: |d| <value-algebra Result of the call with `d` for D's constant>,
/// <body>)`: when the `int` and `tiler` types are static and `D` (a stride) has plain integer
/// leaves, the result is built from a `Recipe` over `D`'s dynamic leaves (or is the static
/// result when `D` is static too); otherwise the body runs.
macro_rules! static_call {
    (int: [$($i:ty),*], tiler: [$($t:ty),*], linear: $lt:ty = $lv:expr, out: $out:ty,
     check: |$d:ident| $check:expr, $body:expr) => {{
        const {
            if true $(&& <$i as $crate::cute::tuple::IntTuple>::STATIC)*
                $(&& <$t as $crate::cute::tiler::TilerMode>::STATIC)*
                && <$lt as $crate::cute::tuple::IntTuple>::STATIC
            {
                let $d = <$lt as $crate::cute::tuple::IntTuple>::CONST;
                $crate::cute::static_result::check($check)
            }
        };
        <$crate::cute::static_result::sand!(
            $(<$i as $crate::cute::tuple::IntTuple>::IsStatic,)*
            $(<$t as $crate::cute::tiler::TilerMode>::IsStatic,)*
            <$lt as $crate::cute::tuple::IntTuple>::Plain,
            typenum::B1
        ) as $crate::cute::static_result::SBit>::select(
            move || {
                <<$lt as $crate::cute::tuple::IntTuple>::IsStatic as $crate::cute::static_result::SBit>::run(
                    move || {
                        let r: &'static $crate::cute::static_result::Recipe = const {
                            let $d = $crate::cute::static_result::mark(
                                <$lt as $crate::cute::tuple::IntTuple>::CONST,
                            );
                            &$crate::cute::static_result::Recipe::new(
                                $check,
                                <$out as $crate::cute::static_call::FromRecipe>::SHAPE,
                                <$out as $crate::cute::static_call::FromRecipe>::STRIDE,
                            )
                        };
                        <$out as $crate::cute::static_call::FromRecipe>::from_recipe(r, &$lv)
                    },
                )
            },
            move || $body,
        )
    }};
    (int: [$($i:ty),*], tiler: [$($t:ty),*], check: $check:expr, $body:expr) => {{
        const {
            if true $(&& <$i as $crate::cute::tuple::IntTuple>::STATIC)*
                $(&& <$t as $crate::cute::tiler::TilerMode>::STATIC)*
            {
                $crate::cute::static_result::check($check)
            }
        };
        <$crate::cute::static_result::sand!(
            $(<$i as $crate::cute::tuple::IntTuple>::IsStatic,)*
            $(<$t as $crate::cute::tiler::TilerMode>::IsStatic,)*
            typenum::B1
        ) as $crate::cute::static_result::SBit>::run(move || $body)
    }};
}
pub(crate) use static_call;

/// The value algebra's layout of the typed `Layout<S, D>` (its compile-time value).
pub(crate) const fn value_of(
    s: crate::value::int_tuple::IntTuple,
    d: crate::value::int_tuple::IntTuple,
) -> crate::value::layout::DynLayout {
    crate::value::layout::DynLayout::raw(s, d)
}

/// A typed layout built from a [`Recipe`]: its shape is static, its stride leaves follow the
/// recipe.
#[doc(hidden)]
pub trait FromRecipe: Copy {
    /// The shape's `IntTuple::CONST`.
    const SHAPE: crate::value::int_tuple::IntTuple;
    /// The stride's `IntTuple::CONST`.
    const STRIDE: crate::value::int_tuple::IntTuple;
    /// The layout over the dynamic leaves of `src`.
    fn from_recipe<L: crate::cute::tuple::IntTuple>(r: &Recipe, src: &L) -> Self;
}
impl<S: crate::cute::tuple::IntTuple, D: crate::cute::tuple::IntTuple> FromRecipe
    for crate::cute::layout::Layout<S, D>
{
    const SHAPE: crate::value::int_tuple::IntTuple = S::CONST;
    const STRIDE: crate::value::int_tuple::IntTuple = D::CONST;
    #[inline(always)]
    fn from_recipe<L: crate::cute::tuple::IntTuple>(r: &Recipe, src: &L) -> Self {
        crate::cute::layout::Layout {
            shape: static_result(),
            stride: D::from_recipe(r, 0, src),
        }
    }
}
