#!/usr/bin/env bash
# GPU check of issue #10 (kernel build time): the same benchmarks with the host binary built
# BEFORE the build rework (one fat-LTO PTX module) and AFTER it (one module per family), in
# one run, side by side, and the correctness suite of both (the sanitizers: `all.sh 2`).
# Since #12 rebuilt the kernels on the typed layer, the same table is #12's old/new comparison.
#
#   .gpu/before/host   (release host of the commit before #10)
#   .gpu/after/host    (release host of this commit)
#   OUT=/some/dir bash tools/gpu/before-after-bench.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-target/gpu-issue10}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/nvidia-smi.log" 2>&1
for v in before after; do
    H=.gpu/$v/host
    "$H" info > "$OUT/$v-info.log" 2>&1
    "$H" run > "$OUT/$v-run.log" 2>&1; echo "$v host run rc=$?" | tee -a "$OUT/summary.txt"
done
# interleave before/after so clock/thermal drift hits both alike
for fam in copy gemm; do
    for v in before after; do
        .gpu/$v/host bench $fam --csv > "$OUT/$v-bench-$fam.csv" 2> "$OUT/$v-bench-$fam.err"
        echo "$v bench $fam rc=$?" | tee -a "$OUT/summary.txt"
    done
done
tail -n 3 "$OUT"/*-run.log
echo "logs: $OUT"
