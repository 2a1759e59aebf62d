#!/usr/bin/env bash
# (session 77; issue #34) The cooperative 128 × 256 tile's store held into the next tile's first k-tile
# (`CUTE_RS_KERNEL_FEATURES=hgemm/deferred-store`: the tile's values packed to 16 bits after its mainloop, staged and
# stored by TMA once the next tile's first `wgmma`s are issued), against the default build: run s77t's trace put
# the store at ~1.4 us a tile (~3 % of a 4096³ tile) with the tensor cores idle. Variant `ds`: $D/ds/hgemm.ptx.xz
# and its cubin in $D/cubin (the package's host and default cubins otherwise). Checks of the variant first (shapes
# whose CTAs take several tiles, edges, f16, TN, beta, f32 out; `host run --only hgemm`; memcheck and racecheck on a
# 38-SM grid, so that every CTA holds tiles), then `host gemm --bench` alternated, rounds while the budget lasts.
# Measured in run s77d: correct, and 2–4 % slower (doc/hopper-gemm.md, session 77); the kernel code is not on main:
#   git apply doc/patches/s77-deferred-store.patch
#   CUTE_RS_KERNEL_FEATURES=hgemm/deferred-store cargo xtask build-kernels --arch sm_90a   (ptxas: 184 B of spills)
#   mkdir -p .gpu/A/ds && xz -c target/ptx/hgemm.ptx > .gpu/A/ds/hgemm.ptx.xz && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm
#   BUDGET=300 D=.gpu/A NAME=s77d bash tools/gpu/gemm/deferred-store-ab.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s77d}
mkdir -p /tmp/pvbase /tmp/pvds; x $D/ds/hgemm.ptx.xz /tmp/pvds/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pvds
for a in "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype f16 --m 4096 --n 4096 --k 1024 --ta" \
  "--dtype bf16 --m 3000 --n 4100 --k 1000" "--dtype bf16 --m 4096 --n 4096 --k 512 --beta 1" \
  "--dtype f16 --m 4096 --n 4096 --k 512 --out f32" "--dtype bf16 --m 8192 --n 8192 --k 1024 --tb"; do c gemm $a; done
timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null; t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
for tool in memcheck racecheck; do
  CUTE_RS_HGEMM_SMS=38 timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --m 2048 --n 2048 \
    --k 256 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
unset CUTE_RS_PTX_DIR
ROUNDS=${ROUNDS:-3} ab "base ds" "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 8192 --n 8192 --k 8192" \
  "--dtype f16 --m 4096 --n 4096 --k 4096 --ta" "--dtype bf16 --m 2048 --n 2048 --k 2048"
t end
