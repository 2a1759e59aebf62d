#!/usr/bin/env bash
# (session 32, lead) The measuring variants again on today's tiles, like for like: python/bench_attention.py (ours /
# cuDNN in one process) under CUTE_RS_ATTENTION=<variant> for each of $V128 at head dim 128 ($A128) and $V64 at head
# dim 64 ($A64), alternated, $ROUNDS rounds; `base` is the default tile choice. One cut module ($D/m/attention.ptx.xz:
# the default entries and the variants', `measure` build), the other families stubs.
# Package: $D/host.xz, $D/native.xz, $D/m/attention.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s32a NAME=s32a bash tools/gpu/attention/measuring-variants-lfl.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s32a}
ROUNDS=${ROUNDS:-2}
V128=${V128:-base overlap nb pingpong q2 qr r240 stages3 stages3split tree split fa3 rsb splitnb}
V64=${V64:-base overlap nb pingpong q2 tree stages3}
A128=${A128:---head-dims 128 --masks none --seqlens 512,1024,2048,4096,8192 --backends ours,cudnn}
A64=${A64:---head-dims 64 --masks causal --seqlens 512,1024 --backends ours,cudnn}
x $D/m/attention.ptx.xz $P/attention.ptx
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
one() { local d=$1 v=$2 i=$3; shift 3; local e=CUTE_RS_ATTENTION=$v; [ $v = base ] && e=X=1
  (cd /tmp/py && env $e PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py "$@" > $R/b-$d-$v-$i.txt 2>&1)
  t "d$d $v round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$d-$v-$i.txt | sed "s/^/$v /" | tee -a $S; }
for i in $(seq $ROUNDS); do
  for v in $V128; do [ $(left) -gt 30 ] || break; one 128 $v $i $A128; done
  for v in $V64; do [ $(left) -gt 30 ] || break; one 64 $v $i $A64; done; done
t end
