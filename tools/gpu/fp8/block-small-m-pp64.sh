#!/usr/bin/env bash
# (session 25, lead) Block scales on the small-M tile (`gemm_fp8_e4m3_tn_promoted_block_pp64`: the 64×128 ping-pong tile,
# the scales from global memory in the k-tile loop; `Fp8BlockEntry::for_problem` takes it where 128×192 fills no more than
# one wave and 64×128 fills one): `--block-scales --check` on shapes the rule sends there (and one forced with two tiles a
# CTA), the FP8 sweep, the sanitizers, then the new default against the 128×192 staged entry forced
# (CUTE_RS_FP8_BLOCK=stagedn192tma) and the per-tensor row of the same shape, two rounds.
# Package: $D/host.xz.      D=.gpu/s25d bash tools/gpu/fp8/block-small-m-pp64.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s25d}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for s in "65 3000 4096" "1 7168 4096" "256 4096 1024" "200 2112 1024" "64 4104 512" "130 7200 1536"; do
  set -- $s; full gemm --dtype e4m3 --block-scales --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1
  t "check block $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
CUTE_RS_FP8_BLOCK=pp64 full gemm --dtype e4m3 --block-scales --m 1000 --n 1030 --k 1024 --check > $R/c.txt 2>&1
t "check block pp64 forced 1000 1030 1024 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
san() { local tool=$1; shift; [ $(left) -gt 25 ] || return; timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in racecheck memcheck synccheck; do san $tool gemm --dtype e4m3 --block-scales --m 130 --n 7200 --k 1024 --check; done
for i in 1 2; do
  for s in "128 7168 16384" "64 7168 16384" "128 7168 4096" "256 4096 8192" "128 2112 7168" "128 4096 8192"; do
    set -- $s; [ $(left) -gt 15 ] || break
    GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g new X=1; g old CUTE_RS_FP8_BLOCK=stagedn192tma
    GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; done; done
t end
