#!/usr/bin/env python3
"""Ground-truth cases for the tensor-core algebra from real C++ CuTe (sibling of gen.py).

    python3 tools/oracle/gen_mma.py                 # everything (see README.md)
    python3 tools/oracle/gen_mma.py --ops tiled_mma_tv_a,tile_to_shape --scale 0.2

Ops (FORMAT.md plus the partition/fragment/copy ops of layout_types::text::eval):
  tiled_mma_tv_a|b|c, tiled_mma_tile          atom, atom layout [, permutation]
  tiled_mma_partition_a|b|c, tiled_mma_fragment_a|b|c
                                              atom, atom layout, tensor layout, thread [, permutation]
  make_tiled_copy_a|b|c                       ldmatrix op, atom, atom layout, S|D [, permutation]
  gmma_smem_atom                              K|MN, INTER|SW32|SW64|SW128, element bits
  tile_to_shape                               layout or GMMA atom, shape [, order]
  under_tiler (file only)                     logical_product|logical_divide|composition|... (A, _)

Every case is compiled and run by gen.py's machinery (one forked child per case; a case whose C++ does not
compile -- a static_assert such as "Not a canonical GMMA_K Layout" -- is dropped with every case of the same
C++ types). Seeds are fixed, so a rerun reproduces the files. Results go to tests/data/cute-<op>.jsonl.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
from cute_model import S, D, Lay, txt, cpp, parse, flatten, product, values, is_injective  # noqa: E402

gen.PRELUDE = gen.PRELUDE.replace(
    "#include <cute/tensor.hpp>\n",
    "#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED 1\n#include <cute/tensor.hpp>\n#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_traits_sm75.hpp>\n"
    "static cute::half_t g_h[1 << 16];\nstatic cute::bfloat16_t g_b[1 << 16];\n"
    "static cute::float_e4m3_t g_e4[1 << 16];\nstatic cute::float_e5m2_t g_e5[1 << 16];\n")

REPO = gen.REPO

# ============================================================================ atoms

SM80 = {  # name: (M, N, K, A type, B type, C type)
    "SM80_16x8x8_F16F16F16F16_TN": (16, 8, 8, "half_t", "half_t", "half_t"),
    "SM80_16x8x8_F32F16F16F32_TN": (16, 8, 8, "half_t", "half_t", "float"),
    "SM80_16x8x8_F32BF16BF16F32_TN": (16, 8, 8, "bfloat16_t", "bfloat16_t", "float"),
    "SM80_16x8x8_F32TF32TF32F32_TN": (16, 8, 8, "tfloat32_t", "tfloat32_t", "float"),
    "SM80_16x8x16_F16F16F16F16_TN": (16, 8, 16, "half_t", "half_t", "half_t"),
    "SM80_16x8x16_F32F16F16F32_TN": (16, 8, 16, "half_t", "half_t", "float"),
    "SM80_16x8x16_F32BF16BF16F32_TN": (16, 8, 16, "bfloat16_t", "bfloat16_t", "float"),
}
GMMA_TYPES = {"F32BF16BF16": "bfloat16_t", "F32F16F16": "half_t"}
# the 8-bit atoms (`--fp8`): m64nNk32, both operands K-major, named `..._SS_TN` / `..._RS_TN`
FP8_TYPES = {"F32E4M3E4M3": ("float_e4m3_t", "float_e4m3_t"), "F32E4M3E5M2": ("float_e4m3_t", "float_e5m2_t"),
             "F32E5M2E4M3": ("float_e5m2_t", "float_e4m3_t"), "F32E5M2E5M2": ("float_e5m2_t", "float_e5m2_t")}
MAJORS_SS = [("K", "K"), ("K", "MN"), ("MN", "K"), ("MN", "MN")]
MAJORS_RS = [("K", "K"), ("K", "MN")]


def gmma_atoms():
    out = []
    for n in range(8, 257, 8):
        for t in GMMA_TYPES:
            for a, b in MAJORS_SS:
                out.append(f"SM90_64x{n}x16_{t}_SS<{a},{b}>")
            for a, b in MAJORS_RS:
                out.append(f"SM90_64x{n}x16_{t}_RS<{a},{b}>")
    return out


def fp8_atoms():
    return [f"SM90_64x{n}x32_{t}_{src}_TN" for n in range(8, 257, 8) for t in FP8_TYPES for src in ("SS", "RS")]


ALL_ATOMS = list(SM80) + gmma_atoms()


def atom_info(name):
    """(M, N, K, A type, B type, C type, is_gmma, rs, a_major, b_major)."""
    if name in SM80:
        return SM80[name] + (False, False, None, None)
    if name.endswith("_TN") and name.startswith("SM90"):
        parts = name.split("_")  # SM90, 64xNx32, TYPES, SS|RS, TN
        n = int(parts[1].split("x")[1])
        ta, tb = FP8_TYPES[parts[2]]
        return (64, n, 32, ta, tb, "float", True, parts[3] == "RS", "K", "K")
    head, majors = name.split("<")
    a, b = majors.rstrip(">").split(",")
    parts = head.split("_")  # SM90, 64xNx16, TYPES, SS|RS
    n = int(parts[1].split("x")[1])
    t = GMMA_TYPES[parts[2]]
    return (64, n, 16, t, t, "float", True, parts[3] == "RS", a, b)


def atom_cpp(name):
    if name in SM80:
        return name + "{}"
    if name.endswith("_TN"):
        return name + "<>{}"
    head, majors = name.split("<")
    a, b = majors.rstrip(">").split(",")
    return f"{head}<GMMA::Major::{a},GMMA::Major::{b}>{{}}"


ATOM_SHAPES = [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1), (1, 4, 1), (4, 2, 1), (2, 4, 1)]


def rand_atom_layout(r, gmma):
    shp = r.choice(ATOM_SHAPES if not gmma else ATOM_SHAPES[:7])
    if r.random() < 0.1 and not gmma:
        shp = r.choice([(1, 1, 2), (2, 1, 2), (2, 2, 2)])
    sh = tuple(S(x) for x in shp)
    if r.random() < 0.25 and product(shp) > 1:  # row-major order of the atoms
        st, acc = [0, 0, 0], 1
        for i in reversed(range(3)):
            st[i] = 0 if shp[i] == 1 else acc
            acc *= shp[i]
        return txt(Lay(sh, tuple(S(x) for x in st)))
    return txt(sh)


def atom_layout_size(text):
    x = parse(text)
    return product(x.shape if isinstance(x, Lay) else x)


def atom_layout_shape(text):
    x = parse(text)
    sh = x.shape if isinstance(x, Lay) else x
    return tuple(e.v for e in sh)


def rand_perm_layout(r, n):
    """A static bijection on [0, n) (a compact layout with shuffled strides)."""
    fs = []
    m = n
    while m > 1 and len(fs) < 3:
        d = r.choice([q for q in (2, 4, 8) if m % q == 0] or [m])
        fs.append(d)
        m //= d
    if m > 1:
        fs.append(m)
    order = list(range(len(fs)))
    r.shuffle(order)
    st = [0] * len(fs)
    acc = 1
    for k in order:
        st[k] = acc
        acc *= fs[k]
    if len(fs) == 1:
        return Lay(S(fs[0]), S(1))
    return Lay(tuple(S(x) for x in fs), tuple(S(x) for x in st))


def rand_permutation(r, name, alay):
    """A Tile<M,N,K> permutation text, or None."""
    if r.random() < 0.65:
        return None
    info = atom_info(name)
    shp = atom_layout_shape(alay)
    modes = []
    for i in range(3):
        base = info[i] * shp[i]
        x = r.random()
        if x < 0.45 or i == 2 and x < 0.7:
            modes.append("_")
        elif x < 0.7:
            modes.append(txt(S(base * r.choice([1, 1, 2]))))
        else:
            modes.append(txt(rand_perm_layout(r, base * r.choice([1, 1, 2]))))
    if all(m == "_" for m in modes):
        return None
    while modes and modes[-1] == "_" and r.random() < 0.5:
        modes.pop()
    return "[" + ",".join(modes) + "]"


def perm_cpp(text):
    return cpp(parse(text))


def layout_cpp(text):
    x = parse(text)
    if isinstance(x, Lay):
        return cpp(x)
    return f"make_layout({cpp(x)})"


def mma_cpp(name, alay, perm):
    p = f", {perm_cpp(perm)}" if perm else ""
    return f"auto mma = make_tiled_mma({atom_cpp(name)}, {layout_cpp(alay)}{p});"


def tile_size(name, alay, perm, i):
    """tile_size<i> of the TiledMMA: the permutation's size, or atom extent x atoms."""
    pm = parse(perm).modes if perm else []
    if i < len(pm) and txt(pm[i]) != "_":
        m = pm[i]
        return product(m.shape) if isinstance(m, Lay) else m.v
    return atom_info(name)[i] * atom_layout_shape(alay)[i]


