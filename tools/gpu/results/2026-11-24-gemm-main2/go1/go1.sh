#!/usr/bin/env bash
# gemm-main2 go1: correctness, interleaved ours-vs-cuBLAS bench (cluster 1/2, swizzle variants),
# ncu of ours and cuBLAS at 8192^3 bf16/fp16, sanitizers. Variants: v<name>/hgemm.ptx via CUTE_RS_PTX_DIR.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 250 > "$O/smi.csv" 2>&1 &
SMI=$!
t0=$SECONDS
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step run 70 $H run --only hgemm
# interleaved bench: every variant of one shape back to back, 3 rounds
cases="bf16:8192:c2:s1 bf16:8192:c1:s1 bf16:8192:c2:s4 bf16:8192:c2:s2 f16:8192:c2:s1 f16:8192:c1:s1 bf16:4096:c2:s1"
for r in 1 2 3; do
  for cs in $cases; do IFS=: read dt sz cl sw <<< "$cs"
    [ $((SECONDS - t0)) -gt 130 ] && break 2
    echo -n "r$r $(date +%T.%N | cut -c1-12) $cl $sw $dt ${sz}x${sz}x${sz} " >> "$O/bench.txt"
    CUTE_RS_PTX_DIR=./$sw CUTE_RS_HGEMM_CLUSTER=${cl#c} timeout 30 $H gemm --dtype $dt --m $sz --bench --csv 2>&1 | grep "^gemm," | awk -F, '{print $(NF-2), $(NF-1), $NF}' >> "$O/bench.txt"
  done
done
kill $SMI
# ncu: launches 2 and 3 of the process = ours then cuBLAS (after both warm-ups), real clocks
for dt in bf16 f16; do
  [ $((SECONDS - t0)) -gt 165 ] && break
  step ncu-$dt 30 ncu --clock-control none --launch-skip 2 --launch-count 2 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --metrics sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,gpu__time_duration.sum $H gemm --dtype $dt --m 8192 --bench
done
step memcheck 40 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step synccheck 40 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
ptxas -arch=sm_90a -v s1/hgemm.ptx -o /tmp/hgemm.cubin > "$O/ptxas.txt" 2>&1; cuobjdump -sass /tmp/hgemm.cubin > /tmp/sass.txt 2>&1
for op in HGMMA UTMALDG.2D.MULTICAST UTMASTG LDL STL; do echo "$op: $(grep -c "$op" /tmp/sass.txt)" | tee -a "$O/summary.txt"; done
grep -E "spill" "$O/ptxas.txt" | sort | uniq -c | tee -a "$O/summary.txt"
echo "total $((SECONDS - t0)) s" | tee -a "$O/summary.txt"
python3 - "$O/bench.txt" <<'PY' | tee "$O/medians.txt"
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) < 9: continue
    d[(p[4], p[5], p[2], p[3])].append((float(p[-3]), float(p[-2]), float(p[-1])))
for k in sorted(d):
    v = d[k]
    print(*k, "ours %.0f cuBLAS %.0f ratio median %.3f rounds %s" % (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), statistics.median(x[2] for x in v), " ".join("%.3f" % x[2] for x in v)))
PY
grep -E "^  [a-z_]|Duration|SM Frequency|sm__cycles_elapsed.avg.per_second|hmma|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L2 Hit|lts__t_sector_hit|dram__bytes_read|Grid Size|Cluster Size|Registers Per|Achieved Occupancy|Block Size|Shared Memory Config" "$O"/ncu-*.log | cut -c1-160
