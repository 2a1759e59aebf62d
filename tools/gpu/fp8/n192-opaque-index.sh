#!/usr/bin/env bash
# (session 54; issue #37) The 128 × 192 TMA epilogue's thread index with its range (`device::hint::opaque_index::<128>`,
# as the 128 × 128 tile has since session 19): session 19 kept the plain opaque index there because the range made
# ptxas rebuild B's descriptor base in every k-tile; with the base broadcast from lane 0 (session 54) the k-loops stay
# at 143 / 163 and the bf16 TMA chunks shrink (ptxas 13.0): plain `_n192tma` 227 / 179 / 180 -> 102 / 85 / 93 SASS
# instructions, fused GELU 585 / 531 / 531 -> 461 / 434 / 443; each `_n192tma` entry ~650 instructions smaller; 0 spills.
# Variants (whole hgemm_fp8 modules): wu = main after e073fcc, oi = with opaque_index on 128 × 192.
# Package $D: host.xz (main's), stub.ptx + stub-families.txt ("attention copy gemm_n gemm_t hgemm tma"),
# {wu,oi}/hgemm_fp8.ptx.xz.
#   D=.gpu/s54f NAME=s54f bash tools/gpu/fp8/n192-opaque-index.sh   (~200 s)
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s54f}
variants "wu oi" hgemm_fp8 --dtype e4m3 --m 256 --n 384 --k 256
export CUTE_RS_PTX_DIR=/tmp/pvoi
timeout 100 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C sweep (oi) rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -2 | tr '\n' ' ')"
for a in "--m 2048 --n 1100 --k 1008 --bias n --act gelu --row-scales --col-scales" "--m 1024 --n 1030 --k 512 --out f32" \
         "--m 2048 --n 4100 --k 1024 --bias m --act silu --row-scales --col-scales" "--m 1000 --n 2000 --k 1024 --block-scales" \
         "--m 2048 --n 2112 --k 2048 --block-scales --out f32" "--m 4096 --n 2112 --k 1024"; do
  CUTE_RS_FP8_PROMOTED=n192tma c gemm --dtype e4m3 $a; done
for tool in memcheck racecheck; do
  CUTE_RS_FP8_PROMOTED=n192tma timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 1024 \
    --n 1030 --k 512 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
ROUNDS=${ROUNDS:-3} ab "wu oi" "--dtype e4m3 --m 8192 --n 8192 --k 8192 --bias m --act gelu" \
  "--dtype e4m3 --m 4096 --n 7168 --k 16384 --bias m --act gelu" "--dtype e4m3 --m 4096 --n 7168 --k 16384" \
  "--dtype e4m3 --m 4096 --n 2112 --k 7168" "--dtype e4m3 --m 8192 --n 8192 --k 8192 --block-scales" \
  "--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"
t end
