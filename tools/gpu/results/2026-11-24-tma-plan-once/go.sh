#!/usr/bin/env bash
cd "$(dirname "$0")"; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L > "$O/device.txt"
./host run --only tma --sweep-copy 60 > "$O/run-tma.log" 2>&1; echo "after host run --only tma rc=$? $(tail -1 "$O/run-tma.log")"
for r in 1 2; do for b in host-before host; do ./$b bench copy --csv 2>/dev/null | grep '^copy' | grep 'tma_copy_row_b4,\|tma_copy_col_b2,\|tiled_copy_row_f32_v4,' > "$O/bench-$b-$r.csv"; done; done
for f in "$O"/bench-*.csv; do echo "== $(basename $f)"; awk -F, '{printf "%s %s %.3f\n", $2, $3, $11}' "$f"; done
