#!/usr/bin/env bash
# Session 42: the FP8 family after the epilogue's pipeline storage and `SmemBarrier` TMA loads (its PTX changed, no
# kernel code did), this build's module whole (pn) against main's `ad38c46` (pm), one host, two rounds.
#   D=.gpu/s42a NAME=s42f BUDGET=300 bash tools/gpu/fp8/epilogue-pipeline-storage-ab.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s42f}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w2.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pn timeout 240 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
gg() { g "$@" CUTE_RS_PTX_DIR=/tmp/pn; g main-"$@" CUTE_RS_PTX_DIR=/tmp/pm; }
for i in 1 2; do [ $(left) -gt 40 ] || break
  for s in "4096 4096 4096" "8192 8192 8192" "4096 7168 16384" "128 7168 16384"; do set -- $s
    GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; gg pt$1x$2x$3; done
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; gg blk
done
t end
