//! Typed layouts: `Layout<Shape, Stride>` with shapes and strides written as nested Rust tuples of
//! static `Int<N>` (zero-sized, printed `_N`) and dynamic integers (`i64`, `i32`, `usize`, `u32`,
//! printed `N`), mixed freely as in CuTe.
//!
//! A fully static layout implements [`StaticLayout`]: its value is an associated constant computed
//! by the compiler, and every algebra operation on static layouts returns a zero-sized type whose
//! value is again a constant ([`Composition`], [`ZippedDivide`], ...). An invalid static operation
//! (e.g. violating CuTe's divisibility conditions) fails to compile with the condition and the
//! offending values in the message.
//!
//! ```
//! use layout_types::prelude::*;
//! let gmem = layout!((_256, _32):(_1, _256));
//! let thr = layout!((_32, _8):(_1, _32));
//! let z = zipped_divide(gmem, thr);
//! assert_eq!(z.to_string(), "((_32,_8),_32):((_1,_32),_256)");
//! assert_eq!(core::mem::size_of_val(&z), 0);
//! const N: i64 = <ZippedDivide<Layout<(_256, _32), (_1, _256)>, Layout<(_32, _8), (_1, _32)>>>::SIZE;
//! assert_eq!(N, 8192);
//!
//! // mixed static and dynamic
//! let m = 4i64;
//! let a = layout!((m, _6):(_6, _1));
//! assert_eq!(a.to_string(), "(4,_6):(_6,_1)");
//! assert_eq!(a.crd2idx((1, 2)), 8);
//! ```

use crate::algebra::{self, Tiler, TilerMode};
use crate::int_tuple::{IntTuple, Val};
use crate::{DynLayout, Error};
use core::fmt;
use core::marker::PhantomData;

/// A static integer: zero-sized, its value is the type (CuTe's `Int<N>`, printed `_N`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Int<const N: i64>;

impl<const N: i64> Int<N> {
    /// The value.
    pub const VALUE: i64 = N;
    /// The value.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(_8.value(), 8);
    /// assert_eq!(Int::<8>::VALUE, 8);
    /// assert_eq!(_8.to_string(), "_8");
    /// ```
    #[inline(always)]
    pub const fn value(self) -> i64 {
        N
    }
}

impl<const N: i64> fmt::Display for Int<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{N}")
    }
}
impl<const N: i64> fmt::Debug for Int<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{N}")
    }
}

/// CuTe's `X` (an Underscore) in a projection `Step`: "drop this mode".
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct X;

/// CuTe's `_` (Underscore) in a tiler or coordinate: "keep this mode".
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Underscore;

/// Anything usable as an IntTuple: `Int<N>`, dynamic integers, `X`, `Underscore`, and tuples of them.
pub trait IntTupleLike: Copy {
    /// The value, with static marks.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let t = (_2, 3i64, (_4, _1)).to_int_tuple();
    /// assert_eq!(t.to_string(), "(_2,3,(_4,_1))");
    /// ```
    fn to_int_tuple(&self) -> IntTuple;
}

/// A fully static IntTuple: its value is a compile-time constant.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static IntTuple: every leaf must be `Int<N>` (or `X`)",
    label = "has a dynamic leaf"
)]
pub trait StaticIntTuple: IntTupleLike + Default {
    /// The value.
    const VALUE: IntTuple;
}

impl<const N: i64> IntTupleLike for Int<N> {
    #[inline(always)]
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::st(N)
    }
}
impl<const N: i64> StaticIntTuple for Int<N> {
    const VALUE: IntTuple = IntTuple::st(N);
}
impl IntTupleLike for X {
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::x()
    }
}
impl StaticIntTuple for X {
    const VALUE: IntTuple = IntTuple::x();
}
impl IntTupleLike for Underscore {
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::under()
    }
}
impl StaticIntTuple for Underscore {
    const VALUE: IntTuple = IntTuple::under();
}

macro_rules! dyn_int {
    ($($t:ty),*) => {$(
        impl IntTupleLike for $t {
            #[inline(always)]
            fn to_int_tuple(&self) -> IntTuple { IntTuple::dy(*self as i64) }
        }
    )*};
}
dyn_int!(i64, i32, u32, usize, isize, u64);

