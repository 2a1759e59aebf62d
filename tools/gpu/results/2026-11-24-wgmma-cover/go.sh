#!/usr/bin/env bash
# wgmma proof coverage (branch wgmma-cover): every proof entry bit-exact, the sanitizers on them,
# and the SASS of the wgmma module (HGMMA shapes, TMA loads, no local memory).
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step wgmma 60 $H wgmma
step run-wgmma 60 $H run --only wgmma
step memcheck-wgmma 90 compute-sanitizer --tool memcheck --error-exitcode 1 $H wgmma
step racecheck-wgmma 90 compute-sanitizer --tool racecheck --error-exitcode 1 $H wgmma
step synccheck-wgmma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H wgmma
ptxas -arch=sm_90a -v wgmma.ptx -o /tmp/wgmma.cubin > "$O/ptxas.log" 2>&1; echo "ptxas rc=$? C751x notes: $(grep -c 'C751\|C7508' "$O/ptxas.log")" | tee -a "$O/summary.txt"
cuobjdump -sass /tmp/wgmma.cubin > /tmp/sass.txt 2>&1
for op in HGMMA.64x8x16 HGMMA.64x64x16 HGMMA.64x128x16 HGMMA.64x256x16 UTMALDG LDSM; do echo "$op: $(grep -c "$op" /tmp/sass.txt)" | tee -a "$O/summary.txt"; done
echo "LDL+STL lines: $(grep -E -c 'LDL|STL' /tmp/sass.txt)" | tee -a "$O/summary.txt"
grep -m1 "HGMMA.64x8x16.F32.BF16" /tmp/sass.txt | tee -a "$O/summary.txt"
grep -m1 "HGMMA.64x256x16.F32.F16" /tmp/sass.txt | tee -a "$O/summary.txt"
tail -3 "$O/wgmma.log"; cat "$O/summary.txt"
