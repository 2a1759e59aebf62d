#!/usr/bin/env python3
"""Cuts the hgemm PTX module down to the named entries, so the driver's JIT of its first load
fits a GPU call (the whole module: 50-85 s on the H200's CPU).

    python3 tools/gpu/cut_hgemm_ptx.py target/ptx/hgemm.ptx OUT_DIR hgemm_bf16_tn hgemm_bf16_tn_pingpong128 ...
    CUTE_RS_PTX_DIR=OUT_DIR host gemm ...

Writes OUT_DIR/hgemm.ptx with the header and the named entries (the module's entries are
self-contained: no `.func`); an entry that is not in the module is an error.
"""
import os
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, out_dir, want = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    lines = open(src).read().split("\n")
    if any(l.startswith(".func") or l.startswith(".visible .func") for l in lines):
        sys.exit(f"{src}: has .func definitions; cutting by entry would break it")
    out, cur, keep, kept = [], None, True, []
    for line in lines:
        if line.startswith(".visible .entry "):
            cur = line[len(".visible .entry "):].split("(")[0]
            keep = cur in want
            if keep:
                kept.append(cur)
        if cur is None or keep:
            out.append(line)
    if want - set(kept):
        sys.exit(f"{src}: no entries {sorted(want - set(kept))}")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "hgemm.ptx"), "w") as f:
        f.write("\n".join(out))
    print(f"{out_dir}/hgemm.ptx: {len(kept)} entries: {' '.join(kept)}")


if __name__ == "__main__":
    main()
