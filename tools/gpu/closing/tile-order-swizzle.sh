#!/usr/bin/env bash
# (session 27, lead) The closing call on main (every module embedded): the tile order for the block-scaled entry
# (`CUTE_RS_HGEMM_SWIZZLE`: bands of 8 N-tiles, the default, against 4, 16 and a Hilbert curve) and for the 16-bit
# kernel at 4096³ (the default against the Hilbert curve: #34's open lead), `host run --only hgemm`, the FP8 sweep, then
# `host bench gemm --json`.   Package: $D/host.xz.   D=.gpu/s27f bash tools/gpu/closing/tile-order-swizzle.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s27f}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for i in 1 2; do for s in "4096 4096 4096" "4096 7168 16384" "8192 8192 8192"; do set -- $s
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  for w in 8 4 16 hilbert; do g swizzle-$w CUTE_RS_HGEMM_SWIZZLE=$w; done; done
  GARGS="--dtype bf16 --m 4096"; g swizzle-8 X=1; g hilbert CUTE_RS_HGEMM_SWIZZLE=hilbert; done
full run --only hgemm --seed 2701 > $R/run.txt 2>&1; t "C host run --only hgemm --seed 2701 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
TO=$(( $(left) - 15 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
