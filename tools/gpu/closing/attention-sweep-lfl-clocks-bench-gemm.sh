#!/usr/bin/env bash
# (as run in session 10; $D/clocks.py was tools/attention/clocks.py, $D/ab.py tools/attention/ab_rounds.py; call 1 sampled one more nvidia-smi field, removed for call 2)
# Session s10 call 1 (lead): main 01306bf on the H200 — the fixed tree's attention sweep, the
# like-for-like attention bench (python/bench_attention.py: ours, cuDNN, FA2 alternated, same
# tensors), sustained clocks/power of ours vs cuDNN, and the full `host bench gemm` (#34).
set -u
D=.gpu/call1; S=$OUT/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
H=/tmp/hostm
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
export PYTHONPATH=/tmp/py
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.backends.cudnn.version())' | tee -a $S
timeout 150 $H run --only attention --sweep-attention 200 > $OUT/run-attention.txt 2>&1; t "run attention sweep 200 rc=$?"
tail -4 $OUT/run-attention.txt | cut -c1-200 | tee -a $S
timeout 130 python3 python/bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 --json $OUT/bench_attention.json > $OUT/bench_attention.txt 2>&1; t "bench_attention.py rc=$?"
cat $OUT/bench_attention.txt >> $S
timeout 80 python3 $D/clocks.py $OUT/smi.csv > $OUT/clocks.txt 2>&1; t "clocks rc=$?"
cat $OUT/clocks.txt >> $S
# the causal schedule in L2 sections (branch lpt's attention module through CUTE_RS_PTX_DIR)
L="env CUTE_RS_PTX_DIR=$D/lpt"
$L timeout 150 $H run --only attention --sweep-attention 120 > $OUT/run-lpt.txt 2>&1; t "lpt: run attention sweep 120 rc=$?"
tail -4 $OUT/run-lpt.txt | cut -c1-200 | tee -a $S
export CUTE_RS_ATTENTION_SEQLENS=512,1024,2048,4096,16384
for r in 1 2; do
  timeout 70 $H bench attention --json > $OUT/ab-main-$r.json 2> $OUT/ab-main-$r.err; t "bench attention main $r rc=$?"
  $L timeout 70 $H bench attention --json > $OUT/ab-lpt-$r.json 2> $OUT/ab-lpt-$r.err; t "bench attention lpt $r rc=$?"
done
python3 tools/attention/ab_rounds.py $OUT/ab-main-1.json $OUT/ab-lpt-1.json $OUT/ab-main-2.json $OUT/ab-lpt-2.json | tee -a $S
