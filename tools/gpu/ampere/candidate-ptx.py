#!/usr/bin/env python3
"""Prepares an hgemm_sm80 module for `tools/gpu/ampere/candidate.sh` (issue #35): takes the
raw PTX cargo wrote for the family (`target/kernels/sm_80/nvptx64-nvidia-cuda/release/deps/
kernels_hgemm_sm80-*.s`), applies the `device::launch_bounds!` markers as the builder does
(`cute_builder::apply_launch_bounds`: `.maxntid T, 1, 1` / `.minnctapersm B` after the entry's
parameters, the marker globals removed), keeps only the named entries (the driver JIT-compiles
what it is given: one entry is ~1/8 of the module) and writes DIR/hgemm_sm80.ptx and
DIR/sm_80/hgemm_sm80.ptx (the names `CUTE_RS_PTX_DIR` reads for a host whose primary build is
sm_80 or sm_90a).

    python3 tools/gpu/ampere/candidate-ptx.py RAW.s DIR hgemm_sm80_f16_tn
"""
import os
import re
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, out_dir, keep = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    lines = open(src).read().split("\n")
    marker = re.compile(r"\.visible \.global \.align 4 \.b8 __launch_bounds__(\w+)\[8\] = \{([^}]*)\};")
    bounds, kept = {}, []
    for line in lines:
        t = line.strip()
        if t.startswith("// .globl") and "__launch_bounds__" in t:
            continue
        m = marker.match(t)
        if m:
            b = [int(x) for x in m.group(2).split(",") if x.strip()] + [0] * 8
            bounds[m.group(1)] = (int.from_bytes(bytes(b[0:4]), "little"), int.from_bytes(bytes(b[4:8]), "little"))
            continue
        kept.append(line)
    if any(l.startswith(".func") or l.startswith(".visible .func") for l in kept):
        sys.exit(f"{src}: has .func definitions; cutting by entry would break it")
    out, cur, keep_cur, pending, found = [], None, True, None, set()
    for line in kept:
        if line.startswith(".visible .entry "):
            cur = line[len(".visible .entry "):].split("(")[0]
            keep_cur = cur in keep
            if keep_cur:
                found.add(cur)
                pending = bounds.get(cur)
        if cur is None or keep_cur:
            out.append(line)
            if line.startswith(")") and pending:
                out.append(f".maxntid {pending[0]}, 1, 1")
                if pending[1]:
                    out.append(f".minnctapersm {pending[1]}")
                pending = None
    if keep - found:
        sys.exit(f"{src}: no entries {sorted(keep - found)}")
    text = "\n".join(out)
    for d in (out_dir, os.path.join(out_dir, "sm_80")):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "hgemm_sm80.ptx"), "w") as f:
            f.write(text)
    print(f"{out_dir}: {sorted(found)}, {len(text)} bytes")


if __name__ == "__main__":
    main()
