#!/usr/bin/env bash
# (session 26, lead) The paired schedule's second promotion under the next pair's first `wgmma`s
# (`MmaAccumulation::DEFERRED_B`, per-tensor promoted entries: `_pp64`, `_n128tma6`) against main's, alternated, two
# rounds; `--check` on the changed entries (forced tiles) and memcheck first.
# Package: $D/host.xz (run s26d's), $D/newp.ptx.xz, $D/old.ptx.xz (main's FP8 entries).   D=.gpu/s26f bash tools/gpu/fp8/deferred-promotion.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s26f}
mkdir -p /tmp/pnew /tmp/pold; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; x $D/old.ptx.xz /tmp/pold/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pnew
P="gemm --dtype e4m3"
timeout 150 $H $P --m 128 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check pp64 rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for s in "128 7168 2048 pp64" "132 7200 1040 pp64" "300 200 528 n128tma6" "1024 1000 1040 n128tma6" "2048 1700 1008 n128tma6" "64 4104 4096 pp64"; do
  set -- $s; CUTE_RS_FP8_PROMOTED=$4 timeout 100 $H $P --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
timeout 100 $H $P > $R/f8.txt 2>&1 < /dev/null; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
CUTE_RS_FP8_PROMOTED=n128tma6 timeout 100 compute-sanitizer --tool memcheck $H $P --m 1024 --n 1000 --k 1040 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck n128tma6 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
CUTE_RS_PTX_DIR=/tmp/pold timeout 150 $H $P --m 128 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit old rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for i in 1 2; do for s in "128 7168 16384" "128 7168 8192" "4096 4096 4096" "8192 8192 8192" "4096 7168 16384"; do [ $(left) -gt 15 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g new X=1; g old CUTE_RS_PTX_DIR=/tmp/pold; done; done
t end
