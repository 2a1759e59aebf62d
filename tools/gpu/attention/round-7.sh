#!/usr/bin/env bash
# Attention (#33), helper attn's part of the lead's 06:45 call of 2026-11-29: at most ~150 s of
# GPU time including the driver's JIT (each step's timeout is cut to what is left of $BUDGET;
# a step with under 5 s left is skipped). Run from the repository root:
#   D=.gpu/attn7 OUT=... bash .gpu/attn7/go.sh
# $D holds host.xz (this branch's release host, default build: the 128x176 d128 tile and the
# TMA-store O epilogue as defaults) and tools/attention/ (sdpa_bench.py, compare.py,
# ab_compare.py). Every log lands under $OUT; $OUT/summary.txt has the lines that matter.
#   A  warm-up: `host run --only attention --sweep-attention 0` (the fixed cases, among them the
#      new 176-key and varlen-on-TMA ones; the first launch of every entry: the JIT)
#   B  `host run --only attention --sweep-attention 60`
#   C  odd shapes with --check: the 176-key tile forced under both causal masks (GQA, keyless
#      rows), d64 f16 GQA, d256 (the direct epilogue), the sweep's #59 shape (now on the
#      192-row tile by default), the TMA epilogue on 128x128 tiles (causal d64 f16, causal d128
#      with keyless rows, overlap-forced non-causal d64/d128 with rows past seqlen_q), one
#      shape with CUTE_RS_ATTENTION_EPILOGUE=direct
#   D  cuDNN (sdpa_bench.py --backends cudnn, d64/128/256)
#   E  host bench attention: default; CUTE_RS_ATTENTION_EPILOGUE=direct (main's epilogue, d64
#      and d256 exactly main's kernels); CUTE_RS_ATTENTION=overlap + direct (main's d128:
#      128x128, direct stores); overlap with the TMA epilogue; ab_compare.py's tables:
#      new/cuDNN, main/cuDNN, new/main; the TMA epilogue over the direct one on 128x128
#   F  compute-sanitizer racecheck and synccheck of the TMA epilogue (overlap-forced d128, the
#      128x128 tile) on one small problem each
set -u
D=${D:-.gpu/attn7}
: "${OUT:?}"
S=$OUT/summary.txt; L=$OUT/logs; mkdir -p "$L"
BUDGET=${BUDGET:-150}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc}
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/h_attn7','wb'))"
  chmod +x /tmp/h_attn7; H=/tmp/h_attn7
fi
T=$D/tools/attention
T0=$(date +%s)
t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
# the timeout for a step that wants $1 seconds: what is left of $BUDGET, or 0 (skip)
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1 | tee -a "$S"
# A
b=$(budget 100); if [ "$b" -gt 0 ]; then
  timeout "$b" "$H" run --only attention --sweep-attention 0 > "$L/warm.txt" 2>&1; rc=$?
  t "A warm-up (fixed cases) rc=$rc: $(grep -E 'passed' "$L/warm.txt" | tail -1 | cut -c1-120)"
  grep -E "^FAIL|FAIL " "$L/warm.txt" | head -8 | cut -c1-220 | tee -a "$S"
fi
# B
b=$(budget 40); if [ "$b" -gt 0 ]; then
  timeout "$b" "$H" run --only attention --sweep-attention 60 > "$L/run60.txt" 2>&1; rc=$?
  t "B sweep 60 rc=$rc, problems started $(grep -c '^\[run\]' "$L/run60.txt"), last: $(grep '^\[run\]' "$L/run60.txt" | tail -1 | cut -c1-140)"
  grep -E '^attention sweep|passed, .* failed' "$L/run60.txt" | cut -c1-180 | tee -a "$S"
  grep -E "^FAIL|FAIL " "$L/run60.txt" | head -8 | cut -c1-220 | tee -a "$S"
