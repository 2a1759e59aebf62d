#!/usr/bin/env python3
"""GMMA descriptor vectors from real C++ CuTe (host-only oracle): tests/data/cute-gmma_desc.jsonl.

    python3 tools/oracle/gen_gmma_desc.py            # writes tests/data/cute-gmma_desc.jsonl
    python3 tools/oracle/gen_gmma_desc.py --rust     # prints the case list for tests/typed_gmma.rs
    python3 tools/oracle/gen_gmma_desc.py --tile-cases   # writes tests/typed_gmma/tile_to_shape_cases.rs

For each case: smem = tile_to_shape(GMMA::Layout_<major>_<sw>_Atom<T>, target, order); the tensor is
zipped_divide'd by one MMA's (MN, K) tile; CuTe's make_gmma_desc<major>(tensor<0>(part)) and the
descriptor tensor MakeTensor<GMMA::smem_desc<major>>(part) (CuTe's partition_fragment_A/B of an SS
GMMA) give the 64-bit descriptors at every index of the rest mode. On the host the start address is 0
(cast_smem_ptr_to_uint has no host path), so the vectors pin everything but the address.
"""
import json, os, subprocess, sys, tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TYPES = {"u8": ("uint8_t", 8), "u16": ("half_t", 16), "u32": ("float", 32), "u64": ("double", 64)}
SW_W = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}


def cases():
    out = []
    for major in ("K", "MN"):
        for sw in ("INTER", "SW32", "SW64", "SW128"):
            for t, (_, bits) in TYPES.items():
                cols = SW_W[sw] // bits
                kmma = 256 // bits
                m = 128 if major == "K" else max(128, cols)
                k = max(64, cols) if major == "K" else 64
                out.append((major, sw, t, (m, k, 2), "LayoutLeft", (64, kmma)))
    # the probe tile, other stage counts / MMA tiles / orders
    out += [
        ("K", "SW128", "u16", (128, 64, 4), "LayoutLeft", (64, 16)),
        ("K", "SW128", "u16", (128, 64, 4), "LayoutLeft", (128, 16)),
        ("K", "SW128", "u16", (256, 64, 3), "LayoutRight", (64, 16)),
        ("K", "SW64", "u16", (64, 128, 2), "Step<_2,_1,_3>", (64, 16)),
        ("MN", "SW128", "u16", (128, 64, 4), "LayoutLeft", (64, 16)),
        ("MN", "SW128", "u16", (256, 32, 2), "Step<_1,_3,_2>", (256, 16)),
        ("MN", "SW64", "u32", (64, 32, 3), "LayoutRight", (64, 8)),
        ("K", "SW32", "u8", (192, 64, 5), "LayoutLeft", (64, 32)),
        ("K", "INTER", "u16", (64, 32, 2), "Step<_2,_1,_3>", (64, 16)),
        ("MN", "INTER", "u8", (64, 64, 2), "LayoutRight", (64, 32)),
    ]
    return out


def case_id(c):
    major, sw, t, tgt, order, mma = c
    o = order.replace("Step<", "Step").replace(">", "").replace(",", "").replace("_", "")
    return f"{major}_{sw}_{t}_{tgt[0]}x{tgt[1]}x{tgt[2]}_{o}_mma{mma[0]}x{mma[1]}"


def cpp_case(i, c):
    major, sw, t, tgt, order, mma = c
    ct = TYPES[t][0]
    ords = {"LayoutLeft": "LayoutLeft{}", "LayoutRight": "LayoutRight{}"}
    o = ords.get(order, order + "{}")
    return f"""
static void case_{i}() {{
  using T = {ct};
  auto sl = tile_to_shape(GMMA::Layout_{major}_{sw}_Atom<T>{{}}, make_shape(Int<{tgt[0]}>{{}}, Int<{tgt[1]}>{{}}, Int<{tgt[2]}>{{}}), {o});
  Tensor s = make_tensor(make_smem_ptr(g_buf<T>()), sl);
  Tensor part = zipped_divide(s, make_shape(Int<{mma[0]}>{{}}, Int<{mma[1]}>{{}}));
  cute::GmmaDescriptor d = GMMA::make_gmma_desc<GMMA::Major::{major}>(tensor<0>(part));
  Tensor dt = MakeTensor<GMMA::smem_desc<GMMA::Major::{major}>>{{}}(part);
  printf("CASE {case_id(c)} smem=");
  print(sl);
  printf(" desc_layout=");
  print(dt.layout());
  printf(" desc=%llu descs=", (unsigned long long)d.desc_);
  for (int j = 0; j < int(size<1>(dt)); ++j) {{
    cute::GmmaDescriptor e = dt(0, j);
    printf("%s%llu", j ? "," : "", (unsigned long long)e.desc_);
  }}
  printf("\\n");
}}
"""


def rust_tuple(t):
    """CuTe text of an IntTuple -> typed Rust (`_N` static: Int::<N>::new(), `N` dynamic: Ni64)."""
    out, i = [], 0
    while i < len(t):
        ch = t[i]
        if ch in "(),":
            out.append({"(": "(", ")": ",)" if out and out[-1] != "(" else ")", ",": ", "}[ch]); i += 1
        elif ch == "_" or ch.isdigit():
            j = i + (ch == "_")
            while j < len(t) and t[j].isdigit():
                j += 1
            n = t[i + (ch == "_"):j]
            out.append(f"Int::<{n}>::new()" if ch == "_" else f"{n}i64"); i = j
        else:
            raise ValueError(t)
    return "".join(out).replace(", ,)", ",)")


