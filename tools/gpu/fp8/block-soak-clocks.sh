#!/usr/bin/env bash
# (session 80; issue #37) Block-scaled e4m3 against ours per-tensor (and cuBLASLt) at 8192³ (the same 128 × 192 tile
# and schedule) and 4096³, each kernel alone for 4 s (`--timing soak`), with the board's SM clock and power over each
# one's window (`nvidia-smi -lms 20`, tools/gpu/profile/soak_clocks.py): whether the block kernels' sustained gap
# (0.86 / 0.88 of ours per-tensor sustained, 0.91 / 0.94 in bursts: run s80c) is a lower clock at the power limit.
# Package: .gpu/C (this tree's release host as host.xz; land/{hgemm,hgemm_fp8}.ptx.xz and cubin/ as .gpu/B's):
#   BUDGET=150 D=.gpu/C NAME=s80d bash tools/gpu/fp8/block-soak-clocks.sh
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s80d}
mkdir -p /tmp/pvl; for m in hgemm hgemm_fp8; do x $D/land/$m.ptx.xz /tmp/pvl/$m.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pvl
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits -lms 20 > $R/smi.csv &
SMI=$!
for s in "8192 8192 8192" "4096 4096 4096"; do
  set -- $s
  [ $(left) -gt 35 ] || { t "K $1 SKIP (time)"; continue; }
  timeout 80 $H gemm --dtype e4m3 --block-scales --m $1 --n $2 --k $3 --bench --timing soak > $R/soak$1.txt 2> $R/soak$1.err < /dev/null
  t "K rc=$? $1x$2x$3 | $(grep TFLOP $R/soak$1.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"
  python3 tools/gpu/profile/soak_clocks.py $R/soak$1.err $R/smi.csv | tee -a $S
done
kill $SMI
cp $R/smi.csv $OUT/ 2>/dev/null
t end
