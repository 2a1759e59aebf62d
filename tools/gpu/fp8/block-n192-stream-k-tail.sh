#!/usr/bin/env bash
# (session 23, lead) The block-scaled 128×192 entries since the producer warp and the first loads: the data-parallel
# default `_staged_n192tma` against `_staged_n192tmatail` (a stream-K tail for a last wave at most a quarter full), both
# from one `hgemm/fp8-variants` kernel-only build cut to six FP8 entries, under the s23a host (CUTE_RS_FP8_BLOCK picks):
# `--check` on the tail entry, then `--bench` rounds beside the per-tensor default.
# Package: $D/host.xz, $D/new/hgemm.ptx.xz, stub.ptx + stub-families.txt.     D=.gpu/s23g bash tools/gpu/fp8/block-n192-stream-k-tail.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s23g}
x $D/new/hgemm.ptx.xz $P/hgemm.ptx
run() { timeout 120 $H "$@" < /dev/null; }
c() { CUTE_RS_FP8_BLOCK=stagedn192tmatail run gemm --dtype e4m3 --block-scales "$@" --check > $R/c.txt 2>&1
  t "C tail rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error' $R/c.txt | head -1 | cut -c1-120)"; }
c --m 2048 --n 1700 --k 1008; c --m 1024 --n 1000 --k 512 --out f32; c --m 300 --n 200 --k 528; c --m 1024 --n 1024 --k 4096
g() { local v=$1; shift; CUTE_RS_FP8_BLOCK=$v run gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
p() { run gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1
  t "B tensor rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--m 4096 --n 7168 --k 16384" "--m 4096" "--m 8192" "--m 4096 --n 2112 --k 7168"; do
  [ $(left) -gt 20 ] || break
  g stagedn192tma $s --block-scales; g stagedn192tmatail $s --block-scales; p $s; done; done
t end
