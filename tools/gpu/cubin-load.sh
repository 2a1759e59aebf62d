#!/usr/bin/env bash
# (session 73; issues #34, #37) Cubins in place of the driver's JIT (`LoadOptions::cubin_dir`, CUTE_RS_CUBIN_DIR):
# `host info` (which modules have a cubin of their very text), each module's first `--check` timed with the cubins and
# then, in the background, with none (the JIT, into a cache of its own, /tmp/nvc-jit) while the FP8 sweep and `host
# run --only hgemm` run on the cubins; then ours from the cubin against ours from the JIT'd PTX (cached), `host gemm
# --bench` alternated. Then the sustained mode's spread: `--bench --timing sustained` of the four 4096³ bf16
# majorities, main's host (host-old.xz: batches a b, a b, … with no warm-up) against this tree's (500 ms of both in turn
# first, the turns' order swapped), rounds while the budget lasts.
# Package $D: host.xz (this tree's release host), host-old.xz (main's) and cubin/ (bash tools/gpu/pack-cubins.sh $D).
#   BUDGET=380 D=.gpu/s73a NAME=s73a bash tools/gpu/cubin-load.sh
BUDGET=${BUDGET:-380}; . tools/gpu/lib.sh ${NAME:-s73a}
$H info > $R/info.txt 2>&1; t "info: $(grep -c ', cubin' $R/info.txt) modules with a cubin; $(grep -E '^device' $R/info.txt)"
grep -E '^module' $R/info.txt | tee -a $S
first() { local tag=$1; shift; local t0=$(date +%s%N)
  timeout 300 "$@" > $R/f-$tag.txt 2>&1 < /dev/null
  t "F $tag rc=$? $(( ($(date +%s%N) - t0) / 1000000 )) ms | $(grep -Eo 'PASS|FAIL|rror.*' $R/f-$tag.txt | head -1)"; }
first cubin-bf16 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check
first cubin-e4m3 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check
first cubin-attn $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check
( export CUTE_RS_CUBIN_DIR= CUDA_CACHE_PATH=/tmp/nvc-jit
  first jit-bf16 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check
  first jit-e4m3 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check
  first jit-attn $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check ) &
sweeps
timeout 150 $H run --only tma > $R/tma.txt 2>&1 < /dev/null; t "C run --only tma rc=$? $(grep -E 'passed|failed' $R/tma.txt | tail -1)"
wait
for i in 1; do
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --m 4096 --n 4096 --k 4096"; do
    [ $(left) -gt 120 ] || break 2; GARGS="$a"
    g "cubin$i"; g "jit$i" CUTE_RS_CUBIN_DIR= CUDA_CACHE_PATH=/tmp/nvc-jit
  done
done
x $D/host-old.xz /tmp/hold && chmod +x /tmp/hold
s1() { local tag=$1 h=$2; shift 2; timeout 60 $h gemm $GARGS --bench --timing sustained > $R/s.txt 2>&1 < /dev/null
  t "T $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/s.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3 4; do
  for a in "" "--ta" "--tb" "--ta --tb"; do
    [ $(left) -gt 15 ] || break 2; GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 $a"
    s1 "old$i" /tmp/hold; s1 "new$i" $H
  done
done
t end
