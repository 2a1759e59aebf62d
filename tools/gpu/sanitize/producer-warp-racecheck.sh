#!/usr/bin/env bash
# (session 21, lead) racecheck's two hazards on the bf16 GEMM (call 2, 520x1000x1040 TN): main's PTX and the branch's
# (cut modules, one host) under racecheck on that shape and others, every log kept.   D=.gpu/s21a bash tools/gpu/sanitize/producer-warp-racecheck.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s21c
for v in main new; do mkdir -p /tmp/p21$v; cp $P/*.ptx /tmp/p21$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p21$v/$f.ptx; done; done
n=0
san() { local v=$1; shift; n=$((n+1)); timeout 150 compute-sanitizer --tool racecheck --print-limit 20 env CUTE_RS_PTX_DIR=/tmp/p21$v $H "$@" > $R/race-$n-$v.txt 2>&1 < /dev/null
  t "S $n $v racecheck $* rc=$? $(grep -E 'RACECHECK SUMMARY' $R/race-$n-$v.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/race-$n-$v.txt | head -1)"; }
for s in "gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040" "gemm --ta --dtype bf16 --m 1024 --n 1024 --k 1024" "gemm --dtype bf16 --m 520 --n 1000 --k 1040" \
  "gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040 --bias m --act gelu"; do
  for v in main new; do [ $(left) -gt 30 ] && san $v $s --check; done; done
t end
