#!/usr/bin/env bash
# (session 23, lead) python/bench_attention.py (ours, cuDNN, FA2 alternated in one process) with CUTE_RS_PDL=0 and the
# default (programmatic launches) alternated, two rounds each: what programmatic launches change like for like.
#   D=.gpu/s23d bash tools/gpu/attention/lfl-pdl-ab.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s23f}
unset CUTE_RS_PTX_DIR
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2; do for p in 0 1; do [ $(left) -gt 40 ] || break
  (cd /tmp/py && CUTE_RS_PDL=$p PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --seqlens 512,1024,2048,8192 \
    > $R/b-$i-$p.txt 2>&1); t "bench_attention.py pdl=$p round $i rc=$?"
  grep -E '^ +[0-9]' $R/b-$i-$p.txt | tee -a $S; done; done
t end
