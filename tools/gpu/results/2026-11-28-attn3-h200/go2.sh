#!/bin/bash
# helper attn (third round), second GPU call: the sweep's stop at problem 30 of call 1 (main's
# host, then this build's, same seed), ncu stall reasons and shared-memory load of the default
# and `fa3` at d128 16k, `tree` (never measured) and the default benched again.
cd "$(dirname "$0")"
for b in host main-host; do python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$b.xz'), open('/tmp/attn-$b','wb'))"; chmod +x /tmp/attn-$b; done
H=/tmp/attn-host; M=/tmp/attn-main-host
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache-attn
J=$OUT/json; mkdir -p $J
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
t start
timeout 50 $M run --only attention --sweep-attention 200 > $J/run-main.txt 2>&1; echo "rc=$?" >> $J/run-main.txt
tail -3 $J/run-main.txt | tee -a $S; t run-main-done
timeout 50 $H run --only attention --sweep-attention 200 > $J/run.txt 2>&1; echo "rc=$?" >> $J/run.txt
tail -3 $J/run.txt | tee -a $S; t run-done
timeout 40 $H run --only attention --sweep-attention 200 > $J/run2.txt 2>&1; echo "rc=$?" >> $J/run2.txt
tail -3 $J/run2.txt | tee -a $S; t run2-done
for v in tree overlap; do
  CUTE_RS_ATTENTION=$v timeout 25 $H bench attention --json > $J/host-$v.json 2> $J/host-$v.err
  t bench-$v
done
NCU="ncu --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio -k regex:attention_fwd --launch-skip 1 --launch-count 1"
for v in overlap fa3; do
  echo "######## ncu $v" >> $OUT/ncu.txt
  CUTE_RS_ATTENTION=$v timeout 35 $NCU $H attention --batch 1 --heads 16 --seqlen-q 16384 --head-dim 128 --bench >> $OUT/ncu.txt 2>&1
  t ncu-$v
done
tar czf $OUT/json.tgz -C $OUT json
t end
