#!/bin/bash
# helper attn (fourth round), GPU call 1: the sweep of the default; the K/V probe variants
# (`consumer_try_wait` tokens: tw, twl, tws, twslazy), lazy O rescale (lazy, twlazy) checked on
# two shapes each and benched against the default (overlap) and split; cuDNN in the same call.
cd "$(dirname "$0")"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('host.xz'), open('/tmp/attn-host','wb'))"; chmod +x /tmp/attn-host
H=/tmp/attn-host
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache-attn
J=$OUT/json; mkdir -p $J
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader >> $S
t start
timeout ${RUN_T:-60} $H run --only attention --sweep-attention 200 > $OUT/run.txt 2>&1; echo "rc=$?" >> $OUT/run.txt
tail -4 $OUT/run.txt | tee -a $S; t run-done
for v in ${VARIANTS_CHECK:-tw twl tws twslazy lazy twlazy}; do
  for shape in "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right" "--batch 1 --heads 2 --seqlen-q 2049 --head-dim 64 --causal top-left"; do
    echo "== $v $shape"; CUTE_RS_ATTENTION=$v timeout 15 $H attention $shape --check 2>&1 | tail -2
  done
done > $J/variants-check.txt 2>&1
grep -c PASS $J/variants-check.txt | sed 's/^/variant checks PASS lines: /' >> $S; grep -iE "fail|error|timed" $J/variants-check.txt | head -5 >> $S; t check-done
timeout 40 python3 sdpa_bench.py --backends cudnn --head-dims 64,128 --rounds 3 --json > $J/sdpa.json 2> $J/sdpa.err; tail -2 $J/sdpa.err >> $S; t sdpa
for v in ${VARIANTS_BENCH:-overlap tws twslazy tw lazy twl split twlazy}; do
  CUTE_RS_ATTENTION=$v timeout 22 $H bench attention --json > $J/host-$v.json 2> $J/host-$v.err
  tail -1 $J/host-$v.err >> $S; t bench-$v
done
for f in $J/host-*.json; do echo "== $f"; python3 compare.py $f $J/sdpa.json; done > $OUT/compare.md 2>&1
t end
