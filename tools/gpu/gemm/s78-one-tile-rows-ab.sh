#!/usr/bin/env bash
# (session 78, prepared; issue #34) Did the TMA epilogue's one meeting a tile cost the rows where a CTA holds one unit
# or short ones? Run s78c's bench read bf16 / f16 2048³ at 0.965 · 0.965 / 0.962 · 0.975 and 8192²×512 at
# 1.022 · 1.001 / 1.081 · 1.006 of cuBLAS, where run s73b (another call, the same H100 kind) read 0.980 · 1.020 /
# 0.984 · 1.021 and 1.141 · 1.066 / 1.146 · 1.066 (and f16 8192³ 0.996 · 1.016 against 1.032 · 1.028): ratios of two
# calls, not an A/B. Here base (main `e63842a`'s
# modules, the package host's own) and new (main since `8f70aba`: the one meeting and C's request stagger) alternate in
# one call on those rows, 4096³ beside them as the control (+1 % in runs s78v, s78l, s78n).
# Package: .gpu/A (host.xz = main e63842a's release host; new/{hgemm,hgemm_fp8}.ptx.xz and cubins = main 8f70aba's, as
# tools/gpu/gemm/s78-landing.sh's header makes them); and, where the package has it, the variant h2 (its hgemm module
# in .gpu/A/h2/, its cubin beside the others): doc/patches/s78-two-meetings.patch, the chunks but the last under one
# meeting, then the last under a second, so that a CTA's last tile leaves one chunk's store after its staging —
#   git apply doc/patches/s78-two-meetings.patch && CUTE_RS_KERNEL_FEATURES=hgemm/two-meetings cargo xtask build-kernels
#   --arch sm_90a && mkdir -p .gpu/A/h2 && xz -c target/ptx/hgemm.ptx > .gpu/A/h2/hgemm.ptx.xz &&
#   bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm && git checkout kernels   (then rebuild the default)
# Carry .gpu/A:
#   BUDGET=560 D=.gpu/A NAME=s79a bash tools/gpu/gemm/s78-one-tile-rows-ab.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s79a}
mkdir -p /tmp/pvnew /tmp/pvbase; for m in hgemm hgemm_fp8; do x $D/new/$m.ptx.xz /tmp/pvnew/$m.ptx; done
VS="base new"
CUTE_RS_PTX_DIR=/tmp/pvnew c gemm --dtype bf16 --m 2048 --n 2048 --k 2048
if [ -e $D/h2/hgemm.ptx.xz ]; then
  VS="base new h2"; mkdir -p /tmp/pvh2; cp /tmp/pvnew/hgemm_fp8.ptx /tmp/pvh2/; x $D/h2/hgemm.ptx.xz /tmp/pvh2/hgemm.ptx
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "--dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
    "--dtype bf16 --ta --m 2048 --n 1000 --k 512 --bias n --act silu --beta 1"; do CUTE_RS_PTX_DIR=/tmp/pvh2 c gemm $a; done
  CUTE_RS_PTX_DIR=/tmp/pvh2 timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null
  t "C h2 run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
fi
ROUNDS=${ROUNDS:-3} ab "$VS" "--dtype bf16 --m 2048 --n 2048 --k 2048" "--dtype f16 --m 2048 --n 2048 --k 2048" \
  "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype bf16 --m 512 --n 8192 --k 8192" "--dtype f16 --m 8192 --n 8192 --k 8192" \
  "--dtype bf16 --m 4096 --n 4096 --k 4096"
t end
