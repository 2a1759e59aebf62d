#!/usr/bin/env bash
# (session 49, issue #34; prepared, not yet run) fast.cu's kernel 12 read 9 % fewer DRAM bytes than ours at 4096³ bf16 TN
# under ncu (run s49f: 884 against 968 GB/s, L2 hit 78.5 against 77.2 %; both at 1.60 GHz of 1.98, power-bound), and is
# 1.1 % ahead. Its tile order (a Hilbert curve) on 128 SMs is ours through the measuring overrides (CUTE_RS_HGEMM_SWIZZLE,
# CUTE_RS_HGEMM_SMS), each measured level alone in sessions 19 and 27 — before the per-k-tile wait, and without reading
# the DRAM bytes or the clocks. Here: the four combinations alternated, ROUNDS rounds, `host gemm --bench` (burst and
# sustained) at 4096³ and 8192³ bf16 TN; then ncu (SpeedOfLight, MemoryWorkloadAnalysis) of the default and of both
# overrides at 4096³, one launch each: DRAM bytes, L2 hit rate, SM clock.
# Package $D: host.xz, hgemm.ptx.xz (cut: hgemm_bf16_tn at least), stub.ptx + stub-families.txt.
#   D=.gpu/s50a NAME=s50a bash tools/gpu/bench-gemm/fastcu-order-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s50a}
ROUNDS=${ROUNDS:-3}
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096
for i in $(seq $ROUNDS); do for GARGS in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192"; do
  [ $(left) -gt 90 ] || break 2
  g "default$i"
  g "sms128-$i" CUTE_RS_HGEMM_SMS=128
  g "hilbert$i" CUTE_RS_HGEMM_SWIZZLE=hilbert
  g "both$i" CUTE_RS_HGEMM_SMS=128 CUTE_RS_HGEMM_SWIZZLE=hilbert
done; done
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis"
ncu_src odefault --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
CUTE_RS_HGEMM_SMS=128 CUTE_RS_HGEMM_SWIZZLE=hilbert ncu_src oboth --kernel-name hgemm_bf16_tn --launch-skip 4 \
  $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
t end
