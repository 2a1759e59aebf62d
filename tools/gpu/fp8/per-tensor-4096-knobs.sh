#!/usr/bin/env bash
# (session 61; issue #37) The promoted per-tensor e4m3 4096³ (0.957 of cuBLASLt on the H100 in run s61a, 1.003 on the
# H200 in run s60a) under the launch's measuring overrides, no build: the default (128 × 128, bands of 8 N-tiles,
# clusters of 2, 132 SMs, stream-K tail) against bands of 16 and the Hilbert curve (`CUTE_RS_HGEMM_SWIZZLE`), 128 SMs
# (`CUTE_RS_HGEMM_SMS=128`: 8 whole waves of 64 clusters) and no stream-K tail (`CUTE_RS_HGEMM_STREAMK=0`), each
# `--bench` sustained and burst against cuBLASLt in the same process, one round. No warm-up but the FP8 module's JIT.
# Package $D: host.xz (this tree's release host).
#   BUDGET=110 D=.gpu/s61c NAME=s61c bash tools/gpu/fp8/per-tensor-4096-knobs.sh   (~90 s; prepared in session 61, not run)
BUDGET=${BUDGET:-110}; . tools/gpu/lib.sh ${NAME:-s61c}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
g default; g band16 CUTE_RS_HGEMM_SWIZZLE=16; g hilbert CUTE_RS_HGEMM_SWIZZLE=hilbert
g sms128 CUTE_RS_HGEMM_SMS=128; g nostreamk CUTE_RS_HGEMM_STREAMK=0; [ $(left) -gt 15 ] && g default-2
t end
