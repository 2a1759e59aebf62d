#!/usr/bin/env bash
# (session 20, lead) The 16-bit GEMM after the cluster-shape change (its PTX byte-identical, the host's launch path
# through HgemmPlan::for_variant and the shape (cm, cn)): host run --only hgemm at an unseen seed.
#      D=.gpu/s20i bash tools/gpu/gemm/cluster-shape-run.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh s20j
timeout 200 $H gemm --ta --dtype bf16 --m 300 --n 200 --k 520 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout $(( $(left) - 10 )) $H run --only hgemm --seed 2020 > $R/run.txt 2>&1 < /dev/null
t "host run --only hgemm --seed 2020 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep -E "FAIL|cuBLAS off" $R/run.txt | head -4 | tr -s ' ' | cut -c1-300 | tee -a $S
t end
