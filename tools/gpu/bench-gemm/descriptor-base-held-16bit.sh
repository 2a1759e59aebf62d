#!/usr/bin/env bash
# (session 54; issue #34) The 16-bit side of `DescriptorIterator::warp_uniform` (tools/gpu/fp8/descriptor-base-held.sh
# for FP8): every hgemm entry's k-loop 49 -> 48 SASS instructions a k-tile (ping-pong 128: 61 -> 60), +24-32
# instructions an entry (the broadcasts, per tile), 0 spills (ptxas 13.0). Whether that moves the 16-bit GEMM: bf16 TN
# and NN at 4096³ and 8192³ and the fused bias + GELU at 8192³, before (base, main 7230c29) and after (wu), sustained
# timing, 3 rounds, after `--check`s of each variant.
# Package $D: host.xz (main's), stub.ptx + stub-families.txt ("attention copy gemm_n gemm_t hgemm_fp8 tma"),
# {base,wu}/hgemm.ptx.xz cut (tools/gpu/cut_ptx.py) to hgemm_bf16_{tn,nn}{,_pp64,_pingpong128} and hgemm_fused_bf16_tn_gelu.
#   D=.gpu/s54d NAME=s54d bash tools/gpu/bench-gemm/descriptor-base-held-16bit.sh   (~150 s)
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s54d}
variants "base wu" hgemm --dtype bf16 --ta --m 256 --n 256 --k 256
for v in base wu; do export CUTE_RS_PTX_DIR=/tmp/pv$v
  c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096; c gemm --dtype bf16 --m 2048 --n 3000 --k 1000
  c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 1024 --bias m --act gelu; done
ROUNDS=${ROUNDS:-3} ab "base wu" "--dtype bf16 --ta --m 8192 --timing sustained" "--dtype bf16 --ta --m 4096 --timing sustained" \
  "--dtype bf16 --m 8192 --timing sustained" "--dtype bf16 --m 4096 --timing sustained" \
  "--dtype bf16 --ta --m 8192 --bias m --act gelu --timing sustained"
t end
