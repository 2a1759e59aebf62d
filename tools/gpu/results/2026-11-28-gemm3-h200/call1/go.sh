#!/usr/bin/env bash
# helper "collectives" (issue #34, GEMM speed): call 1. Old = main's release host (final2z,
# 4 stages, 2 epilogue buffers per warpgroup); new = 3 stages + 4 buffers (the whole 16-bit tile
# staged); new/128 = CUTE_RS_HGEMM_SMS=128; ptxas/SASS of the new PTX on the device.
set -u
D=.gpu/collectives
O=${OUT:-/tmp/out}; mkdir -p $O /tmp/c1/measure
un() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
un $D/host-new.xz /tmp/c1/new; un $D/host-old.xz /tmp/c1/old; un $D/hgemm-new.ptx.xz /tmp/c1/hgemm.ptx
chmod +x /tmp/c1/new /tmp/c1/old
N=/tmp/c1/new; OLD=/tmp/c1/old
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/gpu.txt
( ptxas -arch=sm_90a -v /tmp/c1/hgemm.ptx -o /tmp/c1/h.cubin 2>&1 | grep -E "Compiling entry|registers|spill|C75" | paste - - - | sed -E 's/ptxas info +: //g; s/Compiling entry function //' | cut -c1-200
  cuobjdump -sass /tmp/c1/h.cubin | grep -cE "LDL|STL" | sed 's/^/LDL+STL count: /'
  cuobjdump -sass /tmp/c1/h.cubin | grep -oE "HGMMA[.0-9A-Zx]*|UTMASTG[.0-9A-Z]*|STSM[.0-9A-Z]*" | sort | uniq -c ) > $O/ptxas.txt 2>&1 &
timeout 80 $N run --only hgemm --sweep-hgemm 150 > $O/run-hgemm.txt 2>&1
t "sweep exit $?"; grep -E "passed|failed|FAIL" $O/run-hgemm.txt | tail -4 | tee -a $O/summary.txt
b() { # label, env..., host, args
  local l=$1; shift
  echo "== $l: $*" >> $O/bench.txt
  env "$@" >> $O/bench.txt 2>&1; echo "rc=$?" >> $O/bench.txt
}
for r in 1 2; do
for m in 4096 8192; do
  b "old $m" timeout 25 $OLD gemm --ta --dtype bf16 --m $m --bench
  b "new $m" timeout 25 $N gemm --ta --dtype bf16 --m $m --bench $([ $r = 1 ] && echo --check)
  b "new128 $m" CUTE_RS_HGEMM_SMS=128 timeout 25 $N gemm --ta --dtype bf16 --m $m --bench
done; t "bench round $r"; done
for m in 4096 8192; do
  b "old fused $m" timeout 25 $OLD gemm --ta --dtype bf16 --m $m --bias m --act gelu --bench
  b "new fused $m" timeout 25 $N gemm --ta --dtype bf16 --m $m --bias m --act gelu --bench $([ $m = 4096 ] && echo --check)
done
t "fused"
grep -E "^== |TN |rc=[^0]|FAIL" $O/bench.txt | sed 's/  */ /g' | tee -a $O/summary.txt
MET=sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
for v in new old; do
  H=$N; [ $v = old ] && H=$OLD
  timeout 40 ncu --clock-control none --launch-skip 2 --launch-count 2 --section SpeedOfLight --section WarpStateStats --metrics $MET $H gemm --ta --dtype bf16 --m 8192 --bench > $O/ncu-$v.log 2>&1
  t "ncu $v exit $?"
done
grep -E "^  [a-z_]|Duration|sm__cycles_elapsed.avg.per_second|hmma|DRAM Throughput|lts__t_sector_hit|dram__bytes_read|Stall" $O/ncu-*.log | cut -c1-150 | tee -a $O/summary.txt
wait; cat $O/ptxas.txt | tee -a $O/summary.txt
t end
