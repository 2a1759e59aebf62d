#!/usr/bin/env bash
# (session 73; issues #34, #37) How long the sustained mode's warm-up must be: `host gemm ... --bench --timing sustained`
# with CUTE_RS_SUSTAINED_WARMUP_MS 0 (the mode of sessions 34–72, but with the turns' order swapped), 500 (the
# default since session 73) and 2000, alternated per row, three rounds: bf16 4096³ and 8192³ NN, e4m3 4096³ per-tensor
# and block-scaled.
# Package $D: host.xz (this tree's release host) and cubin/ (bash tools/gpu/pack-cubins.sh $D).
#   BUDGET=300 D=.gpu/s73b NAME=s73c bash tools/gpu/bench-gemm/sustained-warmup.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s73c}
s1() { local tag=$1; shift; env "$@" timeout 60 $H gemm $GARGS --bench --timing sustained > $R/s.txt 2>&1 < /dev/null
  t "T $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/s.txt | tr -s ' ' | cut -c1-170 | tr '\n' '|')"; }
for i in 1 2 3; do
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 8192 --n 8192 --k 8192" \
    "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --block-scales --m 4096 --n 4096 --k 4096"; do
    for w in 0 500 2000; do [ $(left) -gt 15 ] || break 3; GARGS="$a"; s1 "w$w-$i" CUTE_RS_SUSTAINED_WARMUP_MS=$w; done
  done
done
t end
