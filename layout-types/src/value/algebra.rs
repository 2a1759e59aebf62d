//! The core algebra: coalesce, filter, composition, complement, right and left inverses, common
//! vectors.
//!
//! Every function follows CuTe's definition, including *which* decisions are taken only when
//! values are static (e.g. `coalesce` merges two modes only when the merge is provable from
//! static values), so results, static marks included, are those of `cute::print`.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::algebra::*};
//! let a: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
//! assert_eq!(coalesce(&a).to_string(), "_8:_1");
//! let b: DynLayout = "(_2,_2):(_2,_1)".parse().unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "(_2,_2):(_2,_1)");
//! assert_eq!(complement(&"(_2,_2):(_1,_4)".parse().unwrap(), &IntTuple::st(16)).unwrap().to_string(), "(_2,_2):(_2,_8)");
//! assert_eq!(right_inverse(&"(_4,_2):(_2,_1)".parse().unwrap()).to_string(), "(_2,_4):(_4,_1)");
//! # use layout_types::value::int_tuple::IntTuple;
//! ```

use crate::value::int_tuple::{IntTuple, Val, compact_major};
use crate::{Error, tri, value::layout::DynLayout};

// ---------------------------------------------------------------------------------------------
// Coalesce and filter
// ---------------------------------------------------------------------------------------------

const MAXR: usize = 32;

/// Back-to-front coalescing of a flat layout, starting from `(ns, nd)` (CuTe's `bw_coalesce`).
const fn bw_coalesce(fs: &IntTuple, fd: &IntTuple, start: usize, ns0: Val, nd0: Val) -> DynLayout {
    // new modes, stored back to front
    let mut s = [Val::st(0); MAXR];
    let mut d = [Val::st(0); MAXR];
    let mut n = 1usize;
    s[0] = ns0;
    d[0] = nd0;
    let mut tuple = false;
    let mut i = start;
    while i > 0 {
        i -= 1;
        let (os, od) = (fs.get(i).val(), fd.get(i).val());
        let front = n - 1;
        if os.kc(1) {
            continue;
        } else if !tuple && s[0].kc(1) {
            s[0] = os;
            d[0] = od;
        } else {
            let prod = os.mul(od);
            let eq = s[front].k && prod.k && d[front].k && prod.v == d[front].v;
            if eq {
                s[front] = os.mul(s[front]);
                d[front] = od;
            } else {
                if n >= MAXR {
                    panic!("coalesce: too many modes");
                }
                s[n] = os;
                d[n] = od;
                n += 1;
                tuple = true;
            }
        }
    }
    if !tuple {
        if s[0].kc(1) {
            return DynLayout::trivial();
        }
        return DynLayout::raw(IntTuple::leaf(s[0]), IntTuple::leaf(d[0]));
    }
    let mut sh = IntTuple::empty();
    let mut st = IntTuple::empty();
    let mut k = n;
    while k > 0 {
        k -= 1;
        sh.push(&IntTuple::leaf(s[k]));
        st.push(&IntTuple::leaf(d[k]));
    }
    DynLayout::raw(sh, st)
}

/// `coalesce(layout)`: merge modes where provable, drop static size-1 modes; same function on the
/// domain, depth ≤ 1.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// assert_eq!(coalesce(&l).to_string(), "_12:_1");
/// // merged only where provable from static values
/// let d: DynLayout = "(_4,8):(_1,_4)".parse().unwrap();
/// assert_eq!(coalesce(&d).to_string(), "(_4,8):(_1,_4)");
/// ```
pub const fn coalesce(l: &DynLayout) -> DynLayout {
    let fs = l.shape.flatten_to_tuple();
    let fd = l.stride.flatten_to_tuple();
    let r = fs.rank();
    bw_coalesce(&fs, &fd, r - 1, fs.get(r - 1).val(), fd.get(r - 1).val())
}

/// CuTe's `detail::coalesce_x`: like `coalesce`, but also preserving the function outside the
/// domain (a trailing static size-1 mode keeps its stride).
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "(_4,_1):(_1,_8)".parse().unwrap();
/// assert_eq!(coalesce_x(&l).to_string(), "(_4,_2):(_1,_8)");
/// assert_eq!(coalesce(&l).to_string(), "_4:_1");
/// ```
pub const fn coalesce_x(l: &DynLayout) -> DynLayout {
    let fs = l.shape.flatten_to_tuple();
    let fd = l.stride.flatten_to_tuple();
    let r = fs.rank();
    let last = fs.get(r - 1).val();
    let first = if last.is_const(1) { Val::st(2) } else { last };
    // The placeholder `_2` stays: only the stride of the last mode matters to composition.
    bw_coalesce(&fs, &fd, r - 1, first, fd.get(r - 1).val())
}

