#!/usr/bin/env bash
# tmacopy call 3: the final build — checks, 5 rounds of host bench copy, sanitizers
cd "$(dirname "$0")"; O=${OUT:-/tmp/out}; mkdir -p "$O"; chmod +x host
nvidia-smi -L > "$O/device.txt"; T0=$SECONDS
./host run --only tma --sweep-copy 60 > "$O/run-tma.log" 2>&1; echo "run-tma rc=$? $(tail -1 "$O/run-tma.log") t=$((SECONDS-T0))"
for r in 1 2 3 4 5; do ./host bench copy --csv 2>/dev/null | grep '^copy' | sed "s/^/host,$r,/" >> "$O/bench.csv"; done
echo "bench t=$((SECONDS-T0))"
for tool in memcheck synccheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool ./host run --only tma --sweep-copy 4 > /tmp/san.log 2>&1; rc=$?
  { echo "== $tool rc=$rc"; grep -E 'ERROR SUMMARY|HAZARD|RACECHECK SUMMARY|passed|failed' /tmp/san.log | tail -4; } >> "$O/san.txt"; echo "$tool rc=$rc t=$((SECONDS-T0))"; done
cat "$O/san.txt"
