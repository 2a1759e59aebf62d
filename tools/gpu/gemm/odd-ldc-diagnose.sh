#!/usr/bin/env bash
# (session 49) Run s49a's check `--dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2` exited 1 with
# neither PASS nor FAIL, in both probe variants. This localizes it on main's modules (cut, $D/main) — the whole
# output of each neighbour (without --tb, --ldc, beta 0, even M, f16, --out f32) and memcheck of the first; then
# ncu of 4096³ bf16 TN with beta 1 and beta 0 (per-SASS counters: where beta 1's 3 % goes).
#   D=.gpu/s49a NAME=s49b bash tools/gpu/gemm/odd-ldc-diagnose.sh
BUDGET=${BUDGET:-320}; . tools/gpu/lib.sh ${NAME:-s49b}
mkdir -p /tmp/pvmain; cp $P/*.ptx /tmp/pvmain/; for f in hgemm hgemm_fp8; do x $D/main/$f.ptx.xz /tmp/pvmain/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pvmain
i=0
for a in "--dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2" "--dtype bf16 --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2" \
    "--dtype bf16 --tb --m 1003 --n 517 --k 1000 --beta 2" "--dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005" \
    "--dtype bf16 --tb --m 1003 --n 517 --k 1000" "--dtype bf16 --tb --m 1008 --n 517 --k 1000 --ldc 1016 --beta 2" \
    "--dtype bf16 --tb --m 1003 --n 520 --k 1000 --ldc 1005 --beta 2" "--dtype bf16 --tb --m 1003 --n 517 --k 1024 --ldc 1005 --beta 2" \
    "--dtype f16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2" "--dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2 --out f32"; do
  i=$((i+1)); timeout 120 $H gemm $a --check > $R/c$i.txt 2>&1 < /dev/null; rc=$?
  t "C$i rc=$rc $a"; tail -n 4 $R/c$i.txt | cut -c1-300 | tee -a $S
done
timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2 --check > $R/mc.txt 2>&1 < /dev/null
t "memcheck rc=$?"; grep -vE '^\s*$' $R/mc.txt | head -40 | cut -c1-300 | tee -a $S
# and where beta = 1 costs (4096³ bf16 TN: 0.97–0.98 of cuBLAS, beta 0 at 1.00–1.01): one launch each under ncu
SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters"
ncu_src beta1 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --beta 1 --bench --timing burst
ncu_src beta0 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
t end