/// `coalesce(layout, profile)`: coalesce each mode at the terminals of `profile` (`Step` tuple).
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
/// let r = coalesce_by(&l, &"(_1,_1)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "(_2,_6):(_1,_2)");
/// ```
pub const fn coalesce_by(l: &DynLayout, profile: &IntTuple) -> Result<DynLayout, Error> {
    if profile.is_tuple() {
        if !l.shape.is_tuple() || profile.rank() > l.rank() {
            return Err(Error::with2(
                "coalesce: the profile has {} modes but the layout has only {}",
                profile.rank() as i64,
                l.rank() as i64,
            ));
        }
        let mut sh = IntTuple::empty();
        let mut st = IntTuple::empty();
        let mut i = 0;
        while i < l.rank() {
            let m = if i < profile.rank() {
                tri!(coalesce_by(&l.get(i), &profile.get(i)))
            } else {
                l.get(i)
            };
            sh.push(&m.shape);
            st.push(&m.stride);
            i += 1;
        }
        Ok(DynLayout::raw(sh, st))
    } else {
        Ok(coalesce(l))
    }
}

/// `coalesce(shape)`: merge neighbouring modes of equal staticness (a shape, not a layout).
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::algebra::coalesce_shape};
/// let s: IntTuple = "(_2,_4,3,5)".parse().unwrap();
/// assert_eq!(coalesce_shape(&s).to_string(), "(_8,15)");
/// ```
pub const fn coalesce_shape(shape: &IntTuple) -> IntTuple {
    let f = shape.flatten_to_tuple();
    let mut acc = f.get(0);
    let mut i = 1;
    while i < f.rank() {
        let a = f.get(i).val();
        let back = if acc.is_tuple() {
            acc.get(acc.rank() - 1).val()
        } else {
            acc.val()
        };
        if back.s == a.s {
            let nb = IntTuple::leaf(back.mul(a));
            acc = if acc.is_tuple() {
                acc.replace(acc.rank() - 1, &nb)
            } else {
                nb
            };
        } else {
            acc = acc.append(&IntTuple::leaf(a));
        }
        i += 1;
    }
    acc
}

const fn filter_zeros_shape(stride: &IntTuple, shape: &IntTuple) -> IntTuple {
    if stride.is_tuple() {
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < stride.rank() {
            r.push(&filter_zeros_shape(&stride.get(i), &shape.get(i)));
            i += 1;
        }
        r
    } else if stride.val().kc(0) {
        shape.repeat_like(&IntTuple::st(1))
    } else {
        *shape
    }
}

/// `filter_zeros(layout)`: modes with a static 0 stride get size `_1`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "(_4,_2):(_1,_0)".parse().unwrap();
/// assert_eq!(filter_zeros(&l).to_string(), "(_4,_1):(_1,_0)");
/// ```
pub const fn filter_zeros(l: &DynLayout) -> DynLayout {
    DynLayout::raw(filter_zeros_shape(&l.stride, &l.shape), l.stride)
}

/// `filter(layout)`: `coalesce(filter_zeros(layout))`: remove stride-0 and size-1 modes.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "((_2,_3),_4):((_1,_0),_2)".parse().unwrap();
/// assert_eq!(filter(&l).to_string(), "_8:_1");
/// ```
pub const fn filter(l: &DynLayout) -> DynLayout {
    coalesce(&filter_zeros(l))
}

// ---------------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------------

const fn composition_impl(
    ls: &IntTuple,
    ld: &IntTuple,
    rs: &IntTuple,
    rd: &IntTuple,
) -> Result<DynLayout, Error> {
    if rs.is_tuple() {
        let mut sh = IntTuple::empty();
        let mut st = IntTuple::empty();
        let mut i = 0;
        while i < rs.rank() {
            let m = tri!(composition_impl(ls, ld, &rs.get(i), &rd.get(i)));
            sh.push(&m.shape);
            st.push(&m.stride);
            i += 1;
        }
        return Ok(DynLayout::raw(sh, st));
    }
    let (rshape, rstride) = (rs.val(), rd.val());
    if rstride.kc(0) {
        return Ok(DynLayout::raw(*rs, *rd));
    }
    if !ls.is_tuple() {
        return Ok(DynLayout::raw(*rs, IntTuple::leaf(rstride.mul(ld.val()))));
    }
    let r = ls.rank();
    let mut res_s = IntTuple::empty();
    let mut res_d = IntTuple::empty();
    let mut rest_shape = rshape;
    let mut rest_stride = rstride;
    let mut i = 0;
    while i + 1 < r {
        let cs = ls.get(i).val();
        let cd = ld.get(i).val();
        // CuTe checks the condition whenever it is statically known (a dynamic violation is the
        // caller's contract, as in CuTe).
        if cs.s && rest_stride.s && cs.v != 0 && rest_stride.v % cs.v != 0 && rest_stride.v >= cs.v
        {
            return Err(Error::with2(
                "Stride Divisibility Condition violated: the tiler steps by {} over a layout mode of size {}, and the step is neither smaller than the mode nor a multiple of it",
                rest_stride.v,
                cs.v,
            ));
        }
        let next_shape = cs.ceil_div(rest_stride.abs());
        let next_stride = rest_stride.abs().ceil_div(cs).mul(rest_stride.signum());
        if next_shape.kc(1) || rest_shape.kc(1) {
            rest_stride = next_stride;
        } else {
            let new_shape = next_shape.min(rest_shape);
            if new_shape.s && rest_shape.s && new_shape.v != 0 && rest_shape.v % new_shape.v != 0 {
                return Err(Error::with2(
                    "Shape Divisibility Condition violated: a tiler mode of size {} lands in a layout mode of size {}, which does not divide it",
                    rest_shape.v,
                    new_shape.v,
                ));
            }
            res_s.push(&IntTuple::leaf(new_shape));
            res_d.push(&IntTuple::leaf(rest_stride.mul(cd)));
            rest_shape = rest_shape.div(new_shape);
            rest_stride = next_stride;
        }
        i += 1;
    }
    let last_d = ld.get(r - 1).val();
    if res_s.rank() == 0 {
        Ok(DynLayout::raw(
            IntTuple::leaf(rest_shape),
            IntTuple::leaf(rest_stride.mul(last_d)),
        ))
    } else if rest_shape.kc(1) {
        Ok(DynLayout::raw(res_s.unwrap(), res_d.unwrap()))
    } else {
        res_s.push(&IntTuple::leaf(rest_shape));
        res_d.push(&IntTuple::leaf(rest_stride.mul(last_d)));
        Ok(DynLayout::raw(res_s, res_d))
    }
}

