#!/usr/bin/env bash
# (session 68; issue #34) The fused 16-bit entries on 128×192 tiles (`hgemm_fused_bf16_tn_<act>_n192`): fused
# launches take `HgemmSchedule::for_problem` as plain ones. `--check`s of the rule's fused launches (each
# activation, both bias vectors, beta, alpha, split-K forced; run s68c asked for an f32 D, which the fused launch
# refuses), memcheck and racecheck, `host run --only hgemm`; then fused bias M + GELU against cuBLASLt's `GELU_BIAS`: the rule (128×192) against the launch before it
# (the ping-pong or 128×256, forced), and the plain launch of the same shape, two rounds (each `--bench`: sustained
# and burst).
# Package $D: host.xz (main's release host, default kernel build).
#   BUDGET=420 D=.gpu/s68c NAME=s68c bash tools/gpu/gemm/fused-n192.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s68c}
timeout 300 $H gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072 --bias m --act gelu --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/w.txt | head -2 | tr '\n' ' ') | $(grep -E '^kernel' $R/w.txt)"
c gemm --dtype bf16 --ta --m 6144 --n 2112 --k 4096 --bias n --act relu --beta 1
c gemm --dtype bf16 --ta --m 999 --n 2112 --k 1000 --bias m --act gelu-erf --beta 0.5
c gemm --dtype bf16 --ta --m 4096 --n 2112 --k 7168 --bias n --act silu --alpha 0.5
c gemm --dtype bf16 --ta --m 3000 --n 3100 --k 3000 --bias n
F=CUTE_RS_HGEMM_SCHEDULE=cooperative192
for a in "--m 130 --n 2112 --k 4096 --bias m --act gelu" "--m 1000 --n 1030 --k 1000 --bias n --act gelu --beta 1 --alpha 0.5"; do
  env $F timeout 120 $H gemm --dtype bf16 --ta $a --check > $R/c.txt 2>&1 < /dev/null
  t "C forced rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | cut -c1-120 | tr '\n' ' ')"
done
for tool in memcheck racecheck; do
  env $F timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --ta --m 300 --n 1030 --k 1000 \
    --bias n --act gelu --beta 1 --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null; t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
for i in 1 2; do
  for a in "--m 3072 --n 3072 --k 3072:pingpong128" "--m 6144 --n 2112 --k 4096:cooperative" "--m 4096 --n 2112 --k 7168:pingpong128"; do
    [ $(left) -gt 25 ] || break 2
    GARGS="--dtype bf16 --ta ${a%%:*} --bias m --act gelu"; g rule$i; g before$i CUTE_RS_HGEMM_SCHEDULE=${a##*:}
    [ $i = 1 ] && { GARGS="--dtype bf16 --ta ${a%%:*}"; g plain; }
  done
done
t end
