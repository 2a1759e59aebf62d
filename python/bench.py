"""cute_rs.gemm from torch against the same GEMM launched from Rust, same process, same stream.

    python python/bench.py            # needs a GPU; prints one line per figure

4096³ bf16: time per GEMM (ms) and the ratio torch-call / Rust-call (target ≤ 1.02);
64³ bf16, 10,000 calls: per-call wall time of each and the difference (target ≤ 10 µs);
torch.mm (cuBLAS) at the same sizes for reference."""

import time

import torch

import cute_rs


def per_call_python(f, iters):
    f()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        f()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters


def main():
    print(f"device: {cute_rs.device()}; torch {torch.__version__}")
    stream = torch.cuda.current_stream().cuda_stream or None
    for (size, iters, reps) in [(4096, 50, 3), (64, 10_000, 3)]:
        a = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(size, size, device="cuda", dtype=torch.bfloat16)
        rows = {"python_new": [], "python_out": [], "rust": [], "torch_mm": []}
        for _ in range(reps):  # interleaved, best of reps
            rows["rust"].append(  # the same launch on the same tensors, looped in Rust
                cute_rs._native._rust_gemm_seconds(
                    cute_rs._torch_desc(a), cute_rs._torch_desc(b), cute_rs._torch_desc(out), iters, stream
                )
                / iters
            )
            rows["python_new"].append(per_call_python(lambda: cute_rs.gemm(a, b), iters))
            rows["python_out"].append(per_call_python(lambda: cute_rs.gemm(a, b, out=out), iters))
            rows["torch_mm"].append(per_call_python(lambda: torch.mm(a, b, out=out), iters))
        best = {k: min(v) for k, v in rows.items()}
        flops = 2 * size**3
        for k, v in best.items():
            print(f"{size}^3 bf16 {k:<10} {v * 1e6:10.2f} us/call  {flops / v / 1e12:8.1f} TFLOP/s")
        print(
            f"{size}^3 bf16 ratio python_new/rust {best['python_new'] / best['rust']:.4f}, "
            f"python_out/rust {best['python_out'] / best['rust']:.4f}; "
            f"overhead new {(best['python_new'] - best['rust']) * 1e6:.2f} us, "
            f"out {(best['python_out'] - best['rust']) * 1e6:.2f} us; "
            f"ours/cuBLAS {best['torch_mm'] / best['python_out']:.3f}"
        )


if __name__ == "__main__":
    main()
