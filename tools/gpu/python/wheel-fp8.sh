#!/usr/bin/env bash
# interop (#36, third round) on the H200 (no Rust there): install the cute_rs wheel carried here,
# run all of python/tests (pytest, against torch; FP8 included), then python/bench_fp8.py
# (cute_rs.scaled_mm beside torch._scaled_mm) and python/bench.py (the GEMM's per-call overhead).
# Logs under $OUT. Usage: bash .gpu/interop/go.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/interop-out}"; mkdir -p "$OUT"
T0=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  # what torch hands a DLPack consumer for float8 (dtype code, bits)
  python3 - <<'PY'
import ctypes, torch
for dt in (torch.float8_e4m3fn, torch.float8_e5m2):
    t = torch.zeros(4, 4, device="cuda", dtype=dt)
    try:
        cap = t.__dlpack__()
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        p = get(cap, b"dltensor")
        # DLTensor: data (8), device (8), ndim (4), dtype (code u8, bits u8, lanes u16)
        code, bits = ctypes.c_uint8.from_address(p + 20).value, ctypes.c_uint8.from_address(p + 21).value
        print(f"torch {dt} -> DLPack code {code}, bits {bits}")
    except Exception as e:
        print(f"torch {dt} -> DLPack export refused: {type(e).__name__}: {e}")
PY
} 2>&1 | tee "$OUT/env.txt"
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" "$HERE"/wheel/*.whl 2>&1 | tail -3 | tee "$OUT/install.txt"
export PYTHONPATH="$SITE"
python3 -c 'import cute_rs; print(cute_rs.__file__, cute_rs.device())' 2>&1 | tee -a "$OUT/install.txt"
cd "$HERE/python/tests"
timeout 140 python3 -m pytest -q -rs -p no:cacheprovider --durations=8 . 2>&1 | tail -60 | tee "$OUT/pytest.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/pytest.txt"
timeout 22 python3 "$HERE/python/bench_fp8.py" 2>&1 | tee "$OUT/bench_fp8.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/bench_fp8.txt"
timeout 18 python3 "$HERE/python/bench.py" 2>&1 | tee "$OUT/bench.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/bench.txt"
