#!/usr/bin/env bash
# (session 25, lead) The sanitizers on the two block-scaled small-M entries (runs s25d/s25e sanitized shapes the rule sent
# elsewhere): racecheck, memcheck, synccheck with `--check` on 128×7168×2048 with the global-scale entry
# (CUTE_RS_FP8_BLOCK=pp64) and the staged one (=stagedpp64); then the final rule's FP8 sweep and `--check` where it picks
# each (K ≥ 8192 staged, below it global).     Package: $D/host.xz.     D=.gpu/s25f bash tools/gpu/sanitize/fp8-block-small-m.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s25f}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 8192 --check > $R/jit.txt 2>&1; t "jit + check (staged) rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
full gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 4096 --check > $R/c.txt 2>&1; t "check (global) 128 7168 4096 rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
san() { local tool=$1; shift; [ $(left) -gt 25 ] || return; timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for e in pp64 stagedpp64; do for tool in racecheck memcheck synccheck; do
  CUTE_RS_FP8_BLOCK=$e san $tool gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check; done; done
t end
