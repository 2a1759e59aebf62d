//! Layouts: a shape and a congruent stride, mapping coordinates to indices.
//!
//! [`DynLayout`] is the value form of CuTe's `Layout<Shape,Stride>`: every leaf carries its static
//! mark, so a layout read from `(_4,8):(_1,_4)` prints back the same way and every operation marks
//! its results as CuTe would. All methods are `const fn`; the static checks ([`crate::check`], on the typed layer's
//! [`crate::cute::layout::StaticLayoutValue`]) evaluate them at compile time.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
//! let l = DynLayout::make_layout(&"(_4,8)".parse().unwrap(), false); // LayoutLeft
//! assert_eq!(l.to_string(), "(_4,8):(_1,_4)");
//! assert_eq!(l.size().to_string(), "32");
//! assert_eq!(l.crd2idx(&"(1,2)".parse().unwrap()).v, 9);
//! assert_eq!(l.get_hier_coord(9).to_string(), "(1,2)");
//! ```

use crate::value::int_tuple::{IntTuple, Val, compact_major};
use crate::{Error, tri};
use core::fmt;

/// A layout value: shape and stride, congruent IntTuples with static marks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DynLayout {
    /// The shape (domain).
    pub shape: IntTuple,
    /// The stride, congruent with the shape.
    pub stride: IntTuple,
}

