#!/usr/bin/env bash
# (session 51, issue #34; run s51e, on branch `s51-nosrc`'s host: level, not merged) The 16-bit entries without a source (`hgemm_{bf16,f16}_{ab}_nosrc`, `HgemmEpilogueNoSource`):
# the host's cooperative launches for beta = 0 since this change. Checks (every majority and element at an edge shape,
# beta 0 on the new entries and beta ≠ 0 on the old ones, f32 and f16 C, the direct path), `host run --only hgemm` at an
# unseen seed, then the same host and modules with and without `CUTE_RS_HGEMM_SOURCE=always` (beta 0 on the entries
# that read C, as before), alternated, ROUNDS rounds, burst and sustained: 4096³ every majority and element, 8192³ bf16
# TN and f16 NN; last the sanitizers on two new-entry problems.
# Package $D: host.xz (the change's host), hgemm.ptx.xz (its whole module).   D=.gpu/s51e NAME=s51e bash tools/gpu/gemm/nosrc-entries.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s51e}
for dt in bf16 f16; do for tr in "" "--ta" "--tb" "--ta --tb"; do
  c gemm --dtype $dt $tr --m 1003 --n 1030 --k 520 --ldc 1008
  c gemm --dtype $dt $tr --m 1003 --n 1030 --k 520 --ldc 1008 --beta 0.5; done; done
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096
c gemm --dtype f16 --m 1000 --n 1000 --k 512 --out f32
c gemm --dtype bf16 --ta --m 1000 --n 1000 --k 512 --out f32 --beta -1
c gemm --dtype bf16 --tb --m 126 --n 1030 --k 512 --ldc 130
c gemm --dtype bf16 --ta --m 2048 --n 2048 --k 1024 --bias n --act silu
timeout 120 $H run --only hgemm --seed 5151 > $R/run.txt 2>&1 < /dev/null
t "run --only hgemm --seed 5151 rc=$? $(grep -cE 'PASS' $R/run.txt) PASS $(grep -cE 'FAIL' $R/run.txt) FAIL | $(tail -2 $R/run.txt | tr '\n' ' ' | cut -c1-200)"
for i in $(seq ${ROUNDS:-2}); do
  for a in "--dtype bf16 --ta" "--dtype bf16" "--dtype bf16 --tb" "--dtype bf16 --ta --tb" \
           "--dtype f16 --ta" "--dtype f16" "--dtype f16 --tb" "--dtype f16 --ta --tb"; do
    [ $(left) -gt 150 ] || break; GARGS="$a --m 4096"; g nosrc$i; g src$i CUTE_RS_HGEMM_SOURCE=always; done
  for a in "--dtype bf16 --ta" "--dtype f16"; do
    [ $(left) -gt 130 ] || break; GARGS="$a --m 8192"; g nosrc$i; g src$i CUTE_RS_HGEMM_SOURCE=always; done
done
sz() { [ $(left) -gt 25 ] || return 0
  timeout $(( $(left) - 15 )) compute-sanitizer --tool $1 --print-limit 5 $H gemm "${@:2}" --check > $R/san.txt 2>&1 < /dev/null
  t "S $1 rc=$? ${*:2} | $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in memcheck racecheck synccheck; do
  sz $tool --dtype bf16 --m 1024 --n 2064 --k 256 --ta --ldc 1040
  sz $tool --dtype f16 --m 1000 --n 1032 --k 512 --tb --out f32; done
t end
