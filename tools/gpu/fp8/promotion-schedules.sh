#!/usr/bin/env bash
# helper fp8 (issue #37, round 5, session s8: the lead's call 1 at 10:05): the promoted kernel's steady
# schedule (GmmaFp8Accumulation<_, _, _, STEADY>: the temporaries rotate, k-tile kt+1's wgmmas issued before
# k-tile kt is waited for and promoted, so one k-tile stays queued on the tensor core across every promotion)
# against main's paired default, with and without the block scales' code (pt).
# host.xz = main 23036ef's release host (the lead's final7 package: it launches gemm_fp8_e4m3_tn_promoted and,
# with CUTE_RS_FP8_PROMOTED=pt, gemm_fp8_e4m3_tn_promoted_pt); each variant is a hgemm module cut by
# tools/gpu/cut_ptx.py with its entries renamed to those two (ENTRY=ALIAS), loaded through CUTE_RS_PTX_DIR:
#   ptx/base/hgemm.ptx    main's gemm_fp8_e4m3_tn_promoted (paired) and _promoted_pt
#   ptx/steady/hgemm.ptx  branch fp8's _promoted_steady as _promoted, _promoted_steady_pt as _promoted_pt
#   ptx/late/hgemm.ptx    _promoted_steady built with the feature hgemm/fp8-steady-late (block scales loaded after
#                         the previous promotion, a 1-deep queue) as _promoted ("steady-late": branch fp8's new default)
#   ptx/udsteady/hgemm.ptx  steady-late and steady-pt on branch udesc's descriptor tensors (fp8 merged with udesc
#                         5e81616) as _promoted / _promoted_pt ("ud-steady", "ud-steady-pt")
#   ptx/udpaired/hgemm.ptx  udesc's paired default (the same merge's _promoted_paired) as _promoted ("ud-paired")
# (1) --check: each module's first process at 512x384x2048 (16 k-tiles), then at 300x200xK, K = 528, 384, 256, 128
# (5, 3, 2, 1 k-tiles: the steady loop's odd and short tails): steady-pt and steady-late (block scales) at all four,
# ud-steady with block scales at 528/384/128 and per-tensor at 256, ud-steady-pt, ud-paired, steady once each;
# (2) host gemm --dtype e4m3 [--block-scales] --bench, one process each, alternating the variants, at
# 4096x7168x16384 (per-tensor twice, block scales twice), 4096^3, 8192^3, against cuBLASLt FP8 in the same process;
# (3) ncu of the fastest variant at 8192^3 beside cuBLASLt's kernel (SpeedOfLight, WarpStateStats,
# ComputeWorkloadAnalysis, InstructionStats) if under 112 s.
# Run from /work/main's root: bash .gpu/fp8-8/go.sh (~120 s); logs under $OUT, the table in $OUT/summary.txt.
set -u
D=${D:-.gpu/fp8-8}
O=${OUT:-/tmp/out}; mkdir -p $O
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/fp8-8-host','wb'))"
  chmod +x /tmp/fp8-8-host; H=/tmp/fp8-8-host
fi
P=$PWD/$D/ptx
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8-8
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $O/gpu.txt 2>&1
t "start $(cat $O/gpu.txt)"
# variant -> "module dir, CUTE_RS_FP8_PROMOTED"
vdir() { case $1 in default|pt) echo base ;; steady|steady-pt) echo steady ;; steady-late) echo late ;;
  ud-steady|ud-steady-pt) echo udsteady ;; ud-paired) echo udpaired ;; esac; }
venv() { case $1 in *-pt|pt) echo pt ;; *) echo default ;; esac; }
# hostv VARIANT TIMEOUT ARGS...: the host on VARIANT's module
hostv() {
  local v=$1 to=$2; shift 2
  CUTE_RS_PTX_DIR=$P/$(vdir $v) CUTE_RS_FP8_PROMOTED=$(venv $v) timeout $to $H gemm --dtype e4m3 "$@"
}
# the first process of each module JIT-compiles it (1-2 entries): a long timeout
for v in default steady steady-late ud-steady ud-paired; do
  hostv $v 100 --m 512 --n 384 --k 2048 --check > $O/check-$v-2048.txt 2>&1
  t "JIT + check $v 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-2048.txt | head -1)"
