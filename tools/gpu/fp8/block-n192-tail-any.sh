#!/usr/bin/env bash
# (session 52; issue #37; branch `s52-tail`) The 128 × 192 block entry with a stream-K tail for any part-empty last
# wave: run s52c put most of the block entry's shortfall at 4096³ (6 waves, the last 22 of 66 clusters) and
# 4096×7168×16384 (10, the last 14) on its waves. `_staged_n192tmatail` (StreamKScheduler<128, 192>, built by default
# on the branch) with the quarter rule (`stagedn192tmatail`: a tail at 4096×7168×16384 only) and with a tail for any
# part-empty last wave (`stagedn192tmatailany`, SchedulerKind::STREAM_K) against the data-parallel default. First
# `--check`s and memcheck of the tail, then per-tensor / data-parallel / quarter / any alternated, ROUNDS rounds.
# Package $D: host.xz (the branch's), stub.ptx + stub-families.txt, hgemm_fp8.ptx.xz (the branch's whole FP8 module).
#   D=.gpu/s52i NAME=s52i bash tools/gpu/fp8/block-n192-tail-any.sh   (~200 s)
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s52i}
ROUNDS=${ROUNDS:-3}
B="gemm --dtype e4m3 --block-scales"
for s in "2048 4096 1024" "2048 2112 2048" "1000 1030 1040" "2048 4096 1024 --out f32"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedn192tmatailany timeout 100 $H $B --m $1 --n $2 --k $3 ${4:-} ${5:-} --check > $R/c.txt 2>&1 < /dev/null
  t "C check tailany $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
CUTE_RS_FP8_BLOCK=stagedn192tmatailany timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H $B --m 2048 --n 2112 --k 2048 --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
for i in $(seq $ROUNDS); do
  for s in "4096 4096 4096" "4096 7168 16384" "8192 8192 8192" "4096 2112 7168"; do
    [ $(left) -gt 12 ] || break 2
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g "pt$i"
    GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
    g "dp$i"; g "quarter$i" CUTE_RS_FP8_BLOCK=stagedn192tmatail; g "any$i" CUTE_RS_FP8_BLOCK=stagedn192tmatailany
  done
done
t end
