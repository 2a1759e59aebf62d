#!/usr/bin/env bash
# (session 26, lead) The 64-row staged block entry against the 64-row per-tensor one where both consumer warpgroups
# are busy (4096×7168×16384, forced tiles): ncu source counters and warp states of one launch each.
# Package: $D/host.xz (run s26d's), $D/main.ptx.xz (main's gemm_fp8* entries).   D=.gpu/s26i bash tools/gpu/fp8/block-pp64-ncu-large.sh
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s26i}
mkdir -p /tmp/pm; x $D/main.ptx.xz /tmp/pm/hgemm.ptx; export CUTE_RS_PTX_DIR=/tmp/pm
B="gemm --dtype e4m3 --m 4096 --n 7168 --k 16384"
CUTE_RS_FP8_BLOCK=stagedpp64 timeout 150 $H $B --block-scales --bench > $R/jit.txt 2>&1 < /dev/null; t "jit rc=$? $(grep TFLOP $R/jit.txt | tr -s ' ' | cut -c1-160)"
CUTE_RS_FP8_BLOCK=stagedpp64 ncu_src staged -k regex:gemm_fp8_e4m3_tn_promoted_staged_pp64 $H $B --block-scales --bench
CUTE_RS_FP8_PROMOTED=pp64 ncu_src pt -k regex:gemm_fp8_e4m3_tn_promoted_pp64 $H $B --bench
t end
