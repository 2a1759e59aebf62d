#!/usr/bin/env bash
# helper fp8 (issue #37, round 3): NOT RUN (no device time left in the session). What it checks:
# the promoted kernel's consumer schedules on the H200 — one temporary, no turns (=default: the
# kernel measured in round 2), paired temporaries + turns (=paired-turns), paired without turns
# (=paired), turns only (=turns) — each against cuBLASLt in the same process; ncu of the default vs the fast kernel at
# 4096x7168x16384; the FP8 sweep. host.xz: branch fp8 built with CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants.
# Run: copy this script to .gpu/fp8/go.sh beside host.xz; run(command="bash .gpu/fp8/go.sh", carry=[".gpu/fp8"], timeout_s=200). Logs under $OUT.
set -u
D=.gpu/fp8
mkdir -p /tmp/fp8
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/fp8/host','wb'))"; chmod +x /tmp/fp8/host
H=/tmp/fp8/host; O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
t start
S="--m 4096 --n 7168 --k 16384"
# correctness of each schedule first (odd and even k-tile counts: K = 2048 is 16, K = 528 is 5)
for v in default paired-turns paired turns; do
  CUTE_RS_FP8_PROMOTED=$v timeout 30 $H gemm --dtype e4m3 --m 512 --n 384 --k 2048 --check 2>&1 | tail -n 1 | sed "s/^/$v: /" | tee -a $O/summary.txt
  CUTE_RS_FP8_PROMOTED=$v timeout 30 $H gemm --dtype e4m3 --m 300 --n 200 --k 528 --check --block-scales 2>&1 | tail -n 1 | sed "s/^/$v: /" | tee -a $O/summary.txt
done
t "checks done"
for a in "$S" "--m 4096" "--m 8192"; do
  for v in default paired-turns paired turns; do
    echo "== $v $a" >> $O/bench.txt
    CUTE_RS_FP8_PROMOTED=$v timeout 30 $H gemm --dtype e4m3 $a --bench 2>&1 | tail -n 3 | head -n 2 | tee -a $O/bench.txt
  done
done
for v in default paired-turns paired turns; do
  echo "== $v block $S" >> $O/bench.txt
  CUTE_RS_FP8_PROMOTED=$v timeout 30 $H gemm --dtype e4m3 $S --bench --block-scales 2>&1 | tail -n 3 | head -n 2 | tee -a $O/bench.txt
done
timeout 30 $H gemm --dtype e4m3 $S --bench --fast-accum 2>&1 | tail -n 4 | head -n 3 | tee -a $O/bench.txt
t "bench done"
SEC="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables"
MET="--metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
for v in default paired-turns fast; do
  X=""; [ $v = fast ] && X="--fast-accum"
  CUTE_RS_FP8_PROMOTED=${v/fast/default} timeout 40 ncu --clock-control none -k regex:gemm_fp8 --launch-skip 2 --launch-count 1 $SEC $MET $H gemm --dtype e4m3 $S --bench $X > $O/ncu-$v.txt 2>&1
  t "ncu $v exit $?"
done
timeout 60 $H gemm --dtype e4m3 > $O/sweep.txt 2>&1; t "sweep exit $?"
tail -1 $O/sweep.txt | tee -a $O/summary.txt; grep -E "FAIL" $O/sweep.txt | head -10 | tee -a $O/summary.txt
t end
