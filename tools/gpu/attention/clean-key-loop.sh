#!/usr/bin/env bash
# (session 30, lead) Attention's key loop in two loops — the blocks the mask leaves alone without the mask's code, then the
# ones it touches (FlashAttention-3's unmasked loop; `Masks::clean_blocks`): the new attention module for the checks
# (--check on GQA / MQA / causal both ways / odd lengths / f16 / every head dim, host run --only attention at an unseen
# seed, memcheck / racecheck / synccheck), then main / new attention modules alternated through CUTE_RS_PTX_DIR:
# `attention --bench` at 16k tokens (TFLOP/s beside the bench's cuBLAS reference), three rounds.
# Package: $D/host.xz, $D/{main,new}/attention.ptx.xz (whole modules), stub.ptx + stub-families.txt.
# Then the GEMM families split in two modules (this session): --check on bf16 / f16 / e4m3 / block / e5m2 fast, `host run
# --only hgemm`.   D=.gpu/s30b NAME=s30b bash tools/gpu/attention/clean-key-loop.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s30b}
for v in main new; do mkdir -p /tmp/pa$v; cp $P/*.ptx /tmp/pa$v/; x $D/$v/attention.ptx.xz /tmp/pa$v/attention.ptx; done
export CUTE_RS_PTX_DIR=/tmp/panew  # the new attention module, every entry
full() { timeout 200 $H "$@" < /dev/null; }
c() { full attention "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
c --batch 1 --heads 2 --seqlen-q 3000 --head-dim 256 --causal bottom-right
c --batch 1 --heads 2 --seqlen-q 3001 --seqlen-k 2000 --head-dim 128 --causal bottom-right
c --batch 2 --heads 2 --seqlen-q 1000 --head-dim 64 --dtype f16
c --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 8200 --head-dim 128 --heads-kv 1
c --batch 8 --heads 32 --seqlen-q 2048 --head-dim 64 --causal top-left
c --batch 2 --heads 4 --seqlen-q 4096 --head-dim 128 --causal top-left
c --batch 3 --heads 2 --seqlen-q 1 --seqlen-k 1 --head-dim 128
c --batch 1 --heads 1 --seqlen-q 70 --seqlen-k 5 --head-dim 256 --causal top-left
c --batch 1 --heads 2 --seqlen-q 900 --seqlen-k 1400 --head-dim 64 --causal top-left
full run --only attention --seed 3001 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3001 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 128 --causal bottom-right --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pa$v timeout 150 $H "$@" < /dev/null; }
a() { local v=$1; shift; run $v attention "$@" --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128" "--batch 4 --heads 16 --seqlen-q 4096 --head-dim 128" \
  "--batch 2 --heads 16 --seqlen-q 8192 --head-dim 128" "--batch 4 --heads 16 --seqlen-q 4096 --head-dim 128 --causal top-left" \
  "--batch 16 --heads 16 --seqlen-q 1024 --head-dim 128 --causal top-left" "--batch 32 --heads 16 --seqlen-q 512 --head-dim 128" \
  "--batch 16 --heads 32 --seqlen-q 1024 --head-dim 64" "--batch 8 --heads 8 --seqlen-q 2048 --head-dim 256"; do
  for v in main new; do [ $(left) -gt 20 ] || break; a $v $s; done; done; done
# the GEMM families split in two modules (hgemm: 16-bit, hgemm_fp8: FP8; the host's embedded ones): checks and the sweep
export CUTE_RS_PTX_DIR=/tmp/panew
for s in "--ta --dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype f16 --m 1000 --n 1030 --k 1024" "--dtype e4m3 --m 4096 --n 4096 --k 4096" \
  "--dtype e4m3 --block-scales --m 2048 --n 1700 --k 1024" "--dtype e5m2 --fast-accum --m 128 --n 7168 --k 2048" "--ta --dtype bf16 --m 128 --n 7168 --k 8192"; do
  [ $(left) -gt 60 ] || break; full gemm $s --check > $R/gc.txt 2>&1; t "C rc=$? | gemm $s | $(grep -Eo 'PASS|FAIL' $R/gc.txt | head -1) $(grep -iE 'error' $R/gc.txt | head -1 | cut -c1-100)"; done
[ $(left) -gt 90 ] && { timeout $(( $(left) - 10 )) $H run --only hgemm --seed 3002 > $R/rh.txt 2>&1 < /dev/null; t "C host run --only hgemm --seed 3002 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"; grep -E FAIL $R/rh.txt | head -3 | cut -c1-200 | tee -a $S; }
t end
