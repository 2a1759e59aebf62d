#!/usr/bin/env bash
# (session 30, lead) Head dim 128's 128 × 128 tile addressing shared memory from 32-bit bases (`SharedBase`, as d256's)
# with the clean key loop (`CLEAN_LOOP`; on `SharedBase` alone ptxas spilled 8 bytes): checks of that module's d128
# entries, then like for like (python/bench_attention.py, ours / cuDNN / FA2 in one process) with main's module and it
# alternated through CUTE_RS_PTX_DIR, head dim 128, both masks, three rounds.
# Package: $D/host.xz, $D/native.xz, $D/{main,new}/attention.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s30e bash tools/gpu/attention/d128-shared-base.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s30e}
for v in main new; do mkdir -p /tmp/pa$v; cp $P/*.ptx /tmp/pa$v/; x $D/$v/attention.ptx.xz /tmp/pa$v/attention.ptx; done
export CUTE_RS_PTX_DIR=/tmp/panew
full() { timeout 200 $H "$@" < /dev/null; }
c() { full attention "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
c --batch 1 --heads 2 --seqlen-q 3001 --head-dim 128 --causal top-left
c --batch 1 --heads 2 --seqlen-q 2500 --seqlen-k 1700 --head-dim 128 --causal bottom-right --dtype f16
c --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 5000 --head-dim 128 --heads-kv 1
full run --only attention --seed 3005 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3005 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
timeout 90 compute-sanitizer --tool racecheck --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 128 --causal top-left --check > $R/san.txt 2>&1 < /dev/null
t "S racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2 3; do for v in main new; do [ $(left) -gt 40 ] || break
  (cd /tmp/py && CUTE_RS_PTX_DIR=/tmp/pa$v PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --head-dims 128 \
    --seqlens 512,1024,2048,4096 > $R/b-$i-$v.txt 2>&1); t "bench_attention.py $v round $i rc=$?"
  grep -E '^ +[0-9]' $R/b-$i-$v.txt | tee -a $S; done; done
t end
