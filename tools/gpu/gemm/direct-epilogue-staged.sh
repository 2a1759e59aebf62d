#!/usr/bin/env bash
# (session 39) The direct epilogue through shared memory (`store_staged`): checks, sanitizers and the A/B of run s39b
# (the register path: 0.60 of TMA at 128 x 7168, beta 1 at 4096^3 0.49 of cuBLAS). $D/host.xz: the branch's host.
# The register path's figures are run s39b's (the same rows, as ratios to cuBLAS / TMA in its call).
#   D=.gpu/s39c NAME=s39c bash tools/gpu/gemm/direct-epilogue-staged.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s39c}
timeout 400 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
c() { timeout 120 $H gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype bf16 --ta --m 126 --n 7168 --k 2048
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5
c --dtype bf16 --m 4096 --n 4096 --k 1024 --beta 1
c --dtype f16 --out f32 --ta --tb --m 333 --n 517 --k 96 --beta -2 --ldc 340
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5 --bias n --act gelu
c --dtype bf16 --ta --m 126 --n 1030 --k 512 --bias m --act relu
c --dtype e4m3 --m 126 --n 7168 --k 2048
c --dtype e4m3 --m 126 --n 1030 --k 1664 --block-scales
c --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c --dtype e4m3 --m 1022 --n 1030 --k 1024 --out f32
c --dtype e4m3 --m 126 --n 1030 --k 1024 --bias n --act gelu --row-scales
CUTE_RS_HGEMM_EPILOGUE=direct c --dtype bf16 --ta --m 2048 --n 2048 --k 512
timeout 300 $H run --only hgemm --seed 3902 --sweep-hgemm 300 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 3902 --sweep-hgemm 300 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
for a in "--dtype bf16 --ta --m 300 --n 520 --k 256 --beta 1" "--dtype e4m3 --m 126 --n 1030 --k 1536 --block-scales" "--dtype e4m3 --m 258 --n 520 --k 512 --block-scales"; do
  for tool in memcheck racecheck synccheck; do [ $(left) -gt 150 ] || break
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm $a --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
for i in 1 2; do [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; g pt128; g pt128-direct CUTE_RS_HGEMM_EPILOGUE=direct
  GARGS="--dtype e4m3 --m 126 --n 7168 --k 16384"; g pt126; GARGS="$GARGS --block-scales"; g blk126
  GARGS="--dtype e4m3 --m 4098 --n 7168 --k 16384 --block-scales"; g blk4098
  GARGS="--dtype bf16 --ta --m 128 --n 7168 --k 8192"; g bf128; g bf128-direct CUTE_RS_HGEMM_EPILOGUE=direct
  GARGS="--dtype bf16 --ta --m 126 --n 7168 --k 8192"; g bf126
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096"; g bf4096; g bf4096-direct CUTE_RS_HGEMM_EPILOGUE=direct
  GARGS="$GARGS --beta 1"; g bf4096-beta1
  GARGS="--dtype bf16 --ta --m 8192 --n 8192 --k 8192 --beta 1"; g bf8192-beta1
done
t end
