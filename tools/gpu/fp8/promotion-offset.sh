#!/usr/bin/env bash
# Helper fp8off (issue #37, session 13): the per-tensor promoted FP8 kernel (128×192, one temporary, n192) with consumer
# warpgroup 1's promotion windows shifted by half a k-tile (n192off: `GmmaFp8Accumulation<false, false, false, 96, true>`,
# `CollectiveMma::mma_offset`) against the default n192, in one device call.
# Run from the repo root with $OUT set: D=.gpu/fp8off bash .gpu/fp8off/go.sh (a copy of this script) with
#   host.xz             the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                       cargo build --release -p host)
#   hgemm.ptx.xz        its hgemm module cut (tools/gpu/cut_ptx.py) to gemm_fp8_e4m3_tn_promoted{,_n192,_n192off} (the
#                       block-scale entry: the host requires it before it picks the per-tensor one)
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs: (1) the JIT through a first check; (2) --check of the variant (512×384×2048; 300×200×528: 5 k-tiles;
# 1000×1000×1024; 17×520×6160: split-K; 2048×1700×1008: the stream-K tail; 64×192×128: one k-tile); (3) host gemm
# --dtype e4m3 --bench, each process beside cuBLASLt FP8 (which promotes), n192 and n192off alternated, up to ROUNDS
# rounds, at 4096×7168×16384, 8192³, 4096³, 4096×2112×7168; (4) ncu of both at 4096×7168×16384 if the time allows.
# Results: $OUT/summary.txt (the table at its end) and $OUT/fp8off.tgz (every log).
set -u
D=${D:-.gpu/fp8off}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8off-host && chmod +x /tmp/fp8off-host; H=/tmp/fp8off-host
P=/tmp/fp8off-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8off CUTE_RS_PTX_DIR=$P
mkdir -p $O/logs
fin() { tar czf $O/fp8off.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
V=${VARIANTS:-"n192 n192off"}
hv() { local v=$1 to=$2; shift 2
  CUTE_RS_FP8_PROMOTED=$v timeout $to $H gemm --dtype e4m3 "$@" < /dev/null; }
# 1. the JIT of the cut module (3 entries), cached
hv n192off 150 --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1
t "jit + check n192off 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks
for v in $V; do
  [ $v = n192 ] && continue # main's default, checked by every sweep
  for a in "--m 300 --n 200 --k 528" "--m 1000 --n 1000 --k 1024" "--m 17 --n 520 --k 6160" "--m 2048 --n 1700 --k 1008" "--m 64 --n 192 --k 128"; do
    hv $v 40 $a --check > $O/logs/c.txt 2>&1
    echo "check $v $a rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1) $(grep -Eo 'gemm_fp8[a-z0-9_]*' $O/logs/c.txt | head -1)" | tee -a $S
    cat $O/logs/c.txt >> $O/logs/checks.txt
  done
done
t "checks"
# 3. benches, alternated
bench() { local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/logs/bench.txt
  hv $v 30 "$@" --bench > $O/logs/b.txt 2>&1; local rc=$?
  grep -E "TFLOP|rror|not supported" $O/logs/b.txt >> $O/logs/bench.txt || tail -n 3 $O/logs/b.txt >> $O/logs/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/logs/bench.txt
  echo "$v $l $(grep -E 'TFLOP' $O/logs/b.txt | tail -1 | cut -c1-200)" | tee -a $S
}
for r in $(seq 1 ${ROUNDS:-3}); do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" "4096x2112x7168:--m 4096 --n 2112 --k 7168"; do
    for v in $V; do bench $v "${s%%:*}" ${s#*:}; done
  done
  t "round $r"
  [ $(( $(date +%s) - T0 )) -lt ${ROUND_BY:-110} ] || break
done
# 4. ncu of both against cuBLASLt (tensor pipe: ComputeWorkloadAnalysis)
for NV in ${NCU_V:-n192off n192}; do
  if [ $(( $(date +%s) - T0 )) -lt ${NCU_BY:-170} ]; then
    CUTE_RS_FP8_PROMOTED=$NV timeout 45 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 2 \
      --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats \
      -o $O/logs/ncu-$NV -f $H gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench > $O/logs/ncu-log-$NV.txt 2>&1 < /dev/null
    t "ncu $NV rc=$?"
    timeout 15 ncu -i $O/logs/ncu-$NV.ncu-rep --print-summary none > $O/logs/ncu-$NV.txt 2>&1
    [ -f $O/logs/ncu-$NV.ncu-rep ] && [ $(wc -c < $O/logs/ncu-$NV.ncu-rep) -gt 15000000 ] && rm -f $O/logs/ncu-$NV.ncu-rep
    grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|highest-utilized|Executed Instructions  |Warp Cycles Per Issued|Registers Per' \
      $O/logs/ncu-$NV.txt | head -40 | tee -a $S
  else
    t "ncu $NV skipped (time)"
  fi
done
t end
awk '/^== /{v=$2; l=$3} /TFLOP\/s/{printf "%-8s %-16s %s\n", v, l, $0}' $O/logs/bench.txt > $O/logs/table.txt 2>/dev/null
{ echo "--- variant, shape, the bench line (ours, cuBLASLt, ratio)"; cat $O/logs/table.txt; } >> $S
