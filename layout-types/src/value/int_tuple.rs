//! IntTuples: hierarchical tuples of integers, each leaf static (`_N`) or dynamic (`N`).
//!
//! [`IntTuple`] is a plain value (fixed capacity, no allocation, `Copy`) whose every operation is a
//! `const fn`, so the same code runs at run time on dynamic data and at compile time inside the
//! associated constants of static layouts. Each leaf carries a *static mark*; arithmetic follows
//! CuTe's rules for `C<N>` and `int` (see [`Val`]), so results print exactly like `cute::print`.
//!
//! ```
//! use layout_types::value::int_tuple::IntTuple;
//! let t: IntTuple = "((_2,3),_4)".parse().unwrap();
//! assert_eq!(t.rank(), 2);
//! assert_eq!(t.depth(), 2);
//! assert_eq!(t.size().to_string(), "24");          // dynamic: one leaf is dynamic
//! assert_eq!(t.flatten().to_string(), "(_2,3,_4)");
//! ```

use core::fmt;

/// Maximum number of nodes (leaves and tuples) an [`IntTuple`] holds.
pub const CAP: usize = 64;

/// One integer with its static mark: `s == true` prints `_v` (CuTe's `Int<v>`), else `v`.
///
/// `k` says whether the algebra may take decisions on the value (merge two modes, drop a size-1
/// mode, sort by stride). C++ CuTe decides only on static values; a dynamic `int` is opaque to
/// it. A *known* value (`k` without `s`) is a plain integer as in CuTe's reference definition
/// (pycute): printed like a dynamic one, but decided on. Static values are always known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Val {
    /// The value.
    pub v: i64,
    /// Whether the value is known at compile time (`Int<v>` in CuTe).
    pub s: bool,
    /// Whether decisions may be taken on the value (static, or a plain known integer).
    pub k: bool,
}

impl Val {
    /// A static value `_v`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// let v = Val::st(4);
    /// assert_eq!(v.to_string(), "_4");
    /// assert!(v.s && v.k);
    /// ```
    pub const fn st(v: i64) -> Val {
        Val {
            v,
            s: true,
            k: true,
        }
    }
    /// A known plain integer `v` (reference semantics: printed `v`, decided on).
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// let v = Val::kn(4);
    /// assert_eq!(v.to_string(), "4");
    /// assert!(!v.s && v.k);
    /// ```
    pub const fn kn(v: i64) -> Val {
        Val {
            v,
            s: false,
            k: true,
        }
    }
    /// A dynamic value `v`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// let v = Val::dy(4);
    /// assert_eq!(v.to_string(), "4");
    /// assert!(!v.s && !v.k);
    /// ```
    pub const fn dy(v: i64) -> Val {
        Val {
            v,
            s: false,
            k: false,
        }
    }
    /// Whether this is the constant `c` *for decisions* (static, or a known plain integer).
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert!(Val::st(1).kc(1) && Val::kn(1).kc(1));
    /// assert!(!Val::dy(1).kc(1));
    /// ```
    pub const fn kc(self, c: i64) -> bool {
        self.k && self.v == c
    }
    const fn mk(v: i64, a: Val, b: Val) -> Val {
        Val {
            v,
            s: a.s && b.s,
            k: a.k && b.k,
        }
    }
    /// Whether this is the static constant `c` (CuTe's `is_constant<c, T>`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert!(Val::st(0).is_const(0));
    /// assert!(!Val::kn(0).is_const(0) && !Val::dy(0).is_const(0));
    /// ```
    pub const fn is_const(self, c: i64) -> bool {
        self.s && self.v == c
    }
    /// `a + b`: static only when both are.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(2).add(Val::st(3)).to_string(), "_5");
    /// assert_eq!(Val::st(2).add(Val::dy(3)).to_string(), "5");
    /// ```
    pub const fn add(self, o: Val) -> Val {
        Val::mk(self.v + o.v, self, o)
    }
    /// `a - b`: static only when both are.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(5).sub(Val::st(2)).to_string(), "_3");
    /// assert_eq!(Val::dy(5).sub(Val::st(2)).to_string(), "3");
    /// ```
    pub const fn sub(self, o: Val) -> Val {
        Val::mk(self.v - o.v, self, o)
    }
    /// `a * b`: static when both are, or when either is the static `_0`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(2).mul(Val::st(3)).to_string(), "_6");
    /// assert_eq!(Val::st(2).mul(Val::dy(3)).to_string(), "6");
    /// assert_eq!(Val::st(0).mul(Val::dy(7)).to_string(), "_0");
    /// ```
    pub const fn mul(self, o: Val) -> Val {
        if self.is_const(0) || o.is_const(0) {
            return Val::st(0);
        }
        Val::mk(self.v * o.v, self, o)
    }
    /// `a / b` (truncating, like C++): static when both are, or when `a` is `_0`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(8).div(Val::st(2)).to_string(), "_4");
    /// assert_eq!(Val::dy(7).div(Val::st(2)).to_string(), "3");
    /// assert_eq!(Val::st(0).div(Val::dy(5)).to_string(), "_0");
    /// ```
    pub const fn div(self, o: Val) -> Val {
        if self.is_const(0) {
            return Val::st(0);
        }
        if o.v == 0 {
            panic!("division by zero in layout arithmetic");
        }
        Val::mk(self.v / o.v, self, o)
    }
    /// `a % b`: static when both are, when `b` is `_1`/`_-1`, or when `a` is `_0`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(7).rem(Val::st(4)).to_string(), "_3");
    /// assert_eq!(Val::dy(7).rem(Val::st(4)).to_string(), "3");
    /// assert_eq!(Val::dy(7).rem(Val::st(1)).to_string(), "_0");
    /// ```
    pub const fn rem(self, o: Val) -> Val {
        if self.is_const(0) || o.is_const(1) || o.is_const(-1) {
            return Val::st(0);
        }
        if o.v == 0 {
            panic!("remainder by zero in layout arithmetic");
        }
        Val::mk(self.v % o.v, self, o)
    }
    /// `min(a, b)`: static only when both are.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(2).min(Val::st(3)).to_string(), "_2");
    /// assert_eq!(Val::st(2).min(Val::dy(3)).to_string(), "2");
    /// ```
    pub const fn min(self, o: Val) -> Val {
        Val::mk(if self.v < o.v { self.v } else { o.v }, self, o)
    }
    /// `max(a, b)`: static only when both are.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(4).max(Val::st(3)).to_string(), "_4");
    /// assert_eq!(Val::st(2).max(Val::dy(3)).to_string(), "3");
    /// ```
    pub const fn max(self, o: Val) -> Val {
        Val::mk(if self.v > o.v { self.v } else { o.v }, self, o)
    }
    /// `gcd(a, b)`: static only when both are.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(12).gcd(Val::st(18)).to_string(), "_6");
    /// assert_eq!(Val::dy(12).gcd(Val::st(8)).to_string(), "4");
    /// ```
    pub const fn gcd(self, o: Val) -> Val {
        Val::mk(gcd(self.v, o.v), self, o)
    }
    /// `abs(a)`, keeps the mark.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(-3).abs().to_string(), "_3");
    /// assert_eq!(Val::dy(-3).abs().to_string(), "3");
    /// ```
    pub const fn abs(self) -> Val {
        Val {
            v: if self.v < 0 { -self.v } else { self.v },
            s: self.s,
            k: self.k,
        }
    }
    /// `signum(a)`, keeps the mark.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(-3).signum().to_string(), "_-1");
    /// assert_eq!(Val::dy(5).signum().to_string(), "1");
    /// ```
    pub const fn signum(self) -> Val {
        Val {
            v: if self.v < 0 {
                -1
            } else if self.v > 0 {
                1
            } else {
                0
            },
            s: self.s,
            k: self.k,
        }
    }
    /// `ceil_div(a, b) = (a + b - _1) / b`, CuTe's marks.
    ///
    /// ```
    /// use layout_types::value::int_tuple::Val;
    /// assert_eq!(Val::st(10).ceil_div(Val::st(4)).to_string(), "_3");
    /// assert_eq!(Val::dy(10).ceil_div(Val::st(4)).to_string(), "3");
    /// ```
    pub const fn ceil_div(self, o: Val) -> Val {
        self.add(o).sub(Val::st(1)).div(o)
    }
}