macro_rules! tuple_impls {
    ($(($($n:ident),+))*) => {$(
        impl<$($n: IntTupleLike),+> IntTupleLike for ($($n,)+) {
            #[allow(non_snake_case)]
            fn to_int_tuple(&self) -> IntTuple {
                let ($($n,)+) = self;
                let mut t = IntTuple::empty();
                $( t.push(&$n.to_int_tuple()); )+
                t
            }
        }
        impl<$($n: StaticIntTuple),+> StaticIntTuple for ($($n,)+) {
            const VALUE: IntTuple = {
                let mut t = IntTuple::empty();
                $( t.push(&$n::VALUE); )+
                t
            };
        }
        impl<$($n: StaticTilerMode),+> StaticTiler for ($($n,)+) {
            const TILER: Tiler = {
                let mut t = Tiler::by_mode();
                $( match t.push_mode($n::KIND, &$n::MODE) { Ok(()) => {}, Err(e) => e.panic() } )+
                t
            };
        }
        impl<$($n: StaticIntTuple),+> StaticTilerMode for ($($n,)+) {
            const KIND: TilerMode = TilerMode::Shape;
            const MODE: DynLayout = DynLayout::raw(<($($n,)+) as StaticIntTuple>::VALUE, <($($n,)+) as StaticIntTuple>::VALUE);
        }
    )*};
}
tuple_impls! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}

/// A layout with typed shape and stride (CuTe's `Layout<Shape, Stride>`). Zero-sized when both
/// are static.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout<S, D> {
    /// The shape.
    pub shape: S,
    /// The stride.
    pub stride: D,
}

impl<S: IntTupleLike, D: IntTupleLike> Layout<S, D> {
    /// `make_layout(shape, stride)`. Panics if they are not congruent (a static layout is also
    /// checked at compile time when used through [`StaticLayout`]).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = Layout::new((_4, 2i64), (_1, _4));
    /// assert_eq!(l.to_string(), "(_4,2):(_1,_4)");
    /// ```
    pub fn new(shape: S, stride: D) -> Self {
        assert!(
            shape.to_int_tuple().congruent(&stride.to_int_tuple()),
            "make_layout: shape and stride are not congruent"
        );
        Layout { shape, stride }
    }
    /// The value (with static marks).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let v: DynLayout = layout!((_4, 8):(_1, _4)).value();
    /// assert_eq!(v.to_string(), "(_4,8):(_1,_4)");
    /// ```
    #[inline(always)]
    pub fn value(&self) -> DynLayout {
        DynLayout::raw(self.shape.to_int_tuple(), self.stride.to_int_tuple())
    }
    /// `crd2idx(coord, layout)` for a coordinate written as integers or tuples.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_4, _2):(_2, _1));
    /// assert_eq!(l.crd2idx((3, 1)), 7);
    /// assert_eq!(l.crd2idx(5), 3); // 1-D: 5 is (1,1)
    /// ```
    #[inline(always)]
    pub fn crd2idx<C: IntTupleLike>(&self, c: C) -> i64 {
        self.value().crd2idx(&c.to_int_tuple()).v
    }
    /// `layout(i)` for a 1-D index.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(layout!((_4, _2):(_2, _1)).call(5), 3);
    /// ```
    #[inline(always)]
    pub fn call(&self, i: i64) -> i64 {
        self.value().call(i)
    }
    /// `size(layout)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(layout!((_4, 8):(_1, _4)).size(), 32);
    /// ```
    pub fn size(&self) -> i64 {
        self.value().size().v
    }
    /// `cosize(layout)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(layout!((_4, _2):(_1, _8)).cosize(), 12);
    /// ```
    pub fn cosize(&self) -> i64 {
        self.value().cosize().v
    }
}

impl<S: IntTupleLike, D: IntTupleLike> fmt::Display for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value(), f)
    }
}
impl<S: IntTupleLike, D: IntTupleLike> fmt::Debug for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value(), f)
    }
}

/// Unwraps an algebra result in constant evaluation: an error becomes a compile error that names
/// the violated CuTe condition and the offending values.
///
/// ```
/// use layout_types::{DynLayout, IntTuple, algebra, static_layout::ok};
/// const A: DynLayout = DynLayout::make_layout(&IntTuple::st(8), false);
/// const B: DynLayout = DynLayout::raw(IntTuple::st(4), IntTuple::st(2));
/// const C: DynLayout = ok(algebra::composition(&A, &B));
/// assert_eq!(C.to_string(), "_4:_2");
/// ```
#[track_caller]
pub const fn ok(r: Result<DynLayout, Error>) -> DynLayout {
    match r {
        Ok(l) => l,
        Err(e) => e.panic(),
    }
}

