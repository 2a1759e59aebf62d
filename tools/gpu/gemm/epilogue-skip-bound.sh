#!/usr/bin/env bash
# (session 23, lead) What the epilogue costs the GEMMs' tiles: main's hgemm module and a measuring build whose consumers
# skip the epilogue of every work unit but their last (`if !last { continue }` before `Epi::store` in
# collective::kernel: C is not written; an upper bound of what overlapping the epilogue with the next tile's mainloop could
# give), both cut to five entries, alternated through CUTE_RS_PTX_DIR under the s23a host, `--bench` rounds.
# Package: $D/host.xz, $D/{main,skip}/hgemm.ptx.xz, stub.ptx + stub-families.txt.     D=.gpu/s23b bash tools/gpu/gemm/epilogue-skip-bound.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s23b}
for v in main skip; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 120 $H "$@" < /dev/null; }
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-170 | tr '\n' '|')"; }
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --bias m --act gelu" \
  "--dtype e4m3 --m 4096" "--dtype e4m3 --m 8192" "--ta --dtype bf16 --m 2048"; do
  for v in main skip; do [ $(left) -gt 15 ] || break; g $v $s; done; done; done
t end
