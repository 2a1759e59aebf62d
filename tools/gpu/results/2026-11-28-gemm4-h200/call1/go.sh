#!/usr/bin/env bash
# helper "collectives" (issue #34, fourth round): call 1. One release host (branch `collectives`):
# the data-parallel + stream-K scheduler (CUTE_RS_HGEMM_STREAMK=1 default / =0 off), same binary.
# Sweep (stream-K fixed cases included); 8192^3 and 4096^3 TN bf16 interleaved SK on/off; fused
# bias M + GELU on/off; bands of 16 with SK; ncu once (SK on); ptxas/SASS of the PTX.
set -u
D=.gpu/collectives
O=${OUT:-/tmp/out}; mkdir -p $O /tmp/c1
un() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
un $D/host.xz /tmp/c1/host; un $D/hgemm.ptx.xz /tmp/c1/hgemm.ptx; chmod +x /tmp/c1/host
N=/tmp/c1/host
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/gpu.txt
( ptxas -arch=sm_90a -v /tmp/c1/hgemm.ptx -o /tmp/c1/h.cubin 2>&1 | grep -E "Compiling entry|registers|spill|C75" | paste - - - | sed -E 's/ptxas info +: //g; s/Compiling entry function //' | cut -c1-200
  cuobjdump -sass /tmp/c1/h.cubin | grep -cE "LDL|STL" | sed 's/^/LDL+STL count: /'
  cuobjdump -sass /tmp/c1/h.cubin | grep -oE "HGMMA[.0-9A-Zx]*|UTMASTG[.0-9A-Z]*" | sort | uniq -c ) > $O/ptxas.txt 2>&1 &
timeout 80 $N run --only hgemm --sweep-hgemm 150 > $O/run-hgemm.txt 2>&1
t "sweep exit $?"; grep -E "passed|failed|FAIL" $O/run-hgemm.txt | tail -6 | tee -a $O/summary.txt
b() { local l=$1; shift; echo "== $l: $*" >> $O/bench.txt; env "$@" >> $O/bench.txt 2>&1; echo "rc=$?" >> $O/bench.txt; }
for r in 1 2; do
for m in 8192 4096; do
  b "sk1 $m" CUTE_RS_HGEMM_STREAMK=1 timeout 25 $N gemm --ta --dtype bf16 --m $m --bench $([ $r = 1 ] && echo --check)
  b "sk0 $m" CUTE_RS_HGEMM_STREAMK=0 timeout 25 $N gemm --ta --dtype bf16 --m $m --bench
done; t "bench round $r"; done
b "sk1 fused 8192" CUTE_RS_HGEMM_STREAMK=1 timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bias m --act gelu --bench --check
b "sk0 fused 8192" CUTE_RS_HGEMM_STREAMK=0 timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bias m --act gelu --bench
b "sk1 swz16 8192" CUTE_RS_HGEMM_SWIZZLE=16 timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bench
t "fused, bands"
grep -E "^== |TN |rc=[^0]|FAIL" $O/bench.txt | sed 's/  */ /g' | tee -a $O/summary.txt
MET=sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
timeout 45 ncu --clock-control none --launch-skip 2 --launch-count 2 --section SpeedOfLight --metrics $MET $N gemm --ta --dtype bf16 --m 8192 --bench > $O/ncu.log 2>&1
t "ncu exit $?"
grep -E "^  [a-z_]|Duration|SM Frequency|hmma|lts__t_sector_hit|dram__bytes_read" $O/ncu.log | cut -c1-150 | tee -a $O/summary.txt
wait; cat $O/ptxas.txt | tee -a $O/summary.txt
t end
