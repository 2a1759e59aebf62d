#!/usr/bin/env bash
# (session 47) A 16-bit C with `beta ≠ 0` that TMA cannot store (an ldc or address off 16 bytes, an M-edge tile, or
# CUTE_RS_HGEMM_EPILOGUE=direct) through the chunk buffers (`store_staged`: C read into the chunk by rows, then
# `op(alpha·acc + beta·C)` at the accumulators' places) instead of the registers' path (`store_as`, 5,000 SASS a 16-bit
# element and entry: the 16-bit module's PTX 16.5 → 11.3 MB, ptxas 102 → 49 s). The new modules (hgemm, hgemm_fp8)
# for the checks, the sweep and the sanitizers; then main's and the new entries (cut to bf16 TN / NN, f16 TN, fused
# GELU) alternated, `host gemm --bench`, ROUNDS rounds.
# Package $D: host.xz, hgemm.ptx.xz + hgemm_fp8.ptx.xz (new, whole), {main,new}/hgemm.ptx.xz (cut), stub.ptx +
# stub-families.txt.   D=.gpu/s47c NAME=s47c bash tools/gpu/gemm/staged-source.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s47c}
ROUNDS=${ROUNDS:-2}
c gemm --dtype bf16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1
c gemm --dtype f16 --ta --m 126 --n 300 --k 256 --beta -0.5
c gemm --dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2
c gemm --dtype bf16 --ta --m 777 --n 1024 --k 384 --ldc 781 --beta 1
c gemm --dtype bf16 --ta --m 100 --n 2000 --k 4096 --ldc 101 --beta 1
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --ldc 1001 --beta 1 --bias m --act gelu
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --ldc 1003 --beta -1 --bias n --act silu
c gemm --dtype f16 --m 1000 --n 1000 --k 1000 --out f32 --beta 1
c gemm --dtype bf16 --m 126 --n 128 --k 64
c gemm --dtype e4m3 --m 126 --n 7168 --k 1024
c gemm --dtype e4m3 --m 126 --n 1000 --k 1024 --block-scales
export CUTE_RS_HGEMM_EPILOGUE=direct
c gemm --dtype bf16 --ta --m 1024 --n 1536 --k 512 --beta 1
c gemm --dtype f16 --m 2000 --n 1000 --k 700 --beta 0.5
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --beta 1 --bias n --act gelu-erf
unset CUTE_RS_HGEMM_EPILOGUE
timeout 200 $H run --only hgemm --seed 4747 > $R/run.txt 2>&1 < /dev/null; t "host run --only hgemm --seed 4747 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep -E 'FAIL' $R/run.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for v in main new; do mkdir -p /tmp/pc$v; cp $P/*.ptx /tmp/pc$v/; x $D/$v/hgemm.ptx.xz /tmp/pc$v/hgemm.ptx; done
for i in $(seq $ROUNDS); do for a in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 4096 --beta 1" \
    "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--ta --dtype f16 --m 4096 --ldc 4100 --beta 1"; do for v in main new; do
  [ $(left) -gt 25 ] || break 3
  GARGS="$a"; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pc$v
done; done; done
t end
