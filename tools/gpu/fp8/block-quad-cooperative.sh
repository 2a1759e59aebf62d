#!/usr/bin/env bash
# Ran on branch s38-quad, whose measuring override `globalq` (`gemm_fp8_e4m3_tn_promoted_q`) and `stagedpp64q` (`_staged_pp64q`) named the quad entries; main's
# `_block_pp64`, `_staged_pp64` and `gemm_fp8_e4m3_tn_promoted` are those entries now (PTX identical), so on main the
# override is refused: the script records the measurement (doc/performance.md).
# (session 38) The quad schedule on the cooperative block entry (`gemm_fp8_e4m3_tn_promoted_q`, the global-scale
# fallback where the staged entries do not take the scales: M not a multiple of 4) against `gemm_fp8_e4m3_tn_promoted`;
# on the small-M staged entry (`_staged_pp64q`: B's scales by slot, A's from the stage) against `_staged_pp64`; the
# small-M global entry `_block_pp64` (now on the quad schedule) where M is no multiple of 4 (the default there).
# Checks first. One host; $D/hgemm_fp8.ptx.xz the build's FP8 module cut to the entries measured.
#   D=.gpu/s38f NAME=s38f bash tools/gpu/fp8/block-quad-cooperative.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s38f}
B="gemm --dtype e4m3 --block-scales"
for s in "1026 7168 4096" "300 200 528" "2050 1030 1040"; do set -- $s
  CUTE_RS_FP8_BLOCK=globalq timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "C check globalq $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for s in "128 7168 8192" "132 7200 8192" "200 520 6144" "128 1000 12352"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedpp64q timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "C check stagedpp64q $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for s in "126 7168 16384" "130 2048 6160" "62 7168 8192"; do set -- $s
  timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "C check default $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for e in globalq stagedpp64q; do
  CUTE_RS_FP8_BLOCK=$e timeout 100 compute-sanitizer --tool racecheck --print-limit 5 $H $B --m 260 --n 1030 --k 2064 --check > $R/san.txt 2>&1 < /dev/null
  t "S racecheck $e rc=$? $(grep -E 'RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for i in 1 2; do
  for s in "128 7168 16384" "128 7168 8192" "64 7168 16384"; do [ $(left) -gt 10 ] || break
    set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
    if [ $i = 1 ]; then g staged CUTE_RS_FP8_BLOCK=stagedpp64; g stagedq CUTE_RS_FP8_BLOCK=stagedpp64q
    else g stagedq CUTE_RS_FP8_BLOCK=stagedpp64q; g staged CUTE_RS_FP8_BLOCK=stagedpp64; fi; done
  for s in "126 7168 16384" "126 7168 8192"; do [ $(left) -gt 10 ] || break
    set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g default; done
  for s in "4098 7168 16384" "4098 4096 4096"; do [ $(left) -gt 10 ] || break
    set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
    if [ $i = 1 ]; then g global CUTE_RS_FP8_BLOCK=global; g globalq CUTE_RS_FP8_BLOCK=globalq
    else g globalq CUTE_RS_FP8_BLOCK=globalq; g global CUTE_RS_FP8_BLOCK=global; fi; done
done
t end
