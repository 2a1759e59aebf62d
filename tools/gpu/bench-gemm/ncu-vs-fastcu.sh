#!/usr/bin/env bash
# (session 48, issue #34; not yet run) fast.cu's kernel 12 and ours under ncu at 4096³ bf16 TN in one call: where its
# 0.8–1.2 % lead at 4096³ (run s48d) comes from, now that its per-k-tile wait is ours and its one-meeting epilogue
# measured slower in ours (run s48e). One launch of each after warm-up launches (`--launch-skip`), natural clocks
# (`ncu_src`'s `--clock-control none`), sections SpeedOfLight, WarpStateStats, SchedulerStats, MemoryWorkloadAnalysis,
# LaunchStats and the per-SASS source counters (`$OUT/src-*.csv.xz`, `$OUT/det-*.csv`).
# Package $D: as vs-fastcu.sh's (host.xz; hgemm.ptx.xz cut to hgemm_bf16_tn; stub.ptx + stub-families.txt;
# fastcu/matmul_12.cuh).   D=.gpu/s48d NAME=s49a bash tools/gpu/bench-gemm/ncu-vs-fastcu.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s49a}
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
$NVCC -O3 -DNDEBUG -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I$D/fastcu tools/gpu/bench-gemm/vs-fastcu.cu \
  -lcuda -lcublas -o /tmp/vsf > $R/nvcc.txt 2>&1
t "build rc=$? $(grep -iE 'error' $R/nvcc.txt | head -3 | tr '\n' ' ')"
timeout 120 $H gemm --ta --dtype bf16 --m 512 --k 1024 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt)"
SEC="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --section SourceCounters"
# fast.cu: one round, no rest, 8 launches a size: its 4096³ launches are the first 9 of matmulKernel12 (1 + 8)
ncu_src fastcu4096 --kernel-name regex:matmulKernel12 --launch-skip 4 /tmp/vsf 1 0 8
# ours: `host gemm --bench` launches the entry many times; skip the first few (the sustained mode's first batch)
ncu_src ours4096 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --bench
t end
