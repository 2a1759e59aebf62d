#!/usr/bin/env bash
# (session 37, prepared for the next) Where the small-M block entry waits: ncu (source counters, warp states, speed of
# light, memory workload) of one launch each of the block `_staged_pp64` (8 stages, A's 64-row box, B from global) and
# the per-tensor `_pp64` at 128×7168×16384 on main's release host, two timed rounds of both, then the staged
# entry against the global-scale one at short K. Read with
#   python3 tools/ncu_source.py --stall long_sb src-blk.csv.xz src-pt.csv.xz   (and det-*.csv: DRAM throughput, stalls)
#   D=.gpu/s38a NAME=s38a bash tools/gpu/fp8/block-pp64-ncu.sh
BUDGET=${BUDGET:-280}; . tools/gpu/lib.sh ${NAME:-s38a}
B="gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench"
timeout 150 $H $B --block-scales > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -E 'TFLOP' $R/w.txt | tr -s ' ' | cut -c1-160)"
export SEC="--section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis"
ncu_src blk -k regex:gemm_fp8_e4m3_tn_promoted_staged_pp64 $H $B --block-scales
ncu_src pt -k regex:gemm_fp8_e4m3_tn_promoted_pp64 $H $B
for i in 1 2; do GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; g pt; GARGS="$GARGS --block-scales"; g blk; done
# the staged entry's K rule again (`Fp8BlockEntry::STAGED_PP64_MIN_K` = 3072 16-bit units, set with 7 stages): staged
# (8 stages since `1fcb31e`) against the global-scale 64-row entry at short K, two rounds
for i in 1 2; do for k in 2048 3072 4096 6144; do [ $(left) -gt 10 ] || break
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k $k"
  g staged CUTE_RS_FP8_BLOCK=stagedpp64; g global CUTE_RS_FP8_BLOCK=pp64; done; done
t end
