#!/usr/bin/env bash
# (session 51, issue #34) 8192³ in every majority and element on main's balanced grid (session 50 measured bf16 TN / NN
# and f16 NT there; the bench table holds NN alone), burst and sustained, ROUNDS rounds; then 4096³ the same while the
# budget lasts. Package $D: main's host, hgemm.ptx cut to the 8 cooperative entries (a short JIT), stubs.
#   D=.gpu/s51f NAME=s51f BUDGET=250 bash tools/gpu/bench-gemm/majorities-8192.sh
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s51f}
c gemm --dtype bf16 --ta --m 2048 --n 2048 --k 1024
for m in 8192 4096; do for i in $(seq ${ROUNDS:-2}); do for dt in bf16 f16; do for tr in "--ta" "" "--tb" "--ta --tb"; do
  [ $(left) -gt 15 ] || break 4; GARGS="--dtype $dt $tr --m $m"; g r$i; done; done; done; done
t end
