#!/usr/bin/env bash
# (session 33, lead) The closing call: d128 non-causal on 128 x 128 at every length (the 176-key tile takes no split),
# the stream-K split of a part-empty last wave on the tiles that take it. host run --only attention at an unseen seed,
# --check on split shapes (d128 at 8k keys now 128 x 128, GQA f16; d64's two tiles) and on the n176 variant, memcheck
# on d128 8k keys, then bench_attention.py like for like against main's module ("base"): non-causal d64 / d128
# $ROUNDS rounds, causal d64 / d128 two, d256 both masks one. (Run s33g: the split as entries of its own, `_split`.)
#   D=.gpu/s33e NAME=s33e bash tools/gpu/closing/attention-stream-k-split.sh
# Package: host.xz, native.xz, attention.ptx.xz (the new module), base/attention.ptx.xz (main's), stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-500}; . tools/gpu/lib.sh ${NAME:-s33e}
full() { timeout ${TO:-150} $H "$@" < /dev/null; }
full run --only attention --seed 3302 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3302 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E 'FAIL' $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for s in "--batch 1 --heads 20 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128" \
  "--batch 2 --heads 35 --heads-kv 5 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128 --dtype f16" \
  "--batch 1 --heads 70 --seqlen-q 1024 --head-dim 64" "--batch 1 --heads 36 --seqlen-q 3000 --head-dim 64 --dtype f16"; do
  full attention $s --check > $R/c.txt 2>&1; t "C rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
done
CUTE_RS_ATTENTION_SPLIT=0 full attention --batch 1 --heads 20 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128 --check > $R/c.txt 2>&1
t "C split off rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $H attention --batch 1 --heads 20 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128 --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
mkdir -p /tmp/py/cute_rs /tmp/pbase && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
cp $P/*.ptx /tmp/pbase/ && x $D/base/attention.ptx.xz /tmp/pbase/attention.ptx
bench() {  # LABEL ARGS...: one bench_attention.py process on each module, alternated
  local lab=$1; shift; local l pd
  for l in on base; do [ $(left) -gt 30 ] || return; [ $l = on ] && pd=$P || pd=/tmp/pbase
    (cd /tmp/py && CUTE_RS_PTX_DIR=$pd PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py "$@" > $R/b.txt 2>&1)
    t "bench $lab $l rc=$?"; grep -E '^ +[0-9]' $R/b.txt | sed "s/^/$lab $l /" | tee -a $S; done; }
SL=512,1024,2048,4096,8192,16384
for i in $(seq ${ROUNDS:-3}); do bench nc$i --head-dims 64,128 --seqlens $SL --backends ours,cudnn --masks none; done
for i in 1 2; do bench c$i --head-dims 64,128 --seqlens $SL --backends ours,cudnn --masks causal; done
bench d256 --head-dims 256 --seqlens $SL --backends ours,cudnn
t end