# ============================================================================ GMMA smem atoms

SWIZZLES = ["INTER", "SW32", "SW64", "SW128"]
BITS = [8, 16, 32, 64]
CTYPE = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double"}


def gmma_atom_text(major, sw, bits):
    b = SWIZZLES.index(sw)
    w = (128 << b) // bits
    lay = f"(_8,_{w}):(_{w},_1)" if major == "K" else f"(_{w},_8):(_1,_{w})"
    return f"Sw<{b},4,3> o smem_ptr[{bits}b](unset) o {lay}"


def gmma_atom_cpp(major, sw, bits, ctype=None):
    return f"GMMA::Layout_{major}_{sw}_Atom<{ctype or CTYPE[bits]}>{{}}"


def composed_cpp(text):
    """C++ for `Sw<B,M,S> o smem_ptr[Nb](unset) o LAYOUT`."""
    sw, off, lay = [p.strip() for p in text.split(" o ")]
    bms = sw[3:-1]
    bits = int(off[len("smem_ptr["):].split("b")[0])
    return f"composition(Swizzle<{bms}>{{}}, smem_ptr_flag_bits<{bits}>{{}}, {cpp(parse(lay))})"


def shape_of(text):
    x = parse(text)
    return x.shape if isinstance(x, Lay) else x


