#!/usr/bin/env bash
# (session 68; issue #34) 128×192 for every majority in the default build (`hgemm_{bf16,f16}_{nt,tt}_n192` beside
# "NN"/"TN"; `HgemmSchedule::without_n192` for fused launches only): `--check`s of the rule's "NT"/"TT" launches
# (f16, beta 1, alpha, f32 D, edges), memcheck of a forced f16 "TT" one, `host run --only hgemm`; the rule against
# the launch before it on f16 (one round, each `--bench` sustained and burst); then the whole `host bench gemm --csv`
# (every family row in both timings, cuBLAS / cuBLASLt beside).
# Package $D: host.xz (main's release host, default kernel build).
#   BUDGET=560 D=.gpu/s68b NAME=s68b bash tools/gpu/gemm/n192-every-majority.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s68b}
# both GEMM modules' JIT at once
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 300 $H gemm --dtype f16 --tb --m 3072 --n 3072 --k 3072 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w0.txt $R/w1.txt | grep -Eo 'PASS|FAIL|rror.*' | tr '\n' ' ') | $(grep -E '^kernel' $R/w0.txt)"
c gemm --dtype bf16 --ta --tb --m 6144 --n 2112 --k 4096 --beta 1
c gemm --dtype f16 --ta --tb --m 999 --n 2112 --k 1000 --out f32
c gemm --dtype bf16 --tb --m 4096 --n 2112 --k 7168 --alpha 0.5
c gemm --dtype f16 --tb --m 3000 --n 3100 --k 3000
env CUTE_RS_HGEMM_SCHEDULE=cooperative192 timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype f16 \
  --ta --tb --m 300 --n 1030 --k 1000 --beta 1 --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
timeout 150 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null; t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
for a in "--tb --m 3072 --n 3072 --k 3072:pingpong128" "--ta --tb --m 6144 --n 2112 --k 4096:cooperative"; do
  GARGS="--dtype f16 ${a%%:*}"; g rule; g before CUTE_RS_HGEMM_SCHEDULE=${a##*:}
done
[ $(left) -gt 300 ] || { t "bench SKIP (time)"; exit 0; }
timeout $(( $(left) - 10 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
cp $R/bench.csv $OUT/; cut -d, -f1-6 $R/bench.csv | tee -a $S
t end
