#!/usr/bin/env bash
# (session 63, prepared) `cute_rs.scaled_mm`'s row-wise scales and bias (475d7fa), written without a GPU: python/tests'
# FP8 files on the GPU (test_rowwise_scales_and_bias, test_rowwise_matches_torch_scaled_mm and the rest), then row-wise
# against torch._scaled_mm's row-wise kernel in 10 ms batches at 4096³ and 8192³ (bf16 out, a bias).
# Package $D: host.xz (unused but by lib.sh), native.xz (this tree's `cargo build --release -p cute-rs-python`).
#   BUDGET=200 D=.gpu/s64a NAME=s64b bash tools/gpu/python/fp8-rowwise.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s64b}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd python/tests && PYTHONPATH=/tmp/py timeout 240 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py > $R/pytest.txt 2>&1)
t "pytest rc=$?"; grep -E "passed|failed|Error|assert" $R/pytest.txt | tail -12 | tee -a $S
cp python/timing.py /tmp/py/
cat > /tmp/py/rowwise.py <<'PY'
import torch, cute_rs
from timing import medians
for m in (4096, 8192):
    a = torch.randn(m, m, device="cuda").to(torch.float8_e4m3fn)
    w = torch.randn(m, m, device="cuda").to(torch.float8_e4m3fn)
    sa, sb = torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, m, device="cuda") + 0.5
    bias = torch.randn(m, device="cuda").bfloat16()
    t = medians({"ours": lambda: cute_rs.scaled_mm(a, w.t(), sa, sb, bias=bias),
                 "torch": lambda: torch._scaled_mm(a, w.t(), scale_a=sa, scale_b=sb, bias=bias, out_dtype=torch.bfloat16)})
    tf = 2 * m**3 / 1e9
    print(f"row-wise + bias {m}^3: cute_rs {tf / t['ours']:.0f} TFLOP/s, torch._scaled_mm {tf / t['torch']:.0f}, "
          f"ratio {t['torch'] / t['ours']:.3f}", flush=True)
PY
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 80 python3 rowwise.py > $R/rowwise.txt 2>&1); t "rowwise.py rc=$?"; tail -4 $R/rowwise.txt | tee -a $S
t end