/// Greatest common divisor of two integers (non-negative result).
///
/// ```
/// use layout_types::value::int_tuple::gcd;
/// assert_eq!(gcd(-12, 18), 6);
/// assert_eq!(gcd(0, 5), 5);
/// ```
pub const fn gcd(a: i64, b: i64) -> i64 {
    let mut a = if a < 0 { -a } else { a };
    let mut b = if b < 0 { -b } else { b };
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.s {
            write!(f, "_{}", self.v)
        } else {
            write!(f, "{}", self.v)
        }
    }
}

/// Node kinds of an [`IntTuple`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// A dynamic integer leaf.
    Dyn,
    /// A static integer leaf (`_N`).
    Static,
    /// A tuple; its children follow it in pre-order.
    Tuple,
    /// A known plain integer leaf (see [`Val`]).
    Known,
    /// CuTe's `_` (Underscore): "keep this mode" in a slicing coordinate.
    Under,
    /// CuTe's `X` (also an Underscore) in a projection `Step`.
    X,
}

/// One node in pre-order: a leaf, or a tuple followed by its `span - 1` descendant nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// What this node is.
    pub kind: Kind,
    /// Number of direct children (tuples only).
    pub nch: u8,
    /// Number of nodes in this subtree, itself included.
    pub span: u8,
    /// The integer (leaves only).
    pub v: i64,
}

const fn bit(k: Kind) -> u8 {
    1 << (k as u8)
}

const NODE0: Node = Node {
    kind: Kind::Dyn,
    nch: 0,
    span: 1,
    v: 0,
};

/// A hierarchical tuple of integers (CuTe's IntTuple), also used for coordinates (leaves may be
/// `_`) and projection steps (leaves may be `X`).
#[derive(Clone, Copy)]
pub struct IntTuple {
    n: [Node; CAP],
    len: u8,
}

impl PartialEq for IntTuple {
    fn eq(&self, o: &Self) -> bool {
        self.same(o)
    }
}
impl Eq for IntTuple {}

