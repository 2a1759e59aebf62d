#!/usr/bin/env bash
# tmacopy call 1: the TMA copy's launch cache (host) before/after, host issue cost, grid/smem sweep, ncu, sanitizers
cd "$(dirname "$0")"; O=${OUT:-/tmp/out}; mkdir -p "$O"; chmod +x host host-before tma_probe
nvidia-smi -L > "$O/device.txt"; T0=$SECONDS
./host run --only tma --sweep-copy 60 > "$O/run-tma.log" 2>&1; echo "run-tma rc=$? $(tail -1 "$O/run-tma.log") t=$((SECONDS-T0))"
for r in 1 2 3; do for b in host-before host; do ./$b bench copy --csv 2>/dev/null | grep '^copy' | sed "s/^/$b,$r,/" >> "$O/bench.csv"; done; done
echo "bench t=$((SECONDS-T0))"
awk -F, '$4 ~ /tma_copy_(row|col)_b[24]$|tiled_copy_row_f32_v4/ {printf "%s r%s %-28s %-22s %.3f\n", $1, $2, $4, $5, $13}' "$O/bench.csv" | grep -E ' (1|4|16|256|1024) MiB' | sort -k3,3 -k4,4n | head -400 > "$O/bench-short.txt"
for cfg in "1 65664" "2 65664" "4 65664" "16 65664" "1 49280" "1 98432" "1 33024"; do set -- $cfg
  CUTE_RS_TMA_TILES_PER_CTA=$1 CUTE_RS_TMA_SMEM=$2 ./tma_probe 2>&1 | grep -v '^device' | sed "s/^/$1,$2,/" >> "$O/probe.csv"; done
echo "probe t=$((SECONDS-T0))"
timeout 60 ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,dram__throughput.avg.pct_of_peak_sustained_elapsed -k regex:'tma_copy_row_b4|tiled_copy_row_f32_v4' ./tma_probe ncu > "$O/ncu.csv" 2>&1; echo "ncu rc=$? t=$((SECONDS-T0))"
for tool in memcheck synccheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool ./host run --only tma --sweep-copy 4 > /tmp/san.log 2>&1; rc=$?
  { echo "== $tool rc=$rc"; grep -E 'ERROR SUMMARY|HAZARD|RACECHECK SUMMARY|passed|failed' /tmp/san.log | tail -4; } >> "$O/san.txt"; echo "$tool rc=$rc t=$((SECONDS-T0))"; done
cat "$O/san.txt"
grep -E '^1,65664' "$O/probe.csv"
