#!/usr/bin/env bash
# (session 23, lead) Attention like for like with programmatic launches: the tree's release host and lib_native.so
# (sm_90a): `host run --only attention --sweep-attention 200`, then python/bench_attention.py (ours, cuDNN and
# FlashAttention-2 alternated in one process, 16k tokens, seqlen 512 … 16k). (tools/gpu/attention/like-for-like.sh
# without its clock sampling.)      D=.gpu/s23d bash tools/gpu/attention/lfl-pdl.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s23e}
unset CUTE_RS_PTX_DIR
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
timeout 150 $H run --only attention --sweep-attention 200 > $R/run.txt 2>&1; t "run --only attention --sweep-attention 200 rc=$?"
tail -3 $R/run.txt | cut -c1-200 | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 \
  --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "bench_attention.py rc=$?"
tail -45 $R/bench_attention.txt | tee -a $S
cp $R/bench_attention.json $OUT/ 2>/dev/null
t end
