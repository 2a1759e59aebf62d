#!/usr/bin/env bash
# (session 24, lead) The deferred store issue: main's hgemm module, run s24b's `new` (no wait for a tile's own TMA stores)
# and `def` (a 16-bit tile staged whole, its TMA stores issued under the next tile's first k-tile), cut to seven entries,
# alternated through CUTE_RS_PTX_DIR under the s23a host: `--check` shapes on def, then `--bench` rounds.
# Package: $D/host.xz, $D/{main,new,def}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s24c bash tools/gpu/gemm/epilogue-deferred-store.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s24c}
V="main new def"
for v in $V; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
for s in "--ta --dtype bf16 --m 1000 --n 1500 --k 700" "--dtype bf16 --m 4096 --n 3000 --k 2048" "--ta --dtype f16 --m 2048 --n 777 --k 1536" \
  "--ta --dtype bf16 --m 777 --n 1234 --k 1024 --bias m --act gelu" "--ta --dtype bf16 --m 8192 --n 256 --k 4096" "--ta --dtype bf16 --m 300 --n 300 --k 300"; do
  CUTE_RS_PTX_DIR=/tmp/pvdef timeout 60 $H gemm $s --check > $R/c.txt 2>&1 < /dev/null; t "C def rc=$? | $s | $(grep -iE 'pass|fail|error' $R/c.txt | head -3 | tr '\n' '|')"; done
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu" \
  "--ta --dtype f16 --m 4096"; do
  for v in $V; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
