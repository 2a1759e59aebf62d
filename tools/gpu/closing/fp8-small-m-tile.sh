#!/usr/bin/env bash
# (session 25, lead) The tree with the small-M FP8 tile (64×128 ping-pong, `Fp8PromotedTile::for_problem` picks it): its
# release host, every module embedded: the hgemm module's JIT, the whole `host bench gemm --json` table, the FP8 sweep,
# `host run --only hgemm` at an unseen seed, the sanitizers on the new entry (one wave, and two rounds a CTA with the
# consumers alternating), then a third round of the small-M A/B (the old rule's 128×128 split-K forced by
# CUTE_RS_FP8_PROMOTED=n128tma6).   Package: $D/host.xz.     D=.gpu/s25b bash tools/gpu/closing/fp8-small-m-tile.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s25b}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
TO=280 full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
full run --only hgemm --seed 2501 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2501 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
san() { local tool=$1; shift; [ $(left) -gt 25 ] || return; timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in racecheck memcheck synccheck; do
  san $tool gemm --dtype e4m3 --m 128 --n 7168 --k 1024 --check
  CUTE_RS_FP8_PROMOTED=pp64 san $tool gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --check; done
for s in "128 7168 16384" "64 7168 16384" "128 7168 4096" "256 4096 8192" "128 2112 7168" "128 4096 8192"; do
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; [ $(left) -gt 15 ] || break
  g new X=1; g old CUTE_RS_FP8_PROMOTED=$([ $1 -gt 64 ] && echo n128tma6 || echo n192tma); done
t end
