#!/usr/bin/env bash
# (session 49, issue #34) `beta ≠ 0`: C's tile requested under the mainloop (`CollectiveEpilogue::load`, halfway
# through a whole tile's k-tiles, thread 0: the previous stores' read wait, `expect_tx` without arriving, four boxes),
# the epilogue only arriving and waiting. Run s49b's ncu (main, 4096³ bf16 TN `--beta 1`) put 621 of the 1,054 extra
# stall samples on the epilogue's wait for C's barrier (`NANOSLEEP.SYNCS` after the `TRYWAIT`).
# The new whole hgemm module for the checks (TMA source path with the request, the M edge off 16 bytes mixing requested
# and direct tiles, ping-pong 64 and 128, split-K tails that load their own, K of one k-tile, fused with beta), the
# sweep and the sanitizers; then main's and the new entries, cut alike, alternated ROUNDS rounds (beta 1 rows and two
# beta 0 rows as a control).
# Package $D: host.xz, hgemm.ptx.xz (new, whole), {main,new}/{hgemm,hgemm_fp8}.ptx.xz (cut), stub.ptx + stub-families.txt.
#   D=.gpu/s49c NAME=s49c bash tools/gpu/gemm/source-under-mainloop-ab.sh
# Run s49e (package .gpu/s49e: k-tile `at` out of the plain loops, whose k-tiles then test nothing): ROWS="beta0" puts
# the beta 0 rows first (the in-loop test had cost them 0.2–0.5 % burst in s49c) and CHECKS=short the checks that
# exercise the request.
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s49c}
ROUNDS=${ROUNDS:-3}
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1
[ "${CHECKS:-}" = short ] || c gemm --dtype f16 --ta --tb --m 4096 --n 4096 --k 4096 --beta -0.5
c gemm --dtype bf16 --ta --m 1003 --n 1030 --k 2056 --ldc 1008 --beta 1
c gemm --dtype bf16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1
c gemm --dtype bf16 --ta --m 777 --n 1024 --k 384 --beta 1
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 256 --beta 1
c gemm --dtype bf16 --ta --m 128 --n 7168 --k 8192 --beta 1
c gemm --dtype bf16 --ta --m 2048 --n 2048 --k 64 --beta 2
c gemm --dtype bf16 --ta --m 8192 --n 8192 --k 1024 --ldc 8200 --beta 1
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --beta 1 --bias m --act gelu
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096 --out f32 --beta 1
c gemm --dtype f16 --m 3000 --n 3000 --k 3000
c gemm --dtype e4m3 --fast-accum --m 1000 --n 1030 --k 2048
timeout 200 $H run --only hgemm --seed 4950 > $R/run.txt 2>&1 < /dev/null; t "host run --only hgemm --seed 4950 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep -E 'FAIL' $R/run.txt | head -3 | cut -c1-200 | tee -a $S
i=0; for a in "--dtype bf16 --ta --m 2048 --n 4096 --k 512 --beta 1" "--dtype f16 --ta --m 1003 --n 1030 --k 520 --ldc 1008 --beta 1"; do i=$((i+1))
  for tool in memcheck racecheck synccheck; do
    timeout 90 compute-sanitizer --tool $tool --print-limit 20 $H gemm $a --check > $R/san-$tool-$i.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool-$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool-$i.txt | head -1) $(grep -Eo 'nvjet[a-z0-9_]+|hgemm[a-z0-9_]+' $R/san-$tool-$i.txt | sort -u | tr '\n' ' ')"; done; done
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; for f in hgemm hgemm_fp8; do [ -e $D/$v/$f.ptx.xz ] && x $D/$v/$f.ptx.xz /tmp/pv$v/$f.ptx; done; done
if [ "${ROWS:-}" = beta0 ]; then
  ab "main new" "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--tb --dtype f16 --m 4096" \
    "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--ta --dtype bf16 --m 4096 --beta 1" "--dtype f16 --m 4096 --beta 1"
else
  ab "main new" "--ta --dtype bf16 --m 4096 --beta 1" "--dtype bf16 --m 8192 --beta 1" "--dtype f16 --m 4096 --beta 1" \
    "--ta --dtype bf16 --m 4096 --beta 1 --bias m --act gelu" "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192"
fi
t end
