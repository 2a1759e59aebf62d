#!/usr/bin/env bash
# (session 26, lead) The staged block scales read in CUTLASS's order (after the stage's wait, before the k-tile's
# `wgmma`s: `CollectiveMma::wait_stage`, `read_stage`, `issue`): run s25g's memcheck failure again
# (CUTE_RS_FP8_BLOCK=stagedpp64 128×7168×2048 --check), the default 128×192 staged entry under memcheck, the three
# sanitizers on the staged 64-row entry, block --check on small-M shapes (the default now takes the staged 64-row
# entry from K = 8192), the FP8 sweep; then block against per-tensor rows (two rounds), and, time left, the same block
# rows on main's FP8 PTX (the scales read after the issue).
# Package: $D/host.xz, $D/newp.ptx.xz (this build's gemm_fp8* entries), $D/old.ptx.xz (main 249e604's).
#          D=.gpu/s26a bash tools/gpu/fp8/block-staged-read-order.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s26a}
mkdir -p /tmp/pnew /tmp/pold; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; x $D/old.ptx.xz /tmp/pold/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pnew
full() { timeout ${TO:-150} $H "$@" < /dev/null; }
B="gemm --dtype e4m3 --block-scales"
CUTE_RS_FP8_BLOCK=stagedpp64 full $B --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check stagedpp64 rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for i in 1 2; do CUTE_RS_FP8_BLOCK=stagedpp64 full $B --m 128 --n 7168 --k 2048 --check > $R/c.txt 2>&1
  t "check stagedpp64 $i rc=$? $(grep -E 'PASS|FAIL' $R/c.txt | tr -s ' ' | cut -c1-200)"; done
san() { local n=$1 tool=$2; shift 2; [ $(left) -gt 60 ] || return; timeout $(( $(left) - 40 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san-$n.txt 2>&1 < /dev/null
  t "S $n $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$n.txt | tail -1) | $(grep -E 'PASS|FAIL' $R/san-$n.txt | tr -s ' ' | cut -c1-160 | head -1)"; }
export CUTE_RS_FP8_BLOCK=stagedpp64
san m1 memcheck $B --m 128 --n 7168 --k 2048 --check
san m2 memcheck $B --m 128 --n 7168 --k 2048 --check
san r1 racecheck $B --m 132 --n 7200 --k 1024 --check
san s1 synccheck $B --m 132 --n 7200 --k 1024 --check
unset CUTE_RS_FP8_BLOCK
san m3 memcheck $B --m 1024 --n 7168 --k 2048 --check
for s in "128 7168 8192" "132 7200 8192" "4 7168 8192" "64 4104 8192" "256 4096 16384" "130 7200 8192"; do
  set -- $s; full $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1
  t "check block $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
for i in 1 2; do
  for s in "128 7168 16384" "128 7168 8192" "4096 4096 4096" "8192 8192 8192" "4096 7168 16384"; do
    set -- $s; [ $(left) -gt 15 ] || break
    GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g block X=1
    [ $1 = 128 ] && g global-pp64 CUTE_RS_FP8_BLOCK=pp64
    GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; done; done
export CUTE_RS_PTX_DIR=/tmp/pold
for s in "4096 4096 4096" "8192 8192 8192" "4096 7168 16384"; do set -- $s; [ $(left) -gt 40 ] || break
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g main-block X=1
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g main-pt X=1; done
t end
