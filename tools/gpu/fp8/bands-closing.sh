#!/usr/bin/env bash
# (session 62, prepared; issues #37, #34) The closing call on the bands of session 62 (the promoted per-tensor FP8
# 128 × 128 tiles in bands of 16 N-tiles, `config::SWIZZLE_FP8_N128`): the whole `host bench gemm --json` on the new
# default first (its block-scaled FP8 rows now also against our per-tensor kernel); then, with the time left, the band
# once more at 4096³ e4m3 — the default (16) against bands of 32 (one band over all 32 N-tiles) and of 8 —; the 16-bit
# 128 × 128 ping-pong tiles (K ≤ 512) in bands of 8 (their default) against 16 at bf16 NN 8192×8192×512; and the
# cooperative 128 × 256 tiles likewise at bf16 NN 4096³ (#34's 1.02 shape; its 16 N-tiles one band); two rounds each,
# alternated, each `--bench` sustained and burst against cuBLAS(Lt) in the same process. (Session 63: the block-scaled
# 128 × 128 entries, which keep bands of 8, in bands of 16 too — at 4096³ and 4096×2112×7168, the override moving both
# the block launch and the per-tensor launch its `--bench` times beside it.)
# Package $D: host.xz (this tree's release host: `cargo build --release -p host-cli`, the default kernel build).
#   BUDGET=570 D=.gpu/s63a NAME=s63a bash tools/gpu/fp8/bands-closing.sh   (~520 s)
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s63a}
warm
timeout $(( $(left) - 60 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
for i in 1 2; do
  [ $(left) -gt 40 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
  g band16-$i; g band32-$i CUTE_RS_HGEMM_SWIZZLE=32; g band8-$i CUTE_RS_HGEMM_SWIZZLE=8
  [ $(left) -gt 40 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"
  g block-band8-$i; g block-band16-$i CUTE_RS_HGEMM_SWIZZLE=16
  GARGS="--dtype e4m3 --m 4096 --n 2112 --k 7168 --block-scales"
  g block2112-band8-$i; g block2112-band16-$i CUTE_RS_HGEMM_SWIZZLE=16
  [ $(left) -gt 30 ] || break
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096"
  g coop-band8-$i; g coop-band16-$i CUTE_RS_HGEMM_SWIZZLE=16
  [ $(left) -gt 20 ] || break
  GARGS="--dtype bf16 --m 8192 --n 8192 --k 512"
  g pp128-band8-$i; g pp128-band16-$i CUTE_RS_HGEMM_SWIZZLE=16
done
t end
