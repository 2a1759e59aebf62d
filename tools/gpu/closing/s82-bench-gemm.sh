#!/usr/bin/env bash
# (session 82; issues #34, #37) main's release host and its cubins: the warm-up checks, `host gemm --dtype e4m3
# --bench` (the FP8 bench through `gemm_fp8::bench` with no progress, as session 81's f50fdf6 left it) and the whole
# `host bench gemm --csv` (every family row sustained and burst beside cuBLAS / cuBLASLt; the FP8 rows one
# `gemm_fp8::bench` call a timing list, each row on stderr as measured). Package (.gpu/s82):
#   cargo xtask build-kernels --arch sm_90a && cargo build --release -p host-cli && mkdir -p .gpu/s82 &&
#   xz -T2 -c target/release/host > .gpu/s82/host.xz && bash tools/gpu/pack-cubins.sh .gpu/s82
#   BUDGET=560 D=.gpu/s82 NAME=s82a bash tools/gpu/closing/s82-bench-gemm.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s82a}
warm
timeout 90 $H gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --bench > $R/fp8bench.txt 2>&1 < /dev/null
t "B gemm e4m3 4096³ --bench rc=$? | $(grep -E 'TFLOP|cuBLAS' $R/fp8bench.txt | tr -s ' ' | cut -c1-150 | tr '\n' ' ')"
timeout $(( $(left) - 10 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
# a run cut short: the rows it measured, from its stderr (`[gemm] row <CSV line>`)
[ -s $R/bench.csv ] || sed -n 's/^\[gemm\] row //p' $R/bench.err > $R/bench.csv
cp $R/bench.csv $OUT/; cut -d, -f1-8 $R/bench.csv | tee -a $S
t end
