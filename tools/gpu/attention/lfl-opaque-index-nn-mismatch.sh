#!/usr/bin/env bash
# (session 19, lead) Attention like for like against cuDNN (python/bench_attention.py: ours and torch's SDPA with the
# cuDNN backend in one process), main's attention PTX / the session's (ebee72f: opaque_index, the direct O stores from
# two row addresses) alternated through CUTE_RS_PTX_DIR, two rounds; then the hgemm sweep's seed-1931 mismatch
# (2208x219x440 NN bf16, alpha -0.5, beta 1, padded ld, direct epilogue) under each schedule, and its neighbours.
# Package: .gpu/s19d = .gpu/s19c (host.xz, main/ and new/ modules) + native.xz (this tree's python extension) +
# nn-hgemm.ptx.xz (the hgemm module cut to hgemm_{bf16,f16}_nn{,_pingpong128} and hgemm_bf16_tn).
#      D=.gpu/s19d bash tools/gpu/attention/lfl-opaque-index-nn-mismatch.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh s19d
mkdir -p /tmp/py19/cute_rs && cp python/cute_rs/*.py /tmp/py19/cute_rs/ && cp python/bench_attention.py /tmp/py19/
x $D/native.xz /tmp/py19/cute_rs/_native.abi3.so
for v in main new; do mkdir -p /tmp/p19$v; cp $P/*.ptx /tmp/p19$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p19$v/$f.ptx; done; done
# the sweep's problem on a module cut to the NN entries (the full embedded module's JIT takes longer than a run's limit)
mkdir -p /tmp/p19nn; cp $P/*.ptx /tmp/p19nn/; x $D/nn-hgemm.ptx.xz /tmp/p19nn/hgemm.ptx
for v in main new; do CUTE_RS_PTX_DIR=/tmp/p19$v timeout 90 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 256 --check > $R/w.txt 2>&1; t "W attention $v rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
n() { CUTE_RS_PTX_DIR=/tmp/p19nn timeout 100 env "$@" > $R/n.txt 2>&1; t "N rc=$? | $(echo "$@" | sed 's|/tmp/h[a-z0-9]*|host|') | $(grep -E '^hgemm ' $R/n.txt | tr -s ' ' | cut -c1-170)"; }
G="--dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --lda 2216 --ldb 456 --ldc 2208 --check"
n X=0 $H gemm $G
n CUTE_RS_HGEMM_SCHEDULE=cooperative $H gemm $G
n CUTE_RS_HGEMM_SCHEDULE=pingpong128 $H gemm $G
n X=0 $H gemm --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --check
n X=0 $H gemm --dtype bf16 --m 2208 --n 219 --k 440 --alpha 1 --beta 1 --lda 2216 --ldb 456 --ldc 2208 --check
n X=0 $H gemm --dtype bf16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 0 --lda 2216 --ldb 456 --ldc 2208 --check
n X=0 $H gemm --dtype f16 --m 2208 --n 219 --k 440 --alpha=-0.5 --beta 1 --lda 2216 --ldb 456 --ldc 2208 --check
ab() { local v=$1 i=$2; b=$(( $(left) - 15 )); [ $b -gt 20 ] || { t "A SKIP $v $i (time)"; return 1; }; [ $b -gt 75 ] && b=75
  (cd /tmp/py19 && CUTE_RS_PTX_DIR=/tmp/p19$v PYTHONPATH=/tmp/py19 timeout $b python3 bench_attention.py --head-dims 64,128,256 \
    --seqlens 1024,2048,8192 --masks none,causal --backends ours,cudnn --rounds 3 > $R/a-$v-$i.txt 2>&1); t "A $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/a-$v-$i.txt | tee -a $S; }
for i in 1 2; do ab new $i && ab main $i; done
t end
