#!/usr/bin/env python3
"""Ours (`cute_rs.attention`) and cuDNN's SDPA forward, one launch each per shape, for a
profiler that starts at `cudaProfilerStart` (issue #33: the kernels side by side):

    ncu --profile-from-start off --clock-control none --section SpeedOfLight ... -o REP \\
        python3 tools/attention/ncu_pair.py 128:8192 64:1024 128:512:c [--ours-only]

Each `D:SEQLEN[:c]` is a bench shape (`:c`: causal, top-left) (16k tokens, 2048 / D heads, bf16, random inputs
uniform in [-1, 1], SDPA's (b, h, s, d) tensors handed to ours as `.transpose(1, 2)` views, as
python/bench_attention.py does). Every kernel runs twice first (warm-up, the driver's JIT), then
the profiled range holds one launch of ours and one of cuDNN per shape, each followed by a
synchronize. `--ours-only` leaves cuDNN out (a second process under another
`CUTE_RS_ATTENTION` variant). Prints each shape's FLOP count (4·b·h·s²·d) for the per-FLOP
ratios.
"""
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import cute_rs

TOKENS, HIDDEN = 16384, 2048


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ours_only = "--ours-only" in sys.argv
    shapes = [
        (int(a.split(":")[0]), int(a.split(":")[1]), a.endswith(":c")) for a in args
    ] or [(128, 8192, False), (64, 1024, False)]
    calls = []
    for d, s, causal in shapes:
        b, h = TOKENS // s, HIDDEN // d
        g = torch.Generator(device="cuda").manual_seed(7)
        q, k, v = (
            torch.rand(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
            for _ in range(3)
        )
        out = torch.empty(b, s, h, d, device="cuda", dtype=torch.bfloat16)
        qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)

        def ours(qt=qt, kt=kt, vt=vt, out=out, mask="top_left" if causal else None):
            cute_rs.attention(qt, kt, vt, causal=mask, out=out)

        def cudnn(q=q, k=k, v=v, causal=causal):
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        fl = 4.0 * b * h * s * s * d / (2 if causal else 1)
        print(f"shape d{d} s{s} b{b} h{h} causal={causal}: {fl:.6e} FLOP", flush=True)
        calls.append(("ours", d, s, ours))
        if not ours_only:
            calls.append(("cudnn", d, s, cudnn))
    for _, _, _, f in calls:
        f()
        f()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for name, d, s, f in calls:
        f()
        torch.cuda.synchronize()
        print(f"profiled {name} d{d} s{s}", flush=True)
    torch.cuda.profiler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