def rust_layout(l):
    sh, st = split_layout(l)
    return f"make_layout({rust_tuple(sh)}, {rust_tuple(st)})"


def split_layout(l):
    depth = 0
    for i, ch in enumerate(l):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return l[:i], l[i + 1:]
    raise ValueError(l)


def tile_cases():
    """~30 cases of tests/data/cute-tile_to_shape.jsonl, every kind (plain / swizzled, static /
    dynamic target, LayoutLeft / LayoutRight / Step), the first few of each kind."""
    rows = [json.loads(l) for l in open(os.path.join(REPO, "tests", "data", "cute-tile_to_shape.jsonl"))]
    quota = {(True, False, "L"): 6, (False, False, "L"): 5, (True, True, "L"): 3, (False, True, "L"): 3,
             (True, False, "S"): 3, (False, False, "R"): 3, (True, False, "R"): 3, (False, False, "S"): 3,
             (True, True, "R"): 1, (False, True, "S"): 1}
    lines = []
    for r in rows:
        a = r["args"]
        sw = a[0].startswith("Sw<")
        dyn = any(ch.isdigit() and (i == 0 or a[1][i - 1] in "(,") for i, ch in enumerate(a[1]))
        o = "L" if len(a) < 3 or a[2] == "LayoutLeft" else ("R" if a[2] == "LayoutRight" else "S")
        k = (sw, dyn, o)
        if quota.get(k, 0) == 0:
            continue
        quota[k] -= 1
        if sw:
            head, lay = a[0].rsplit(" o ", 1)
            swz, flag = head.split(" o ")
            b, m, s_ = swz[3:-1].split(",")
            bits = flag[len("smem_ptr["):flag.index("b]")]
            ty = {"8": "u8", "16": "u16", "32": "u32", "64": "u64"}[bits]
            block = (f"make_composed_layout(Swizzle::<{b}, {m}, {s_}>, {rust_layout(lay)})"
                     f".with_offset(SmemPtrFlag::<BitsOf<{ty}>>::default())")
        else:
            block = rust_layout(a[0])
        order = "LayoutLeft" if o == "L" and len(a) < 3 else ("LayoutLeft" if o == "L" else
                 ("LayoutRight" if o == "R" else rust_tuple(a[2])))
        ord_text = a[2] if len(a) >= 3 else "LayoutLeft"
        lines.append(f'    ("{r["id"]}", "{a[0]}", "{a[1]}", "{ord_text}", "{r["expected"]}", '
                     f'tl(tile_to_shape({block}, {rust_tuple(a[1])}, {order}))),')
    dst = os.path.join(REPO, "tests", "typed_gmma", "tile_to_shape_cases.rs")
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w") as f:
        f.write("// Generated by tools/oracle/gen_gmma_desc.py --tile-cases from tests/data/cute-tile_to_shape.jsonl: do not edit.\n")
        f.write("// (id, block, target, order, CuTe's result, the typed result printed)\n")
        f.write("#[rustfmt::skip]\npub fn tile_to_shape_cases() -> Vec<(&'static str, &'static str, &'static str, &'static str, &'static str, String)> { vec![\n")
        f.write("\n".join(lines) + "\n] }\n")
    print(f"{len(lines)} cases -> {dst}")


def main():
    if "--tile-cases" in sys.argv:
        return tile_cases()
    cs = cases()
    if "--rust" in sys.argv:
        for c in cs:
            major, sw, t, tgt, order, mma = c
            o = order if not order.startswith("Step") else "(" + order[5:-1].replace(",", ", ") + ")"
            print(f'    case!("{case_id(c)}", Layout_{major}_{sw}_Atom, {t}, Major{major}, [{tgt[0]}, {tgt[1]}, {tgt[2]}], {o}, [{mma[0]}, {mma[1]}]);')
        return
    flags = subprocess.check_output(["/work/shared/cute-oracle/setup.sh"], text=True).split()
    src = """#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED 1
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cstdio>
using namespace cute;
using namespace cute::SM90;
// 16-byte-aligned host buffer standing in for shared memory (the host start address is 0 anyway)
template <class T> T* g_buf() { alignas(1024) static unsigned char b[1 << 20]; return reinterpret_cast<T*>(b); }
"""
    src += "".join(cpp_case(i, c) for i, c in enumerate(cs))
    src += "int main() {\n" + "".join(f"  case_{i}();\n" for i in range(len(cs))) + "}\n"
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "gmma_desc.cpp")
        open(p, "w").write(src)
        exe = os.path.join(d, "gmma_desc")
        subprocess.check_call(["g++", "-std=c++17", "-O1", "-w", *flags, p, "-o", exe])
        out = subprocess.check_output([exe], text=True)
    rows = []
    for line in out.splitlines():
        if not line.startswith("CASE "):
            continue
        _, cid, rest = line.split(" ", 2)
        smem, rest = rest.split(" desc_layout=")
        dl, rest = rest.split(" desc=")
        desc, descs = rest.split(" descs=")
        rows.append({"id": cid, "smem": smem[len("smem="):], "desc_layout": dl, "desc": int(desc),
                     "descs": [int(x) for x in descs.split(",")]})
    assert len(rows) == len(cs), (len(rows), len(cs))
    dst = os.path.join(REPO, "tests", "data", "cute-gmma_desc.jsonl")
    with open(dst, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} cases -> {dst}")


if __name__ == "__main__":
    main()