# ============================================================================ case generation

TARGET = {"tiled_mma_tv_a": 0, "tiled_mma_tv_b": 0, "tiled_mma_tv_c": 0, "tiled_mma_tile": 0,
          "tiled_mma_partition_a": 220, "tiled_mma_partition_b": 220, "tiled_mma_partition_c": 220,
          "tiled_mma_fragment_a": 220, "tiled_mma_fragment_b": 220, "tiled_mma_fragment_c": 220,
          "make_tiled_copy_a": 200, "make_tiled_copy_b": 200, "make_tiled_copy_c": 150,
          "gmma_smem_atom": 0, "tile_to_shape": 320, "under_tiler": 0}
OPS = list(TARGET)
FP8_ATOMS = []  # `--fp8`: the atom pool


def tv_cases(r, op, scale):
    """Every atom once (random atom layout and permutation), then extra SM80 cases."""
    out = []
    for name in FP8_ATOMS or ALL_ATOMS:
        if scale < 1 and r.random() > scale:
            continue
        alay = rand_atom_layout(r, name not in SM80)
        perm = rand_permutation(r, name, alay)
        out.append([name, alay] + ([perm] if perm else []))
    for _ in range(0 if FP8_ATOMS else int(120 * scale)):
        name = r.choice(list(SM80))
        alay = rand_atom_layout(r, False)
        perm = rand_permutation(r, name, alay)
        out.append([name, alay] + ([perm] if perm else []))
    return out


