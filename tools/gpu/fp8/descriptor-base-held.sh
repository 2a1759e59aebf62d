#!/usr/bin/env bash
# (session 54; issue #37) The wgmma descriptor bases broadcast from lane 0 (`DescriptorIterator::warp_uniform`) so that
# ptxas holds them across the k-loop instead of rebuilding B's from the shared-memory address in every k-tile. Runs
# s53a / s54a / s54b found the fused FP8 `_n192tma` entries' k-loop at 157 SASS instructions a k-tile and warp against
# 144 in their measuring variants (`nos`, `bf`), 274.1 M against 255.9 M instructions at 8192³ (+7.1 %), 1,325 k
# against 1,228 k cycles (ncu), 0.89-0.91 of cuBLASLt's GELU_BIAS against 0.98-1.00. With the broadcast (ptxas 13.0):
# every FP8 entry's k-loop as long or shorter — the fused ones 157 -> 143, the plain `_n192tma` 144 -> 143, fast 49 -> 48,
# block `_pp64` 491 -> 483 — 0 spills, 168 registers.
# Variants (whole hgemm_fp8 modules): base = main before (7230c29), wu = with the broadcast.
# Package $D: host.xz (main's), stub.ptx + stub-families.txt ("attention copy gemm_n gemm_t hgemm tma"),
# {base,wu}/hgemm_fp8.ptx.xz.
#   D=.gpu/s54c NAME=s54c bash tools/gpu/fp8/descriptor-base-held.sh   (~300 s)
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s54c}
variants "base wu" hgemm_fp8 --dtype e4m3 --m 256 --n 384 --k 256
export CUTE_RS_PTX_DIR=/tmp/pvwu
timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C sweep (wu) rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -2 | tr '\n' ' ')"
for a in "--m 2048 --n 1100 --k 1008 --bias n --act gelu --row-scales --col-scales" \
         "--m 1024 --n 1030 --k 512 --bias n --act relu --col-scales --out f32" \
         "--m 2048 --n 4100 --k 1024 --bias m --act silu --row-scales --col-scales" \
         "--m 2048 --n 2048 --k 2048" "--m 2048 --n 2048 --k 2048 --block-scales" "--m 2048 --n 2048 --k 2048 --fast-accum" \
         "--m 128 --n 7168 --k 4096" "--m 4096 --n 2112 --k 1024 --block-scales"; do
  c gemm --dtype e4m3 $a; done
timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype e4m3 --m 1024 --n 1030 --k 512 --bias n \
  --act gelu --row-scales --col-scales --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
ROUNDS=${ROUNDS:-3} ab "base wu" "--dtype e4m3 --m 8192 --n 8192 --k 8192 --bias m --act gelu" \
  "--dtype e4m3 --m 4096 --n 7168 --k 16384 --bias m --act gelu" "--dtype e4m3 --m 8192 --n 8192 --k 8192" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --m 4096 --n 7168 --k 16384" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales" "--dtype e4m3 --m 8192 --n 8192 --k 8192 --block-scales" \
  "--dtype e4m3 --m 128 --n 7168 --k 16384" "--dtype e4m3 --m 8192 --n 8192 --k 8192 --fast-accum"
t end
