#!/usr/bin/env bash
# Session 42: `beta ≠ 0` read by ncu again after C's tile went to TMA (run s41b's reading of main): source counters and
# warp states of `hgemm_bf16_nn` at 4096³ with `--beta 1`, this build's module (pn) and main's before it (pm, `ad38c46`),
# one launch each, both cut to the NN/TN entries (tools/gpu/cut_ptx.py); then two more A/B rounds of the beta rows.
#   D=.gpu/s42a NAME=s42c BUDGET=330 bash tools/gpu/gemm/beta-c-by-tma-ncu.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s42c}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pn
CUTE_RS_PTX_DIR=/tmp/pm timeout 200 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 200 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
B="gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1 --check"
ncu_src b1 -k regex:hgemm_bf16_nn $H $B
CUTE_RS_PTX_DIR=/tmp/pm ncu_src main-b1 -k regex:hgemm_bf16_nn $H $B
gg() { g "$@" CUTE_RS_PTX_DIR=/tmp/pn; g main-"$@" CUTE_RS_PTX_DIR=/tmp/pm; }
for i in 1 2; do [ $(left) -gt 40 ] || break
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; gg b1
  GARGS="--dtype f16 --m 4096 --n 4096 --k 4096 --beta 1"; gg h1
done
t end
