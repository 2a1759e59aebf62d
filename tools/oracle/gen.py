#!/usr/bin/env python3
"""Ground-truth layout-algebra cases from real C++ CuTe.

    python3 tools/oracle/gen.py            # everything (see README.md)
    python3 tools/oracle/gen.py --ops composition,complement   # only some ops
    python3 tools/oracle/gen.py --only-shared                  # seed + pycute re-runs only

For every op of /work/shared/cute-cases/FORMAT.md it draws random inputs (static `_N`, dynamic `N` and mixed
leaves, nested shapes), keeps those that look admissible (pycute + own checks), emits C++ that builds each input
with the matching static/dynamic types, compiles it against the CuTe headers (setup.sh), runs it (each case in a
forked child, so a crash only loses that case) and checks every printed result for semantic validity
(e.g. R(i) == A(B(i)) for composition). Cases whose C++ fails to compile (a static_assert) are dropped by reading
g++'s error locations and recompiling. Results go to tests/data/cute-<op>.jsonl with exact expected text.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cute_model import (I, S, D, U, XS, Lay, ByMode, txt, cpp, parse, flatten, plain, product, depth, rank,  # noqa: E402
                        mode, modes, size, leaves, values, eval_ext, is_injective, crd2idx, idx2crd, rebuild,
                        to_pycute, from_pycute, strip_marks)

REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CUTE_SHARED", "/work/shared")
ORACLE = os.path.join(SHARED, "cute-oracle", "setup.sh")
DEPS = os.environ.get("CUTE_ORACLE_DEPS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cute-oracle")

pycute = None


def load_pycute():
    global pycute
    if pycute is None:
        try:
            import pycute as p
        except ImportError:
            sys.path.insert(0, DEPS)  # setup.sh unpacks the nvidia-cutlass wheel (which ships pycute) there
            import pycute as p
        pycute = p
    return pycute


# ============================================================================ random inputs

LEAVES = [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 8, 12, 16, 16, 32, 64]
POW2 = [1, 2, 2, 2, 4, 4, 4, 8, 8, 16, 32]


def rand_tree(r, rk, maxdepth, leafw):
    out = []
    for _ in range(rk):
        if maxdepth > 1 and r.random() < 0.25:
            out.append(rand_tree(r, r.choice([2, 2, 3]), maxdepth - 1, leafw))
        else:
            out.append(r.choice(leafw))
    return tuple(out)


def rand_plain_shape(r, maxsize=4096, ranks=(1, 2, 2, 3, 3, 4), maxdepth=3, leafw=LEAVES, allow_int=True,
                     minsize=1):
    for _ in range(1000):
        rk = r.choice(ranks)
        t = rand_tree(r, rk, maxdepth, leafw)
        if rk == 1 and allow_int and r.random() < 0.5:
            t = t[0]
        if minsize <= product(t) <= maxsize:
            return t
    raise RuntimeError("no shape")


FORCE = None  # per-case override of every random policy: "S" (all static) or "D" (all dynamic)


def rand_policy(r, ps=0.4, pd=0.25):
    x = r.random()
    if FORCE:
        return FORCE
    return "S" if x < ps else ("D" if x < ps + pd else "M")


def mark(r, t, policy):
    if isinstance(t, tuple):
        return tuple(mark(r, e, policy) for e in t)
    if isinstance(t, I):
        t = t.v
    s = policy == "S" or (policy == "M" and r.random() < 0.5)
    return I(t, s)


KINDS = ["left", "right", "perm", "gappy", "bcast", "random"]


def plain_strides(r, shape, kind):
    flat = flatten(shape)
    n = len(flat)
    order = list(range(n))
    if kind == "right":
        order.reverse()
    elif kind in ("perm", "gappy", "bcast"):
        r.shuffle(order)
    st = [0] * n
    acc = 1
    for k in order:
        if kind == "gappy" and r.random() < 0.35:
            acc *= r.choice([2, 2, 3, 4])
        st[k] = acc
        acc *= flat[k]
    if kind == "bcast":
        for k in r.sample(range(n), max(1, n // 3)):
            st[k] = 0
    if kind == "random":
        st = [r.choice([0, 1, 1, 2, 3, 4, 4, 8, 16, 32, 64, 128]) for _ in range(n)]
    return rebuild(shape, iter(st))


def rand_layout(r, kinds=KINDS, maxsize=4096, ranks=(1, 2, 2, 3, 3, 4), maxdepth=3, leafw=LEAVES,
                shape_policy=None, stride_policy=None, allow_int=True, minsize=1):
    sh = rand_plain_shape(r, maxsize, ranks, maxdepth, leafw, allow_int, minsize)
    st = plain_strides(r, sh, r.choice(kinds))
    return Lay(mark(r, sh, shape_policy or rand_policy(r)), mark(r, st, stride_policy or rand_policy(r)))


def rand_int(r, v, ps=0.5):
    return I(v, r.random() < ps)


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def factorize_into(r, n, parts):
    """Split n into a tuple of `parts` factors (random)."""
    out = []
    for _ in range(parts - 1):
        d = r.choice(divisors(n))
        out.append(d)
        n //= d
    out.append(n)
    r.shuffle(out)
    return tuple(out)


# ============================================================================ admissibility helpers

def plain_lay(x: Lay):
    return Lay(plain(x.shape), plain(x.stride))


def cute_filter_leaves(lay: Lay):
    """Leaves CuTe's filter keeps: drops static-1 shapes and static-0 strides (dynamic ones stay)."""
    out = []
    for s, d in zip(flatten(lay.shape), flatten(lay.stride)):
        if (s.s and s.v == 1) or (d.s and d.v == 0):
            continue
        out.append((s, d))
    return out


def complement_ok(lay: Lay):
    kept = cute_filter_leaves(lay)
    if len(kept) > 1 and not all(d.s for _, d in kept):
        return False  # "Dynamic-stride complement only for rank-1 layouts"
    kept = sorted(((s.v, d.v) for s, d in kept), key=lambda x: x[1])
    for s, d in kept:
        if d <= 0 or s <= 0:
            return False
    for (s0, d0), (s1, d1) in zip(kept, kept[1:]):
        if d1 % (s0 * d0) != 0:
            return False
    return True


def comp_values_ok(A: Lay, B: Lay, R: Lay):
    """R == A o B as functions on B's domain. Where B's image leaves A's domain, A's last flat mode is extended
    (CuTe's convention); cases that need it are rare and only kept when this naive extension agrees."""
    va = values(A)
    vb = values(B)
    if size(R) != size(B) or min(vb) < 0:
        return False
    return values(R) == [va[b] if b < len(va) else eval_ext(A, b) for b in vb]


