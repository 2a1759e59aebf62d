#!/usr/bin/env bash
# (session 21, lead) The per-tensor FP8 tile by shape after the producer warp: the default (128 x 192 `_n192tma` but
# 128 x 128 at 4096^3, Fp8PromotedTile::for_problem) against CUTE_RS_FP8_PROMOTED=n128tma6 and =n192tma, alternated,
# three rounds, on the large shapes and neighbours (main's release host, its hgemm module cut to the two
# tiles' entries).     D=.gpu/s21e bash tools/gpu/s21/tile.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s21e
g() { local v=$1; shift; CUTE_RS_FP8_PROMOTED=$v timeout 60 $H gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
g n128tma6 --m 512 --n 512 --k 512
for i in 1 2 3; do for s in "--m 8192" "--m 4096 --n 7168 --k 16384" "--m 8192 --n 8192 --k 16384" "--m 8192 --n 4096 --k 8192" "--m 6144"; do
  [ $(left) -gt 15 ] || break; for v in n192tma n128tma6; do g $v $s; done; done; done
t end
