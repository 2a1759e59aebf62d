#!/usr/bin/env bash
# (session 29, lead) synccheck (and racecheck) on the kernels session 28 changed, under main's host (run s28f's package,
# `be95636`'s kernels): the 16-bit split-K cooperative entry, the per-tensor FP8 kernel at an odd M-tile count (no
# cluster), block scales on `_staged1_tma5sk`. $D/hgemm.ptx.xz: main's hgemm module cut to the bf16 TN and FP8 e4m3 entries.
#          D=.gpu/s29s bash tools/gpu/sanitize/synccheck-split-k-odd-m.sh
BUDGET=${BUDGET:-110}; . tools/gpu/lib.sh ${NAME:-s29s}
timeout 60 $H gemm --ta --dtype bf16 --m 200 --n 4096 --k 4096 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
san() { local tool=$1; shift; timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in synccheck racecheck; do
  san $tool gemm --ta --dtype bf16 --m 200 --n 4096 --k 4096 --check
  san $tool gemm --dtype e4m3 --m 384 --n 7168 --k 2048 --check
  san $tool gemm --dtype e4m3 --m 896 --n 4096 --k 1024 --block-scales --check
done
t end
