#!/usr/bin/env bash
# (session 69; issue #37) Is a 128 × 160 per-tensor tile worth a TMA epilogue? At 4096×7168×16384 cuBLASLt promotes on
# 128 × 160 (5 stages) and runs 6 % ahead of ours in bursts (run s69c). The 160-wide entries exist with the direct
# epilogue only (`_n160`, 6 stages; `_n160s5`, 5; fp8-variants): each against the 128 × 192 one with the same direct
# epilogue (`_n192`), the TMA-epilogue default `_n192tma` and the rule's 128 × 128 (`_n128tma6`), `--check` of the
# 160s first, then two rounds alternated of `host gemm --dtype e4m3 --bench` (sustained and burst) at
# 4096×7168×16384 and 8192³.
# Package $D: host.xz (main's release host), hgemm_fp8.ptx.xz (a build with `CUTE_RS_KERNEL_FEATURES=
# hgemm_fp8/fp8-variants`, cut to the per-tensor entries and those), hgemm.ptx.xz (`hgemm_bf16_tn` alone).
#   BUDGET=220 D=.gpu/s69d NAME=s69d bash tools/gpu/fp8/per-tensor-n160-direct.sh
BUDGET=${BUDGET:-220}; . tools/gpu/lib.sh ${NAME:-s69d}
for v in n160 n160s5; do
  env CUTE_RS_FP8_PROMOTED=$v timeout 120 $H gemm --dtype e4m3 --m 300 --n 200 --k 528 --check > $R/c.txt 2>&1 < /dev/null
  t "C $v rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
done
for i in 1 2; do
  for a in "--m 4096 --n 7168 --k 16384" "--m 8192 --n 8192 --k 8192"; do
    GARGS="--dtype e4m3 $a"
    for v in n128tma6 n192tma n192 n160s5 n160; do [ $(left) -gt 15 ] || break 3; g "$v$i" CUTE_RS_FP8_PROMOTED=$v; done
  done
done
t end
