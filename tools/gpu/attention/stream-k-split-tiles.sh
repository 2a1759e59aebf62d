#!/usr/bin/env bash
# (session 33, lead) The stream-K split of attention's key blocks on the tiles that take it (config::tile_splits):
# host run --only attention (its sweep splits the problems whose last wave is part-empty), --check on split shapes
# (d128 128 x 128, ragged keys, GQA f16; d64's 128-row and 192-row tiles) and on the 176-key tile (never split),
# memcheck / racecheck / synccheck on two small split shapes, then bench_attention.py's non-causal d64 / d128 rows with
# the split ("on"), without (CUTE_RS_ATTENTION_SPLIT=0, "off") and main's module ("base"), $ROUNDS rounds alternated,
# and d128 8k / 16k on the 176-key tile (the default there) against 128 x 128 with the split (CUTE_RS_ATTENTION=overlap).
#   D=.gpu/s33d NAME=s33d bash tools/gpu/attention/stream-k-split-tiles.sh
# Package: host.xz, native.xz, attention.ptx.xz (the new module), base/attention.ptx.xz (main's), stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-580}; . tools/gpu/lib.sh ${NAME:-s33d}
full() { timeout ${TO:-150} $H "$@" < /dev/null; }
full run --only attention --seed 3301 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3301 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E 'FAIL' $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for s in "--batch 1 --heads 128 --seqlen-q 2048 --head-dim 128" \
  "--batch 2 --heads 35 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128" \
  "--batch 2 --heads 35 --heads-kv 5 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128 --dtype f16" \
  "--batch 1 --heads 20 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128" \
  "--batch 1 --heads 70 --seqlen-q 1024 --head-dim 64" \
  "--batch 1 --heads 36 --seqlen-q 3000 --head-dim 64 --dtype f16"; do
  full attention $s --check > $R/c.txt 2>&1; t "C rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
done
san "--batch 1 --heads 35 --seqlen-q 512 --seqlen-k 640 --head-dim 128" "--batch 1 --heads 35 --seqlen-q 512 --seqlen-k 700 --head-dim 64 --dtype f16"
mkdir -p /tmp/py/cute_rs /tmp/pbase && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
cp $P/*.ptx /tmp/pbase/ && x $D/base/attention.ptx.xz /tmp/pbase/attention.ptx
A="--head-dims 64,128 --seqlens 512,1024,2048,4096,8192,16384 --backends ours,cudnn --masks none"
B="--head-dims 128 --seqlens 8192,16384 --backends ours,cudnn --masks none"
for i in $(seq ${ROUNDS:-2}); do for l in on off base n176d o128; do [ $(left) -gt 30 ] || break
  case $l in on) e="X=1"; pd=$P; a=$A;; off) e="CUTE_RS_ATTENTION_SPLIT=0"; pd=$P; a=$A;; base) e="X=1"; pd=/tmp/pbase; a=$A;;
    n176d) e="X=1"; pd=$P; a=$B;; o128) e="CUTE_RS_ATTENTION=overlap"; pd=$P; a=$B;; esac
  (cd /tmp/py && env $e CUTE_RS_PTX_DIR=$pd PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py $a > $R/b-$i-$l.txt 2>&1)
  t "bench $l round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$l.txt | sed "s/^/$l /" | tee -a $S; done; done
t end
