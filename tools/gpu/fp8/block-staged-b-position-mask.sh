#!/usr/bin/env bash
# (session 26, lead) The staged 64-row entry with B's box position split as a mask (its index said non-negative: 244
# instructions a pair of k-tiles against 250) against main's, alternated, four rounds at 128×7168×16384 and 8192;
# `--check` and memcheck on the new one.   Package: $D/host.xz (run s26d's), $D/newp.ptx.xz, $D/old.ptx.xz (main 8c0b4d0's).
#          D=.gpu/s26e bash tools/gpu/fp8/block-staged-b-position-mask.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s26e}
mkdir -p /tmp/pnew /tmp/pold; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; x $D/old.ptx.xz /tmp/pold/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pnew
B="gemm --dtype e4m3 --block-scales"
timeout 150 $H $B --m 128 --n 7168 --k 6144 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check new rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
CUTE_RS_PTX_DIR=/tmp/pold timeout 150 $H $B --m 128 --n 7168 --k 6144 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check old rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
timeout 100 compute-sanitizer --tool memcheck $H $B --m 132 --n 7200 --k 6144 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck rc=$? $(grep 'ERROR SUMMARY' $R/m.txt) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
for i in 1 2 3 4; do for k in 16384 8192; do [ $(left) -gt 15 ] || break
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k $k"; g new X=1; g old CUTE_RS_PTX_DIR=/tmp/pold; done; done
t end
