#!/usr/bin/env bash
# tmacopy call 2: TmaGrid::Auto (persistent up to 4 waves) — checks, bench rounds, tile-vs-persistent probe 8..64 MiB, sanitizers
cd "$(dirname "$0")"; O=${OUT:-/tmp/out}; mkdir -p "$O"; chmod +x host tma_probe
nvidia-smi -L > "$O/device.txt"; T0=$SECONDS
./host run --only tma --sweep-copy 60 > "$O/run-tma.log" 2>&1; echo "run-tma rc=$? $(tail -1 "$O/run-tma.log") t=$((SECONDS-T0))"
for r in 1 2 3; do ./host bench copy --csv 2>/dev/null | grep '^copy' | sed "s/^/host,$r,/" >> "$O/bench.csv"; done
echo "bench t=$((SECONDS-T0))"
for r in 1 2; do for g in tile persistent; do
  PROBE_SIZES=8,12,16,20,24,32,48,64 CUTE_RS_TMA_GRID=$g ./tma_probe 2>&1 | grep -v '^device' | sed "s/^/$r,$g,/" >> "$O/probe.csv"; done; done
echo "probe t=$((SECONDS-T0))"
for tool in memcheck synccheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool ./host run --only tma --sweep-copy 4 > /tmp/san.log 2>&1; rc=$?
  { echo "== $tool rc=$rc"; grep -E 'ERROR SUMMARY|HAZARD|RACECHECK SUMMARY|passed|failed' /tmp/san.log | tail -4; } >> "$O/san.txt"; echo "$tool rc=$rc t=$((SECONDS-T0))"; done
cat "$O/san.txt"
awk -F, '$4=="tma"{print $1,$2,$3,$4,$6,$7}' "$O/probe.csv" | sort -k3,3n -k2,2 | column -t