/// `composition(a, b)`: the layout `c` with `c(i) == a(b(i))`, shaped like `b`.
///
/// Fails with CuTe's "Stride Divisibility Condition" or "Shape Divisibility Condition" when `b`
/// does not land on whole sub-modes of `a`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let a: DynLayout = "(_6,_2):(_8,_2)".parse().unwrap();
/// let b: DynLayout = "(_4,_3):(_3,_1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((_2,_2),_3):((_24,_2),_8)");
/// let c: DynLayout = "(_3,_4):(_4,_1)".parse().unwrap();
/// assert!(composition(&c, &"_2:_4".parse().unwrap()).is_err()); // Stride Divisibility Condition
/// ```
pub const fn composition(a: &DynLayout, b: &DynLayout) -> Result<DynLayout, Error> {
    let flat = coalesce_x(a);
    composition_impl(&flat.shape, &flat.stride, &b.shape, &b.stride)
}

/// Kind of one mode of a by-mode [`Tiler`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TilerMode {
    /// A layout.
    Layout,
    /// An integer `N` (the layout `N:_1`).
    Int,
    /// `_`: keep the mode.
    Under,
    /// A nested shape tuple: a by-mode tiler of integers over the mode's sub-modes.
    Shape,
}

/// A tiler: one layout, or a tuple of per-mode tilers (CuTe's `Tile<...>`).
#[derive(Clone, Copy, Debug)]
pub struct Tiler {
    /// Whether this is a by-mode tuple (else a single layout in `modes`).
    pub by_mode: bool,
    /// The layout, or each mode's layout as a mode of this (shape only for `Shape`/`Under` modes).
    pub modes: DynLayout,
    /// Per-mode kinds (by-mode tilers).
    pub kinds: [TilerMode; 8],
}

