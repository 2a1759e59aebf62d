#!/usr/bin/env bash
# (session 15, lead) Where the remaining gaps stall, by ncu (--clock-control none, one launch each, ours and the
# reference in one process): N1 attention d128 and d256 at 2k keys non-causal (the shapes of issue #33's >= 1.00 target),
# ours against cuDNN (tools/attention/ncu_pair.py); N2 bf16 TN 2048^3 ours against cuBLAS. Sections: SpeedOfLight,
# WarpStateStats, SchedulerStats, ComputeWorkloadAnalysis. Package (D, default .gpu/s15f): host.xz, native.xz (the
# default release host and Python extension), stub.ptx + stub-families.txt. Run from the repo root:
#   D=.gpu/s15f bash tools/gpu/profile/stalls-attention-bf16.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh s15f
mkdir -p /tmp/pys15f/cute_rs && cp python/cute_rs/*.py /tmp/pys15f/cute_rs/ && x $D/native.xz /tmp/pys15f/cute_rs/_native.abi3.so
SEC="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
timeout 120 env PYTHONPATH=/tmp/pys15f ncu --profile-from-start off --clock-control none $SEC python3 tools/attention/ncu_pair.py 128:2048 256:2048 > $R/n1.txt 2>&1
t "N1 attention 2k rc=$? $(grep -c 'Section: Warp State' $R/n1.txt) kernels"
timeout 90 ncu --clock-control none --launch-skip 4 --launch-count 4 $SEC $H gemm --ta --dtype bf16 --m 2048 --bench > $R/n2.txt 2>&1
t "N2 hgemm 2048 rc=$? $(grep -c 'Section: Warp State' $R/n2.txt) kernels"
cp $R/n1.txt $R/n2.txt $OUT/
t end