def rand_tensor(r, ext0, ext1, extra=True, dyn=True):
    """A layout over an (ext0 x ext1 [x stages]) tensor: column-/row-major, padded, or dynamic strides."""
    k0 = ext0 * r.choice([1, 1, 2, 3])
    k1 = ext1 * r.choice([1, 1, 2, 4])
    shp = [k0, k1]
    if extra and r.random() < 0.2:
        shp.append(r.choice([2, 3]))
    kind = r.choice(["left", "right", "pad", "dyn"] if dyn else ["left", "right", "pad"])
    st = [0] * len(shp)
    if kind in ("left", "pad"):
        acc = 1
        for i in range(len(shp)):
            st[i] = acc
            acc *= shp[i] + (r.choice([1, 2, 4]) if kind == "pad" and i == 0 else 0)
    else:
        acc = 1
        order = [1, 0] + list(range(2, len(shp)))
        for i in order:
            st[i] = acc
            acc *= shp[i]
    sh = tuple(S(x) for x in shp)
    if kind == "dyn":
        sd = tuple(S(x) if x == 1 else D(x) for x in st)
        if r.random() < 0.3:
            sh = tuple(D(x.v) for x in sh)
    else:
        sd = tuple(S(x) for x in st)
    return txt(Lay(sh, sd))


def smem_tensor(r, name, op_is_a, k_tile):
    """tile_to_shape(GMMA atom of the operand's major, (MN, K)) as composed text, or None."""
    info = atom_info(name)
    major = info[8] if op_is_a else info[9]
    bits = 8 if info[2] == 32 else 16
    sw = r.choice(SWIZZLES)
    atom = gmma_atom_text(major, sw, bits)
    a = parse(atom.split(" o ")[2])
    ash = tuple(x.v for x in a.shape)
    mn = (info[0] if op_is_a else info[1])
    return atom, major, sw, bits, ash, mn


def partition_cases(r, op, want):
    out = []
    which = op[-1]
    frag = "fragment" in op
    while len(out) < want * 1.3:
        gm = r.random() < 0.45
        name = r.choice(FP8_ATOMS if FP8_ATOMS else ALL_ATOMS[7:] if gm else list(SM80))
        gm = gm or bool(FP8_ATOMS)
        alay = rand_atom_layout(r, gm)
        perm = rand_permutation(r, name, alay) if not gm else None
        tm = [tile_size(name, alay, perm, i) for i in range(3)]
        e0, e1 = {"a": (tm[0], tm[2]), "b": (tm[1], tm[2]), "c": (tm[0], tm[1])}[which]
        info = atom_info(name)
        smem_operand = info[6] and (which == "b" or (which == "a" and not info[7]))
        if smem_operand and (frag or r.random() < 0.4):
            # a canonical GMMA smem tile: the atom of the operand's major tiled to (MN, K)
            atom, major, sw, bits, ash, _ = smem_tensor(r, name, which == "a", tm[2])
            mn = e0 * r.choice([1, 1, 2])
            kk = max(e1, ash[1]) * r.choice([1, 1, 2])
            if mn % ash[0] or kk % ash[1]:
                continue
            shp = [S(mn), S(kk)]
            if r.random() < 0.3:
                shp.append(S(r.choice([2, 3])))
            tgt = txt(tuple(shp))
            out.append({"pre": ("tile_to_shape", [atom, tgt]), "name": name, "alay": alay, "perm": perm,
                        "thr": r.randrange(atom_layout_size(alay) * (128 if info[6] else 32))})
            continue
        t = rand_tensor(r, e0, e1, dyn=not (frag and smem_operand))
        thr = r.randrange(atom_layout_size(alay) * (128 if info[6] else 32))
        args = [name, alay, t, txt(D(thr))] + ([perm] if perm else [])
        out.append({"args": args})
    return out


LDSM = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N",
        "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T"]


