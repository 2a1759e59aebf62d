#!/usr/bin/env bash
# (session 78; issues #34, #37) The sanitizers on the modules of tools/gpu/gemm/s78-landing.sh (the TMA epilogue's one
# meeting, C's request stagger), several tiles a CTA (`CUTE_RS_HGEMM_SMS=38`), then the whole `host bench gemm --csv`
# with them. Package as s78-landing.sh's (.gpu/A: main e63842a's host, new/{hgemm,hgemm_fp8}.ptx.xz, their cubins):
#   BUDGET=420 D=.gpu/A NAME=s78c bash tools/gpu/gemm/s78-closing.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s78c}
mkdir -p /tmp/pvnew; for m in hgemm hgemm_fp8; do x $D/new/$m.ptx.xz /tmp/pvnew/$m.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pvnew
i=0
for s in "--dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" "--dtype bf16 --ta --m 2048 --n 2048 --k 256 --bias n --act gelu" \
  "--dtype f16 --m 2048 --n 2048 --k 192" "--dtype e4m3 --m 2048 --n 2048 --k 512 --bias m --act relu"; do
  for tool in memcheck racecheck synccheck; do i=$((i + 1))
    CUTE_RS_HGEMM_SMS=38 timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H gemm $s --check > $R/san$i.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san$i.txt | head -1) $(grep -E '^host' $R/san$i.txt | head -1)"
  done; done
timeout $(( $(left) - 10 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
cp $R/bench.csv $OUT/; cut -d, -f1-8 $R/bench.csv | tee -a $S
t end
