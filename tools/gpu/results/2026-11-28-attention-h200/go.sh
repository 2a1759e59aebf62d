#!/bin/bash
# attn helper's GPU run 3: correctness (default/overlap, ping-pong, serial), bench all three,
# torch SDPA (cuDNN, FA2) in the same call, SASS, then compute-sanitizer on a short sweep.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name --format=csv | tee $OUT/gpu.txt
( ptxas -arch=sm_90a -v attention.ptx -o $OUT/attention.cubin 2>&1 | grep -E "entry|spill|Used|warn" ; cuobjdump -sass $OUT/attention.cubin > $OUT/attention.sass 2>&1 ) > $OUT/ptxas.txt 2>&1 &
timeout 30 ./attention_check check 2>&1 | cut -c1-300 > $OUT/check.txt; tail -1 $OUT/check.txt
CUTE_RS_ATTENTION=pingpong timeout 30 ./attention_check check 2>&1 | cut -c1-300 > $OUT/check_pingpong.txt; tail -1 $OUT/check_pingpong.txt
CUTE_RS_ATTENTION=serial timeout 30 ./attention_check check 2>&1 | cut -c1-300 > $OUT/check_serial.txt; tail -1 $OUT/check_serial.txt
timeout 40 ./attention_check bench > $OUT/bench.txt 2>&1
CUTE_RS_ATTENTION=pingpong timeout 40 ./attention_check bench > $OUT/bench_pingpong.txt 2>&1
CUTE_RS_ATTENTION=serial timeout 40 ./attention_check bench > $OUT/bench_serial.txt 2>&1
timeout 40 python3 sdpa.py > $OUT/sdpa.txt 2>&1
python3 - $OUT <<'PY'
import sys, re, collections
out = sys.argv[1]; r = collections.defaultdict(dict)
for f in ["bench.txt", "bench_pingpong.txt", "bench_serial.txt", "sdpa.txt"]:
    for line in open(f"{out}/{f}"):
        m = re.match(r"RESULT (\S+) d=(\d+) causal=(\d) seqlen=(\d+) ms=\S+ tflops=(\S+)", line)
        if m: r[(int(m[2]), int(m[3]), int(m[4]))][m[1]] = float(m[5])
print("d causal seqlen | overlap pingpong serial | cudnn fa2 | best/cudnn")
for k in sorted(r):
    v = r[k]; best = max(v.get("ours-overlap", 0), v.get("ours-pingpong", 0))
    print(k, "|", v.get("ours-overlap"), v.get("ours-pingpong"), v.get("ours-serial"), "|", v.get("cudnn"), v.get("fa2"), "|", round(best / v["cudnn"], 3) if v.get("cudnn") else None)
PY
wait
grep "HGMMA" $OUT/attention.sass | grep tnspB | head -2; grep -c "STL\|LDL" $OUT/attention.sass
gzip -9 $OUT/attention.sass; rm -f $OUT/attention.cubin
for tool in memcheck synccheck racecheck; do
  timeout 45 compute-sanitizer --tool $tool ./attention_check quick > $OUT/sanitize_$tool.txt 2>&1; echo "$tool rc=$? $(grep -c PASS $OUT/sanitize_$tool.txt) pass; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitize_$tool.txt)"
done
