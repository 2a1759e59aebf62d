#!/bin/bash
# The attention bench on random data, each mainloop variant, and torch SDPA, one call.
cd "$(dirname "$0")"
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache
for v in overlap serial pingpong; do
  CUTE_RS_ATTENTION=$v timeout 60 ./host bench attention --json > $OUT/host-$v.json 2> $OUT/host-$v.err
done
timeout 60 python3 attention/sdpa_bench.py --json > $OUT/sdpa.json 2> $OUT/sdpa.err
for v in overlap serial pingpong; do echo "== $v"; python3 attention/compare.py $OUT/host-$v.json $OUT/sdpa.json; done > $OUT/compare.md 2>&1
