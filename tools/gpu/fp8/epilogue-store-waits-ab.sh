#!/usr/bin/env bash
# (session 24, lead) The FP8 A/B of the epilogue's new store waits: main's and the new hgemm module cut to their eleven FP8
# entries (run s24d's cut of four could not load; the new one with s24c's seven 16-bit entries too), alternated through CUTE_RS_PTX_DIR under the s24d host, `--bench`
# rounds on the FP8 bench shapes; first racecheck on bf16 TN 520×1000×1040 (new), its races named.
# Package: $D/host.xz, $D/{main,new}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s24e bash tools/gpu/fp8/epilogue-store-waits-ab.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s24e}
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
CUTE_RS_PTX_DIR=/tmp/pvnew timeout 150 compute-sanitizer --tool racecheck --print-limit 5 $H gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040 --check > $R/race.txt 2>&1 < /dev/null
t "S racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/race.txt | tail -1) | $(grep -Eo 'Race reported between [A-Za-z]+ access at [A-Za-z0-9_]+' $R/race.txt | sort | uniq -c | tr '\n' '|')"
g() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pv$v timeout 100 $H gemm "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $v rc=$? | $* | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--m 4096" "--m 8192" "--m 4096 --n 7168 --k 16384" "--m 4096 --n 2112 --k 7168" "--m 128 --n 7168 --k 16384" \
  "--m 4096 --block-scales" "--m 4096 --n 7168 --k 16384 --block-scales"; do
  for v in main new; do [ $(left) -gt 10 ] || break; g $v --dtype e4m3 $s; done; done; done
t end
