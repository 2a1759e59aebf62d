#!/usr/bin/env bash
# (session 61, issue #34) The cooperative consumers staggered: warpgroup 1 starts 400·SKEW cycles after its first
# stage has landed, warpgroup 0 at once (a measuring build, `CUTE_RS_HGEMM_SKEW` at the kernels' build; not kept), so that at
# every tile's end one warpgroup's epilogue runs under the other's last `wgmma`s instead of both leaving the tensor
# cores idle together (the lead is bounded by the stages: a stage is released when both have read it). Variants, the
# hgemm module cut to the four entries measured: main (this host's embedded module; the branch at SKEW 0 is
# byte-identical), s2, s9 (800, 3,600 cycles; s4, 1,600, packaged). Checks on the skewed modules (stream-K tails, edges, beta,
# the fused GELU), then `--bench` (sustained, burst) alternated: bf16 TN 4096³, fused
# bias M + GELU 4096³, bf16 NN 8192³; then (issue #37) the FP8 per-tensor 4096³ on the rule's 128 × 128
# against 128 × 192 forced.
# Package $D: host.xz (main's release host), {main,s2,s4,s9}/hgemm.ptx.xz (cut with tools/gpu/cut_ptx.py).
# Run s61b (H100): level at 8192³, level or 0.5–1 % behind in bursts at 4096³ (plain and fused); not kept (the change,
# 12 lines of `gemm_tma_warpspecialized`, is described in doc/hopper-gemm.md, "The consumers staggered").
#   D=.gpu/s61b NAME=s61b BUDGET=330 bash tools/gpu/gemm/consumer-skew-ab.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s61b}
V=${V:-main s2 s9}
variants "$V" hgemm --ta --dtype bf16 --m 2048 --n 2048 --k 2048
for a in "--dtype bf16 --m 3000 --n 2900 --k 5000 --beta 1" "--dtype f16 --m 2048 --n 2200 --k 1088" "--ta --dtype bf16 --m 2100 --n 2300 --k 2700 --bias m --act gelu"; do
  CUTE_RS_PTX_DIR=/tmp/pvs9 timeout 60 $H gemm $a --check > $R/c.txt 2>&1 < /dev/null
  t "C s9 rc=$? | $a | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; done
ab "$V" "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--dtype bf16 --m 8192"
unset CUTE_RS_PTX_DIR
if [ $(left) -gt 55 ]; then
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"; g fp8-default-1; g fp8-n192-1 CUTE_RS_FP8_PROMOTED=n192tma; fi
t end
