#!/usr/bin/env bash
# (session 43) `host bench gemm --json` at this revision, every row in both timing modes (sustained, burst), after the
# modules' JIT (a second call after closing/host-cli-crate.sh: the JIT cache is the machine's).   D=.gpu/s43a NAME=s43b bash tools/gpu/bench-gemm/json-second-call.sh
BUDGET=${BUDGET:-500}; . tools/gpu/lib.sh ${NAME:-s43b}
unset CUTE_RS_PTX_DIR
warm
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
