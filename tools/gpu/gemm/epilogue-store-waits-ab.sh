#!/usr/bin/env bash
# (session 24, lead) The epilogue's store waits: main's hgemm module against the new one (a tile's chunks never wait for
# the tile's own TMA stores; one wait for the previous tile's at the tile's start), whole modules, alternated through
# CUTE_RS_PTX_DIR under the s23a host: `host run --only hgemm` on the new one, then `--bench` rounds.
# Package: $D/host.xz, $D/{main,new}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s24b bash tools/gpu/gemm/epilogue-store-waits-ab.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s24b}
V="main new"
for v in $V; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
CUTE_RS_PTX_DIR=/tmp/pvnew timeout 120 $H run --only hgemm --seed 2401 > $R/rh.txt 2>&1 < /dev/null
t "C new: host run --only hgemm --seed 2401 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -2 | tr '\n' '|')"
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu" \
  "--ta --dtype f16 --m 4096" "--dtype e4m3 --m 4096" "--dtype e4m3 --m 8192" "--ta --dtype bf16 --m 2048"; do
  for v in $V; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
