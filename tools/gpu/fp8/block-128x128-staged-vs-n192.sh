#!/usr/bin/env bash
# (session 22, lead) The block-scaled FP8 entry since the producer warp: the 128 x 128 staged entries (4 or 5 stages,
# the TMA epilogue, data-parallel / stream-K / stream-K tail) against the default 128 x 192 one, beside the per-tensor
# default on the same shapes (the block / per-tensor ratio). Package: host.xz and an hgemm.ptx.xz cut from an
# `hgemm/fp8-variants` build.            D=.gpu/s22d bash tools/gpu/fp8/block-128x128-staged-vs-n192.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh s22d
run() { timeout 150 $H "$@" < /dev/null; }
for b in stagedtma stagedtma5 stagedtma5tail stagedn192tma; do
  CUTE_RS_FP8_BLOCK=$b run gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --block-scales --check > $R/c.txt 2>&1
  t "C $b rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo 'gemm_fp8[a-z0-9_]*' $R/c.txt | head -1)"; done
g() { local n=$1; shift; env "$@" > $R/g.txt 2>&1
  t "B $n | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--m 4096 --n 7168 --k 16384" "--m 4096" "--m 8192"; do
  [ $(left) -gt 30 ] || break
  g "tensor $s" $H gemm --dtype e4m3 $s --bench
  for b in stagedn192tma stagedtma5 stagedtma stagedtma5tail; do [ $(left) -gt 20 ] || break
    g "$b $s" CUTE_RS_FP8_BLOCK=$b $H gemm --dtype e4m3 $s --block-scales --bench; done; done; done
t end
