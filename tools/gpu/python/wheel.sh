#!/usr/bin/env bash
# interop (#36) checks on the H200 (no Rust there): install the cute_rs wheel carried here, run
# python/tests (pytest, against torch), the same-harness attention bench, and the candle
# example if carried. Logs under $OUT. Usage: bash .gpu/interop/go.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/interop-out}"; mkdir -p "$OUT"
T0=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.backends.cudnn.version())'
} 2>&1 | tee "$OUT/env.txt"
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" "$HERE"/wheel/*.whl 2>&1 | tail -3 | tee "$OUT/install.txt"
export PYTHONPATH="$SITE"
python3 -c 'import cute_rs; print(cute_rs.__file__, cute_rs.device())' 2>&1 | tee -a "$OUT/install.txt"
cd "$HERE/python/tests"
timeout 100 python3 -m pytest -q -rs -p no:cacheprovider --durations=5 test_attention_api.py test_attention_gpu.py test_readme.py 2>&1 | tail -40 | tee "$OUT/pytest-attention.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/pytest-attention.txt"
timeout 55 python3 "$HERE/python/bench_attention.py" --json "$OUT/bench_attention.json" 2>&1 | tee "$OUT/bench_attention.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/bench_attention.txt"
timeout 40 python3 -m pytest -q -rs -p no:cacheprovider test_api.py test_gpu.py 2>&1 | tail -15 | tee "$OUT/pytest-gemm.txt"
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/pytest-gemm.txt"
if [ -x "$HERE/candle-op" ]; then
  # libcublas/libcublasLt/libcurand/libnvrtc/libcudart (CUDA 13) from torch's wheels or the toolkit
  LIBS=$(python3 - <<'PY'
import glob, os, site
dirs = set()
for sp in site.getsitepackages() + [site.getusersitepackages()]:
    for pat in ("nvidia/*/lib", "nvidia/cu13/lib", "nvidia/*/lib64"):
        dirs.update(glob.glob(os.path.join(sp, pat)))
print(":".join(sorted(dirs)))
PY
)
  export LD_LIBRARY_PATH="$LIBS:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
  ldd "$HERE/candle-op" | grep -E "cuda|cublas|curand|nvrtc|not found" | tee "$OUT/candle-ldd.txt"
  timeout 40 "$HERE/candle-op" 2>&1 | tail -20 | tee "$OUT/candle.txt"
else
  echo "SKIP candle-op: not carried" | tee "$OUT/candle.txt"
fi
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/candle.txt"
