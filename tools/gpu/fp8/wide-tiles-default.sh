#!/usr/bin/env bash
# Helper fp8tile (issue #37, session 12), the second call: the 128×192 per-tensor entry as the host's default
# (gemm_fp8_e4m3_tn_promoted_n192 = PROMOTED_PER_TENSOR_ENTRY), checked and measured on the branch's tree.
# Run from the repo root with $OUT set: D=.gpu/fp8tile bash .gpu/fp8tile/go2.sh (a copy of this script) with
#   host.xz             the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                       cargo build --release -p host: the default build's host code, plus the measuring entries)
#   hgemm.ptx.xz        its hgemm module cut to the FP8 sweep's entries (gemm_fp8_e4m3_tn_promoted{,_n192}, the five
#                       fused, gemm_fp8_{e4m3,e5m2}_tn) and gemm_fp8_e4m3_tn_promoted_pt (128×128, CUTE_RS_FP8_PROMOTED=n128)
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs: (1) the JIT; (2) --check of the default on odd shapes (N not a multiple of 192, odd k-tile counts,
# split-K small M, M = N = 1); (3) the FP8 sweep (host gemm --dtype e4m3); (4) host gemm --dtype e4m3 --bench, the
# default (n192) and n128 alternated, beside cuBLASLt FP8: 128×7168×16384 (split-K), 4096×7168×16384, 8192³, 4096³;
# (5) ncu of the default at 8192³ against cuBLASLt if the time allows.
# Results: $OUT/summary.txt and $OUT/fp8tile2.tgz.
set -u
D=${D:-.gpu/fp8tile}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8tile-host && chmod +x /tmp/fp8tile-host; H=/tmp/fp8tile-host
P=/tmp/fp8tile-ptx2; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8tile2 CUTE_RS_PTX_DIR=$P
mkdir -p $O/logs
fin() { tar czf $O/fp8tile2.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
# 1. the JIT of the cut module (10 entries), cached: a long timeout
timeout 150 $G --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1 < /dev/null
t "jit + check default 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -1 | cut -c1-220 | tee -a $S
# 2. checks of the default (per-tensor: the n192 entry)
while read -r args; do
  timeout 30 $G $args --check > $O/logs/c.txt 2>&1 < /dev/null
  echo "check $args rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)" | tee -a $S
  cat $O/logs/c.txt >> $O/logs/checks.txt
done <<'EOF2'
--m 300 --n 200 --k 528
--m 129 --n 257 --k 384 --out f32
--m 17 --n 520 --k 6160
--m 1000 --n 1000 --k 1024
--m 1 --n 1 --k 16
--m 1100 --n 2000 --k 1040 --scale-a 0.5 --scale-b 1.25
--m 128 --n 1024 --k 8192
EOF2
t "checks"
# 3. the FP8 sweep
timeout 60 $G > $O/logs/sweep.txt 2>&1 < /dev/null
t "FP8 sweep rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt)"
grep -E "FAIL" $O/logs/sweep.txt | head -5 | cut -c1-220 | tee -a $S
# 4. benches: the default (n192) and n128, alternated
for s in "128x7168x16384:--m 128 --n 7168 --k 16384" "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096"; do
  for v in default n128; do
    CUTE_RS_FP8_PROMOTED=$v timeout 30 $G ${s#*:} --bench > $O/logs/b.txt 2>&1 < /dev/null
    echo "$v ${s%%:*} rc=$? $(grep -E 'TFLOP' $O/logs/b.txt | tail -1 | cut -c1-200)" | tee -a $S
    cat $O/logs/b.txt >> $O/logs/bench.txt
  done
done
t "benches"
# 5. ncu of the default at 8192³
if [ $(( $(date +%s) - T0 )) -lt ${NCU_BY:-50} ]; then
  timeout 30 ncu --clock-control none -k 'regex:gemm|nvjet' --launch-count 2 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats \
    $G --m 8192 --bench > $O/logs/ncu.txt 2>&1 < /dev/null
  t "ncu rc=$?"
  grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|highest-utilized|Executed Instructions  |Warp Cycles Per Issued' \
    $O/logs/ncu.txt | head -30 | tee -a $S
else
  t "ncu skipped (time)"
fi
t end
