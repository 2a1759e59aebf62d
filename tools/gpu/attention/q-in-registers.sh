#!/usr/bin/env bash
# Attention (#33), helper attnq (session 11): Q as a register operand of S = Q·Kᵀ (`qr`, wgmma RS,
# feature `measure`) measured like for like, and ncu of cuDNN's SDPA kernel beside ours. One call,
# <= 240 s of GPU time (each step's timeout is cut to what is left of $BUDGET). From the repository
# root, with OUT set:
#   D=.gpu/attnq11 bash tools/gpu/attention/q-in-registers.sh
# (or, from a checkout without this branch, the copy in the package: bash .gpu/attnq11/go.sh, with
# .gpu/attnq11/py/ holding python/cute_rs/*.py, python/bench_attention.py, tools/attention/ncu_pair.py)
# $D holds host.xz (this branch's release host, CUTE_RS_ARCH=sm_90a, default kernels), native.xz
# (the same build's target/release/lib_native.so) and ptx/attention.ptx.xz (the `measure` build cut
# to the 10 default entries + attention_fwd_qr_bf16_d{64,128}, loaded through CUTE_RS_PTX_DIR by
# both; ptxas 13.0: 0 bytes of spills in all 12).
#   A  CUTE_RS_ATTENTION=qr host attention --check on six odd shapes (the first pays the JIT)
#   B  CUTE_RS_ATTENTION=qr host run --only attention --sweep-attention 40 (its bf16 d64/d128 rows)
#   C  python/bench_attention.py --backends ours,cudnn, d64/d128 x 512/1k/2k/8k x both masks:
#      default, qr, default, qr
#   D  ncu (--clock-control none; SpeedOfLight, InstructionStats, WarpStateStats,
#      ComputeWorkloadAnalysis, MemoryWorkloadAnalysis(+_Tables), LaunchStats, SchedulerStats): one
#      launch each after warm-up of ours (default) and cuDNN at d128 8k and d64 1k non-causal
#      (tools/attention/ncu_pair.py, one process), then ours under qr and overlap (--ours-only)
#   E  the bench of C under overlap (the 128x128 tile qr shares, where the default is another)
# Everything lands in $OUT/attnq11.tgz; $OUT/summary.txt has the lines that matter.
set -u
D=${D:-.gpu/attnq11}
: "${OUT:?}"
R=/tmp/attnq11; rm -rf $R; mkdir -p $R; S=$R/summary.txt
BUDGET=${BUDGET:-240}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-attnq11
mkdir -p /tmp/ptx-attnq11
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/ptx/attention.ptx.xz'), open('/tmp/ptx-attnq11/attention.ptx','wb'))"
export CUTE_RS_PTX_DIR=/tmp/ptx-attnq11
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE CUTE_RS_ATTENTION_SEQLENS
T0=$(date +%s)
t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/h_attnq11','wb'))"; chmod +x /tmp/h_attnq11
H=/tmp/h_attnq11
# the staged python package: run from /tmp/py, or python/ (first on sys.path) shadows it; from
# $D/py when the package carries this branch's files (a checkout without them: the lead's)
if [ -d $D/py ]; then P=$D/py; else P=python; fi
mkdir -p /tmp/py/cute_rs && cp $P/cute_rs/*.py /tmp/py/cute_rs/ && cp $P/bench_attention.py /tmp/py/
cp $( [ -d $D/py ] && echo $D/py || echo tools/attention )/ncu_pair.py /tmp/py/
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | head -1 | tee -a $S
grep -c '^.visible .entry' $CUTE_RS_PTX_DIR/attention.ptx | sed 's/^/entries in the cut module: /' | tee -a $S
# A
chk() { # name, want, args...
  local name=$1 want=$2; shift 2; local b; b=$(budget $want); [ "$b" -gt 0 ] || { t "A $name SKIP (time)"; return; }
  CUTE_RS_ATTENTION=qr timeout $b $H attention "$@" --check > $R/c-$name.txt 2>&1; local rc=$?
  t "A $name rc=$rc $(grep -m1 'kernel:' $R/c-$name.txt | cut -c9-60) | $(grep -vE '^(device|problem|kernel):' $R/c-$name.txt | tail -1 | cut -c1-150)"
}
chk d128-gqa-br 60 --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk d128-tl 15 --batch 2 --heads 6 --heads-kv 3 --seqlen-q 1500 --head-dim 128 --causal top-left
chk d128-8200 15 --batch 1 --heads 4 --seqlen-q 300 --seqlen-k 8200 --head-dim 128
chk d64-333x1000 15 --batch 3 --heads 4 --seqlen-q 333 --seqlen-k 1000 --head-dim 64
chk d64-2049-tl 15 --batch 1 --heads 8 --seqlen-q 2049 --head-dim 64 --causal top-left
chk d64-keyless 15 --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
# B
b=$(budget 25); if [ "$b" -gt 0 ]; then
  CUTE_RS_ATTENTION=qr timeout $b $H run --only attention --sweep-attention 40 > $R/sweep-qr.txt 2>&1; rc=$?
  # under a variant the f16 / d256 problems fail with "no entry" / "not in this build"
  t "B qr sweep 40 rc=$rc: $(grep -c 'PASS' $R/sweep-qr.txt) PASS rows, $(grep 'FAIL' $R/sweep-qr.txt | grep -vc 'no entry\|not in this build') other FAIL rows"
  grep 'FAIL' $R/sweep-qr.txt | grep -v 'no entry\|not in this build' | head -5 | cut -c1-200 | tee -a $S
fi
# C
bench() { # name, env...
  local name=$1; shift; local b; b=$(budget 40); [ "$b" -gt 0 ] || { t "C $name SKIP (time)"; return; }
  (cd /tmp/py && env "$@" PYTHONPATH=/tmp/py timeout $b python3 bench_attention.py --head-dims 64,128 \
     --seqlens 512,1024,2048,8192 --backends ours,cudnn --json $R/bench-$name.json > $R/bench-$name.txt 2>&1)
  t "C bench $name rc=$?"
}
bench default1 X=1
bench qr1 CUTE_RS_ATTENTION=qr
bench default2 X=1
bench qr2 CUTE_RS_ATTENTION=qr
summary() {
python3 - $R <<'EOF' 2>&1 | tee -a $S
import json, os, sys
R = sys.argv[1]
def load(n):
    p = f"{R}/bench-{n}.json"
    if not os.path.exists(p):
        return {}
    return {(r["head_dim"], r["seqlen"], r["causal"]): r for r in json.load(open(p))["rows"]}
runs = {n: load(n) for n in ("default1", "qr1", "default2", "qr2", "overlap")}
tf = lambda r, b: r.get(b, {}).get("tflops") if r else None
print("d seqlen causal | ours/cuDNN: default1 qr1 default2 qr2 overlap | qr/default: run1 run2 | qr/overlap")
keys = sorted(set().union(*[set(v) for v in runs.values()]))
for k in keys:
    rat = []
    for n in runs:
        r = runs[n].get(k)
        a, c = tf(r, "ours"), tf(r, "cudnn")
        rat.append(f"{a / c:5.3f}" if a and c else "  -  ")
    def q(x, y):
        a, b = tf(runs[x].get(k), "ours"), tf(runs[y].get(k), "ours")
        return f"{a / b:5.3f}" if a and b else "  -  "
    print(f"{k[0]:3d} {k[1]:5d} {'C' if k[2] else 'N'} | {' '.join(rat)} | {q('qr1', 'default1')} {q('qr2', 'default2')} | {q('qr1', 'overlap')} {q('qr2', 'overlap')}")
EOF
}
summary
# D
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
SECT="--section SpeedOfLight --section InstructionStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section SchedulerStats"
prof() { # name, want, env...
  local name=$1 want=$2; shift 2; local b; b=$(budget $want); [ "$b" -gt 10 ] || { t "D ncu-$name SKIP (time)"; return; }
  (cd /tmp/py && env "$@" PYTHONPATH=/tmp/py timeout $b $NCU --profile-from-start off --clock-control none $SECT \
     -o $R/ncu-$name python3 ncu_pair.py 128:8192 64:1024 $EXTRA > $R/ncu-$name.log 2>&1)
  t "D ncu-$name rc=$?: $(grep -c '^==PROF== Profiling' $R/ncu-$name.log) kernels"
  if [ -f $R/ncu-$name.ncu-rep ]; then
    $NCU -i $R/ncu-$name.ncu-rep --page raw --csv > $R/ncu-$name-raw.csv 2>&1
    $NCU -i $R/ncu-$name.ncu-rep --page details --print-units base > $R/ncu-$name-details.txt 2>&1
    grep -E '^  [a-zA-Z_].*\(|Duration|SM Frequency|Executed Instructions  |Issue Slots Busy|Registers Per Thread|Dynamic Shared Memory Per Block|Block Size' \
      $R/ncu-$name-details.txt | cut -c1-150 | tee -a $S
  fi
}
if [ -n "$NCU" ]; then
  EXTRA="" prof pair 90 X=1
  EXTRA="--ours-only" prof qr 45 CUTE_RS_ATTENTION=qr
  EXTRA="--ours-only" prof overlap 45 CUTE_RS_ATTENTION=overlap
else
  t "D ncu: not found"
fi
# E  the 128x128 tile qr shares (the default at d64 non-causal is 192 rows, at d128 8k 176 keys)
bench overlap CUTE_RS_ATTENTION=overlap
[ -f $R/bench-overlap.json ] && summary
t "done"
cp $S $OUT/summary.txt
tar czf $OUT/attnq11.tgz -C /tmp attnq11