/// The flattened form of a static layout, for fast indexing in kernels (loops over it unroll and
/// fold at compile time).
#[derive(Clone, Copy, Debug)]
pub struct FlatLayout {
    /// Number of leaves.
    pub n: usize,
    /// Leaf shapes.
    pub shape: [i64; 32],
    /// Leaf strides.
    pub stride: [i64; 32],
    /// Number of top-level modes.
    pub rank: usize,
    /// One past the last leaf of each top-level mode.
    pub mode_end: [usize; 16],
}

impl FlatLayout {
    /// Flattens a layout.
    ///
    /// ```
    /// use layout_types::{DynLayout, static_layout::FlatLayout};
    /// let f = FlatLayout::of(&"((_2,_2),_4):((_1,_8),_2)".parse().unwrap());
    /// assert_eq!((f.n, f.rank), (3, 2));
    /// assert_eq!((&f.shape[..3], &f.stride[..3]), (&[2, 2, 4][..], &[1, 8, 2][..]));
    /// assert_eq!(&f.mode_end[..2], &[2, 3]);
    /// ```
    pub const fn of(l: &DynLayout) -> FlatLayout {
        let fs = l.shape.flatten_to_tuple();
        let fd = l.stride.flatten_to_tuple();
        let n = fs.rank();
        if n > 32 {
            panic!("FlatLayout: more than 32 leaves");
        }
        let mut shape = [1i64; 32];
        let mut stride = [0i64; 32];
        let mut i = 0;
        while i < n {
            shape[i] = fs.get(i).val().v;
            stride[i] = fd.get(i).val().v;
            i += 1;
        }
        let rank = l.rank();
        if rank > 16 {
            panic!("FlatLayout: more than 16 modes");
        }
        let mut mode_end = [0usize; 16];
        let mut acc = 0;
        let mut m = 0;
        while m < rank {
            acc += l.shape.get(m).leaf_count();
            mode_end[m] = acc;
            m += 1;
        }
        FlatLayout {
            n,
            shape,
            stride,
            rank,
            mode_end,
        }
    }
    /// `layout(i)`: the index of 1-D coordinate `i` (the last leaf takes the remainder, as CuTe).
    ///
    /// ```
    /// use layout_types::{DynLayout, static_layout::FlatLayout};
    /// let l: DynLayout = "((_2,_2),_4):((_1,_8),_2)".parse().unwrap();
    /// let f = FlatLayout::of(&l);
    /// assert_eq!(f.call(5), 3);
    /// assert!((0..16).all(|i| f.call(i) == l.call(i)));
    /// ```
    #[inline(always)]
    pub const fn call(&self, i: i64) -> i64 {
        self.eval_range(i, 0, self.n)
    }
    #[inline(always)]
    const fn eval_range(&self, mut c: i64, b: usize, e: usize) -> i64 {
        let mut r = 0;
        let mut k = b;
        while k < e {
            if k + 1 == e {
                r += c * self.stride[k];
            } else {
                r += (c % self.shape[k]) * self.stride[k];
                c /= self.shape[k];
            }
            k += 1;
        }
        r
    }
    /// The index of a coordinate with one (1-D) entry per top-level mode.
    ///
    /// ```
    /// use layout_types::static_layout::FlatLayout;
    /// let f = FlatLayout::of(&"((_2,_2),_4):((_1,_8),_2)".parse().unwrap());
    /// assert_eq!(f.crd(&[3, 1]), 11); // mode 0: 3 is (1,1) -> 9; mode 1: 1 -> 2
    /// ```
    #[inline(always)]
    pub const fn crd(&self, c: &[i64]) -> i64 {
        let mut r = 0;
        let mut m = 0;
        let mut b = 0;
        while m < self.rank {
            r += self.eval_range(c[m], b, self.mode_end[m]);
            b = self.mode_end[m];
            m += 1;
        }
        r
    }
    /// The 1-D coordinate within top-level mode `m` of a 1-D index `i` (colexicographic).
    ///
    /// ```
    /// use layout_types::static_layout::FlatLayout;
    /// let f = FlatLayout::of(&"((_2,_2),_4):((_1,_8),_2)".parse().unwrap());
    /// assert_eq!((f.mode_coord(7, 0), f.mode_coord(7, 1)), (3, 1));
    /// ```
    #[inline(always)]
    pub const fn mode_coord(&self, i: i64, m: usize) -> i64 {
        let mut b = 0;
        let mut k = 0;
        while k < m {
            b = self.mode_end[k];
            k += 1;
        }
        let mut div = 1;
        let mut j = 0;
        while j < b {
            div *= self.shape[j];
            j += 1;
        }
        let mut size = 1;
        while j < self.mode_end[m] {
            size *= self.shape[j];
            j += 1;
        }
        if m + 1 == self.rank {
            i / div
        } else {
            (i / div) % size
        }
    }
}

