#!/usr/bin/env bash
# A/B of GEMM builds in one device call: `host bench gemm --csv` of each build, interleaved,
# ROUNDS times, then `host gemm --sweep` of each (bounded and unbounded entries per size).
#   OUT=dir ROUNDS=2 bash tools/gpu/gemm-ab.sh main strips eo   # .gpu/<name>/host each
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-target/gpu-gemm-ab}
ROUNDS=${ROUNDS:-2}
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
    for v in "$@"; do
        .gpu/$v/host bench gemm --csv > "$OUT/$v-bench-gemm-$r.csv" 2> "$OUT/$v-bench-gemm-$r.err"
        echo "$v bench gemm round $r rc=$?" | tee -a "$OUT/summary.txt"
    done
done
for v in "$@"; do
    .gpu/$v/host gemm --sweep > "$OUT/$v-gemm-sweep.txt" 2>&1
    echo "$v gemm --sweep rc=$?" | tee -a "$OUT/summary.txt"
done
