#!/usr/bin/env bash
# (session 30, lead) Head dim 128 non-causal at 4k … 16k keys: the default rule (128 × 176 from 8k) against
# CUTE_RS_ATTENTION=overlap (the 128 × 128 tile, on 32-bit bases with the clean loop since this session), alternated,
# python/bench_attention.py (ours / cuDNN / FA2 in one process), three rounds.   Package: $D/host.xz, $D/native.xz.
#   D=.gpu/s30g NAME=s30h bash tools/gpu/attention/d128-tile-rule.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s30h}
unset CUTE_RS_PTX_DIR
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2 3; do for v in default overlap; do [ $(left) -gt 25 ] || break
  if [ $v = overlap ]; then export CUTE_RS_ATTENTION=overlap; else unset CUTE_RS_ATTENTION; fi
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --head-dims 128 --masks none \
    --seqlens 4096,8192,16384 > $R/b-$i-$v.txt 2>&1); t "bench_attention.py $v round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$v.txt | tee -a $S; done; done
unset CUTE_RS_ATTENTION; t end
