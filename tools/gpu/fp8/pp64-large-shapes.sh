#!/usr/bin/env bash
# (session 26, lead) The 64-row ping-pong tile at the large shapes (both consumer warpgroups busy there, each its own
# 64 × 128 tile): block scales `CUTE_RS_FP8_BLOCK=stagedpp64` against the default 128 × 192 staged entry, per-tensor
# `CUTE_RS_FP8_PROMOTED=pp64` against the default, two rounds.
# Package: $D/host.xz (run s26d's), $D/main.ptx.xz (main's gemm_fp8* entries).   D=.gpu/s26g bash tools/gpu/fp8/pp64-large-shapes.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s26g}
mkdir -p /tmp/pm; x $D/main.ptx.xz /tmp/pm/hgemm.ptx; export CUTE_RS_PTX_DIR=/tmp/pm
timeout 150 $H gemm --dtype e4m3 --block-scales --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for i in 1 2; do for s in "4096 4096 4096" "8192 8192 8192" "4096 7168 16384" "1024 7168 16384"; do [ $(left) -gt 15 ] || break
  set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g block X=1; g block-stagedpp64 CUTE_RS_FP8_BLOCK=stagedpp64
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; g pt-pp64 CUTE_RS_FP8_PROMOTED=pp64; done; done
t end
