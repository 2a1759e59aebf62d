#!/usr/bin/env bash
# (session 16, lead) Where the remaining gaps stall, per SASS instruction: ncu's SourceCounters (instructions executed
# and warp-stall samples per instruction) for one launch each of ours and the reference in one process
# (--clock-control none): bf16 TN 2048^3 (ours 0.93 of cuBLAS), FP8 e4m3 per-tensor 4096^3 (ours 0.86-0.89 of
# cuBLASLt), attention d128 2k non-causal (ours 0.89-0.92 of cuDNN). Each report exported as CSV (--page source
# --print-source sass). Package (D, default .gpu/s16a): host.xz, native.xz, hgemm.ptx.xz (cut: bf16 TN and the FP8
# per-tensor entries), stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/s16a bash tools/gpu/profile/source-counters-bf16-fp8-attention.sh
BUDGET=${BUDGET:-280}; . tools/gpu/lib.sh s16a
mkdir -p /tmp/pys16a/cute_rs && cp python/cute_rs/*.py /tmp/pys16a/cute_rs/ && x $D/native.xz /tmp/pys16a/cute_rs/_native.abi3.so
timeout 60 $H gemm --ta --dtype bf16 --m 2048 --bench > $R/b1.txt 2>&1; t "B bf16 2048 rc=$? $(grep -E 'TFLOP' $R/b1.txt | tail -1 | tr -s ' ' | cut -c1-200)"
timeout 60 $H gemm --dtype e4m3 --m 4096 --bench > $R/b2.txt 2>&1; t "B fp8 4096 rc=$? $(grep -E 'TFLOP' $R/b2.txt | tail -1 | tr -s ' ' | cut -c1-200)"
SEC="--section SourceCounters --section WarpStateStats --section SpeedOfLight"
ncu_src hg-ours -k regex:hgemm_bf16_tn --launch-skip 3 $H gemm --ta --dtype bf16 --m 2048 --bench
ncu_src hg-cublas -k regex:nvjet --launch-skip 3 $H gemm --ta --dtype bf16 --m 2048 --bench
ncu_src f8-ours -k regex:gemm_fp8 --launch-skip 3 $H gemm --dtype e4m3 --m 4096 --bench
ncu_src f8-lt -k regex:nvjet --launch-skip 3 $H gemm --dtype e4m3 --m 4096 --bench
ncu_src at-ours --profile-from-start off -k regex:attention env PYTHONPATH=/tmp/pys16a python3 tools/attention/ncu_pair.py 128:2048
ncu_src at-cudnn --profile-from-start off -k regex:cudnn env PYTHONPATH=/tmp/pys16a python3 tools/attention/ncu_pair.py 128:2048
ls -la $R | tee -a $S
t end