impl Tiler {
    /// Appends a mode of a given kind.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple, value::algebra::{Tiler, TilerMode}};
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
    /// A single-layout tiler.
    ///
    /// ```
    /// use layout_types::value::algebra::Tiler;
    /// let t = Tiler::layout("_8:_2".parse().unwrap());
    /// assert!(!t.by_mode);
    /// assert_eq!(t.rank(), 1);
    /// ```
    pub const fn layout(l: DynLayout) -> Tiler {
        Tiler {
            by_mode: false,
            modes: l,
            kinds: [TilerMode::Layout; 8],
        }
    }
    /// The whole tiler `_` (CuTe's `Underscore` as a tiler, pycute's `None`): composition,
    /// divides and products with it return the layout unchanged.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::algebra::*, value::divide::logical_divide, value::product::logical_product};
    /// let a: DynLayout = "(_4,6):(_2,_8)".parse().unwrap();
    /// let u = Tiler::under();
    /// assert!(u.is_whole_under());
    /// assert_eq!(composition_tiler(&a, &u).unwrap(), a);
    /// assert_eq!(logical_divide(&a, &u).unwrap(), a);
    /// assert_eq!(logical_product(&a, &u).unwrap(), a);
    /// ```
    pub const fn under() -> Tiler {
        Tiler {
            by_mode: false,
            modes: DynLayout::raw(IntTuple::under(), IntTuple::st(0)),
            kinds: [TilerMode::Under; 8],
        }
    }
    /// Whether this is the whole tiler `_` ([`Tiler::under`]).
    ///
    /// ```
    /// use layout_types::text::parse::parse_tiler;
    /// assert!(parse_tiler("_").unwrap().is_whole_under());
    /// assert!(!parse_tiler("[_,_]").unwrap().is_whole_under());
    /// ```
    pub const fn is_whole_under(&self) -> bool {
        !self.by_mode && self.modes.shape.is_under()
    }
    /// An empty by-mode tiler (add modes with [`Tiler::push`]).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::algebra::*};
    /// let mut t = Tiler::by_mode();
    /// t.push_layout(&"_3:_4".parse().unwrap()).unwrap();
    /// t.push_layout(&"_8:_2".parse().unwrap()).unwrap();
    /// let a: DynLayout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
    /// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(_3,(2,4)):(236,(26,1))");
    /// ```
    pub const fn by_mode() -> Tiler {
        Tiler {
            by_mode: true,
            modes: DynLayout::raw(IntTuple::empty(), IntTuple::empty()),
            kinds: [TilerMode::Layout; 8],
        }
    }
    /// Number of modes of a by-mode tiler (1 for a layout).
    ///
    /// ```
    /// use layout_types::text::parse::parse_tiler;
    /// assert_eq!(parse_tiler("(_2,_2,_4)").unwrap().rank(), 3);
    /// assert_eq!(parse_tiler("8:2").unwrap().rank(), 1);
    /// ```
    pub const fn rank(&self) -> usize {
        if self.by_mode {
            self.modes.shape.rank()
        } else {
            1
        }
    }
    /// Appends a layout mode.
    ///
    /// ```
    /// use layout_types::value::algebra::Tiler;
    /// let mut t = Tiler::by_mode();
    /// t.push_layout(&"_4:_2".parse().unwrap()).unwrap();
    /// t.push_layout(&"(_2,_3):(_1,_8)".parse().unwrap()).unwrap();
    /// assert_eq!(t.shape().to_string(), "(_4,_6)");
    /// ```
    pub const fn push_layout(&mut self, l: &DynLayout) -> Result<(), Error> {
        self.push_kind(TilerMode::Layout, &l.shape, &l.stride)
    }
    pub(crate) const fn push_kind(
        &mut self,
        k: TilerMode,
        s: &IntTuple,
        d: &IntTuple,
    ) -> Result<(), Error> {
        let r = self.modes.shape.rank();
        if r >= 8 {
            return Err(Error::new("a tiler has at most 8 modes"));
        }
        self.kinds[r] = k;
        self.modes.shape.push(s);
        self.modes.stride.push(d);
        Ok(())
    }
    /// A shape tuple as a tiler: each integer `N` means `N:_1`, each nested tuple a nested tiler.
    ///
    /// ```
    /// use layout_types::value::algebra::Tiler;
    /// let t = Tiler::from_shape(&"(_2,_4)".parse().unwrap()).unwrap();
    /// assert!(t.by_mode && t.rank() == 2);
    /// assert_eq!(t.mode(1).unwrap().modes.to_string(), "_4:_1");
    /// ```
    pub const fn from_shape(shape: &IntTuple) -> Result<Tiler, Error> {
        if !shape.is_tuple() {
            return Ok(Tiler::layout(DynLayout::make_layout(shape, false)));
        }
        let mut t = Tiler::by_mode();
        let mut i = 0;
        while i < shape.rank() {
            let m = shape.get(i);
            let r = if m.is_tuple() {
                t.push_kind(TilerMode::Shape, &m, &m.repeat_like(&IntTuple::st(1)))
            } else if m.is_under() || m.is_x() {
                t.push_kind(TilerMode::Under, &m, &IntTuple::st(0))
            } else {
                t.push_kind(TilerMode::Int, &m, &IntTuple::st(1))
            };
            tri!(r);
            i += 1;
        }
        Ok(t)
    }
    /// Mode `i` as its own tiler.
    ///
    /// ```
    /// use layout_types::value::algebra::Tiler;
    /// let t = Tiler::from_shape(&"(_4,(_2,_2))".parse().unwrap()).unwrap();
    /// assert_eq!(t.mode(0).unwrap().modes.to_string(), "_4:_1");
    /// let m1 = t.mode(1).unwrap();
    /// assert!(m1.by_mode && m1.rank() == 2);
    /// ```
    pub const fn mode(&self, i: usize) -> Result<Tiler, Error> {
        if !self.by_mode {
            return Ok(*self);
        }
        let m = self.modes.get(i);
        match self.kinds[i] {
            TilerMode::Shape => Tiler::from_shape(&m.shape),
            // CuTe's divide/product turn an integer tiler `N` into `make_layout(N)` (`_1` gets stride `_0`)
            TilerMode::Int => Ok(Tiler::layout(DynLayout::make_layout(&m.shape, false))),
            _ => Ok(Tiler::layout(m)),
        }
    }
    /// Whether mode `i` is `_`.
    ///
    /// ```
    /// use layout_types::text::parse::parse_tiler;
    /// let t = parse_tiler("[_4:_1,_]").unwrap();
    /// assert!(!t.is_under(0) && t.is_under(1));
    /// ```
    pub const fn is_under(&self, i: usize) -> bool {
        self.by_mode && matches!(self.kinds[i], TilerMode::Under)
    }
    /// The shape of the tiler as CuTe's `shape(tiler)` would give per mode (`product_each` form).
    ///
    /// ```
    /// use layout_types::text::parse::parse_tiler;
    /// let t = parse_tiler("[_4:_2,(_2,_3):(_1,_8)]").unwrap();
    /// assert_eq!(t.shape().to_string(), "(_4,_6)");
    /// assert_eq!(parse_tiler("(_2,_3):(_1,_8)").unwrap().shape().to_string(), "(_2,_3)");
    /// ```
    pub const fn shape(&self) -> IntTuple {
        if !self.by_mode {
            return self.modes.shape;
        }
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < self.rank() {
            if self.is_under(i) {
                r.push(&IntTuple::under());
            } else {
                r.push(&IntTuple::leaf(self.modes.get(i).size()));
            }
            i += 1;
        }
        r
    }
    /// `dice(step, tiler)`: keep the modes where `step` holds an integer.
    ///
    /// ```
    /// use layout_types::text::parse::parse_tiler;
    /// let t = parse_tiler("(_2,_4,_8)").unwrap();
    /// let d = t.dice(&"(_1,X,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(d.shape().to_string(), "(_2,_8)");
    /// ```
    pub const fn dice(&self, step: &IntTuple) -> Result<Tiler, Error> {
        if !self.by_mode || !step.is_tuple() {
            return Ok(*self);
        }
        if step.rank() != self.rank() {
            return Err(Error::with2(
                "the Step/projection has {} modes but the tiler has {}; they must have the same rank",
                step.rank() as i64,
                self.rank() as i64,
            ));
        }
        let mut t = Tiler::by_mode();
        let mut i = 0;
        while i < self.rank() {
            let si = step.get(i);
            if !(si.is_under() || si.is_x()) {
                let m = self.modes.get(i);
                tri!(t.push_kind(self.kinds[i], &m.shape, &m.stride));
            }
            i += 1;
        }
        Ok(t)
    }
}

