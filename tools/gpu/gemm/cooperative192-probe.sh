#!/usr/bin/env bash
# (session 67, measuring; issue #34) The cooperative 16-bit kernel on the per-tensor FP8 entry's 128×192 tiles
# (`hgemm_{bf16_tn,bf16_nn,f16_tn}_n192`, `CUTE_RS_HGEMM_SCHEDULE=cooperative192`, built with
# `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong`): `--check`s (edges, beta 1, "NN", f16, split-K at small M), memcheck and
# racecheck; then ROUNDS of the rule's launch (cooperative 128×256 or the 128×128 ping-pong) against 128×192 where N is
# a multiple of 192 (2112, 3072) and at 4096³ / 8192³ (its cost a tile where both fill the machine).
# Package $D: host.xz (main's release host with the measuring entries).
#   BUDGET=540 D=.gpu/s67c NAME=s67c bash tools/gpu/gemm/cooperative192-probe.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s67c}
export CUTE_RS_HGEMM_SCHEDULE=cooperative192
timeout 200 $H gemm --dtype bf16 --ta --m 1024 --n 1152 --k 1024 --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1) $(grep -Eo 'hgemm [0-9x]+ tma[^|]*' $R/w.txt | head -1) $(grep -i error $R/w.txt | head -2)"
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 1000
c gemm --dtype bf16 --ta --m 3000 --n 2112 --k 520 --beta 1 --alpha 0.5
c gemm --dtype bf16 --m 3072 --n 3072 --k 3072
c gemm --dtype bf16 --m 999 --n 577 --k 1000 --beta 1
c gemm --dtype f16 --ta --m 4096 --n 2112 --k 4096
c gemm --dtype bf16 --ta --m 128 --n 2112 --k 8192
c gemm --dtype bf16 --ta --m 4096 --n 2112 --k 4096 --out f32
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --ta --m 300 --n 1030 --k 1000 --beta 1 \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
unset CUTE_RS_HGEMM_SCHEDULE
for i in $(seq ${ROUNDS:-2}); do
  for s in "--ta --m 4096 --n 2112 --k 7168" "--ta --m 6144 --n 2112 --k 4096" "--ta --m 8192 --n 2112 --k 4096" \
    "--ta --m 3072 --n 3072 --k 3072" "--ta --m 2048 --n 3072 --k 4096" "--ta --m 2048 --n 7168 --k 4096" \
    "--m 3072 --n 3072 --k 3072" "--ta --m 4096 --n 4096 --k 4096" "--ta --m 8192 --n 8192 --k 8192"; do
    [ $(left) -gt 40 ] || break; GARGS="--dtype bf16 $s"; g rule-$i; g n192-$i CUTE_RS_HGEMM_SCHEDULE=cooperative192
  done
  [ $(left) -gt 40 ] || break
  GARGS="--dtype f16 --ta --m 6144 --n 2112 --k 4096"; g rule-$i; g n192-$i CUTE_RS_HGEMM_SCHEDULE=cooperative192
done
t end
