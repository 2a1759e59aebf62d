#!/usr/bin/env bash
# (session 66) Fast accumulation on 128×192 where it fills the machine better than 128×256
# (`Fp8FastTile::for_problem`, `gemm_fp8_{e4m3,e5m2}_tn_fast192tma`): `--check`s of the rule's new launches (e4m3 and
# e5m2, edges; forced `CUTE_RS_FP8_FAST=n192tma` at odd shapes), memcheck and racecheck, the FP8 sweep; then the rule's
# tile against 128×256 (`CUTE_RS_FP8_FAST=n256`, the launch before it) at 4096×2112×7168 and 3072³, ROUNDS alternated.
# Package $D: host.xz (this tree's release host).
#   BUDGET=300 D=.gpu/s66g NAME=s66g bash tools/gpu/fp8/fast-tile.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s66g}
timeout 200 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --fast-accum --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
c gemm --dtype e4m3 --fast-accum --m 2048 --n 2112 --k 2048
c gemm --dtype e5m2 --fast-accum --m 4096 --n 2112 --k 1024
c gemm --dtype e4m3 --fast-accum --m 3072 --n 3072 --k 1024 --out f32
CUTE_RS_FP8_FAST=n192tma c gemm --dtype e4m3 --fast-accum --m 1000 --n 1030 --k 1024
CUTE_RS_FP8_FAST=n192tma c gemm --dtype e5m2 --fast-accum --m 3000 --n 1000 --k 512 --out f32
for tool in memcheck racecheck; do
  CUTE_RS_FP8_FAST=n192tma timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --fast-accum --m 1000 --n 1030 --k 1024 \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
timeout 100 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
for i in $(seq ${ROUNDS:-2}); do
  for a in "--m 4096 --n 2112 --k 7168" "--m 3072 --n 3072 --k 3072"; do
    [ $(left) -gt 25 ] || break; GARGS="--dtype e4m3 --fast-accum $a"; g rule$i; g n256-$i CUTE_RS_FP8_FAST=n256
  done
done
t end
