#!/usr/bin/env bash
# Usage: build here (cargo build --release -p host), copy target/release/host and
# target/ptx/hgemm.ptx into .gpu/collectives/, then run this with OUT=$OUT (one H200 call, ~4 min).
# collectives helper: the hgemm family rebuilt from kernels/collective — checks, benches (both
# timings), ptxas/SASS resource lines. Logs under $OUT.
set -u
D=.gpu/collectives
H=$D/host
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
# ptxas resource lines and SASS facts of the embedded hgemm module (once)
if [ -f $D/hgemm.ptx ]; then
  ptxas -arch=sm_90a -v -o "$OUT/hgemm.cubin" $D/hgemm.ptx > "$OUT/ptxas.txt" 2>&1
  echo "ptxas rc=$?" >> "$OUT/ptxas.txt"
  cuobjdump -sass "$OUT/hgemm.cubin" > /tmp/hgemm.sass 2>&1
  { echo "HGMMA lines: $(grep -c HGMMA /tmp/hgemm.sass)"; echo "LDL/STL: $(grep -cE 'LDL|STL' /tmp/hgemm.sass)"; } >> "$OUT/ptxas.txt"
  rm -f "$OUT/hgemm.cubin"
fi
timeout 120 $H run --only hgemm > "$OUT/run-hgemm.txt" 2>&1; echo "run --only hgemm rc=$?" | tee -a "$OUT/summary.txt"
timeout 40 $H gemm --dtype bf16 --m 64 --alpha inf --check > "$OUT/mend-alpha.txt" 2>&1; echo "alpha inf rc=$? (want 2)" | tee -a "$OUT/summary.txt"
timeout 40 $H gemm --dtype bf16 --m 200000 --check > "$OUT/mend-huge.txt" 2>&1; echo "huge rc=$? (want 2)" | tee -a "$OUT/summary.txt"
timeout 200 $H bench gemm --csv > "$OUT/bench-gemm.csv" 2> "$OUT/bench-gemm.err"; echo "bench gemm rc=$?" | tee -a "$OUT/summary.txt"
grep -i hgemm "$OUT/bench-gemm.csv" | head -40 >> "$OUT/summary.txt"
timeout 45 $H gemm --dtype bf16 --m 8192 --ta --bench > "$OUT/gemm-bf16-8192-tn.txt" 2>&1; echo "gemm bf16 8192 TN rc=$?" | tee -a "$OUT/summary.txt"
