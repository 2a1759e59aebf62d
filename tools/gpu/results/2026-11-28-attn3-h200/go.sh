#!/bin/bash
# helper attn (third round), one GPU call: the sweep of the default, the FlashAttention-3 loop
# variants checked and benched against the default, cuDNN on the same shapes, ncu of the best.
# Run from the carried folder: `bash .gpu/attn/go.sh` (host.xz, sdpa_bench.py, compare.py there).
cd "$(dirname "$0")"
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('host.xz'), open('/tmp/attn-host','wb'))"; chmod +x /tmp/attn-host
H=/tmp/attn-host
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache-attn
J=$OUT/json; mkdir -p $J
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader >> $S
t start
timeout 60 $H run --only attention --sweep-attention ${SWEEP:-200} > $OUT/run.txt 2>&1; echo "rc=$?" >> $OUT/run.txt
tail -4 $OUT/run.txt | tee -a $S; t run-done
for v in ${VARIANTS_CHECK:-fa3 splitnb nb rsb}; do
  for shape in "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right" "--batch 2 --heads 4 --heads-kv 2 --seqlen-q 1500 --head-dim 128 --causal top-left" "--batch 3 --heads 3 --seqlen-q 333 --seqlen-k 1000 --head-dim 64" "--batch 1 --heads 2 --seqlen-q 2049 --head-dim 64 --causal top-left"; do
    echo "== $v $shape"; CUTE_RS_ATTENTION=$v timeout 20 $H attention $shape --check 2>&1 | tail -2
  done
done > $J/variants-check.txt 2>&1
grep -c PASS $J/variants-check.txt | sed 's/^/variant checks PASS lines: /' >> $S; grep -iE "fail|error|timed" $J/variants-check.txt | head -5 >> $S; t check-done
for v in ${VARIANTS_BENCH:-overlap fa3 splitnb nb rsb}; do
  CUTE_RS_ATTENTION=${v%2} timeout 30 $H bench attention --json > $J/host-$v.json 2> $J/host-$v.err
  tail -1 $J/host-$v.err >> $S; t bench-$v
done
timeout 40 python3 sdpa_bench.py --backends cudnn --head-dims 64,128 --rounds 3 --json > $J/sdpa.json 2> $J/sdpa.err; tail -2 $J/sdpa.err >> $S; t sdpa
for f in $J/host-*.json; do echo "== $f"; python3 compare.py $f $J/sdpa.json; done > $OUT/compare.md 2>&1
t compare
NCU="ncu --section SpeedOfLight --section WarpStateStats -k regex:attention_fwd --launch-skip 1 --launch-count 1"
for v in ${VARIANTS_NCU:-}; do
  echo "######## ncu $v" >> $OUT/ncu.txt
  CUTE_RS_ATTENTION=$v timeout 25 $NCU $H attention --batch 1 --heads 16 --seqlen-q 16384 --head-dim 128 --bench >> $OUT/ncu.txt 2>&1
  t ncu-$v
done
t end
