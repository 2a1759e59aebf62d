#!/usr/bin/env bash
# (session 18, lead) The merged tree's check (the scheduler's parameters on the host, the epilogue's staging addresses
# from the region's symbol): R host run --only hgemm (fixed cases, errors, 300-problem sweep) at an unseen seed, the FP8
# sweep, host run --only attention; S memcheck / racecheck / synccheck on a cluster TMA shape, the stream-K tail, K = 0,
# FP8 split-K and per-tensor; P host bench gemm. Package (D, default .gpu/s18f): host.xz (the release host), stub.ptx +
# stub-families.txt (empty: every family embedded).      D=.gpu/s18f bash tools/gpu/closing/scheduler-params-on-host.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s18f
timeout 200 $H run --only hgemm --seed 1830 > $R/hg.txt 2>&1 < /dev/null
t "R host run --only hgemm --seed 1830 rc=$? $(grep -E 'passed|failed' $R/hg.txt | tail -1)"; grep FAIL $R/hg.txt | head -3 | cut -c1-200 | tee -a $S
timeout 90 $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null
t "R FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"; grep FAIL $R/f8.txt | head -3 | cut -c1-200 | tee -a $S
timeout 120 $H run --only attention --seed 1830 > $R/at.txt 2>&1 < /dev/null
t "R host run --only attention --seed 1830 rc=$? $(grep -E 'passed|failed' $R/at.txt | tail -1)"; grep FAIL $R/at.txt | head -3 | cut -c1-200 | tee -a $S
san() { local tool=$1; shift
  timeout 60 compute-sanitizer --tool $tool $H "$@" --check > $R/s.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $* | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1) $(grep -E 'Race reported' $R/s.txt | grep -vc nvjet) of ours"; }
for tool in memcheck racecheck synccheck; do san $tool gemm --ta --dtype bf16 --m 600 --n 520 --k 700; done
for tool in memcheck racecheck; do san $tool gemm --ta --dtype bf16 --m 17152 --n 256 --k 2112; done
san memcheck gemm --dtype bf16 --m 300 --n 260 --k 0 --beta 1
for tool in memcheck racecheck; do san $tool gemm --dtype e4m3 --m 128 --n 2048 --k 8192; done
san memcheck gemm --dtype e4m3 --m 1000 --n 1030 --k 1024
b=$(( $(left) - 10 )); [ $b -gt 150 ] && b=150
timeout $b $H bench gemm > $R/bg.txt 2>&1 < /dev/null; t "P host bench gemm rc=$?"
grep -E "x[0-9]|TFLOP" $R/bg.txt | sed -E 's/ +/ /g' | cut -c1-160 | tee -a $S
t end
