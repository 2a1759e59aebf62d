#!/usr/bin/env bash
# (session 69; issue #37) The per-tensor rule with 128 × 160 (`Fp8PromotedTile::for_problem` takes `_n160tma` where its
# estimate is 0.01 above the others'): the rule's launch where it takes it (`--check` 1024×7168×1024, the kernel
# named), one round of `--bench` at 4096×7168×16384 against cuBLASLt, then the FP8 sweep (its random problems, some on
# the new tile) while the budget lasts.
# Package $D: host.xz (the branch's release host), hgemm_fp8.ptx.xz (its whole FP8 module: the sweep takes every entry),
# hgemm.ptx.xz (`hgemm_bf16_tn` alone).
#   BUDGET=150 D=.gpu/s69f NAME=s69f bash tools/gpu/fp8/per-tensor-n160-rule.sh
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s69f}
timeout 90 $H gemm --dtype e4m3 --m 1024 --n 7168 --k 1024 --check > $R/c.txt 2>&1 < /dev/null
t "C rc=$? rule 1024x7168x1024 | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1) $(grep -iE 'n160|kernel' $R/c.txt | head -2 | tr -s ' ' | cut -c1-120 | tr '\n' ' ')"
GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; g rule
timeout $(( $(left) - 5 )) $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1) $(grep -c n160 $R/sweep.txt) lines naming n160"
t end
