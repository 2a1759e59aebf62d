#!/usr/bin/env bash
# Final check of the merged build: every kernel's check and sweep, the benches, memcheck.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
t0=$SECONDS
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s" | tee -a "$O/summary.txt"; }
step run 200 $H run
step bench-gemm 200 $H bench gemm --csv
step bench-copy 100 $H bench copy --csv
step memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 10
for p in ptx/*.ptx; do ptxas -arch=sm_90a "$p" -o /tmp/$(basename "$p" .ptx).cubin && cuobjdump -sass /tmp/$(basename "$p" .ptx).cubin; done > "$O/sass-all.txt" 2>&1
for op in HGMMA UTMALDG UTMASTG USETMAXREG; do echo "$op: $(grep -c "$op" "$O/sass-all.txt")" | tee -a "$O/summary.txt"; done
grep -m2 "HGMMA.64x256x16" "$O/sass-all.txt" | tee -a "$O/summary.txt"
grep -m2 "UTMALDG\|UTMASTG" "$O/sass-all.txt" | tee -a "$O/summary.txt"
grep -E -c "LDL|STL" "$O/sass-all.txt" | sed 's/^/LDL+STL lines: /' | tee -a "$O/summary.txt"
rm -f "$O/sass-all.txt"
tail -25 "$O/run.log"; echo; cat "$O/bench-gemm.log" | tail -30; echo; tail -25 "$O/bench-copy.log"
echo "total $((SECONDS - t0)) s"; cat "$O/summary.txt"
