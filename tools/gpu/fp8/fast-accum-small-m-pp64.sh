#!/usr/bin/env bash
# (session 25, lead) Fast accumulation on the small-M tile (`gemm_fp8_{e4m3,e5m2}_tn_fast_pp64`, taken where the 128×256
# fast tiles would split over k-ranges and the 64×128 ones fill a wave): `--fast-accum --check` on shapes the rule sends
# there, the FP8 sweep, the sanitizers, then run s25b's host (128×256 split-K) against this one alternated on the small-M
# shapes (each host with its embedded modules), and the whole `host bench gemm` table if time is left.
# Package: $D/host.xz (new), $D/old.xz (run s25b's).      D=.gpu/s25c bash tools/gpu/fp8/fast-accum-small-m-pp64.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s25c}
unset CUTE_RS_PTX_DIR
x $D/old.xz /tmp/old-s25c && chmod +x /tmp/old-s25c; OLD=/tmp/old-s25c
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --fast-accum --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for s in "e4m3 65 3000 4096" "e4m3 1 7168 4096" "e4m3 256 4096 1024" "e4m3 200 2112 1024" "e5m2 128 7168 2048" "e5m2 64 4104 512" "e4m3 64 4104 512"; do
  set -- $s; full gemm --dtype $1 --fast-accum --m $2 --n $3 --k $4 --check > $R/c.txt 2>&1
  t "check fast $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
san() { local tool=$1; shift; [ $(left) -gt 25 ] || return; timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in racecheck memcheck synccheck; do san $tool gemm --dtype e4m3 --fast-accum --m 128 --n 7168 --k 1024 --check; done
g() { local tag=$1 h=$2; local dir=; [ $h = $OLD ] && dir=$P; CUTE_RS_PTX_DIR=$dir timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "e4m3 128 7168 16384" "e4m3 64 7168 16384" "e4m3 128 7168 4096" "e4m3 256 4096 8192" "e4m3 128 2112 7168" "e5m2 128 7168 16384"; do
    set -- $s; GARGS="--dtype $1 --fast-accum --m $2 --n $3 --k $4"; [ $(left) -gt 15 ] || break
    g old $OLD; g new $H; done; done
[ $(left) -gt 200 ] && { TO=$(( $(left) - 10 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"; cp $R/bench-gemm.json $OUT/ 2>/dev/null; }
t end
