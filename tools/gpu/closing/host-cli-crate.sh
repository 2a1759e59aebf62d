#!/usr/bin/env bash
# Session 43's closing call: the `host` binary of the new host-cli crate (the checks, references, bounds and CLI out of
# the host library; layout_types' root paths; CopyInstruction), every family's module whole (embedded; the sm_90a PTX
# byte-identical to main's): warm-up checks, the copy checks (CopyInstruction), one `--check` per family and box kind,
# `host run` at an unseen seed, memcheck on two.
#   D=.gpu/s43a NAME=s43a bash tools/gpu/closing/host-cli-crate.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s43a}
unset CUTE_RS_PTX_DIR
warm
timeout 120 $H copy check > $R/copy.txt 2>&1 < /dev/null
t "host copy check rc=$? $(grep -cE 'PASS' $R/copy.txt) PASS, $(grep -cE 'FAIL' $R/copy.txt) FAIL"
timeout 60 $H copy misaligned > $R/mis.txt 2>&1 < /dev/null; t "host copy misaligned rc=$? $(tail -2 $R/mis.txt | tr '\n' ' ' | cut -c1-200)"
c gemm --dtype bf16 --m 2048 --n 1032 --k 1024 --ta
c gemm --dtype f16 --m 1032 --n 2048 --k 512 --ta --tb --beta -1
c gemm --dtype bf16 --m 4096 --n 8192 --k 512 --beta 1
c gemm --dtype bf16 --m 2048 --n 2048 --k 1024 --ta --bias m --act gelu-erf
c gemm --dtype f16 --m 128 --n 7168 --k 2048 --beta 2
c gemm --dtype bf16 --m 1000 --n 1000 --k 512 --ta --out f32
c gemm --m 1000 --n 777 --k 333 --ta
c gemm --dtype f16 --m 1000 --n 520 --k 256 --kernel sm80
c gemm --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c gemm --dtype e4m3 --m 2048 --n 2112 --k 1024 --bias n --act silu --row-scales
c gemm --dtype e5m2 --m 1030 --n 1024 --k 1024 --fast-accum
c attention --batch 2 --heads 4 --seqlen-q 1000 --head-dim 128 --causal bottom-right
c attention --batch 1 --heads 8 --heads-kv 2 --seqlen-q 512 --seqlen-k 1500 --head-dim 64
c attention --batch 1 --heads 2 --seqlen-q 700 --head-dim 256
timeout 60 $H gemm --dtype bf16 --m 64 --alpha inf --check > $R/u.txt 2>&1 < /dev/null; t "usage: --alpha inf rc=$? $(head -1 $R/u.txt | cut -c1-150)"
timeout 260 $H run --seed 4343 > $R/run.txt 2>&1 < /dev/null
t "host run --seed 4343 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ') | $(grep -cE 'PASS' $R/run.txt) PASS $(grep -cE 'FAIL' $R/run.txt) FAIL"
grep -E 'FAIL' $R/run.txt | head -5 | tee -a $S
for a in "gemm --dtype bf16 --m 1032 --n 1024 --k 512 --ta --beta 1 --check" "copy check"; do
  [ $(left) -gt 40 ] || break
  timeout $(( $(left) - 20 )) compute-sanitizer --tool memcheck --print-limit 5 $H $a > $R/san.txt 2>&1 < /dev/null
  t "S memcheck rc=$? | $a | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
t end
