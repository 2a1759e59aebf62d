#!/usr/bin/env bash
# (session 21, lead) The producer warp: the mainloop's and attention's producers run as a whole warp with one elected
# lane issuing (CUTLASS's producer warp), so ptxas keeps the TMA operands in uniform registers (main: one thread, every
# UTMALDG in a loop over its operands' distinct values). main / new PTX alternated under one host (the branch's), cut
# modules through CUTE_RS_PTX_DIR: a check per kernel on the new PTX first, then bf16 and FP8 GEMMs and attention,
# `--bench`, rounds while the budget lasts.        D=.gpu/s21a bash tools/gpu/gemm/producer-warp-ab.sh
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh s21a
for v in main new; do mkdir -p /tmp/p21$v; cp $P/*.ptx /tmp/p21$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p21$v/$f.ptx; done; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p21$v timeout 150 $H "$@" < /dev/null; }
c() { run new "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo '(gemm|attention)_[a-z0-9_]*' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c gemm --ta --dtype bf16 --m 1000 --n 1030 --k 520
c gemm --dtype bf16 --m 2000 --n 1000 --k 2056
c gemm --dtype e4m3 --m 300 --n 200 --k 528
c gemm --dtype e4m3 --m 128 --n 2048 --k 8192
c gemm --dtype e4m3 --m 1000 --n 1000 --k 1024 --block-scales
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096
c attention --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
c attention --batch 1 --heads 2 --seqlen-q 3000 --head-dim 256 --causal bottom-right
c attention --batch 2 --heads 2 --seqlen-q 1000 --head-dim 64
g() { local v=$1; shift; run $v "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "gemm --ta --dtype bf16 --m 4096" "gemm --dtype e4m3 --m 4096" "gemm --dtype e4m3 --m 8192" \
  "attention --batch 8 --heads 16 --seqlen-q 2048 --head-dim 128" "gemm --ta --dtype bf16 --m 8192" \
  "gemm --dtype e4m3 --m 4096 --n 7168 --k 16384" "gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales" \
  "attention --batch 8 --heads 32 --seqlen-q 2048 --head-dim 64" "attention --batch 2 --heads 16 --seqlen-q 8192 --head-dim 128" \
  "gemm --dtype bf16 --m 4096" "gemm --dtype e4m3 --m 128 --n 7168 --k 16384" "attention --batch 8 --heads 8 --seqlen-q 2048 --head-dim 256"; do
  [ $(left) -gt 25 ] || break; for v in main new; do g $v $s; done; done; done
t end
