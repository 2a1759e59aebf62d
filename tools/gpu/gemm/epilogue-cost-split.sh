#!/usr/bin/env bash
# (session 24, lead) The epilogue's cost split: main's hgemm module, run s23h's `conv` (conversion kept, packed registers
# sunk into an empty `asm`: no stmatrix, fence, barrier or store), `stsm` (the stmatrixes kept, no fence, barrier or TMA
# store) and `nost` (stmatrix, fence and the warpgroup barrier kept, no TMA store), alternated through CUTE_RS_PTX_DIR
# under the s23a host, `--bench` rounds. C is not written by conv, stsm and nost.
# Package: $D/host.xz, $D/{main,conv,stsm,nost}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s24a bash tools/gpu/gemm/epilogue-cost-split.sh
BUDGET=${BUDGET:-290}; . tools/gpu/lib.sh ${NAME:-s24a}
V="main conv stsm nost"
for v in $V; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu"; do
  for v in $V; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
