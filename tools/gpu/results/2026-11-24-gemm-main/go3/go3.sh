#!/usr/bin/env bash
# gemm-main merged with gemm-epi: correctness (both cluster sizes), sanitizers, SASS, bench c1 vs c2.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
H=./host; O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
t0=$SECONDS
step() { local name=$1 lim=$2; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$O/$name.log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s: $(tail -1 "$O/$name.log")" | tee -a "$O/summary.txt"; }
step run-c2 60 $H run --only hgemm
CUTE_RS_HGEMM_CLUSTER=1 step run-c1 60 $H run --only hgemm
step memcheck 60 compute-sanitizer --tool memcheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step racecheck 90 compute-sanitizer --tool racecheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
step synccheck 60 compute-sanitizer --tool synccheck --error-exitcode 1 $H run --only hgemm --sweep-hgemm 4
ptxas -arch=sm_90a -v hgemm.ptx -o /tmp/hgemm.cubin > "$O/ptxas.txt" 2>&1; cuobjdump -sass /tmp/hgemm.cubin > /tmp/sass.txt 2>&1
for op in HGMMA UTMALDG UTMALDG.2D.MULTICAST UTMASTG LDL STL; do echo "$op: $(grep -c "$op" /tmp/sass.txt)" | tee -a "$O/summary.txt"; done
grep -c "spill" "$O/ptxas.txt"; grep -E "spill" "$O/ptxas.txt" | sort | uniq -c | tee -a "$O/summary.txt"
shapes="bf16:2048:2048:2048: bf16:4096:4096:4096: bf16:8192:8192:8192: f16:2048:2048:2048: f16:4096:4096:4096: f16:8192:8192:8192: bf16:4096:4096:4096:--tb bf16:4096:4096:4096:--ta bf16:4096:4096:4096:--ta--tb bf16:8192:8192:512: bf16:512:8192:8192: f16:8192:8192:512: f16:512:8192:8192:"
for r in 1 2 3; do
  for sh in $shapes; do IFS=: read dt m n k fl <<< "$sh"; fl=${fl//--/ --}
    [ $((SECONDS - t0)) -gt 270 ] && break 2
    for cl in 1 2; do
      echo -n "r$r c$cl $dt ${m}x${n}x${k}$fl " >> "$O/bench.txt"
      CUTE_RS_HGEMM_CLUSTER=$cl timeout 30 $H gemm --dtype $dt --m $m --n $n --k $k $fl --bench --csv 2>&1 | grep "^gemm," | awk -F, '{print $(NF-2), $(NF-1), $NF}' >> "$O/bench.txt"
    done
  done
done
echo "total $((SECONDS - t0)) s" | tee -a "$O/summary.txt"
cat "$O/summary.txt"
python3 - "$O/bench.txt" <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) < 7: continue
    d[(p[2], ' '.join(p[3:-3]), p[1])].append(float(p[-1]))
shapes = sorted({(a, b) for a, b, _ in d})
cf = sorted({c for _, _, c in d})
print("shape", *cf)
for s in shapes:
    print(*s, *["%.3f(%s)" % (statistics.median(d[s + (c,)]), len(d[s + (c,)])) if d.get(s + (c,)) else "-" for c in cf])
PY
