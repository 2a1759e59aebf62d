#!/usr/bin/env python3
"""Cuts a built attention module down to the entries a GPU call benches, so the driver's JIT
of the first load fits a command's timeout (the `measure` build's 35+ entries do not).

    python3 tools/attention/cut_ptx.py target/ptx/attention.ptx OUT_DIR tws twslazy
    CUTE_RS_PTX_DIR=OUT_DIR CUTE_RS_ATTENTION=tws host bench attention

Keeps the default entries (`attention_fwd_{bf16,f16}_d{64,128,256}`, `..._d64_m192`, `..._d64_qr`,
`..._d128_n176`) and every entry of
the named variants (`attention_fwd_<variant>_<elem>_d<dim>`); writes OUT_DIR/attention.ptx.
The module's entries are self-contained (no `.func`), so a cut module is valid PTX.
"""
import os
import re
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out_dir, variants = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    lines = open(src).read().split("\n")
    if any(l.startswith(".func") or l.startswith(".visible .func") for l in lines):
        sys.exit(f"{src}: has .func definitions; cutting by entry would break it")
    default = re.compile(r"attention_fwd_(bf16|f16)_d\d+(_m\d+)?(_n\d+)?(_qr)?$")
    variant = re.compile(r"attention_fwd_(\w+?)_(bf16|f16)_d\d+$")
    out, cur, kept = [], None, []
    for line in lines:
        if line.startswith(".visible .entry "):
            cur = line[len(".visible .entry "):].split("(")[0]
            m = variant.match(cur)
            keep = bool(default.match(cur)) or bool(m and m.group(1) in variants)
            if keep:
                kept.append(cur)
        if cur is None or keep:
            out.append(line)
    found = {variant.match(e).group(1) for e in kept if variant.match(e)}
    if variants - found:
        sys.exit(f"{src}: no entries for {sorted(variants - found)}")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "attention.ptx"), "w") as f:
        f.write("\n".join(out))
    print(f"{len(kept)} entries: {' '.join(kept)}")


if __name__ == "__main__":
    main()
