#!/usr/bin/env bash
# (session 29, lead) The 16-bit GEMM's small-M rules, checked and measured: the 64×128 ping-pong entries of every
# majority (`HgemmSchedule::Pingpong64` where `Fp8PromotedTile::pp64_replaces_split_k`) and clusters of 2 only where
# they add no wave (`ClusterPairs::WithinWaves`); first the racecheck report of run s29s's split-K hazards in full.
# Package: $D/host.xz (the release host, every module embedded).       D=.gpu/s29d bash tools/gpu/gemm/small-m-rules.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s29d}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-120} $H "$@" < /dev/null; }
c() { full "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1) $(grep -Eo 'hgemm [0-9x]+ tma[^|]*' $R/c.txt | head -1)"; }
TO=200 c gemm --ta --dtype bf16 --m 128 --n 7168 --k 8192
san() { local tag=$1 tool=$2; shift 2; timeout 90 compute-sanitizer --tool $tool --print-limit 12 $H "$@" > $R/san-$tag.txt 2>&1 < /dev/null
  t "S $tag $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tag.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tag.txt | head -1)"
  head -c 20000 $R/san-$tag.txt > $OUT/san-$tag.txt; }
CUTE_RS_HGEMM_SCHEDULE=cooperative san sk racecheck gemm --ta --dtype bf16 --m 128 --n 1024 --k 4096 --check
CUTE_RS_HGEMM_SCHEDULE=cooperative CUTE_RS_HGEMM_STREAMK=0 san dp racecheck gemm --ta --dtype bf16 --m 128 --n 1024 --k 4096 --check
san f8 racecheck gemm --dtype e4m3 --fast-accum --m 64 --n 1024 --k 8192 --check
full run --only hgemm --seed 2901 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2901 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep FAIL $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
c gemm --dtype bf16 --m 128 --n 7168 --k 8192
c gemm --tb --dtype f16 --m 100 --n 3000 --k 5000
c gemm --ta --tb --dtype bf16 --m 77 --n 1000 --k 3000 --beta 0.5
c gemm --dtype f16 --m 200 --n 4096 --k 520
c gemm --ta --dtype bf16 --m 1152 --n 7168 --k 4096
c gemm --dtype bf16 --m 384 --n 11264 --k 1032 --beta 0.5
for tool in memcheck racecheck synccheck; do san pp$tool $tool gemm --dtype bf16 --m 130 --n 2000 --k 1024 --check; done
OLD="CUTE_RS_HGEMM_SCHEDULE=cooperative CUTE_RS_HGEMM_CLUSTER=2"
for i in 1 2; do for s in "--dtype bf16 --m 128 --n 7168 --k 8192" "--tb --dtype f16 --m 128 --n 4096 --k 4096" "--ta --tb --dtype bf16 --m 256 --n 4096 --k 8192" \
  "--dtype bf16 --m 64 --n 7168 --k 8192" "--ta --dtype bf16 --m 1152 --n 7168 --k 4096" "--dtype bf16 --m 384 --n 11264 --k 4096" "--ta --dtype bf16 --m 640 --n 6656 --k 8192"; do
  [ $(left) -gt 20 ] || break; GARGS="$s"; g old $OLD; g new X=1; done; done
t end