done
# check VARIANT K [--block-scales]
check() {
  local v=$1 k=$2 b=${3:-}
  hostv $v 30 --m 300 --n 200 --k $k --check $b > $O/check-$v-$k$b.txt 2>&1
  echo "check $v 300x200x$k $b rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-$k$b.txt | head -1)" | tee -a $O/summary.txt
}
for k in 528 384 256 128; do check steady-pt $k; check steady-late $k --block-scales; done
for k in 528 384 128; do check ud-steady $k --block-scales; done
check ud-steady 256; check ud-steady-pt 528; check ud-paired 528 --block-scales; check steady 528 --block-scales
t "checks"
# bench VARIANT LABEL ARGS...: the TFLOP/s row (ours vs cuBLASLt FP8 in the same process) into bench.txt
bench() {
  local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/bench.txt
  hostv $v 30 "$@" --bench > $O/b.txt 2>&1
  local rc=$?
  grep -E "TFLOP|rror|not supported" $O/b.txt >> $O/bench.txt || tail -n 3 $O/b.txt >> $O/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/bench.txt
}
S="--m 4096 --n 7168 --k 16384"
for r in 1 2; do for v in default steady-late steady-pt ud-paired ud-steady ud-steady-pt; do bench $v "4096x7168x16384" $S; done; done
t "bench per-tensor 4096x7168x16384"
for r in 1 2; do for v in default steady-late ud-paired ud-steady; do bench $v "block 4096x7168x16384" $S --block-scales; done; done
bench steady "block 4096x7168x16384" $S --block-scales
t "bench block"
for a in 4096 8192; do
  for v in default steady-late steady-pt ud-steady ud-steady-pt; do bench $v "$a^3" --m $a; done
done
t "bench cubes"
# the ratio table: variant, shape, ours TFLOP/s, ratio to cuBLASLt
awk '/^== /{v=$2; l=$3; if($4!="") l=l" "$4} /TFLOP\/s/{printf "%-10s %-24s %5s TFLOP/s  cuBLASLt %5s  %s\n", v, l, $(NF-8), $(NF-4), $NF}' \
  $O/bench.txt > $O/table.txt 2>/dev/null
# ncu of the fastest variant at 8192^3 (and cuBLASLt's kernel, the process's other launches)
best=$(grep -A1 '^== .* 8192^3' $O/bench.txt | awk '/^== /{v=$2} /TFLOP\/s/{for(i=1;i<NF;i++) if($(i+1)=="TFLOP/s"){print $i, v; break}}' | sort -n | tail -1 | awk '{print $2}')
t "fastest at 8192^3: ${best:-none}"
if [ -n "$best" ] && [ $(( $(date +%s) - T0 )) -lt 112 ]; then
  CUTE_RS_PTX_DIR=$P/$(vdir $best) CUTE_RS_FP8_PROMOTED=$(venv $best) timeout 30 ncu --clock-control none \
    -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 3 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats \
    -o $O/ncu-best -f $H gemm --dtype e4m3 --m 8192 --bench > $O/ncu-log.txt 2>&1
  t "ncu $best rc=$?"
  timeout 20 ncu -i $O/ncu-best.ncu-rep --print-summary none > $O/ncu-best.txt 2>&1
  [ -f $O/ncu-best.ncu-rep ] && [ $(wc -c < $O/ncu-best.ncu-rep) -gt 15000000 ] && rm -f $O/ncu-best.ncu-rep
  grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|Tensor|Executed Instructions  |Warp Cycles Per Issued' \
    $O/ncu-best.txt | head -60 > $O/ncu-brief.txt
else
  t "ncu skipped (budget)"
fi
t end
{ echo "--- variant, shape, ours, ours/cuBLASLt (same process)"; cat $O/table.txt; echo "--- ncu"; cat $O/ncu-brief.txt 2>/dev/null; } >> $O/summary.txt
