#!/usr/bin/env bash
# gemm-main2 go2: SwizzledRaster bands of 4 (s4) vs M-fastest (s1) over more shapes, interleaved,
# 3 rounds; ncu (DRAM bytes, L2 hit, clock, tensor pipe) of s4; s4 correctness + sanitizers.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 250 > "$O/smi.csv" 2>&1 &
SMI=$!
t0=$SECONDS
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "/tmp/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "/tmp/$name.log")" | tee -a "$O/summary.txt"; }
CUTE_RS_PTX_DIR=./s4 step run-s4 70 $H run --only hgemm
cases="bf16:8192:8192:8192:s1 bf16:8192:8192:8192:s4 f16:8192:8192:8192:s1 f16:8192:8192:8192:s4 bf16:4096:4096:4096:s1 bf16:4096:4096:4096:s4 bf16:2048:2048:2048:s1 bf16:2048:2048:2048:s4 bf16:16384:16384:16384:s1 bf16:16384:16384:16384:s4 bf16:8192:8192:512:s1 bf16:8192:8192:512:s4"
for r in 1 2 3; do
  for cs in $cases; do IFS=: read dt m n k sw <<< "$cs"
    [ $((SECONDS - t0)) -gt 150 ] && break 2
    echo -n "r$r c2 $sw $dt ${m}x${n}x${k} " >> "$O/bench.txt"
    CUTE_RS_PTX_DIR=./$sw timeout 30 $H gemm --dtype $dt --m $m --n $n --k $k --bench --csv 2>&1 | grep "^gemm," | awk -F, '{print $(NF-2), $(NF-1), $NF}' >> "$O/bench.txt"
  done
done
kill $SMI
CUTE_RS_PTX_DIR=./s4 timeout 30 ncu --clock-control none --launch-skip 2 --launch-count 2 --section SpeedOfLight --metrics sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum $H gemm --dtype bf16 --m 8192 --bench > "$O/ncu-s4.log" 2>&1
export CUTE_RS_PTX_DIR=./s4
step memcheck 40 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step synccheck 40 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
echo "total $((SECONDS - t0)) s" | tee -a "$O/summary.txt"
python3 - "$O/bench.txt" <<'PY' | tee "$O/medians.txt"
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) < 8: continue
    d[(p[3], p[4], p[1], p[2])].append((float(p[-3]), float(p[-2]), float(p[-1])))
for k in sorted(d):
    v = d[k]
    print(*k, "ours %.0f cuBLAS %.0f ratio median %.3f rounds %s" % (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), statistics.median(x[2] for x in v), " ".join("%.3f" % x[2] for x in v)))
PY
grep -E "^  [a-z_]|Duration|sm__cycles_elapsed.avg.per_second|hmma|DRAM Throughput|lts__t_sector_hit|dram__bytes_read" "$O"/ncu-s4.log | cut -c1-140
