#!/usr/bin/env bash
# (session 73; issue #34) The 4096³ plan's run-time choices again, now that the sustained mode is warmed up (its
# ratios within ~0.5 %): bf16 NN 4096³ with and without `--beta 1`, `host gemm --bench` (sustained and burst) under
# the default plan and five measuring overrides — the Hilbert order, bands of 16, the stream-K tail on all 132 SMs
# (no balanced grid), no clusters, C stored from registers (no TMA store) — alternated, rounds while the budget lasts.
# Package $D: host.xz (this tree's release host) and cubin/ (bash tools/gpu/pack-cubins.sh $D).
#   BUDGET=330 D=.gpu/s73b NAME=s73d bash tools/gpu/gemm/overrides-4096-warmed.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s73d}
for i in 1 2 3; do
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; do
    GARGS="$a"
    for v in "default X=0" "hilbert CUTE_RS_HGEMM_SWIZZLE=hilbert" "band16 CUTE_RS_HGEMM_SWIZZLE=16" \
      "sms132 CUTE_RS_HGEMM_SMS=132 CUTE_RS_HGEMM_BALANCE=0" "cluster1 CUTE_RS_HGEMM_CLUSTER=1" \
      "direct CUTE_RS_HGEMM_EPILOGUE=direct"; do
      [ $(left) -gt 20 ] || break 3; set -- $v; tag=$1; shift; g "$tag$i" "$@"
    done
  done
done
t end