def tiler_modes(A: Lay, T):
    """[(A_i, B_i)] pairs for a by-mode / shape tiler, or [(A, T)] for a layout tiler; None if too many modes."""
    if isinstance(T, Lay):
        return [(A, T)]
    ms = T.modes if isinstance(T, ByMode) else [Lay(e, S(1)) for e in T]
    if len(ms) > rank(A.shape):
        return None
    return [(mode(A, i), b if isinstance(b, Lay) else Lay(b, S(1))) for i, b in enumerate(ms)]


def py_layout(x):
    return to_pycute(x if not isinstance(x, Lay) else plain_lay(x))


# ============================================================================ reference semantics (post-checks)

def ref_divide_values(op, A, T):
    """Values of the divide result per pycute (which mirrors CuTe's algorithm), validated semantically."""
    p = load_pycute()
    pairs = tiler_modes(A, T)
    if pairs is None:
        return None
    for Ai, Bi in pairs:
        Ai_p = plain_lay(Ai)
        Bi_p = plain_lay(Bi)
        if size(Ai_p) % size(Bi_p) != 0:
            return None
        try:
            Li = from_pycute(p.logical_divide(to_pycute(Ai_p), to_pycute(Bi_p)))
        except Exception:
            return None
        if size(Li) != size(Ai_p) or sorted(values(Li)) != sorted(values(Ai_p)):
            return None
        # first mode of the result is A_i o B_i
        if not comp_values_ok(Ai_p, Bi_p, mode(Li, 0)):
            return None
    try:
        if op == "logical_divide":
            R = p.logical_divide(py_layout(A), to_pycute(T) if not isinstance(T, Lay) else py_layout(T))
        else:
            R = p.zipped_divide(py_layout(A), to_pycute(T) if not isinstance(T, Lay) else py_layout(T))
    except Exception:
        return None
    return values(from_pycute(R))


def ref_product_values(A, B):
    p = load_pycute()
    if not complement_ok(A):
        return None
    Ap, Bp = plain_lay(A), plain_lay(B)
    try:
        C = from_pycute(p.complement(to_pycute(Ap), size(Ap) * (max(values(Bp)) + 1)))
        CB = from_pycute(p.composition(to_pycute(C), to_pycute(Bp)))
    except Exception:
        return None
    if not comp_values_ok(C, Bp, CB):
        return None
    va = values(Ap)
    return [a + c for c in values(CB) for a in va]


def py_dice(step, x):
    def lift(a, b):
        if isinstance(a, tuple):
            assert isinstance(b, tuple) and len(a) == len(b)
            return tuple(e for ai, bi in zip(a, b) for e in lift(ai, bi))
        if a is XS or a is U:
            return ()
        return (b,)
    if isinstance(step, tuple):
        assert isinstance(x, tuple) and len(step) == len(x)
        return tuple(e for ai, bi in zip(step, x) for e in lift(ai, bi))
    if step is XS or step is U:
        return ()
    return x


def dice_layout(step, L: Lay):
    return Lay(py_dice(step, L.shape), py_dice(step, L.stride))


