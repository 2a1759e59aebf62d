#!/usr/bin/env bash
# (session 22, lead) The first loads from the prologue, checked and measured: the branch's host with its embedded modules
# (every entry) for `host run --only hgemm` at an unseen seed, the FP8 sweep and the sanitizers; then main / new cut
# hgemm modules alternated: ncu kernel times on small shapes, `--bench` rounds.     D=.gpu/s22c bash tools/gpu/gemm/prologue-first-loads-check.sh
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh s22c
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
unset CUTE_RS_PTX_DIR
full() { timeout 200 $H "$@" < /dev/null; }
full run --only hgemm --seed 2201 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2201 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep -E "FAIL" $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
grep FAIL $R/f8.txt | head -3 | cut -c1-250 | tee -a $S
c() { full "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; }
c gemm --dtype e4m3 --m 1 --n 7168 --k 4096
c gemm --dtype e4m3 --m 256 --n 7168 --k 4096
c gemm --ta --dtype bf16 --m 64 --n 64 --k 16
c gemm --ta --dtype bf16 --m 3000 --n 2000 --k 1000 --bias n --act gelu
san() { local tool=$1; shift; timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in memcheck racecheck synccheck; do
  san $tool gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040 --check
  san $tool gemm --dtype e4m3 --m 128 --n 2048 --k 8192 --check
  san $tool gemm --dtype e4m3 --m 300 --n 400 --k 528 --block-scales --check; done
M="--metrics gpu__time_duration.sum"
for s in "--dtype e4m3 --m 128 --n 128 --k 128" "--dtype e4m3 --m 128 --n 7168 --k 2048" "--ta --dtype bf16 --m 2048" "--ta --dtype bf16 --m 128 --n 256 --k 128"; do
  for v in main new main new; do [ $(left) -gt 200 ] || break
    CUTE_RS_PTX_DIR=/tmp/pv$v timeout 60 ncu --clock-control none -k regex:"gemm_fp8|hgemm" --launch-skip 4 --launch-count 5 --print-summary per-kernel $M $H gemm $s --bench > $R/n.txt 2>&1
    t "N $v | $s | $(grep -E 'gpu__time' $R/n.txt | tr -s ' ' | cut -c1-80)"; done; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 150 $H "$@" < /dev/null; }
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--ta --dtype bf16 --m 2048" "--dtype e4m3 --m 4096" "--ta --dtype bf16 --m 4096" "--dtype e4m3 --m 128 --n 7168 --k 16384" \
  "--dtype bf16 --m 4096" "--dtype e4m3 --m 8192" "--ta --dtype bf16 --m 8192" "--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; do
  for v in main new; do [ $(left) -gt 25 ] || break; g $v $s; done; done; done
t end
