#!/usr/bin/env bash
# (session 70; issue #37) The block-scaled split's second launch beside the first one's last wave
# (`StreamKParams::beside`): its first clusters take the SMs the 128 × 192 launch leaves idle in its last wave, each
# `CUTE_RS_FP8_BLOCK_LEAD` percent of a first-launch tile's k-tiles more than the others, and it waits for the first
# launch only before it exits (every kernel now lets the next one launch after its own wait). `--check`s where the split
# and the lead happen (forced splits under `--check`'s 10¹⁰ multiply-adds), memcheck and racecheck of one, then rounds of
# `host gemm --dtype e4m3 --block-scales --bench` at 4096³ and 4096×7168×16384 with the lead at 0 (the launch after the
# first, as before), 100, 125 (the default) and 160 percent, and the sweeps (FP8 and `run --only hgemm`: every entry's
# new trigger place); the per-tensor rule's 128 × 160 launch checked and timed once.
# Package $D: host.xz (the branch's release host), hgemm_fp8.ptx.xz and hgemm.ptx.xz (the whole modules).
#   BUDGET=560 D=.gpu/s70a NAME=s70a bash tools/gpu/fp8/block-beside.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s70a}
# both modules' JIT at once
timeout 300 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null &
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w0.txt $R/w1.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
B="--dtype e4m3 --block-scales"
for l in 125 0; do
  env CUTE_RS_FP8_BLOCK_LEAD=$l CUTE_RS_FP8_BLOCK_SPLIT=3840 timeout 90 $H gemm $B --m 4096 --n 4096 --k 512 --check \
    > $R/c.txt 2>&1 < /dev/null; t "C lead $l split 3840 4096x4096x512 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
done
for s in "2048 4096 1024 3840" "4096 2048 1024 1536" "4096 4000 512 3456" "1000 4096 2048 3840"; do
  set -- $s
  env CUTE_RS_FP8_BLOCK_SPLIT=$4 timeout 90 $H gemm $B --m $1 --n $2 --k $3 --check --out f32 > $R/c.txt 2>&1 < /dev/null
  t "C split $4 $1x$2x$3 f32 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
done
for tool in memcheck racecheck; do
  env CUTE_RS_FP8_BLOCK_SPLIT=3840 timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H gemm $B --m 4096 \
    --n 4096 --k 512 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | split 3840 4096x4096x512 | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
for i in 1 2; do
  GARGS="$B --m 4096 --n 4096 --k 4096"
  for l in 0 125 100 160; do g "lead$l-4096^3-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
  GARGS="$B --m 4096 --n 7168 --k 16384"
  for l in 0 125; do g "lead$l-4096x7168x16384-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
done
# the per-tensor rule's 128 × 160 launch (session 69's s69f, not run then)
timeout 90 $H gemm --dtype e4m3 --m 1024 --n 7168 --k 1024 --check > $R/c.txt 2>&1 < /dev/null
t "C rc=$? rule 1024x7168x1024 | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1) $(grep -iE 'n160|kernel' $R/c.txt | head -2 | tr -s ' ' | cut -c1-120 | tr '\n' ' ')"
GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; g per-tensor-rule
sweeps
t end
