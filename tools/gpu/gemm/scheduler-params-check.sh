#!/usr/bin/env bash
# (session 17, lead) The tile scheduler's parameters built on the host (PersistentTileSchedulerParams / StreamKParams in
# HgemmParams::sched; no run-time division left in the kernels): C --check on the paths the parameters drive (clusters of
# 2 with edges, the stream-K tail of 67 cluster tiles on 66 clusters, a Hilbert table, the 128x128 ping-pong's
# data-parallel order, K = 0, FP8 split-K and the FP8 per-tensor tile), then P host gemm --bench bf16 TN 2048^3 once.
# Package (D, default .gpu/s17a): host.xz (the release host), hgemm.ptx.xz (cut to hgemm_bf16_tn, _pingpong128 and the
# three promoted FP8 entries), stub.ptx + stub-families.txt.      D=.gpu/s17a bash tools/gpu/gemm/scheduler-params-check.sh
BUDGET=${BUDGET:-50}; . tools/gpu/lib.sh s17a
G="$H gemm"
c() { [ $(left) -gt 4 ] || return; timeout $(( $(left) - 2 )) env "$@" > $R/c.txt 2>&1
  t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo '(hgemm|gemm_fp8)_[a-z0-9_]*' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-120)"; }
c $G --ta --dtype bf16 --m 600 --n 520 --k 700 --check
c $G --ta --dtype bf16 --m 17152 --n 256 --k 2112 --check
c CUTE_RS_HGEMM_SWIZZLE=hilbert $G --ta --dtype bf16 --m 1000 --n 1500 --k 1024 --check
c $G --ta --dtype bf16 --m 1000 --n 1000 --k 512 --check
c $G --ta --dtype bf16 --m 300 --n 260 --k 0 --beta 1 --check
c $G --dtype e4m3 --m 128 --n 2048 --k 8192 --check
c $G --dtype e4m3 --m 1000 --n 1030 --k 1024 --check
[ $(left) -gt 8 ] && { timeout $(( $(left) - 2 )) $G --ta --dtype bf16 --m 2048 --bench > $R/b.txt 2>&1
  t "P rc=$? | $(grep -E 'TFLOP' $R/b.txt | sed -E 's/ +/ /g' | cut -c1-140 | tr '\n' '|')"; }
t end
