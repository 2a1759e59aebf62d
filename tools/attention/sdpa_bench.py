#!/usr/bin/env python3
"""torch's scaled_dot_product_attention on the shapes of `host bench attention` (issue #33).

Head dims 64/128/256 x seqlen 512..16k at 16k tokens (batch = 16384 / seqlen), 2048 / head_dim
heads, bf16, causal (top-left, torch's is_causal) and not; each through the cuDNN and the
FlashAttention (FA2) backends, interleaved batch by batch (cuDNN, FA2, cuDNN, ...) so that both
see the same clocks. TFLOP/s = 4*b*h*s*s*d / time, halved for causal (the issue's convention).

    python3 tools/attention/sdpa_bench.py --json > sdpa.json      # or the default table
    python3 tools/attention/compare.py host.json sdpa.json        # ratios against ours

A backend that refuses a shape (e.g. no kernel for it) gets "error" instead of a time.
"""
import argparse
import json
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

TOKENS = 16384
HIDDEN = 2048
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "fa2": SDPBackend.FLASH_ATTENTION}


def flops(b, h, s, d, causal):
    f = 4.0 * b * h * s * s * d
    return f / 2 if causal else f


def time_batch(fn, n):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(n):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / n


def bench_shape(d, s, causal, backends, rounds, layout="bhsd"):
    b, h = TOKENS // s, HIDDEN // d
    g = torch.Generator(device="cuda").manual_seed(7)
    if layout == "bshd":
        # (b, s, h, d) in memory, viewed as SDPA's (b, h, s, d): the layout `host bench
        # attention` gives our kernel (FlashAttention's)
        q, k, v = ((torch.rand(b, s, h, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1)
                   .transpose(1, 2) for _ in range(3))
    else:
        q, k, v = (torch.rand(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1
                   for _ in range(3))
    calls, reps, times, errors = {}, {}, {}, {}
    for name in backends:
        def call(name=name):
            with sdpa_kernel(BACKENDS[name]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        try:
            call()
            call()
            t = time_batch(call, 1)
            calls[name], reps[name], times[name] = call, max(1, min(50, int(20.0 / max(t, 1e-3)) + 1)), []
        except Exception as e:  # noqa: BLE001 - a backend without a kernel for the shape
            errors[name] = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
    for _ in range(rounds):
        for name, call in calls.items():
            times[name].append(time_batch(call, reps[name]))
    rows = []
    for name in backends:
        row = {"backend": name, "dtype": "bf16", "head_dim": d, "seqlen": s, "batch": b,
               "heads": h, "causal": causal, "layout": layout}
        if name in errors:
            row["error"] = errors[name]
        else:
            ms = statistics.median(times[name])
            row["ms"] = ms
            row["tflops"] = flops(b, h, s, d, causal) / (ms * 1e9)
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--head-dims", default="64,128,256")
    ap.add_argument("--seqlens", default="512,1024,2048,4096,8192,16384")
    ap.add_argument("--backends", default="cudnn,fa2")
    ap.add_argument("--rounds", type=int, default=5, help="timed batches of each backend")
    ap.add_argument("--json", action="store_true", help="rows as a JSON array")
    ap.add_argument("--layout", choices=("bhsd", "bshd"), default="bhsd",
                    help="Q, K, V in memory: torch's contiguous (b, h, s, d), or (b, s, h, d) "
                         "viewed through a transpose (our bench's layout)")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("sdpa_bench: no CUDA device", file=sys.stderr)
        return 2
    backends = [x for x in a.backends.split(",") if x]
    for x in backends:
        if x not in BACKENDS:
            print(f"sdpa_bench: unknown backend {x} ({', '.join(BACKENDS)})", file=sys.stderr)
            return 2
    rows = []
    for d in [int(x) for x in a.head_dims.split(",")]:
        for s in [int(x) for x in a.seqlens.split(",")]:
            for causal in (False, True):
                for r in bench_shape(d, s, causal, backends, a.rounds, a.layout):
                    rows.append(r)
                    print(f"sdpa {r['backend']:5} d{d} s{s} {'causal' if causal else '      '} "
                          + (f"{r['tflops']:7.1f} TFLOP/s" if "tflops" in r else r["error"]),
                          file=sys.stderr)
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} "
          f"cuDNN {torch.backends.cudnn.version()}", file=sys.stderr)
    if a.json:
        print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                          "cudnn": torch.backends.cudnn.version(), "rows": rows}, indent=1))
    else:
        for r in rows:
            print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
