#!/usr/bin/env bash
# Final merged build: every check, the benches (gemm twice, copy three times), sanitizers on
# the Hopper sections, SASS counts. Usage: bash go.sh [bench-only]
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"; L=/tmp/logs; mkdir -p $L
nvidia-smi -L | tee "$O/device.txt"; nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv >> "$O/device.txt"
t0=$SECONDS
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$L/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$L/$name.log")" | tee -a "$O/summary.txt"; }
if [ "${1:-}" != bench-only ]; then
step run 240 $H run
fi
for r in 1 2; do $H bench gemm --csv > "$O/bench-gemm-$r.log" 2>&1; echo "bench gemm $r rc=$?" | tee -a "$O/summary.txt"; done
for r in 1 2 3; do $H bench copy --csv > "$O/bench-copy-$r.log" 2>&1; echo "bench copy $r rc=$?" | tee -a "$O/summary.txt"; done
cat "$O"/bench-gemm-*.log | grep '^gemm,' > "$O/bench-gemm.csv"; cat "$O"/bench-copy-*.log | grep -v '^\[' > "$O/bench-copy.csv"
rm -f "$O"/bench-gemm-*.log "$O"/bench-copy-*.log
if [ "${1:-}" != bench-only ]; then
step memcheck 200 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 10
step racecheck-wgmma 120 compute-sanitizer --tool racecheck --error-exitcode 1 $H wgmma
step synccheck-wgmma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H wgmma
step racecheck-tma 120 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step synccheck-tma 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only tma --sweep-copy 4
step racecheck-hgemm 150 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step synccheck-hgemm 120 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
for p in ptx/*.ptx; do ptxas -arch=sm_90a "$p" -o /tmp/$(basename "$p" .ptx).cubin && cuobjdump -sass /tmp/$(basename "$p" .ptx).cubin; done > /tmp/sass-all.txt 2>&1
for op in HGMMA UTMALDG UTMASTG UTMALDG.2D.MULTICAST USETMAXREG UCGABAR_ARV STSM LDSM; do echo "$op: $(grep -c "$op" /tmp/sass-all.txt)" | tee -a "$O/summary.txt"; done
grep -E -c "LDL|STL" /tmp/sass-all.txt | sed 's/^/LDL+STL lines: /' | tee -a "$O/summary.txt"
for pat in "HGMMA.64x256x16.F32.BF16" "UTMALDG.2D.MULTICAST" "UTMASTG" "STSM"; do grep -m1 "$pat" /tmp/sass-all.txt | tee -a "$O/summary.txt"; done
tail -6 "$L/run.log"; cp "$L/run.log" "$O/"; tar czf "$O/logs.tgz" -C /tmp logs
fi
awk -F, '{print $2, $3, $NF}' "$O/bench-gemm.csv"
awk -F, '/^copy/{print $2, $3, $NF}' "$O/bench-copy.csv" | head -80
echo "total $((SECONDS - t0)) s"; cat "$O/summary.txt"
