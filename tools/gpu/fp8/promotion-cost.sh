#!/usr/bin/env bash
# Helper fp8off (issue #37, session 13), call 2: what promotion costs the per-tensor n192 kernel. Three modules, each the
# branch's hgemm module cut by tools/gpu/cut_ptx.py to gemm_fp8_e4m3_tn_promoted{,_n192} and one more entry launched
# as gemm_fp8_e4m3_tn_promoted_n192off (CUTE_RS_FP8_PROMOTED=n192off):
#   off    hgemm.ptx.xz        the real _n192off (consumer warpgroup 1's promotion windows shifted by half a k-tile)
#   fast   hgemm-fast.ptx.xz   _fast192 renamed: no promotion, the wgmmas accumulate, a k-tile left in flight
#   drain  hgemm-drain.ptx.xz  _drain192 renamed: no promotion, but wait_group 0 before each k-tile's release
# all on n192's tiles, stages, scheduler and direct epilogue. Run from the repo root with $OUT set:
# D=.gpu/fp8off bash .gpu/fp8off/go2.sh (a copy of this script; host.xz, stub.ptx, stub-families.txt as in
# tools/gpu/fp8/promotion-offset.sh). What it runs: a JIT + --check per module (the fast ones against the promoted
# check's tolerance: a sanity check only), host gemm --dtype e4m3 --bench of n192 / off / fast / drain alternated, two
# rounds, at 4096x7168x16384, 8192^3, 4096^3, 4096x2112x7168, and ncu (tensor pipe, stall reasons) of n192, fast and
# drain at 4096x7168x16384.
set -u
D=${D:-.gpu/fp8off}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8off-host && chmod +x /tmp/fp8off-host; H=/tmp/fp8off-host
for m in off fast drain; do
  P=/tmp/fp8off-ptx-$m; mkdir -p $P
  f=hgemm.ptx.xz; [ $m = off ] || f=hgemm-$m.ptx.xz
  x $D/$f $P/hgemm.ptx
  for fam in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$fam.ptx; done
done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8off
mkdir -p $O/logs
fin() { tar czf $O/fp8off2.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# variant -> (module, CUTE_RS_FP8_PROMOTED)
hv() { local v=$1 to=$2; shift 2; local m=$v e=n192off
  [ $v = n192 ] && { m=off; e=n192; }
  CUTE_RS_PTX_DIR=/tmp/fp8off-ptx-$m CUTE_RS_FP8_PROMOTED=$e timeout $to $H gemm --dtype e4m3 "$@" < /dev/null; }
for v in off fast drain; do
  hv $v 120 --m 512 --n 384 --k 2048 --check > $O/logs/jit-$v.txt 2>&1
  t "jit + check $v 512x384x2048 rc=$? $(grep -E 'PASS|FAIL' $O/logs/jit-$v.txt | tail -1 | cut -c1-160)"
done
bench() { local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/logs/bench.txt
  hv $v 30 "$@" --bench > $O/logs/b.txt 2>&1; local rc=$?
  grep -E "TFLOP|rror|not supported" $O/logs/b.txt >> $O/logs/bench.txt || tail -n 3 $O/logs/b.txt >> $O/logs/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/logs/bench.txt
  echo "$v $l $(grep -E 'TFLOP' $O/logs/b.txt | tail -1 | cut -c1-200)" | tee -a $S
}
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" "4096x2112x7168:--m 4096 --n 2112 --k 7168"; do
    for v in n192 off fast drain; do bench $v "${s%%:*}" ${s#*:}; done
  done
  t "round $r"
  [ $(( $(date +%s) - T0 )) -lt ${ROUND_BY:-80} ] || break
done
for NV in ${NCU_V:-n192 fast drain}; do
  if [ $(( $(date +%s) - T0 )) -lt ${NCU_BY:-140} ]; then
    CUTE_RS_PTX_DIR=/tmp/fp8off-ptx-$([ $NV = n192 ] && echo off || echo $NV) CUTE_RS_FP8_PROMOTED=$([ $NV = n192 ] && echo n192 || echo n192off) \
      timeout 60 ncu --clock-control none -k 'regex:gemm_fp8' --launch-count 1 \
      --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      -o $O/logs/ncu-$NV -f $H gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench > $O/logs/ncu-log-$NV.txt 2>&1 < /dev/null
    t "ncu $NV rc=$?"
    timeout 15 ncu -i $O/logs/ncu-$NV.ncu-rep --print-summary none > $O/logs/ncu-$NV.txt 2>&1
    rm -f $O/logs/ncu-$NV.ncu-rep
    grep -E '^\s+[a-z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|Executed Instructions  ' \
      $O/logs/ncu-$NV.txt | head -12 | tee -a $S
    grep -E 'stalled_' $O/logs/ncu-$NV.txt | awk '{print $1, $NF}' | sort -k2 -g -r | head -8 | tee -a $S
  else
    t "ncu $NV skipped (time)"
  fi
done
t end
awk '/^== /{v=$2; l=$3} /TFLOP\/s/{printf "%-8s %-16s %s\n", v, l, $0}' $O/logs/bench.txt > $O/logs/table.txt 2>/dev/null
{ echo "--- variant, shape, the bench line (ours, cuBLASLt, ratio)"; cat $O/logs/table.txt; } >> $S
