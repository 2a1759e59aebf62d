#!/usr/bin/env bash
# (session 54; issue #37) memcheck, racecheck and synccheck of main at a024609's 128 × 192 entries (the held descriptor
# base and the ranged TMA index): the fused entry with both scale vectors and bias N (bf16 and f32 D), the plain
# per-tensor entry forced onto 128 × 192, the block-scaled entry (128 × 192 by default).
# Package: s54f's (`oi` = a024609's hgemm_fp8 module).
#   D=.gpu/s54f NAME=s54h bash tools/gpu/fp8/sanitize-n192-after-held-base.sh   (~100 s)
BUDGET=${BUDGET:-160}; . tools/gpu/lib.sh ${NAME:-s54h}
mkdir -p /tmp/pvoi; cp $P/*.ptx /tmp/pvoi/; x $D/oi/hgemm_fp8.ptx.xz /tmp/pvoi/hgemm_fp8.ptx
export CUTE_RS_PTX_DIR=/tmp/pvoi
c gemm --dtype e4m3 --m 256 --n 384 --k 256
for a in "--dtype e4m3 --m 1024 --n 1030 --k 512 --bias n --act gelu --row-scales --col-scales" \
         "--dtype e4m3 --m 1024 --n 1030 --k 512 --bias m --act silu --row-scales --out f32" \
         "--dtype e4m3 --m 1024 --n 1030 --k 512" "--dtype e4m3 --m 1000 --n 1030 --k 1024 --block-scales"; do
  for tool in memcheck racecheck synccheck; do
    [ $(left) -gt 15 ] || break 2
    CUTE_RS_FP8_PROMOTED=n192tma timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H gemm $a \
      --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
  done; done
t end
