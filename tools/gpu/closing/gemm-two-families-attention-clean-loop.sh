#!/usr/bin/env bash
# (session 30) The closing call on the final tree (every module embedded: the GEMM in two families, attention with
# SharedBase on the 128 × 128 tiles and the clean key loop): `host run --only attention` and `--only hgemm` at unseen
# seeds, the FP8 sweep (`host gemm --dtype e4m3`), the sanitizers on the changed attention tiles, python/bench_attention.py's
# table (two rounds), and `host gemm --bench` at 4096³ bf16 TN and e4m3 (the split modules' launches, ratios to cuBLAS).
#          D=.gpu/s30g bash tools/gpu/closing/gemm-two-families-attention-clean-loop.sh       Package: $D/host.xz, $D/native.xz.
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s30g}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full run --only attention --seed 3010 > $R/ra.txt 2>&1; t "C host run --only attention --seed 3010 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep FAIL $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
full run --only hgemm --seed 3011 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 3011 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep FAIL $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C host gemm --dtype e4m3 (the FP8 sweep) rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
grep FAIL $R/f8.txt | head -3 | cut -c1-200 | tee -a $S
for s in "--seqlen-q 700 --seqlen-k 900 --head-dim 64 --causal top-left" "--seqlen-q 1000 --seqlen-k 1300 --head-dim 128" \
  "--seqlen-q 900 --seqlen-k 700 --head-dim 128 --causal bottom-right --dtype f16"; do
  for tool in memcheck racecheck synccheck; do
    timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 $s --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for i in 1 2; do [ $(left) -gt 80 ] || break
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 > $R/b-$i.txt 2>&1)
  t "bench_attention.py round $i rc=$?"; grep -E '^ +[0-9]' $R/b-$i.txt | tee -a $S; done
for s in "--ta --dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --block-scales --m 4096 --n 4096 --k 4096"; do
  [ $(left) -gt 30 ] || break; GARGS="$s"; g final X=1; done
t end
