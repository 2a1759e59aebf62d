#!/usr/bin/env bash
# (session 47, issue #34) The best public kernel beside ours in one call: fast.cu's kernel 12 against cuBLAS in fast.cu's
# own timing (vs-fastcu.cu: a 5 s rest, one launch, 8 launches between events), then ours against cuBLAS in both of
# `host gemm --bench`'s modes (sustained, burst), bf16 TN (both operands K-major, fast.cu's case) at 4096³ and 8192³,
# ROUNDS rounds alternated. The absolute TFLOP/s of the two kernels compare across the harnesses; each ratio is to the
# cuBLAS of its own harness.
# Package $D: host.xz; hgemm.ptx.xz (cut to hgemm_bf16_tn: no JIT of the whole module), stub.ptx + stub-families.txt;
# fastcu/matmul_12.cuh (fast.cu's header: fetched, not in the tree).
#   D=.gpu/s47a NAME=s47a bash tools/gpu/bench-gemm/vs-fastcu.sh   (run s48d: D=.gpu/s48d NAME=s48d ROUNDS=3, the module of d6af5f4)
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s47a}
ROUNDS=${ROUNDS:-3}
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader | tee -a $S
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
t "nvcc: $NVCC $($NVCC --version | tail -1)"
$NVCC -O3 -DNDEBUG -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I$D/fastcu tools/gpu/bench-gemm/vs-fastcu.cu \
  -lcuda -lcublas -o /tmp/vsf > $R/nvcc.txt 2>&1
t "build rc=$? $(grep -iE 'error' $R/nvcc.txt | head -3 | tr '\n' ' ')"
# our module's JIT (the cut module) before the rounds: K > 512, so the cooperative entry the cut keeps (at K 512 the
# host picks the 128 × 128 ping-pong one, not in the cut: run s47a's warm-up failed so and the JIT fell to round 1)
timeout 120 $H gemm --ta --dtype bf16 --m 512 --k 1024 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt)"
for i in $(seq $ROUNDS); do
  [ $(left) -gt 90 ] || { t "round $i SKIP (time)"; break; }
  [ -x /tmp/vsf ] && { timeout 150 /tmp/vsf 1 > $R/f$i.txt 2>&1; t "fast.cu round $i rc=$?"; grep '^R ' $R/f$i.txt | tee -a $S; }
  for n in 4096 8192; do GARGS="--ta --dtype bf16 --m $n"; g "ours$i-$n"; done
done
t end
