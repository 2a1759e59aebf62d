#!/usr/bin/env bash
# Session 42's closing call: main with C's tile loaded by TMA for beta ≠ 0 (the epilogue's barriers beside the mainloop's),
# every family's module whole (embedded): the s41 checks of each box kind, with and without beta, then `host run` at an
# unseen seed, memcheck on two, and racecheck restricted to our kernels (cuBLAS's reference kernels report hazards of
# their own, run s42b): compute-sanitizer's kernel filter read from its --help first.
#   D=.gpu/s42d NAME=s42d bash tools/gpu/closing/beta-c-by-tma.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s42d}
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
c gemm --dtype bf16 --m 4096 --n 8192 --k 512 --beta 1
c gemm --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --beta 0.5 --bias n --act relu
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
timeout 260 $H run --seed 4242 > $R/run.txt 2>&1 < /dev/null
t "host run --seed 4242 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ') | $(grep -cE 'PASS' $R/run.txt) PASS $(grep -cE 'FAIL' $R/run.txt) FAIL"
grep -E 'FAIL' $R/run.txt | head -5 | tee -a $S
for a in "gemm --dtype bf16 --m 1032 --n 1024 --k 512 --ta --beta 1 --check" "gemm --dtype e4m3 --m 126 --n 1030 --k 1024 --block-scales --check"; do
  [ $(left) -gt 40 ] || break
  timeout $(( $(left) - 20 )) compute-sanitizer --tool memcheck --print-limit 5 $H $a > $R/san.txt 2>&1 < /dev/null
  t "S memcheck rc=$? | $a | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
# `beta ≠ 0` on the 128 × 128 ping-pong schedule (one warpgroup's epilogue under the other's `wgmma`s) against the
# cooperative default, large K (the host picks ping-pong for K ≤ 512 only)
for i in 1 2; do [ $(left) -gt 120 ] || break
  for a in "bf16 4096 4096 4096 --beta 1" "f16 4096 4096 4096 --ta --beta 1" "bf16 8192 8192 8192 --beta 1" "bf16 4096 4096 4096"; do
    set -- $a; GARGS="--dtype $1 --m $2 --n $3 --k $4 ${*:5}"; g coop; g pp128 CUTE_RS_HGEMM_SCHEDULE=pingpong128; done
done
compute-sanitizer --help 2>&1 | grep -iE -A3 'kernel-name|kernel-regex|--filter' | head -30 > $R/sanhelp.txt; cp $R/sanhelp.txt $OUT/
t "sanitizer kernel filter: $(grep -Eo -- '--kernel-name[-a-z]*|--kernel-regex[-a-z]*' $R/sanhelp.txt | sort -u | tr '\n' ' ')"
for x in "--kernel-name-exclude kns=nvjet" "--kernel-regex-exclude kns=nvjet"; do
  timeout 120 compute-sanitizer --tool racecheck $x --print-limit 5 $H gemm --dtype f16 --m 1032 --n 2048 --k 1024 --beta 1 --check > $R/san.txt 2>&1 < /dev/null
  t "S racecheck rc=$? $x | $(grep -E 'RACECHECK SUMMARY|rror' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
t end
