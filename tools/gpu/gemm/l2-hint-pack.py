#!/usr/bin/env python3
"""(session 77; issues #34, #37) PTX variants of this tree's `hgemm` and `hgemm_fp8` modules with L2 cache hints on
their TMA copies (CuTe's `CacheHintSm90`: `.L2::cache_hint` with a policy; none in the default build), written beside
a device package for `tools/gpu/gemm/l2-hint-ab.sh`:
  ef   D's TMA stores EVICT_FIRST (the output is not read again by the kernel: it should not push A and B out of L2)
  efl  as ef, and every operand and C load EVICT_LAST
Each variant's text goes to D/V/MODULE.ptx.xz and its cubin (ptxas -arch=sm_90a, named by the text's key as
`cute_builder::cubin_file_name`) to D/cubin/.
  python3 tools/gpu/gemm/l2-hint-pack.py .gpu/A [target/ptx]
"""
import lzma
import os
import re
import subprocess
import sys

EVICT_FIRST, EVICT_LAST = "0x12F0000000000000", "0x14F0000000000000"
STORE = re.compile(r"(cp\.async\.bulk\.tensor\.\dd\.global\.shared::cta\.bulk_group) (\[[^;]*\]);")
LOAD = re.compile(r"(cp\.async\.bulk\.tensor\.\dd\.shared::cluster\.global\.mbarrier::complete_tx::bytes(?:\.multicast::cluster)?) ([^;]*);")


def key(text):
    h = 0xCBF29CE484222325
    for b in text:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def variant(text, v):
    n_st = n_ld = 0
    text, n_st = STORE.subn(lambda m: f"{m[1]}.L2::cache_hint {m[2]}, {EVICT_FIRST};", text)
    if v == "efl":
        text, n_ld = LOAD.subn(lambda m: f"{m[1]}.L2::cache_hint {m[2]}, {EVICT_LAST};", text)
    return text, n_st, n_ld


def main():
    dest = sys.argv[1]
    src = sys.argv[2] if len(sys.argv) > 2 else "target/ptx"
    ptxas = os.environ.get("PTXAS", "ptxas")
    os.makedirs(f"{dest}/cubin", exist_ok=True)
    for m in ("hgemm", "hgemm_fp8"):
        base = open(f"{src}/{m}.ptx").read()
        for v in ("ef", "efl"):
            text, n_st, n_ld = variant(base, v)
            assert n_st > 0, f"{m}: no TMA store found"
            os.makedirs(f"{dest}/{v}", exist_ok=True)
            b = text.encode()
            with open(f"{dest}/{v}/{m}.ptx.xz", "wb") as f:
                f.write(lzma.compress(b))
            ptx = f"/tmp/l2hint-{v}-{m}.ptx"
            open(ptx, "wb").write(b)
            cubin = f"/tmp/{m}-{key(b)}.sm_90a.cubin"
            subprocess.run([ptxas, "-arch=sm_90a", "-o", cubin, ptx], check=True)
            with open(f"{dest}/cubin/{os.path.basename(cubin)}.xz", "wb") as f:
                f.write(lzma.compress(open(cubin, "rb").read()))
            print(f"{v} {m}: {n_st} stores, {n_ld} loads hinted; {os.path.basename(cubin)}")


if __name__ == "__main__":
    main()
