#!/usr/bin/env bash
# (session 72; issue #37) The stream-K / split-K fixup moving a tile's accumulators only (`StreamKScheduler::ROWS`, BN/8
# rows of the workspace slot's 32): a warpgroup's 64 × BN tile is the first BN/2 of the 128 values `fixup` is given, so
# the 128-wide tiles' tails wrote and heads read twice what they hold (run s71a's trace: a tail's fixup 2.7–4.8 µs in the
# block split's second launch), the 192-wide ones 4/3 of it. First the checks where tiles split (the FP8 sweep, `host run
# --only hgemm`, forced block splits with the lead at N and M edges and an f32 D, the small-M split-K entry, per-tensor),
# synccheck and racecheck of a split-K launch; then main's modules (old) against this tree's (new), alternated `--bench`es
# at the block rows of #37 (4096³, 512×7168×8192, 4096×7168×16384) and per-tensor 4096³, both timing modes, and bf16 3072³ (128×192 stream-K); then the
# second launch's lead at 4096×7168×16384 (CUTE_RS_FP8_BLOCK_LEAD 125, 90, 60), bursts.
# Package $D: host.xz (this tree's release host), old/hgemm_fp8.ptx.xz and old/hgemm.ptx.xz (main's), new/ the same
# modules of this tree.
#   BUDGET=300 D=.gpu/s72a NAME=s72a bash tools/gpu/fp8/fixup-rows.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s72a}
for v in old new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/ 2>/dev/null
  for m in hgemm_fp8 hgemm; do [ -e $D/$v/$m.ptx.xz ] && x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done; done
export CUTE_RS_PTX_DIR=/tmp/pvnew
timeout 240 $H gemm --dtype e4m3 --m 512 --n 7168 --k 2048 --block-scales --check > $R/w1.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pvold timeout 240 $H gemm --dtype e4m3 --m 512 --n 7168 --k 2048 --block-scales --check > $R/w2.txt 2>&1 < /dev/null &
timeout 240 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w3.txt 2>&1 < /dev/null
wait; t "warm new old bf16: $(cat $R/w1.txt $R/w2.txt $R/w3.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
sweeps
B="--dtype e4m3 --block-scales"
for s in "4096 4096 512 3840" "2048 4096 1024 3840" "4096 4000 512 3456" "1000 4096 2048 3840"; do
  set -- $s
  env CUTE_RS_FP8_BLOCK_LEAD=125 CUTE_RS_FP8_BLOCK_SPLIT=$4 timeout 90 $H gemm $B --m $1 --n $2 --k $3 --check --out f32 \
    > $R/c.txt 2>&1 < /dev/null
  t "C split $4 lead 125 $1x$2x$3 f32 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
done
CUTE_RS_FP8_BLOCK=stagedonetma5sk c gemm $B --m 256 --n 7168 --k 2048 --out f32
c gemm $B --m 512 --n 7168 --k 8192
c gemm $B --m 4096 --n 7168 --k 4096
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096
c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --out f32
c gemm --dtype e5m2 --m 128 --n 7168 --k 4096
c gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072
c gemm --dtype bf16 --m 4096 --n 2112 --k 7168 --beta 1
for tool in synccheck racecheck; do
  [ $(left) -gt 150 ] || { t "S $tool SKIP (time)"; continue; }
  CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm $B --m 512 --n 2048 \
    --k 2048 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
ab "old new" "$B --m 4096 --n 4096 --k 4096" "$B --m 512 --n 7168 --k 8192" "$B --m 4096 --n 7168 --k 16384" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096" "$B --m 4096 --n 4096 --k 4096 --timing burst" \
  "$B --m 512 --n 7168 --k 8192 --timing burst" "--dtype bf16 --ta --m 3072 --n 3072 --k 3072"
# the lead at 4096×7168×16384 (the rule's 125 %; run s71a's trace: the lead clusters end after most late ones)
for i in 1 2; do for l in 125 90 60; do [ $(left) -gt 25 ] || break 2
  GARGS="$B --m 4096 --n 7168 --k 16384 --timing burst"; g "lead$l-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done; done
t end
