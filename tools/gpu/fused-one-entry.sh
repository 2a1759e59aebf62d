#!/usr/bin/env bash
# The fused GEMM as one entry (`hgemm_fused_bf16_tn`, the activation a run-time parameter;
# doc/compile-time.md 2026-11-29): every activation checked, and the fused bench of the
# five-entry days (doc/hopper-gemm.md: 8192³ bias M + GELU 0.92 / 0.92 of cuBLASLt) again.
# ~45 s of GPU time.   H=path/to/release/host OUT=dir bash tools/gpu/fused-one-entry.sh
# Prints: `host run --only hgemm`'s summary (its 7 fixed fused cases: each activation, bias
# M/N/none, TMA and direct paths, edges, beta ≠ 0; every third sweep problem fused), one
# `--check` per activation (identity with a bias, ReLU, GELU tanh and erf, SiLU; PASS/FAIL rows),
# and the sustained / burst TFLOP/s rows of the fused bench at 8192³ (bias M + GELU against
# cuBLASLt's GELU_BIAS, bias M + SiLU) and of the plain bf16 GEMM (the fused / plain ratio).
set -u
H=${H:?H=path to the release host binary}
OUT=${OUT:?OUT=output dir}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
log "host run --only hgemm --sweep-hgemm 30"
timeout 120 "$H" run --only hgemm --sweep-hgemm 30 > "$OUT/run-hgemm.txt" 2>&1; echo "rc=$?" | tee -a "$OUT/summary.txt"
tail -5 "$OUT/run-hgemm.txt" | tee -a "$OUT/summary.txt"
for a in "m relu" "n gelu" "m gelu-erf" "n silu" "m"; do
    set -- $a
    log "host gemm --m 1000 --n 777 --k 320 --ta --dtype bf16 --bias $1 ${2:+--act $2} --check"
    timeout 60 "$H" gemm --m 1000 --n 777 --k 320 --ta --dtype bf16 --bias $1 ${2:+--act $2} --check 2>&1 | tail -3 | tee -a "$OUT/summary.txt"
done
for act in gelu silu; do
    log "host gemm --m 8192 --ta --dtype bf16 --bias m --act $act --bench"
    timeout 90 "$H" gemm --m 8192 --ta --dtype bf16 --bias m --act $act --bench 2>&1 | tail -4 | tee -a "$OUT/summary.txt"
done
log "host gemm --m 8192 --ta --dtype bf16 --bench (plain, for the fused / plain ratio)"
timeout 90 "$H" gemm --m 8192 --ta --dtype bf16 --bench 2>&1 | tail -4 | tee -a "$OUT/summary.txt"
