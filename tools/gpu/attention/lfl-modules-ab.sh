#!/usr/bin/env bash
# (session 30, lead) Attention modules A/B like for like: python/bench_attention.py (ours / cuDNN / FA2 in one process) with
# each module of $V (default "base v5 v4") through CUTE_RS_PTX_DIR, alternated, $ROUNDS rounds (default 3), the bench's
# arguments in $ARGS; first --check of each non-base module on $CHECKS head dims' GQA / causal shapes (with the variables
# of $CHECK_ENV set, e.g. CUTE_RS_ATTENTION=wg3 to force the 192-row tile).
# Package: $D/host.xz, $D/native.xz, $D/<v>/attention.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s30f V="base v5 v4" ARGS="--head-dims 64 --seqlens 512,1024,2048" bash tools/gpu/attention/lfl-modules-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s30f}
V=${V:-base v5 v4}; ROUNDS=${ROUNDS:-3}; ARGS=${ARGS:---head-dims 64 --seqlens 512,1024,2048}; CHECKS=${CHECKS:-64}
for v in $V; do mkdir -p /tmp/pa$v; cp $P/*.ptx /tmp/pa$v/; x $D/$v/attention.ptx.xz /tmp/pa$v/attention.ptx; done
for v in $V; do [ $v = base ] && continue; for d in $CHECKS; do
  for s in "--batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --heads-kv 2" "--batch 1 --heads 2 --seqlen-q 1501 --causal top-left" \
    "--batch 1 --heads 2 --seqlen-q 900 --seqlen-k 700 --causal bottom-right --dtype f16"; do
    env ${CHECK_ENV:-X=1} CUTE_RS_PTX_DIR=/tmp/pa$v timeout 100 $H attention $s --head-dim $d --check > $R/c.txt 2>&1 < /dev/null
    t "C $v rc=$? | $s --head-dim $d | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done; done
  CUTE_RS_PTX_DIR=/tmp/pa$v timeout 100 $H run --only attention --seed 3006 > $R/ra.txt 2>&1 < /dev/null
  t "C $v host run --only attention --seed 3006 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in $(seq $ROUNDS); do for v in $V; do [ $(left) -gt 30 ] || break
  (cd /tmp/py && CUTE_RS_PTX_DIR=/tmp/pa$v PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py $ARGS > $R/b-$i-$v.txt 2>&1)
  t "bench_attention.py $v round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$v.txt | tee -a $S; done; done
t end
