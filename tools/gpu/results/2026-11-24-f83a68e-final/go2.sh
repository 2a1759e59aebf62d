#!/usr/bin/env bash
# The final merged build: host run (everything), sanitizers on the Hopper sections, SASS counts.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step run 200 $H run
step memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 10
step racecheck-wgmma 120 compute-sanitizer --tool racecheck --error-exitcode 1 $H wgmma
step synccheck-wgmma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H wgmma
step racecheck-tma 120 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step synccheck-tma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step synccheck-hgemm 120 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
for p in ptx/*.ptx; do ptxas -arch=sm_90a "$p" -o /tmp/$(basename "$p" .ptx).cubin && cuobjdump -sass /tmp/$(basename "$p" .ptx).cubin; done > /tmp/sass-all.txt 2>&1
for op in HGMMA UTMALDG UTMASTG UTMALDG.2D.MULTICAST USETMAXREG UCGABAR_ARV; do echo "$op: $(grep -c "$op" /tmp/sass-all.txt)" | tee -a "$O/summary.txt"; done
grep -E -c "LDL|STL" /tmp/sass-all.txt | sed 's/^/LDL+STL lines: /' | tee -a "$O/summary.txt"
grep -m1 "HGMMA.64x256x16.F32.BF16" /tmp/sass-all.txt | tee -a "$O/summary.txt"
grep -m1 "UTMALDG.2D.MULTICAST" /tmp/sass-all.txt | tee -a "$O/summary.txt"
grep -m1 "UTMASTG" /tmp/sass-all.txt | tee -a "$O/summary.txt"
tail -4 "$O/run.log"; cat "$O/summary.txt"
