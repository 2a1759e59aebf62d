#!/usr/bin/env bash
# helper "collectives" (issue #34, fourth round): call 2. The branch's third build: stream-K (plain and FP8 entries; fused: data-parallel) only
# when the last wave leaves >= 32 k-tiles per cluster idle (StreamKScheduler::MIN_IDLE_K_TILES),
# i32 cuts. Warm-up (module JIT) first, then the sweep (stream-K fixed cases), the benches
# (SK on/off at 8192^3, 4096^3 default = data-parallel, fused), a skinny row, ptxas/SASS.
set -u
D=.gpu/collectives
O=${OUT:-/tmp/out}; mkdir -p $O /tmp/c2
un() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
un $D/host.xz /tmp/c2/host; un $D/hgemm.ptx.xz /tmp/c2/hgemm.ptx; chmod +x /tmp/c2/host
N=/tmp/c2/host
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $O/gpu.txt
timeout 150 $N gemm --ta --dtype bf16 --m 2304 --n 2048 --k 2304 --check > $O/warmup.txt 2>&1
t "warm-up (JIT) + 2304x2048x2304 SK check exit $?"; grep -E "PASS|FAIL" $O/warmup.txt | cut -c1-160 | tee -a $O/summary.txt
( ptxas -arch=sm_90a -v /tmp/c2/hgemm.ptx -o /tmp/c2/h.cubin 2>&1 | grep -E "Compiling entry|registers|spill|C75" | paste - - - | sed -E 's/ptxas info +: //g; s/Compiling entry function //' | cut -c1-200
  cuobjdump -sass /tmp/c2/h.cubin | grep -cE "LDL|STL" | sed 's/^/LDL+STL count: /'
  cuobjdump -sass /tmp/c2/h.cubin | grep -oE "HGMMA[.0-9A-Zx]*|UTMASTG[.0-9A-Z]*" | sort | uniq -c ) > $O/ptxas.txt 2>&1 &
timeout 80 $N run --only hgemm --sweep-hgemm 150 > $O/run-hgemm.txt 2>&1
t "sweep exit $?"; grep -E "passed|failed|FAIL" $O/run-hgemm.txt | tail -6 | tee -a $O/summary.txt
b() { local l=$1; shift; echo "== $l: $*" >> $O/bench.txt; env "$@" >> $O/bench.txt 2>&1; echo "rc=$?" >> $O/bench.txt; }
b "sk1 8192" CUTE_RS_HGEMM_STREAMK=1 timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bench --check
b "sk0 8192" CUTE_RS_HGEMM_STREAMK=0 timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bench
b "default 4096" timeout 25 $N gemm --ta --dtype bf16 --m 4096 --bench --check
b "fused 8192" timeout 25 $N gemm --ta --dtype bf16 --m 8192 --bias m --act gelu --bench --check
t "benches"
grep -E "^== |TN |rc=[^0]|FAIL" $O/bench.txt | sed 's/  */ /g' | tee -a $O/summary.txt
wait; cat $O/ptxas.txt | tee -a $O/summary.txt
t end
