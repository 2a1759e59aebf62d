#!/usr/bin/env bash
# (session 62; issue #37) The three rows the H100 misses (runs s61a, s62a: per-tensor 4096³ 0.957–0.961 of cuBLASLt,
# 4096×7168×16384 0.890–0.952, block scales / per-tensor at 4096×2112×7168 0.84–0.85) under the launch's measuring
# overrides, no build, one round each, `--bench` sustained and burst against cuBLASLt in the same process:
# - per-tensor 4096³: the default (128 × 128 `n128tma6`, bands of 8 N-tiles, clusters of 2, 132 SMs, stream-K tail)
#   against bands of 16, the Hilbert curve, 128 SMs, no stream-K tail, 5 stages (`n128tma5`) and 128 × 192 (`n192tma`);
# - block scales at 4096×2112×7168 (128 × 192, 176 cluster tiles: 2.67 waves of 66) whole, split at 1920, 1536 and 1152
#   columns (`CUTE_RS_FP8_BLOCK_SPLIT`: the rest on the entry the rule picks for it) and on the 128 × 128 stream-K
#   entry (`stagedonetma5sk`), beside the per-tensor kernel on the same shape;
# - per-tensor 4096×7168×16384 (128 × 128 by the rule) against 128 × 192 (level on the H100 in run s61a).
# Package $D: host.xz (this tree's release host).
#   BUDGET=300 D=.gpu/s62b NAME=s62b bash tools/gpu/fp8/h100-shortfalls.sh   (~250 s)
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s62b}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
c gemm --dtype e4m3 --m 512 --n 384 --k 2048 --block-scales
GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
g default; g band16 CUTE_RS_HGEMM_SWIZZLE=16; g hilbert CUTE_RS_HGEMM_SWIZZLE=hilbert
g sms128 CUTE_RS_HGEMM_SMS=128; g nostreamk CUTE_RS_HGEMM_STREAMK=0
g n128tma5 CUTE_RS_FP8_PROMOTED=n128tma5; g n192tma CUTE_RS_FP8_PROMOTED=n192tma; g default-2
GARGS="--dtype e4m3 --m 4096 --n 2112 --k 7168"; g per-tensor
GARGS="--dtype e4m3 --m 4096 --n 2112 --k 7168 --block-scales"
g block; g split1920 CUTE_RS_FP8_BLOCK_SPLIT=1920; g split1536 CUTE_RS_FP8_BLOCK_SPLIT=1536
g split1152 CUTE_RS_FP8_BLOCK_SPLIT=1152; g onesk CUTE_RS_FP8_BLOCK=stagedonetma5sk; g block-2
GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"
[ $(left) -gt 30 ] && g default; [ $(left) -gt 30 ] && g n192tma CUTE_RS_FP8_PROMOTED=n192tma
[ $(left) -gt 30 ] && g default-2
t end
