#!/usr/bin/env python3
"""The thread slice of ldmatrix TiledCopies from real C++ CuTe 4.2: writes
tests/data/ldsm/cute-ldsm_slice.jsonl (about a minute: one translation unit).

For each case (an ldmatrix atom over a SM80 TiledMMA's operand A, B or C, and a tensor that the
tiler divides), C++ CuTe prints

  tidfrg_S  TiledCopy::tidfrg_S(tensor layout)              (thr, val, (RestM, RestN, ...))
  tidfrg_D  TiledCopy::tidfrg_D(tensor layout)
  part_S    get_slice(thr).partition_S(tensor): layout and offset (a counting_iterator tensor)
  part_D    get_slice(thr).partition_D(tensor): layout and offset
  retile_D  get_slice(thr).retile_D(frg).layout(), frg the TiledMMA's
            partition_fragment_A/B/C of the tensor (C: make_fragment_like(partition_C))

The Rust side (layout-types/tests/typed_ldsm.rs) recomputes every line with the value algebra
(`MmaTiledCopy::{tidfrg_s, tidfrg_d, partition_s, partition_d, retile}`) and with the typed
ThrCopy, and compares the text.

    python3 tools/oracle/gen_ldsm_slice.py [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "data", "ldsm", "cute-ldsm_slice.jsonl")

# (atom, A type, B type, C type)
SM80 = {
    "SM80_16x8x16_F32F16F16F32_TN": ("half_t", "half_t", "float"),
    "SM80_16x8x16_F16F16F16F16_TN": ("half_t", "half_t", "half_t"),
    "SM80_16x8x16_F32BF16BF16F32_TN": ("bfloat16_t", "bfloat16_t", "float"),
    "SM80_16x8x8_F32TF32TF32F32_TN": ("tfloat32_t", "tfloat32_t", "float"),
}
N_ATOMS = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N"]
T_ATOMS = ["SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T"]
ATOM_VALS = {  # values a thread receives, in 16-bit elements (32-bit: half of it)
    "SM75_U32x1_LDSM_N": 2, "SM75_U32x2_LDSM_N": 4, "SM75_U32x4_LDSM_N": 8,
    "SM75_U16x2_LDSM_T": 2, "SM75_U16x4_LDSM_T": 4, "SM75_U16x8_LDSM_T": 8,
}

# (atom, atom layout, permutation or None, operand, tile extents of the operand)
MMAS = [
    ("SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1):(_1,_2,_4)", None),
    ("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_4)", None),
    ("SM80_16x8x16_F32BF16BF16F32_TN", "(_4,_1,_1):(_1,_4,_4)", None),
    ("SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1):(_1,_2,_4)",
     "make_tile(Int<32>{}, Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>{}, Int<16>{})"),
    ("SM80_16x8x8_F32TF32TF32F32_TN", "(_2,_1,_1):(_1,_2,_2)", None),
]


PERM_MODES = ["_32", "(_8,_2,_2):(_1,_16,_8)", "_16"]  # the permutation above, as CuTe text


def sizes(atom, alay, perm):
    m, n, k = {"16x8x16": (16, 8, 16), "16x8x8": (16, 8, 8)}[atom.split("_")[1]]
    a = [int(x.strip("_")) for x in alay.split(":")[0].strip("()").split(",")]
    t = [m * a[0], n * a[1], k * a[2]]
    if perm:
        t = [32, 32, 16]
    return t


def bits(ty):
    return {"half_t": 16, "bfloat16_t": 16, "tfloat32_t": 32, "float": 32}[ty]


def tensors(e0, e1):
    """Tensor layouts over (e0, e1) tiles: column-major 2x2 tiles, row-major 4x1, padded, a stage mode."""
    m, n = 2 * e0, 2 * e1
    return [
        f"(_{m},_{n}):(_1,_{m})",
        f"(_{4 * e0},_{e1}):(_{e1},_1)",
        f"(_{m},_{n}):(_{n + 8},_1)",
        f"(_{e0},_{e1},_2):(_1,_{e0},_{e0 * e1})",
    ]


def cpp_layout(t):
    shape, stride = t.split(":")

    def tup(s):
        xs = [x.strip() for x in s.strip("()").split(",")]
        return "make_shape(" + ",".join(f"Int<{int(x.strip('_'))}>{{}}" for x in xs) + ")"
    return f"make_layout({tup(shape)}, {tup(stride).replace('make_shape', 'make_stride')})"


def cases():
    out = []
    for atom, alay, perm in MMAS:
        tys = SM80[atom]
        t = sizes(atom, alay, perm)
        nthr = 32 * eval(alay.split(":")[0].replace("_", "").replace(",", "*"))
        vals = {"A": t[0] * t[2] // nthr, "B": t[1] * t[2] // nthr, "C": t[0] * t[1] // nthr}
        ext = {"A": (t[0], t[2]), "B": (t[1], t[2]), "C": (t[0], t[1])}
        for w, ty in zip("ABC", tys):
            b = bits(ty)
            for cop in N_ATOMS + (T_ATOMS if b == 16 else []):
                av = ATOM_VALS[cop] * 16 // b
                if vals[w] % av:
                    continue  # "TiledCopy uses too few vals for selected CopyAtom"
                for ti, ten in enumerate(tensors(*ext[w])):
                    if w == "C" and ti == 3:
                        continue
                    thr = [0, 37, nthr - 1][ti % 3]
                    pm = PERM_MODES if perm else None
                    out.append({"copy": cop, "mma": atom, "atom_layout": alay, "perm": perm, "perm_modes": pm,
                                "operand": w, "type": ty, "tensor": ten, "thr": thr})
    return out


def body(c):
    alay = c["atom_layout"]
    shape, stride = alay.split(":")
    al = cpp_layout(alay)
    p = f", {c['perm']}" if c["perm"] else ""
    w = c["operand"]
    frg = (f"thr_mma.partition_fragment_{w}(t)" if w != "C"
           else "make_fragment_like(thr_mma.partition_C(t))")
    return f"""
  {{
    auto mma = make_tiled_mma({c['mma']}{{}}, {al}{p});
    auto tc = make_tiled_copy_{w}(Copy_Atom<{c['copy']}, {c['type']}>{{}}, mma);
    auto t = make_tensor(counting_iterator<int>(0), {cpp_layout(c['tensor'])});
    auto thr_mma = mma.get_slice({c['thr']});
    auto thr = tc.get_slice({c['thr']});
    auto ps = thr.partition_S(t);
    auto pd = thr.partition_D(t);
    auto frg = {frg};
    auto rd = thr.retile_D(frg);
    print(decltype(tc)::tidfrg_S(t.layout())); print("|");
    print(decltype(tc)::tidfrg_D(t.layout())); print("|");
    print(ps.layout()); print("|"); print(int(*ps.data())); print("|");
    print(pd.layout()); print("|"); print(int(*pd.data())); print("|");
    print(frg.layout()); print("|"); print(rd.layout()); print("\\n");
  }}"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", help="keep the .cpp and the executable in this folder")
    a = ap.parse_args()
    flags = subprocess.check_output(["bash", "/work/shared/cute-oracle/setup.sh"], text=True).split()
    cs = cases()
    src = "#include <cute/tensor.hpp>\n#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_atom.hpp>\n" \
          "#include <cute/atom/copy_traits_sm75.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n" \
          "using namespace cute;\nint main() {" + "".join(body(c) for c in cs) + "\n  return 0;\n}\n"
    d = a.keep or tempfile.mkdtemp()
    os.makedirs(d, exist_ok=True)
    cpp, exe = os.path.join(d, "ldsm_slice.cpp"), os.path.join(d, "ldsm_slice")
    open(cpp, "w").write(src)
    subprocess.check_call(["g++", "-std=c++17", "-O0", "-w", *flags, cpp, "-o", exe])
    lines = subprocess.check_output([exe], text=True).strip().split("\n")
    assert len(lines) == len(cs), (len(lines), len(cs))
    keys = ["tidfrg_s", "tidfrg_d", "part_s", "off_s", "part_d", "off_d", "fragment", "retile_d"]
    with open(OUT, "w") as f:
        for i, (c, line) in enumerate(zip(cs, lines)):
            vals = line.split("|")
            assert len(vals) == len(keys), line
            rec = {"id": f"ldsm-slice-{i + 1}", **c, **dict(zip(keys, vals))}
            f.write(json.dumps(rec) + "\n")
    print(f"{len(cs)} cases -> {os.path.relpath(OUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
