"""Tiny model of CuTe values for the oracle generator.

Values mirror what `cute::print` shows:
  * `I(v, s)`      an integer leaf, static (`_N`, `Int<N>{}`) when `s`, dynamic (`N`, `int`) otherwise
  * Python tuple   an IntTuple (`(a,b)`); a rank-1 tuple prints `(a)`
  * `U`            the underscore `_` (slice marker in coordinates)
  * `XS`           the `X` of a step tuple (CuTe's `X` is an alias of `Underscore`)
  * `Lay(sh, st)`  a layout `shape:stride`
  * `ByMode([..])` a by-mode tiler, printed `[l0,l1,...]` (C++: `make_tile(l0, l1, ...)`)

It can print text, emit the C++ expression that builds the value with the same static/dynamic types,
parse CuTe text back, and evaluate layouts as integer functions (for admissibility checks).
"""
from __future__ import annotations

import itertools
import math


class I:
    __slots__ = ("v", "s")

    def __init__(self, v: int, s: bool):
        self.v = int(v)
        self.s = bool(s)

    def __eq__(self, o):
        return isinstance(o, I) and o.v == self.v and o.s == self.s

    def __hash__(self):
        return hash((self.v, self.s))

    def __repr__(self):
        return ("_" if self.s else "") + str(self.v)


class _Marker:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


U = _Marker("_")   # underscore in coordinates
XS = _Marker("X")  # X in step tuples


class Lay:
    __slots__ = ("shape", "stride")

    def __init__(self, shape, stride):
        self.shape = shape
        self.stride = stride

    def __repr__(self):
        return txt(self)

    def __eq__(self, o):
        return isinstance(o, Lay) and txt(o) == txt(self)


class ByMode:
    __slots__ = ("modes",)

    def __init__(self, modes):
        self.modes = list(modes)

    def __repr__(self):
        return txt(self)


def S(v):
    return I(v, True)


def D(v):
    return I(v, False)


# ---------------------------------------------------------------- text

def txt(x) -> str:
    if isinstance(x, I):
        return repr(x)
    if isinstance(x, tuple):
        return "(" + ",".join(txt(e) for e in x) + ")"
    if x is U:
        return "_"
    if x is XS:
        return "X"
    if isinstance(x, Lay):
        return txt(x.shape) + ":" + txt(x.stride)
    if isinstance(x, ByMode):
        return "[" + ",".join(txt(m) for m in x.modes) + "]"
    if isinstance(x, str):
        return x
    raise TypeError(repr(x))


# ---------------------------------------------------------------- C++

def cpp(x) -> str:
    if isinstance(x, I):
        return f"Int<{x.v}>{{}}" if x.s else f"int({x.v})"
    if isinstance(x, tuple):
        return "cute::make_tuple(" + ", ".join(cpp(e) for e in x) + ")"
    if x is U:
        return "_"
    if x is XS:
        return "X{}"
    if isinstance(x, Lay):
        return f"make_layout({cpp(x.shape)}, {cpp(x.stride)})"
    if isinstance(x, ByMode):
        return "make_tile(" + ", ".join(cpp(m) for m in x.modes) + ")"
    raise TypeError(repr(x))


# ---------------------------------------------------------------- parse

class _P:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def eat(self, c):
        if self.peek() != c:
            raise ValueError(f"expected {c!r} at {self.i} in {self.s!r}")
        self.i += 1

    def tup(self):
        if self.peek() == "(":
            self.eat("(")
            out = []
            if self.peek() == ")":
                self.eat(")")
                return ()
            while True:
                out.append(self.tup())
                if self.peek() == ",":
                    self.eat(",")
                    continue
                self.eat(")")
                return tuple(out)
        return self.leaf()

    def leaf(self):
        st = False
        if self.peek() == "X":
            self.i += 1
            return XS
        if self.peek() == "_":
            self.i += 1
            st = True
            if not (self.peek().isdigit() or self.peek() == "-"):
                return U
        j = self.i
        if self.peek() == "-":
            self.i += 1
        while self.peek().isdigit():
            self.i += 1
        if j == self.i:
            raise ValueError(f"bad leaf at {j} in {self.s!r}")
        return I(int(self.s[j:self.i]), st)

    def layout_or_tuple(self):
        a = self.tup()
        if self.peek() == ":":
            self.eat(":")
            b = self.tup()
            return Lay(a, b)
        return a

    def value(self):
        if self.peek() == "[":
            self.eat("[")
            mods = []
            while True:
                mods.append(self.layout_or_tuple())
                if self.peek() == ",":
                    self.eat(",")
                    continue
                self.eat("]")
                return ByMode(mods)
        return self.layout_or_tuple()


def parse(s: str):
    """Parse CuTe text: a layout, an IntTuple / coordinate / step, an int, or a by-mode tiler."""
    p = _P(s.strip())
    v = p.value()
    if p.i != len(p.s):
        raise ValueError(f"trailing text in {s!r}")
    return v


