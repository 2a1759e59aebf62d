#!/usr/bin/env bash
# (session 24, lead) The store warps (branch s24-store-warp, not on main: build its hgemm module to rerun): each consumer warpgroup stages a 16-bit tile whole, signals a
# warp of the producer warpgroup through an mbarrier and goes on; that warp issues the tile's TMA stores, waits for their
# reads and signals back. Main (b37d0d4's module, s24e's cut: seven 16-bit and eleven FP8 entries) against it (the same
# cut), alternated through CUTE_RS_PTX_DIR under the s24d host: `--check` shapes on sw, then `--bench` rounds.
# Package: $D/host.xz, $D/{main,sw}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s24f bash tools/gpu/gemm/epilogue-store-warps.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s24f}
V="main sw"
for v in $V; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
for s in "--ta --dtype bf16 --m 1000 --n 1500 --k 700" "--dtype bf16 --m 4096 --n 3000 --k 2048" "--ta --dtype bf16 --m 777 --n 1234 --k 1024 --bias m --act gelu" \
  "--dtype e4m3 --m 4096 --n 1030 --k 512" "--ta --dtype bf16 --m 8192 --n 256 --k 4096"; do
  CUTE_RS_PTX_DIR=/tmp/pvsw timeout 60 $H gemm $s --check > $R/c.txt 2>&1 < /dev/null; t "C sw rc=$? | $s | $(grep -iE 'passed|error' $R/c.txt | head -2 | tr '\n' '|')"; done
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 40 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--dtype e4m3 --m 4096" "--dtype e4m3 --m 8192"; do
  for v in $V; do [ $(left) -gt 10 ] || break; g $v $s; done; done; done
t end
