#!/usr/bin/env bash
# (session 78, prepared; issue #34) Did the TMA epilogue's one meeting a tile cost the rows where a CTA holds one unit
# or short ones? Run s78c's bench read bf16 / f16 2048³ at 0.965 · 0.965 / 0.962 · 0.975 and 8192²×512 at
# 1.022 · 1.001 / 1.081 · 1.006 of cuBLAS, where run s73b (another call, the same H100 kind) read 0.980 · 1.020 /
# 0.984 · 1.021 and 1.141 · 1.066 / 1.146 · 1.066 (and f16 8192³ 0.996 · 1.016 against 1.032 · 1.028): ratios of two
# calls, not an A/B. Here base (main `e63842a`'s
# modules, the package host's own) and new (main since `8f70aba`: the one meeting and C's request stagger) alternate in
# one call on those rows, 4096³ beside them as the control (+1 % in runs s78v, s78l, s78n).
# Package: .gpu/A (host.xz = main e63842a's release host; new/{hgemm,hgemm_fp8}.ptx.xz and cubins = main 8f70aba's, as
# tools/gpu/gemm/s78-landing.sh's header makes them). Carry .gpu/A:
#   BUDGET=380 D=.gpu/A NAME=s79a bash tools/gpu/gemm/s78-one-tile-rows-ab.sh
BUDGET=${BUDGET:-380}; . tools/gpu/lib.sh ${NAME:-s79a}
mkdir -p /tmp/pvnew /tmp/pvbase; for m in hgemm hgemm_fp8; do x $D/new/$m.ptx.xz /tmp/pvnew/$m.ptx; done
CUTE_RS_PTX_DIR=/tmp/pvnew c gemm --dtype bf16 --m 2048 --n 2048 --k 2048
ROUNDS=${ROUNDS:-3} ab "base new" "--dtype bf16 --m 2048 --n 2048 --k 2048" "--dtype f16 --m 2048 --n 2048 --k 2048" \
  "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype bf16 --m 512 --n 8192 --k 8192" "--dtype f16 --m 8192 --n 8192 --k 8192" \
  "--dtype bf16 --m 4096 --n 4096 --k 4096"
t end
