#!/usr/bin/env python3
"""Cuts a built PTX module down to the named entries, so the driver's JIT of its first load fits
a device call (the hgemm module's 20+ entries take 50-85 s on the H200's CPU).

    python3 tools/gpu/cut_ptx.py target/ptx/hgemm.ptx OUT_DIR/hgemm.ptx gemm_fp8_e4m3_tn gemm_fp8_e4m3_tn_promoted
    CUTE_RS_PTX_DIR=OUT_DIR host gemm --dtype e4m3 --m 4096 --bench

The module's entries are self-contained (no `.func`), so a cut module is valid PTX.

An argument `ENTRY=ALIAS` keeps ENTRY renamed ALIAS (its parameters keep their names), so that a host that
launches ALIAS runs ENTRY's code: a variant measured by a host built before it existed.

    python3 tools/gpu/cut_ptx.py hgemm.ptx v/hgemm.ptx gemm_fp8_e4m3_tn_promoted_steady=gemm_fp8_e4m3_tn_promoted
"""
import re
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    alias = dict(a.split("=", 1) if "=" in a else (a, a) for a in sys.argv[3:])
    want = set(alias)
    text = open(src).read()
    lines = text.split("\n")
    if any(l.startswith(".func") or l.startswith(".visible .func") for l in lines):
        sys.exit(f"{src}: has .func definitions; cutting by entry would break it")
    if any("__launch_bounds__" in l for l in lines):
        # rustc's own .s, before the builder's `apply_launch_bounds`: no `.maxntid` / `.minnctapersm`,
        # so ptxas gives a 384-thread entry 255 registers and it spills (session 47 read such spills as real)
        sys.exit(f"{src}: launch-bounds markers not applied (a raw rustc .s?); cut the builder's "
                 "target/ptx/<family>.ptx (`cargo xtask build-kernels`) instead")
    # a tensor map passed by value must be 64-byte aligned: the builder's `apply_grid_constants` turns the
    # `.align 16` rustc writes into `.align 64` for each parameter `device::grid_constant!` marks (run s47b cut a
    # module without it: TMA faulted at the first launch, read as the kernel's fault)
    marked = set(re.findall(r"// cute-rs grid_constant (\S+)", text))
    aligned = {p: a for a, p in re.findall(r"\.param \.align (\d+) \.b8 (\S+)\[128\]", text)}
    unaligned = [m for m in marked if aligned.get(m, "64") != "64"]
    if unaligned:
        sys.exit(f"{src}: tensor-map parameters not 64-byte aligned ({', '.join(sorted(unaligned)[:3])}...): the "
                 "builder's grid-constant pass not applied; cut the builder's target/ptx/<family>.ptx instead")
    out, cur, kept, keep = [], None, [], True
    for line in lines:
        if line.startswith(".visible .entry "):
            cur = line[len(".visible .entry "):].split("(")[0]
            keep = cur in want
            if keep:
                kept.append(cur)
        if cur is None or keep:
            if cur is not None and alias[cur] != cur:
                line = re.sub(r"\b" + re.escape(cur) + r"(?![A-Za-z0-9_$])", alias[cur], line)
            out.append(line)
    if want - set(kept):
        sys.exit(f"{src}: no entries {sorted(want - set(kept))}")
    open(dst, "w").write("\n".join(out))
    print(f"{len(kept)} entries: {' '.join(k if alias[k] == k else f'{k} as {alias[k]}' for k in kept)}")


if __name__ == "__main__":
    main()