impl fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl IntTuple {
    /// A leaf holding `v`.
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val};
    /// assert_eq!(IntTuple::leaf(Val::st(3)).to_string(), "_3");
    /// assert_eq!(IntTuple::leaf(Val::dy(3)).to_string(), "3");
    /// ```
    pub const fn leaf(v: Val) -> IntTuple {
        let mut n = [NODE0; CAP];
        let kind = if v.s {
            Kind::Static
        } else if v.k {
            Kind::Known
        } else {
            Kind::Dyn
        };
        n[0] = Node {
            kind,
            nch: 0,
            span: 1,
            v: v.v,
        };
        IntTuple { n, len: 1 }
    }
    /// A static leaf `_v`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t = IntTuple::st(8);
    /// assert_eq!(t.to_string(), "_8");
    /// assert!(t.is_static());
    /// ```
    pub const fn st(v: i64) -> IntTuple {
        IntTuple::leaf(Val::st(v))
    }
    /// A dynamic leaf `v`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t = IntTuple::dy(8);
    /// assert_eq!(t.to_string(), "8");
    /// assert!(!t.is_static());
    /// ```
    pub const fn dy(v: i64) -> IntTuple {
        IntTuple::leaf(Val::dy(v))
    }
    /// CuTe's `_`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let u = IntTuple::under();
    /// assert_eq!(u.to_string(), "_");
    /// assert!(u.is_under() && !u.is_int());
    /// ```
    pub const fn under() -> IntTuple {
        let mut t = IntTuple::st(0);
        t.n[0].kind = Kind::Under;
        t
    }
    /// CuTe's `X` (a projection marker in a `Step`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let x = IntTuple::x();
    /// assert_eq!(x.to_string(), "X");
    /// assert!(x.is_x());
    /// ```
    pub const fn x() -> IntTuple {
        let mut t = IntTuple::st(0);
        t.n[0].kind = Kind::X;
        t
    }
    /// The empty tuple `()`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let e = IntTuple::empty();
    /// assert_eq!(e.to_string(), "()");
    /// assert_eq!(e.rank(), 0);
    /// ```
    pub const fn empty() -> IntTuple {
        let mut n = [NODE0; CAP];
        n[0] = Node {
            kind: Kind::Tuple,
            nch: 0,
            span: 1,
            v: 0,
        };
        IntTuple { n, len: 1 }
    }
    /// `(a)`: a rank-1 tuple.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!(IntTuple::wrap1(&IntTuple::st(4)).to_string(), "(_4)");
    /// ```
    pub const fn wrap1(a: &IntTuple) -> IntTuple {
        let mut t = IntTuple::empty();
        t.push(a);
        t
    }
    /// `(a,b)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let p = IntTuple::pair(&IntTuple::st(2), &IntTuple::dy(3));
    /// assert_eq!(p.to_string(), "(_2,3)");
    /// ```
    pub const fn pair(a: &IntTuple, b: &IntTuple) -> IntTuple {
        let mut t = IntTuple::empty();
        t.push(a);
        t.push(b);
        t
    }
    /// Appends `c` as the last child of this tuple (CuTe's `append`); a leaf is first wrapped.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let mut t = IntTuple::empty();
    /// t.push(&IntTuple::st(2));
    /// t.push(&"(3,_4)".parse().unwrap());
    /// assert_eq!(t.to_string(), "(_2,(3,_4))");
    /// let mut l = IntTuple::st(2);
    /// l.push(&IntTuple::st(3));
    /// assert_eq!(l.to_string(), "(_2,_3)");
    /// ```
    pub const fn push(&mut self, c: &IntTuple) {
        if !self.is_tuple() {
            *self = IntTuple::wrap1(self);
        }
        let l = self.len as usize;
        let cl = c.len as usize;
        if l + cl > CAP {
            panic!("IntTuple capacity exceeded (more than 64 nodes)");
        }
        let mut i = 0;
        while i < cl {
            self.n[l + i] = c.n[i];
            i += 1;
        }
        self.len = (l + cl) as u8;
        self.n[0].nch += 1;
        self.n[0].span = self.len;
    }
    /// Number of nodes.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.node_count(), 5); // two tuples, three leaves
    /// ```
    pub const fn node_count(&self) -> usize {
        self.len as usize
    }
    /// The root node.
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Kind};
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.root().kind, Kind::Tuple);
    /// assert_eq!((t.root().nch, t.root().span), (2, 5));
    /// ```
    pub const fn root(&self) -> Node {
        self.n[0]
    }
    /// Whether this is a tuple (not a leaf).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("(_2,3)".parse::<IntTuple>().unwrap().is_tuple());
    /// assert!(!IntTuple::st(2).is_tuple());
    /// ```
    pub const fn is_tuple(&self) -> bool {
        matches!(self.n[0].kind, Kind::Tuple)
    }
    /// Whether this is an integer leaf.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!(IntTuple::st(2).is_int() && IntTuple::dy(2).is_int());
    /// assert!(!IntTuple::under().is_int());
    /// assert!(!"(2)".parse::<IntTuple>().unwrap().is_int());
    /// ```
    pub const fn is_int(&self) -> bool {
        matches!(self.n[0].kind, Kind::Dyn | Kind::Static | Kind::Known)
    }
    /// Whether this is `_`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("_".parse::<IntTuple>().unwrap().is_under());
    /// assert!(!"_0".parse::<IntTuple>().unwrap().is_under());
    /// ```
    pub const fn is_under(&self) -> bool {
        matches!(self.n[0].kind, Kind::Under)
    }
    /// Whether this is `X`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("X".parse::<IntTuple>().unwrap().is_x());
    /// assert!(!IntTuple::under().is_x());
    /// ```
    pub const fn is_x(&self) -> bool {
        matches!(self.n[0].kind, Kind::X)
    }
    /// The integer of a leaf (panics on a tuple).
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val};
    /// assert_eq!("_4".parse::<IntTuple>().unwrap().val(), Val::st(4));
    /// assert_eq!("4".parse::<IntTuple>().unwrap().val(), Val::dy(4));
    /// ```
    pub const fn val(&self) -> Val {
        match self.n[0].kind {
            Kind::Dyn => Val::dy(self.n[0].v),
            Kind::Static => Val::st(self.n[0].v),
            Kind::Known => Val::kn(self.n[0].v),
            _ => panic!("expected an integer, found a tuple or `_`"),
        }
    }
    /// Whether any node's kind is in `mask` (a set of [`bit`]s).
    const fn any_of(&self, mask: u8) -> bool {
        let mut i = 0;
        while i < self.len as usize {
            if bit(self.n[i].kind) & mask != 0 {
                return true;
            }
            i += 1;
        }
        false
    }
    /// Whether every leaf is static (CuTe's `is_static`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("(_2,_4)".parse::<IntTuple>().unwrap().is_static());
    /// assert!(!"(_2,4)".parse::<IntTuple>().unwrap().is_static());
    /// ```
    pub const fn is_static(&self) -> bool {
        !self.any_of(bit(Kind::Dyn) | bit(Kind::Known))
    }
    /// Whether every leaf is known (static, or a known plain integer).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,4)".parse().unwrap();
    /// assert!(!t.is_known());
    /// assert!(t.to_known().is_known());
    /// ```
    pub const fn is_known(&self) -> bool {
        !self.any_of(bit(Kind::Dyn))
    }
    /// Whether any leaf is static.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("(_2,4)".parse::<IntTuple>().unwrap().has_static());
    /// assert!(!"(2,4)".parse::<IntTuple>().unwrap().has_static());
    /// ```
    pub const fn has_static(&self) -> bool {
        self.any_of(bit(Kind::Static))
    }
    /// The same tuple with every dynamic leaf made a known plain integer (see [`Val`]).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let k = "(_2,4)".parse::<IntTuple>().unwrap().to_known();
    /// assert_eq!(k.to_string(), "(_2,4)"); // printed as before
    /// assert!(k.is_known() && !k.is_static());
    /// ```
    pub const fn to_known(&self) -> IntTuple {
        let mut r = *self;
        let mut i = 0;
        while i < r.len as usize {
            if matches!(r.n[i].kind, Kind::Dyn) {
                r.n[i].kind = Kind::Known;
            }
            i += 1;
        }
        r
    }
    /// Whether any leaf is `_` or `X`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert!("(_,2)".parse::<IntTuple>().unwrap().has_under());
    /// assert!("(_1,X)".parse::<IntTuple>().unwrap().has_under());
    /// assert!(!"(_1,2)".parse::<IntTuple>().unwrap().has_under());
    /// ```
    pub const fn has_under(&self) -> bool {
        self.any_of(bit(Kind::Under) | bit(Kind::X))
    }
    /// Number of modes: 1 for a leaf, else the number of children.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("((_2,3),_4)".parse::<IntTuple>().unwrap().rank(), 2);
    /// assert_eq!(IntTuple::st(4).rank(), 1);
    /// assert_eq!(IntTuple::empty().rank(), 0);
    /// ```
    pub const fn rank(&self) -> usize {
        if self.is_tuple() {
            self.n[0].nch as usize
        } else {
            1
        }
    }
    /// Nesting depth: 0 for a leaf.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!(IntTuple::st(4).depth(), 0);
    /// assert_eq!("(_2,3)".parse::<IntTuple>().unwrap().depth(), 1);
    /// assert_eq!("((_2,3),_4)".parse::<IntTuple>().unwrap().depth(), 2);
    /// ```
    pub const fn depth(&self) -> usize {
        if !self.is_tuple() {
            return 0;
        }
        let mut m = 0;
        let mut i = 0;
        while i < self.rank() {
            let d = self.get(i).depth();
            if d > m {
                m = d;
            }
            i += 1;
        }
        1 + m
    }
    const fn child_pos(&self, i: usize) -> usize {
        let mut p = 1;
        let mut k = 0;
        while k < i {
            p += self.n[p].span as usize;
            k += 1;
        }
        p
    }
    const fn sub_at(&self, p: usize) -> IntTuple {
        let span = self.n[p].span as usize;
        let mut n = [NODE0; CAP];
        let mut k = 0;
        while k < span {
            n[k] = self.n[p + k];
            k += 1;
        }
        IntTuple { n, len: span as u8 }
    }
    /// Mode `i` (CuTe's `get<i>`); a leaf's mode 0 is itself.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.get(0).to_string(), "(_2,3)");
    /// assert_eq!(t.get(1).to_string(), "_4");
    /// assert_eq!(IntTuple::st(4).get(0).to_string(), "_4");
    /// ```
    pub const fn get(&self, i: usize) -> IntTuple {
        if !self.is_tuple() {
            if i != 0 {
                panic!("mode index out of range");
            }
            return *self;
        }
        if i >= self.rank() {
            panic!("mode index out of range");
        }
        self.sub_at(self.child_pos(i))
    }
    /// Nested mode `get<i, j, ...>`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.get_path(&[0, 1]).to_string(), "3");
    /// ```
    pub const fn get_path(&self, path: &[usize]) -> IntTuple {
        let mut t = *self;
        let mut k = 0;
        while k < path.len() {
            t = t.get(path[k]);
            k += 1;
        }
        t
    }
    /// Structural equality, static marks included.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,3)".parse().unwrap();
    /// let b: IntTuple = "(2,3)".parse().unwrap();
    /// assert!(a.same(&a) && !a.same(&b));
    /// assert_ne!(a, b); // `==` is `same`
    /// ```
    pub const fn same(&self, o: &IntTuple) -> bool {
        if self.len != o.len {
            return false;
        }
        let mut i = 0;
        while i < self.len as usize {
            let (a, b) = (self.n[i], o.n[i]);
            if a.kind as u8 != b.kind as u8 || a.nch != b.nch || a.v != b.v {
                return false;
            }
            i += 1;
        }
        true
    }
    /// Equal values and structure, ignoring static marks.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,3)".parse().unwrap();
    /// assert!(a.same_value(&"(2,_3)".parse().unwrap()));
    /// assert!(!a.same_value(&"(2,(3))".parse().unwrap()));
    /// ```
    pub const fn same_value(&self, o: &IntTuple) -> bool {
        if self.len != o.len {
            return false;
        }
        let mut i = 0;
        while i < self.len as usize {
            let (a, b) = (self.n[i], o.n[i]);
            let ak = if matches!(a.kind, Kind::Static | Kind::Known) {
                Kind::Dyn
            } else {
                a.kind
            };
            let bk = if matches!(b.kind, Kind::Static | Kind::Known) {
                Kind::Dyn
            } else {
                b.kind
            };
            if ak as u8 != bk as u8 || a.nch != b.nch || a.v != b.v {
                return false;
            }
            i += 1;
        }
        true
    }
    /// The leaves in order, as a flat tuple (a leaf stays a leaf; CuTe's `flatten`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),(_4,(5)))".parse().unwrap();
    /// assert_eq!(t.flatten().to_string(), "(_2,3,_4,5)");
    /// assert_eq!(IntTuple::st(4).flatten().to_string(), "_4");
    /// ```
    pub const fn flatten(&self) -> IntTuple {
        if !self.is_tuple() {
            return *self;
        }
        let mut r = IntTuple::empty();
        let mut i = 1;
        while i < self.len as usize {
            if !matches!(self.n[i].kind, Kind::Tuple) {
                r.push(&self.sub_at(i));
            }
            i += 1;
        }
        r
    }
    /// Flatten, always returning a tuple (`flatten_to_tuple`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!(IntTuple::st(4).flatten_to_tuple().to_string(), "(_4)");
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.flatten_to_tuple().to_string(), "(_2,3,_4)");
    /// ```
    pub const fn flatten_to_tuple(&self) -> IntTuple {
        if self.is_tuple() {
            self.flatten()
        } else {
            IntTuple::wrap1(self)
        }
    }
    /// Number of leaves.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("((_2,3),_4)".parse::<IntTuple>().unwrap().leaf_count(), 3);
    /// ```
    pub const fn leaf_count(&self) -> usize {
        let mut c = 0;
        let mut i = 0;
        while i < self.len as usize {
            if !matches!(self.n[i].kind, Kind::Tuple) {
                c += 1;
            }
            i += 1;
        }
        c
    }
    /// Leaf `i` in pre-order.
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val};
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.leaf_at(1), Val::dy(3));
    /// assert_eq!(t.leaf_at(2), Val::st(4));
    /// ```
    pub const fn leaf_at(&self, i: usize) -> Val {
        let mut c = 0;
        let mut k = 0;
        while k < self.len as usize {
            if !matches!(self.n[k].kind, Kind::Tuple) {
                if c == i {
                    return self.sub_at(k).val();
                }
                c += 1;
            }
            k += 1;
        }
        panic!("leaf index out of range")
    }
    /// A tuple with the same profile whose leaves are taken in order from `leaves`
    /// (CuTe's `unflatten`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let leaves: IntTuple = "(_2,3,_4)".parse().unwrap();
    /// let profile: IntTuple = "((0,0),0)".parse().unwrap();
    /// assert_eq!(IntTuple::unflatten(&leaves, &profile).to_string(), "((_2,3),_4)");
    /// ```
    pub const fn unflatten(leaves: &IntTuple, profile: &IntTuple) -> IntTuple {
        let flat = leaves.flatten_to_tuple();
        let mut r = *profile;
        let mut c = 0;
        let mut k = 0;
        while k < r.len as usize {
            if !matches!(r.n[k].kind, Kind::Tuple) {
                let src = flat.get(c);
                r.n[k].kind = src.n[0].kind;
                r.n[k].v = src.n[0].v;
                c += 1;
            }
            k += 1;
        }
        r
    }
    /// `unwrap`: a rank-1 tuple `(a)` becomes `a`, recursively.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("((_4))".parse::<IntTuple>().unwrap().unwrap().to_string(), "_4");
    /// assert_eq!("((_2,_3))".parse::<IntTuple>().unwrap().unwrap().to_string(), "(_2,_3)");
    /// ```
    pub const fn unwrap(&self) -> IntTuple {
        if self.is_tuple() && self.rank() == 1 {
            self.get(0).unwrap()
        } else {
            *self
        }
    }
    /// `wrap`: a leaf becomes `(a)`; a tuple stays.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!(IntTuple::st(4).wrap().to_string(), "(_4)");
    /// assert_eq!("(_2,_3)".parse::<IntTuple>().unwrap().wrap().to_string(), "(_2,_3)");
    /// ```
    pub const fn wrap(&self) -> IntTuple {
        if self.is_tuple() {
            *self
        } else {
            IntTuple::wrap1(self)
        }
    }

    /// Product of all leaves (CuTe's `product`/`size`), with CuTe's static marks.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("((_2,_3),_4)".parse::<IntTuple>().unwrap().product().to_string(), "_24");
    /// assert_eq!("(_2,3)".parse::<IntTuple>().unwrap().product().to_string(), "6");
    /// assert_eq!(IntTuple::empty().product().to_string(), "_1");
    /// ```
    pub const fn product(&self) -> Val {
        if !self.is_tuple() {
            return self.val();
        }
        if self.rank() == 0 {
            return Val::st(1);
        }
        let mut acc = self.get(0).product();
        let mut i = 1;
        while i < self.rank() {
            acc = acc.mul(self.get(i).product());
            i += 1;
        }
        acc
    }
    /// Same as [`IntTuple::product`].
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("(_2,_4)".parse::<IntTuple>().unwrap().size().to_string(), "_8");
    /// ```
    pub const fn size(&self) -> Val {
        self.product()
    }
    /// Sum of all leaves.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!("(_2,_3)".parse::<IntTuple>().unwrap().sum().to_string(), "_5");
    /// assert_eq!("(_2,3,_4)".parse::<IntTuple>().unwrap().sum().to_string(), "9");
    /// ```
    pub const fn sum(&self) -> Val {
        if !self.is_tuple() {
            return self.val();
        }
        let mut acc = Val::st(0);
        let mut i = 0;
        while i < self.rank() {
            acc = acc.add(self.get(i).sum());
            i += 1;
        }
        acc
    }
    /// `product_each`: the product of each mode, as a tuple (a leaf gives `(a)`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.product_each().to_string(), "(6,_4)");
    /// assert_eq!(IntTuple::st(4).product_each().to_string(), "(_4)");
    /// ```
    pub const fn product_each(&self) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < w.rank() {
            r.push(&IntTuple::leaf(w.get(i).product()));
            i += 1;
        }
        r
    }
    /// `product_like(self, guide)`: product of each part of `self` at the leaves of `guide`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,_3),(_4,_5))".parse().unwrap();
    /// let guide: IntTuple = "(0,(0,0))".parse().unwrap();
    /// assert_eq!(t.product_like(&guide).to_string(), "(_6,(_4,_5))");
    /// ```
    pub const fn product_like(&self, guide: &IntTuple) -> IntTuple {
        if guide.is_tuple() {
            let mut r = IntTuple::empty();
            let mut i = 0;
            while i < guide.rank() {
                r.push(&self.get(i).product_like(&guide.get(i)));
                i += 1;
            }
            r
        } else {
            IntTuple::leaf(self.product())
        }
    }
    /// Maximum leaf (CuTe's `max` over a tuple).
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val};
    /// let t: IntTuple = "(_2,(_8,_4))".parse().unwrap();
    /// assert_eq!(t.max_leaf(), Val::st(8));
    /// ```
    pub const fn max_leaf(&self) -> Val {
        let mut acc = self.leaf_at(0);
        let mut i = 1;
        while i < self.leaf_count() {
            acc = acc.max(self.leaf_at(i));
            i += 1;
        }
        acc
    }
    /// Minimum leaf (CuTe's `min` over a tuple).
    ///
    /// ```
    /// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val};
    /// let t: IntTuple = "(_2,(_8,_4))".parse().unwrap();
    /// assert_eq!(t.min_leaf(), Val::st(2));
    /// ```
    pub const fn min_leaf(&self) -> Val {
        let mut acc = self.leaf_at(0);
        let mut i = 1;
        while i < self.leaf_count() {
            acc = acc.min(self.leaf_at(i));
            i += 1;
        }
        acc
    }

    /// `ceil_div(a, b)`: tuple/tuple element-wise (missing modes of `b` are `_1`), tuple/int folds
    /// `b` across `a`, int/tuple divides by `product(b)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_8,_6)".parse().unwrap();
    /// assert_eq!(a.ceil_div(&"(_4,_4)".parse().unwrap()).to_string(), "(_2,_2)");
    /// let b: IntTuple = "(_4,_8)".parse().unwrap();
    /// assert_eq!(b.ceil_div(&IntTuple::st(8)).to_string(), "(_1,_4)");
    /// assert_eq!(IntTuple::dy(10).ceil_div(&IntTuple::st(4)).to_string(), "3");
    /// ```
    pub const fn ceil_div(&self, b: &IntTuple) -> IntTuple {
        if self.is_tuple() {
            let mut r = IntTuple::empty();
            if b.is_tuple() {
                if self.rank() < b.rank() {
                    panic!("ceil_div: mismatched ranks");
                }
                let mut i = 0;
                while i < self.rank() {
                    let bi = if i < b.rank() {
                        b.get(i)
                    } else {
                        IntTuple::st(1)
                    };
                    r.push(&self.get(i).ceil_div(&bi));
                    i += 1;
                }
            } else {
                let mut rest = *b;
                let mut i = 0;
                while i < self.rank() {
                    let ai = self.get(i);
                    r.push(&ai.ceil_div(&rest));
                    rest = rest.ceil_div(&ai);
                    i += 1;
                }
            }
            r
        } else if b.is_tuple() {
            IntTuple::leaf(self.val().ceil_div(b.product()))
        } else {
            IntTuple::leaf(self.val().ceil_div(b.val()))
        }
    }

    /// `shape_div(a, b)`: like `ceil_div`, but enforcing CuTe's divisibility condition
    /// (`a % b == 0 || b % a == 0`) when both are static.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_4,_5,_6)".parse().unwrap();
    /// assert_eq!(a.shape_div(&IntTuple::st(40)).unwrap().to_string(), "(_1,_1,_3)");
    /// assert!(IntTuple::st(6).shape_div(&IntTuple::st(4)).is_err());
    /// ```
    pub const fn shape_div(&self, b: &IntTuple) -> Result<IntTuple, crate::Error> {
        if self.is_tuple() {
            let mut r = IntTuple::empty();
            if b.is_tuple() {
                if self.rank() != b.rank() {
                    return Err(crate::Error::new("shape_div: mismatched ranks"));
                }
                let mut i = 0;
                while i < self.rank() {
                    match self.get(i).shape_div(&b.get(i)) {
                        Ok(x) => r.push(&x),
                        Err(e) => return Err(e),
                    }
                    i += 1;
                }
            } else {
                let mut rest = *b;
                let mut i = 0;
                while i < self.rank() {
                    let ai = self.get(i);
                    match ai.shape_div(&rest) {
                        Ok(x) => r.push(&x),
                        Err(e) => return Err(e),
                    }
                    rest = match rest.shape_div(&ai) {
                        Ok(x) => x,
                        Err(e) => return Err(e),
                    };
                    i += 1;
                }
            }
            Ok(r)
        } else if b.is_tuple() {
            IntTuple::leaf(self.val()).shape_div(&IntTuple::leaf(b.product()))
        } else {
            let (a, b) = (self.val(), b.val());
            if a.s && b.s && b.v != 0 && a.v != 0 && a.v % b.v != 0 && b.v % a.v != 0 {
                return Err(crate::Error::with2(
                    "Divisibility Condition: shape_div needs a % b == 0 or b % a == 0",
                    a.v,
                    b.v,
                ));
            }
            Ok(IntTuple::leaf(a.ceil_div(b)))
        }
    }

    /// `elem_scale(a, b)`: `a_i * product(b_i)` with `a`'s profile.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,3)".parse().unwrap();
    /// let b: IntTuple = "(_4,(_2,_2))".parse().unwrap();
    /// assert_eq!(a.elem_scale(&b).to_string(), "(_8,12)");
    /// ```
    pub const fn elem_scale(&self, b: &IntTuple) -> IntTuple {
        if self.is_tuple() {
            let mut r = IntTuple::empty();
            let mut i = 0;
            while i < self.rank() {
                r.push(&self.get(i).elem_scale(&b.get(i)));
                i += 1;
            }
            r
        } else {
            IntTuple::leaf(self.val().mul(b.product()))
        }
    }

    /// Exclusive prefix product in column-major order (CuTe's `compact_col_major`/`prefix_product`),
    /// starting at `_1`: `(a,b,c) -> (_1,a,a*b)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4)".parse().unwrap();
    /// assert_eq!(t.prefix_product().to_string(), "(_1,_2,6)");
    /// // as `compact_col_major`, a static `_1` mode gets stride `_0`
    /// assert_eq!("(_1,_4)".parse::<IntTuple>().unwrap().prefix_product().to_string(), "(_0,_1)");
    /// ```
    pub const fn prefix_product(&self) -> IntTuple {
        compact_major(self, Val::st(1), false)
    }

    /// Same profile: both leaves, or tuples of equal rank whose modes are congruent.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,(3,4))".parse().unwrap();
    /// assert!(a.congruent(&"(1,(2,3))".parse().unwrap()));
    /// assert!(!a.congruent(&"(1,2)".parse().unwrap()));
    /// ```
    pub const fn congruent(&self, b: &IntTuple) -> bool {
        if self.is_tuple() && b.is_tuple() {
            if self.rank() != b.rank() {
                return false;
            }
            let mut i = 0;
            while i < self.rank() {
                if !self.get(i).congruent(&b.get(i)) {
                    return false;
                }
                i += 1;
            }
            true
        } else {
            !self.is_tuple() && !b.is_tuple()
        }
    }
    /// `weakly_congruent(a, b)`: `a`'s profile is a coarsening of `b`'s.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,_8)".parse().unwrap();
    /// let b: IntTuple = "(_2,(_4,_2))".parse().unwrap();
    /// assert!(a.weakly_congruent(&b));
    /// assert!(!b.weakly_congruent(&a));
    /// ```
    pub const fn weakly_congruent(&self, b: &IntTuple) -> bool {
        if self.is_tuple() && b.is_tuple() {
            if self.rank() != b.rank() {
                return false;
            }
            let mut i = 0;
            while i < self.rank() {
                if !self.get(i).weakly_congruent(&b.get(i)) {
                    return false;
                }
                i += 1;
            }
            true
        } else {
            !self.is_tuple()
        }
    }
    /// `compatible(a, b)`: every coordinate of `a` is a coordinate of `b` (sizes agree at `a`'s leaves).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let s: IntTuple = "(_2,_4)".parse().unwrap();
    /// assert!(IntTuple::dy(8).compatible(&s));
    /// assert!(!IntTuple::dy(6).compatible(&s));
    /// assert!(!s.compatible(&IntTuple::dy(8)));
    /// ```
    pub const fn compatible(&self, b: &IntTuple) -> bool {
        if self.is_tuple() && b.is_tuple() {
            if self.rank() != b.rank() {
                return false;
            }
            let mut i = 0;
            while i < self.rank() {
                if !self.get(i).compatible(&b.get(i)) {
                    return false;
                }
                i += 1;
            }
            true
        } else if self.is_tuple() {
            false
        } else {
            self.val().v == b.product().v
        }
    }

    /// `append(t, x)`: `t` as a tuple with `x` appended.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3)".parse().unwrap();
    /// assert_eq!(t.append(&IntTuple::st(4)).to_string(), "(_2,3,_4)");
    /// assert_eq!(IntTuple::st(2).append(&IntTuple::st(4)).to_string(), "(_2,_4)");
    /// ```
    pub const fn append(&self, x: &IntTuple) -> IntTuple {
        let mut r = self.wrap();
        r.push(x);
        r
    }
    /// `append<N>(t, x)`: pad `t` (wrapped) with copies of `x` up to rank `n`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let one = IntTuple::st(1);
    /// assert_eq!(IntTuple::st(2).append_to(3, &one).to_string(), "(_2,_1,_1)");
    /// let t: IntTuple = "(_2,_3)".parse().unwrap();
    /// assert_eq!(t.append_to(3, &one).to_string(), "(_2,_3,_1)");
    /// ```
    pub const fn append_to(&self, n: usize, x: &IntTuple) -> IntTuple {
        if !self.is_tuple() && n == 1 {
            return *self;
        }
        let mut r = self.wrap();
        while r.rank() < n {
            r.push(x);
        }
        r
    }
    /// `prepend(t, x)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3)".parse().unwrap();
    /// assert_eq!(t.prepend(&IntTuple::st(4)).to_string(), "(_4,_2,3)");
    /// ```
    pub const fn prepend(&self, x: &IntTuple) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::wrap1(x);
        let mut i = 0;
        while i < w.rank() {
            r.push(&w.get(i));
            i += 1;
        }
        r
    }
    /// `replace<i>(t, x)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4)".parse().unwrap();
    /// let x: IntTuple = "(_5,_6)".parse().unwrap();
    /// assert_eq!(t.replace(1, &x).to_string(), "(_2,(_5,_6),_4)");
    /// ```
    pub const fn replace(&self, i: usize, x: &IntTuple) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::empty();
        let mut k = 0;
        while k < w.rank() {
            if k == i {
                r.push(x);
            } else {
                r.push(&w.get(k));
            }
            k += 1;
        }
        r
    }
    /// `remove<i>(t)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4)".parse().unwrap();
    /// assert_eq!(t.remove(0).to_string(), "(3,_4)");
    /// ```
    pub const fn remove(&self, i: usize) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::empty();
        let mut k = 0;
        while k < w.rank() {
            if k != i {
                r.push(&w.get(k));
            }
            k += 1;
        }
        r
    }
    /// `group<b, e>(t)`: modes `[b, e)` gathered into one mode; with `b >= e` the modes as they
    /// are (CuTe inserts no empty mode for `b == e`; `b > e` is its static_assert). A leaf is one
    /// mode.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4,_5)".parse().unwrap();
    /// assert_eq!(t.group(1, 3).to_string(), "(_2,(3,_4),_5)");
    /// assert_eq!(t.group(1, 1).to_string(), "(_2,3,_4,_5)");
    /// assert_eq!(IntTuple::st(8).group(0, 1).to_string(), "((_8))");
    /// ```
    pub const fn group(&self, b: usize, e: usize) -> IntTuple {
        let w = self.wrap();
        if b >= e {
            return w;
        }
        let mut r = IntTuple::empty();
        let mut g = IntTuple::empty();
        let mut k = 0;
        while k < w.rank() {
            if k == b {
                r.push(&IntTuple::empty());
            }
            if k >= b && k < e {
                g.push(&w.get(k));
            } else {
                r.push(&w.get(k));
            }
            k += 1;
        }
        if b >= w.rank() {
            r.push(&g);
            return r;
        }
        r.replace(b, &g)
    }
    /// `take<b, e>(t)`: modes `[b, e)`.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4,_5)".parse().unwrap();
    /// assert_eq!(t.take(1, 3).to_string(), "(3,_4)");
    /// ```
    pub const fn take(&self, b: usize, e: usize) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::empty();
        let mut k = b;
        while k < e && k < w.rank() {
            r.push(&w.get(k));
            k += 1;
        }
        r
    }
    /// `select<i...>(t)`: the listed modes, in order.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_2,3,_4)".parse().unwrap();
    /// assert_eq!(t.select(&[2, 0]).to_string(), "(_4,_2)");
    /// ```
    pub const fn select(&self, idx: &[usize]) -> IntTuple {
        let w = self.wrap();
        let mut r = IntTuple::empty();
        let mut k = 0;
        while k < idx.len() {
            r.push(&w.get(idx[k]));
            k += 1;
        }
        r
    }
    /// Concatenate the modes of two tuples.
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let a: IntTuple = "(_2,3)".parse().unwrap();
    /// let b: IntTuple = "(_4,(5))".parse().unwrap();
    /// assert_eq!(a.concat(&b).to_string(), "(_2,3,_4,(5))");
    /// ```
    pub const fn concat(&self, o: &IntTuple) -> IntTuple {
        let mut r = self.wrap();
        let w = o.wrap();
        let mut i = 0;
        while i < w.rank() {
            r.push(&w.get(i));
            i += 1;
        }
        r
    }
    /// Copy of `self` with every leaf replaced by `x` (`repeat_like`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "((_2,3),_4)".parse().unwrap();
    /// assert_eq!(t.repeat_like(&IntTuple::st(0)).to_string(), "((_0,_0),_0)");
    /// ```
    pub const fn repeat_like(&self, x: &IntTuple) -> IntTuple {
        if self.is_tuple() {
            let mut r = IntTuple::empty();
            let mut i = 0;
            while i < self.rank() {
                r.push(&self.get(i).repeat_like(x));
                i += 1;
            }
            r
        } else {
            *x
        }
    }
    /// A tuple of `n` copies of `x` (`repeat<n>(x)`; `n == 1` gives `x`).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// assert_eq!(IntTuple::repeat(3, &IntTuple::under()).to_string(), "(_,_,_)");
    /// assert_eq!(IntTuple::repeat(1, &IntTuple::st(4)).to_string(), "_4");
    /// ```
    pub const fn repeat(n: usize, x: &IntTuple) -> IntTuple {
        if n == 1 {
            return *x;
        }
        let mut r = IntTuple::empty();
        let mut i = 0;
        while i < n {
            r.push(x);
            i += 1;
        }
        r
    }

    /// `slice(c, t)`: keep the parts of `t` where the coordinate `c` holds `_` (flattened one level).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_4,_8,_2)".parse().unwrap();
    /// assert_eq!(IntTuple::slice(&"(_,2,_)".parse().unwrap(), &t).to_string(), "(_4,_2)");
    /// let h: IntTuple = "((_2,_3),_4)".parse().unwrap();
    /// assert_eq!(IntTuple::slice(&"(_,1)".parse().unwrap(), &h).to_string(), "((_2,_3))");
    /// ```
    pub const fn slice(c: &IntTuple, t: &IntTuple) -> IntTuple {
        if c.is_tuple() {
            let mut r = IntTuple::empty();
            lift_filter(c, t, true, &mut r);
            r
        } else if c.is_under() || c.is_x() {
            *t
        } else {
            IntTuple::empty()
        }
    }
    /// `dice(c, t)`: keep the parts of `t` where `c` holds an integer (drop `_`/`X` modes).
    ///
    /// ```
    /// use layout_types::value::int_tuple::IntTuple;
    /// let t: IntTuple = "(_4,_8,_2)".parse().unwrap();
    /// assert_eq!(IntTuple::dice(&"(_1,X,_1)".parse().unwrap(), &t).to_string(), "(_4,_2)");
    /// ```
    pub const fn dice(c: &IntTuple, t: &IntTuple) -> IntTuple {
        if c.is_tuple() {
            let mut r = IntTuple::empty();
            lift_filter(c, t, false, &mut r);
            r
        } else if c.is_under() || c.is_x() {
            IntTuple::empty()
        } else {
            *t
        }
    }
}

