#!/usr/bin/env bash
# helper "collectives" (issue #34, GEMM speed): call 2 (lean: the session's device budget), the
# branch's final host (3 stages, the whole 16-bit tile staged, run-time tile-order band).
# Sweep; bands 1/4/8 at 4096^3 and 8192^3; fused; ptxas; racecheck if time is left.
set -u
D=.gpu/collectives
O=${OUT:-/tmp/out}; mkdir -p $O /tmp/c2
un() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
un $D/host-new.xz /tmp/c2/new; un $D/hgemm-new.ptx.xz /tmp/c2/hgemm.ptx; chmod +x /tmp/c2/new
N=/tmp/c2/new
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
timeout 70 $N run --only hgemm --sweep-hgemm 150 > $O/run-hgemm.txt 2>&1
t "sweep exit $?"; grep -E "passed|failed|FAIL" $O/run-hgemm.txt | tail -4 | tee -a $O/summary.txt
( ptxas -arch=sm_90a -v /tmp/c2/hgemm.ptx -o /tmp/c2/h.cubin 2>&1 | grep -E "Compiling entry|registers|spill|C75" | paste - - - | sed -E 's/ptxas info +: //g; s/Compiling entry function //' | cut -c1-200
  cuobjdump -sass /tmp/c2/h.cubin | grep -cE "LDL|STL" | sed 's/^/LDL+STL count: /' ) > $O/ptxas.txt 2>&1 &
b() { local l=$1; shift; echo "== $l: $*" >> $O/bench.txt; env "$@" >> $O/bench.txt 2>&1; echo "rc=$?" >> $O/bench.txt; }
for m in 4096 8192; do
  b "swz1 $m" timeout 15 $N gemm --ta --dtype bf16 --m $m --bench
  b "swz4 $m" CUTE_RS_HGEMM_SWIZZLE=4 timeout 15 $N gemm --ta --dtype bf16 --m $m --bench
  b "swz8 $m" CUTE_RS_HGEMM_SWIZZLE=8 timeout 15 $N gemm --ta --dtype bf16 --m $m --bench --check
done
b "fused 8192" timeout 15 $N gemm --ta --dtype bf16 --m 8192 --bias m --act gelu --bench
t "benches"
grep -E "^== |TN |rc=[^0]|FAIL" $O/bench.txt | sed 's/  */ /g' | tee -a $O/summary.txt
wait; cat $O/ptxas.txt | tee -a $O/summary.txt
R=$(( 118 - ($(date +%s) - T0) ))
[ $R -gt 10 ] && { timeout $R compute-sanitizer --tool racecheck --print-limit 5 $N gemm --ta --dtype bf16 --m 600 --n 520 --k 300 --check > $O/racecheck.txt 2>&1; t "racecheck exit $? (limit $R s)"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASS|FAIL" $O/racecheck.txt | tail -3 | tee -a $O/summary.txt; }
t end
