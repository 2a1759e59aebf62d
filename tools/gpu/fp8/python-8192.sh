#!/usr/bin/env bash
# (session 63) python/bench_fp8.py ran cute_rs.scaled_mm promoted at 8192³ 0.903 of torch._scaled_mm (run s63b) where
# the host bench runs 1.00 and tools/gpu/profile/sustained_power.py (out=) level: the Python call at 8192³ with and
# without out=, on the default tile (128 × 192) and 128 × 128 forced (CUTE_RS_FP8_PROMOTED=n128tma6), and the host's
# `gemm --bench` beside it. Package $D: host.xz, native.xz.   BUDGET=200 D=.gpu/s63b NAME=s63c bash tools/gpu/fp8/python-8192.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s63c}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
cp python/timing.py /tmp/py/
cat > /tmp/py/p8192.py <<'PY'
import sys, torch, cute_rs
from timing import medians
m = n = k = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
one = torch.ones((), device="cuda")
out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
arms = {
    "ours new": lambda: cute_rs.scaled_mm(a, w.t(), 1.0, 1.0),
    "ours out=": lambda: cute_rs.scaled_mm(a, w.t(), 1.0, 1.0, out=out),
    "torch": lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
}
tf = 2 * m * n * k / 1e9
print(" | ".join(f"{x} {tf / v:.0f}" for x, v in medians(arms).items()), "TFLOP/s", flush=True)
PY
for i in 1 2; do
  for v in default n128tma6; do
    (cd /tmp/py && env $( [ $v = default ] || echo CUTE_RS_FP8_PROMOTED=$v ) PYTHONPATH=/tmp/py timeout 60 python3 p8192.py 8192 > $R/p.txt 2>&1)
    t "P $v-$i rc=$? $(tail -1 $R/p.txt)"
  done
  GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192"; g host-$i
done
t end