/// A fully static layout: a zero-sized type whose value is a compile-time constant.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static layout",
    label = "every shape and stride leaf must be `Int<N>`; dynamic layouts use `DynLayout`"
)]
pub trait StaticLayout: Copy + Default {
    /// The layout.
    const VALUE: DynLayout;
    /// `size(layout)`.
    const SIZE: i64 = Self::VALUE.size().v;
    /// `cosize(layout)`.
    const COSIZE: i64 = Self::VALUE.cosize().v;
    /// `rank(layout)`.
    const RANK: usize = Self::VALUE.rank();
    /// `depth(layout)`.
    const DEPTH: usize = Self::VALUE.depth();
    /// The flattened layout, for kernels.
    const FLAT: FlatLayout = FlatLayout::of(&Self::VALUE);
    /// The value.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let c = coalesce(layout!((_4, _2):(_1, _4)));
    /// let v: DynLayout = c.value();
    /// assert_eq!(v.to_string(), "_8:_1");
    /// ```
    fn value(&self) -> DynLayout {
        Self::VALUE
    }
    /// `layout(i)`, folded at compile time for a constant `i` (for a run-time `i`, the static
    /// shapes become shifts and masks).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// type L = Layout<(_4, _2), (_2, _1)>;
    /// assert_eq!(L::at(5), 3);
    /// ```
    #[inline(always)]
    fn at(i: i64) -> i64 {
        Self::FLAT.call(i)
    }
    /// `layout(c0, c1, ...)` with one 1-D coordinate per top-level mode.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// type L = Layout<(_4, _2), (_2, _1)>;
    /// assert_eq!(L::at_crd(&[3, 1]), 7);
    /// ```
    #[inline(always)]
    fn at_crd(c: &[i64]) -> i64 {
        Self::FLAT.crd(c)
    }
}

impl<S: StaticIntTuple, D: StaticIntTuple> StaticLayout for Layout<S, D> {
    const VALUE: DynLayout = ok(DynLayout::new(S::VALUE, D::VALUE));
}

/// A static tiler: a static layout, or a tuple of per-mode tilers (`Int<N>`, static layouts,
/// `Underscore`, nested shape tuples).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static tiler",
    label = "use a static layout or a tuple of `Int<N>` / static layouts"
)]
pub trait StaticTiler: Copy + Default {
    /// The tiler value.
    const TILER: Tiler;
}
impl<L: StaticLayout> StaticTiler for L {
    const TILER: Tiler = Tiler::layout(L::VALUE);
}
/// The whole tiler `_`: composition, divides and products with it return the layout unchanged.
///
/// ```
/// use layout_types::prelude::*;
/// let a = layout!((_4, _6):(_2, _8));
/// assert_eq!(logical_product(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
/// assert_eq!(logical_divide(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
/// assert_eq!(composition(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
/// assert_eq!(zipped_product(a, Underscore).to_string(), "(_4,_6):(_2,_8)");
/// ```
impl StaticTiler for Underscore {
    const TILER: Tiler = Tiler::under();
}

/// One mode of a by-mode static tiler.
pub trait StaticTilerMode: Copy + Default {
    /// What kind of mode.
    const KIND: TilerMode;
    /// Its layout (or shape).
    const MODE: DynLayout;
}
impl<const N: i64> StaticTilerMode for Int<N> {
    const KIND: TilerMode = TilerMode::Int;
    const MODE: DynLayout = DynLayout::raw(IntTuple::st(N), IntTuple::st(1));
}
impl StaticTilerMode for Underscore {
    const KIND: TilerMode = TilerMode::Under;
    const MODE: DynLayout = DynLayout::raw(IntTuple::under(), IntTuple::st(0));
}
impl<S: StaticIntTuple, D: StaticIntTuple> StaticTilerMode for Layout<S, D> {
    const KIND: TilerMode = TilerMode::Layout;
    const MODE: DynLayout = <Layout<S, D> as StaticLayout>::VALUE;
}

