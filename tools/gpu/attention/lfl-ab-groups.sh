#!/usr/bin/env bash
# (session 32, lead) Attention modules, variants and settings A/B like for like in groups: for each group G of $SETS (not GROUPS: a bash variable),
# python/bench_attention.py (ours / cuDNN in one process) with the arguments $ARGS_G for each spec of $SPECS_G, alternated,
# $ROUNDS_G rounds (default 2). A spec is LABEL:MODULE[:VAR=value] (MODULE a folder of $D holding attention.ptx.xz, given
# as CUTE_RS_PTX_DIR; the variable set for that spec's runs only, e.g. CUTE_RS_ATTENTION=qr). No checks: the measuring
# variants are not shipped; a candidate module is checked by tools/gpu/attention/lfl-specs-ab.sh or the final call.
# Package: $D/host.xz, $D/native.xz, $D/<module>/attention.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s32c NAME=s32c SETS="A B" ARGS_A="--head-dims 128 --masks none --seqlens 2048" SPECS_A="base:new qr:m:CUTE_RS_ATTENTION=qr" \
#     ARGS_B="..." SPECS_B="..." bash tools/gpu/attention/lfl-ab-groups.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s32c}
mods=$(for g in $SETS; do v=SPECS_$g; for s in ${!v}; do echo $s | cut -d: -f2; done; done | sort -u)
for m in $mods; do mkdir -p /tmp/pa$m; cp $P/*.ptx /tmp/pa$m/; x $D/$m/attention.ptx.xz /tmp/pa$m/attention.ptx; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for g in $SETS; do a=ARGS_$g; sp=SPECS_$g; r=ROUNDS_$g; for i in $(seq ${!r:-2}); do for s in ${!sp}; do
  [ $(left) -gt 30 ] || break
  l=$(echo $s | cut -d: -f1); m=$(echo $s | cut -d: -f2); e=$(echo $s | cut -d: -f3); e=${e:-X=1}
  (cd /tmp/py && env $e CUTE_RS_PTX_DIR=/tmp/pa$m PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py ${!a} > $R/b-$g-$i-$l.txt 2>&1)
  t "$g $l round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$g-$i-$l.txt | sed "s/^/$l /" | tee -a $S; done; done; done
t end
