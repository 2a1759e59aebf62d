#!/usr/bin/env bash
# (session 77; issue #34, prepared) Two measuring variants of the `hgemm` module against the package's default, in one
# call (doc/hopper-gemm.md, session 77):
#   st  `beta 1`'s mainloop (run s77t: 42.0 against 39.9 µs a 4096³ tile). One reading: every CTA requests its tile of
#       C at the same k-tile (k/2), 8 MiB a wave at once. doc/patches/s77-source-stagger.patch (feature
#       `hgemm/source-stagger`): cluster c requests at k·(2 + c mod 4)/8.
#   om  the TMA epilogue (~1.4 µs a tile, traced) with a buffer a chunk and no source: every chunk staged, then one
#       `fence.proxy.async` and one warpgroup meeting, then thread 0's four stores in one bulk group, in place of a
#       fence, a meeting and a group a chunk. doc/patches/s77-one-meeting.patch (feature `hgemm/one-meeting`).
# Checks of each variant (beta ≠ 0, edges, f16, f32 out, several tiles a CTA; `host run --only hgemm`), then
# `host gemm --bench` alternated, rounds while the budget lasts.
# Package, per variant V with its patch P and feature F (0 spills each, session 77):
#   git apply doc/patches/P && CUTE_RS_KERNEL_FEATURES=hgemm/F cargo xtask build-kernels --arch sm_90a
#   mkdir -p .gpu/A/V && xz -c target/ptx/hgemm.ptx > .gpu/A/V/hgemm.ptx.xz && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm
#   git checkout kernels
# then cargo xtask build-kernels --arch sm_90a (target/ptx the default again), and (carry .gpu/A):
#   BUDGET=280 D=.gpu/A NAME=s78v bash tools/gpu/gemm/s77-variants-ab.sh
BUDGET=${BUDGET:-280}; . tools/gpu/lib.sh ${NAME:-s78v}
VS=${VS:-st om}
for v in $VS; do mkdir -p /tmp/pv$v; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "--dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
    "--dtype bf16 --m 4096 --n 4096 --k 512 --beta 1 --out f32" "--dtype bf16 --m 8192 --n 8192 --k 1024 --tb"; do
    CUTE_RS_PTX_DIR=/tmp/pv$v c gemm $a; done
  CUTE_RS_PTX_DIR=/tmp/pv$v timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null
  t "C $v run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
done
mkdir -p /tmp/pvbase
ROUNDS=${ROUNDS:-3} ab "base $VS" "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" \
  "--dtype bf16 --m 8192 --n 8192 --k 8192"
t end
