//! Fully static calls of the typed algebra: checked by the value algebra at compile time,
//! never monomorphized.
//!
//! A typed operation (`composition`, `complement`, the divides and products, `tile_to_shape`)
//! computes its result *type* in the trait solver, and its run-time body is a tree of small
//! generic functions that moves the dynamic leaves along. When every input is static the result
//! is a zero-sized type and that tree has nothing to do, but instantiating it costs the compiler
//! about as much again as the type itself (it normalizes every function's signature). So each
//! operation first asks whether its inputs are all static ([`crate::cute::tuple::IntTuple::STATIC`],
//! [`crate::cute::tiler::TilerMode::STATIC`]); if they are, it returns `static_result()` and the
//! compiler, which skips code under a constant-false branch when it collects what to
//! instantiate, never instantiates the run-time tree. CuTe's conditions (divisibility,
//! injectivity, ...) that the tree checks in `const` blocks are then checked by the same
//! operation of the value algebra on the inputs' constant values (`check`), with its message.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! // static: a zero-sized result, computed by the types alone
//! let z = zipped_divide(layout!((_64, _16):(_16, _1)), (_8, _4));
//! assert_eq!(core::mem::size_of_val(&z), 0);
//! assert_eq!(z.to_string(), "((_8,_4),(_8,_4)):((_16,_1),(_128,_4))");
//! // mixed: the run-time code moves the dynamic leaves
//! let n = 48i32;
//! assert_eq!(zipped_divide(layout!((_64, n):(_1, _64)), (_8, _4)).to_string(), "((_8,_4),(_8,12)):((_1,_64),(_8,_256))");
//! ```

/// A type-level boolean of the typed layer (`B1`: every input of a call is static): it picks, at
/// the type level, between the run-time body of an operation and its `static_result()`, so the
/// body is never instantiated for a fully static call.
pub trait SBit: Copy + 'static {
    /// `Self && R`.
    type And<R: SBit>: SBit;
    /// The value.
    const B: bool;
    /// `B1`: the result type's only value (the body `f` is not instantiated); `B0`: `f()`.
    fn run<O, F: FnOnce() -> O>(f: F) -> O;
}
impl SBit for typenum::B1 {
    type And<R: SBit> = R;
    const B: bool = true;
    #[inline(always)]
    fn run<O, F: FnOnce() -> O>(_: F) -> O {
        static_result()
    }
}
impl SBit for typenum::B0 {
    type And<R: SBit> = typenum::B0;
    const B: bool = false;
    #[inline(always)]
    fn run<O, F: FnOnce() -> O>(f: F) -> O {
        f()
    }
}

/// The only value of the result type `T` of a fully static call (a zero-sized type: a layout
/// whose leaves are all static). A compile error if `T` has a size (a dynamic leaf).
#[inline(always)]
pub(crate) fn static_result<T>() -> T {
    const {
        assert!(
            core::mem::size_of::<T>() == 0,
            "internal: a fully static typed call has a result with dynamic leaves"
        )
    };
    // SAFETY: `T` is zero-sized and inhabited (every typed result is a struct of static
    // integers, tuples and markers), so it has exactly one value, which has no bytes.
    unsafe { core::mem::zeroed() }
}

/// Panics (at compile time, in a `const` block) with the value algebra's error: the condition
/// CuTe states and the values.
pub(crate) const fn check<T: Copy>(r: Result<T, crate::Error>) {
    if let Err(e) = r {
        e.panic()
    }
}

/// `Self && R && ...` of [`SBit`]s, as a type.
macro_rules! sand {
    ($a:ty) => { $a };
    ($a:ty, $($r:ty),+) => { <$a as $crate::cute::static_result::SBit>::And<$crate::cute::static_result::sand!($($r),+)> };
}
pub(crate) use sand;

/// The body of a typed operation with its static fast path:
/// `static_call!(int: [S, D, ...], tiler: [T, ...], check: <value-algebra Result>, <body>)`:
/// when every `int` type ([`IntTuple`](crate::cute::tuple::IntTuple)) and `tiler` type
/// ([`TilerMode`](crate::cute::tiler::TilerMode)) is static, `check` runs at compile time and
/// the body is not instantiated; otherwise the body runs.
macro_rules! static_call {
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
pub(crate) const fn value_of(s: crate::IntTuple, d: crate::IntTuple) -> crate::DynLayout {
    crate::DynLayout::raw(s, d)
}
