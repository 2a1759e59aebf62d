#!/bin/bash
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
for r in 1 2; do
  for b in exp-serp exp-a exp-b; do
    .gpu/$b/host bench gemm --csv > $O/r/bench-$b-$r.csv 2> $O/r/bench-$b-$r.err
  done
done
timeout 240 .gpu/exp-a/host gemm --sweep > $O/r/sweep-exp-a.txt 2>&1
for f in $O/r/bench-*.csv; do echo "== $f"; cut -d, -f2,3,11 $f; done
cat $O/r/sweep-exp-a.txt | tail -60
tar czf $O/exp2.tgz -C $O r
