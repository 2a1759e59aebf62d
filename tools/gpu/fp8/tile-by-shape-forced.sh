#!/usr/bin/env bash
# (session 21, lead) The per-tensor FP8 tile by shape after the producer warp: CUTE_RS_FP8_PROMOTED=n192tma (128 x 192)
# and =n128tma6 (128 x 128) forced and alternated, three rounds, on SHAPES (`host gemm` arguments, ';'-separated; main's
# release host, its hgemm module cut to the two tiles' entries and the global-scale one).
#      D=.gpu/s21e bash tools/gpu/fp8/tile-by-shape-forced.sh                       (run s21e: the issue's large shapes and neighbours)
#      NAME=s21f SHAPES="--m 4096 --n 2112 --k 7168;--m 3072;--m 3072 --n 3072 --k 8192;--m 8192;--m 2048 --n 7168 --k 8192" \
#        D=.gpu/s21e bash tools/gpu/fp8/tile-by-shape-forced.sh                     (run s21f: where 128 x 192 fills the machine better)
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s21e}
SHAPES=${SHAPES:-"--m 8192;--m 4096 --n 7168 --k 16384;--m 8192 --n 8192 --k 16384;--m 8192 --n 4096 --k 8192;--m 6144"}
g() { local v=$1; shift; CUTE_RS_FP8_PROMOTED=$v timeout 60 $H gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
g n128tma6 --m 512 --n 512 --k 512
IFS=';' read -ra S <<< "$SHAPES"
for i in 1 2 3; do for s in "${S[@]}"; do
  [ $(left) -gt 15 ] || break; for v in n192tma n128tma6; do g $v $s; done; done; done
t end
