#!/usr/bin/env bash
# helper fp8 (issue #37, round 5, session s8: the lead's call 2 at 10:15, <= 90 s with the JIT): the per-tensor entry
# without the block scales' code (gemm_fp8_e4m3_tn_promoted_pt, branch fp8's new default for per-tensor launches) against
# main's behaviour (per-tensor launches on the block-scale entry), alone and on branch udesc's descriptor tensors.
# host.xz = main 23036ef's release host (final7); modules cut by tools/gpu/cut_ptx.py, loaded through CUTE_RS_PTX_DIR:
#   ptx/base/hgemm.ptx  main's gemm_fp8_e4m3_tn_promoted and _promoted_pt (= branch fp8's, PTX identical)
#   ptx/udpt/hgemm.ptx  the same two entries of branch fp8 merged with udesc (5e81616)
# Variants: default = main (CUTE_RS_FP8_PROMOTED=default: the block-scale entry), pt = branch fp8 (=pt), ud-pt = fp8 +
# udesc, ud-block = udesc's block-scale entry (with --block-scales). (1) --check of the udesc module (16, 5, 1 k-tiles;
# block scales); (2) host gemm --dtype e4m3 [--block-scales] --bench alternating, vs cuBLASLt FP8 in the same process, at
# 4096x7168x16384 (twice), 8192^3, 4096^3 and block scales at 4096x7168x16384; (3) ncu of ud-pt vs cuBLASLt at
# 4096x7168x16384 if under 70 s.
# Run from /work/main's root: bash .gpu/fp88b/go.sh (~60 s); logs under $OUT, the table in $OUT/summary.txt.
set -u
D=${D:-.gpu/fp88b}
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/fp88b-host','wb'))"
  chmod +x /tmp/fp88b-host; H=/tmp/fp88b-host
fi
P=$PWD/$D/ptx
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp88b
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $O/gpu.txt 2>&1
t "start $(cat $O/gpu.txt)"
vdir() { case $1 in default|pt) echo base ;; ud-*) echo udpt ;; esac; }
venv() { case $1 in pt|ud-pt) echo pt ;; *) echo default ;; esac; }
hostv() {
  local v=$1 to=$2; shift 2
  CUTE_RS_PTX_DIR=$P/$(vdir $v) CUTE_RS_FP8_PROMOTED=$(venv $v) timeout $to $H gemm --dtype e4m3 "$@"
}
# the first process of each module JIT-compiles it (2 entries): a long timeout
for v in default ud-pt; do
  hostv $v 100 --m 512 --n 384 --k 2048 --check > $O/check-$v-2048.txt 2>&1
  t "JIT + check $v 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-2048.txt | head -1)"
done
check() {
  local v=$1 k=$2 b=${3:-}
  hostv $v 30 --m 300 --n 200 --k $k --check $b > $O/check-$v-$k$b.txt 2>&1
  echo "check $v 300x200x$k $b rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-$k$b.txt | head -1)" | tee -a $O/summary.txt
}
check ud-pt 528; check ud-pt 128; check ud-block 528 --block-scales; check pt 128
t "checks"
bench() {
  local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/bench.txt
  hostv $v 30 "$@" --bench > $O/b.txt 2>&1
  local rc=$?
  grep -E "TFLOP|rror|not supported" $O/b.txt >> $O/bench.txt || tail -n 3 $O/b.txt >> $O/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/bench.txt
}
S="--m 4096 --n 7168 --k 16384"
for r in 1 2; do for v in default pt ud-pt; do bench $v "4096x7168x16384" $S; done; done
for a in 8192 4096; do for v in default pt ud-pt; do bench $v "$a^3" --m $a; done; done
for v in default ud-block; do bench $v "block 4096x7168x16384" $S --block-scales; done
t "benches"
awk '/^== /{v=$2; l=$3; if($4!="") l=l" "$4} /TFLOP\/s/{printf "%-9s %-24s %5s TFLOP/s  cuBLASLt %5s  %s\n", v, l, $(NF-8), $(NF-4), $NF}' \
  $O/bench.txt > $O/table.txt 2>/dev/null
if [ $(( $(date +%s) - T0 )) -lt 70 ]; then
  CUTE_RS_PTX_DIR=$P/udpt CUTE_RS_FP8_PROMOTED=pt timeout 15 ncu --clock-control none \
    -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 2 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats \
    -o $O/ncu-udpt -f $H gemm --dtype e4m3 $S --bench > $O/ncu-log.txt 2>&1
  t "ncu ud-pt rc=$?"
  timeout 10 ncu -i $O/ncu-udpt.ncu-rep --print-summary none > $O/ncu-udpt.txt 2>&1
  [ -f $O/ncu-udpt.ncu-rep ] && [ $(wc -c < $O/ncu-udpt.ncu-rep) -gt 15000000 ] && rm -f $O/ncu-udpt.ncu-rep
  grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|highest-utilized|Executed Instructions  |Warp Cycles Per Issued' \
    $O/ncu-udpt.txt | head -40 > $O/ncu-brief.txt
else
  t "ncu skipped (budget)"
fi
t end
{ echo "--- variant, shape, ours, ours/cuBLASLt (same process)"; cat $O/table.txt; echo "--- ncu"; cat $O/ncu-brief.txt 2>/dev/null; } >> $O/summary.txt
