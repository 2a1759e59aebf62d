#!/usr/bin/env bash
# (session 30) The last call, after d64's 192-row tile moved to 32-bit bases (every module embedded): `host run --only
# attention` at an unseen seed, the sanitizers on the 192-row tile (forced: CUTE_RS_ATTENTION=wg3), and
# python/bench_attention.py's head dim 64 row (512 … 16k keys, both masks), two rounds.
#          D=.gpu/s30j bash tools/gpu/closing/attention-d64-shared-base.sh       Package: $D/host.xz, $D/native.xz.
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s30j}
unset CUTE_RS_PTX_DIR
timeout 150 $H run --only attention --seed 3012 > $R/ra.txt 2>&1 < /dev/null; t "C host run --only attention --seed 3012 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep FAIL $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for s in "--seqlen-q 2100 --seqlen-k 1900 --head-dim 64" "--seqlen-q 2500 --head-dim 64 --causal bottom-right --dtype f16"; do
  for tool in memcheck racecheck synccheck; do
    CUTE_RS_ATTENTION=wg3 timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 $s --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | wg3 $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2; do [ $(left) -gt 40 ] || break
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --head-dims 64 --seqlens 512,1024,2048,4096,8192,16384 > $R/b-$i.txt 2>&1)
  t "bench_attention.py round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i.txt | tee -a $S; done
t end
