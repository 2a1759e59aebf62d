#!/usr/bin/env bash
# (session 31, lead) Attention modules and settings A/B like for like: python/bench_attention.py (ours / cuDNN / FA2 in
# one process) for each spec of $SPECS, alternated, $ROUNDS rounds (default 3), the bench's arguments in $ARGS. A spec
# is LABEL:MODULE[:VAR=value], MODULE a folder of $D holding attention.ptx.xz (CUTE_RS_PTX_DIR), the variable set for
# that spec's runs only (e.g. CUTE_RS_ATTENTION=n176). First each module but `base`: --check on $CHECKS head dims' GQA /
# causal shapes (with $CHECK_ENV set) and `host run --only attention --seed 3106`.
# Package: $D/host.xz, $D/native.xz, $D/<module>/attention.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s31a SPECS="base:base n176:n176 f176:n176:CUTE_RS_ATTENTION=n176" ARGS="--head-dims 128 --masks none" \
#     CHECKS=128 CHECK_ENV=CUTE_RS_ATTENTION=n176 bash tools/gpu/attention/lfl-specs-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s31a}
ROUNDS=${ROUNDS:-3}; CHECKS=${CHECKS:-128}
mods=$(for s in $SPECS; do echo $s | cut -d: -f2; done | sort -u)
for m in $mods; do mkdir -p /tmp/pa$m; cp $P/*.ptx /tmp/pa$m/; x $D/$m/attention.ptx.xz /tmp/pa$m/attention.ptx; done
for m in $mods; do [ $m = base ] && continue; for d in $CHECKS; do
  for s in "--batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --heads-kv 2" "--batch 1 --heads 2 --seqlen-q 1501 --causal top-left" \
    "--batch 1 --heads 2 --seqlen-q 900 --seqlen-k 700 --causal bottom-right --dtype f16" "--batch 1 --heads 2 --seqlen-q 333 --seqlen-k 9000"; do
    env ${CHECK_ENV:-X=1} CUTE_RS_PTX_DIR=/tmp/pa$m timeout 100 $H attention $s --head-dim $d --check > $R/c.txt 2>&1 < /dev/null
    t "C $m rc=$? | $s --head-dim $d | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done; done
  CUTE_RS_PTX_DIR=/tmp/pa$m timeout 100 $H run --only attention --seed 3106 > $R/ra.txt 2>&1 < /dev/null
  t "C $m host run --only attention --seed 3106 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in $(seq $ROUNDS); do for s in $SPECS; do [ $(left) -gt 30 ] || break
  l=$(echo $s | cut -d: -f1); m=$(echo $s | cut -d: -f2); e=$(echo $s | cut -d: -f3); e=${e:-X=1}
  (cd /tmp/py && env $e CUTE_RS_PTX_DIR=/tmp/pa$m PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py $ARGS > $R/b-$i-$l.txt 2>&1)
  t "bench_attention.py $l round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$l.txt | sed "s/^/$l /" | tee -a $S; done; done
t end
