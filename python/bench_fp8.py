"""cute_rs.scaled_mm against torch._scaled_mm (cuBLASLt FP8), same process, same tensors.

    python python/bench_fp8.py            # needs a Hopper GPU; one line per shape
    python python/bench_fp8.py --rowwise --shapes 4096x4096x4096,8192x8192x8192

e4m3 -> bf16, per-tensor scales, each shape in both accumulation modes (use_fast_accum False —
both libraries' default, promotion every k-block of 128 — and True), a (M, K) row-major and
b = w.t(); batches of ~10 ms alternated between the two, CUDA events, medians of 7 rounds.
`--rowwise`: row-wise scales (scale_a (M, 1), scale_b (1, N), 0.5 to 1.5) and a bf16 bias of N
values instead, promoted only (torchao's row-wise recipe; the host's fused epilogue), 9 rounds."""

import argparse

import torch

import cute_rs
from timing import medians

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 7168, 16384)]


def shape(text):
    m, n, k = (int(x) for x in text.lower().split("x"))
    return m, n, k


def inputs(m, n, k):
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    return a, w


def per_tensor(m, n, k, fast):
    a, w = inputs(m, n, k)
    one = torch.ones((), device="cuda")
    ours = lambda: cute_rs.scaled_mm(a, w.t(), 1.0, 1.0, use_fast_accum=fast)  # noqa: E731
    theirs = lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=fast)  # noqa: E731
    torch.testing.assert_close(ours().float(), theirs().float(), rtol=2**-6, atol=2 * (k / 4 * 2**-13) * k)
    t = medians({"ours": ours, "torch": theirs}, rounds=7, pace="ours")
    mode = "fast accum" if fast else "promoted"
    return f"scaled_mm e4m3 {m}x{n}x{k} {mode}", t


def rowwise(m, n, k):
    a, w = inputs(m, n, k)
    sa, sb = torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, n, device="cuda") + 0.5
    bias = torch.randn(n, device="cuda").bfloat16()
    ours = lambda: cute_rs.scaled_mm(a, w.t(), sa, sb, bias=bias)  # noqa: E731
    theirs = lambda: torch._scaled_mm(a, w.t(), scale_a=sa, scale_b=sb, bias=bias, out_dtype=torch.bfloat16)  # noqa: E731
    # the per-tensor check's bound times the largest product of scales (1.5²)
    torch.testing.assert_close(ours().float(), theirs().float(), rtol=2**-6, atol=2.25 * 2 * (k / 4 * 2**-13) * k)
    return f"row-wise + bias {m}x{n}x{k}", medians({"ours": ours, "torch": theirs})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rowwise", action="store_true", help="row-wise scales and a bias (promoted)")
    p.add_argument("--shapes", type=lambda s: [shape(x) for x in s.split(",")], default=SHAPES,
                   help="MxNxK,... (default 4096³, 8192³, 4096x7168x16384)")
    args = p.parse_args()
    print(f"device: {cute_rs.device()}; torch {torch.__version__}")
    cases = [(s, None) for s in args.shapes] if args.rowwise else [(s, f) for s in args.shapes for f in (False, True)]
    for (m, n, k), fast in cases:
        name, t = rowwise(m, n, k) if fast is None else per_tensor(m, n, k, fast)
        o, th = t["ours"], t["torch"]
        tf = 2 * m * n * k / 1e9
        print(f"{name}: cute_rs {tf / o:.0f} TFLOP/s, torch._scaled_mm {tf / th:.0f} TFLOP/s, ratio {th / o:.3f}", flush=True)


if __name__ == "__main__":
    main()
