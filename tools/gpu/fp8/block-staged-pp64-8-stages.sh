#!/usr/bin/env bash
# (session 26, lead) The small-M block entry on 8 stages beside one epilogue buffer a warpgroup (`EpilogueStorage1`;
# run s26b's ncu: the 7-stage entry's consumer waited on its stages' data, 29 % of samples against 11 % per-tensor):
# checks (the whole FP8 sweep with CUTE_RS_FP8_BLOCK=stagedpp64, f32 and bf16 C, N edges), the sanitizers, then the
# 8-stage entry against run s26a's 7-stage one (CUTE_RS_PTX_DIR=/tmp/pold), global scales and per-tensor by K.
# Package: $D/host.xz, $D/newp.ptx.xz (this build's gemm_fp8*), $D/old.ptx.xz (run s26a's).
#          D=.gpu/s26c bash tools/gpu/fp8/block-staged-pp64-8-stages.sh
BUDGET=${BUDGET:-450}; . tools/gpu/lib.sh ${NAME:-s26c}
mkdir -p /tmp/pnew /tmp/pold; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; x $D/old.ptx.xz /tmp/pold/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pnew
full() { timeout ${TO:-150} $H "$@" < /dev/null; }
B="gemm --dtype e4m3 --block-scales"
export CUTE_RS_FP8_BLOCK=stagedpp64
full $B --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -E 'PASS|FAIL' $R/jit.txt | tr -s ' ' | cut -c1-160)"
for s in "128 7168 2048 f32" "132 7200 1536 f32" "64 200 4096 same" "256 1000 3072 f32" "4 130 8192 same" "1000 1030 1024 f32"; do
  set -- $s; full $B --m $1 --n $2 --k $3 --out $4 --check > $R/c.txt 2>&1
  t "check stagedpp64 $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep, block entry stagedpp64, rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
san() { local n=$1 tool=$2; shift 2; [ $(left) -gt 60 ] || return; timeout $(( $(left) - 40 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san-$n.txt 2>&1 < /dev/null
  t "S $n $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$n.txt | tail -1) | $(grep -E 'PASS|FAIL' $R/san-$n.txt | tr -s ' ' | cut -c1-160 | head -1)"; }
san m1 memcheck $B --m 128 --n 7168 --k 2048 --out f32 --check
san m2 memcheck $B --m 128 --n 7168 --k 2048 --check
san r1 racecheck $B --m 132 --n 7200 --k 1024 --out f32 --check
san s1 synccheck $B --m 132 --n 7200 --k 1024 --check
unset CUTE_RS_FP8_BLOCK
for i in 1 2; do for k in 16384 8192 6144 4096; do [ $(left) -gt 15 ] || break
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k $k"; g staged8 CUTE_RS_FP8_BLOCK=stagedpp64
  g staged7 CUTE_RS_FP8_BLOCK=stagedpp64 CUTE_RS_PTX_DIR=/tmp/pold; g global CUTE_RS_FP8_BLOCK=pp64
  GARGS="--dtype e4m3 --m 128 --n 7168 --k $k"; g pt X=1; done; done
for s in "64 7168 16384" "256 4096 8192"; do set -- $s; [ $(left) -gt 15 ] || break
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g staged8 X=1; g staged7 CUTE_RS_PTX_DIR=/tmp/pold
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; done
t end
