#!/usr/bin/env bash
# (session 27, lead) Block scales at small M: the default (the staged 64 × 128 ping-pong entry) against the 128 × 128
# staged entry with the per-tensor entries' scheduler (`_staged_tma5sk`: split-K / stream-K over every SM, a measuring
# variant that spills 40 bytes), beside the per-tensor default; `--check` on the split path, then rows alternated.
# Package: $D/host.xz (run s26d's: main's host), $D/hgemm.ptx.xz (the default FP8 entries + `_staged_tma5sk`,
# `_staged_tma5` from a CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants build).   D=.gpu/s27g bash tools/gpu/fp8/block-small-m-split-k.sh
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s27g}
B="gemm --dtype e4m3 --block-scales"
timeout 150 $H $B --m 128 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for s in "128 7168 2048" "132 7200 1024" "64 4104 8192"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedtma5sk timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check sk $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done
for i in 1 2; do for s in "128 7168 16384" "128 7168 8192" "256 7168 8192" "64 7168 16384"; do [ $(left) -gt 15 ] || break
  set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g default X=1; g sk CUTE_RS_FP8_BLOCK=stagedtma5sk
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; done; done
t end