def hier_coord(L: Lay, idx):
    """CuTe get_hier_coord: per leaf (idx / stride) % shape (static-0 stride -> 0)."""
    def go(s, d):
        if isinstance(s, tuple):
            return tuple(go(a, b) for a, b in zip(s, d))
        if d.v == 0:
            return 0
        return (idx // d.v) % s.v
    return go(L.shape, L.stride)


def flat_coord(L: Lay, idx):
    hc = hier_coord(L, idx)
    if isinstance(L.shape, tuple):
        return tuple(colex_idx(c, plain(s)) for c, s in zip(hc, L.shape))
    return colex_idx(hc, plain(L.shape))


def colex_idx(c, s):
    if isinstance(c, tuple):
        r, m = 0, 1
        for ci, si in zip(c, s):
            r += colex_idx(ci, si) * m
            m *= product(si)
        return r
    return c


def slice_leaves(coord, lay: Lay):
    """Leaves (shape, stride) of lay kept by a slicing coordinate (kept where coord is `_`)."""
    if coord is U:
        return leaves(lay)
    if isinstance(coord, tuple):
        assert isinstance(lay.shape, tuple) and len(coord) == len(lay.shape), (coord, lay)
        return [x for c, m in zip(coord, modes(lay)) for x in slice_leaves(c, m)]
    return []


def flat_values(lv):
    vals = [0]
    for s, d in lv:
        vals = [v + k * d for k in range(s) for v in vals]
    return vals


def ref_local_tile(A, T, C, step=None):
    if step is not None:
        if not isinstance(T, tuple):
            return None
        T = py_dice(step, T)
        C = py_dice(step, C)
    if isinstance(T, tuple) and len(T) > rank(A.shape):
        return None
    if ref_divide_values("zipped_divide", A, T) is None:
        return None
    p = load_pycute()
    Z = from_pycute(p.zipped_divide(py_layout(A), to_pycute(T) if not isinstance(T, Lay) else py_layout(T)))
    tile, rest = mode(Z, 0), mode(Z, 1)
    if isinstance(C, tuple):
        rr = rank(rest.shape)
        if len(C) > rr:
            return None
        C = C + (U,) * (rr - len(C))
        if rr == 1 and not isinstance(rest.shape, tuple):
            return None
    # coordinates must be in range
    rc = C if isinstance(C, tuple) else (C,)
    rm = modes(rest) if isinstance(C, tuple) else [rest]
    for c, m in zip(rc, rm):
        if isinstance(c, I) and not (0 <= c.v < size(m)):
            return None
    return flat_values(leaves(tile) + slice_leaves(C, rest))


def ref_local_partition(A, thr, idx, step=None):
    if step is not None:
        thr = dice_layout(step, thr)
    if not isinstance(thr.shape, tuple) or len(thr.shape) > rank(A.shape) or len(thr.shape) == 0:
        return None
    if any(d.v == 0 and not d.s for d in flatten(thr.stride)):
        return None
    tiler = tuple(S(product(s)) if all(x.s for x in flatten(s)) else D(product(s)) for s in thr.shape)
    if ref_divide_values("zipped_divide", A, tiler) is None:
        return None
    p = load_pycute()
    Z = from_pycute(p.zipped_divide(py_layout(A), to_pycute(tiler)))
    tile, rest = mode(Z, 0), mode(Z, 1)
    fc = flat_coord(thr, idx)
    fc = tuple(D(c) for c in fc)
    return flat_values(slice_leaves(fc if isinstance(tile.shape, tuple) else fc[0], tile) + leaves(rest))


# ============================================================================ ops: generation

OPS = ["size", "cosize", "rank", "depth", "make_layout", "coalesce", "filter", "composition", "complement",
       "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
       "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product",
       "crd2idx", "idx2crd", "get_flat_coord", "dice", "select", "local_tile", "local_partition",
       "make_tiled_copy_tv", "make_tiled_copy_tiler", "group", "max_common_vector", "max_common_layout"]

# Extra case kinds of an op, drawn from their own random stream after the op's cases: (kind, count).
EXTRA = {"complement": [("complement_tuple_cotarget", 60)]}

TARGET = collections.defaultdict(lambda: 200)
TARGET.update({"rank": 120, "depth": 120, "make_layout": 150, "composition": 300, "complement": 250,
               "coalesce": 250, "logical_divide": 250, "zipped_divide": 220, "local_tile": 250,
               "local_partition": 220, "make_tiled_copy_tv": 100, "make_tiled_copy_tiler": 100,
               "dice": 150, "select": 150, "group": 120})


def gen_small_layout_in(r, n, kinds=("left", "perm", "gappy", "bcast", "random", "strided"), policy=None):
    """A layout (mostly static) whose image fits in [0, n)."""
    for _ in range(200):
        kind = r.choice(kinds)
        if kind == "strided":
            d = r.choice([1, 1, 2, 2, 3, 4, 8])
            s = r.choice([x for x in divisors(n) if x * d <= n] or [1])
            sh = s if r.random() < 0.6 else (s,)
            st = d if not isinstance(sh, tuple) else (d,)
        else:
            sz = r.choice(divisors(n))
            parts = r.choice([1, 1, 2, 2, 3])
            sh = factorize_into(r, sz, parts)
            if parts == 1 and r.random() < 0.5:
                sh = sh[0]
            elif parts >= 2 and r.random() < 0.2:
                sh = (sh[:2],) + sh[2:]
            st = plain_strides(r, sh, kind)
        B = Lay(mark(r, sh, policy or rand_policy(r, 0.7, 0.1)), mark(r, st, policy or rand_policy(r, 0.7, 0.1)))
        vb = values(plain_lay(B))
        if max(vb) < n:
            return B
    return Lay(S(1), S(0))


def rand_tiler(r, A, kind, policy=None, layout_kinds=("left", "perm", "gappy", "strided", "bcast", "random")):
    if kind == "layout":
        return gen_small_layout_in(r, size(A), layout_kinds, policy)
    k = r.randint(1, rank(A.shape))
    if kind == "shape":
        pol = policy or rand_policy(r, 0.75, 0.1)
        return tuple(mark(r, r.choice(divisors(size(mode(A, i)))), pol) for i in range(k))
    return ByMode([gen_small_layout_in(r, size(mode(A, i)), layout_kinds, policy) for i in range(k)])


def pre_ok(op, args):
    """Admissibility of generated inputs, judged before compiling (post_ok judges the C++ result)."""
    a = [parse(x) if isinstance(x, str) and x not in ("LayoutLeft", "LayoutRight") else x for x in args]
    if op == "composition" or op.endswith("_divide") or op.endswith("_product"):
        if any(d.v == 0 and not d.s for d in flatten(_tiler_strides(a[1]))):
            return False  # a dynamic 0 stride on the right-hand side divides by zero in CuTe (SIGFPE)
    try:
        if op == "composition":
            A, T = a
            if isinstance(T, Lay):
                pairs = [(A, T)]
            else:
                pairs = tiler_modes(A, T)
                if pairs is None:
                    return False
            p = load_pycute()
            for Ai, Bi in pairs:
                Ap, Bp = plain_lay(Ai), plain_lay(Bi)
                if max(values(Bp)) >= size(Ap):
                    return False
                R = from_pycute(p.composition(to_pycute(Ap), to_pycute(Bp)))
                if not comp_values_ok(Ap, Bp, R):
                    return False
            return True
        if op in ("complement", "left_inverse"):
            return complement_ok(a[0]) and (op != "left_inverse" or (is_injective(plain_lay(a[0]))
                                                                      and all(d.s for d in flatten(a[0].stride))))
        if op.endswith("_divide"):
            if not all(complement_ok(Bi) for _, Bi in (tiler_modes(a[0], a[1]) or [])):
                return False  # complement(B, size(A)) needs static strides (or rank 1)
            return ref_divide_values("logical_divide" if op == "logical_divide" else "zipped_divide", a[0], a[1]) is not None
        if op.endswith("_product"):
            return ref_product_values(a[0], a[1]) is not None
        if op == "local_tile":
            return ref_local_tile(*a) is not None
        if op == "local_partition":
            return ref_local_partition(a[0], a[1], a[2].v, *a[3:]) is not None
    except (AssertionError, ZeroDivisionError, ValueError, IndexError, TypeError):
        return False
    return True


def _tiler_strides(T):
    if isinstance(T, Lay):
        return T.stride
    if isinstance(T, ByMode):
        return tuple(m.stride for m in T.modes if isinstance(m, Lay))
    return ()


def rand_coord_for(r, shape, form):
    """A coordinate (marked) for a (marked) shape. form: hier | int | partial."""
    pol = rand_policy(r, 0.3, 0.4)
    if form == "int":
        return mark(r, r.randrange(product(shape)), pol)

    def go(s, top):
        if isinstance(s, tuple):
            if not top and form == "partial" and r.random() < 0.5:
                return mark(r, r.randrange(product(s)), pol)
            return tuple(go(e, False) for e in s)
        return mark(r, r.randrange(s.v), pol)
    return go(shape, True)


def rand_step(r, L, nested=False, allow_all_x=False):
    def go(s, top):
        if isinstance(s, tuple) and nested and not top and r.random() < 0.5:
            return tuple(go(e, False) for e in s)
        return XS if r.random() < 0.4 else S(1)
    for _ in range(50):
        st = tuple(go(e, False) for e in L.shape) if isinstance(L.shape, tuple) else (go(L.shape, False),)
        if allow_all_x or any(x is not XS for x in flatten(st)):
            return st
    return tuple(S(1) for _ in st)


def make_case(r, op):
    """One random candidate: list of arg texts (or None)."""
    if op in ("size", "cosize", "rank", "depth"):
        return [txt(rand_layout(r))]
    if op == "make_layout":
        sh = mark(r, rand_plain_shape(r), rand_policy(r))
        return [txt(sh), r.choice(["LayoutLeft", "LayoutRight"])]
    if op == "coalesce":
        A = rand_layout(r, kinds=["left", "left", "right", "perm", "gappy", "bcast", "random"],
                        shape_policy=rand_policy(r, 0.5, 0.2), stride_policy=rand_policy(r, 0.5, 0.2))
        if r.random() < 0.5 and isinstance(A.shape, tuple):
            def prof(s):
                if isinstance(s, tuple) and r.random() < 0.4:
                    return tuple(prof(e) for e in s)
                return S(1)
            k = r.randint(1, len(A.shape))
            return [txt(A), txt(tuple(prof(A.shape[i]) for i in range(k)))]
        return [txt(A)]
    if op == "filter":
        return [txt(rand_layout(r, kinds=["bcast", "bcast", "random", "perm", "left"],
                                leafw=LEAVES + [1, 1, 1]))]
    if op == "composition":
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy", "bcast", "random"], maxsize=2048,
                        leafw=r.choice([LEAVES, POW2]))
        kind = r.choices(["layout", "shape", "bymode"], [0.6, 0.2, 0.2])[0]
        return [txt(A), txt(rand_tiler(r, A, kind))]
    if op == "complement":
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy", "gappy", "bcast"], maxsize=1024,
                        stride_policy=r.choice(["S", "S", "S", "M"]), leafw=LEAVES + [1])
        if r.random() < 0.3:
            return [txt(A)]
        cs = max(values(plain_lay(A))) + 1
        cot = r.choice([cs, size(A), cs * r.choice([2, 3, 4]), r.randint(1, 4096), r.choice([64, 128, 256, 1024])])
        return [txt(A), txt(rand_int(r, cot))]
    if op == "complement_tuple_cotarget":
        # CuTe takes shape(cotarget): a tuple cotarget is ceil_div'ed mode by mode and kept (coalesced)
        # as the rest modes
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy", "gappy", "bcast"], maxsize=1024,
                        stride_policy=r.choice(["S", "S", "S", "M"]), leafw=LEAVES + [1])
        cs = max(values(plain_lay(A))) + 1
        tot = r.choice([cs, size(A), cs * r.choice([2, 3, 4]), r.choice([64, 128, 256, 1024])])
        sh = factorize_into(r, tot, r.choice([2, 2, 3]))
        if len(sh) == 3 and r.random() < 0.3:
            sh = (sh[:2],) + sh[2:]
        if r.random() < 0.25:
            sh = sh + (r.choice([2, 3, 4]),)
        return [txt(A), txt(mark(r, sh, rand_policy(r, 0.4, 0.25)))]
    if op == "right_inverse":
        A = rand_layout(r, kinds=["left", "right", "perm", "perm", "gappy", "bcast", "random"],
                        stride_policy=rand_policy(r, 0.7, 0.1))
        return [txt(A)]
    if op in ("max_common_vector", "max_common_layout"):
        # two layouts of one size (a copy's source and destination): mostly one shape, strides of two kinds
        # (often of one stride order, mostly static: a common vector needs a static stride-1 run)
        kinds = ["left", "left", "right", "perm", "gappy", "bcast"]
        ka = r.choice(kinds)
        A = rand_layout(r, kinds=[ka], maxsize=2048, leafw=r.choice([LEAVES, POW2]),
                        shape_policy=rand_policy(r, 0.85, 0.05), stride_policy=rand_policy(r, 0.85, 0.05))
        sh = plain(A.shape)
        if r.random() < 0.25:
            sh = factorize_into(r, size(plain_lay(A)), r.choice([1, 2, 3]))
            sh = sh[0] if len(sh) == 1 else sh
        st = plain_strides(r, sh, ka if r.random() < 0.65 else r.choice(kinds[:-1]))
        return [txt(A), txt(Lay(mark(r, sh, rand_policy(r, 0.85, 0.05)), mark(r, st, rand_policy(r, 0.85, 0.05))))]
    if op == "left_inverse":
        A = rand_layout(r, kinds=["left", "right", "perm", "perm", "gappy"], stride_policy="S", maxsize=2048)
        return [txt(A)]
    if op.endswith("_divide"):
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy", "bcast"], leafw=r.choice([LEAVES, POW2]),
                        minsize=2)
        kind = r.choices(["layout", "shape", "bymode"], [0.4, 0.3, 0.3])[0]
        return [txt(A), txt(rand_tiler(r, A, kind, layout_kinds=("left", "perm", "gappy", "strided")))]
    if op.endswith("_product"):
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy"], maxsize=64, ranks=(1, 2, 2, 2, 3),
                        maxdepth=2, stride_policy=r.choice(["S", "S", "S", "M"]))
        B = rand_layout(r, kinds=["left", "right", "perm", "gappy", "bcast"], maxsize=64,
                        ranks=(1, 2, 2, 2, 3), maxdepth=2)
        if size(A) * size(B) > 4096:
            return None
        return [txt(A), txt(B)]
    if op == "crd2idx":
        A = rand_layout(r)
        return [txt(A), txt(rand_coord_for(r, A.shape, r.choice(["hier", "hier", "int", "partial", "partial"])))]
    if op == "idx2crd":
        A = rand_layout(r)
        return [txt(A), txt(rand_int(r, r.randrange(size(A)), 0.3))]
    if op == "get_flat_coord":
        A = rand_layout(r, kinds=["left", "right", "perm", "perm"])
        return [txt(A), txt(rand_int(r, r.randrange(size(A)), 0.3))]
    if op == "dice":
        A = rand_layout(r, ranks=(1, 2, 3, 3, 4))
        if not isinstance(A.shape, tuple):
            return [txt(S(1)), txt(A)]
        return [txt(rand_step(r, A, nested=True)), txt(A)]
    if op == "select":
        A = rand_layout(r, ranks=(1, 2, 3, 3, 4), allow_int=False)
        return [txt(rand_step(r, A)), txt(A)]
    if op == "group":
        # group<B,E>(layout): B in [0, rank], E in [B, rank] or -1 (to the end); a leaf is one mode
        A = rand_layout(r, ranks=(1, 2, 3, 3, 4, 4))
        k = rank(A.shape)
        b = r.randint(0, k)
        e = r.choice([-1] + list(range(b, k + 1)))
        return [txt(A), str(b), str(e)]
    if op == "local_tile":
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy"], ranks=(1, 2, 2, 3, 3), maxdepth=2,
                        leafw=r.choice([LEAVES, POW2]), minsize=2)
        use_step = r.random() < 0.35
        kind = "shape" if use_step else r.choices(["shape", "bymode", "layout"], [0.7, 0.15, 0.15])[0]
        if use_step:
            k = rank(A.shape)
            extra = r.randint(1, 2)
            tl = [S(1)] * (k + extra)
            st = [S(1)] * (k + extra)
            pos = sorted(r.sample(range(k + extra), extra))
            for j in pos:
                st[j] = XS
                tl[j] = mark(r, r.choice([2, 4, 8]), "S")
            it = iter(range(k))
            pol = rand_policy(r, 0.75, 0.1)
            for j in range(k + extra):
                if st[j] is not XS:
                    i = next(it)
                    tl[j] = mark(r, r.choice(divisors(size(mode(A, i)))), pol)
            T = tuple(tl)
            step = tuple(st)
        else:
            T = rand_tiler(r, A, kind, layout_kinds=("left", "perm", "gappy", "strided"))
            step = None
        # coordinate
        if isinstance(T, Lay):
            C = rand_int(r, r.randrange(max(1, size(A) // size(T))), 0.3)
        else:
            nt = len(T) if isinstance(T, tuple) else len(T.modes)
            cl = []
            for j in range(nt):
                if r.random() < 0.3:
                    cl.append(U)
                else:
                    cl.append(None)  # filled after computing the rest shape
            C = tuple(cl)
            # fill with in-range coordinates
            TT = py_dice(step, T) if step is not None else T
            try:
                pairs = tiler_modes(A, TT if not isinstance(TT, tuple) else TT)
            except Exception:
                return None
            if pairs is None:
                return None
            rests = [size(Ai) // max(1, size(plain_lay(Bi))) for Ai, Bi in pairs]
            it = iter(rests)
            cl2 = []
            for j in range(nt):
                dropped = step is not None and step[j] is XS
                rs = 1 if dropped else next(it)
                if cl[j] is U:
                    cl2.append(U)
                else:
                    cl2.append(rand_int(r, r.randrange(max(1, rs)), 0.3))
            C = tuple(cl2)
        args = [txt(A), txt(T), txt(C)]
        if step is not None:
            args.append(txt(step))
        return args
    if op == "local_partition":
        A = rand_layout(r, kinds=["left", "right", "perm", "gappy"], ranks=(1, 2, 2, 3), maxdepth=2,
                        leafw=r.choice([LEAVES, POW2]), minsize=2)
        k = rank(A.shape)
        use_step = r.random() < 0.4
        kt = k + (r.randint(1, 2) if use_step else 0)
        if not use_step and r.random() < 0.3:
            kt = r.randint(1, k)
        sh = []
        step = []
        it = iter(range(k))
        xpos = set(r.sample(range(kt), kt - k)) if use_step else set()
        for j in range(kt):
            if j in xpos:
                sh.append(r.choice([1, 2, 4]))
                step.append(XS)
            else:
                i = next(it)
                sh.append(r.choice(divisors(size(mode(A, i)))))
                step.append(S(1))
        kind = r.choice(["left", "right", "perm"])
        st = plain_strides(r, tuple(sh), kind)
        thr = Lay(mark(r, tuple(sh), rand_policy(r, 0.8, 0.1)), mark(r, st, rand_policy(r, 0.8, 0.1)))
        if use_step and r.random() < 0.5:  # CuTe's doc idiom: stride-0 mode for the projected-away dim
            fl = list(flatten(thr.shape))
            fd = list(flatten(thr.stride))
            for j in xpos:
                fl[j] = S(1)
            thr = Lay(tuple(fl), tuple(fd))
            thr = Lay(thr.shape, plain_strides_marked(thr.shape, r))
            if r.random() < 0.5:
                fd = list(thr.stride)
                for j in xpos:
                    fd[j] = S(0)
                thr = Lay(thr.shape, tuple(fd))
        idx = rand_int(r, r.randrange(size(thr)), 0.3)
        args = [txt(A), txt(thr), txt(idx)]
        if use_step:
            args.append(txt(tuple(step)))
        return args
    if op in ("make_tiled_copy_tv", "make_tiled_copy_tiler"):
        def compact(maxsz, ranks):
            sh = rand_plain_shape(r, maxsize=maxsz, ranks=ranks, maxdepth=1, leafw=POW2 + [1, 1])
            st = plain_strides(r, sh, r.choice(["left", "right", "left", "right", "perm"]))
            if r.random() < 0.3:  # size-1 modes with stride 0, as in CuTe examples
                st = rebuild(sh, iter([0 if s == 1 else d for s, d in zip(flatten(sh), flatten(st))]))
            return Lay(mark(r, sh, "S"), mark(r, st, "S"))
        return [txt(compact(256, (1, 2, 2, 2, 3))), txt(compact(32, (1, 2, 2, 2, 3)))]
    raise ValueError(op)


def plain_strides_marked(shape, r):
    st = plain_strides(r, plain(shape), r.choice(["left", "right"]))
    return mark(r, st, "S")


# ============================================================================ C++ emission

def arg_parse(op, args):
    out = []
    for k, x in enumerate(args):
        if x in ("LayoutLeft", "LayoutRight"):
            out.append(x)
        else:
            out.append(parse(x))
    return out


def cxx_body(op, args):
    if op == "group":
        return f"print(group<{int(args[1])},{int(args[2])}>({cpp(parse(args[0]))}));"
    a = arg_parse(op, args)
    c = [x if isinstance(x, str) else cpp(x) for x in a]
    if op in ("size", "cosize", "rank", "depth"):
        return f"print({op}({c[0]}));"
    if op == "make_layout":
        return f"print(make_layout({c[0]}, {c[1]}{{}}));"
    if op in ("coalesce", "complement", "composition") or op.endswith("_divide") or op.endswith("_product") \
            or op in ("filter", "right_inverse", "left_inverse", "max_common_vector", "max_common_layout"):
        return f"print({op}({', '.join(c)}));"
    if op == "crd2idx":
        return f"auto L = {c[0]}; print(crd2idx({c[1]}, L.shape(), L.stride()));"
    if op == "idx2crd":
        return f"auto L = {c[0]}; print(idx2crd({c[1]}, L.shape()));"
    if op == "get_flat_coord":
        return f"auto L = {c[0]}; print(L.get_flat_coord({c[1]}));"
    if op == "dice":
        return f"print(dice({c[0]}, {c[1]}));"
    if op == "select":
        step = a[0]
        idx = [str(i) for i, e in enumerate(step if isinstance(step, tuple) else (step,)) if e is not XS]
        return f"print(select<{','.join(idx)}>({c[1]}));"
    if op in ("local_tile", "local_partition"):
        rest = ", ".join(c[1:])
        return (f"auto t = make_tensor(counting_iterator<int>(0), {c[0]}); "
                f"print({op}(t, {rest}).layout());")
    if op in ("make_tiled_copy_tv", "make_tiled_copy_tiler"):
        member = "TiledLayout_TV" if op == "make_tiled_copy_tv" else "Tiler_MN"
        return (f"auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>{{}}, {c[0]}, {c[1]}); "
                f"print(typename decltype(tc)::{member}{{}});")
    raise ValueError(op)


PRELUDE = r"""#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits.hpp>
#include <cstdio>
#include <unistd.h>
#include <sys/wait.h>
using namespace cute;
"""


def write_cpp(path, bodies):
    lines = PRELUDE.splitlines()
    ranges = []
    for k, b in enumerate(bodies):
        start = len(lines) + 1
        lines.append(f"static void case_{k}() {{")
        lines.append("  " + b)
        lines.append("}")
        ranges.append((start, len(lines)))
    lines.append("typedef void (*fn_t)();")
    lines.append("static fn_t fns[] = {" + ", ".join(f"case_{k}" for k in range(len(bodies))) + "};")
    lines.append(r"""int main() {
  int n = sizeof(fns) / sizeof(fns[0]);
  for (int i = 0; i < n; ++i) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { printf("@@%d ", i); fns[i](); printf("\n"); fflush(stdout); _exit(0); }
    int st = 0; waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { printf("\n@@%d !CRASH\n", i); }
  }
  return 0;
}""")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return ranges


_FLAGS = None


def cxx_flags():
    global _FLAGS
    if _FLAGS is None:
        _FLAGS = subprocess.run([ORACLE], check=True, capture_output=True, text=True).stdout.split()
    return _FLAGS


def complement_compiles(lay: Lay):
    kept = cute_filter_leaves(lay)
    return len(kept) <= 1 or all(d.s for _, d in kept)


def predicted_compile_failure(op, args):
    """Known static_asserts, predicted so that a batch needs fewer recompiles."""
    try:
        a = arg_parse(op, args)
        if op == "complement" or op.endswith("_product"):
            return not complement_compiles(a[0])
        if op == "left_inverse":
            return not all(d.s for d in flatten(a[0].stride))
        if op.endswith("_divide"):
            pairs = tiler_modes(a[0], a[1])
            return pairs is None or not all(complement_compiles(b) for _, b in pairs)
    except Exception:
        return False
    return False


def signature(body):
    """The C++ types a case instantiates (dynamic values do not matter)."""
    return re.sub(r"int\(-?\d+\)", "int(#)", body)


def run_batch(bodies, workdir, name, log):
    """Compile + run; returns list of result text (None where the case was dropped)."""
    alive = list(range(len(bodies)))
    dropped = {}
    for attempt in range(40):
        src = os.path.join(workdir, name + ".cpp")
        exe = os.path.join(workdir, name)
        ranges = write_cpp(src, [bodies[i] for i in alive])
        t0 = time.time()
        pr = subprocess.run(["g++", "-std=c++17", "-w", "-O0", *cxx_flags(), src, "-o", exe],
                            capture_output=True, text=True)
        log(f"  {name}: compiled {len(alive)} cases in {time.time() - t0:.1f}s (rc={pr.returncode})")
        if pr.returncode == 0:
            break
        bad = set()
        for m in re.finditer(re.escape(src) + r":(\d+):", pr.stderr):
            ln = int(m.group(1))
            for k, (a, b) in enumerate(ranges):
                if a <= ln <= b:
                    bad.add(k)
        if not bad:
            raise RuntimeError(f"compile failed without case location:\n{pr.stderr[:4000]}")
        # g++ reports a failing instantiation once: drop every case with the same C++ types
        badsig = {signature(bodies[alive[k]]) for k in bad}
        bad |= {k for k, i in enumerate(alive) if signature(bodies[i]) in badsig}
        for k in bad:
            dropped[alive[k]] = "compile"
        alive = [i for k, i in enumerate(alive) if k not in bad]
        if not alive:
            return [None] * len(bodies), dropped
    else:
        raise RuntimeError("too many compile attempts")
    out = subprocess.run([exe], capture_output=True, text=True, timeout=600).stdout
    res = [None] * len(bodies)
    for line in out.splitlines():
        m = re.match(r"@@(\d+) (.*)$", line)
        if not m:
            continue
        k = int(m.group(1))
        val = m.group(2).strip()
        if val == "!CRASH":
            res[alive[k]] = None
            dropped[alive[k]] = "crash"
        elif alive[k] not in dropped:
            res[alive[k]] = val
    return res, dropped


# ============================================================================ post-checks

def post_ok(op, args, out):
    """Is the C++ result semantically valid for these inputs (i.e. were CuTe's preconditions met)?"""
    try:
        a = arg_parse(op, args)
        R = parse(out)
        return _post(op, a, R)
    except (AssertionError, ZeroDivisionError, ValueError, IndexError, TypeError, AttributeError, RuntimeError):
        return False


def _post(op, a, R):
    if op in ("size", "cosize", "rank", "depth"):
        L = a[0]
        want = {"size": lambda: size(L), "cosize": lambda: max(values(plain_lay(L))) + 1,
                "rank": lambda: rank(L.shape), "depth": lambda: depth(L.shape)}[op]()
        return isinstance(R, I) and R.v == want
    if op == "make_layout":
        sh = plain(a[0])
        fl = flatten(sh)
        st = []
        acc = 1
        order = range(len(fl)) if a[1] == "LayoutLeft" else reversed(range(len(fl)))
        st = [0] * len(fl)
        for k in order:
            st[k] = acc
            acc *= fl[k]
        # (static size-1 modes get stride _0)
        want = rebuild(sh, iter(st))
        return isinstance(R, Lay) and plain(R.shape) == sh and all(
            x == y or s == 1 for s, x, y in zip(flatten(sh), flatten(plain(R.stride)), flatten(want)))
    if op == "coalesce":
        L = plain_lay(a[0])
        ok = isinstance(R, Lay) and size(R) == size(L) and values(plain_lay(R)) == values(L)
        if len(a) > 1:
            ok = ok and rank(R.shape) == rank(L.shape)
        else:
            ok = ok and depth(R.shape) <= 1
        return ok
    if op == "filter":
        L = plain_lay(a[0])
        Rp = plain_lay(R)
        # only static _0 strides are filtered out (dynamic zeros are not known to be zero)
        return set(values(Rp)) == set(values(L)) and all(
            not (d.s and d.v == 0 and product(s) > 1) for s, d in zip(flatten(R.shape), flatten(R.stride)))
    if op == "composition":
        A, T = a
        Rp = plain_lay(R)
        if isinstance(T, Lay):
            return comp_values_ok(plain_lay(A), plain_lay(T), Rp)
        pairs = tiler_modes(A, T)
        if pairs is None:
            return False
        for i, (Ai, Bi) in enumerate(pairs):
            if not comp_values_ok(plain_lay(Ai), plain_lay(Bi), mode(Rp, i)):
                return False
        # CuTe drops the modes of A that a by-mode tiler does not reach
        return isinstance(R.shape, tuple) and len(R.shape) == len(pairs)
    if op == "complement":
        A = a[0]
        cot = product(a[1]) if len(a) > 1 else max(values(plain_lay(A))) + 1
        Rp = plain_lay(R)
        vr = values(Rp)
        if vr[0] != 0 or any(x >= y for x, y in zip(vr, vr[1:])):
            return False
        kept = [(s.v, d.v) for s, d in cute_filter_leaves(A)]
        va = flat_values(kept)
        combo = [x + y for y in vr for x in va]
        if len(set(combo)) != len(combo):
            return False
        # the complement reaches the cotarget
        return max(combo) + 1 >= cot or size(Rp) * len(va) >= cot
    if op == "right_inverse":
        L = plain_lay(a[0])
        vl = values(L)
        vr = values(plain_lay(R))
        return all(0 <= x < len(vl) and vl[x] == i for i, x in enumerate(vr))
    if op in ("max_common_vector", "max_common_layout"):
        va, vb = values(plain_lay(a[0])), values(plain_lay(a[1]))
        if len(va) != len(vb):
            return False
        if op == "max_common_layout":
            # a(R(i)) == i and b(R(i)) == i
            return all(0 <= x < len(va) and va[x] == i and vb[x] == i for i, x in enumerate(values(plain_lay(R))))
        # elements 0..N-1 sit at one coordinate in both
        return isinstance(R, I) and R.v >= 1 and all(
            any(x == n and y == n for x, y in zip(va, vb)) for n in range(R.v))
    if op == "left_inverse":
        L = plain_lay(a[0])
        Rp = plain_lay(R)
        return all(eval_ext(Rp, y) == i for i, y in enumerate(values(L)))
    if op.endswith("_divide"):
        A, T = a
        ref = ref_divide_values("logical_divide" if op == "logical_divide" else "zipped_divide", A, T)
        return ref is not None and values(plain_lay(R)) == ref
    if op.endswith("_product"):
        A, B = a
        ref = ref_product_values(A, B)
        if ref is None:
            return False
        got = values(plain_lay(R))
        if op in ("blocked_product", "raked_product"):
            return sorted(got) == sorted(ref) and rank(R.shape) == max(rank(A.shape), rank(B.shape))
        return got == ref
    if op == "crd2idx":
        L, C = a
        return isinstance(R, I) and R.v == crd2idx(plain(C), plain(L.shape), plain(L.stride))
    if op == "idx2crd":
        L, k = a
        return strip_marks(R) == txt(_dyn(idx2crd(k.v, plain(L.shape))))
    if op == "get_flat_coord":
        L, k = a
        return flatten(plain(R)) == flatten(flat_coord(L, k.v))
    if op == "dice":
        step, L = a
        want = dice_layout(step, L) if isinstance(step, tuple) else L
        return txt(R) == txt(want)
    if op == "select":
        step, L = a
        idx = [i for i, e in enumerate(step) if e is not XS]
        want = Lay(tuple(L.shape[i] for i in idx), tuple(L.stride[i] for i in idx))
        return txt(R) == txt(want)
    if op == "group":
        L, b, e = a[0], a[1].v, a[2].v
        return txt(R) == txt(Lay(group_model(L.shape, b, e), group_model(L.stride, b, e)))
    if op == "local_tile":
        ref = ref_local_tile(*a)
        return ref is not None and values(plain_lay(R)) == ref
    if op == "local_partition":
        ref = ref_local_partition(a[0], a[1], a[2].v, *a[3:])
        return ref is not None and values(plain_lay(R)) == ref
    if op == "make_tiled_copy_tv":
        n = size(a[0]) * size(a[1])
        return size(R) == n and is_injective(plain_lay(R))
    if op == "make_tiled_copy_tiler":
        return product(plain(R)) == size(a[0]) * size(a[1])
    raise ValueError(op)


def group_model(t, b, e):
    """CuTe's group<b,e>(t): a leaf is one mode, e == -1 is the rank, b == e keeps the modes."""
    w = t if isinstance(t, tuple) else (t,)
    e = len(w) if e == -1 else e
    return w[:b] + (w[b:e],) + w[e:] if b < e else w


def _dyn(t):
    if isinstance(t, tuple):
        return tuple(_dyn(e) for e in t)
    return D(t)


# ============================================================================ driver

def loose_norm(x):
    """FORMAT.md loose comparison: drop static marks, (x) == x, ignore strides of size-1 modes."""
    def unwrap(t):
        if isinstance(t, tuple):
            t = tuple(unwrap(e) for e in t)
            return t[0] if len(t) == 1 else t
        return t

    if isinstance(x, Lay):
        def go(s, d):
            if isinstance(s, tuple):
                return tuple(go(a, b) for a, b in zip(s, d))
            return d
        sh = plain(x.shape)
        st = plain(x.stride)

        def mask(s, d):
            if product(s) == 1:
                return "*"
            if isinstance(s, tuple):
                return tuple(mask(a, b) for a, b in zip(s, d))
            return d
        return ("L", unwrap(sh), unwrap(mask(sh, st)))
    return ("T", unwrap(plain(x)))


def loose_eq(a: str, b: str):
    try:
        return loose_norm(parse(a)) == loose_norm(parse(b))
    except Exception:
        return False


def run_cases(cases, workdir, tag, log, batch=250, jobs=2):
    """cases: list of dicts with op/args; fills 'out' and 'why' (dropped reason)."""

    for c in cases:
        c["out"], c["why"] = None, "compile (predicted static_assert)"
    live = [c for c in cases if not predicted_compile_failure(c["op"], c["args"])]
    chunks = [live[i:i + batch] for i in range(0, len(live), batch)]

    def work(ci):
        ch = chunks[ci]
        bodies = [cxx_body(c["op"], c["args"]) for c in ch]
        res, dropped = run_batch(bodies, workdir, f"{tag}_{ci}", log)
        for k, c in enumerate(ch):
            c["out"] = res[k]
            c["why"] = dropped.get(k, None if res[k] is not None else "no output")
        return ci

    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(work, range(len(chunks))))
    return cases


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def gen_ops(ops, args, workdir, log):
    cands = []
    stats = {}
    for op in ops:
        seed = zlib.crc32(op.encode()) ^ args.seed
        r = random.Random(seed)
        want = int(TARGET[op] * args.scale)
        n_cand = int(want * 1.35) + 5
        got, tries, seen = [], 0, set()
        while len(got) < n_cand and tries < n_cand * 400:
            tries += 1
            global FORCE
            FORCE = r.choices([None, "S", "D"], [0.7, 0.15, 0.15])[0]
            try:
                c = make_case(r, op)
            except (RuntimeError, ValueError, IndexError, ZeroDivisionError, AssertionError):
                c = None
            if c is None:
                continue
            key = (op, tuple(c))
            if key in seen or predicted_compile_failure(op, c) or not pre_ok(op, c):
                continue
            seen.add(key)
            got.append({"op": op, "args": c})
        stats[op] = {"tries": tries, "cands": len(got), "want": want}
        # Extra cases of the same op from their own random stream (so the cases above are unchanged):
        # appended to the op's file after its own cases, with the following ids.
        for kind, extra_want in EXTRA.get(op, []):
            rx = random.Random(zlib.crc32(kind.encode()) ^ args.seed)
            xwant = int(extra_want * args.scale)
            xgot, xtries = [], 0
            while len(xgot) < int(xwant * 1.35) + 5 and xtries < xwant * 400:
                xtries += 1
                try:
                    c = make_case(rx, kind)
                except (RuntimeError, ValueError, IndexError, ZeroDivisionError, AssertionError):
                    c = None
                if c is None:
                    continue
                key = (op, tuple(c))
                if key in seen or predicted_compile_failure(op, c) or not pre_ok(op, c):
                    continue
                seen.add(key)
                xgot.append({"op": op, "args": c, "extra": kind})
            stats[op][kind] = {"tries": xtries, "cands": len(xgot), "want": xwant}
            log(f"{op} ({kind}): {len(xgot)} candidates from {xtries} draws")
            got.extend(xgot)
        FORCE = None
        log(f"{op}: {len(got)} candidates from {tries} draws")
        cands.extend(got)
    # group by op for compilation (keeps instantiation reuse within a TU)
    run_cases(cands, workdir, "gen", log, batch=args.batch, jobs=args.jobs)
    by_op = collections.defaultdict(list)
    for c in cands:
        by_op[c["op"]].append(c)
    os.makedirs(os.path.join(REPO, "tests", "data"), exist_ok=True)
    for op in ops:
        rows = []
        drops = collections.Counter()
        for c in by_op[op]:
            if c["out"] is None:
                drops[c["why"]] += 1
                continue
            if not post_ok(op, c["args"], c["out"]):
                drops["post-check"] += 1
                continue
            kind = c.get("extra")
            if kind is None and len(rows) >= stats[op]["want"]:
                continue
            if kind is not None:
                if stats[op][kind].setdefault("kept", 0) >= stats[op][kind]["want"]:
                    continue
                stats[op][kind]["kept"] += 1
            rows.append({"id": f"cute-{op}-{len(rows) + 1}", "op": op, "args": c["args"], "expected": c["out"]})
        stats[op]["kept"] = len(rows)
        stats[op]["dropped"] = dict(drops)
        write_jsonl(os.path.join(REPO, "tests", "data", f"cute-{op}.jsonl"), rows)
        log(f"{op}: kept {len(rows)} (dropped {dict(drops)})")
    return stats


def shared_cases(workdir, log, args):
    src_seed = os.path.join(SHARED, "cute-cases", "seed-examples.jsonl")
    src_py = os.path.join(SHARED, "cute-cases", "pycute-public.jsonl")
    data = os.path.join(REPO, "tests", "data")
    os.makedirs(data, exist_ok=True)
    shutil.copyfile(src_seed, os.path.join(data, "shared-seed-examples.jsonl"))
    shutil.copyfile(src_py, os.path.join(data, "shared-pycute-public.jsonl"))
    seeds = [json.loads(l) for l in open(src_seed) if l.strip()]
    pys = [json.loads(l) for l in open(src_py) if l.strip()]
    allc = [{"op": c["op"], "args": c["args"], "src": c} for c in seeds + pys]
    run_cases(allc, workdir, "shared", log, batch=args.batch, jobs=args.jobs)
    report = {"seed_mismatch": [], "pycute_dropped": [], "pycute_contradicted": [], "pycute_invalid": []}
    rows = []
    for c in allc:
        src = c["src"]
        if not src.get("loose"):
            if c["out"] != src["expected"]:
                report["seed_mismatch"].append((src["id"], src["expected"], c["out"]))
            continue
        if c["out"] is None:
            report["pycute_dropped"].append((src["id"], c["why"]))
            continue
        if not post_ok(c["op"], c["args"], c["out"]):
            report["pycute_invalid"].append((src["id"], c["out"]))
            continue
        rows.append({"id": src["id"].replace("py", "pyx", 1), "op": c["op"], "args": c["args"], "expected": c["out"]})
        if not loose_eq(c["out"], src["expected"]):
            report["pycute_contradicted"].append((src["id"], src["expected"], c["out"]))
    write_jsonl(os.path.join(data, "cute-pycute-exact.jsonl"), rows)
    with open(os.path.join(data, "shared-seed-examples.skip"), "w") as f:
        f.write("# ids in shared-seed-examples.jsonl whose expected text real C++ CuTe does not reproduce;\n"
                "# written by tools/oracle/gen.py\n")
        for cid, exp, got in report["seed_mismatch"]:
            f.write(f"{cid} cute-gives {got}\n")
    # The loose pycute file is not skipped anywhere: layout-types evaluates it with the reference
    # (pycute) reading of dynamic integers; C++ CuTe's answers for the same inputs, where it has
    # them, are the exact cases of cute-pycute-exact.jsonl.
    log(f"pycute inputs C++ CuTe cannot evaluate: {len(report['pycute_dropped'])}, "
        f"break its preconditions: {len(report['pycute_invalid'])}, "
        f"answers differently (loose): {len(report['pycute_contradicted'])}")
    log(f"seeds: {len(seeds)} cases, mismatches: {report['seed_mismatch']}")
    log(f"pycute: {len(rows)} exact rows; dropped {len(report['pycute_dropped'])}, invalid "
        f"{len(report['pycute_invalid'])}, loosely contradicted {len(report['pycute_contradicted'])}")
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1.0, help="scale the per-op case counts")
    ap.add_argument("--batch", type=int, default=250, help="cases per C++ translation unit")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiles")
    ap.add_argument("--only-shared", action="store_true")
    ap.add_argument("--no-shared", action="store_true")
    ap.add_argument("--workdir", default=None, help="where to keep the .cpp files (default: temp dir)")
    ap.add_argument("--stats", default=os.path.join(HERE, "last-run.json"))
    a = ap.parse_args()
    load_pycute()
    t0 = time.time()

    def log(m):
        print(f"[{time.time() - t0:7.1f}s] {m}", flush=True)

    import tempfile
    workdir = a.workdir or tempfile.mkdtemp(prefix="cute-oracle-")
    os.makedirs(workdir, exist_ok=True)
    out = {}
    if not a.only_shared:
        out["ops"] = gen_ops([o for o in a.ops.split(",") if o], a, workdir, log)
    if not a.no_shared:
        out["shared"] = shared_cases(workdir, log, a)
    out["seconds"] = round(time.time() - t0, 1)
    with open(a.stats, "w") as f:
        json.dump(out, f, indent=1)
    log("done")
    if not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
