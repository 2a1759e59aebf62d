#!/usr/bin/env bash
# Session 41: `beta·C` fused into the epilogue's sum (one FFMA a value, `device::math::fma`) and the FP8 family's last
# two entries without a source, against main before them (run s41b measured where `beta ≠ 0` costs: the epilogue's
# own instructions). One host (this build's); PTX dirs: /tmp/pn this build's modules, /tmp/pm main's (`1c5faba` hgemm,
# `6d6a777` FP8), each cut to the bf16/f16 NN/TN entries and the fused TN ones, the FP8 ones the bench takes
# (tools/gpu/cut_ptx.py), so both JITs fit. Checks on this build, then rounds of both.
#   D=.gpu/s41c NAME=s41c bash tools/gpu/gemm/beta-fma-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s41c}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pn
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w2.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w3.txt 2>&1 < /dev/null &
timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 240 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
c() { timeout 120 $H gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype bf16 --m 4096 --n 4096 --k 1024 --beta 1
c --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --beta 1
c --dtype f16 --m 2048 --n 1032 --k 1024 --beta 0.25
c --dtype bf16 --m 1032 --n 2048 --k 512 --ta --beta -1
c --dtype bf16 --m 2048 --n 2048 --k 256 --ta --beta 1
c --dtype f16 --m 128 --n 7168 --k 2048 --beta 2
c --dtype bf16 --m 1000 --n 1000 --k 512 --beta 0.5 --out f32
c --dtype bf16 --m 126 --n 1030 --k 512 --beta -1 --ldc 130
c --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --beta 1 --bias m --act gelu-erf
c --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --bias n --act silu
c --dtype e4m3 --m 4096 --n 4096 --k 2048 --fast-accum
c --dtype e5m2 --m 1030 --n 1024 --k 1024 --fast-accum
c --dtype e4m3 --m 1022 --n 1030 --k 1024 --out f32
timeout 150 compute-sanitizer --tool racecheck --print-limit 5 $H gemm --dtype bf16 --m 1024 --n 1032 --k 512 --ta --beta 1 --ldc 1040 --check > $R/san.txt 2>&1 < /dev/null
t "S racecheck rc=$? | $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
gg() { g "$@" CUTE_RS_PTX_DIR=/tmp/pn; g main-"$@" CUTE_RS_PTX_DIR=/tmp/pm; }
for i in 1 2 3; do [ $(left) -gt 60 ] || break
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; gg b1
  GARGS="--dtype f16 --m 4096 --n 4096 --k 4096 --beta 1"; gg h1
  GARGS="--dtype bf16 --m 8192 --n 8192 --k 8192 --beta 1"; gg b1x8
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096"; gg b0
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --fast-accum"; gg fast4096
done
t end
