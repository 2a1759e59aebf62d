#!/usr/bin/env python3
"""Cuts a built PTX module down to the named entries, so the driver's JIT of its first load fits
a device call (the hgemm module's 20+ entries take 50-85 s on the H200's CPU).

    python3 tools/gpu/cut_ptx.py target/ptx/hgemm.ptx OUT_DIR/hgemm.ptx gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted
    CUTE_RS_PTX_DIR=OUT_DIR host gemm --dtype e4m3 --m 4096 --bench

The module's entries are self-contained (no `.func`), so a cut module is valid PTX.
"""
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, dst, want = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    lines = open(src).read().split("\n")
    if any(l.startswith(".func") or l.startswith(".visible .func") for l in lines):
        sys.exit(f"{src}: has .func definitions; cutting by entry would break it")
    out, cur, kept, keep = [], None, [], True
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
    open(dst, "w").write("\n".join(out))
    print(f"{len(kept)} entries: {' '.join(kept)}")


if __name__ == "__main__":
    main()
