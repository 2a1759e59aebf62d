#!/usr/bin/env bash
# gepi run3: f32 C (bf16/fp16 inputs) through the TMA epilogue vs direct, 2 interleaved rounds.
set -u
cd "$(dirname "$0")"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/f32.txt"
for r in 1 2; do
  for shape in "--m 8192 --n 8192 --k 512" "--m 4096" "--m 8192"; do
    for dt in bf16 f16; do
      for mode in direct tma; do
        if [ $mode = direct ]; then E="env CUTE_RS_HGEMM_EPILOGUE=direct"; else E=env; fi
        echo "round $r $mode $dt $shape: $(timeout 60 $E $H gemm --dtype $dt $shape --out f32 --bench 2>&1 | tail -2 | tr '\n' ' ')" | tee -a "$O/f32.txt"
      done
    done
  done
done
