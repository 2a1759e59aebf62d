#!/usr/bin/env bash
# (session 23, lead) Programmatic dependent launch: the branch's release host (every module embedded) with CUTE_RS_PDL=0
# (serial launches, as before) and 1 (the default) alternated in `--bench` rounds — the same binary and PTX, only the
# launch attribute differs (griddepcontrol is a no-op without it) —, then its checks with PDL on.
# Package: $D/host.xz only.                                              D=.gpu/s23a bash tools/gpu/gemm/pdl-ab.sh
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s23a}
unset CUTE_RS_PTX_DIR
full() { timeout 200 $H "$@" < /dev/null; }
g() { local p=$1; shift; CUTE_RS_PDL=$p timeout 120 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B pdl=$p rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-170 | tr '\n' '|')"; }
a() { local p=$1; shift; CUTE_RS_PDL=$p timeout 120 $H attention "$@" --bench > $R/a.txt 2>&1 < /dev/null
  t "A pdl=$p rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-170 | tr '\n' '|')"; }
round() {
  for s in "--dtype e4m3 --m 128 --n 7168 --k 16384" "--ta --dtype bf16 --m 2048" "--dtype e4m3 --m 128 --n 7168 --k 2048" \
    "--ta --dtype bf16 --m 4096" "--dtype e4m3 --m 4096" "--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; do
    for p in 0 1; do [ $(left) -gt $1 ] || return; g $p $s; done; done
  for s in "--batch 32 --heads 16 --seqlen-q 512 --head-dim 128" "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128"; do
    for p in 0 1; do [ $(left) -gt $1 ] || return; a $p $s; done; done
}
round 330; round 260
full run --only hgemm --seed 2301 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2301 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep -E "FAIL" $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
full run --only attention --seed 2302 > $R/ra.txt 2>&1; t "C host run --only attention --seed 2302 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
c() { full "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; }
c gemm --dtype e4m3 --m 128 --n 7168 --k 16384
c gemm --ta --dtype bf16 --m 3000 --n 2000 --k 1000 --bias n --act gelu
c attention --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 128 --n 2048 --k 8192 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
round 20
t end