/// `composition(layout, tiler)`: a by-mode tiler composes mode by mode (modes of `a` beyond the
/// tiler's rank are dropped, `_` keeps a mode); a layout tiler composes with the whole layout; the
/// whole tiler `_` returns `a`.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::composition_tiler, text::parse::parse_tiler};
/// let a: DynLayout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = parse_tiler("[_3:_4,_8:_2]").unwrap();
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(_3,(2,4)):(236,(26,1))");
/// let s = parse_tiler("(_3,_8)").unwrap();
/// assert_eq!(composition_tiler(&a, &s).unwrap().to_string(), "(_3,(4,2)):(59,(13,1))");
/// ```
pub const fn composition_tiler(a: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    if t.is_whole_under() {
        return Ok(*a);
    }
    if !t.by_mode {
        return composition(a, &t.modes);
    }
    if !a.shape.is_tuple() && t.rank() > 1 {
        return Err(Error::with2(
            "composition: the tiler has {} modes but the layout has only {}",
            t.rank() as i64,
            a.rank() as i64,
        ));
    }
    compose_by_mode(a, t)
}

/// The operation a by-mode tiler applies to each mode (CuTe's `transform_layout`).
#[derive(Clone, Copy)]
pub(crate) enum ByMode {
    /// `composition`: modes beyond the tiler are dropped.
    Compose,
    /// `logical_divide`: modes beyond the tiler are kept.
    Divide,
    /// `logical_product`: modes beyond the tiler are kept.
    Product,
}

/// The number of modes a by-mode tiler's `op` produces (the tiler's rank for a composition,
/// the layout's for a divide or product), or the error of a tiler with more modes than the
/// layout.
pub(crate) const fn by_mode_rank(a: &DynLayout, t: &Tiler, op: ByMode) -> Result<usize, Error> {
    if t.rank() > a.rank() {
        let msg = match op {
            ByMode::Compose => "composition: the tiler has {} modes but the layout has only {}",
            ByMode::Divide => {
                "logical_divide: Too many modes in tiler: the tiler has {} modes but the layout has {}"
            }
            ByMode::Product => {
                "logical_product: Too many modes in tiler: the tiler has {} modes but the layout has {}"
            }
        };
        return Err(Error::with2(msg, t.rank() as i64, a.rank() as i64));
    }
    Ok(if matches!(op, ByMode::Compose) {
        t.rank()
    } else {
        a.rank()
    })
}

