#!/usr/bin/env bash
# (session 33, lead) The stream-K split of attention's key blocks (config::split_of): --check on shapes whose last wave
# is split (d128 128 x 128 and 128 x 176, ragged keys, GQA, f16; d64's 128-row and 192-row tiles) and with the split
# off, memcheck / racecheck on one, then like for like: tools/gpu/attention/part-full-wave.py with the split on and off, and
# bench_attention.py's d64 / d128 rows with the split on ("on"), off (CUTE_RS_ATTENTION_SPLIT=0, "off") and main's
# module ("base"), alternated, $ROUNDS rounds.
#   D=.gpu/s33b NAME=s33b bash tools/gpu/attention/stream-k-split.sh
# Package: host.xz, native.xz, attention.ptx.xz (the new module), base/attention.ptx.xz (main's), stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s33b}
full() { timeout ${TO:-120} $H "$@" < /dev/null; }
for s in "--batch 1 --heads 128 --seqlen-q 2048 --head-dim 128" \
  "--batch 2 --heads 35 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128" \
  "--batch 2 --heads 35 --heads-kv 5 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128 --dtype f16" \
  "--batch 1 --heads 20 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128" \
  "--batch 1 --heads 70 --seqlen-q 1024 --head-dim 64" \
  "--batch 1 --heads 36 --seqlen-q 3000 --head-dim 64 --dtype f16"; do
  full attention $s --check > $R/c.txt 2>&1; t "C rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'err|bound' $R/c.txt | head -1 | cut -c1-100)"
done
CUTE_RS_ATTENTION_SPLIT=0 full attention --batch 2 --heads 35 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128 --check > $R/c.txt 2>&1
t "C split off rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 2 --heads 35 --seqlen-q 1000 --seqlen-k 2000 --head-dim 128 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
mkdir -p /tmp/py/cute_rs /tmp/pbase && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py tools/gpu/attention/part-full-wave.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
cp $P/*.ptx /tmp/pbase/ && x $D/base/attention.ptx.xz /tmp/pbase/attention.ptx
for i in 1 2; do for v in 1 0; do [ $(left) -gt 120 ] || break
  (cd /tmp/py && CUTE_RS_ATTENTION_SPLIT=$v PYTHONPATH=/tmp/py timeout 60 python3 part-full-wave.py 3 > $R/w-$i-$v.txt 2>&1); t "waves split=$v rc=$?"
  grep -E '^W d=(128|64)' $R/w-$i-$v.txt | sed "s/^/split=$v /" | cut -c1-200 | tee -a $S; done; done
A="--head-dims 64,128 --seqlens 512,1024,2048,4096,8192,16384 --backends ours,cudnn --masks none"
for i in $(seq ${ROUNDS:-2}); do for l in on off base; do [ $(left) -gt 40 ] || break
  case $l in on) e="X=1"; pd=$P;; off) e="CUTE_RS_ATTENTION_SPLIT=0"; pd=$P;; base) e="X=1"; pd=/tmp/pbase;; esac
  (cd /tmp/py && env $e CUTE_RS_PTX_DIR=$pd PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py $A > $R/b-$i-$l.txt 2>&1)
  t "bench $l round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i-$l.txt | sed "s/^/$l /" | tee -a $S; done; done
t end
