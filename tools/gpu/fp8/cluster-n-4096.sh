#!/usr/bin/env bash
# (session 64, prepared; issue #37) Two leads at 4096³ e4m3 that need no change to a default:
# - per-tensor: cuBLASLt's kernel there is our tile and schedule (128 × 128 × 128, 6 stages, cooperative) in clusters
#   of 1 × 2 on the H100 (`nvjet_sm90_qqtst_128x128_128x6_1x2_...`, run s63b) and 2 × 1 on the H200 (session 19); ours
#   is 2 × 1 on both. `gemm_fp8_e4m3_tn_promoted_n128tma6_cn` is `_n128tma6` with clusters along N (A's tile
#   multicast; `CUTE_RS_FP8_PROMOTED=n128tma6cn`).
# - block scales: the paired 128 × 128 block entry on a data-parallel grid (`_staged_tma5`, `CUTE_RS_FP8_BLOCK=
#   stagedtma5`, 0 spills; the stream-K one spills 24 bytes) against the default split (128 × 192 + 128 × 128
#   split-K: 0.85 / 0.92 of ours per-tensor sustained / burst, run s63d). The per-tensor 128 × 128 tile is paired;
#   every block entry measured on the H100 since session 36 has one temporary.
# First the `--check`s of both variants (edges, a single M-tile with clusters along N), then ROUNDS alternated
# `--bench`es (sustained and burst against cuBLASLt in the same process; the block rows also against our per-tensor
# launch), then ncu's L2 and DRAM bytes of one launch of each per-tensor cluster shape.
# Package $D: host.xz (a release host of this tree: it knows `n128tma6cn`), hgemm_fp8.ptx.xz (the hgemm_fp8 module
# built with `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants`, cut by tools/gpu/cut_ptx.py to the default entries but
# the fused ones, and the two variants).
#   BUDGET=380 D=.gpu/s65a NAME=s65a bash tools/gpu/fp8/cluster-n-4096.sh
BUDGET=${BUDGET:-380}; . tools/gpu/lib.sh ${NAME:-s65a}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
for s in "--m 1000 --n 1030 --k 1024" "--m 600 --n 520 --k 640" "--m 128 --n 7232 --k 2048" "--m 2048 --n 2048 --k 2048"; do
  CUTE_RS_FP8_PROMOTED=n128tma6cn c gemm --dtype e4m3 $s
done
CUTE_RS_FP8_BLOCK=stagedtma5 c gemm --dtype e4m3 --block-scales --m 1024 --n 1024 --k 1024
CUTE_RS_FP8_BLOCK=stagedtma5 c gemm --dtype e4m3 --block-scales --m 640 --n 896 --k 512
for i in $(seq ${ROUNDS:-3}); do
  [ $(left) -gt 120 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
  g pt-$i; g ptcn-$i CUTE_RS_FP8_PROMOTED=n128tma6cn
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"
  g blk-$i; g blktma5-$i CUTE_RS_FP8_BLOCK=stagedtma5
done
GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"
for i in 1 2; do
  [ $(left) -gt 80 ] || break
  g pt7168-$i; g ptcn7168-$i CUTE_RS_FP8_PROMOTED=n128tma6cn
done
G="gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --bench --timing burst"
prof pt 1 -k regex:gemm_fp8 $H $G
CUTE_RS_FP8_PROMOTED=n128tma6cn prof ptcn 1 -k regex:gemm_fp8 $H $G
t end
