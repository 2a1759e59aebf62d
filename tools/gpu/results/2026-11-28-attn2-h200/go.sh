#!/bin/bash
# helper attn, GPU call: correctness (sweep), variants' bench, cuDNN on the same shapes, ncu.
# Few files under $OUT (a call returns at most 8): summary.txt, compare.md, ncu.txt, run.txt.
cd "$(dirname "$0")"
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache-attn
J=/tmp/attn-json; mkdir -p $J
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader >> $S
t start
timeout 130 ./host run --only attention --sweep-attention 200 > $OUT/run.txt 2>&1; echo "rc=$?" >> $OUT/run.txt
tail -4 $OUT/run.txt | tee -a $S; t run-done
VC="${VARIANTS_CHECK:-tree}"
for v in $VC; do
  for shape in "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right" "--batch 2 --heads 2 --seqlen-q 1500 --head-dim 256 --causal top-left" "--batch 1 --heads 3 --seqlen-q 333 --head-dim 64"; do
    echo "== $v $shape"; CUTE_RS_ATTENTION=$v timeout 20 ./host attention $shape --check 2>&1 | tail -2
  done
done > $J/variants-check.txt 2>&1
cat $J/variants-check.txt | cut -c1-200 >> $S; t check-done
VB="${VARIANTS_BENCH:-overlap tree tile r240 overlap2}"
for v in $VB; do
  CUTE_RS_ATTENTION=${v%2} timeout 40 ./host bench attention --json > $J/host-$v.json 2> $J/host-$v.err
  tail -1 $J/host-$v.err >> $S; t bench-$v
done
timeout 45 python3 sdpa_bench.py --json > $J/sdpa.json 2> $J/sdpa.err; tail -2 $J/sdpa.err >> $S; t sdpa
for v in $VB; do echo "== $v"; python3 compare.py $J/host-$v.json $J/sdpa.json; done > $OUT/compare.md 2>&1
t compare
NCU="ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats -k regex:attention_fwd --launch-skip 1 --launch-count 1"
for v in ${VARIANTS_NCU:-}; do
  echo "######## ncu $v" >> $OUT/ncu.txt
  CUTE_RS_ATTENTION=$v timeout 45 $NCU ./host attention --batch 1 --heads 16 --seqlen-q 16384 --head-dim 128 --bench >> $OUT/ncu.txt 2>&1
  t ncu-$v
done
