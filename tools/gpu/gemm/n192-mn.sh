#!/usr/bin/env bash
# (session 67, measuring branch `s67-n192-mn`; issue #34) 128×192 with B MN-major: `hgemm_bf16_{nt,tt}_n192`
# (B's three 64-row boxes multicast 2 + 1, `mn_major_operand!(interleaved _192, _192)`), forced with
# `CUTE_RS_HGEMM_SCHEDULE=cooperative192`: `--check`s (edges, beta 1, split-K), racecheck and memcheck, then "NT" 3072³
# and 6144×2112×4096 against the rule's launch (no 128×192 for B MN-major on main).
# Package $D: host.xz (the branch's release host built with CUTE_RS_KERNEL_FEATURES=hgemm/pingpong).
#   BUDGET=150 D=.gpu/s67e NAME=s67e bash tools/gpu/gemm/n192-mn.sh
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s67e}
F=CUTE_RS_HGEMM_SCHEDULE=cooperative192
for a in "--tb --m 3072 --n 3072 --k 3072" "--ta --tb --m 1000 --n 1030 --k 1000 --beta 1" "--tb --m 130 --n 2112 --k 4096" \
  "--ta --tb --m 999 --n 577 --k 520 --alpha 0.5 --beta 1"; do
  env $F timeout 150 $H gemm --dtype bf16 $a --check > $R/c.txt 2>&1 < /dev/null
  t "C forced rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"
done
for tool in racecheck memcheck; do
  [ $(left) -gt 30 ] || break
  env $F timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --tb --m 300 --n 1030 --k 1000 --beta 1 \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
for s in "--tb --m 3072 --n 3072 --k 3072" "--ta --tb --m 6144 --n 2112 --k 4096"; do
  [ $(left) -gt 20 ] || break; GARGS="--dtype bf16 $s"; g n192 $F; g rule
done
t end
