#!/usr/bin/env bash
# (session 29) The 64 × 128 16-bit entries with f32 and f16 output and leading dimensions past the tight ones (`--check`
# against cuBLAS). Package: $D/host.xz (session 29's release host), $D/hgemm.ptx.xz (its hgemm module cut to the eight
# `_pp64` entries).       D=.gpu/s29f bash tools/gpu/gemm/pingpong64-out-f32.sh
BUDGET=${BUDGET:-80}; . tools/gpu/lib.sh ${NAME:-s29f}
c() { timeout 60 $H "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1) $(grep -Eo 'hgemm [0-9x]+ tma[^|]*' $R/c.txt | head -1)"; }
c gemm --dtype bf16 --m 128 --n 7168 --k 4096 --out f32
c gemm --ta --dtype f16 --m 100 --n 4096 --k 2048 --out f32 --beta 0.5
c gemm --tb --dtype bf16 --m 192 --n 2048 --k 1000 --lda 200 --ldb 2056 --ldc 200
c gemm --ta --tb --dtype f16 --m 64 --n 5000 --k 3000 --out f32
t end