impl fmt::Debug for DynLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for DynLayout {
    /// `shape:stride`, exactly as `cute::print`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l = DynLayout::make_layout(&"(_4,(2,_3))".parse().unwrap(), false);
    /// assert_eq!(l.to_string(), "(_4,(2,_3)):(_1,(_4,8))");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

impl DynLayout {
    /// `make_layout(shape, stride)`; the two must be congruent.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
    /// let s: IntTuple = "(_4,_2)".parse().unwrap();
    /// let l = DynLayout::new(s, "(_1,_4)".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(_4,_2):(_1,_4)");
    /// assert!(DynLayout::new(s, IntTuple::st(1)).is_err());
    /// ```
    pub const fn new(shape: IntTuple, stride: IntTuple) -> Result<DynLayout, Error> {
        if !shape.congruent(&stride) {
            if shape.rank() != stride.rank() {
                return Err(Error::with2(
                    "make_layout: the shape has {} modes but the stride has {}; shape and stride must be congruent",
                    shape.rank() as i64,
                    stride.rank() as i64,
                ));
            }
            return Err(Error::new(
                "make_layout: shape and stride are not congruent: a mode is a tuple in one and an integer in the other",
            ));
        }
        Ok(DynLayout { shape, stride })
    }
    /// Builds without checking congruence (for results that are congruent by construction).
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
    /// let l = DynLayout::raw(IntTuple::st(8), IntTuple::st(2));
    /// assert_eq!(l.to_string(), "_8:_2");
    /// ```
    pub const fn raw(shape: IntTuple, stride: IntTuple) -> DynLayout {
        DynLayout { shape, stride }
    }
    /// `make_layout(shape, LayoutLeft{})` (`right == false`) or `LayoutRight{}`: compact strides.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
    /// let s: IntTuple = "(_32,_256)".parse().unwrap();
    /// assert_eq!(DynLayout::make_layout(&s, false).to_string(), "(_32,_256):(_1,_32)");
    /// assert_eq!(DynLayout::make_layout(&s, true).to_string(), "(_32,_256):(_256,_1)");
    /// ```
    pub const fn make_layout(shape: &IntTuple, right: bool) -> DynLayout {
        DynLayout {
            shape: *shape,
            stride: compact_major(shape, Val::st(1), right),
        }
    }
    /// `Layout<_1,_0>`: the trivial layout.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// assert_eq!(DynLayout::trivial().to_string(), "_1:_0");
    /// ```
    pub const fn trivial() -> DynLayout {
        DynLayout {
            shape: IntTuple::st(1),
            stride: IntTuple::st(0),
        }
    }
    /// `make_layout(a, b, ...)`: a layout whose modes are the given layouts.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let a: DynLayout = "_4:_1".parse().unwrap();
    /// let b: DynLayout = "(_2,3):(_4,_8)".parse().unwrap();
    /// assert_eq!(DynLayout::from_modes(&[a, b]).to_string(), "(_4,(_2,3)):(_1,(_4,_8))");
    /// ```
    pub const fn from_modes(modes: &[DynLayout]) -> DynLayout {
        let mut sh = IntTuple::empty();
        let mut st = IntTuple::empty();
        let mut i = 0;
        while i < modes.len() {
            sh.push(&modes[i].shape);
            st.push(&modes[i].stride);
            i += 1;
        }
        DynLayout {
            shape: sh,
            stride: st,
        }
    }
    /// Number of modes.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "((_2,_2),_4):((_1,_8),_2)".parse().unwrap();
    /// assert_eq!(l.rank(), 2);
    /// ```
    pub const fn rank(&self) -> usize {
        self.shape.rank()
    }
    /// Nesting depth of the shape.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "((_2,_2),_4):((_1,_8),_2)".parse().unwrap();
    /// assert_eq!(l.depth(), 2);
    /// assert_eq!("_8:_1".parse::<DynLayout>().unwrap().depth(), 0);
    /// ```
    pub const fn depth(&self) -> usize {
        self.shape.depth()
    }
    /// Mode `i` as a layout (`layout<i>(l)`).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "((_2,_2),_4):((_1,_8),_2)".parse().unwrap();
    /// assert_eq!(l.get(0).to_string(), "(_2,_2):(_1,_8)");
    /// assert_eq!(l.get(1).to_string(), "_4:_2");
    /// ```
    pub const fn get(&self, i: usize) -> DynLayout {
        DynLayout {
            shape: self.shape.get(i),
            stride: self.stride.get(i),
        }
    }
    /// Number of elements in the domain (`size`).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,8):(_1,_4)".parse().unwrap();
    /// assert_eq!(l.size().to_string(), "32");
    /// assert_eq!("(_4,_2):(_1,_4)".parse::<DynLayout>().unwrap().size().to_string(), "_8");
    /// ```
    pub const fn size(&self) -> Val {
        self.shape.product()
    }
    /// `cosize`: one past the largest index (for integer strides), CuTe's marks.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_2):(_1,_8)".parse().unwrap();
    /// assert_eq!(l.cosize().to_string(), "_12");
    /// assert_eq!("(_4,2):(_1,8)".parse::<DynLayout>().unwrap().cosize().to_string(), "12");
    /// ```
    pub const fn cosize(&self) -> Val {
        cosize_acc(&self.shape, &self.stride, Val::st(0)).add(Val::st(1))
    }
    /// Whether every shape and stride leaf is static.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// assert!("(_4,_2):(_1,_4)".parse::<DynLayout>().unwrap().is_static());
    /// assert!(!"(_4,2):(_1,_4)".parse::<DynLayout>().unwrap().is_static());
    /// ```
    pub const fn is_static(&self) -> bool {
        self.shape.is_static() && self.stride.is_static()
    }
    /// `crd2idx(coord, shape, stride)`: a coordinate (an integer, or a tuple congruent to a prefix
    /// of the shape's profile) to an index.
    ///
    /// ```
    /// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple};
    /// let l: DynLayout = "(_4,_2):(_2,_1)".parse().unwrap();
    /// assert_eq!(l.crd2idx(&"(3,1)".parse().unwrap()).to_string(), "7");
    /// assert_eq!(l.crd2idx(&"(_3,_1)".parse().unwrap()).to_string(), "_7");
    /// assert_eq!(l.crd2idx(&IntTuple::dy(5)).v, 3); // 5 is (1,1)
    /// ```
    pub const fn crd2idx(&self, coord: &IntTuple) -> Val {
        match crd2idx(coord, &self.shape, &self.stride) {
            Ok(v) => v,
            Err(e) => e.panic(),
        }
    }
    /// Checked [`DynLayout::crd2idx`].
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_2):(_2,_1)".parse().unwrap();
    /// assert_eq!(l.try_crd2idx(&"(3,1)".parse().unwrap()).unwrap().v, 7);
    /// assert!(l.try_crd2idx(&"(1,2,3)".parse().unwrap()).is_err());
    /// ```
    pub const fn try_crd2idx(&self, coord: &IntTuple) -> Result<Val, Error> {
        crd2idx(coord, &self.shape, &self.stride)
    }
    /// Evaluates the layout at a 1-D index (`layout(i)`).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_2):(_2,_1)".parse().unwrap();
    /// assert_eq!(l.call(5), 3);
    /// ```
    pub const fn call(&self, i: i64) -> i64 {
        self.crd2idx(&IntTuple::dy(i)).v
    }
    /// `get_hier_coord(i)`: the hierarchical coordinate of a 1-D index (compact layouts).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "((_2,_2),_4):((_1,_2),_4)".parse().unwrap();
    /// assert_eq!(l.get_hier_coord(7).to_string(), "((1,1),1)");
    /// ```
    pub const fn get_hier_coord(&self, i: i64) -> IntTuple {
        self.get_hier_coord_val(Val::dy(i))
    }
    /// [`DynLayout::get_hier_coord`] of an index with its static mark (a static index gives a
    /// static coordinate where CuTe's arithmetic keeps it static).
    ///
    /// ```
    /// # use layout_types::{value::layout::DynLayout, value::int_tuple::Val};
    /// let l: DynLayout = "(_12,_12):(_1,_12)".parse().unwrap();
    /// assert_eq!(l.get_hier_coord_val(Val::st(57)).to_string(), "(_9,_4)");
    /// ```
    pub const fn get_hier_coord_val(&self, i: Val) -> IntTuple {
        idx2crd_strided(i, &self.shape, &self.stride)
    }
    /// `get_flat_coord(i)`: the coordinate with one entry per top-level mode.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_2,_16):(_16,_1)".parse().unwrap();
    /// assert_eq!(l.get_flat_coord(17).to_string(), "(1,1)");
    /// ```
    pub const fn get_flat_coord(&self, i: i64) -> IntTuple {
        self.get_flat_coord_val(Val::dy(i))
    }
    /// [`DynLayout::get_flat_coord`] of an index with its static mark.
    ///
    /// ```
    /// # use layout_types::{value::layout::DynLayout, value::int_tuple::Val};
    /// let l: DynLayout = "(_2,_16):(_16,_1)".parse().unwrap();
    /// assert_eq!(l.get_flat_coord_val(Val::st(17)).to_string(), "(_1,_1)");
    /// ```
    pub const fn get_flat_coord_val(&self, i: Val) -> IntTuple {
        let h = self.get_hier_coord_val(i);
        if !self.shape.is_tuple() {
            return h;
        }
        if self.rank() == 1 {
            // CuTe: crd2crd(coord, shape, repeat<1>(_1)) is an integer, not a rank-1 tuple
            return IntTuple::leaf(crd2idx_colex(&h, &self.shape));
        }
        let mut r = IntTuple::empty();
        let mut k = 0;
        while k < self.rank() {
            r.push(&IntTuple::leaf(crd2idx_colex(
                &h.get(k),
                &self.shape.get(k),
            )));
            k += 1;
        }
        r
    }
    /// `get_1d_coord(i)`: the column-major 1-D coordinate of a 1-D index.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_2,_16):(_16,_1)".parse().unwrap();
    /// assert_eq!(l.get_1d_coord(17).to_string(), "3"); // (1,1) in (_2,_16)
    /// ```
    pub const fn get_1d_coord(&self, i: i64) -> Val {
        crd2idx_colex(&self.get_hier_coord(i), &self.shape)
    }
    /// [`DynLayout::get_1d_coord`] of an index with its static mark.
    ///
    /// ```
    /// # use layout_types::{value::layout::DynLayout, value::int_tuple::Val};
    /// let l: DynLayout = "(_4,_8):(_8,_1)".parse().unwrap();
    /// assert_eq!(l.get_1d_coord_val(Val::st(9)).to_string(), "_5"); // (1,1) in column-major order
    /// ```
    pub const fn get_1d_coord_val(&self, i: Val) -> Val {
        crd2idx_colex(&self.get_hier_coord_val(i), &self.shape)
    }
    /// `layout(coord)` with `_` in the coordinate: the sub-layout of the kept modes (`slice`).
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_8,_2):(_1,_4,_32)".parse().unwrap();
    /// assert_eq!(l.slice(&"(_,3,_)".parse().unwrap()).to_string(), "(_4,_2):(_1,_32)");
    /// ```
    pub const fn slice(&self, coord: &IntTuple) -> DynLayout {
        DynLayout {
            shape: IntTuple::slice(coord, &self.shape),
            stride: IntTuple::slice(coord, &self.stride),
        }
    }
    /// `slice_and_offset`: the sliced layout and the offset of the fixed part of the coordinate.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_8,_2):(_1,_4,_32)".parse().unwrap();
    /// let (s, off) = l.slice_and_offset(&"(_,3,_)".parse().unwrap());
    /// assert_eq!(s.to_string(), "(_4,_2):(_1,_32)");
    /// assert_eq!(off.to_string(), "12");
    /// ```
    pub const fn slice_and_offset(&self, coord: &IntTuple) -> (DynLayout, Val) {
        (
            self.slice(coord),
            crd2idx_under(coord, &self.shape, &self.stride),
        )
    }
    /// `dice(step, layout)`: keep the modes where `step` holds an integer, drop those with `X`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(2,16,1):(16,1,0)".parse().unwrap();
    /// assert_eq!(l.dice(&"(_1,X,_1)".parse().unwrap()).unwrap().to_string(), "(2,1):(16,0)");
    /// assert!(l.dice(&"(_1,X)".parse().unwrap()).is_err());
    /// ```
    pub const fn dice(&self, step: &IntTuple) -> Result<DynLayout, Error> {
        if step.is_tuple() && (!self.shape.is_tuple() || step.rank() != self.rank()) {
            return Err(Error::with2(
                "the Step/projection has {} modes but the layout has {}; they must have the same rank",
                step.rank() as i64,
                self.rank() as i64,
            ));
        }
        Ok(DynLayout {
            shape: IntTuple::dice(step, &self.shape),
            stride: IntTuple::dice(step, &self.stride),
        })
    }
    /// `select<I...>(layout)`: the listed modes.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_8,_2):(_1,_4,_32)".parse().unwrap();
    /// assert_eq!(l.select(&[2, 0]).to_string(), "(_2,_4):(_32,_1)");
    /// ```
    pub const fn select(&self, idx: &[usize]) -> DynLayout {
        DynLayout {
            shape: self.shape.select(idx),
            stride: self.stride.select(idx),
        }
    }
    /// `flatten(layout)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "((_2,_2),_4):((_1,_8),_2)".parse().unwrap();
    /// assert_eq!(l.flatten().to_string(), "(_2,_2,_4):(_1,_8,_2)");
    /// ```
    pub const fn flatten(&self) -> DynLayout {
        DynLayout {
            shape: self.shape.flatten(),
            stride: self.stride.flatten(),
        }
    }
    /// `append(layout, x)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
    /// let x: DynLayout = "_3:_8".parse().unwrap();
    /// assert_eq!(l.append(&x).to_string(), "(_4,_2,_3):(_1,_4,_8)");
    /// ```
    pub const fn append(&self, x: &DynLayout) -> DynLayout {
        DynLayout {
            shape: self.shape.append(&x.shape),
            stride: self.stride.append(&x.stride),
        }
    }
    /// `append<N>(layout)`: pad with `_1:_0` modes up to rank `n`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "_4:_1".parse().unwrap();
    /// assert_eq!(l.append_to(3).to_string(), "(_4,_1,_1):(_1,_0,_0)");
    /// ```
    pub const fn append_to(&self, n: usize) -> DynLayout {
        DynLayout {
            shape: self.shape.append_to(n, &IntTuple::st(1)),
            stride: self.stride.append_to(n, &IntTuple::st(0)),
        }
    }
    /// `prepend(layout, x)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "_4:_1".parse().unwrap();
    /// let x: DynLayout = "_2:_4".parse().unwrap();
    /// assert_eq!(l.prepend(&x).to_string(), "(_2,_4):(_4,_1)");
    /// ```
    pub const fn prepend(&self, x: &DynLayout) -> DynLayout {
        DynLayout {
            shape: self.shape.prepend(&x.shape),
            stride: self.stride.prepend(&x.stride),
        }
    }
    /// `replace<i>(layout, x)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
    /// let x: DynLayout = "_8:_4".parse().unwrap();
    /// assert_eq!(l.replace(1, &x).to_string(), "(_4,_8):(_1,_4)");
    /// ```
    pub const fn replace(&self, i: usize, x: &DynLayout) -> DynLayout {
        DynLayout {
            shape: self.shape.replace(i, &x.shape),
            stride: self.stride.replace(i, &x.stride),
        }
    }
    /// `group<b, e>(layout)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_2,_4,_8):(_1,_2,_8)".parse().unwrap();
    /// assert_eq!(l.group(0, 2).to_string(), "((_2,_4),_8):((_1,_2),_8)");
    /// ```
    pub const fn group(&self, b: usize, e: usize) -> DynLayout {
        DynLayout {
            shape: self.shape.group(b, e),
            stride: self.stride.group(b, e),
        }
    }
    /// `take<b, e>(layout)`.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let l: DynLayout = "(_2,_4,_8):(_1,_2,_8)".parse().unwrap();
    /// assert_eq!(l.take(1, 3).to_string(), "(_4,_8):(_2,_8)");
    /// ```
    pub const fn take(&self, b: usize, e: usize) -> DynLayout {
        DynLayout {
            shape: self.shape.take(b, e),
            stride: self.stride.take(b, e),
        }
    }
    /// Structural equality including static marks.
    ///
    /// ```
    /// use layout_types::value::layout::DynLayout;
    /// let a: DynLayout = "(_4,_2):(_1,_4)".parse().unwrap();
    /// let b: DynLayout = "(4,2):(1,4)".parse().unwrap();
    /// assert!(a.same(&a) && !a.same(&b));
    /// ```
    pub const fn same(&self, o: &DynLayout) -> bool {
        self.shape.same(&o.shape) && self.stride.same(&o.stride)
    }
}

