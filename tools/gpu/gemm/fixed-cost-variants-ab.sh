#!/usr/bin/env bash
# (session 22, lead) Fixed-cost variants of the GEMM PTX under one host: each folder $D/<v>/ holds a cut hgemm.ptx.xz;
# V names them (main first). A check per variant, ncu's kernel time of ours on small and large shapes per variant
# (--clock-control none), then `--bench` TFLOP/s alternated.      V="main x1 x2" D=.gpu/s22b bash tools/gpu/gemm/fixed-cost-variants-ab.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s22b}
V=${V:-main new}
for v in $V; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 150 $H "$@" < /dev/null; }
for v in $V; do for s in "--dtype e4m3 --m 128 --n 7168 --k 2048" "--dtype e4m3 --m 300 --n 200 --k 528" "--dtype e4m3 --m 128 --n 2048 --k 8192" "--ta --dtype bf16 --m 1000 --n 1030 --k 520" "--dtype e4m3 --m 1000 --n 1000 --k 1024"; do
  run $v gemm $s --check > $R/c.txt 2>&1; t "C $v rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; done; done
M="--metrics gpu__time_duration.sum"
for s in "--dtype e4m3 --m 128 --n 128 --k 128" "--dtype e4m3 --m 128 --n 7168 --k 2048" "--dtype e4m3 --m 128 --n 7168 --k 16384" "--dtype e4m3 --m 128 --n 4096 --k 8192" "--ta --dtype bf16 --m 128 --n 7168 --k 2048" "--ta --dtype bf16 --m 2048" "--dtype e4m3 --m 4096"; do
  for v in $V; do [ $(left) -gt 60 ] || break
    CUTE_RS_PTX_DIR=/tmp/pv$v timeout 60 ncu --clock-control none -k regex:"gemm_fp8|hgemm" --launch-skip 4 --launch-count 5 --print-summary per-kernel $M $H gemm $s --bench > $R/n.txt 2>&1
    t "N $v | $s | $(grep -E 'gpu__time' $R/n.txt | tr -s ' ' | cut -c1-80)"; done; done
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2; do for s in "--dtype e4m3 --m 128 --n 7168 --k 16384" "--dtype e4m3 --m 128 --n 4096 --k 8192" "--dtype e4m3 --m 128 --n 7168 --k 4096" "--ta --dtype bf16 --m 2048" "--dtype e4m3 --m 4096" "--ta --dtype bf16 --m 4096"; do
  for v in $V; do [ $(left) -gt 25 ] || break; g $v $s; done; done; done
t end
