#!/usr/bin/env bash
# (session 30, lead) Head dim 256's key loop in two loops (`AttnTiles::CLEAN_LOOP`): checks of the new module's d256 entries
# (--check, host run --only attention at an unseen seed, the sanitizers on a d256 causal problem), then like for like:
# python/bench_attention.py (ours, cuDNN, FA2 alternated in one process) with main's and the new attention module through
# CUTE_RS_PTX_DIR, alternated, three rounds each — head dims 128 (the same PTX in both: the harness's spread) and 256.
# Package: $D/host.xz, $D/native.xz (the release lib_native.so), $D/{main,new}/attention.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s30c NAME=s30c bash tools/gpu/attention/d256-clean-loop-lfl.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s30c}
for v in main new; do mkdir -p /tmp/pa$v; cp $P/*.ptx /tmp/pa$v/; x $D/$v/attention.ptx.xz /tmp/pa$v/attention.ptx; done
export CUTE_RS_PTX_DIR=/tmp/panew
full() { timeout 200 $H "$@" < /dev/null; }
c() { full attention "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 256 --heads-kv 2
c --batch 1 --heads 2 --seqlen-q 3001 --head-dim 256 --causal top-left
c --batch 1 --heads 2 --seqlen-q 2500 --seqlen-k 1700 --head-dim 256 --causal bottom-right
c --batch 2 --heads 2 --seqlen-q 1000 --head-dim 256 --dtype f16 --causal top-left
c --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 8200 --head-dim 256 --heads-kv 1
c --batch 2 --heads 4 --seqlen-q 4096 --head-dim 256 --dtype f16
full run --only attention --seed 3003 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3003 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 256 --causal top-left --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2 3; do for v in main new; do [ $(left) -gt 60 ] || break
  (cd /tmp/py && CUTE_RS_PTX_DIR=/tmp/pa$v PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --head-dims 128,256 \
    --seqlens 512,1024,2048,4096,8192,16384 > $R/b-$i-$v.txt 2>&1); t "bench_attention.py $v round $i rc=$?"
  grep -E '^ +[0-9]' $R/b-$i-$v.txt | tee -a $S; done; done
t end
