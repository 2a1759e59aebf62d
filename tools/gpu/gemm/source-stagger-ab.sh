#!/usr/bin/env bash
# (session 77; issue #34, prepared) `beta 1` at 4096³: run s77t's trace put 2 of its 2.6 µs a tile in the mainloop
# (42.0 against 39.9 µs), not the epilogue. One reading: every CTA requests its tile of C (64 KiB) at the same
# k-tile (k/2), 8 MiB a wave from DRAM at once under a 3-stage pipeline. Variant `st`
# (doc/patches/s77-source-stagger.patch, feature `hgemm/source-stagger`): cluster c requests at k·(2 + c mod 4)/8.
# Checks of the variant (beta ≠ 0 shapes, edges, f16, f32 out), then `host gemm --bench` alternated against the
# package's default module.
#   git apply doc/patches/s77-source-stagger.patch
#   CUTE_RS_KERNEL_FEATURES=hgemm/source-stagger cargo xtask build-kernels --arch sm_90a
#   mkdir -p .gpu/A/st && xz -c target/ptx/hgemm.ptx > .gpu/A/st/hgemm.ptx.xz && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm
#   git checkout kernels && cargo xtask build-kernels --arch sm_90a
#   BUDGET=200 D=.gpu/A NAME=s78s bash tools/gpu/gemm/source-stagger-ab.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s78s}
mkdir -p /tmp/pvbase /tmp/pvst; x $D/st/hgemm.ptx.xz /tmp/pvst/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pvst
for a in "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "--dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
  "--dtype bf16 --m 4096 --n 4096 --k 512 --beta 1 --out f32" "--dtype bf16 --m 4096 --n 4096 --k 1024"; do c gemm $a; done
unset CUTE_RS_PTX_DIR
ROUNDS=${ROUNDS:-3} ab "base st" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" \
  "--dtype bf16 --m 8192 --n 8192 --k 8192 --beta 1" "--dtype bf16 --m 4096 --n 4096 --k 4096"
t end
