#!/usr/bin/env bash
# GPU check of issue #10 (kernel build time): the same benchmarks with the host binary built
# BEFORE the build rework (one fat-LTO PTX module) and AFTER it (one module per family), in
# one run, side by side; then the correctness suite and the three sanitizers on the new binary.
# Since #12 rebuilt the kernels on the typed layer, the same table is #12's old/new comparison
# (measure the copies first: the typed tiled copies hold 48-56 registers against 22-38).
#
#   .gpu/before/host   (release host of the commit before #10)
#   .gpu/after/host    (release host of this commit)
#   OUT=/some/dir bash tools/gpu/issue10.sh      # SAN=0: skip the sanitizers
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-target/gpu-issue10}
mkdir -p "$OUT"
B=.gpu/before/host
A=.gpu/after/host
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
# the three sanitizers over every kernel (`cargo xtask sanitize` does the same: short sweeps)
if [ "${SAN:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
    for t in memcheck racecheck synccheck; do
        compute-sanitizer --tool $t --error-exitcode 1 "$A" run --sweep-gemm 20 --sweep-copy 10 \
            > "$OUT/after-$t.log" 2>&1
        echo "after $t host run rc=$?" | tee -a "$OUT/summary.txt"
    done
fi
tail -n 3 "$OUT"/*-run.log
echo "logs: $OUT"
