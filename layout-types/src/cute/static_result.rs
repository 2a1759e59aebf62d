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
//! **The linear path.** A layout with static shapes and run-time strides (a tile of a global
//! tensor with a run-time leading dimension) divided or composed by a static tiler has a result
//! whose shape is static and whose every stride is a static integer times one input stride:
//! none of CuTe's decisions (which modes merge, what divides what) depends on a dynamic stride.
//! `composition` (for a dynamic left stride), `logical_divide`, `zipped_divide`,
//! `tiled_divide` and `flat_divide` therefore compute, at compile time, the value algebra's result
//! of the call with each dynamic stride replaced by a distinct large prime (`mark`); each result
//! stride then reads as `c · prime_j`, i.e. `c ·` input stride `j` (a `Recipe`). The run-time
//! code builds the result from the recipe: one multiplication per dynamic stride, and one small
//! generic function per node of the result type instead of the operation's tree. The typed
//! result type is still the trait solver's; the recipe must agree with it on every static leaf
//! (a compile-time assertion), and the kernels' PTX is byte-identical to the tree's.
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
//! // linear: static shapes, a run-time stride (the result's strides are multiples of `ld`)
//! let ld = 136i32;
//! let t = zipped_divide(layout!((_64, _32):(_1, ld)), (_8, _4));
//! assert_eq!(t.to_string(), "((_8,_4),(_8,_8)):((_1,136),(_8,544))");
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
    /// `B1`: `f()`; `B0`: `g()` (the other closure is not instantiated).
    fn select<O, F: FnOnce() -> O, G: FnOnce() -> O>(f: F, g: G) -> O;
}
impl SBit for typenum::B1 {
    type And<R: SBit> = R;
    const B: bool = true;
    #[inline(always)]
    fn run<O, F: FnOnce() -> O>(_: F) -> O {
        static_result()
    }
    #[inline(always)]
    fn select<O, F: FnOnce() -> O, G: FnOnce() -> O>(f: F, _: G) -> O {
        f()
    }
}
impl SBit for typenum::B0 {
    type And<R: SBit> = typenum::B0;
    const B: bool = false;
    #[inline(always)]
    fn run<O, F: FnOnce() -> O>(f: F) -> O {
        f()
    }
    #[inline(always)]
    fn select<O, F: FnOnce() -> O, G: FnOnce() -> O>(_: F, g: G) -> O {
        g()
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

// ---------------------------------------------------------------------------------------------
// The linear path: static shapes, dynamic strides
// ---------------------------------------------------------------------------------------------

/// The values that stand for the dynamic leaves of a linear input at compile time: distinct
/// primes above `2^30`, so a result leaf `c · MARKS[j]` (`|c| < 2^30`) names its input leaf `j`
/// and its static factor `c` unambiguously.
const MARKS: [i64; crate::value::int_tuple::CAP] = [
    1073741827, 1073741831, 1073741833, 1073741839, 1073741843, 1073741857, 1073741891, 1073741909,
    1073741939, 1073741953, 1073741969, 1073741971, 1073741987, 1073741993, 1073742037, 1073742053,
    1073742073, 1073742077, 1073742091, 1073742113, 1073742169, 1073742203, 1073742209, 1073742223,
    1073742233, 1073742259, 1073742277, 1073742289, 1073742343, 1073742353, 1073742361, 1073742391,
    1073742403, 1073742463, 1073742493, 1073742517, 1073742583, 1073742623, 1073742653, 1073742667,
    1073742671, 1073742673, 1073742707, 1073742713, 1073742721, 1073742731, 1073742767, 1073742773,
    1073742811, 1073742851, 1073742853, 1073742881, 1073742889, 1073742913, 1073742931, 1073742937,
    1073742959, 1073742983, 1073743007, 1073743037, 1073743049, 1073743051, 1073743079, 1073743091,
];
const MAX_FACTOR: i64 = 1 << 30;

/// One leaf of a linear result: a constant, or `factor · (dynamic input leaf j)`.
#[derive(Clone, Copy)]
enum RLeaf {
    Const(i64),
    Lin(usize, i64),
}

/// How the stride leaves of a linear call's result follow from the dynamic leaves of its input
/// (computed at compile time by the value algebra; see `static_call!`'s `linear` form).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Recipe {
    leaf: [RLeaf; crate::value::int_tuple::CAP],
}

impl Recipe {
    /// Result leaf `i` over the dynamic input leaves `dyn_at(j)`.
    #[inline(always)]
    pub fn eval(&self, i: usize, dyn_at: impl FnOnce(usize) -> i64) -> i64 {
        match self.leaf[i] {
            RLeaf::Const(v) => v,
            RLeaf::Lin(j, c) => dyn_at(j).wrapping_mul(c),
        }
    }

