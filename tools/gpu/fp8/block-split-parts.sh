#!/usr/bin/env bash
# (session 69; issue #37) Where the block-scaled launches at 4096³ and 512×7168×8192 spend their time (0.85 and 0.83 of
# our per-tensor kernel sustained on an H100, run s69a): 4096³ is two launches (`Fp8BlockEntry::split_n`: 3840 columns
# on 128 × 192, 256 on 128 × 128 split-K); each part timed alone (4096×3840×4096 on the rule's entry, 4096×256×4096 on
# the rest's and on the other entries), other split points; 512×7168×8192 (one launch on 128 × 128 stream-K) against a
# split at 6144 or 5760 columns (one wave of 128 × 192 cluster tiles, the rest on 128 × 128). Two rounds, each
# `host gemm --dtype e4m3 --block-scales --bench` (sustained and burst, against cuBLASLt and ours per-tensor).
# Package $D: host.xz (main's release host) and hgemm_fp8.ptx.xz (the module cut to the FP8 entries these take),
# hgemm.ptx.xz (`hgemm_bf16_tn` alone).
# Its `--check`s take shapes under `--check`'s 10¹⁰ multiply-adds (run s69b asked for the bench shapes: refused, exit 2).
#   BUDGET=330 D=.gpu/s69b NAME=s69b bash tools/gpu/fp8/block-split-parts.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s69b}
c gemm --dtype e4m3 --block-scales --m 1000 --n 1024 --k 1024
c gemm --dtype e4m3 --block-scales --m 512 --n 2048 --k 2048
env CUTE_RS_FP8_BLOCK=stagedn192tma CUTE_RS_FP8_BLOCK_SPLIT=1536 timeout 60 $H gemm --dtype e4m3 --block-scales --m 512 \
  --n 2048 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "C split 1536 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"
B="--dtype e4m3 --block-scales"
for i in 1 2; do
  GARGS="$B --m 4096 --n 4096 --k 4096"; g "whole$i"; g "split3072_$i" CUTE_RS_FP8_BLOCK_SPLIT=3072
  GARGS="$B --m 4096 --n 3840 --k 4096"; g "first$i"
  GARGS="$B --m 4096 --n 256 --k 4096"; g "rest$i"
  for e in pp64 stagedn192tma stagedpp64x4; do g "rest-$e$i" CUTE_RS_FP8_BLOCK=$e; done
  GARGS="$B --m 512 --n 7168 --k 8192"; g "m512_$i"
  for s in 6144 5760; do g "m512split$s-$i" CUTE_RS_FP8_BLOCK=stagedn192tma CUTE_RS_FP8_BLOCK_SPLIT=$s; done
done
t end