const fn lift_filter(c: &IntTuple, t: &IntTuple, keep_under: bool, out: &mut IntTuple) {
    if c.is_tuple() {
        if !t.is_tuple() || t.rank() != c.rank() {
            panic!("slice/dice: mismatched ranks between the coordinate (or Step) and the tuple");
        }
        let mut i = 0;
        while i < c.rank() {
            lift_filter(&c.get(i), &t.get(i), keep_under, out);
            i += 1;
        }
    } else {
        let u = c.is_under() || c.is_x();
        if u == keep_under {
            out.push(t);
        }
    }
}

/// CuTe's `compact_major<LayoutLeft|LayoutRight>(shape, current)`: compact strides starting at
/// `current`; a static `_1` mode gets stride `_0`.
///
/// ```
/// use layout_types::{value::int_tuple::IntTuple, value::int_tuple::Val, value::int_tuple::compact_major};
/// let s: IntTuple = "(_2,3,_4)".parse().unwrap();
/// assert_eq!(compact_major(&s, Val::st(1), false).to_string(), "(_1,_2,6)");
/// assert_eq!(compact_major(&s, Val::st(1), true).to_string(), "(12,_4,_1)");
/// let u: IntTuple = "(_1,_4)".parse().unwrap();
/// assert_eq!(compact_major(&u, Val::st(1), false).to_string(), "(_0,_1)");
/// ```
pub const fn compact_major(shape: &IntTuple, current: Val, right: bool) -> IntTuple {
    compact_impl(shape, current, right).0
}

