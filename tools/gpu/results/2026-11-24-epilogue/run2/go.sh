#!/usr/bin/env bash
# gepi run2 (issue #26 epilogue): hgemm checks (two sweep seeds), bench before/after
# (CUTE_RS_HGEMM_EPILOGUE=direct = the old path, same binary), sanitizers, SASS counts.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/summary.txt"
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step run 120 $H run --only hgemm --sweep-hgemm 300
step run-seed99 120 $H run --only hgemm --sweep-hgemm 300 --seed 99
step bench-direct 100 env CUTE_RS_HGEMM_EPILOGUE=direct $H bench gemm --csv
step bench-tma 100 $H bench gemm --csv
{ for tool in memcheck racecheck synccheck; do
    echo "== $tool"; s=$SECONDS
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4 2>&1 | tail -6
    echo "rc=${PIPESTATUS[0]} $((SECONDS - s))s"
  done; } > "$O/sanitizers.log" 2>&1
grep -E "^== |SUMMARY|passed|^rc=" "$O/sanitizers.log" | tee -a "$O/summary.txt"
ptxas -arch=sm_90a -v hgemm.ptx -o /tmp/hgemm.cubin > "$O/sass.txt" 2>&1
cuobjdump -sass /tmp/hgemm.cubin > /tmp/sass.txt
for op in HGMMA UTMALDG UTMASTG STSM "STS " LDL STL BAR.SYNC; do echo "$op: $(grep -c "$op" /tmp/sass.txt)"; done | tee -a "$O/sass.txt" "$O/summary.txt"
grep -E "FAIL|sweep|passed" "$O/run.log" "$O/run-seed99.log" | head -20
grep -i hgemm "$O/bench-direct.log" "$O/bench-tma.log" | cut -d, -f2,3,9- 