# ---------------------------------------------------------------- int tuples

def is_tuple(x):
    return isinstance(x, tuple)


def flatten(x):
    if isinstance(x, tuple):
        return [l for e in x for l in flatten(e)]
    return [x]


def plain(x):
    """Strip static marks: I -> int, tuples recursively, layouts to pycute-compatible (shape, stride)."""
    if isinstance(x, I):
        return x.v
    if isinstance(x, tuple):
        return tuple(plain(e) for e in x)
    if isinstance(x, Lay):
        return Lay(plain(x.shape), plain(x.stride))
    if x is U or x is XS:
        return None
    return x


def product(x):
    if isinstance(x, tuple):
        r = 1
        for e in x:
            r *= product(e)
        return r
    return x.v if isinstance(x, I) else x


def depth(x):
    if isinstance(x, tuple):
        return 1 + max((depth(e) for e in x), default=0)
    return 0


def rank(x):
    return len(x) if isinstance(x, tuple) else 1


def mode(lay: Lay, i):
    if isinstance(lay.shape, tuple):
        return Lay(lay.shape[i], lay.stride[i])
    assert i == 0
    return lay


def modes(lay: Lay):
    return [mode(lay, i) for i in range(rank(lay.shape))]


def size(lay):
    if isinstance(lay, Lay):
        return product(lay.shape)
    return product(lay)


def leaves(lay: Lay):
    return list(zip([product(s) for s in flatten(lay.shape)], [product(d) for d in flatten(lay.stride)]))


def values(lay: Lay):
    """The layout as a function on [0, size): list of offsets, colexicographic."""
    vals = [0]
    for s, d in leaves(lay):
        vals = [v + k * d for k in range(s) for v in vals]
    return vals


def eval_ext(lay: Lay, i: int):
    """Evaluate at a 1-D index, letting the last (flat) mode run past its extent."""
    lv = leaves(lay)
    r = 0
    for n, (s, d) in enumerate(lv):
        if n == len(lv) - 1:
            r += i * d
        else:
            r += (i % s) * d
            i //= s
    return r


def cosize(lay: Lay):
    v = values(lay)
    return max(v) + 1


def is_injective(lay: Lay):
    v = values(lay)
    return len(set(v)) == len(v)


def crd2idx(crd, shape, stride):
    """Plain ints/tuples (no marks)."""
    if isinstance(crd, tuple):
        assert isinstance(shape, tuple) and len(crd) == len(shape)
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    if isinstance(shape, tuple):
        r = 0
        for k in range(len(shape) - 1):
            p = product(shape[k])
            r += crd2idx(crd % p, shape[k], stride[k])
            crd //= p
        return r + crd2idx(crd, shape[-1], stride[-1])
    return crd * stride


def idx2crd(idx, shape):
    """Colexicographic, plain ints, congruent to shape (last mode not wrapped, like CuTe)."""
    if isinstance(shape, tuple):
        out = []
        for k, s in enumerate(shape):
            p = product(s)
            if k == len(shape) - 1:
                out.append(idx2crd(idx, s))
            else:
                out.append(idx2crd(idx % p, s))
                idx //= p
        return tuple(out)
    return idx


def compact_left(shape, mk, start=1):
    """Column-major strides for a (marked) shape; mk(v) builds the stride leaf."""
    acc = [start]

    def go(s):
        if isinstance(s, tuple):
            return tuple(go(e) for e in s)
        d = mk(acc[0], s)
        acc[0] *= s.v
        return d
    return go(shape)


def compact_right(shape, mk, start=1):
    acc = [start]

    def go(s):
        if isinstance(s, tuple):
            return tuple(reversed([go(e) for e in reversed(s)]))
        d = mk(acc[0], s)
        acc[0] *= s.v
        return d
    return go(shape)


def rebuild(template, it):
    """Rebuild the tree structure of template with leaves taken from the iterator."""
    if isinstance(template, tuple):
        return tuple(rebuild(e, it) for e in template)
    return next(it)


def to_pycute(x):
    import pycute as p
    if isinstance(x, Lay):
        return p.Layout(plain(x.shape), plain(x.stride))
    if isinstance(x, ByMode):
        return tuple(to_pycute(m) for m in x.modes)
    if isinstance(x, tuple):  # shape tiler
        return tuple(p.Layout(plain(e), 1) for e in x)
    raise TypeError(repr(x))


def from_pycute(l) -> Lay:
    def mk(t):
        if isinstance(t, tuple):
            return tuple(mk(e) for e in t)
        return D(t)
    return Lay(mk(l.shape), mk(l.stride))


def strip_marks(x):
    """Text without static marks (for loose comparison)."""
    return txt(x).replace("_", "")
