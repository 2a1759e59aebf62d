#!/usr/bin/env bash
# Attention (#33), helper attnq2 (session 11): Q in registers (`_d64_qr`) as head dim 64's default
# 128-row tile, the rule of `AttentionKernel::for_problem` live. One call, <= $BUDGET s of GPU time
# (each step's timeout is cut to what is left). From the repository root, with OUT set:
#   D=.gpu/attnq12 bash .gpu/attnq12/go.sh
# $D holds host.xz (this branch's release host, CUTE_RS_ARCH=sm_90a, the default kernels: 12
# attention entries), native.xz (the same build's target/release/lib_native.so) and py/ (this
# branch's python/cute_rs/*.py and python/bench_attention.py). As run in session 11 (call 1,
# BUDGET=200) it had no step W: the sweep's 90 s went to the JIT and 5 s of sweep (killed at #46).
#   W  the JIT of every module (one small d64 check, up to 150 s)
#   A  host run --only attention --sweep-attention 200 (fixed cases, argument errors, 200 problems)
#   B  host attention --check on odd d64 shapes the rule puts on `128x128 qr` (and one on 192)
#   C  compute-sanitizer memcheck and racecheck of one d64 qr shape
#   D  python/bench_attention.py --backends ours,cudnn at d64: default (the new rule), then
#      CUTE_RS_ATTENTION=wg3 (192 rows), qr (128 rows, Q in registers), overlap (128 rows, Q in
#      shared memory): ours / cuDNN per shape, each run in its own process
# Everything lands in $OUT/attnq12.tgz; $OUT/summary.txt has the lines that matter.
set -u
D=${D:-.gpu/attnq12}
: "${OUT:?}"
R=/tmp/attnq12; rm -rf $R; mkdir -p $R; S=$R/summary.txt
BUDGET=${BUDGET:-300}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-attnq12
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE CUTE_RS_ATTENTION_SEQLENS CUTE_RS_PTX_DIR
T0=$(date +%s)
t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/h_attnq12','wb'))"; chmod +x /tmp/h_attnq12
H=/tmp/h_attnq12
# the staged python package: run from /tmp/py, or python/ (first on sys.path) shadows it
mkdir -p /tmp/py/cute_rs && cp $D/py/cute_rs/*.py /tmp/py/cute_rs/ && cp $D/py/bench_attention.py /tmp/py/
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | head -1 | tee -a $S
# W  the JIT: `Context::new` loads (JIT-compiles) every family's module before the first line a
#    command prints; on a fresh machine that took 85 s in this session's call 1 (46 s in session
#    11's, 13 s in the lead's cluster call), so it gets a step of its own and the CUDA cache
b=$(budget 150)
timeout $b $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 64 --check > $R/jit.txt 2>&1
t "W JIT rc=$? $(grep -m1 'kernel:' $R/jit.txt | cut -c9-60) | $(tail -1 $R/jit.txt | cut -c1-80)"
# A
b=$(budget 60)
timeout $b $H run --only attention --sweep-attention 200 > $R/sweep.txt 2>&1; rc=$?
t "A sweep 200 rc=$rc: $(grep -cE 'PASS|pass' $R/sweep.txt) PASS lines, $(grep -c 'FAIL' $R/sweep.txt) FAIL lines; $(grep -c 'qr' $R/sweep.txt) lines naming qr"
tail -3 $R/sweep.txt | cut -c1-200 | tee -a $S
grep 'FAIL' $R/sweep.txt | head -5 | cut -c1-200 | tee -a $S
# B
chk() { # name, want, args...
  local name=$1 want=$2; shift 2; local b; b=$(budget $want); [ "$b" -gt 0 ] || { t "B $name SKIP (time)"; return; }
  timeout $b $H attention "$@" --check > $R/c-$name.txt 2>&1; local rc=$?
  t "B $name rc=$rc $(grep -m1 'kernel:' $R/c-$name.txt | cut -c9-60) | $(grep -vE '^(device|problem|kernel):' $R/c-$name.txt | tail -1 | cut -c1-150)"
}
chk bf16-333x1000-gqa 15 --batch 3 --heads 4 --heads-kv 2 --seqlen-q 333 --seqlen-k 1000 --head-dim 64
chk f16-1500-tl-gqa 15 --batch 2 --heads 6 --heads-kv 3 --seqlen-q 1500 --head-dim 64 --causal top-left --dtype f16
chk bf16-777x1023-br 15 --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 1023 --head-dim 64 --causal bottom-right
chk f16-100x4097 15 --batch 2 --heads 4 --seqlen-q 100 --seqlen-k 4097 --head-dim 64 --dtype f16
chk bf16-2047-tl 15 --batch 1 --heads 4 --seqlen-q 2047 --head-dim 64 --causal top-left
chk bf16-1025-192 15 --batch 1 --heads 4 --seqlen-q 1025 --head-dim 64
# C
for tool in memcheck racecheck; do
  b=$(budget 35); [ "$b" -gt 8 ] || { t "C $tool SKIP (time)"; continue; }
  timeout $b compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 700 --head-dim 64 --check > $R/san-$tool.txt 2>&1
  t "C $tool rc=$? $(grep -m1 'kernel:' $R/san-$tool.txt | cut -c9-40) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/san-$tool.txt | head -2 | tr '\n' ' ' | cut -c1-160)"
done
# D
bench() { # name, masks, seqlens, env...
  local name=$1 masks=$2 seqlens=$3; shift 3; local b; b=$(budget 40); [ "$b" -gt 10 ] || { t "D $name SKIP (time)"; return; }
  (cd /tmp/py && env "$@" PYTHONPATH=/tmp/py timeout $b python3 bench_attention.py --head-dims 64 \
     --seqlens $seqlens --masks $masks --backends ours,cudnn --json $R/bench-$name.json > $R/bench-$name.txt 2>&1)
  t "D bench $name rc=$?"
}
bench default none,causal 512,768,1024,1408,2048 X=1
bench wg3 none,causal 512,768,1024,1408,2048 CUTE_RS_ATTENTION=wg3
bench qr none,causal 768,1408,2048 CUTE_RS_ATTENTION=qr
bench overlap causal 512,1024 CUTE_RS_ATTENTION=overlap
python3 - $R <<'EOF' 2>&1 | tee -a $S
import json, os, sys
R = sys.argv[1]
def load(n):
    p = f"{R}/bench-{n}.json"
    return {(r["seqlen"], r["causal"]): r for r in json.load(open(p))["rows"]} if os.path.exists(p) else {}
runs = {n: load(n) for n in ("default", "wg3", "qr", "overlap")}
def rat(n, k):
    r = runs[n].get(k) or {}
    a, c = r.get("ours", {}).get("tflops"), r.get("cudnn", {}).get("tflops")
    return a / c if a and c else None
f = lambda x: f"{x:5.3f}" if x else "  -  "
print("d64 seqlen mask | ours/cuDNN: default wg3(192) qr(128) overlap(128 SS) | default/previous rule (wg3 non-causal and causal>=2k, overlap causal<2k)")
for k in sorted(set().union(*[set(v) for v in runs.values()])):
    d = rat("default", k)
    prev = rat("overlap", k) if k[1] and k[0] < 2048 else rat("wg3", k)
    print(f"{k[0]:5d} {'C' if k[1] else 'N'} | {f(d)} {f(rat('wg3', k))} {f(rat('qr', k))} {f(rat('overlap', k))} | {f(d / prev if d and prev else None)}")
EOF
t "done"
cp $S $OUT/summary.txt
tar czf $OUT/attnq12.tgz -C /tmp attnq12
