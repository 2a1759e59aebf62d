#!/usr/bin/env bash
# Helper fp8tile (issue #37, session 12): the per-tensor promoted FP8 kernel on wider tiles — 128×160 (m64n160k32 per
# consumer, one temporary, 6 stages: n160; 5 stages: n160s5) and 128×192 (n192, 5 stages), the direct epilogue without
# shared memory — against the per-tensor default (pt: 128×128, paired temporaries, 5 stages), in one device call.
# Run from the repo root with $OUT set: D=.gpu/fp8tile bash .gpu/fp8tile/go.sh (a copy of this script) with
#   host.xz             the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                       cargo build --release -p host)
#   hgemm.ptx.xz        its hgemm module cut (tools/gpu/cut_ptx.py) to gemm_fp8_e4m3_tn_promoted{,_pt,_n160,_n160s5,_n192} (the block-scale entry: the host requires it before it picks the per-tensor one)
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs: (1) the JIT through a first check; (2) --check of each variant (512×384×2048: N not a multiple of 160 or
# 192; 300×200×528: 5 k-tiles, odd; 17×520×6160: split-K; 1000×1000×1024); (3) host gemm --dtype e4m3 --bench, each
# process beside cuBLASLt FP8 (which promotes), the variants alternated, two rounds, at 4096×7168×16384, 8192³, 4096³;
# (4) ncu of the best variant against cuBLASLt at 4096×7168×16384 if the time allows.
# Results: $OUT/summary.txt (the table at its end) and $OUT/fp8tile.tgz (every log).
set -u
D=${D:-.gpu/fp8tile}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8tile-host && chmod +x /tmp/fp8tile-host; H=/tmp/fp8tile-host
P=/tmp/fp8tile-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8tile CUTE_RS_PTX_DIR=$P
mkdir -p $O/logs
fin() { tar czf $O/fp8tile.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
V=${VARIANTS:-"pt n160 n160s5 n192"}
# pt = the default per-tensor entry (CUTE_RS_FP8_PROMOTED=default)
hv() { local v=$1 to=$2; shift 2; local e=$v; [ $v = pt ] && e=default
  CUTE_RS_FP8_PROMOTED=$e timeout $to $H gemm --dtype e4m3 "$@" < /dev/null; }
# 1. the JIT of the cut module (5 entries), cached: a long timeout
hv n160 150 --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1
t "jit + check n160 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks
for v in $V; do
  [ $v = pt ] && continue # main's entry, checked by every sweep
  for a in "--m 512 --n 384 --k 2048" "--m 300 --n 200 --k 528" "--m 17 --n 520 --k 6160" "--m 1000 --n 1000 --k 1024"; do
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
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096"; do
    for v in $V; do bench $v "${s%%:*}" ${s#*:}; done
  done
  t "round $r"
  [ $(( $(date +%s) - T0 )) -lt ${ROUND2_BY:-120} ] || break
done
# 4. ncu of the best variant (NCU_V) against cuBLASLt
NV=${NCU_V:-n160}
if [ $(( $(date +%s) - T0 )) -lt ${NCU_BY:-150} ]; then
  CUTE_RS_FP8_PROMOTED=$NV timeout 40 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|cutlass' --launch-count 2 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats \
    -o $O/logs/ncu-$NV -f $H gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench > $O/logs/ncu-log.txt 2>&1 < /dev/null
  t "ncu $NV rc=$?"
  timeout 15 ncu -i $O/logs/ncu-$NV.ncu-rep --print-summary none > $O/logs/ncu-$NV.txt 2>&1
  [ -f $O/logs/ncu-$NV.ncu-rep ] && [ $(wc -c < $O/logs/ncu-$NV.ncu-rep) -gt 15000000 ] && rm -f $O/logs/ncu-$NV.ncu-rep
  grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|highest-utilized|Executed Instructions  |Warp Cycles Per Issued|Registers Per' \
    $O/logs/ncu-$NV.txt | head -40 | tee -a $S
else
  t "ncu skipped (time)"
fi
t end
awk '/^== /{v=$2; l=$3} /TFLOP\/s/{printf "%-7s %-16s %s\n", v, l, $0}' $O/logs/bench.txt > $O/logs/table.txt 2>/dev/null
{ echo "--- variant, shape, the bench line (ours, cuBLASLt, ratio)"; cat $O/logs/table.txt; } >> $S
