#!/usr/bin/env bash
# (session 72; issue #37) Small leads of the block split's second launch at 4096³ (the rule: 0, where it waits for the
# first launch before its first load): `CUTE_RS_FP8_BLOCK_LEAD` 4, 12 and 25 % of a first-launch tile's 32 k-tiles are
# 1, 3 and 8 k-tiles more for each cluster that starts in the first launch's last-wave holes — and no wait first (it
# waits before it exits) — against 0; then 8192³ (the rule: 125) at 125, 60 and 0. `host gemm --dtype e4m3
# --block-scales --bench` (sustained and burst), alternated, rounds while the budget lasts.
# Package $D: host.xz (main's release host).
#   BUDGET=360 D=.gpu/s72c NAME=s72c bash tools/gpu/fp8/lead-small.sh
BUDGET=${BUDGET:-360}; . tools/gpu/lib.sh ${NAME:-s72c}
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null
t "warm $(grep -Eo 'PASS|FAIL|rror.*' $R/w1.txt | tr '\n' ' ')"
B="--dtype e4m3 --block-scales"
CUTE_RS_FP8_BLOCK_LEAD=25 CUTE_RS_FP8_BLOCK_SPLIT=3840 c gemm $B --m 4096 --n 4096 --k 512 --out f32
for i in 1 2 3; do
  for l in 0 4 12 25; do [ $(left) -gt 20 ] || break 2; GARGS="$B --m 4096 --n 4096 --k 4096"; g "l$l-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
  [ $i -le 2 ] && for l in 125 60 0; do [ $(left) -gt 30 ] || break 2; GARGS="$B --m 8192 --n 8192 --k 8192"; g "l$l-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
done
t end