/// `composition` mode by mode (`_` keeps a mode as it is); `logical_divide` and
/// `logical_product` apply themselves by mode the same way ([`crate::value::divide`],
/// [`crate::value::product`]), so this module does not depend on them.
const fn compose_by_mode(a: &DynLayout, t: &Tiler) -> Result<DynLayout, Error> {
    let n = tri!(by_mode_rank(a, t, ByMode::Compose));
    let mut sh = IntTuple::empty();
    let mut st = IntTuple::empty();
    let mut i = 0;
    while i < n {
        let ai = a.get(i);
        let m = if i >= t.rank() || t.is_under(i) {
            ai
        } else if matches!(t.kinds[i], TilerMode::Int) {
            // composition with an integer N is composition_impl(..., N, _1), not with make_layout(N)
            let flat = coalesce_x(&ai);
            tri!(composition_impl(
                &flat.shape,
                &flat.stride,
                &t.modes.shape.get(i),
                &IntTuple::st(1)
            ))
        } else {
            let ti = tri!(t.mode(i));
            tri!(composition_tiler(&ai, &ti))
        };
        sh.push(&m.shape);
        st.push(&m.stride);
        i += 1;
    }
    Ok(DynLayout::raw(sh, st))
}

// ---------------------------------------------------------------------------------------------
// Complement
// ---------------------------------------------------------------------------------------------

/// `complement(layout, cotarget)`: the layout of the "rest" of `cotarget` that `layout` does not
/// reach, ordered and disjoint from it. Requires static strides for rank > 1 (as CuTe).
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple, value::algebra::complement};
/// let l: DynLayout = "_4:_2".parse().unwrap();
/// assert_eq!(complement(&l, &IntTuple::st(24)).unwrap().to_string(), "(_2,_3):(_1,_8)");
/// let m: DynLayout = "(_2,_2):(_1,_4)".parse().unwrap();
/// assert_eq!(complement(&m, &IntTuple::st(16)).unwrap().to_string(), "(_2,_2):(_2,_8)");
/// ```
pub const fn complement(l: &DynLayout, cotarget: &IntTuple) -> Result<DynLayout, Error> {
    let f = complement_filter(l);
    complement_impl(&f.shape, &f.stride, cotarget)
}

/// `filter(layout)` as complement needs it. For plain known integers (CuTe's reference
/// definition) the modes are only cleared of stride-0 and size-1 modes, not coalesced; the two
/// differ only on non-injective layouts.
const fn complement_filter(l: &DynLayout) -> DynLayout {
    if l.is_static() || !l.shape.is_known() || !l.stride.is_known() {
        return filter(l);
    }
    let fs = l.shape.flatten_to_tuple();
    let fd = l.stride.flatten_to_tuple();
    let mut sh = IntTuple::empty();
    let mut st = IntTuple::empty();
    let mut i = 0;
    while i < fs.rank() {
        let (s, d) = (fs.get(i).val(), fd.get(i).val());
        if s.v != 1 && d.v != 0 {
            sh.push(&IntTuple::leaf(s));
            st.push(&IntTuple::leaf(d));
        }
        i += 1;
    }
    match sh.rank() {
        0 => DynLayout::trivial(),
        1 => DynLayout::raw(sh.get(0), st.get(0)),
        _ => DynLayout::raw(sh, st),
    }
}

/// `complement(layout)`: the complement up to `cosize(filter(layout))`.
///
/// For a layout with dynamic parts the default cotarget is `1`, as in CuTe's reference (pycute)
/// definition; the two agree on every injective layout.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "_4:_2".parse().unwrap();
/// assert_eq!(complement_default(&l).unwrap().to_string(), "_2:_1");
/// let d: DynLayout = "4:_1".parse().unwrap();
/// assert_eq!(complement_default(&d).unwrap().to_string(), "1:4");
/// ```
pub const fn complement_default(l: &DynLayout) -> Result<DynLayout, Error> {
    let f = complement_filter(l);
    let plain = l.shape.is_known() && l.stride.is_known() && !l.is_static();
    let cot = if plain { Val::kn(1) } else { f.cosize() };
    complement_impl(&f.shape, &f.stride, &IntTuple::leaf(cot))
}

