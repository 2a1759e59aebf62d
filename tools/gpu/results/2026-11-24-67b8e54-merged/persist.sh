#!/usr/bin/env bash
# Persistent (grid = min(tiles, SMs)) vs one CTA per tile, interleaved, 3 rounds.
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L > "$O/device.txt"
for r in 1 2 3; do for s in 2048 4096 8192 16384; do for dt in bf16 f16; do for p in 1 0; do
  echo -n "r$r p$p $dt $s " >> "$O/persist.txt"
  CUTE_RS_HGEMM_PERSISTENT=$p timeout 60 ./host gemm --dtype $dt --m $s --bench --csv 2>&1 | tee -a "$O/raw.txt" | grep "^gemm," | tr "\n" " " >> "$O/persist.txt"; echo >> "$O/persist.txt"
done; done; done; done
cat "$O/persist.txt" | awk -F, '{print $1, $NF}'
