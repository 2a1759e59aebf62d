#!/usr/bin/env bash
# interop (#36), second call: the candle example (examples/candle-op, built here with the CUDA
# pieces from PyPI and link stubs) against the device's real libraries (torch's cu13 wheels),
# and memcheck over cute_rs.attention's Python path (views, offsets, GQA, varlen). Logs under $OUT.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/interop-out}"; mkdir -p "$OUT"
T0=$(date +%s)
LIBS=$(python3 - <<'PY'
import glob, os, site
dirs = set()
for sp in site.getsitepackages() + [site.getusersitepackages()]:
    for pat in ("nvidia/*/lib", "nvidia/cu13/lib"):
        dirs.update(glob.glob(os.path.join(sp, pat)))
print(":".join(sorted(dirs)))
PY
)
if [ -x "$HERE/candle-op" ]; then
  ( export LD_LIBRARY_PATH="$LIBS:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
    ldd "$HERE/candle-op" | grep -E "cuda|cublas|curand|nvrtc|not found"
    timeout 60 "$HERE/candle-op"; echo "exit $?" ) 2>&1 | tail -20 | tee "$OUT/candle.txt"
else
  echo "SKIP candle-op: not carried" | tee "$OUT/candle.txt"
fi
echo "t=$(( $(date +%s) - T0 )) s" | tee -a "$OUT/candle.txt"
SITE=/tmp/cute_rs_site
python3 -m pip install -q --no-deps --no-index --target "$SITE" "$HERE"/wheel/*.whl 2>&1 | tail -3
export PYTHONPATH="$SITE"
timeout 100 compute-sanitizer --tool memcheck --print-limit 5 python3 - > "$OUT/memcheck-attention.txt" 2>&1 <<'PY'
import torch, cute_rs
bf = torch.bfloat16
q = torch.randn(2, 4, 300, 128, device="cuda", dtype=bf)   # SDPA layout, as views
kv = torch.randn(2, 2, 333, 128, device="cuda", dtype=bf)
out = torch.zeros(2, 4, 310, 128, device="cuda", dtype=bf)[:, :, 5:305].transpose(1, 2)
o, lse = cute_rs.attention(q.transpose(1, 2), kv.transpose(1, 2), kv.transpose(1, 2), causal="bottom_right", out=out, lse=True)
qv = torch.randn(360, 4, 64, device="cuda", dtype=bf)
kvv = torch.randn(300, 1, 64, device="cuda", dtype=bf)
o2 = cute_rs.attention(qv, kvv, kvv, causal="top_left", cu_seqlens_q=[0, 100, 100, 357, 360], cu_seqlens_k=[0, 50, 170, 170, 300])
o3 = cute_rs.attention(q.transpose(1, 2)[:, :, :1], kv.transpose(1, 2)[:, :, :1], kv.transpose(1, 2)[:, :, :1])
torch.cuda.synchronize()
print("memcheck program done", o.shape, lse.shape, o2.shape, o3.shape)
PY
tail -4 "$OUT/memcheck-attention.txt"
echo "t=$(( $(date +%s) - T0 )) s"
