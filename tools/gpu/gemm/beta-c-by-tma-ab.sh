#!/usr/bin/env bash
# Session 42: C's tile loaded by TMA for `beta ≠ 0` (one thread, a box a chunk on its own barrier of the epilogue's
# pipeline storage, CUTLASS's epilogue load pipeline) in place of every thread's 16 `cp.async`s, against main before it
# (run s41b: the cost of `beta ≠ 0` is the epilogue's own instructions). One host (this build's; main's shared-memory
# sizes are the same); PTX dirs: /tmp/pn this build's hgemm module cut to the NN/TN entries and the fused TN ones,
# this build's FP8 module whole; /tmp/pm main's (`ad38c46`) cut the same. Checks on this build (many tiles a CTA, so
# the barriers' phases turn), sanitizers, then rounds of both.
#   D=.gpu/s42a NAME=s42a BUDGET=460 bash tools/gpu/gemm/beta-c-by-tma-ab.sh
BUDGET=${BUDGET:-460}; . tools/gpu/lib.sh ${NAME:-s42a}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pn
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w2.txt 2>&1 < /dev/null &
timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 240 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
c() { timeout 120 $H gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype bf16 --m 4096 --n 8192 --k 512 --beta 1
c --dtype f16 --m 4096 --n 8192 --k 256 --ta --beta -0.5
c --dtype bf16 --m 4096 --n 4096 --k 256 --ta --beta 1
c --dtype bf16 --m 4096 --n 4096 --k 1024 --beta 1
c --dtype f16 --m 2048 --n 1032 --k 1024 --beta 0.25
c --dtype bf16 --m 1032 --n 2048 --k 512 --ta --beta -1
c --dtype bf16 --m 2048 --n 2048 --k 256 --ta --beta 1
c --dtype f16 --m 128 --n 7168 --k 2048 --beta 2
c --dtype bf16 --m 1000 --n 1000 --k 512 --beta 0.5 --out f32
c --dtype bf16 --m 126 --n 1030 --k 512 --beta -1 --ldc 130
c --dtype bf16 --m 4096 --n 4096 --k 512 --ta --beta 1 --bias m --act gelu-erf
c --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --bias n --act silu
c --dtype bf16 --m 4096 --n 4096 --k 512
c --dtype e4m3 --m 2048 --n 2112 --k 1024
c --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c --dtype e5m2 --m 1030 --n 1024 --k 1024 --fast-accum
c --dtype e4m3 --m 1022 --n 1030 --k 1024 --out f32
sz() { timeout 150 compute-sanitizer --tool $1 --print-limit 5 $H gemm "${@:2}" --check > $R/san.txt 2>&1 < /dev/null
  t "S $1 rc=$? ${*:2} | $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in racecheck synccheck memcheck; do
  sz $tool --dtype bf16 --m 1024 --n 2064 --k 256 --ta --beta 1 --ldc 1040
  sz $tool --dtype f16 --m 1032 --n 2048 --k 1024 --beta 1
done
gg() { g "$@" CUTE_RS_PTX_DIR=/tmp/pn; g main-"$@" CUTE_RS_PTX_DIR=/tmp/pm; }
for i in 1 2 3; do [ $(left) -gt 60 ] || break
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; gg b1
  GARGS="--dtype f16 --m 4096 --n 4096 --k 4096 --ta --beta 1"; gg h1tn
  GARGS="--dtype bf16 --m 8192 --n 8192 --k 8192 --beta 1"; gg b1x8
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096"; gg b0
done
t end