const fn complement_impl(
    shape: &IntTuple,
    stride: &IntTuple,
    cotarget: &IntTuple,
) -> Result<DynLayout, Error> {
    if !stride.is_tuple() && stride.val().kc(0) {
        return Ok(DynLayout::make_layout(&coalesce_shape(cotarget), false));
    }
    let r = shape.rank();
    if r != 1 && !stride.is_known() {
        return Err(Error::new(
            "complement: Dynamic-stride complement only for rank-1 layouts",
        ));
    }
    let mut sh = *shape;
    let mut sd = *stride;
    let mut res_s = IntTuple::empty();
    let mut res_d = IntTuple::wrap1(&IntTuple::st(1));
    let mut i = 0;
    while i + 1 < r {
        // the mode with the smallest stride (ties: the smaller shape, then the first)
        let mut mi = 0;
        let mut k = 1;
        while k < sd.rank() {
            let (dk, dm) = (sd.get(k).val().v, sd.get(mi).val().v);
            if dk < dm || (dk == dm && sh.get(k).val().v < sh.get(mi).val().v) {
                mi = k;
            }
            k += 1;
        }
        let min_stride = sd.min_leaf();
        let last = res_d.get(i).val();
        if last.v == 0 {
            return Err(Error::new(
                "Non-injective Layout detected in complement: a mode of the layout has size 0",
            ));
        }
        let new_shape = min_stride.div(last);
        let new_stride = min_stride.mul(sh.get(mi).val());
        if new_shape.is_const(0) {
            return Err(Error::with2(
                "Non-injective Layout detected in complement: a mode with stride {} overlaps the modes below it, which already span {} elements",
                min_stride.v,
                last.v,
            ));
        }
        sh = sh.remove(mi);
        sd = sd.remove(mi);
        res_s.push(&IntTuple::leaf(new_shape));
        res_d.push(&IntTuple::leaf(new_stride));
        i += 1;
    }
    let s0 = sd.get(0).val();
    let lastd = res_d.get(r - 1).val();
    if lastd.v == 0 {
        return Err(Error::new(
            "Non-injective Layout detected in complement: a mode of the layout has size 0",
        ));
    }
    let new_shape = s0.div(lastd);
    if new_shape.is_const(0) {
        return Err(Error::with2(
            "Non-injective Layout detected in complement: a mode with stride {} overlaps the modes below it, which already span {} elements",
            s0.v,
            lastd.v,
        ));
    }
    res_s.push(&IntTuple::leaf(new_shape));
    let new_stride = s0.mul(sh.get(0).val());
    if new_stride.v == 0 {
        return Err(Error::new("complement: a zero stride survived filtering"));
    }
    let rest_shape = coalesce_shape(&cotarget.ceil_div(&IntTuple::leaf(new_stride)));
    let rest_stride = compact_major(&rest_shape, new_stride, false);
    let full = DynLayout::raw(
        IntTuple::pair(&res_s, &rest_shape),
        IntTuple::pair(&res_d, &rest_stride),
    );
    Ok(coalesce(&full))
}

// ---------------------------------------------------------------------------------------------
// Inverses
// ---------------------------------------------------------------------------------------------

const fn sort_by_stride(keys: &[i64; MAXR], n: usize, idx: &mut [usize; MAXR]) {
    let mut k = *keys;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n {
            if k[j] < k[i] {
                let t = k[j];
                k[j] = k[i];
                k[i] = t;
                let u = idx[j];
                idx[j] = idx[i];
                idx[i] = u;
            }
            j += 1;
        }
        i += 1;
    }
}

const fn prefix_products(lshape: &IntTuple) -> [Val; MAXR + 1] {
    let mut p = [Val::st(1); MAXR + 1];
    let mut i = 0;
    while i < lshape.rank() {
        p[i + 1] = lshape.get(i).val().mul(p[i]);
        i += 1;
    }
    p
}

/// `right_inverse(layout)`: `layout(result(i)) == i` for `i < size(result)`. Dynamic strides are
/// skipped, as in CuTe.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "(_4,_2):(_2,_1)".parse().unwrap();
/// let r = right_inverse(&l);
/// assert_eq!(r.to_string(), "(_2,_4):(_4,_1)");
/// assert!((0..8).all(|i| l.call(r.call(i)) == i));
/// ```
pub const fn right_inverse(l: &DynLayout) -> DynLayout {
    let c = coalesce(l);
    let lshape = c.shape.wrap();
    let lstride = c.stride.wrap();
    let pre = prefix_products(&lshape);
    let mut keys = [0i64; MAXR];
    let mut idx = [0usize; MAXR];
    let mut n = 0;
    let mut i = 0;
    while i < lstride.rank() {
        let d = lstride.get(i).val();
        if d.k {
            keys[n] = d.v;
            idx[n] = i;
            n += 1;
        }
        i += 1;
    }
    sort_by_stride(&keys, n, &mut idx);
    let mut rs = IntTuple::wrap1(&IntTuple::st(1));
    let mut rd = IntTuple::wrap1(&IntTuple::st(0));
    let mut curr = Val::st(1);
    let mut k = 0;
    while k < n {
        let j = idx[k];
        let ishape = lshape.get(j).val();
        let istride = lstride.get(j).val();
        if curr.k && curr.v == istride.v {
            rs.push(&IntTuple::leaf(ishape));
            rd.push(&IntTuple::leaf(pre[j]));
            curr = ishape.mul(istride);
        } else if !istride.s {
            // A dynamic stride that does not continue the chain ends it (CuTe's reference
            // semantics for dynamic strides; static strides are skipped as in C++ CuTe).
            break;
        }
        k += 1;
    }
    coalesce(&DynLayout::raw(rs, rd))
}

