#!/bin/bash
# After the varlen-launch mend (no host synchronize): the attention checks again, then
# synccheck and racecheck on a short attention run.
cd "$(dirname "$0")"
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache
timeout 100 ./host run --only attention --sweep-attention 200 > $OUT/run-attention.txt 2>&1; echo "rc=$?" >> $OUT/run-attention.txt
for t in synccheck racecheck; do
  timeout 60 compute-sanitizer --tool $t ./host attention --batch 2 --heads 4 --heads-kv 2 --seqlen-q 300 --seqlen-k 333 --head-dim 128 --causal bottom-right --check > $OUT/$t.txt 2>&1; echo "rc=$?" >> $OUT/$t.txt
done
