#!/usr/bin/env bash
# (session 24, lead) The tree with the epilogue's new store waits: its release host, every module embedded: the hgemm
# module's JIT, the whole `host bench gemm --json` table, `host run --only hgemm` at an unseen seed, the FP8 sweep; then
# main's FP8 entries (cut) against the new module (the embedded one's text, through CUTE_RS_PTX_DIR) alternated on the
# FP8 bench shapes, then the sanitizers.   Package: $D/host.xz, $D/{main,new}/hgemm.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s24d bash tools/gpu/closing/epilogue-store-waits.sh       (the new module: target/release/build/cute-rs-*/out/sm_90a-hgemm.ptx)
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s24d}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
TO=260 full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
full run --only hgemm --seed 2403 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2403 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
# the A/B: main's FP8 entries, and the new module as embedded
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2; do for s in "--m 4096" "--m 8192" "--m 4096 --n 7168 --k 16384" "--m 4096 --n 2112 --k 7168" "--m 128 --n 7168 --k 16384" \
  "--m 4096 --block-scales" "--m 4096 --n 7168 --k 16384 --block-scales"; do
  for v in main new; do [ $(left) -gt 100 ] || break; g $v --dtype e4m3 $s; done; done; done
san() { local tool=$1; shift; [ $(left) -gt 25 ] || return; timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in racecheck memcheck synccheck; do
  san $tool gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040 --check
  san $tool gemm --dtype e4m3 --m 300 --n 400 --k 528 --block-scales --check; done
t end
