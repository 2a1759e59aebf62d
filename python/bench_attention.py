"""cute_rs.attention against torch's SDPA (cuDNN, FlashAttention-2) in one harness.

    python python/bench_attention.py [--head-dims 64,128,256] [--seqlens 512,2048,4096,16384]
                                     [--rounds 7] [--backends ours,cudnn,fa2] [--masks none,causal]
                                     [--json rows.json]

doc/attention.md's shapes: 16k tokens per batch (batch = 16384 / seqlen), 2048 / head_dim
heads, bf16, causal (top-left, torch's is_causal) and not. For each shape the three run on the
same random tensors (uniform in [-1, 1]), made in SDPA's layout (batch, heads, seqlen, d) and
handed to cute_rs as `.transpose(1, 2)` views (no copy); ours writes a preallocated `out=`
and, as SDPA's inference forward, no LSE (`lse=False`); SDPA's output comes from torch's
caching allocator.
Timing: CUDA events around batches of ~10 ms of calls, the backends alternated batch by batch
(the order rotated every round) so that they share clocks, after a warm-up; the median batch
of each. TFLOP/s = 4·b·h·s²·d / time, halved for causal. Prints one row per shape with the
ratios ours/cuDNN and ours/FA2 (`host bench attention` times ours beside a cuBLAS GEMM instead;
this is the like-for-like ratio)."""

import argparse
import json
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import cute_rs

TOKENS, HIDDEN = 16384, 2048


def time_batch(fn, n):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(n):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / n


def bench_shape(d, s, causal, rounds, backends=("ours", "cudnn", "fa2")):
    b, h = TOKENS // s, HIDDEN // d
    g = torch.Generator(device="cuda").manual_seed(7)
    q, k, v = (
        torch.rand(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1 for _ in range(3)
    )
    out_ours = torch.empty(b, s, h, d, device="cuda", dtype=torch.bfloat16)
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    mask = "top_left" if causal else None

    def ours():
        cute_rs.attention(qt, kt, vt, causal=mask, out=out_ours)

    def sdpa(backend):
        def call():
            with sdpa_kernel(backend):
                # SDPA has no out=: the caching allocator hands back the same block each call
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return call

    calls = {"ours": ours, "cudnn": sdpa(SDPBackend.CUDNN_ATTENTION), "fa2": sdpa(SDPBackend.FLASH_ATTENTION)}
    calls = {n: c for n, c in calls.items() if n in backends}
    reps, times, errors = {}, {}, {}
    for name, call in list(calls.items()):
        try:
            call()
            call()
            t = time_batch(call, 1)
            reps[name], times[name] = max(1, min(100, int(10.0 / max(t, 1e-3)) + 1)), []
        except Exception as e:  # noqa: BLE001 - a backend without a kernel for the shape
            errors[name] = (str(e).splitlines() or [type(e).__name__])[0][:100]
            del calls[name]
    names = list(calls)
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            times[name].append(time_batch(calls[name], reps[name]))
    fl = 4.0 * b * h * s * s * d / (2 if causal else 1)
    row = {"head_dim": d, "seqlen": s, "batch": b, "heads": h, "causal": causal}
    for name in ("ours", "cudnn", "fa2"):
        if name in times:
            ms = statistics.median(times[name])
            row[name] = {"ms": ms, "tflops": fl / (ms * 1e9)}
        else:
            row[name] = {"error": errors.get(name, "not run" if name in backends else "not asked for")}
    return row


def fmt(row, name):
    x = row[name]
    return f"{x['tflops']:7.1f}" if "tflops" in x else f"{'error':>7}"


def ratio(row, a, b):
    if "tflops" in row[a] and "tflops" in row[b]:
        return f"{row[a]['tflops'] / row[b]['tflops']:6.3f}"
    return f"{'-':>6}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--head-dims", default="64,128,256")
    ap.add_argument("--seqlens", default="512,2048,4096,16384")
    ap.add_argument("--rounds", type=int, default=7, help="timed batches of each backend")
    ap.add_argument("--backends", default="ours,cudnn,fa2", help="which of ours, cudnn, fa2 to time")
    ap.add_argument("--masks", default="none,causal", help="which of none (non-causal), causal to time")
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("bench_attention: no CUDA device", file=sys.stderr)
        return 2
    print(f"# {cute_rs.device()}; torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    print("# TFLOP/s, bf16, median of the batches; ratio = ours / theirs")
    print(f"{'d':>4} {'seqlen':>6} {'causal':>6} {'ours':>7} {'cuDNN':>7} {'FA2':>7} {'/cuDNN':>6} {'/FA2':>6}")
    rows = []
    for d in [int(x) for x in a.head_dims.split(",")]:
        for s in [int(x) for x in a.seqlens.split(",")]:
            for causal in [m == "causal" for m in a.masks.split(",")]:
                row = bench_shape(d, s, causal, a.rounds, a.backends.split(","))
                rows.append(row)
                print(
                    f"{d:>4} {s:>6} {'yes' if causal else 'no':>6} {fmt(row, 'ours')} {fmt(row, 'cudnn')} "
                    f"{fmt(row, 'fa2')} {ratio(row, 'ours', 'cudnn')} {ratio(row, 'ours', 'fa2')}",
                    flush=True,
                )
                for name in a.backends.split(","):
                    if "error" in row[name]:
                        print(f"#   {name}: {row[name]['error']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": cute_rs.device(), "torch": torch.__version__, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