fi
# C
chk() { # name, env..., -- args
  local name=$1; shift; local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local b; b=$(budget 15); [ "$b" -gt 0 ] || { t "C $name SKIP (time)"; return; }
  env "${envs[@]}" timeout "$b" "$H" attention "$@" --check > "$L/c-$name.txt" 2>&1; local rc=$?
  t "C $name rc=$rc $(grep -m1 'kernel:' "$L/c-$name.txt" | cut -c9-70) | $(grep -vE '^(device|problem|kernel):' "$L/c-$name.txt" | tail -2 | tr '\n' ' ' | cut -c1-180)"
}
chk n176-br-gqa CUTE_RS_ATTENTION=n176 -- --batch 2 --heads 6 --heads-kv 2 --seqlen-q 1000 --seqlen-k 777 --head-dim 128 --causal bottom-right
chk n176-tl-f16 CUTE_RS_ATTENTION=n176 -- --batch 1 --heads 4 --seqlen-q 555 --seqlen-k 1999 --head-dim 128 --causal top-left --dtype f16
chk d128-default-f16 X=1 -- --batch 3 --heads 8 --heads-kv 8 --seqlen-q 1234 --seqlen-k 2222 --head-dim 128 --dtype f16
chk d64-gqa-f16 X=1 -- --batch 3 --heads 8 --heads-kv 2 --seqlen-q 1111 --seqlen-k 333 --head-dim 64 --dtype f16
chk d256-tl X=1 -- --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 256 --causal top-left
chk p59-default X=1 -- --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk d64-causal-f16-tma X=1 -- --batch 2 --heads 6 --heads-kv 3 --seqlen-q 999 --seqlen-k 1500 --head-dim 64 --causal bottom-right --dtype f16
chk d128-causal-keyless-tma X=1 -- --batch 1 --heads 4 --heads-kv 1 --seqlen-q 777 --seqlen-k 555 --head-dim 128 --causal bottom-right
chk ovl-d128-tma CUTE_RS_ATTENTION=overlap -- --batch 2 --heads 6 --heads-kv 3 --seqlen-q 333 --seqlen-k 1001 --head-dim 128
chk ovl-d64-tma-f16 CUTE_RS_ATTENTION=overlap -- --batch 3 --heads 2 --seqlen-q 77 --seqlen-k 300 --head-dim 64 --dtype f16
chk d128-direct CUTE_RS_ATTENTION_EPILOGUE=direct -- --batch 2 --heads 6 --heads-kv 3 --seqlen-q 333 --seqlen-k 1001 --head-dim 128 --causal top-left
# D
b=$(budget 30); [ "$b" -gt 0 ] && { timeout "$b" python3 "$T/sdpa_bench.py" --backends cudnn --head-dims 64,128,256 --rounds 1 --json > "$L/sdpa.json" 2> "$L/sdpa.err"; t "D sdpa cudnn rc=$?"; }
# E
bench() { # label, env...
  local label=$1; shift; local b; b=$(budget 20); [ "$b" -gt 0 ] || { t "E bench-$label SKIP (time)"; return; }
  env "$@" timeout "$b" "$H" bench attention --json > "$L/host-$label.json" 2> "$L/host-$label.err"; t "E bench-$label rc=$?"
}
bench new X=1
bench direct CUTE_RS_ATTENTION_EPILOGUE=direct
bench ovl-direct CUTE_RS_ATTENTION=overlap CUTE_RS_ATTENTION_EPILOGUE=direct
bench ovl-tma CUTE_RS_ATTENTION=overlap
{ echo "== the new defaults against main's (main: d64/d256 = the direct epilogue run, d128 = 128x128 with the direct epilogue)"
  python3 "$T/ab_compare.py" "$L/sdpa.json" new="$L/host-new.json" \
    main="$L/host-direct.json:64,256" main="$L/host-ovl-direct.json:128"
  echo; echo "== the epilogue alone on the 128x128 tiles: TMA over direct"
  python3 "$T/ab_compare.py" "$L/sdpa.json" tma="$L/host-ovl-tma.json:64,128" direct="$L/host-ovl-direct.json:64,128"
} > "$L/ab.md" 2>&1
tee -a "$S" < "$L/ab.md"
# F
for tool in racecheck synccheck; do
  b=$(budget 30); [ "$b" -gt 8 ] || { t "F $tool SKIP (time)"; continue; }
  CUTE_RS_ATTENTION=overlap timeout "$b" compute-sanitizer --tool $tool --print-limit 5 "$H" attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 400 --head-dim 128 --check > "$L/san-$tool.txt" 2>&1
  t "F $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' "$L/san-$tool.txt" | head -2 | tr '\n' ' ' | cut -c1-160)"
done
t end
