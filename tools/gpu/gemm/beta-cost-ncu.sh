#!/usr/bin/env bash
# Session 41: where `beta ≠ 0` costs bf16 NN 4096³ (0.957 of cuBLAS in run s40b against 0.998 with beta 0): ncu source
# counters and warp states of main's `hgemm_bf16_nn` with and without beta (one launch each), their times in two
# rounds; then three more rounds of the FP8 rows where run s41a's A/B moved (128×7168×16384 −1.5 %, 4096×2112×7168
# +8 %), the branch's FP8 module (n/) against main's (m/), both cut to the per-tensor entries (tools/gpu/cut_ptx.py),
# as hgemm.ptx is to the bf16 NN/TN entries (so the JIT fits).
#   D=.gpu/s41b NAME=s41b bash tools/gpu/gemm/beta-cost-ncu.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s41b}
for v in n m; do mkdir -p /tmp/p$v; cp $P/*.ptx /tmp/p$v/; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pn
timeout 200 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pm timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w2.txt 2>&1 < /dev/null &
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w1.txt 2>&1 < /dev/null
wait; t "warm bf16 $(grep -Eo 'PASS|FAIL' $R/w0.txt | head -1) fp8 branch $(grep -Eo 'PASS|FAIL' $R/w1.txt | head -1) main $(grep -Eo 'PASS|FAIL' $R/w2.txt | head -1)"
for i in 1 2; do
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; g b1
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096"; g b0
done
B="gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --check"
ncu_src b1 -k regex:hgemm_bf16_nn $H $B --beta 1
ncu_src b0 -k regex:hgemm_bf16_nn $H $B
for i in 1 2 3; do [ $(left) -gt 40 ] || break
  for s in "128 7168 16384" "4096 2112 7168"; do set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
    g pt$1x$2 CUTE_RS_PTX_DIR=/tmp/pn; g main-pt$1x$2 CUTE_RS_PTX_DIR=/tmp/pm; done
done
t end
