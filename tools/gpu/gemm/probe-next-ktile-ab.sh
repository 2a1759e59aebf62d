#!/usr/bin/env bash
# (session 48, issue #34; prepared, not yet run) Since CooperativeAccumulation waits for every k-tile's `wgmma`s
# (`wait_group 0`), the consumers' instructions between one k-tile's wait and the next one's issue are on the tensor
# core's critical path (both warpgroups of a tile reach it together). The SASS of main's `hgemm_bf16_tn` has ~30 there
# (the stage bookkeeping, the index's `SHFL` with its `BRA.DIV`, the next full barrier's `TRYWAIT`); fast.cu's kernel 12
# has ~10. Two variants of the plain mainloop (`CollectiveMma::mma`), each on its branch, built by
# `cargo xtask build-kernels`:
#   a (branch s48-probe):  after a k-tile's issue, the next stage's index broadcast and its full barrier probed
#                          (`consumer_try_wait`), spent at the next k-tile (`consumer_wait_with`): ~17 instructions
#                          there, no SHFL / TRYWAIT, but the descriptors through `R2UR` (the index a loop phi);
#   b (branch s48-probe2): the probe only (the index broadcast at the k-tile's start as before): the bookkeeping and the
#                          probe under the `wgmma`s, the SHFL still there (~20).
# Checks of both (cut modules: the 16-bit cooperative entries, fused GELU, the bf16 TN ping-pongs, e4m3 fast), then
# main / a / b alternated, ROUNDS rounds, `host gemm --bench` (sustained, burst).
# Package $D: host.xz, {main,a,b}/{hgemm,hgemm_fp8}.ptx.xz (cut), stub.ptx + stub-families.txt.
#   D=.gpu/s49a NAME=s49a bash tools/gpu/gemm/probe-next-ktile-ab.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s49a}
ROUNDS=${ROUNDS:-2}
for v in main a b; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; for f in hgemm hgemm_fp8; do x $D/$v/$f.ptx.xz /tmp/pv$v/$f.ptx; done; done
for v in a b; do
  for a in "--dtype bf16 --ta --m 1000 --n 1030 --k 2056" "--dtype f16 --m 4096 --n 4096 --k 4096 --beta 1" \
      "--dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2" "--dtype bf16 --ta --m 777 --n 1024 --k 384 --beta 1" \
      "--dtype bf16 --ta --m 100 --n 2000 --k 4096" "--dtype bf16 --ta --m 128 --n 7168 --k 8192" \
      "--dtype bf16 --ta --m 1000 --n 1030 --k 2056 --beta 1 --bias m --act gelu" "--dtype e4m3 --fast-accum --m 1000 --n 1030 --k 2048"; do
    CUTE_RS_PTX_DIR=/tmp/pv$v timeout 120 $H gemm $a --check > $R/c.txt 2>&1 < /dev/null
    t "C $v rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"
  done
done
ab "main a b" "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--tb --dtype f16 --m 4096" \
  "--ta --dtype bf16 --m 4096 --beta 1" "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--dtype e4m3 --fast-accum --m 8192"
t end