def copy_cases(r, op, want):
    out = []
    seen = set()
    tries = 0
    while len(out) < want * 1.3 and tries < want * 50:
        tries += 1
        name = r.choice(list(SM80))
        alay = rand_atom_layout(r, False)
        perm = rand_permutation(r, name, alay)
        cop = r.choice(LDSM)
        sd = r.choice(["S", "D"])
        args = [cop, name, alay, sd] + ([perm] if perm else [])
        if tuple(args) in seen:
            continue
        seen.add(tuple(args))
        out.append({"args": args})
    return out


def tile_to_shape_cases(r, want):
    out = []
    for _ in range(int(want * 1.3)):
        if r.random() < 0.6:
            major, sw, bits = r.choice(["K", "MN"]), r.choice(SWIZZLES), r.choice([8, 16, 32])
            block = gmma_atom_text(major, sw, bits)
            bsh = tuple(x.v for x in parse(block.split(" o ")[2]).shape)
        else:
            shp = tuple(r.choice([1, 2, 4, 8, 16]) for _ in range(r.choice([1, 2, 2, 3])))
            kind = r.choice(["left", "right"])
            st, acc = [0] * len(shp), 1
            for i in (range(len(shp)) if kind == "left" else reversed(range(len(shp)))):
                st[i] = acc
                acc *= shp[i]
            lay = Lay(tuple(S(x) for x in shp), tuple(S(x) for x in st)) if len(shp) > 1 else Lay(S(shp[0]), S(1))
            block = txt(lay)
            bsh = shp
        rk = max(len(bsh), r.choice([2, 2, 3, 3]))
        tgt = []
        for i in range(rk):
            b = bsh[i] if i < len(bsh) else 1
            tgt.append(b * r.choice([1, 2, 4, 8, 3]))
        if rk == 3 and r.random() < 0.5:
            tgt[2] = r.choice([1, 2, 3, 4, 5])
        shp = tuple(S(x) if r.random() < 0.9 else D(x) for x in tgt)
        args = [block, txt(shp)]
        x = r.random()
        if x < 0.15:
            args.append("LayoutRight")
        elif x < 0.35:
            order = list(range(1, rk + 1))
            r.shuffle(order)
            args.append(txt(tuple(S(o) for o in order)))
        out.append({"args": args})
    return out


UNDER_OPS = ["logical_product", "logical_divide", "composition", "zipped_product", "zipped_divide",
             "tiled_divide", "flat_divide", "tiled_product", "flat_product"]


def under_cases(r, scale):
    out = []
    for op in UNDER_OPS:
        for _ in range(max(2, int(30 * scale))):
            L = gen.rand_layout(r, ranks=(1, 2, 2, 2, 3), maxdepth=2)
            out.append({"op": op, "args": [txt(L), "_"]})
    return out


# ============================================================================ C++ bodies

