#!/usr/bin/env bash
# Session 41: the FP8 entries' epilogue without a source (SOURCE false: beta taken as 0, the code that reads C not
# compiled; hgemm_fp8.ptx 15.7 -> 7.0 MB, the 16-bit family's PTX unchanged). Its FP8 rows against main's in the same
# call: checks, the FP8 sweep, then the bench's FP8 shapes on both builds in alternation (`host gemm --bench`, two
# rounds). One host (the host code is the same): $D/host.xz with the branch's PTX embedded; main's FP8 module from
# $D0/hgemm_fp8.ptx.xz through CUTE_RS_PTX_DIR.
#   D=.gpu/s41a D0=.gpu/s41a/main NAME=s41a bash tools/gpu/fp8/epilogue-no-source-ab.sh
BUDGET=${BUDGET:-580}; . tools/gpu/lib.sh ${NAME:-s41a}
unset CUTE_RS_PTX_DIR
H1=$H; mkdir -p /tmp/p0; x ${D0:-.gpu/s41a/main}/hgemm_fp8.ptx.xz /tmp/p0/hgemm_fp8.ptx
printf '#!/bin/sh\nCUTE_RS_PTX_DIR=/tmp/p0 exec %s "$@"\n' $H1 > /tmp/h0 && chmod +x /tmp/h0
# both hosts' FP8 and bf16 modules JIT in parallel
timeout 300 /tmp/h0 gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w0.txt 2>&1 < /dev/null &
timeout 300 $H1 gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w1b.txt 2>&1 < /dev/null &
timeout 300 $H1 gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w1.txt 2>&1 < /dev/null
wait; t "warm main $(grep -Eo 'PASS|FAIL' $R/w0.txt | head -1) branch $(grep -Eo 'PASS|FAIL' $R/w1.txt | head -1)"
c() { timeout 120 $H1 gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype e4m3 --m 126 --n 1030 --k 1664
c --dtype e4m3 --m 126 --n 1030 --k 1664 --block-scales
c --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c --dtype e4m3 --m 1022 --n 1030 --k 1024 --out f32
c --dtype e4m3 --m 126 --n 1030 --k 1024 --bias n --act gelu --row-scales
c --dtype e5m2 --m 1024 --n 1024 --k 1024 --fast-accum
# the FP8 sweep (`host gemm --dtype e4m3` without a problem: host run's FP8 rows, default seed); the 16-bit PTX is
# main's byte for byte
timeout 240 $H1 gemm --dtype e4m3 > $R/run.txt 2>&1 < /dev/null
t "C FP8 sweep rc=$? $(grep -cE 'PASS' $R/run.txt) PASS rows, $(grep -cE 'FAIL' $R/run.txt) FAIL"
# both builds in the same rounds: TAG (the branch), main-TAG
gg() { H=$H1; g "$@"; H=/tmp/h0; g main-"$@"; H=$H1; }
for i in 1 2; do [ $(left) -gt 80 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"; gg pt4096
  GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192"; gg pt8192
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; gg pt4096x7168
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; gg pt128
  GARGS="--dtype e4m3 --m 4096 --n 2112 --k 7168"; gg pt4096x2112
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"; gg blk4096
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; gg blk4096x7168
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --fast-accum"; gg fast4096
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --bias m --act gelu"; gg gelu4096x7168
done
t end
