#!/usr/bin/env bash
# (session 34, lead) tools/gpu/attention/lfl-ab-groups.sh with the specs' order rotated each round (round i starts at spec i), so
# that no spec always runs first or after the same one, and an optional correctness prelude ($CHECK=1: host run --only
# attention at seed $SEED, `host attention ARGS --check` for each ARGS of $CHECKS and memcheck / racecheck / synccheck of
# each of $SAN, both separated by ';'). Specs as there: LABEL:MODULE[:VAR=value].
#   D=.gpu/s34a NAME=s34a SETS="A" ARGS_A="--head-dims 128 --masks none --seqlens 2048" \
#     SPECS_A="on:br off:br:CUTE_RS_ATTENTION_STREAMK=0 base:base:CUTE_RS_ATTENTION_STREAMK=0" ROUNDS_A=3 bash tools/gpu/attention/lfl-ab-rotated.sh
# Package: $D/host.xz, $D/native.xz, $D/<module>/attention.ptx.xz [+ native.xz], stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-480}; [ -n "${GPU_NAME:-}" ] || . tools/gpu/lib.sh ${NAME:-s34a}
if [ "${CHECK:-0}" = 1 ]; then
  timeout 150 $H run --only attention --seed ${SEED:-3401} > $R/ra.txt 2>&1 < /dev/null
  t "C host run --only attention --seed ${SEED:-3401} rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
  grep -E 'FAIL' $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
  IFS=';' read -ra cs <<< "${CHECKS:-}"
  for s in "${cs[@]}"; do timeout 120 $H attention $s --check > $R/c.txt 2>&1 < /dev/null
    t "C rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
  IFS=';' read -ra ss <<< "${SAN:-}"; san "${ss[@]}"
fi
mods=$(for g in $SETS; do v=SPECS_$g; for s in ${!v}; do echo $s | cut -d: -f2; done; done | sort -u)
# a module folder with its own native.xz runs on that library (e.g. main's host and module against a branch's)
for m in $mods; do mkdir -p /tmp/pa$m /tmp/py$m/cute_rs; cp $P/*.ptx /tmp/pa$m/; x $D/$m/attention.ptx.xz /tmp/pa$m/attention.ptx
  cp python/cute_rs/*.py /tmp/py$m/cute_rs/ && cp python/bench_attention.py /tmp/py$m/
  if [ -e $D/$m/native.xz ]; then x $D/$m/native.xz /tmp/py$m/cute_rs/_native.abi3.so; else x $D/native.xz /tmp/py$m/cute_rs/_native.abi3.so; fi; done
for g in $SETS; do a=ARGS_$g; sp=SPECS_$g; r=ROUNDS_$g; read -ra specs <<< "${!sp}"; n=${#specs[@]}
  for i in $(seq ${!r:-2}); do for j in $(seq 0 $(( n - 1 ))); do s=${specs[$(( (i - 1 + j) % n ))]}
    [ $(left) -gt 30 ] || break
    l=$(echo $s | cut -d: -f1); m=$(echo $s | cut -d: -f2); e=$(echo $s | cut -d: -f3); e=${e:-X=1}
    (cd /tmp/py$m && env $e CUTE_RS_PTX_DIR=/tmp/pa$m PYTHONPATH=/tmp/py$m timeout $(( $(left) - 10 )) python3 bench_attention.py ${!a} > $R/b-$g-$i-$l.txt 2>&1)
    t "$g $l round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$g-$i-$l.txt | sed "s/^/$l /" | tee -a $S; done; done; done
t end