def body(op, args):
    if op in ("tiled_mma_tv_a", "tiled_mma_tv_b", "tiled_mma_tv_c", "tiled_mma_tile"):
        m = mma_cpp(args[0], args[1], args[2] if len(args) > 2 else None)
        if op == "tiled_mma_tile":
            return f"{m} print(tile_shape(mma));"
        return f"{m} print(mma.get_layout{op[-1].upper()}_TV());"
    if op.startswith("tiled_mma_partition") or op.startswith("tiled_mma_fragment"):
        name, alay, t, thr = args[:4]
        m = mma_cpp(name, alay, args[4] if len(args) > 4 else None)
        w = op[-1].upper()
        if t.startswith("Sw<"):
            info = atom_info(name)
            ty = info[3] if w == "A" else info[4]
            buf = {"bfloat16_t": "g_b", "float_e4m3_t": "g_e4", "float_e5m2_t": "g_e5"}.get(ty, "g_h")
            ten = f"auto t = make_tensor(make_smem_ptr({buf}), {composed_cpp(t)});"
        else:
            ten = f"auto t = make_tensor(counting_iterator<int>(0), {cpp(parse(t))});"
        fn = "partition" if "partition" in op else "partition_fragment"
        return f"{m} {ten} auto s = mma.get_slice({thr}); print(s.{fn}_{w}(t).layout());"
    if op.startswith("make_tiled_copy"):
        cop, name, alay, sd = args[:4]
        m = mma_cpp(name, alay, args[4] if len(args) > 4 else None)
        info = atom_info(name)
        w = op[-1].upper()
        ty = {"A": info[3], "B": info[4], "C": info[5]}[w]
        return (f"{m} auto tc = make_tiled_copy_{w}(Copy_Atom<{cop}, {ty}>{{}}, mma); "
                f"print(tc.get_layout{sd}_TV());")
    if op == "gmma_smem_atom":
        major, sw, bits = args
        return f"print({gmma_atom_cpp(major, sw, int(bits))});"
    if op == "tile_to_shape":
        block = args[0]
        if block.startswith("Sw<"):
            sw, off, lay = [p.strip() for p in block.split(" o ")]
            b = int(sw[3])
            bits = int(off[len("smem_ptr["):].split("b")[0])
            L = parse(lay)
            major = "K" if L.stride[1].v == 1 else "MN"
            bc = gmma_atom_cpp(major, SWIZZLES[b], bits)
        else:
            bc = cpp(parse(block))
        order = ""
        if len(args) > 2:
            order = ", LayoutRight{}" if args[2] == "LayoutRight" else ", " + cpp(parse(args[2]))
        return f"print(tile_to_shape({bc}, {cpp(parse(args[1]))}{order}));"
    if op in UNDER_OPS:
        return f"print({op}({cpp(parse(args[0]))}, _));"
    raise ValueError(op)


# ============================================================================ post-checks

def post_ok(op, args, out):
    try:
        if op.startswith("tiled_mma_tv"):
            R = parse(out)
            n_thr = atom_layout_size(args[1]) * (32 if args[0] in SM80 else 128)
            if product(R.shape[0]) != n_thr:
                return False
            if op == "tiled_mma_tv_c":
                return is_injective(gen.plain_lay(R))
            return True
        if op == "tiled_mma_tile":
            return all(isinstance(x.v, int) for x in parse(out))
        if op == "gmma_smem_atom":
            return out == gmma_atom_text(*args[:2], int(args[2]))
        if op.startswith("tiled_mma") or op.startswith("make_tiled_copy") or op == "tile_to_shape":
            sw = out.split(" o ")
            R = parse(sw[-1])
            return isinstance(R, Lay)
        return True
    except Exception:
        return False


