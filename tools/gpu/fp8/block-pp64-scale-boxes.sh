#!/usr/bin/env bash
# (session 36, lead; branch `s36-boxes`) The small-M block entry `_staged_pp64` (64 × 128 ping-pong, paired, the scales
# with each stage) against itself without B's scale box (`_nob`), without both boxes (`_nobox`) and reading no scales
# (`_noread`: each promotion by 1.0), and the per-tensor small-M default (`_pp64`), at 128 rows. Modules $D/m0 (main's
# entries), m7 / m8 / m9 (the variants renamed `_staged_pp64`).
#   D=.gpu/s36d NAME=s36d bash tools/gpu/fp8/block-pp64-scale-boxes.sh
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s36d}
for m in m0 m7 m8 m9; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx
  CUTE_RS_PTX_DIR=/tmp/p$m timeout 150 $H gemm --dtype e4m3 --block-scales --m 128 --n 1024 --k 8192 --check > $R/c.txt 2>&1 < /dev/null
  t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2 3; do for s in "128 7168 16384" "128 7168 8192"; do [ $(left) -gt 20 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  g pt CUTE_RS_PTX_DIR=/tmp/pm0
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  for v in block:m0 nob:m7 nobox:m8 noread:m9; do g ${v%:*} CUTE_RS_PTX_DIR=/tmp/p${v#*:}; done
done; done
t end
