"""cute_rs.scaled_mm against torch._scaled_mm (cuBLASLt FP8), same process, same tensors.

    python python/bench_fp8.py            # needs a Hopper GPU; one line per shape

e4m3 -> bf16, per-tensor scales, each shape in both accumulation modes (use_fast_accum False —
both libraries' default, promotion every k-block of 128 — and True), a (M, K) row-major and
b = w.t(); batches of ~10 ms alternated between the two, CUDA events, medians of 7 rounds."""

import torch

import cute_rs
from timing import medians


def main():
    print(f"device: {cute_rs.device()}; torch {torch.__version__}")
    for (m, n, k), fast in [(s, f) for s in [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 7168, 16384)] for f in (False, True)]:
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda")
        ours = lambda: cute_rs.scaled_mm(a, w.t(), 1.0, 1.0, use_fast_accum=fast)  # noqa: E731
        theirs = lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=fast)  # noqa: E731
        torch.testing.assert_close(ours().float(), theirs().float(), rtol=2**-6, atol=2 * (k / 4 * 2**-13) * k)
        t = medians({"ours": ours, "torch": theirs}, rounds=7, pace="ours")
        o, th = t["ours"], t["torch"]
        tf = 2 * m * n * k / 1e9
        mode = "fast accum" if fast else "promoted"
        print(
            f"scaled_mm e4m3 {m}x{n}x{k} {mode}: cute_rs {tf / o:.0f} TFLOP/s, torch._scaled_mm {tf / th:.0f} "
            f"TFLOP/s, ratio {th / o:.3f}"
        )

if __name__ == "__main__":
    main()
