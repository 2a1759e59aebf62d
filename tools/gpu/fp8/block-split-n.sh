#!/usr/bin/env bash
# (session 55; issue #37) The block entry's part-empty last wave as a launch of its own: a block-scaled problem on
# `Fp8BlockEntry::BLOCK` (128 × 192 tiles, data-parallel) gives it D's first n1 columns, whole waves or nearly, and
# launches the other n − n1 on the entry `Fp8BlockEntry::for_problem` picks for them (`Context::gemm_fp8_block_split`;
# the rule `Fp8BlockEntry::split_n`: 4096³ → 3840 + 256, 4096×7168×16384 → 6912 + 256, 8192³ none). Host only: the
# modules are main's. `CUTE_RS_FP8_BLOCK_SPLIT=0` is the launch before (one), `=<n1>` forces a split.
# Checks (forced splits at small shapes, the rule at 4096×4096×512, a refused split), memcheck of a split launch, then
# three rounds of the bench shapes: block scales without a split / the rule / other n1, per-tensor beside them.
# Package $D: host.xz (this tree's release host; its embedded modules are main's).
#   D=.gpu/s55b NAME=s55b bash tools/gpu/fp8/block-split-n.sh   (~300 s)
BUDGET=${BUDGET:-380}; . tools/gpu/lib.sh ${NAME:-s55b}
warm
c gemm --dtype e4m3 --m 4096 --n 4096 --k 512 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=384;  c gemm --dtype e4m3 --m 1000 --n 1000 --k 1024 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=768;  c gemm --dtype e4m3 --m 512 --n 1000 --k 2048 --block-scales --out f32
export CUTE_RS_FP8_BLOCK_SPLIT=3840; c gemm --dtype e4m3 --m 2048 --n 4096 --k 1024 --block-scales --out f16
export CUTE_RS_FP8_BLOCK_SPLIT=1152; c gemm --dtype e4m3 --m 300 --n 1300 --k 2048 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=128;  c gemm --dtype e4m3 --m 512 --n 512 --k 128 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=384
timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype e4m3 --m 1000 --n 1000 --k 1024 \
  --block-scales --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
unset CUTE_RS_FP8_BLOCK_SPLIT
for i in 1 2 3; do [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"; g "pt$i"
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"
  g "off$i" CUTE_RS_FP8_BLOCK_SPLIT=0; g "auto$i"; g "n3456-$i" CUTE_RS_FP8_BLOCK_SPLIT=3456
  g "n3072-$i" CUTE_RS_FP8_BLOCK_SPLIT=3072
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; g "pt$i"
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"
  g "off$i" CUTE_RS_FP8_BLOCK_SPLIT=0; g "auto$i"; g "n6144-$i" CUTE_RS_FP8_BLOCK_SPLIT=6144
  GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192 --block-scales"
  g "off$i" CUTE_RS_FP8_BLOCK_SPLIT=0; g "n7680-$i" CUTE_RS_FP8_BLOCK_SPLIT=7680
done
t end
