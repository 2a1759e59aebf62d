#!/usr/bin/env bash
# (session 21, lead) The FP8 tile rule's other side: shapes where 128 x 192 fills the machine better than 128 x 128
# (4096x2112, 3072^2; Fp8PromotedTile::for_problem's estimate), both tiles forced and alternated, three rounds, with
# 8192^3 again (package as tile.sh).     D=.gpu/s21e bash tools/gpu/s21/tile2.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh s21f
g() { local v=$1; shift; CUTE_RS_FP8_PROMOTED=$v timeout 60 $H gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
g n128tma6 --m 512 --n 512 --k 512
for i in 1 2 3; do for s in "--m 4096 --n 2112 --k 7168" "--m 3072" "--m 3072 --n 3072 --k 8192" "--m 8192" "--m 2048 --n 7168 --k 8192"; do
  [ $(left) -gt 15 ] || break; for v in n192tma n128tma6; do g $v $s; done; done; done
t end
