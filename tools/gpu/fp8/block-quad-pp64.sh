#!/usr/bin/env bash
# Ran on branch s38-quad, whose measuring override `pp64q` (`_block_pp64q`) named the quad entries; main's
# `_block_pp64`, `_staged_pp64` and `gemm_fp8_e4m3_tn_promoted` are those entries now (PTX identical), so on main the
# override is refused: the script records the measurement (doc/performance.md).
# (session 38) The small-M block entry on the quad schedule (`_block_pp64q`: A's and B's scales from global memory,
# each k-tile's loaded four k-tiles ahead into a queue slot of its own, no queue moves) against the staged entry
# (`_staged_pp64`, A's box with each stage) and the paired global one (`_block_pp64`), per-tensor `_pp64` beside.
# One host; $D/hgemm_fp8.ptx.xz this build's FP8 module cut to the entries measured. Checks, sanitizers, three rounds.
#   D=.gpu/s38e NAME=s38e bash tools/gpu/fp8/block-quad-pp64.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s38e}
B="gemm --dtype e4m3 --block-scales"
timeout 200 $H $B --m 128 --n 1024 --k 1024 --bench > $R/w.txt 2>&1 < /dev/null; t "warm rc=$?"
for s in "128 7168 8192" "132 7200 8192" "126 7168 4096" "200 520 6144" "60 7168 16384 --out f32" "128 1000 12352" "1000 1030 1040" "64 192 272" "1 256 16"; do set -- $s
  CUTE_RS_FP8_BLOCK=pp64q timeout 100 $H $B --m $1 --n $2 --k $3 ${4:-} ${5:-} --check > $R/c.txt 2>&1 < /dev/null
  t "C check pp64q $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=pp64q timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 130 --n 2048 --k 6160 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool pp64q rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for i in 1 2 3; do for s in "128 7168 16384" "128 7168 8192" "64 7168 16384" "128 4096 16384" "128 7168 4096"; do [ $(left) -gt 15 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  if [ $(( i % 2 )) = 1 ]; then g staged CUTE_RS_FP8_BLOCK=stagedpp64; g quad CUTE_RS_FP8_BLOCK=pp64q; g global CUTE_RS_FP8_BLOCK=pp64
  else g global CUTE_RS_FP8_BLOCK=pp64; g quad CUTE_RS_FP8_BLOCK=pp64q; g staged CUTE_RS_FP8_BLOCK=stagedpp64; fi
done; done
t end