const fn compact_impl(shape: &IntTuple, current: Val, right: bool) -> (IntTuple, Val) {
    if shape.is_tuple() {
        let r = shape.rank();
        let mut out = IntTuple::empty();
        let mut cur = current;
        if right {
            // fold from the back, prepending
            let mut tmp = IntTuple::empty();
            let mut i = r;
            while i > 0 {
                i -= 1;
                let (s, c) = compact_impl(&shape.get(i), cur, right);
                tmp.push(&s);
                cur = c;
            }
            // tmp holds modes reversed
            let mut k = tmp.rank();
            while k > 0 {
                k -= 1;
                out.push(&tmp.get(k));
            }
        } else {
            let mut i = 0;
            while i < r {
                let (s, c) = compact_impl(&shape.get(i), cur, right);
                out.push(&s);
                cur = c;
                i += 1;
            }
        }
        (out, cur)
    } else if shape.val().is_const(1) {
        (IntTuple::st(0), current)
    } else {
        (IntTuple::leaf(current), current.mul(shape.val()))
    }
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn go(t: &IntTuple, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match t.root().kind {
                Kind::Tuple => {
                    f.write_str("(")?;
                    for i in 0..t.rank() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        go(&t.get(i), f)?;
                    }
                    f.write_str(")")
                }
                Kind::Under => f.write_str("_"),
                Kind::X => f.write_str("X"),
                _ => write!(f, "{}", t.val()),
            }
        }
        go(self, f)
    }
}
