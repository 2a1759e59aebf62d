#!/usr/bin/env bash
# (session 50, issue #34) The change of runs s50c–s50d as landed: the cooperative entries' stream-K tail only for a last
# wave at most a quarter full (as the promoted FP8 ones), and a data-parallel grid on the clusters its waves need
# (`HgemmPlan::balance`). Checks of the new host (the balanced grids and the tail's edges; `host run --only hgemm` at a
# new seed; memcheck on a balanced 16-bit and a balanced FP8 grid), then main's host (`host-old`) against the new one on
# the same modules, alternated, ROUNDS rounds: the rows whose grid changed (16-bit 4096³ / 8192³, fused, FP8 fast
# accumulation, block scales, 4096×2112×7168) and one that did not (FP8 per-tensor 4096×7168×16384: the tail).
# Package $D: host.xz (new), host-old.xz (main's), hgemm.ptx.xz, hgemm_fp8.ptx.xz.
#   D=.gpu/s50e NAME=s50e bash tools/gpu/bench-gemm/balanced-grid-final.sh
BUDGET=${BUDGET:-450}; . tools/gpu/lib.sh ${NAME:-s50e}
x $D/host-old.xz /tmp/hold && chmod +x /tmp/hold
ROUNDS=${ROUNDS:-2}; SEED=${SEED:-5011}
c gemm --dtype bf16 --ta --m 8192 --n 8192 --k 8192
c gemm --dtype f16 --m 6144 --n 6144 --k 1000 --beta 1
c gemm --dtype bf16 --ta --m 5120 --n 5120 --k 512
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 1024 --bias m --act gelu
c gemm --dtype e4m3 --m 4096 --n 2112 --k 512 --fast-accum
c gemm --dtype e4m3 --m 4096 --n 4096 --k 512 --block-scales
timeout 200 $H run --only hgemm --seed $SEED > $R/run.txt 2>&1 < /dev/null
t "host run --only hgemm --seed $SEED rc=$? $(grep -cE 'PASS' $R/run.txt) PASS $(grep -cE 'FAIL' $R/run.txt) FAIL"
for a in "gemm --dtype bf16 --ta --m 4096 --n 4096 --k 512" "gemm --dtype e4m3 --m 4096 --n 4096 --k 512 --block-scales"; do
  timeout 120 compute-sanitizer --tool memcheck --print-limit 5 $H $a --check > $R/san.txt 2>&1 < /dev/null
  t "S memcheck rc=$? | $a | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
go() { local tag=$1 h=$2; env timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP|rror' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in $(seq $ROUNDS); do
  for GARGS in "--ta --dtype bf16 --m 8192" "--tb --dtype f16 --m 8192" "--ta --dtype bf16 --m 4096" \
    "--ta --dtype bf16 --m 8192 --bias m --act gelu" "--dtype e4m3 --m 8192 --fast-accum" "--dtype e4m3 --m 4096 --fast-accum" \
    "--dtype e4m3 --m 4096 --block-scales" "--dtype e4m3 --m 4096 --n 2112 --k 7168" "--dtype e4m3 --m 4096 --n 7168 --k 16384"; do
    [ $(left) -gt 25 ] || break 2
    go "main$i" /tmp/hold; go "new$i" $H
  done
done
t end
