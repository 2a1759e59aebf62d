#!/usr/bin/env bash
# (session 63, prepared; issue #37) Where ours executes more than cuBLASLt at e4m3 4096³, instruction by instruction:
# run s63b measured 34.27 M warp instructions against 31.96 M (+7 %), L2 832 against 698 MB, and 1.8 % less work per
# joule at the power limit. ncu's source counters (per-SASS instructions executed and warp-state samples) of one launch
# each, ours (`gemm_fp8_e4m3_tn_promoted_n128tma6`) and cuBLASLt's (`nvjet_sm90_qqtst_128x128_128x6_*`), and of the
# 16-bit pair at bf16 TN 4096³ (session 52: 0.994 of cuBLAS's work per joule) for the same comparison; then here:
#   python3 tools/ncu_source.py src-fp8-ours.csv.xz src-fp8-cublaslt.csv.xz    (the opcode mix side by side)
# Package $D: host.xz (a release host).   BUDGET=300 D=.gpu/s64a NAME=s64a bash tools/gpu/fp8/source-vs-cublaslt-4096.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s64a}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
G="gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --bench --timing burst"
ncu_src fp8-ours -k regex:gemm_fp8 $H $G
ncu_src fp8-cublaslt -k regex:nvjet $H $G
prof fp8-pair 2 -k regex:"gemm_fp8|nvjet" $H $G
# L2's bytes by kind (the whole tables in $R/n-fp8-mem.txt, in the run's tarball): where cuBLASLt's 698 MB against our
# 832 MB come from (ours is one operand multicast in clusters of 2, 768 MiB, plus C's 32 MiB)
M="--section MemoryWorkloadAnalysis_Tables --section MemoryWorkloadAnalysis" prof fp8-mem 2 -k regex:"gemm_fp8|nvjet" $H $G
G="gemm --ta --dtype bf16 --m 4096 --n 4096 --k 4096 --bench --timing burst"
ncu_src bf16-ours -k regex:hgemm $H $G
ncu_src bf16-cublas -k regex:nvjet $H $G
t end