# ============================================================================ driver

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=150)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--rejected", type=int, default=40, help="most C++-rejected cases to keep per op")
    ap.add_argument("--stats", default=os.path.join(HERE, "last-run-mma.json"))
    ap.add_argument("--fp8", action="store_true",
                    help="only the 8-bit GMMA atoms (m64nNk32 _TN); files cute-<op>_fp8.jsonl, no shared copies")
    a = ap.parse_args()
    if a.fp8:
        FP8_ATOMS.extend(fp8_atoms())
        if a.stats.endswith("last-run-mma.json"):
            a.stats = a.stats.replace("last-run-mma.json", "last-run-mma-fp8.json")
    t0 = time.time()

    def log(m):
        print(f"[{time.time() - t0:7.1f}s] {m}", flush=True)

    workdir = a.workdir or tempfile.mkdtemp(prefix="cute-oracle-mma-")
    os.makedirs(workdir, exist_ok=True)
    ops = [o for o in a.ops.split(",") if o]
    cands = []
    pre = []
    for op in ops:
        r = random.Random(zlib.crc32(op.encode()) ^ a.seed)
        want = int(TARGET[op] * a.scale)
        if op in ("tiled_mma_tv_a", "tiled_mma_tv_b", "tiled_mma_tv_c", "tiled_mma_tile"):
            cs = [{"op": op, "args": x} for x in tv_cases(r, op, a.scale)]
        elif op.startswith("tiled_mma_partition") or op.startswith("tiled_mma_fragment"):
            cs = [dict(c, op=op) for c in partition_cases(r, op, want)]
        elif op.startswith("make_tiled_copy"):
            cs = [dict(c, op=op) for c in copy_cases(r, op, want)]
        elif op == "gmma_smem_atom":
            cs = [{"op": op, "args": [m, s, str(b)]} for m in ("K", "MN") for s in SWIZZLES for b in BITS]
        elif op == "tile_to_shape":
            cs = [dict(c, op=op) for c in tile_to_shape_cases(r, want)]
        elif op == "under_tiler":
            cs = [dict(c, file="under_tiler") for c in under_cases(r, a.scale)]
        else:
            raise SystemExit(f"unknown op {op}")
        for c in cs:
            c.setdefault("file", op + ("_fp8" if a.fp8 else ""))
            c["want"] = want
        log(f"{op}: {len(cs)} candidates")
        cands.extend(cs)
        pre.extend(c for c in cs if "pre" in c)
    # gen.run_cases compiles gen.cxx_body(op, args): route it to this file's bodies
    gen.cxx_body = body
    gen.predicted_compile_failure = lambda op, args: False
    # first pass: the smem tiles some partition/fragment cases are built on
    if pre:
        pcs = [{"op": c["pre"][0], "args": c["pre"][1]} for c in pre]
        gen.run_cases(pcs, workdir, "pre", log, batch=a.batch, jobs=a.jobs)
        for c, p in zip(pre, pcs):
            if p["out"] is None:
                c["args"] = None
                continue
            c["args"] = [c["name"], c["alay"], p["out"], txt(D(c["thr"]))] + ([c["perm"]] if c["perm"] else [])
    cands = [c for c in cands if c.get("args") is not None]
    gen.run_cases(cands, workdir, "mma", log, batch=a.batch, jobs=a.jobs)
    by_file = collections.defaultdict(list)
    for c in cands:
        by_file[c["file"]].append(c)
    stats = {}
    rejected, rseen = [], set()
    os.makedirs(os.path.join(REPO, "tests", "data"), exist_ok=True)
    for f, cs in by_file.items():
        rows, drops, seen = [], collections.Counter(), set()
        for c in cs:
            if c["out"] is None:
                drops[c["why"]] += 1
                continue
            if not post_ok(c["op"], c["args"], c["out"]):
                drops["post-check"] += 1
                continue
            key = (c["op"], tuple(c["args"]))
            if key in seen:
                continue
            seen.add(key)
            if c["want"] and len(rows) >= c["want"]:
                continue
            rows.append({"id": f"cute-{f}-{len(rows) + 1}", "op": c["op"], "args": c["args"],
                         "expected": c["out"]})
        stats[f] = {"kept": len(rows), "dropped": dict(drops)}
        gen.write_jsonl(os.path.join(REPO, "tests", "data", f"cute-{f}.jsonl"), rows)
        # inputs C++ CuTe refuses to compile (a static_assert): the algebra must refuse them too
        nrej = 0
        for c in cs:
            if c["why"] == "compile" and nrej < a.rejected:
                nrej += 1
                key = (c["op"], tuple(c["args"]))
                if key not in rseen:
                    rseen.add(key)
                    rejected.append({"id": f"cute-rejected-{len(rejected) + 1}", "op": c["op"],
                                     "args": c["args"], "expected": "", "rejected": True})
        log(f"{f}: kept {len(rows)} (dropped {dict(drops)})")
    # the shared examples (C++ CuTe 4.2), verbatim
    if not a.fp8:
        shutil.copyfile(os.path.join(gen.SHARED, "cute-cases", "mma-public.jsonl"),
                        os.path.join(REPO, "tests", "data", "shared-mma-public.jsonl"))
    if rejected and not a.fp8:
        gen.write_jsonl(os.path.join(REPO, "tests", "data", "cute-mma-rejected.jsonl"), rejected)
        stats["rejected"] = len(rejected)
    stats["seconds"] = round(time.time() - t0, 1)
    with open(a.stats, "w") as fh:
        json.dump(stats, fh, indent=1)
    log("done")
    if not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
