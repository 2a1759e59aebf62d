"""(session 51, prepared; issue #34) The SM clock and board power of a sustained GEMM, ours against cuBLAS.

In `host gemm --bench`'s sustained mode ours runs 1.00-1.01 of cuBLAS at 4096³ and 1.02-1.03 in burst (runs s51a,
s51f): from burst to sustained ours loses 10-11 %, cuBLAS 9-10 %. Both run power-bound (ncu: 1.60-1.64 GHz of 1.98).
This launches each GEMM back to back for SECONDS (torch.mm = cuBLAS; cute_rs.gemm = ours, into a preallocated out),
twice, alternated, while nvidia-smi samples the SM clock and the board power every 20 ms, and prints per window:
TFLOP/s, the median SM clock, the mean power, and TFLOP/s per kW. More power at the same clock, or a lower clock at
the same power, says the sustained gap is energy per tile, not schedule.

    PYTHONPATH=<dir with cute_rs/> python3 sustained_power.py [SIZES] [SECONDS] [KIND]   (default 4096,8192, 4, bf16)

KIND bf16 (cute_rs.gemm against torch.mm), or (session 63, issue #37) fp8: e4m3 -> bf16 per-tensor, promoted,
cute_rs.scaled_mm against torch._scaled_mm (cuBLASLt), both with use_fast_accum=False; fp8fast: both with True.
"""

import statistics
import subprocess
import sys
import time

import torch

import cute_rs


def smi_start(path):
    return subprocess.Popen(
        ["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw", "--format=csv,noheader,nounits", "-lms", "20"],
        stdout=open(path, "w"),
        stderr=subprocess.DEVNULL,
    )


def smi_rows(path):
    rows = []
    for line in open(path):
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3:
            continue
        try:
            ts = time.mktime(time.strptime(parts[0].split(".")[0], "%Y/%m/%d %H:%M:%S")) + float(
                "0." + parts[0].split(".")[1]
            )
            rows.append((ts, float(parts[1]), float(parts[2])))
        except (ValueError, IndexError):
            continue
    return rows


def window(f, seconds, chunk=20):
    f()
    torch.cuda.synchronize()
    t0 = time.time()
    n = 0
    while time.time() - t0 < seconds:
        for _ in range(chunk):
            f()
        n += chunk
        torch.cuda.synchronize()
    return t0, time.time(), n


def main():
    sizes = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "4096,8192").split(",")]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
    kind = sys.argv[3] if len(sys.argv) > 3 else "bf16"
    print(f"device: {cute_rs.device()}; torch {torch.__version__}; {seconds} s a window; {kind}", flush=True)
    log = "/tmp/sustained_power_smi.csv"
    smi = smi_start(log)
    time.sleep(0.5)
    windows = []
    try:
        for size in sizes:
            out = torch.empty(size, size, device="cuda", dtype=torch.bfloat16)
            if kind == "bf16":
                a = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
                b = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
                arms = {
                    "ours": lambda: cute_rs.gemm(a, b, out=out),
                    "cublas": lambda: torch.mm(a, b, out=out),
                }
            else:
                fast = kind == "fp8fast"
                a = torch.randn(size, size, device="cuda").to(torch.float8_e4m3fn)
                w = torch.randn(size, size, device="cuda").to(torch.float8_e4m3fn)
                one = torch.ones((), device="cuda")
                arms = {
                    "ours": lambda: cute_rs.scaled_mm(a, w.t(), 1.0, 1.0, out=out, use_fast_accum=fast),
                    "cublas": lambda: torch._scaled_mm(
                        a, w.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=fast
                    ),
                }
            for rnd in (1, 2):
                for name, f in arms.items():
                    t0, t1, n = window(f, seconds)
                    windows.append((size, name, rnd, t0, t1, n))
                    time.sleep(1.0)  # rest between windows, as the harness's burst mode does
    finally:
        time.sleep(0.3)
        smi.terminate()
        smi.wait()
    rows = smi_rows(log)
    print(f"{len(rows)} nvidia-smi samples")
    for size, name, rnd, t0, t1, n in windows:
        # the window's samples after its first second (the clock settles)
        s = [r for r in rows if t0 + 1.0 <= r[0] <= t1]
        tf = 2 * size**3 * n / (t1 - t0) / 1e12
        if not s:
            print(f"{size}^3 {name:<6} round {rnd}: {tf:7.1f} TFLOP/s, no samples")
            continue
        clk = statistics.median(r[1] for r in s)
        pw = statistics.mean(r[2] for r in s)
        print(
            f"{size}^3 {name:<6} round {rnd}: {tf:7.1f} TFLOP/s  SM {clk:6.0f} MHz  {pw:6.1f} W  "
            f"{tf / pw * 1000:7.1f} TFLOP/s per kW  ({len(s)} samples, {n} GEMMs)",
            flush=True,
        )


if __name__ == "__main__":
    main()
