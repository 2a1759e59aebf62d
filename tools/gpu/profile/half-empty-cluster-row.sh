#!/usr/bin/env bash
# (session 28, lead; prepared for session 29, not yet run) Why a half-empty cluster row costs the per-tensor FP8 kernel
# about twice its share (run s28b/s28c: 128 × 128 tiles at 896×4096×8192, two waves either way, cluster 2 18 % slower
# than cluster 1): ncu (speed of light, memory, warp states, source counters) of one launch each, cluster 2 against 1,
# beside the even count 1024×4096×8192 with cluster 2 as the control; then the 16-bit kernel at 640×7168×8192, cluster
# 2 against 1 (pairs lost 18 % there: its stream-K tail over few tiles is the suspect). Package: run s28f's (main's
# host, every module embedded).       D=.gpu/s28f NAME=s29b bash tools/gpu/profile/half-empty-cluster-row.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s29b}
unset CUTE_RS_PTX_DIR
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section SourceCounters"
B="gemm --dtype e4m3 --m 896 --n 4096 --k 8192"
timeout 200 $H $B --bench > $R/jit.txt 2>&1 < /dev/null; t "jit rc=$? $(grep TFLOP $R/jit.txt | tr -s ' ' | cut -c1-160)"
for c in 2 1; do CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_CLUSTER=$c ncu_src pt896c$c -k regex:gemm_fp8_e4m3_tn_promoted_n128tma6 $H $B --bench; done
CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_CLUSTER=2 ncu_src pt1024c2 -k regex:gemm_fp8_e4m3_tn_promoted_n128tma6 $H gemm --dtype e4m3 --m 1024 --n 4096 --k 8192 --bench
for c in 2 1; do CUTE_RS_HGEMM_CLUSTER=$c ncu_src bf640c$c -k regex:hgemm_bf16_tn $H gemm --ta --dtype bf16 --m 640 --n 7168 --k 8192 --bench; done
t end
