#!/usr/bin/env bash
# Step 1 + 2 of issue #26: base vs fewer arrivals/scale-d 0 vs cluster-2 multicast, interleaved.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L | tee "$O/device.txt"
t0=$SECONDS
# correctness of the new kernel, both cluster sizes (fixed cases + 300-problem sweep)
for c in 2 1; do
  CUTE_RS_PTX_DIR=v3b CUTE_RS_HGEMM_CLUSTER=$c timeout 100 ./host run --only hgemm > "$O/run-c$c.log" 2>&1
  echo "run cluster=$c rc=$? $((SECONDS - t0))s: $(tail -1 "$O/run-c$c.log")" | tee -a "$O/summary.txt"
done
cfgs="v1:1 v3b:1 v2b:2 v3b:2"
shapes="bf16:2048:2048:2048: bf16:4096:4096:4096: bf16:8192:8192:8192: f16:2048:2048:2048: f16:4096:4096:4096: f16:8192:8192:8192: bf16:4096:4096:4096:--tb bf16:4096:4096:4096:--ta bf16:8192:8192:512: bf16:512:8192:8192:"
for r in 1 2 3; do
  [ $((SECONDS - t0)) -gt 200 ] && break
  for sh in $shapes; do IFS=: read dt m n k fl <<< "$sh"; fl=${fl//--/ --}
    [ $((SECONDS - t0)) -gt 200 ] && break 2
    for c in $cfgs; do v=${c%:*}; cl=${c#*:}
      echo -n "r$r $v c$cl $dt ${m}x${n}x${k}$fl " >> "$O/bench.txt"
      CUTE_RS_PTX_DIR=$v CUTE_RS_HGEMM_CLUSTER=$cl timeout 30 ./host gemm --dtype $dt --m $m --n $n --k $k $fl --bench --csv 2>&1 | tee -a "$O/raw.txt" | grep "^gemm," | awk -F, '{print $(NF-2), $(NF-1), $NF}' >> "$O/bench.txt"
    done
  done
done
# where the time goes: one launch of 4096^3 bf16, before and after
for c in v1:1 v3b:2; do v=${c%:*}; cl=${c#*:}
  CUTE_RS_PTX_DIR=$v CUTE_RS_HGEMM_CLUSTER=$cl timeout 60 ncu --kernel-name regex:hgemm --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats ./host gemm --dtype bf16 --m 4096 --check > "$O/ncu-$v-c$cl.txt" 2>&1
  echo "ncu $c rc=$? $((SECONDS - t0))s" | tee -a "$O/summary.txt"
done
echo "total $((SECONDS - t0)) s" | tee -a "$O/summary.txt"
cat "$O/summary.txt"; grep -E "FAIL|fail" "$O"/run-c*.log | head -5
python3 - "$O/bench.txt" <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) < 8: continue
    d[(p[3], ' '.join(p[4:-3]), p[1] + ':' + p[2])].append(float(p[-1]))
shapes = sorted({(a, b) for a, b, _ in d}, key=lambda x: (x[0], x[1]))
cf = sorted({c for _, _, c in d})
print("shape", *cf)
for s in shapes:
    print(*s, *["%.3f(%s)" % (statistics.median(d[s + (c,)]), len(d[s + (c,)])) if d.get(s + (c,)) else "-" for c in cf])
PY
