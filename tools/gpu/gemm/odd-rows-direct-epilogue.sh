#!/usr/bin/env bash
# (session 39) Why M = 124 / 126 rows run at 0.58 of 128 (run s39a: per-tensor 483-501 against 850, block 440-460
# against 743-755; 120 rows run in proportion). At 124 and 126 rows D's columns (M bf16 values) do not start on 16-byte
# boundaries, so the TMA store plan fails and every tile takes the direct epilogue. A/B: the direct epilogue forced at
# 128 rows (FP8 and bf16); bf16 at 126 rows with ldc 128 (TMA again); K 2048 (a fixed cost or a per-k-tile one); bf16 at 126/128 rows and with
# beta 1 (beta != 0 takes the direct path too); ncu's warp states and source counters at 126 and forced-direct 128.
#   D=.gpu/s39a NAME=s39b bash tools/gpu/gemm/odd-rows-direct-epilogue.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s39b}
timeout 400 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
timeout 200 $H gemm --dtype bf16 --ta --m 128 --n 7168 --k 2048 --check > $R/w2.txt 2>&1 < /dev/null; t "warm bf16 rc=$? $(grep -Eo 'PASS|FAIL' $R/w2.txt | head -1)"
for i in 1 2; do [ $(left) -gt 90 ] || break
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; g pt128; g pt128-direct CUTE_RS_HGEMM_EPILOGUE=direct
  GARGS="--dtype e4m3 --m 126 --n 7168 --k 16384"; g pt126
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 2048"; g pt128k2; GARGS="--dtype e4m3 --m 126 --n 7168 --k 2048"; g pt126k2
  GARGS="--dtype bf16 --ta --m 128 --n 7168 --k 8192"; g bf128; GARGS="--dtype bf16 --ta --m 126 --n 7168 --k 8192"; g bf126; GARGS="$GARGS --ldc 128"; g bf126-ldc128
  GARGS="--dtype bf16 --ta --m 128 --n 7168 --k 8192"; g bf128-direct CUTE_RS_HGEMM_EPILOGUE=direct
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096"; g bf4096; GARGS="$GARGS --beta 1"; g bf4096-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096"; g bf4096-direct CUTE_RS_HGEMM_EPILOGUE=direct
done
ncu_src pt126 -k regex:gemm_fp8 $H gemm --dtype e4m3 --m 126 --n 7168 --k 16384
CUTE_RS_HGEMM_EPILOGUE=direct ncu_src pt128d -k regex:gemm_fp8 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384
ncu_src pt128 -k regex:gemm_fp8 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384
t end
