#!/usr/bin/env bash
# helper fp8 (issue #37, round 4), the lead's call of 2026-11-29 06:45: where the promoted FP8 kernel loses.
# (Record of call 2a: the host of commit 2bc9e93; later commits dropped s7 and n192 (fast128 stays).)
# Copied to .gpu/fp8-7/go.sh beside host.xz (branch fp8's release host, built with
# CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants) and ptx/hgemm.ptx (that build's hgemm module cut to the six
# FP8 entries run here: tools/gpu/cut_ptx.py; loaded through CUTE_RS_PTX_DIR so the JIT takes ~20 s, not 50-85).
# Variants (CUTE_RS_FP8_PROMOTED / CUTE_RS_FP8_FAST, doc/fp8-gemm.md "round 4"):
#   default  promoted, 128x128 tiles, one temporary, 5 stages (main's)
#   paired   promoted, paired temporaries (round 3)
#   s7       promoted, 7 stages in the direct epilogue's unused 64 KiB
#   n192     promoted, 128x192 tiles (m64n192 per consumer), 5 stages
#   tile128  fast accumulation on the promoted kernel's 128x128 tiles (what the tile costs without promotion)
#   fast     fast accumulation, 128x256 (main's gemm_fp8_e4m3_tn)
# Run from /work/main's root: run(command="bash .gpu/fp8-7/go.sh", carry=[".gpu/fp8-7"]); ~150 s; logs under $OUT.
set -u
D=${D:-.gpu/fp8-7}
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/fp8-7-host','wb'))"
  chmod +x /tmp/fp8-7-host; H=/tmp/fp8-7-host
fi
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8-7 CUTE_RS_PTX_DIR=$PWD/$D/ptx
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $O/gpu.txt 2>&1
t "start $(cat $O/gpu.txt)"
S="--m 4096 --n 7168 --k 16384"
# run VARIANT ARGS...: one host process with the variant's environment
run() {
  local v=$1; shift
  case $v in
    tile128) CUTE_RS_FP8_FAST=tile128 $H gemm --dtype e4m3 --fast-accum "$@" ;;
    fast) $H gemm --dtype e4m3 --fast-accum "$@" ;;
    *) CUTE_RS_FP8_PROMOTED=$v $H gemm --dtype e4m3 "$@" ;;
  esac
}
export H; export -f run
# the first process JIT-compiles the cut module (6 entries): a long timeout
timeout 120 bash -c "run default --m 512 --n 384 --k 2048 --check" > $O/check-default.txt 2>&1
t "JIT + default check rc=$? $(grep -Eo 'PASS|FAIL' $O/check-default.txt | head -1)"
# checks: K = 2048 (16 k-tiles), K = 528 (5: odd; the paired tail), block scales at K = 528 (n192 at N = 400:
# tiles starting on and between B's 128-column scale blocks)
check() {
  local v=$1 tag=$2; shift 2
  timeout 30 bash -c "run $v $* --check" > $O/check-$tag-$v.txt 2>&1
  echo "check $v $tag rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$tag-$v.txt | head -1)" | tee -a $O/summary.txt
}
for v in s7 n192 tile128; do check $v 512x384x2048 --m 512 --n 384 --k 2048; done
check n192 300x200x528 --m 300 --n 200 --k 528
check n192 block-300x400x528 --m 300 --n 400 --k 528 --block-scales
check s7 block-300x200x528 --m 300 --n 200 --k 528 --block-scales
check paired block-300x200x528 --m 300 --n 200 --k 528 --block-scales
t "checks done"
# bench VARIANT LABEL ARGS...: the TFLOP/s rows (ours vs cuBLASLt FP8 in the same process) into bench.txt
bench() {
  local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/bench.txt
  timeout 30 bash -c "run $v $* --bench" > $O/b.txt 2>&1
  local rc=$?
  grep -E "TFLOP|rror|unsupported|not supported" $O/b.txt >> $O/bench.txt || tail -n 3 $O/b.txt >> $O/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/bench.txt
}
# 4096x7168x16384 per-tensor, alternating the default with the variants
for v in default n192 tile128 default paired s7 fast; do bench $v "4096x7168x16384" $S; done
t "bench 4096x7168x16384"
for v in default n192 paired; do bench $v "block 4096x7168x16384" $S --block-scales; done
t "bench block"
for v in default n192 fast; do bench $v "4096^3" --m 4096; done
for v in default n192; do bench $v "8192^3" --m 8192; done
t "bench cubes"
# ncu: ours and cuBLASLt's kernel in the same process (the first matching launches: cuBLASLt's probe, ours,
# cuBLASLt's, ours); sections with a metric list, again without it if ncu refuses a name
SEC="--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
MET="--metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {
  local tag=$1 v=$2; shift 2
  timeout 50 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 4 $SEC $MET \
    env $( [ $v = fast ] || echo CUTE_RS_FP8_PROMOTED=$v ) $H gemm --dtype e4m3 $( [ $v = fast ] && echo --fast-accum ) "$@" --bench > $O/ncu-$tag.txt 2>&1
  local rc=$?
  if [ $rc != 0 ] && grep -qiE "metric|invalid" $O/ncu-$tag.txt; then
    mv $O/ncu-$tag.txt $O/ncu-$tag-refused.txt
    timeout 50 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 4 $SEC \
      env $( [ $v = fast ] || echo CUTE_RS_FP8_PROMOTED=$v ) $H gemm --dtype e4m3 $( [ $v = fast ] && echo --fast-accum ) "$@" --bench > $O/ncu-$tag.txt 2>&1
    rc=$?
  fi
  t "ncu $tag rc=$rc"
}
# (skipped past the budget: ~150 s in all)
if [ $(( $(date +%s) - T0 )) -lt 125 ]; then prof fast-8192 fast --m 8192; else t "ncu fast skipped"; fi
if [ $(( $(date +%s) - T0 )) -lt 130 ]; then prof default-s default $S; else t "ncu default skipped"; fi
t end
cat $O/bench.txt >> $O/summary.txt
