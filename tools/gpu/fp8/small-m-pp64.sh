#!/usr/bin/env bash
# (session 25, lead) The small-M FP8 tile: 64×128 on the ping-pong schedule (`gemm_fp8_e4m3_tn_promoted_pp64`, 8 stages,
# whole k-ranges, clusters of 2 along M where there are two rows of tiles) against the default per-tensor tile
# (`Fp8PromotedTile::for_problem`: 128×128 split-K by whole tiles for these shapes), one host and one module, the tile
# forced by CUTE_RS_FP8_PROMOTED=pp64 (and clusters of 1 by CUTE_RS_HGEMM_CLUSTER=1); `--check` first, then `--bench`
# rounds (ours / cuBLASLt per-tensor e4m3 in the same process).
# Package: $D/host.xz, $D/hgemm.ptx.xz (the FP8 entries cut), stub.ptx + stub-families.txt.   D=.gpu/s25a bash tools/gpu/fp8/small-m-pp64.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s25a}
CUTE_RS_FP8_PROMOTED=pp64 timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check pp64 128 7168 2048 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/jit.txt | head -2 | tr '\n' ' ')"
for s in "100 1000 640" "65 3000 4096" "1 7168 4096" "200 2112 1024" "300 520 640" "1000 1030 1024" "64 192 1024" "128 7232 2048" "520 4104 512"; do
  set -- $s; CUTE_RS_FP8_PROMOTED=pp64 timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check pp64 $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for s in "128 7168 2048" "300 520 640"; do
  set -- $s; CUTE_RS_HGEMM_CLUSTER=1 CUTE_RS_FP8_PROMOTED=pp64 timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check pp64 cl1 $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for i in 1 2; do
  for s in "128 7168 16384" "64 7168 16384" "256 7168 16384" "128 7168 4096" "128 4096 8192" "256 4096 8192" "128 2112 7168" "200 2112 7168"; do
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; [ $(left) -gt 20 ] || break
    g dflt X=1; g pp64 CUTE_RS_FP8_PROMOTED=pp64; [ $1 -gt 64 ] && g pp64cl1 CUTE_RS_FP8_PROMOTED=pp64 CUTE_RS_HGEMM_CLUSTER=1; done; done
t end
