#!/usr/bin/env bash
# Session s10 call 3 (lead): the like-for-like attention bench of main (python/bench_attention.py:
# ours, cuDNN, FA2 alternated on the same tensors, run from a copy so that the staged package is
# imported), the boustrophedon persistent schedule (branch snake, PTX swap) and helper exp2's A/B.
set -u
D=.gpu/call3; R=/tmp/r3; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
export H=/tmp/hostm
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/ && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 170 python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "bench_attention.py rc=$?"
tail -42 $R/bench_attention.txt | tee -a $S
# snake: correctness, then host bench attention main/snake alternated twice
N="env CUTE_RS_PTX_DIR=$D/snake"
$N timeout 120 $H run --only attention --sweep-attention 120 > $R/run-snake.txt 2>&1; t "snake: run attention sweep 120 rc=$?"
tail -3 $R/run-snake.txt | cut -c1-200 | tee -a $S
export CUTE_RS_ATTENTION_SEQLENS=512,2048,4096,16384
for r in 1 2; do
  timeout 70 $H bench attention --json > $R/ab-main-$r.json 2> $R/ab-main-$r.err; t "bench attention main $r rc=$?"
  $N timeout 70 $H bench attention --json > $R/ab-snake-$r.json 2> $R/ab-snake-$r.err; t "bench attention snake $r rc=$?"
done
python3 tools/attention/ab_rounds.py $R/ab-main-1.json $R/ab-snake-1.json $R/ab-main-2.json $R/ab-snake-2.json 2>&1 | tee -a $S
unset CUTE_RS_ATTENTION_SEQLENS
OUT=$R bash .gpu/exp2/go.sh > $R/exp2.txt 2>&1; t "exp2 rc=$?"
tail -30 $R/exp2.txt
tar czf $OUT/r3.tgz -C /tmp r3
