#!/usr/bin/env bash
# The final build after the last merges: every check (host run, incl. the 120 wgmma proofs),
# sanitizers, SASS counts (no benches: the benched kernels' PTX is unchanged since go.sh's run).
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"; L=/tmp/logs; mkdir -p $L
nvidia-smi -L | tee "$O/device.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$L/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$L/$name.log")" | tee -a "$O/summary.txt"; }
step run 240 $H run
step wgmma 120 $H wgmma
step memcheck 200 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 10
step racecheck-wgmma 150 compute-sanitizer --tool racecheck --error-exitcode 1 $H wgmma
step synccheck-wgmma 100 compute-sanitizer --tool synccheck --error-exitcode 1 $H wgmma
step memcheck-wgmma 100 compute-sanitizer --tool memcheck --error-exitcode 1 $H wgmma
step racecheck-tma 120 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step racecheck-hgemm 150 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
for p in ptx/*.ptx; do ptxas -arch=sm_90a "$p" -o /tmp/$(basename "$p" .ptx).cubin && cuobjdump -sass /tmp/$(basename "$p" .ptx).cubin; done > /tmp/sass-all.txt 2>&1
for op in HGMMA.64x8x16 HGMMA.64x64x16 HGMMA.64x128x16 HGMMA.64x256x16 UTMALDG UTMASTG UTMALDG.2D.MULTICAST STSM LDSM; do echo "$op: $(grep -c "$op" /tmp/sass-all.txt)" | tee -a "$O/summary.txt"; done
grep -E -c "LDL|STL" /tmp/sass-all.txt | sed 's/^/LDL+STL lines: /' | tee -a "$O/summary.txt"
cp "$L/run.log" "$L/wgmma.log" "$O/"; tar czf "$O/logs.tgz" -C /tmp logs
tail -3 "$L/wgmma.log"; tail -3 "$L/run.log"; cat "$O/summary.txt"
