#!/usr/bin/env bash
# Session s10 call 5 (lead): main 0e1d64b (the schedule in turns) — tools/gpu/attention/like-for-like.sh
# (sweep 200, like-for-like table, clocks), then the tile rules re-measured on this tree:
# d128 non-causal 128x176 (`n176`) below 8k keys, d64's 192-row tile (`wg3`) for causal below 2k
# queries, each against the default, alternated twice (host bench attention).
set -u
D=.gpu/final bash tools/gpu/attention/like-for-like.sh
R=/tmp/tiles; mkdir -p $R
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc CUTE_RS_ATTENTION_SEQLENS=512,1024,2048,4096
for r in 1 2; do
  for v in default n176 wg3; do
    if [ $v = default ]; then e=""; else e="CUTE_RS_ATTENTION=$v"; fi
    env $e timeout 60 /tmp/hostm bench attention --json > $R/$v-$r.json 2> $R/$v-$r.err; echo "bench $v $r rc=$?"
  done
done
for v in n176 wg3; do
  echo "== $v vs default"; python3 tools/attention/ab_rounds.py $R/default-1.json $R/$v-1.json $R/default-2.json $R/$v-2.json 2>&1 | grep -v "| nan"
done
tar czf $OUT/tiles.tgz -C /tmp tiles
