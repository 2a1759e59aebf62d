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
#                         the previous promotion, a 1-deep queue) as _promoted ("steady-late")
# (1) --check of every variant, per-tensor at K = 2048 and 528 (k-tile counts 16, 5), the steady ones also at K = 384,
# 256, 128 (3, 2, 1: the steady loop's odd and short tails), and with block scales at K = 528 and 384; (2) host gemm --dtype e4m3 --bench, one
# process each, alternating the variants, at 4096x7168x16384 (per-tensor twice, block scales twice), 4096^3, 8192^3,
# and default / steady-pt with clusters of 1 (CUTE_RS_HGEMM_CLUSTER=1);
# (3) ncu of the fastest variant at 8192^3 beside cuBLASLt's kernel (SpeedOfLight, WarpStateStats,
# ComputeWorkloadAnalysis, InstructionStats) if under 105 s.
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
vdir() { case $1 in default|pt) echo base ;; steady|steady-pt) echo steady ;; steady-late) echo late ;; esac; }
venv() { case $1 in default|steady|steady-late) echo default ;; pt|steady-pt) echo pt ;; esac; }
# hostv VARIANT TIMEOUT ARGS...: the host on VARIANT's module
hostv() {
  local v=$1 to=$2; shift 2
  CUTE_RS_PTX_DIR=$P/$(vdir $v) CUTE_RS_FP8_PROMOTED=$(venv $v) timeout $to $H gemm --dtype e4m3 "$@"
}
# the first process of each module JIT-compiles it (2 entries): a long timeout
for v in default steady steady-late; do
  hostv $v 120 --m 512 --n 384 --k 2048 --check > $O/check-$v-2048.txt 2>&1
  t "JIT + check $v 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-2048.txt | head -1)"
done
for v in default pt steady steady-pt steady-late; do
  ks="528"; case $v in steady|steady-pt) ks="528 384 256 128" ;; esac
  for k in $ks; do
    hostv $v 30 --m 300 --n 200 --k $k --check > $O/check-$v-$k.txt 2>&1
    echo "check $v 300x200x$k rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-$k.txt | head -1)" | tee -a $O/summary.txt
  done
done
for v in pt steady-pt; do
  hostv $v 30 --m 512 --n 384 --k 2048 --check > $O/check-$v-2048.txt 2>&1
  echo "check $v 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-2048.txt | head -1)" | tee -a $O/summary.txt
done
for v in default steady steady-late; do
  ks="528 384"; [ $v = steady-late ] && ks="528 384 256 128"
  for k in $ks; do
    hostv $v 30 --m 300 --n 200 --k $k --check --block-scales > $O/check-$v-block-$k.txt 2>&1
    echo "check $v block 300x200x$k rc=$? $(grep -Eo 'PASS|FAIL' $O/check-$v-block-$k.txt | head -1)" | tee -a $O/summary.txt
  done
done
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
for r in 1 2; do for v in default steady pt steady-pt; do bench $v "4096x7168x16384" $S; done; done
t "bench per-tensor 4096x7168x16384"
for r in 1 2; do for v in default steady steady-late; do bench $v "block 4096x7168x16384" $S --block-scales; done; done
bench steady-late "4096x7168x16384" $S
t "bench block"
for a in 4096 8192; do
  for v in default steady pt steady-pt; do bench $v "$a^3" --m $a; done
done
t "bench cubes"
# clusters of 1 (no B multicast: the L2's share in what is left)
bench_c1() { echo "== $1 $2" >> $O/bench.txt; CUTE_RS_HGEMM_CLUSTER=1 hostv $1 30 $S --bench 2>&1 | grep -E "TFLOP|rror" >> $O/bench.txt; }
bench_c1 default "cluster1 4096x7168x16384"; bench_c1 steady-pt "cluster1 4096x7168x16384"
t "bench clusters of 1"
# the ratio table: variant, shape, ours TFLOP/s, ratio to cuBLASLt
awk '/^== /{v=$2; l=$3; if($4!="") l=l" "$4} /TFLOP\/s/{printf "%-10s %-24s %5s TFLOP/s  cuBLASLt %5s  %s\n", v, l, $(NF-8), $(NF-4), $NF}' \
  $O/bench.txt > $O/table.txt 2>/dev/null
# ncu of the fastest variant at 8192^3 (and cuBLASLt's kernel, the process's other launches)
best=$(grep -A1 '^== .* 8192^3' $O/bench.txt | awk '/^== /{v=$2} /TFLOP\/s/{for(i=1;i<NF;i++) if($(i+1)=="TFLOP/s"){print $i, v; break}}' | sort -n | tail -1 | awk '{print $2}')
t "fastest at 8192^3: ${best:-none}"
if [ -n "$best" ] && [ $(( $(date +%s) - T0 )) -lt 105 ]; then
  CUTE_RS_PTX_DIR=$P/$(vdir $best) CUTE_RS_FP8_PROMOTED=$(venv $best) timeout 40 ncu --clock-control none \
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
