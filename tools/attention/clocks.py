#!/usr/bin/env python3
"""Sustained SM clock and power of ours against cuDNN (issue #33): each kernel ~2 s back to back
on random bf16 tensors (16k tokens, 2048 / d heads), ours, cuDNN, ours, cuDNN, then ours on zeros,
at d128 512 / 8192, d64 512, d256 2048, while nvidia-smi samples SM clock, power and temperature
every 50 ms. Prints each phase's TFLOP/s, then the median clock, power and temperature inside it.

    PYTHONPATH=<staged cute_rs> python3 tools/attention/clocks.py smi.csv

(`tools/gpu/attention/like-for-like.sh` stages the package and runs it.)"""
import subprocess, sys, time, statistics
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
import cute_rs

log = open(sys.argv[1], "w")
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "50"], stdout=log, stderr=subprocess.STDOUT)
time.sleep(1.0)
phases = []
def run_phase(name, fn, secs, flops):
    fn(); torch.cuda.synchronize()
    t0 = time.time(); n = 0
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    st.record()
    while time.time() - t0 < secs:
        for _ in range(10):
            fn()
        n += 10
        torch.cuda.current_stream().synchronize() if n % 200 == 0 else None
    en.record(); en.synchronize()
    t1 = time.time()
    ms = st.elapsed_time(en) / n
    phases.append((name, t0, t1, ms, flops / (ms * 1e9)))
    print(f"{name:28s} {ms*1000:9.1f} us/launch {flops/(ms*1e9):7.1f} TFLOP/s  n={n}", flush=True)

for d, s, causal in [(128, 512, False), (128, 8192, False), (64, 512, False), (256, 2048, False)]:
    b, h = 16384 // s, 2048 // d
    g = torch.Generator(device="cuda").manual_seed(7)
    q, k, v = (torch.rand(b, h, s, d, device="cuda", dtype=torch.bfloat16, generator=g) * 2 - 1 for _ in range(3))
    qz = torch.zeros_like(q)
    out = torch.empty(b, s, h, d, device="cuda", dtype=torch.bfloat16)
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    fl = 4.0 * b * h * s * s * d
    def ours(): cute_rs.attention(qt, kt, vt, out=out)
    def ours_zero(): cute_rs.attention(qz.transpose(1, 2), qz.transpose(1, 2), qz.transpose(1, 2), out=out)
    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            F.scaled_dot_product_attention(q, k, v)
    tag = f"d{d} s{s}"
    for name, fn in [("ours", ours), ("cudnn", cudnn), ("ours", ours), ("cudnn", cudnn), ("ours-zeros", ours_zero)]:
        run_phase(f"{tag} {name}", fn, 2.0, fl)
        time.sleep(0.3)
time.sleep(0.5)
smi.terminate(); smi.wait(); log.close()
# join: per phase, the samples inside its window (skipping its first 0.3 s)
import datetime
rows = []
for line in open(sys.argv[1]):
    p = [x.strip() for x in line.split(",")]
    try:
        ts = datetime.datetime.strptime(p[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        rows.append((ts, float(p[1]), float(p[2]), float(p[3])))
    except Exception:
        pass
print(f"{'phase':28s} {'TFLOP/s':>8} {'SM MHz':>7} {'W':>6} {'C':>4}")
for name, t0, t1, ms, tf in phases:
    xs = [r for r in rows if t0 + 0.3 <= r[0] <= t1]
    if not xs:
        print(f"{name:28s} {tf:8.1f}  (no samples)"); continue
    print(f"{name:28s} {tf:8.1f} {statistics.median(r[1] for r in xs):7.0f} {statistics.median(r[2] for r in xs):6.0f} "
          f"{statistics.median(r[3] for r in xs):4.0f}  (n={len(xs)})")
