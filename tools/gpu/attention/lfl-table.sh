#!/usr/bin/env bash
# (session 30, lead) Attention like for like (python/bench_attention.py: ours, cuDNN, FA2 alternated in one process) on the
# session's final attention module (through CUTE_RS_PTX_DIR): every head dim, 512 … 16k keys, both masks, two rounds; then
# head dim 128 non-causal at 1k … 8k with the default tile rule against CUTE_RS_ATTENTION=n176 (the 176-key tile forced),
# alternated, three rounds.
# Package: $D/host.xz, $D/native.xz, $D/final/attention.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s30d bash tools/gpu/attention/lfl-table.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s30d}
x $D/final/attention.ptx.xz $P/attention.ptx
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
b() { local tag=$1; shift; (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py "$@" > $R/b-$tag.txt 2>&1)
  t "bench_attention.py $tag rc=$? | $*"; grep -E '^ +[0-9]' $R/b-$tag.txt | tee -a $S; }
for i in 1 2; do [ $(left) -gt 120 ] && b table$i; done
for i in 1 2 3; do for v in default n176; do [ $(left) -gt 40 ] || break
  if [ $v = n176 ]; then export CUTE_RS_ATTENTION=n176; else unset CUTE_RS_ATTENTION; fi
  b $v$i --head-dims 128 --masks none --seqlens 1024,2048,4096,8192; done; done
unset CUTE_RS_ATTENTION
t end
