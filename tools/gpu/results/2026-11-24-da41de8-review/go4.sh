#!/usr/bin/env bash
# After the review mends (host: ClusterLaunch for the cluster launches; kernels' PTX byte-identical):
# every check, hgemm racecheck, one bench of the GEMM.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step run 240 $H run
step racecheck-hgemm 150 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step synccheck-hgemm 150 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step bench-gemm 200 $H bench gemm --csv
grep -i "cluster\|multicast" "$O/run.log" | head -3
awk -F, '/hgemm/ {print $2, $3, $NF}' "$O/bench-gemm.log"
cat "$O/summary.txt"
