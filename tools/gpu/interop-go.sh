#!/usr/bin/env bash
# The interop checks on a GPU machine (no Rust there): install the cute_rs wheel carried in
# this folder, run python/tests (pytest, against torch), the README's PyTorch code, the
# overhead benchmark and, if carried, the candle example. Logs under $OUT.
# Usage (from the lead's checkout, folder carried): bash .gpu/interop/go.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/interop-out}"; mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
} 2>&1 | tee "$OUT/env.txt"
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" "$HERE"/wheels/*.whl 2>&1 | tail -3 | tee "$OUT/install.txt"
export PYTHONPATH="$SITE"
python3 -c 'import cute_rs; print(cute_rs.__file__, cute_rs.device())' 2>&1 | tee -a "$OUT/install.txt"
( cd "$HERE/python/tests" && timeout 150 python3 -m pytest -q -rs -p no:cacheprovider . ) 2>&1 | tail -40 | tee "$OUT/pytest.txt"
timeout 60 python3 "$HERE/python/bench.py" 2>&1 | tee "$OUT/bench.txt"
if [ -x "$HERE/candle-op" ]; then
  timeout 60 "$HERE/candle-op" 2>&1 | tail -20 | tee "$OUT/candle.txt"
else
  echo "SKIP candle-op: not carried" | tee "$OUT/candle.txt"
fi
# memcheck over the Python path: views, offsets, f32 out, the SIMT path
timeout 120 compute-sanitizer --tool memcheck --print-limit 5 python3 - > "$OUT/memcheck.txt" 2>&1 <<'PY'
import torch, cute_rs
x = torch.randn(300, 520, device="cuda", dtype=torch.bfloat16)
y = torch.randn(264, 136, device="cuda", dtype=torch.bfloat16)
c = cute_rs.gemm(x[8:208, 16:280], y)
o = torch.zeros(200, 136, device="cuda")
cute_rs.gemm(x[8:208, 16:280], y, out=o, beta=1.0)
f = cute_rs.gemm(x[:, :264].float(), y.float())
torch.cuda.synchronize()
print("memcheck program done", c.shape, o.shape, f.shape)
PY
tail -4 "$OUT/memcheck.txt"
