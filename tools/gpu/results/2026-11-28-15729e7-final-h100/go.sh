#!/usr/bin/env bash
# Session 31, final build (ldsm-swizzle merged): 174 wgmma proofs (two families) + the static-fast-path library; every check,
# sanitizers on the wgmma proofs and the GEMM/TMA sections, SASS counts, copy and GEMM benches.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"; L=/tmp/logs; mkdir -p $L
nvidia-smi -L | tee "$O/device.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$L/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$L/$name.log")" | tee -a "$O/summary.txt"; }
step run 150 $H run
step wgmma 60 $H wgmma
step memcheck-wgmma 60 compute-sanitizer --tool memcheck --error-exitcode 1 $H wgmma
step racecheck-wgmma 90 compute-sanitizer --tool racecheck --error-exitcode 1 $H wgmma
step synccheck-wgmma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H wgmma
step memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 10
step racecheck-tma 45 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step bench-copy 120 $H bench copy --csv
step bench-gemm 150 $H bench gemm --csv
for p in ptx/*.ptx; do ptxas -arch=sm_90a "$p" -o /tmp/$(basename "$p" .ptx).cubin && cuobjdump -sass /tmp/$(basename "$p" .ptx).cubin; done > /tmp/sass-all.txt 2>&1
for op in HGMMA.64x8x16 HGMMA.64x64x16 HGMMA.64x128x16 HGMMA.64x256x16 UTMALDG UTMASTG UTMALDG.2D.MULTICAST STSM LDSM; do echo "$op: $(grep -c "$op" /tmp/sass-all.txt)" | tee -a "$O/summary.txt"; done
grep -E -c "LDL|STL" /tmp/sass-all.txt | sed 's/^/LDL+STL lines: /' | tee -a "$O/summary.txt"
grep -m3 -E "HGMMA.64x256x16|UTMALDG.2D|UTMASTG" /tmp/sass-all.txt > "$O/sass-excerpt.txt"
cp "$L/run.log" "$L/wgmma.log" "$L/bench-copy.log" "$L/bench-gemm.log" "$O/"; tar czf "$O/logs.tgz" -C /tmp logs
cat "$O/summary.txt"
