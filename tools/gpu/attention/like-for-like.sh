#!/usr/bin/env bash
# Issue #33 (session 10): our attention against torch's SDPA in one harness and one process —
# python/bench_attention.py (ours through `cute_rs.attention`, cuDNN and FlashAttention-2 alternated
# batch by batch on the same random tensors) — and the sustained SM clock and power of ours and
# cuDNN (tools/attention/clocks.py). Optionally an A/B of an attention module against the host's
# own (`NEW` = a folder with attention.ptx: its sweep, then `host bench attention` main/new/main/new).
# Run from the repository root on the GPU machine with OUT set; D = the package folder holding
# host.xz (a release `host`, sm_90a) and native.xz (the same build's target/release/lib_native.so).
#   D=.gpu/call2 [NEW=.gpu/x/ptx-new] bash tools/gpu/attention/like-for-like.sh    (~3 min)
set -u
D=${D:-.gpu/lfl}; R=/tmp/lfl; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
H=/tmp/hostm
# the staged package: run from /tmp/py, or python/ (first on sys.path) shadows it
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py tools/attention/clocks.py /tmp/py/
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 150 $H run --only attention --sweep-attention 200 > $R/run.txt 2>&1; t "run --only attention --sweep-attention 200 rc=$?"
tail -3 $R/run.txt | cut -c1-200 | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 170 python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 \
  --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "bench_attention.py rc=$?"
tail -40 $R/bench_attention.txt | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 80 python3 clocks.py $R/smi.csv > $R/clocks.txt 2>&1); t "clocks.py rc=$?"
tail -21 $R/clocks.txt | tee -a $S
if [ -n "${NEW:-}" ]; then
  N="env CUTE_RS_PTX_DIR=$PWD/$NEW"
  $N timeout 150 $H run --only attention --sweep-attention 120 > $R/run-new.txt 2>&1; t "new: sweep 120 rc=$?"
  tail -1 $R/run-new.txt | cut -c1-200 | tee -a $S
  for r in 1 2; do
    timeout 70 $H bench attention --json > $R/ab-main-$r.json 2> $R/ab-main-$r.err; t "bench main $r rc=$?"
    $N timeout 70 $H bench attention --json > $R/ab-new-$r.json 2> $R/ab-new-$r.err; t "bench new $r rc=$?"
  done
  python3 tools/attention/ab_rounds.py $R/ab-main-1.json $R/ab-new-1.json $R/ab-main-2.json $R/ab-new-2.json | tee -a $S
fi
tar czf $OUT/lfl.tgz -C /tmp lfl
