#!/usr/bin/env bash
# (session 48) `host bench gemm --json`, every row in both timing modes (sustained, burst), with the package's modules in
# place of the host's embedded ones (CUTE_RS_PTX_DIR: the families whose <family>.ptx.xz the package holds; the others
# stay embedded, so the package has no stubs). The closing table of a kernel change measured without rebuilding the host.
# Package $D: host.xz, <family>.ptx.xz for the changed families.   D=.gpu/s48c NAME=s48c bash tools/gpu/bench-gemm/json-modules.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s48c}
ls $P | tr '\n' ' ' | tee -a $S; echo | tee -a $S
warm
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
