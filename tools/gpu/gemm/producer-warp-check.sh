#!/usr/bin/env bash
# (session 21, lead) The producer warp, checked and measured again: the branch's host with its embedded modules (no PTX
# folder: every entry) for `host run --only hgemm|attention` at an unseen seed, the FP8 sweep, attention --check and the
# sanitizers; then main / new cut modules alternated (as producer-warp-ab.sh) on the rows call 1 left unclear (d64 attention, FP8
# 8192^3 and 4096^3) and the fused GEMM.        D=.gpu/s21a bash tools/gpu/gemm/producer-warp-check.sh   (package: producer-warp-pack.sh)
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh s21b
for v in main new; do mkdir -p /tmp/p21$v; cp $P/*.ptx /tmp/p21$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p21$v/$f.ptx; done; done
unset CUTE_RS_PTX_DIR
full() { timeout 200 $H "$@" < /dev/null; }
full run --only hgemm --seed 2121 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 2121 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep -E "FAIL" $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
full run --only attention --seed 2121 > $R/ra.txt 2>&1; t "C host run --only attention --seed 2121 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
grep FAIL $R/f8.txt | head -3 | cut -c1-250 | tee -a $S
c() { full "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo '(gemm|attention)_[a-z0-9_]*' $R/c.txt | head -1)"; }
c attention --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
c attention --batch 1 --heads 2 --seqlen-q 3000 --head-dim 256 --causal bottom-right
c attention --batch 2 --heads 2 --seqlen-q 1000 --head-dim 64 --dtype f16
c attention --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 8200 --head-dim 128 --heads-kv 1
san() { local tool=$1; shift; timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san.txt 2>&1 < /dev/null
  t "S $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; }
for tool in memcheck racecheck synccheck; do
  san $tool gemm --ta --dtype bf16 --m 520 --n 1000 --k 1040 --check
  san $tool gemm --dtype e4m3 --m 128 --n 2048 --k 8192 --check
  san $tool gemm --dtype e4m3 --m 300 --n 400 --k 528 --block-scales --check
  san $tool attention --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 128 --check; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p21$v timeout 150 $H "$@" < /dev/null; }
g() { local v=$1; shift; run $v "$@" --bench > $R/g.txt 2>&1
  t "B $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3 4; do for s in "attention --batch 8 --heads 32 --seqlen-q 2048 --head-dim 64" "gemm --dtype e4m3 --m 8192" \
  "attention --batch 16 --heads 32 --seqlen-q 1024 --head-dim 64" "gemm --dtype e4m3 --m 4096" \
  "gemm --ta --dtype bf16 --m 4096 --bias m --act gelu" "attention --batch 4 --heads 16 --seqlen-q 4096 --head-dim 128" \
  "gemm --dtype e4m3 --m 4096 --n 2112 --k 7168"; do
  [ $(left) -gt 20 ] || break; for v in main new; do g $v $s; done; done; done
t end
