#!/usr/bin/env bash
# (session 31, lead) The causal tile order: each head's m-blocks side by side (ORDER_M_FASTEST) against all heads longest
# first (ORDER_HEADS_FASTEST), chosen per launch by CUTE_RS_ATTN_MFAST_MAX (the most m-blocks that take the first; 0:
# never, the old order). First the checks (host run --only attention at two seeds, --check on causal shapes of every
# head dim under each order), then ncu's DRAM bytes of d128 causal 512 / 2k under both orders (ncu_pair.py), then
# python/bench_attention.py with the orders alternated ($ORDERS, default "0 16 64"), $ROUNDS rounds, $ARGS.
# CHECK=0 skips the checks; NCU="shapes" (ncu_pair.py's D:S[:c]) and NCU_ORDERS (default "0 1000") set the ncu step,
# NCU_PAIR=1 profiles cuDNN beside ours.
# Package: $D/host.xz, $D/native.xz (the release host and Python extension, every module embedded).
#   D=.gpu/s31c NAME=s31c ARGS="--masks causal" bash tools/gpu/attention/causal-tile-order.sh
BUDGET=${BUDGET:-500}; . tools/gpu/lib.sh ${NAME:-s31c}
unset CUTE_RS_PTX_DIR
timeout 300 $H attention --batch 1 --heads 2 --seqlen-q 300 --head-dim 128 --causal top-left --check > $R/w.txt 2>&1 < /dev/null
t "W warm-up (the driver's JIT of every module) rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
ORDERS=${ORDERS:-0 16 64}; ROUNDS=${ROUNDS:-2}; ARGS=${ARGS:---masks causal}
for o in $([ ${CHECK:-1} = 1 ] && echo 0 1000); do
  CUTE_RS_ATTN_MFAST_MAX=$o timeout 240 $H run --only attention --seed 3107 > $R/ra.txt 2>&1 < /dev/null
  t "C order $o host run --only attention --seed 3107 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
  for d in 64 128 256; do for s in "--batch 3 --heads 4 --seqlen-q 1000 --seqlen-k 1000 --heads-kv 2 --causal top-left" \
    "--batch 2 --heads 3 --seqlen-q 700 --seqlen-k 2100 --causal bottom-right --dtype f16"; do
    CUTE_RS_ATTN_MFAST_MAX=$o timeout 60 $H attention $s --head-dim $d --check > $R/c.txt 2>&1 < /dev/null
    t "C order $o rc=$? | $s --head-dim $d | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done; done; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis"
for o in ${NCU_ORDERS:-0 1000}; do
  CUTE_RS_ATTN_MFAST_MAX=$o timeout 90 env PYTHONPATH=/tmp/py ncu --profile-from-start off --clock-control none $SEC \
    python3 tools/attention/ncu_pair.py ${NCU:-128:512:c 128:2048:c 256:1024:c 64:2048:c} $([ ${NCU_PAIR:-0} = 1 ] || echo --ours-only) > $R/n-$o.txt 2>&1
  t "N order $o rc=$? $(grep -E '^ +(Duration|DRAM Throughput|L2 Hit Rate) ' $R/n-$o.txt | tr -s ' ' | tr '\n' '|')"; done
cp $R/n-*.txt $OUT/
for i in $(seq $ROUNDS); do for o in $ORDERS; do [ $(left) -gt 30 ] || break
  (cd /tmp/py && CUTE_RS_ATTN_MFAST_MAX=$o PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py $ARGS > $R/b-$i-$o.txt 2>&1)
  t "bench_attention.py order $o round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$o.txt | sed "s/^/o$o /" | tee -a $S; done; done
t end
