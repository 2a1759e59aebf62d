#!/usr/bin/env bash
# (session 50; run s51c in session 51: the band of 8 stays; issue #34) The tile order's band on the balanced grid. Session 50's balance made
# 4096³ and 8192³ run on 64 clusters (whole waves) where the band of 8 N-tiles (`config::SWIZZLE`) was chosen on 66
# (sessions 17–19); run s50a read the kernel power-bound (fewer DRAM bytes, a higher clock). Here bands of 4, 8 and 16
# and the Hilbert order on the new default grid, alternated, ROUNDS rounds, burst and sustained, bf16 TN 4096³ / 8192³
# and f16 NN 8192³; then ncu's DRAM bytes and clock of bands 8 and 16 at 4096³.
# Package $D: host.xz (session 50's final), hgemm.ptx.xz (whole or cut to the bf16 TN / f16 NN entries).
#   D=.gpu/s51a NAME=s51c BUDGET=420 bash tools/gpu/bench-gemm/band-on-balanced.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s51c}
ROUNDS=${ROUNDS:-2}
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096
for i in $(seq $ROUNDS); do
  for GARGS in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192" "--dtype f16 --m 8192"; do
    [ $(left) -gt 80 ] || break 2
    g "band8-$i"; g "band4-$i" CUTE_RS_HGEMM_SWIZZLE=4; g "band16-$i" CUTE_RS_HGEMM_SWIZZLE=16
    g "hilbert$i" CUTE_RS_HGEMM_SWIZZLE=hilbert
  done
done
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis"
ncu_src oband8 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
CUTE_RS_HGEMM_SWIZZLE=16 ncu_src oband16 --kernel-name hgemm_bf16_tn --launch-skip 4 \
  $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
t end