const fn cosize_acc(shape: &IntTuple, stride: &IntTuple, acc: Val) -> Val {
    if shape.is_tuple() {
        let mut inner = Val::st(0);
        let mut i = 0;
        while i < shape.rank() {
            inner = cosize_acc(&shape.get(i), &stride.get(i), inner);
            i += 1;
        }
        acc.add(inner)
    } else {
        let m1 = shape.val().sub(Val::st(1));
        acc.add(m1.mul(stride.val().abs()))
    }
}

/// CuTe's `crd2idx(coord, shape, stride)`.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::layout::crd2idx};
/// let s: IntTuple = "(_4,8)".parse().unwrap();
/// let d: IntTuple = "(_1,_4)".parse().unwrap();
/// assert_eq!(crd2idx(&"(1,2)".parse().unwrap(), &s, &d).unwrap().to_string(), "9");
/// assert!(crd2idx(&"(1,2,3)".parse().unwrap(), &s, &d).is_err());
/// ```
pub const fn crd2idx(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<Val, Error> {
    if coord.is_tuple() {
        if !shape.is_tuple() {
            return Err(Error::new(
                "crd2idx: the coordinate is a tuple but the shape (mode) it indexes is an integer; the coordinate must be congruent with the shape",
            ));
        }
        if coord.rank() != shape.rank() {
            return Err(Error::with2(
                "crd2idx: the coordinate has {} modes but the shape has {}; the coordinate must be congruent with the shape",
                coord.rank() as i64,
                shape.rank() as i64,
            ));
        }
        let mut acc = tri!(crd2idx(&coord.get(0), &shape.get(0), &stride.get(0)));
        let mut i = 1;
        while i < shape.rank() {
            acc = acc.add(tri!(crd2idx(&coord.get(i), &shape.get(i), &stride.get(i))));
            i += 1;
        }
        Ok(acc)
    } else if !coord.is_int() {
        Err(Error::new(
            "crd2idx: the coordinate holds `_`; slice the layout instead",
        ))
    } else if shape.is_tuple() {
        if !stride.is_tuple() || stride.rank() != shape.rank() {
            return Err(Error::new("crd2idx: shape and stride are not congruent"));
        }
        let r = shape.rank();
        if r == 0 {
            return Ok(Val::st(0));
        }
        let mut c = coord.val();
        if c.is_const(0) {
            let mut acc = tri!(crd2idx(&IntTuple::st(0), &shape.get(0), &stride.get(0)));
            let mut i = 1;
            let mut rest = Val::st(0);
            while i < r {
                rest = rest.add(tri!(crd2idx(
                    &IntTuple::st(0),
                    &shape.get(i),
                    &stride.get(i)
                )));
                i += 1;
            }
            acc = acc.add(rest);
            return Ok(acc);
        }
        // c0 + (c1 + (c2 + ...)) : CuTe's recursion associates to the right.
        let mut parts = [Val::st(0); 16];
        if r > 16 {
            return Err(Error::new("crd2idx: rank above 16"));
        }
        let mut i = 0;
        while i < r {
            if i + 1 == r {
                parts[i] = tri!(crd2idx(&IntTuple::leaf(c), &shape.get(i), &stride.get(i)));
            } else {
                let p = shape.get(i).product();
                let (d, m) = (c.div(p), c.rem(p));
                parts[i] = tri!(crd2idx(&IntTuple::leaf(m), &shape.get(i), &stride.get(i)));
                c = d;
                if c.is_const(0) {
                    // the rest is crd2idx(_0, ...) of each remaining mode
                    let mut rest = tri!(crd2idx(
                        &IntTuple::st(0),
                        &shape.get(i + 1),
                        &stride.get(i + 1)
                    ));
                    let mut k = i + 2;
                    while k < r {
                        rest = Val::st(0).add(rest).add(tri!(crd2idx(
                            &IntTuple::st(0),
                            &shape.get(k),
                            &stride.get(k)
                        )));
                        k += 1;
                    }
                    parts[i + 1] = rest;
                    let mut acc = parts[i + 1];
                    let mut j = i + 1;
                    while j > 0 {
                        j -= 1;
                        acc = parts[j].add(acc);
                    }
                    return Ok(acc);
                }
            }
            i += 1;
        }
        let mut acc = parts[r - 1];
        let mut j = r - 1;
        while j > 0 {
            j -= 1;
            acc = parts[j].add(acc);
        }
        Ok(acc)
    } else {
        if stride.is_tuple() {
            return Err(Error::new("crd2idx: shape and stride are not congruent"));
        }
        Ok(coord.val().mul(stride.val()))
    }
}

/// `crd2idx` of a coordinate that may hold `_` (those modes contribute nothing): the offset of a slice.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::layout::crd2idx_under};
/// let s: IntTuple = "(_4,_8)".parse().unwrap();
/// let d: IntTuple = "(_1,_4)".parse().unwrap();
/// assert_eq!(crd2idx_under(&"(_,3)".parse().unwrap(), &s, &d).to_string(), "12");
/// ```
pub const fn crd2idx_under(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Val {
    if coord.is_under() || coord.is_x() {
        return Val::st(0);
    }
    if coord.is_tuple() {
        let mut acc = Val::st(0);
        let mut i = 0;
        while i < coord.rank() {
            acc = acc.add(crd2idx_under(&coord.get(i), &shape.get(i), &stride.get(i)));
            i += 1;
        }
        return acc;
    }
    match crd2idx(coord, shape, stride) {
        Ok(v) => v,
        Err(e) => e.panic(),
    }
}

/// CuTe's `idx2crd(idx, shape, stride)` (`get_hier_coord`): `(idx / d) % s` at each leaf.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val, value::layout::idx2crd_strided};
/// let s: IntTuple = "(_4,8)".parse().unwrap();
/// let d: IntTuple = "(_1,_4)".parse().unwrap();
/// assert_eq!(idx2crd_strided(Val::dy(9), &s, &d).to_string(), "(1,2)");
/// ```
pub const fn idx2crd_strided(idx: Val, shape: &IntTuple, stride: &IntTuple) -> IntTuple {
    if shape.is_tuple() {
        let st = if stride.is_tuple() {
            *stride
        } else {
            compact_major(shape, stride.val(), false)
        };
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < shape.rank() {
            r.push(&idx2crd_strided(idx, &shape.get(i), &st.get(i)));
            i += 1;
        }
        r
    } else if shape.val().is_const(1) {
        IntTuple::st(0)
    } else {
        IntTuple::leaf(idx.div(stride.val()).rem(shape.val()))
    }
}

/// CuTe's `idx2crd(idx, shape)`: the colexicographic coordinate of `idx` in `shape`.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val, value::layout::idx2crd};
/// let s: IntTuple = "(_4,8)".parse().unwrap();
/// assert_eq!(idx2crd(Val::dy(9), &s).to_string(), "(1,2)");
/// assert_eq!(idx2crd(Val::st(0), &s).to_string(), "(_0,_0)");
/// ```
pub const fn idx2crd(idx: Val, shape: &IntTuple) -> IntTuple {
    if !shape.is_tuple() {
        return IntTuple::leaf(idx);
    }
    let r = shape.rank();
    let mut out = IntTuple::empty();
    if idx.is_const(0) {
        return shape.repeat_like(&IntTuple::st(0));
    }
    let mut c = idx;
    let mut i = 0;
    while i < r {
        let si = shape.get(i);
        if i + 1 == r {
            out.push(&idx2crd(c, &si));
        } else {
            let p = si.product();
            let m = c.rem(p);
            out.push(&idx2crd(m, &si));
            c = c.div(p);
            if c.is_const(0) {
                let mut k = i + 1;
                while k < r {
                    out.push(&shape.get(k).repeat_like(&IntTuple::st(0)));
                    k += 1;
                }
                return out;
            }
        }
        i += 1;
    }
    out
}

/// CuTe's `crd2idx(coord, shape)`: colexicographic index of a coordinate (Horner's method).
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::layout::crd2idx_colex};
/// let s: IntTuple = "(_4,8)".parse().unwrap();
/// assert_eq!(crd2idx_colex(&"(1,2)".parse().unwrap(), &s).to_string(), "9");
/// ```
pub const fn crd2idx_colex(coord: &IntTuple, shape: &IntTuple) -> Val {
    if !coord.is_tuple() {
        return coord.val();
    }
    let fc = coord.flatten();
    let fs = shape.product_like(coord).flatten();
    let n = fc.rank();
    // c0 + s0 * (c1 + s1 * (c2 + ...))
    let mut acc = fc.get(n - 1).val();
    let mut i = n - 1;
    while i > 0 {
        i -= 1;
        acc = fc.get(i).val().add(fs.get(i).val().mul(acc));
    }
    acc
}

const fn compact_order_impl(
    shape: &IntTuple,
    order: &IntTuple,
    ref_shape: &IntTuple,
    ref_order: &IntTuple,
) -> IntTuple {
    if order.is_tuple() {
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < order.rank() {
            r.push(&compact_order_impl(
                &shape.get(i),
                &order.get(i),
                ref_shape,
                ref_order,
            ));
            i += 1;
        }
        return r;
    }
    // the starting stride: the product of the shapes of every lesser order
    let o = order.val().v;
    let mut start = Val::st(1);
    let mut j = 0;
    while j < ref_order.rank() {
        if ref_order.get(j).val().v < o {
            start = start.mul(ref_shape.get(j).val());
        }
        j += 1;
    }
    compact_major(shape, start, false)
}

/// CuTe's `compact_order(shape, order)`: compact strides visiting the modes by increasing
/// `order` (column-major inside each mode). Dynamic entries of `order` come after every static
/// one, in their own order (as CuTe replaces them by larger static values).
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::layout::compact_order};
/// let s: IntTuple = "(_2,_3,_4)".parse().unwrap();
/// assert_eq!(compact_order(&s, &"(_1,_0,_2)".parse().unwrap()).to_string(), "(_3,_1,_6)");
/// // dynamic orders (e.g. a layout's strides) sort after the static ones
/// assert_eq!(compact_order(&s, &"(64,_0,8)".parse().unwrap()).to_string(), "(_3,_1,_6)");
/// ```
pub const fn compact_order(shape: &IntTuple, order: &IntTuple) -> IntTuple {
    let ref_shape = shape.product_like(order).flatten_to_tuple();
    let flat_order = order.flatten_to_tuple();
    let n = flat_order.rank();
    // largest static order (starting from _0), as CuTe's fold
    let mut max_order = 0;
    let mut i = 0;
    while i < n {
        let v = flat_order.get(i).val();
        if v.s && max_order < v.v {
            max_order = v.v;
        }
        i += 1;
    }
    let mut ref_order = IntTuple::empty();
    let mut i = 0;
    while i < n {
        let v = flat_order.get(i).val();
        ref_order.push(&IntTuple::st(if v.s {
            v.v
        } else {
            max_order + 1 + i as i64
        }));
        i += 1;
    }
    let new_order = IntTuple::unflatten(&ref_order, order);
    compact_order_impl(shape, &new_order, &ref_shape, &ref_order)
}

/// CuTe's `make_ordered_layout(shape, order)`: `shape` with [`compact_order`] strides.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::layout::make_ordered_layout};
/// let s: IntTuple = "(_2,_2,_2,_2)".parse().unwrap();
/// let o: IntTuple = "(_0,_2,_3,_1)".parse().unwrap();
/// assert_eq!(make_ordered_layout(&s, &o).to_string(), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
/// ```
pub const fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> DynLayout {
    DynLayout::raw(*shape, compact_order(shape, order))
}

/// Unwraps an algebra result in constant evaluation: an error becomes a compile error that names
/// the violated CuTe condition and the offending values.
///
/// ```
/// use layout_types::{value::layout::DynLayout, value::int_tuple::IntTuple, value::algebra, value::layout::ok};
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
