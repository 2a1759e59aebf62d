#!/usr/bin/env bash
# (session 33, lead) What a part-full last wave costs: tools/gpu/attention/part-full-wave.py (ours and cuDNN at head counts that fill
# the persistent grid's last wave or not; the host's CPU time per call).
#   D=.gpu/s33a NAME=s33a bash tools/gpu/attention/part-full-wave.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s33a}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py tools/gpu/attention/part-full-wave.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 150 python3 part-full-wave.py 4 > $R/waves.txt 2>&1); t "waves rc=$?"
grep -E '^(W|CPU|#)' $R/waves.txt | tee -a $S; tail -3 $R/waves.txt
