#!/usr/bin/env bash
# (session 23, lead) main's hgemm module and a change's (both cut to a few entries) alternated through CUTE_RS_PTX_DIR under
# one host: `--check` on the change first, then `--bench` rounds.
# Package: $D/host.xz, $D/{main,new}/hgemm.ptx.xz, stub.ptx + stub-families.txt.     NAME=s23c D=.gpu/s23c bash tools/gpu/gemm/hgemm-module-ab.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s23c}
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 120 $H "$@" < /dev/null; }
c() { run new gemm "$@" --check > $R/c.txt 2>&1; t "C new rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; }
c --ta --dtype bf16 --m 4096; c --dtype f16 --m 3000 --n 2000 --k 1000; c --ta --dtype bf16 --m 3000 --n 2000 --k 1000 --bias n --act gelu
c --dtype bf16 --m 520 --n 1000 --k 1040 --out f32; c --dtype bf16 --m 2304 --n 2048 --k 2304
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-170 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu" \
  "--dtype f16 --m 4096" "--ta --dtype bf16 --m 2048"; do
  for v in main new; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
