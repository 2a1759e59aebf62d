#!/usr/bin/env bash
# (session 19, lead) The hgemm check with the exact value where ours and cuBLAS disagree (host/src/check/hgemm.rs):
# the seed-1931 problem, then host run --only hgemm at seeds 1931 (which failed on it) and 1830 (last session's).
# Package .gpu/s19f: host.xz (this tree's release host, every module embedded; attention and the others stubbed).
#      D=.gpu/s19f bash tools/gpu/gemm/sweep-exact-value-check.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh s19f
timeout 200 $H gemm --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --lda 2216 --ldb 456 --ldc 2208 --check > $R/n.txt 2>&1
t "N rc=$? | $(grep -E '^hgemm ' $R/n.txt | tr -s ' ' | cut -c1-400)"
for s in 1931 1830; do [ $(left) -gt 40 ] || break
  timeout $(( $(left) - 10 )) $H run --only hgemm --seed $s > $R/r$s.txt 2>&1; t "C host run --only hgemm --seed $s rc=$? $(grep -E 'passed|failed' $R/r$s.txt | tail -1)"
  grep -E "FAIL|cuBLAS off" $R/r$s.txt | head -4 | tr -s ' ' | cut -c1-300 | tee -a $S; done
t end
