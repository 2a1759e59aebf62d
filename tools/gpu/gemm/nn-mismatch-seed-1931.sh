#!/usr/bin/env bash
# (session 19, lead) The hgemm sweep's seed-1931 mismatch (2208x219x440 NN bf16, alpha -0.5, beta 1: 1.25-1.32 of the
# bound under both schedules, found by tools/gpu/attention/direct-store-row-addresses-ab.sh and repeated by attention/lfl-opaque-index-nn-mismatch.sh) with the check's new
# diagnosis: the worst element beside its exact value (f64 on the CPU), ours' and cuBLAS's distance in bf16 ulps; and
# neighbours (other shapes and alphas with beta 1). Package .gpu/s19e: host.xz (this tree's release host), nn-hgemm.ptx.xz
# (the hgemm module cut to the bf16/f16 NN and bf16 TN entries), stubs.      D=.gpu/s19e bash tools/gpu/gemm/nn-mismatch-seed-1931.sh
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh s19e
x $D/nn-hgemm.ptx.xz $P/hgemm.ptx
n() { timeout 60 $H gemm "$@" --check > $R/n.txt 2>&1; t "N rc=$? | $* | $(grep -E '^hgemm ' $R/n.txt | tr -s ' ' | cut -c1-400)"; }
n --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --lda 2216 --ldb 456 --ldc 2208
n --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1
n --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=-0.5 --beta 1
n --ta --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=-0.5 --beta 1
n --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=0.5 --beta 1
n --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=-1 --beta 1
n --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=-0.5 --beta=-1
n --dtype bf16 --m 1000 --n 1000 --k 1000 --alpha=-0.5 --beta 0.5
n --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --out f32
t end
