#!/usr/bin/env bash
# (session 28, lead; prepared for session 29, not yet run; branch `s28-bf16-pp64`) The small-M FP8 entries' 64 × 128
# ping-pong tile for 16-bit inputs (`hgemm_{bf16,f16}_tn_pp64`, `CUTE_RS_HGEMM_SCHEDULE=pingpong64`, feature `pingpong`)
# against the default 128 × 256 split-K launches at small M: checks, memcheck, two rounds. Package (built by session 28):
# $D/host.xz (the branch's release host), $D/hgemm.ptx.xz (the TN entries of a CUTE_RS_KERNEL_FEATURES=hgemm/pingpong
# build: cooperative, 128 × 128 ping-pong, 64 × 128 ping-pong; bf16 and f16).
#          D=.gpu/s29a bash tools/gpu/gemm/small-m-pingpong64.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s29a}
P64=CUTE_RS_HGEMM_SCHEDULE=pingpong64
c() { env "$@" timeout 100 $H gemm $CARGS --check > $R/c.txt 2>&1 < /dev/null; t "check $* $CARGS rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; }
for s in "--ta --dtype bf16 --m 128 --n 7168 --k 8192" "--ta --dtype bf16 --m 100 --n 1000 --k 3000" "--ta --dtype f16 --m 77 --n 3000 --k 5000" "--ta --dtype bf16 --m 200 --n 4096 --k 520 --beta 0.5"; do
  CARGS="$s"; c $P64; done
CUTE_RS_HGEMM_SCHEDULE=pingpong64 timeout 100 compute-sanitizer --tool memcheck $H gemm --ta --dtype bf16 --m 130 --n 2000 --k 4096 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck pp64 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
g() { local tag=$1; shift; env "$@" timeout 60 $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do for s in "128 7168 8192" "128 4096 4096" "128 8192 16384" "64 7168 8192" "256 4096 8192" "192 7168 4096"; do
  [ $(left) -gt 20 ] || break; set -- $s; GARGS="--ta --dtype bf16 --m $1 --n $2 --k $3"; g default X=1; g pp64 $P64; done; done
t end