impl Tiler {
    /// Appends a mode of a given kind (used by static tilers).
    ///
    /// ```
    /// use layout_types::{DynLayout, IntTuple, algebra::{Tiler, TilerMode}};
    /// let mut t = Tiler::by_mode();
    /// let four = DynLayout::raw(IntTuple::st(4), IntTuple::st(1));
    /// t.push_mode(TilerMode::Int, &four).unwrap();
    /// assert_eq!(t.shape().to_string(), "(_4)");
    /// ```
    pub const fn push_mode(&mut self, k: TilerMode, m: &DynLayout) -> Result<(), Error> {
        let r = self.modes.shape.rank();
        if r >= 8 {
            return Err(Error::new("a tiler has at most 8 modes"));
        }
        self.kinds[r] = k;
        self.modes.shape.push(&m.shape);
        self.modes.stride.push(&m.stride);
        Ok(())
    }
}

macro_rules! static_op {
    ($(#[$doc:meta])* $name:ident <$($p:ident : $b:ident),*> $fname:ident => |$($a:ident),*| $e:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq)]
        pub struct $name<$($p),*>(PhantomData<($($p,)*)>);
        impl<$($p: $b),*> StaticLayout for $name<$($p),*> {
            const VALUE: DynLayout = { $(let $a = &$p::VALUE_OF;)* ok($e) };
        }
        impl<$($p: $b),*> fmt::Display for $name<$($p),*> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { fmt::Display::fmt(&Self::VALUE, f) }
        }
        impl<$($p: $b),*> fmt::Debug for $name<$($p),*> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { fmt::Display::fmt(&Self::VALUE, f) }
        }
        $(#[$doc])*
        ///
        /// The result is zero-sized; an invalid combination fails to compile.
        #[inline(always)]
        pub fn $fname<$($p: $b),*>($(_: $p),*) -> $name<$($p),*> {
            let _: DynLayout = const { <$name<$($p),*> as StaticLayout>::VALUE };
            $name(PhantomData)
        }
    };
}

/// Access to the value of a static operand (layout, tiler or IntTuple) under one name.
pub trait ValueOf {
    /// The value type.
    type V: Copy;
    /// The value.
    const VALUE_OF: Self::V;
}
impl<T: StaticLayout> ValueOf for T {
    type V = DynLayout;
    const VALUE_OF: DynLayout = T::VALUE;
}

/// Wraps a static tiler so its value is reachable as `VALUE_OF`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct TilerOf<T>(PhantomData<T>);

/// Bound alias: static layouts.
pub trait SL: StaticLayout + ValueOf<V = DynLayout> {}
impl<T: StaticLayout> SL for T {}
/// Bound alias: static tilers.
pub trait ST: StaticTiler + TilerValue {}
impl<T: StaticTiler> ST for T {}
/// Bound alias: static IntTuples.
pub trait SI: StaticIntTuple + TupleValue {}
impl<T: StaticIntTuple> SI for T {}

/// The tiler value of a static tiler under the name `VALUE_OF`.
pub trait TilerValue {
    /// The tiler.
    const VALUE_OF: Tiler;
}
impl<T: StaticTiler> TilerValue for T {
    const VALUE_OF: Tiler = T::TILER;
}
/// The IntTuple value of a static IntTuple under the name `VALUE_OF`.
pub trait TupleValue {
    /// The tuple.
    const VALUE_OF: IntTuple;
}
impl<T: StaticIntTuple> TupleValue for T {
    const VALUE_OF: IntTuple = T::VALUE;
}

static_op!(
    /// `composition(a, b)`: `a ∘ b`, with `b` a layout or a by-mode tiler.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let a = layout!((_6, _2):(_8, _2));
    /// let b = layout!((_4, _3):(_3, _1));
    /// assert_eq!(composition(a, b).to_string(), "((_2,_2),_3):((_24,_2),_8)");
    /// ```
    Composition<A: SL, B: ST> composition => |a, b| algebra::composition_tiler(a, b));
static_op!(
    /// `coalesce(a)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_2, (_1, _6)):(_1, (_6, _2)));
    /// assert_eq!(coalesce(l).to_string(), "_12:_1");
    /// ```
    Coalesce<A: SL> coalesce => |a| Ok(algebra::coalesce(a)));
static_op!(
    /// `coalesce(a, step)`: coalesce each mode at the terminals of the profile.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_2, (_1, _6)):(_1, (_6, _2)));
    /// assert_eq!(coalesce_by(l, (_1, _1)).to_string(), "(_2,_6):(_1,_2)");
    /// ```
    CoalesceBy<A: SL, P: SI> coalesce_by => |a, p| algebra::coalesce_by(a, p));
