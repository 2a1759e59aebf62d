#!/usr/bin/env bash
# Session 41's closing call: main with the typed TMA boxes (the host plans every tensor map from the kernels' box
# types), the FP8 entries without a source and beta·C as one FFMA. Every family's module whole (embedded): checks of
# each box kind (operands of both majorities, clusters of 2 multicasting, C's 16-bit and f32 boxes, FP8 block scales'
# 128- and 64-row boxes, attention's token boxes, the TMA copies), then `host run` at an unseen seed (every family and
# the FP8 sweep), then memcheck on two of them.
#   D=.gpu/s41d NAME=s41d bash tools/gpu/closing/typed-tma-boxes.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s41d}
unset CUTE_RS_PTX_DIR
timeout 300 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null &
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 300 $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 128 --check > $R/w2.txt 2>&1 < /dev/null &
timeout 300 $H run --only tma > $R/w3.txt 2>&1 < /dev/null
t "tma copies rc=$? $(grep -cE 'PASS' $R/w3.txt) PASS, $(grep -cE 'FAIL' $R/w3.txt) FAIL"
wait; t "warm $(cat $R/w0.txt $R/w1.txt $R/w2.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
c() { timeout 120 $H "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c gemm --dtype bf16 --m 2048 --n 1032 --k 1024
c gemm --dtype bf16 --m 2048 --n 1032 --k 1024 --ta
c gemm --dtype bf16 --m 1032 --n 2048 --k 1024 --tb
c gemm --dtype f16 --m 1032 --n 2048 --k 512 --ta --tb --beta -1
c gemm --dtype f16 --m 4096 --n 4096 --k 1024 --ta --beta 1
c gemm --dtype bf16 --m 4096 --n 4096 --k 1024 --tb
c gemm --dtype bf16 --m 2048 --n 2048 --k 256 --ta --tb
c gemm --dtype f16 --m 128 --n 7168 --k 2048 --beta 2
c gemm --dtype bf16 --m 1000 --n 1000 --k 512 --ta --out f32
c gemm --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --bias m --act gelu
c gemm --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c gemm --dtype e4m3 --m 126 --n 1030 --k 1664 --block-scales
c gemm --dtype e4m3 --m 2048 --n 2112 --k 1024
c gemm --dtype e4m3 --m 128 --n 7168 --k 2048
c gemm --dtype e5m2 --m 1030 --n 1024 --k 1024 --fast-accum
c attention --batch 2 --heads 4 --seqlen-q 1000 --head-dim 128 --causal bottom-right
c attention --batch 1 --heads 8 --heads-kv 2 --seqlen-q 512 --seqlen-k 1500 --head-dim 64
c attention --batch 1 --heads 2 --seqlen-q 700 --head-dim 256
timeout 260 $H run --seed 4111 > $R/run.txt 2>&1 < /dev/null
t "host run --seed 4111 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ') | $(grep -cE 'PASS' $R/run.txt) PASS $(grep -cE 'FAIL' $R/run.txt) FAIL"
grep -E 'FAIL' $R/run.txt | head -5 | tee -a $S
for a in "gemm --dtype bf16 --m 1032 --n 1024 --k 512 --ta --beta 1 --check" "gemm --dtype e4m3 --m 126 --n 1030 --k 1024 --block-scales --check"; do
  [ $(left) -gt 40 ] || break
  timeout $(( $(left) - 20 )) compute-sanitizer --tool memcheck --print-limit 5 $H $a > $R/san.txt 2>&1 < /dev/null
  t "S memcheck rc=$? | $a | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
t end
