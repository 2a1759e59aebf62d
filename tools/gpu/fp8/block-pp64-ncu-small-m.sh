#!/usr/bin/env bash
# (session 26, lead) The small-M block entry against per-tensor on the 64-row tile: ncu source counters and warp
# states of `gemm_fp8_e4m3_tn_promoted_staged_pp64` and `gemm_fp8_e4m3_tn_promoted_pp64` at 128×7168×16384; then the
# staged entry against global scales (CUTE_RS_FP8_BLOCK=pp64) at K = 4096, 6144, 7168 (the rule's threshold is 8192).
# Package: $D/host.xz, $D/newp.ptx.xz (this build's gemm_fp8* entries).   D=.gpu/s26b bash tools/gpu/fp8/block-pp64-ncu-small-m.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s26b}
mkdir -p /tmp/pnew; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; export CUTE_RS_PTX_DIR=/tmp/pnew
B="gemm --dtype e4m3 --m 128 --n 7168 --k 16384"
timeout 150 $H $B --block-scales --bench > $R/jit.txt 2>&1 < /dev/null; t "jit rc=$? $(grep TFLOP $R/jit.txt | tr -s ' ' | cut -c1-160)"
timeout 100 $H $B --bench > $R/jit2.txt 2>&1 < /dev/null; t "pt rc=$? $(grep TFLOP $R/jit2.txt | tr -s ' ' | cut -c1-160)"
ncu_src staged -k regex:gemm_fp8_e4m3_tn_promoted_staged_pp64 $H $B --block-scales --bench
ncu_src pt -k regex:gemm_fp8_e4m3_tn_promoted_pp64 $H $B --bench
for i in 1 2; do for k in 4096 6144 7168; do [ $(left) -gt 15 ] || break
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k $k"; g staged CUTE_RS_FP8_BLOCK=stagedpp64; g global CUTE_RS_FP8_BLOCK=pp64
  GARGS="--dtype e4m3 --m 128 --n 7168 --k $k"; g pt X=1; done; done
t end
