#!/usr/bin/env bash
# (session 50, issues #34, #37) The bench rows whose grid the balance changed besides the squares (run s50e):
# 8192×8192×512 (1,024 cluster tiles: the last wave 34 of 66, now 16 waves of 64) and 1152×7168×4096 (252 tiles without
# clusters: the last wave 120 of 132, now 2 waves of 126), and 8192³ `--beta 1`; main's host (`host-old`) against the
# new one, alternated, ROUNDS rounds. Then #37's ratio on the new host: block scales against per-tensor at 4096³, 8192³
# and 4096×7168×16384, alternated in one process each round.
# Package $D: as balanced-grid-final.sh (.gpu/s50e).   D=.gpu/s50e NAME=s50f bash tools/gpu/bench-gemm/balanced-grid-rows.sh
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s50f}
x $D/host-old.xz /tmp/hold && chmod +x /tmp/hold
ROUNDS=${ROUNDS:-3}
c gemm --dtype bf16 --m 1152 --n 7168 --k 4096
go() { local tag=$1 h=$2; env timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in $(seq $ROUNDS); do
  for GARGS in "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype bf16 --m 1152 --n 7168 --k 4096" \
    "--dtype f16 --m 1152 --n 7168 --k 4096" "--dtype bf16 --m 8192 --beta 1"; do
    [ $(left) -gt 70 ] || break 2
    go "main$i" /tmp/hold; go "new$i" $H
  done
done
for i in $(seq $ROUNDS); do
  for GARGS in "--dtype e4m3 --m 4096" "--dtype e4m3 --m 4096 --block-scales" "--dtype e4m3 --m 8192" \
    "--dtype e4m3 --m 8192 --block-scales" "--dtype e4m3 --m 4096 --n 7168 --k 16384" \
    "--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; do
    [ $(left) -gt 15 ] || break 2
    go "fp8-$i" $H
  done
done
t end