static_op!(
    /// `filter(a)`: drop stride-0 and size-1 modes.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!(((_2, _3), _4):((_1, _0), _2));
    /// assert_eq!(filter(l).to_string(), "_8:_1");
    /// ```
    Filter<A: SL> filter => |a| Ok(algebra::filter(a)));
static_op!(
    /// `complement(a, cotarget)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(complement(layout!(_4:_2), _24).to_string(), "(_2,_3):(_1,_8)");
    /// ```
    Complement<A: SL, C: SI> complement => |a, c| algebra::complement(a, c));
static_op!(
    /// `right_inverse(a)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let r = right_inverse(layout!((_4, _2):(_2, _1)));
    /// assert_eq!(r.to_string(), "(_2,_4):(_4,_1)");
    /// ```
    RightInverse<A: SL> right_inverse => |a| Ok(algebra::right_inverse(a)));
static_op!(
    /// `left_inverse(a)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(left_inverse(layout!(_4:_2)).to_string(), "(_2,_4):(_0,_1)");
    /// ```
    LeftInverse<A: SL> left_inverse => |a| algebra::left_inverse(a));
static_op!(
    /// `logical_divide(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_4, _2, _3):(_2, _1, _8));
    /// let d = logical_divide(l, layout!(_4:_2));
    /// assert_eq!(d.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    /// ```
    LogicalDivide<A: SL, T: ST> logical_divide => |a, t| crate::divide::logical_divide(a, t));
static_op!(
    /// `zipped_divide(a, tiler)`: `((tile...),(rest...))`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!(((_3, _2), (_4, _5)):((_16, _1), (_48, _2)));
    /// let d = zipped_divide(l, (_3, _4));
    /// assert_eq!(d.to_string(), "((_3,_4),(_2,_5)):((_16,_48),(_1,_2))");
    /// ```
    ZippedDivide<A: SL, T: ST> zipped_divide => |a, t| crate::divide::zipped_divide(a, t));
static_op!(
    /// `tiled_divide(a, tiler)`: `((tile...), rest0, rest1, ...)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!(((_3, _2), (_4, _5)):((_16, _1), (_48, _2)));
    /// let d = tiled_divide(l, (_3, _4));
    /// assert_eq!(d.to_string(), "((_3,_4),_2,_5):((_16,_48),_1,_2)");
    /// ```
    TiledDivide<A: SL, T: ST> tiled_divide => |a, t| crate::divide::tiled_divide(a, t));
static_op!(
    /// `flat_divide(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!(((_3, _2), (_4, _5)):((_16, _1), (_48, _2)));
    /// let d = flat_divide(l, (_3, _4));
    /// assert_eq!(d.to_string(), "(_3,_4,_2,_5):(_16,_48,_1,_2)");
    /// ```
    FlatDivide<A: SL, T: ST> flat_divide => |a, t| crate::divide::flat_divide(a, t));
static_op!(
    /// `logical_product(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let p = logical_product(layout!((_2, _2):(_4, _1)), layout!(_6:_1));
    /// assert_eq!(p.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    /// ```
    LogicalProduct<A: SL, T: ST> logical_product => |a, t| crate::product::logical_product(a, t));
static_op!(
    /// `zipped_product(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let tile = layout!((_2, _2):(_1, _2));
    /// let m = layout!((_3, _4):(_4, _1));
    /// assert_eq!(zipped_product(tile, m).to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
    /// ```
    ZippedProduct<A: SL, T: ST> zipped_product => |a, t| crate::product::zipped_product(a, t));
static_op!(
    /// `tiled_product(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let tile = layout!((_2, _2):(_1, _2));
    /// let m = layout!((_3, _4):(_4, _1));
    /// assert_eq!(tiled_product(tile, m).to_string(), "((_2,_2),_3,_4):((_1,_2),_16,_4)");
    /// ```
    TiledProduct<A: SL, T: ST> tiled_product => |a, t| crate::product::tiled_product(a, t));
static_op!(
    /// `flat_product(a, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let tile = layout!((_2, _2):(_1, _2));
    /// let m = layout!((_3, _4):(_4, _1));
    /// assert_eq!(flat_product(tile, m).to_string(), "(_2,_2,_3,_4):(_1,_2,_16,_4)");
    /// ```
    FlatProduct<A: SL, T: ST> flat_product => |a, t| crate::product::flat_product(a, t));
static_op!(
    /// `blocked_product(block, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let block = layout!((_2, _5):(_5, _1));
    /// let tiler = layout!((_3, _4):(_1, _3));
    /// let p = blocked_product(block, tiler);
    /// assert_eq!(p.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
    /// ```
    BlockedProduct<A: SL, B: SL> blocked_product => |a, b| crate::product::blocked_product(a, b));
