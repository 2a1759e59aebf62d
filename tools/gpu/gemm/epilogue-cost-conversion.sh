#!/usr/bin/env bash
# (session 23, lead) Where the epilogue's cost lies: main's hgemm module, a measuring build that keeps the 16-bit TMA
# path's conversion (its packed registers sunk into an empty `asm`) but drops its `stmatrix`s, fences, barriers and
# stores (`conv`), and run s23b's build that skips all but the last unit's epilogue (`skip`); three entries each,
# alternated through CUTE_RS_PTX_DIR under the s23a host, `--bench` rounds. C is not written by conv and skip.
# Package: $D/host.xz, $D/{main,conv,skip}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s23h bash tools/gpu/gemm/epilogue-cost-conversion.sh
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s23h}
for v in main conv skip; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu"; do
  for v in main conv skip; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
