#!/bin/bash
# RUN ONCE, on 2026-11-29 in the lead's call (figures: doc/attention.md, "Head dim 64's two
# tiles"). Kept as the record of that call: since then `rows`, `wg3rows`, `uni` and d128's
# `wg3`/`wg3s3` are removed, d64's 192-row tile is a default entry (`wg3` forces it, `overlap`
# the 128-row one); tools/gpu/attention/candidate.sh is the current script.
# helper attn (fifth round): ONE call, not run in the round (the session's device budget was
# 98 s when the build was ready; the rules forbid a call below 650 s). For whoever runs it:
#   cp host.xz, ptx/ (cut_ptx.py ... wg3 wg3s3 wg3rows rows uni), sdpa_bench.py, compare.py and
#   this go.sh into .gpu/attn/, then run `bash .gpu/attn/go.sh` (carry .gpu/attn, timeout 220).
# The default sweep; three consumer warpgroups (`wg3`, `wg3s3`, `wg3rows`), both rows' maxima
# in four chains (`rows`) and the warp-uniform V stage (`uni`) checked (the sweep under
# CUTE_RS_ATTENTION: its bf16 problems at the variant's head dims; the others have no variant
# entry and are listed as errors, filtered out below) and benched against the default and cuDNN
# in the same call; ncu of d64 16k, default vs wg3.
set -u
cd "$(dirname "$0")"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('host.xz'), open('/tmp/attn-host','wb'))"; chmod +x /tmp/attn-host
H=/tmp/attn-host
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache-attn CUTE_RS_PTX_DIR=$PWD/ptx
J=$OUT/json; mkdir -p $J
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader >> $S
t start
timeout 80 $H run --only attention --sweep-attention 200 > $OUT/run.txt 2>&1; echo "rc=$?" >> $OUT/run.txt
tail -4 $OUT/run.txt | tee -a $S; t run-done
bad() { grep -E '^attention' "$1" | grep -iE 'fail' | grep -vE 'no entry at head dim|not in this build|problems, seed|passed'; }
for v in wg3 wg3rows rows; do
  CUTE_RS_ATTENTION=$v timeout 30 $H run --only attention --sweep-attention 120 > $OUT/run-$v.txt 2>&1; echo "rc=$?" >> $OUT/run-$v.txt
  echo "$v: $(grep -E 'attention sweep +120' $OUT/run-$v.txt | cut -c1-150)" | tee -a $S
  echo "$v: failures other than missing entries: $(bad $OUT/run-$v.txt | wc -l)" | tee -a $S
  bad $OUT/run-$v.txt | head -5 | cut -c1-300 >> $S
  t sweep-$v
done
for v in wg3s3 uni; do
  for shape in "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right" "--batch 3 --heads 3 --seqlen-q 333 --seqlen-k 1000 --head-dim 64" "--batch 1 --heads 2 --seqlen-q 2049 --head-dim 64 --causal top-left" "--batch 2 --heads 4 --seqlen-q 1500 --head-dim 128 --causal top-left"; do
    echo "== $v $shape"; CUTE_RS_ATTENTION=$v timeout 10 $H attention $shape --check 2>&1 | tail -2
  done
done > $J/variants-check.txt 2>&1
echo "variant checks: $(grep -c 'passed, 0 failed' $J/variants-check.txt) of 8 pass" | tee -a $S; t check-done
timeout 35 python3 sdpa_bench.py --backends cudnn --head-dims 64,128,256 --rounds 2 --json > $J/sdpa.json 2> $J/sdpa.err; tail -2 $J/sdpa.err >> $S; t sdpa
for v in overlap wg3 wg3rows rows wg3s3 uni overlap2; do
  [ $(( $(date +%s) - T0 )) -gt 185 ] && { t "skip bench-$v (time)"; continue; }
  CUTE_RS_ATTENTION=${v%2} timeout 26 $H bench attention --json > $J/host-$v.json 2> $J/host-$v.err
  tail -1 $J/host-$v.err >> $S; t bench-$v
done
for f in $J/host-*.json; do echo "== $f"; python3 compare.py $f $J/sdpa.json; done > $OUT/compare.md 2>&1
NCU="ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats -k regex:attention_fwd --launch-skip 1 --launch-count 1"
for v in overlap wg3; do
  [ $(( $(date +%s) - T0 )) -gt 200 ] && { t "skip ncu-$v (time)"; continue; }
  echo "######## ncu $v" >> $OUT/ncu.txt
  CUTE_RS_ATTENTION=$v timeout 10 $NCU $H attention --batch 1 --heads 32 --seqlen-q 16384 --head-dim 64 --bench >> $OUT/ncu.txt 2>&1
  t ncu-$v
done
t end