static_op!(
    /// `raked_product(block, tiler)`.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let block = layout!((_2, _5):(_5, _1));
    /// let tiler = layout!((_3, _4):(_1, _3));
    /// let p = raked_product(block, tiler);
    /// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
    /// ```
    RakedProduct<A: SL, B: SL> raked_product => |a, b| crate::product::raked_product(a, b));
static_op!(
    /// `dice(step, a)`: keep the modes where `step` holds an integer (`Step<_1, X, _1>`).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_2, _16, _1):(_16, _1, _0));
    /// assert_eq!(dice((_1, X, _1), l).to_string(), "(_2,_1):(_16,_0)");
    /// ```
    Dice<P: SI, A: SL> dice => |p, a| a.dice(p));
static_op!(
    /// Mode 0 of a layout (`layout<0>(a)`).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_4, (_2, _3)):(_1, (_4, _8)));
    /// assert_eq!(mode0(l).to_string(), "_4:_1");
    /// ```
    Mode0<A: SL> mode0 => |a| Ok(a.get(0)));
static_op!(
    /// Mode 1 of a layout (`layout<1>(a)`).
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_4, (_2, _3)):(_1, (_4, _8)));
    /// assert_eq!(mode1(l).to_string(), "(_2,_3):(_4,_8)");
    /// ```
    Mode1<A: SL> mode1 => |a| Ok(a.get(1)));
static_op!(
    /// `make_layout(shape, LayoutLeft{})`: compact column-major.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(make_layout_left((_256, _32)).to_string(), "(_256,_32):(_1,_256)");
    /// ```
    MakeLayoutLeft<S: SI> make_layout_left => |s| Ok(DynLayout::make_layout(s, false)));
static_op!(
    /// `make_layout(shape, LayoutRight{})`: compact row-major.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// assert_eq!(make_layout_right((_32, _256)).to_string(), "(_32,_256):(_256,_1)");
    /// ```
    MakeLayoutRight<S: SI> make_layout_right => |s| Ok(DynLayout::make_layout(s, true)));

/// `slice(coord, layout)` with a static coordinate (`Underscore` keeps a mode): the coordinate
/// must be congruent with the layout's shape and inside it.
const fn checked_slice(l: &DynLayout, c: &IntTuple) -> Result<DynLayout, Error> {
    if !c.weakly_congruent_under(&l.shape) {
        return Err(slice_congruence_error(c, &l.shape));
    }
    crate::tri!(crate::partition::check_in_bounds(c, &l.shape));
    Ok(l.slice(c))
}

const fn slice_congruence_error(c: &IntTuple, shape: &IntTuple) -> Error {
    if c.is_tuple() && shape.is_tuple() && c.rank() != shape.rank() {
        Error::with2(
            "slice: the coordinate has {} modes but the layout has {}; the coordinate must be congruent with the shape",
            c.rank() as i64,
            shape.rank() as i64,
        )
    } else {
        Error::new(
            "slice: the coordinate is not congruent with the layout's shape (a tuple where the shape has an integer)",
        )
    }
}

static_op!(
    /// `layout(coord)` with `_` in a static coordinate (`(Underscore, _3)`): the sub-layout of the
    /// kept modes. A coordinate not congruent with the shape or outside it fails to compile.
    ///
    /// ```
    /// use layout_types::prelude::*;
    /// let l = layout!((_4, _8):(_1, _4));
    /// assert_eq!(slice(l, (Underscore, _3)).to_string(), "(_4):(_1)");
    /// ```
    Slice<A: SL, C: SI> slice => |a, c| checked_slice(a, c));

/// `crd2idx(coord, layout)` with a static coordinate of a static layout: the index is a constant.
/// A coordinate not congruent with the shape, or outside it, fails to compile.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Crd2Idx<L, C>(PhantomData<(L, C)>);
impl<L: StaticLayout, C: StaticIntTuple> Crd2Idx<L, C> {
    /// The index.
    pub const INDEX: i64 = {
        let l = L::VALUE;
        let c = C::VALUE;
        let v = match crate::layout::crd2idx(&c, &l.shape, &l.stride) {
            Ok(v) => v.v,
            Err(e) => e.panic(),
        };
        match crate::partition::check_in_bounds(&c, &l.shape) {
            Ok(()) => v,
            Err(e) => e.panic(),
        }
    };
}

