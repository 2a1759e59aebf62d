#!/usr/bin/env bash
# (session 31) The closing call on the final tree's attention (the causal order by head, ORDER_M_FASTEST up to 32
# m-blocks; since run s31h also d256's 128 × 80 on FastDivmods and d64 causal on 128 rows to 4k queries): `host run --only attention` at two unseen seeds, memcheck / racecheck / synccheck on causal shapes that take
# the new order (and one that does not), python/bench_attention.py's whole table, two rounds. The attention module from
# $D/attention.ptx.xz, the other families stubs (so the driver JITs one module).
# (Run s31e also sanitized d128 causal 4500 × 4500, b1 h2: 41 s of racecheck.)
#          D=.gpu/s31h NAME=s31h bash tools/gpu/closing/attention-causal-order.sh   Package: host.xz, native.xz, attention.ptx.xz, stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s31e}
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
for seed in 3110 3111; do
  full run --only attention --seed $seed > $R/ra.txt 2>&1; t "C host run --only attention --seed $seed rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
  grep -E 'FAIL|sweep' $R/ra.txt | head -3 | cut -c1-200 | tee -a $S; done
for s in "--batch 2 --heads 2 --seqlen-q 1000 --seqlen-k 1000 --head-dim 128 --causal top-left" \
  "--batch 1 --heads 4 --heads-kv 2 --seqlen-q 900 --seqlen-k 700 --head-dim 256 --causal bottom-right --dtype f16" \
  "--batch 2 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 64 --causal top-left" \
  "--batch 1 --heads 2 --seqlen-q 2500 --seqlen-k 2500 --head-dim 64 --causal top-left" \
  "--batch 1 --heads 2 --seqlen-q 2100 --seqlen-k 2300 --head-dim 256 --causal bottom-right"; do
  for tool in memcheck racecheck synccheck; do
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H attention $s --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2; do [ $(left) -gt 80 ] || break
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 > $R/b-$i.txt 2>&1)
  t "bench_attention.py round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i.txt | tee -a $S; done
t end
