#!/usr/bin/env bash
# (session 67; issue #34) The 16-bit schedule rule's third case: the 128×128 ping-pong where its estimated use of the
# machine is > 5 % above the cooperative 128×256 tiles' (`HgemmSchedule::pingpong128_fills_better`). Run s67a measured
# 3072³ and 4096×2112×7168 (bf16 TN, forced); this run takes the rule's own launches: `--check`s of flipped shapes
# (each majority, f16, fused, edges), memcheck, `host run --only hgemm`, then ROUNDS of the rule's launch against
# `CUTE_RS_HGEMM_SCHEDULE=cooperative` (main's before it) on the shapes it flips — fills 0.61–0.94 → 0.81–1.00, K 4096
# (LLM-like N: 2112, 3072, 6144, 7168, 11008) — and on three it keeps (4096³, 1152×7168×4096, 2048³) against the ping-pong forced.
# Package $D: host.xz (main's release host with the rule).
#   BUDGET=430 D=.gpu/s67b NAME=s67b bash tools/gpu/gemm/pp128-fill-rule.sh
BUDGET=${BUDGET:-430}; . tools/gpu/lib.sh ${NAME:-s67b}
(timeout 200 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null) &
timeout 200 $H gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072 --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1) $(grep -Eo 'hgemm [0-9x]+ tma[^|]*' $R/w.txt | head -1)"
c gemm --dtype bf16 --m 3000 --n 3100 --k 3000
c gemm --dtype f16 --tb --m 2048 --n 3072 --k 4096
c gemm --dtype bf16 --ta --tb --m 8192 --n 2112 --k 4096
c gemm --dtype bf16 --ta --m 2048 --n 7168 --k 4096 --bias n --act gelu
c gemm --dtype bf16 --ta --m 3072 --n 3072 --k 3072 --bias m --act silu --alpha 0.5 --beta 1
c gemm --dtype f16 --m 1024 --n 6144 --k 4000
timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype bf16 --ta --m 1000 --n 5100 --k 1000 --bias m \
  --act gelu --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null; t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
wait
for i in $(seq ${ROUNDS:-2}); do
  for s in "--m 3072 --n 3072 --k 4096" "--m 2048 --n 3072 --k 4096" "--m 1024 --n 6144 --k 4096" "--m 2048 --n 7168 --k 4096" \
    "--m 5120 --n 7168 --k 4096" "--m 8192 --n 2112 --k 4096" "--m 2048 --n 11008 --k 4096" "--m 6144 --n 2112 --k 4096"; do
    [ $(left) -gt 40 ] || break; GARGS="--dtype bf16 --ta $s"; g rule-$i; g coop-$i CUTE_RS_HGEMM_SCHEDULE=cooperative
  done
  [ $(left) -gt 40 ] || break
  GARGS="--dtype f16 --m 3072 --n 3072 --k 3072"; g rule-$i; g coop-$i CUTE_RS_HGEMM_SCHEDULE=cooperative
  GARGS="--dtype bf16 --ta --m 3072 --n 3072 --k 3072 --bias m --act gelu"; g rule-$i; g coop-$i CUTE_RS_HGEMM_SCHEDULE=cooperative
done
for s in "--m 4096 --n 4096 --k 4096" "--m 1152 --n 7168 --k 4096" "--m 2048 --n 2048 --k 2048"; do
  [ $(left) -gt 25 ] || break; GARGS="--dtype bf16 --ta $s"; g kept; g pp128 CUTE_RS_HGEMM_SCHEDULE=pingpong128
done
t end