/// `crd2idx(coord, layout)` for a static coordinate: a compile-time constant index (see [`Crd2Idx`]).
///
/// ```
/// use layout_types::prelude::*;
/// let l = layout!((_4, _2):(_2, _1));
/// assert_eq!(static_crd2idx(l, (_3, _1)), 7);
/// assert_eq!(Crd2Idx::<Layout<(_4, _2), (_2, _1)>, (_3, _1)>::INDEX, 7);
/// ```
#[inline(always)]
pub fn static_crd2idx<L: StaticLayout, C: StaticIntTuple>(_: L, _: C) -> i64 {
    const { Crd2Idx::<L, C>::INDEX }
}

/// `make_layout(shape, stride)` for static shape and stride, checked at compile time (congruence).
///
/// ```
/// use layout_types::prelude::*;
/// let l = make_static_layout((_4, _2), (_1, _4));
/// assert_eq!(l.to_string(), "(_4,_2):(_1,_4)");
/// assert_eq!(core::mem::size_of_val(&l), 0);
/// ```
#[inline(always)]
pub fn make_static_layout<S: StaticIntTuple, D: StaticIntTuple>(
    shape: S,
    stride: D,
) -> Layout<S, D> {
    let _: DynLayout = const { <Layout<S, D> as StaticLayout>::VALUE };
    Layout { shape, stride }
}

/// Used by `layout!` to check a static layout at compile time (autoref dispatch: static layouts
/// take [`CheckStatic`], others [`CheckDynamic`], which does nothing).
#[doc(hidden)]
pub struct Probe<S, D>(PhantomData<(S, D)>);
impl<S, D> Probe<S, D> {
    #[doc(hidden)]
    #[inline(always)]
    pub fn of(_: &Layout<S, D>) -> Self {
        Probe(PhantomData)
    }
}
#[doc(hidden)]
pub trait CheckStatic {
    #[doc(hidden)]
    fn check(&self);
}
impl<S: StaticIntTuple, D: StaticIntTuple> CheckStatic for Probe<S, D> {
    #[inline(always)]
    fn check(&self) {
        let _: DynLayout = const { <Layout<S, D> as StaticLayout>::VALUE };
    }
}
#[doc(hidden)]
pub trait CheckDynamic {
    #[doc(hidden)]
    fn check(&self) {}
}
impl<S, D> CheckDynamic for &Probe<S, D> {}

/// A static TiledCopy's layouts: `make_tiled_copy(atom, Thr, Val)` (see [`crate::copy::TvLayout`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct TiledCopyTv<Thr, Val>(PhantomData<(Thr, Val)>);
impl<Thr: StaticLayout, Val: StaticLayout> TiledCopyTv<Thr, Val> {
    /// The TV layout and tiler.
    pub const TV: crate::copy::TvLayout = match crate::copy::TvLayout::new(&Thr::VALUE, &Val::VALUE)
    {
        Ok(t) => t,
        Err(e) => e.panic(),
    };
}
impl<Thr: StaticLayout, Val: StaticLayout> StaticLayout for TiledCopyTv<Thr, Val> {
    const VALUE: DynLayout = Self::TV.layout_tv;
}

/// A static value with its static mark, for printing (`_N`).
///
/// ```
/// use layout_types::static_layout::st;
/// assert_eq!(st(4).to_string(), "_4");
/// ```
pub const fn st(v: i64) -> Val {
    Val::st(v)
}

/// Builds a typed layout from CuTe-like text: `layout!((_32,_8):(_1,_32))`. Static leaves are the
/// named constants `_N` (or `Int::<N>`), dynamic leaves any integer expression. A bare shape
/// is not accepted: for compact column-major strides use `make_layout_left((_4, _8))`.
///
/// ```
/// use layout_types::prelude::*;
/// let l = layout!((_4, (_2, _8)):(_16, (_1, _2)));
/// assert_eq!(l.to_string(), "(_4,(_2,_8)):(_16,(_1,_2))");
/// let n = 7usize;
/// assert_eq!(layout!((n, _8):(_8, _1)).to_string(), "(7,_8):(_8,_1)");
/// ```
#[macro_export]
macro_rules! layout {
    ($shape:tt : $stride:tt) => {{
        #[allow(unused_imports)]
        use $crate::consts::*;
        #[allow(unused_imports)]
        use $crate::static_layout::{CheckDynamic as _, CheckStatic as _};
        let l = $crate::static_layout::Layout::new($shape, $stride);
        // a static layout is checked at compile time (congruence)
        (&$crate::static_layout::Probe::of(&l)).check();
        l
    }};
}