    /// The recipe of the value algebra's result `r` of a call whose dynamic input leaves were
    /// `mark`ed, for the typed result with static shape `shape` and stride `stride` (their
    /// `IntTuple::CONST`s). The typed and the value algebra's results must agree on every static
    /// leaf; a result leaf that is not `c · mark` is not linear.
    pub(crate) const fn new(
        r: Result<crate::value::layout::DynLayout, crate::Error>,
        shape: crate::value::int_tuple::IntTuple,
        stride: crate::value::int_tuple::IntTuple,
    ) -> Recipe {
        let l = match r {
            Ok(l) => l,
            Err(e) => e.panic(),
        };
        let (ns, nd) = (shape.leaf_count(), stride.leaf_count());
        assert!(
            l.shape.leaf_count() == ns && l.stride.leaf_count() == nd,
            "internal: the typed result and the value algebra's differ in rank"
        );
        let mut i = 0;
        while i < ns {
            let (t, v) = (shape.leaf_at(i), l.shape.leaf_at(i));
            assert!(
                t.s && t.v == v.v,
                "internal: a linear call's result shape is not the value algebra's"
            );
            i += 1;
        }
        let mut leaf = [RLeaf::Const(0); crate::value::int_tuple::CAP];
        i = 0;
        while i < nd {
            let (t, v) = (stride.leaf_at(i), l.stride.leaf_at(i));
            leaf[i] = if t.s {
                assert!(
                    v.s && v.v == t.v,
                    "internal: a static stride of a linear call's result is not the value algebra's"
                );
                RLeaf::Const(t.v)
            } else if v.s || v.k || v.v == 0 {
                RLeaf::Const(v.v)
            } else {
                let mut j = 0;
                let mut found = None;
                while j < MARKS.len() {
                    if v.v % MARKS[j] == 0 && (v.v / MARKS[j]).abs() < MAX_FACTOR {
                        found = Some(RLeaf::Lin(j, v.v / MARKS[j]));
                        break;
                    }
                    j += 1;
                }
                match found {
                    Some(x) => x,
                    None => panic!("internal: a stride of a linear call's result is not linear"),
                }
            };
            i += 1;
        }
        Recipe { leaf }
    }
}

/// `t` with its dynamic leaf `j` (in pre-order) replaced by the dynamic value `MARKS[j]`.
pub(crate) const fn mark(
    t: crate::value::int_tuple::IntTuple,
) -> crate::value::int_tuple::IntTuple {
    let n = t.leaf_count();
    let mut leaves = crate::value::int_tuple::IntTuple::empty();
    let (mut i, mut j) = (0, 0);
    while i < n {
        let v = t.leaf_at(i);
        if !v.s && !v.k {
            leaves.push(&crate::value::int_tuple::IntTuple::dy(MARKS[j]));
            j += 1;
        } else {
            leaves.push(&crate::value::int_tuple::IntTuple::leaf(v));
        }
        i += 1;
    }
    crate::value::int_tuple::IntTuple::unflatten(&leaves, &t)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::format;
    use std::vec::Vec;

    fn lt(s: &str) -> crate::value::layout::DynLayout {
        s.parse().unwrap()
    }

    #[test]
    fn mark_replaces_the_dynamic_leaves_in_order() {
        let t: crate::value::int_tuple::IntTuple = "(_1,(5,_8),7)".parse().unwrap();
        let m = mark(t);
        assert_eq!(m.leaf_at(0), crate::value::int_tuple::Val::st(1));
        assert_eq!(m.leaf_at(1), crate::value::int_tuple::Val::dy(MARKS[0]));
        assert_eq!(m.leaf_at(2), crate::value::int_tuple::Val::st(8));
        assert_eq!(m.leaf_at(3), crate::value::int_tuple::Val::dy(MARKS[1]));
    }

    /// `zipped_divide((_64,_32):(_1,d0), (_8,_4))`: the recipe gives every stride of the typed
    /// result as a constant or a multiple of `d0`, and evaluates to the value algebra's result at
    /// any `d0`.
    #[test]
    fn recipe_reads_strides_as_multiples_of_the_input_strides() {
        let marked = crate::value::layout::DynLayout::raw(
            "(_64,_32)".parse().unwrap(),
            mark("(_1,0)".parse().unwrap()),
        );
        let tiler = crate::text::parse::parse_tiler("(_8,_4)").unwrap();
        let r = crate::value::divide::zipped_divide(&marked, &tiler);
        // the typed result's constants: static leaves as values, dynamic leaves as `dy(0)`
        let shape: crate::value::int_tuple::IntTuple = "((_8,_4),(_8,_8))".parse().unwrap();
        let stride: crate::value::int_tuple::IntTuple = "((_1,0),(_8,0))".parse().unwrap();
        let recipe = Recipe::new(r, shape, stride);
        for d0 in [40i32, 136, 1000] {
            let got: Vec<i64> = (0..4).map(|i| recipe.eval(i, |_| d0 as i64)).collect();
            let want =
                crate::value::divide::zipped_divide(&lt(&format!("(_64,_32):(_1,{d0})")), &tiler)
                    .unwrap();
            let want: Vec<i64> = (0..4).map(|i| want.stride.leaf_at(i).v).collect();
            assert_eq!(got, want, "ld {d0}");
        }
    }

    /// A result stride the value algebra computes from two marks (not `c · mark`) is refused.
    #[test]
    #[should_panic(expected = "not linear")]
    fn a_stride_that_is_not_linear_is_refused() {
        let l = crate::value::layout::DynLayout::raw(
            "_4".parse().unwrap(),
            crate::value::int_tuple::IntTuple::dy(MARKS[0] + MARKS[1]),
        );
        let _ = Recipe::new(Ok(l), "_4".parse().unwrap(), "0".parse().unwrap());
    }
}