/// `left_inverse(layout)`: `result(layout(i)) == i` for an injective `layout`. Needs static
/// strides (as CuTe).
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let l: DynLayout = "_4:_2".parse().unwrap();
/// let r = left_inverse(&l).unwrap();
/// assert_eq!(r.to_string(), "(_2,_4):(_0,_1)");
/// assert!((0..4).all(|i| r.call(l.call(i)) == i));
/// ```
pub const fn left_inverse(l: &DynLayout) -> Result<DynLayout, Error> {
    let c = coalesce(l);
    let lshape = c.shape.wrap();
    let lstride = c.stride.wrap();
    if !lstride.is_known() {
        return Err(Error::new(
            "left_inverse: Left inverse requires static strides.",
        ));
    }
    if !lstride.is_static() {
        // Plain known integers: CuTe's reference definition,
        // right_inverse(make_layout(layout, complement(layout))).
        let comp = tri!(complement(l, &IntTuple::leaf(Val::kn(1))));
        return Ok(right_inverse(&DynLayout::from_modes(&[*l, comp])));
    }
    let pre = prefix_products(&lshape);
    let n = lstride.rank();
    let mut keys = [0i64; MAXR];
    let mut idx = [0usize; MAXR];
    let mut i = 0;
    while i < n {
        keys[i] = lstride.get(i).val().v;
        idx[i] = i;
        i += 1;
    }
    sort_by_stride(&keys, n, &mut idx);
    let mut rs = IntTuple::empty();
    let mut rd = IntTuple::wrap1(&IntTuple::st(0));
    let mut k = 0;
    while k < n {
        let j = idx[k];
        let istride = lstride.get(j).val();
        if !istride.is_const(0) {
            let sz = rs.product();
            if !sz.k {
                return Err(Error::new(
                    "left_inverse: Left inverse divisibility condition needs static shapes",
                ));
            }
            if istride.v % sz.v != 0 {
                return Err(Error::with2(
                    "Left inverse divisibility condition violated: stride {} is not a multiple of {}, the span of the modes with smaller strides, so the layout is not injective (or its modes interleave) and has no left inverse",
                    istride.v,
                    sz.v,
                ));
            }
            rs.push(&IntTuple::leaf(istride.div(sz)));
            rd.push(&IntTuple::leaf(pre[j]));
        }
        k += 1;
    }
    let lastj = idx[n - 1];
    rs.push(&lshape.get(lastj));
    Ok(coalesce(&DynLayout::raw(rs, rd)))
}

// ---------------------------------------------------------------------------------------------
// Common vectors
// ---------------------------------------------------------------------------------------------

/// The first mode of `coalesce(composition(a, right_inverse(b)))`, `right_inverse(b)`, and whether
/// that mode is CuTe's "static identity component": a static shape at static stride 1.
const fn common_of(a: &DynLayout, b: &DynLayout) -> Result<(DynLayout, DynLayout, bool), Error> {
    let inv_b = right_inverse(b);
    let common = coalesce(&tri!(composition(a, &inv_b)));
    let (s0, d0) = (common.shape.wrap().get(0), common.stride.wrap().get(0));
    let ident = s0.is_int() && d0.is_int() && s0.val().k && d0.val().k && d0.val().v == 1;
    Ok((DynLayout::raw(s0, d0), inv_b, ident))
}

/// `max_common_vector(a, b)`: the `N` such that offsets `0..N` of `b`, read through `b`'s right
/// inverse, are offsets `0..N` of `a` too — the number of contiguous elements a copy from a
/// tensor of layout `a` to one of layout `b` can move as one vector (CuTe's `copy` vectorizes by
/// it). Only a run CuTe can prove counts: a static stride-1 first mode of
/// `coalesce(composition(a, right_inverse(b)))`; anything else gives `_1`.
///
/// Fails as `composition(a, right_inverse(b))` fails (a static assertion in CuTe).
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let a: DynLayout = "(_8,_4):(_1,_8)".parse().unwrap();
/// let b: DynLayout = "(_8,_4):(_1,_16)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &b).unwrap().to_string(), "_8");
/// let row: DynLayout = "(_8,_4):(_4,_1)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &row).unwrap().to_string(), "_1");
/// assert_eq!(max_common_vector(&"(8,_4):(_1,8)".parse().unwrap(), &a).unwrap().to_string(), "_1");
/// ```
pub const fn max_common_vector(a: &DynLayout, b: &DynLayout) -> Result<Val, Error> {
    let (first, _, ident) = tri!(common_of(a, b));
    Ok(if ident { first.shape.val() } else { Val::st(1) })
}

/// `max_common_layout(a, b)`: the layout `r` of [`max_common_vector`]'s elements in `b`'s
/// domain, `a(r(i)) == i` and `b(r(i)) == i` for every `i < size(r)`; `_1:_0` when there is no
/// static stride-1 run.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::algebra::*};
/// let a: DynLayout = "(_4,_8):(_8,_1)".parse().unwrap();
/// let b: DynLayout = "(_4,_8):(_16,_1)".parse().unwrap();
/// let r = max_common_layout(&a, &b).unwrap();
/// assert_eq!(r.to_string(), "_8:_4");
/// assert!((0..8).all(|i| a.call(r.call(i)) == i && b.call(r.call(i)) == i));
/// ```
pub const fn max_common_layout(a: &DynLayout, b: &DynLayout) -> Result<DynLayout, Error> {
    let (first, inv_b, ident) = tri!(common_of(a, b));
    if ident {
        composition(&inv_b, &first)
    } else {
        Ok(DynLayout::raw(IntTuple::st(1), IntTuple::st(0)))
    }
}
