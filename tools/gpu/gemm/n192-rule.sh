#!/usr/bin/env bash
# (session 67; issue #34) The 16-bit rule with the cooperative 128×192 tiles in the default build
# (`hgemm_{bf16,f16}_{nn,tn}_n192`, B K-major; `HgemmSchedule::for_problem`: the highest estimated use of the machine
# over its premium among 128×256, 128×192 and the 128×128 ping-pong; fused launches and B MN-major without 128×192).
# `--check`s of each majority on the rule's launches and of forced 128×192 ones (edges, beta 1, f32 D, split-K), a
# fused one (the ping-pong), the refusal of a forced "NT", memcheck and racecheck, `host run --only hgemm`; then one
# round of the rule against the launch before it ("NN" 3072³ and 8192×2112×4096; 1024×6144×4096, where the estimates of
# 128×192 and the ping-pong tie).
# Package $D: host.xz (main's release host).
#   BUDGET=330 D=.gpu/s67d NAME=s67d bash tools/gpu/gemm/n192-rule.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s67d}
timeout 200 $H gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072 --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1) $(grep -Eo 'hgemm [0-9x]+ tma[^|]*' $R/w.txt | head -1)"
c gemm --dtype bf16 --tb --m 3072 --n 3072 --k 3072
c gemm --dtype f16 --ta --tb --m 6144 --n 2112 --k 4096
c gemm --dtype f16 --m 2048 --n 7168 --k 4000
c gemm --dtype bf16 --ta --m 4096 --n 2112 --k 7168 --beta 1
c gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072 --bias n --act gelu
F=CUTE_RS_HGEMM_SCHEDULE=cooperative192
for a in "bf16 --m 1000 --n 1030 --k 1000 --beta 1" "f16 --ta --m 999 --n 577 --k 1000 --out f32" \
  "f16 --m 130 --n 2112 --k 8192" "bf16 --ta --m 3000 --n 200 --k 520 --alpha 0.5 --beta 1" "bf16 --tb --m 256 --n 256 --k 256"; do
  env $F timeout 120 $H gemm --dtype $a --check > $R/c.txt 2>&1 < /dev/null
  t "C forced rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"
done
for tool in memcheck racecheck; do
  env $F timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --m 300 --n 1030 --k 1000 --beta 1 \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null; t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
for a in "bf16 --m 3072 --n 3072 --k 3072:pingpong128" "bf16 --ta --m 1024 --n 6144 --k 4096:pingpong128" \
  "f16 --m 8192 --n 2112 --k 4096:cooperative"; do
  [ $(left) -gt 25 ] || break; GARGS="--dtype ${a%%:*}"; g rule; g before CUTE_RS_HGEMM_SCHEDULE=${a##*:}
done
t end
