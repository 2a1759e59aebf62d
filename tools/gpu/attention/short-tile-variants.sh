#!/usr/bin/env bash
# Attention (#33), helper attn's part of the lead's 10:05 call of 2026-11-29 (s8): at most ~150 s
# of GPU time including the driver's JIT (each step's timeout is cut to what is left of $BUDGET;
# a step with under 5 s left is skipped). Run from the repository root:
#   D=.gpu/attn8 OUT=... bash .gpu/attn8/go.sh
# $D holds host.xz (branch attn's release host, default build), ptx/attention.ptx (the
# `measure` build cut to the 10 default entries and attention_fwd_{q2_bf16_d64,q2_bf16_d128,
# xs_bf16_d64}, loaded through CUTE_RS_PTX_DIR; ptxas: 13 entries, 0 spills) and tools/attention/. $OUT/summary.txt
# has the lines that matter.
#   A  warm-up: host run --only attention --sweep-attention 0 (fixed cases; the JIT)
#   B  host run --only attention --sweep-attention 60 (the defaults)
#   C  each variant: CUTE_RS_ATTENTION=<v> host run --only attention --sweep-attention 40
#      (its bf16 shapes: GQA, varlen, both masks, odd lengths) + odd shapes with --check;
#      defaults on f16 / d256 odd shapes
#   D  cuDNN: sdpa_bench.py --backends cudnn at seqlen 512/1k/2k, d64/128/256
#   E  host bench attention (CUTE_RS_ATTENTION_SEQLENS=512,1024,2048): default, q2, xs, then
#      default, q2 again (the run-to-run noise); ab_compare.py tables; overlap (128x128
#      at d64, where the default is 192 rows) for the q2/xs-vs-same-tile ratio
#   F  ncu --set full on one launch: ours d128 seqlen 512 (default and xs) and cuDNN's kernel
set -u
D=${D:-.gpu/attn8}
: "${OUT:?}"
S=$OUT/summary.txt; L=$OUT/logs; mkdir -p "$L"
BUDGET=${BUDGET:-150}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-attn8}
export CUTE_RS_PTX_DIR=$PWD/$D/ptx
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/h_attn8','wb'))"
  chmod +x /tmp/h_attn8; H=/tmp/h_attn8
fi
T=$D/tools/attention
T0=$(date +%s)
t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE CUTE_RS_ATTENTION_SEQLENS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1 | tee -a "$S"
# A
b=$(budget 100); if [ "$b" -gt 0 ]; then
  timeout "$b" "$H" run --only attention --sweep-attention 0 > "$L/warm.txt" 2>&1; rc=$?
  t "A warm-up (fixed cases) rc=$rc: $(grep -E 'passed' "$L/warm.txt" | tail -1 | cut -c1-120)"
  grep -E "^FAIL|FAIL " "$L/warm.txt" | head -8 | cut -c1-220 | tee -a "$S"
fi
# B
b=$(budget 30); if [ "$b" -gt 0 ]; then
  timeout "$b" "$H" run --only attention --sweep-attention 60 > "$L/run60.txt" 2>&1; rc=$?
  t "B sweep 60 rc=$rc, last: $(grep '^\[run\]' "$L/run60.txt" | tail -1 | cut -c1-120)"
  grep -E '^attention sweep|passed, .* failed' "$L/run60.txt" | cut -c1-180 | tee -a "$S"
  grep -E "^FAIL|FAIL " "$L/run60.txt" | head -8 | cut -c1-220 | tee -a "$S"
fi
# C
chk() { # name, env..., -- args
  local name=$1; shift; local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local b; b=$(budget 15); [ "$b" -gt 0 ] || { t "C $name SKIP (time)"; return; }
  env "${envs[@]}" timeout "$b" "$H" attention "$@" --check > "$L/c-$name.txt" 2>&1; local rc=$?
  t "C $name rc=$rc $(grep -m1 'kernel:' "$L/c-$name.txt" | cut -c9-70) | $(grep -vE '^(device|problem|kernel):' "$L/c-$name.txt" | tail -2 | tr '\n' ' ' | cut -c1-160)"
}
vsweep() { # variant
  local b; b=$(budget 20); [ "$b" -gt 0 ] || { t "C sweep-$1 SKIP (time)"; return; }
  CUTE_RS_ATTENTION=$1 timeout "$b" "$H" run --only attention --sweep-attention 30 > "$L/sweep-$1.txt" 2>&1; local rc=$?
  # under a variant, the shapes it has no entry for (f16, other head dims) fail with "no entry" /
  # "not in this build": counted apart from real failures
  local fl=$(grep -E "^FAIL|FAIL " "$L/sweep-$1.txt"); local ne=$(echo "$fl" | grep -cE 'no entry at head dim|is not in this build')
  t "C sweep-$1 rc=$rc: $(grep -E 'passed, .* failed' "$L/sweep-$1.txt" | tail -1 | cut -c1-140) | FAIL lines $(echo "$fl" | grep -c FAIL), of them no-entry $ne"
  echo "$fl" | grep -vE 'no entry at head dim|is not in this build' | grep FAIL | head -4 | cut -c1-220 | tee -a "$S"
}
for v in q2 xs; do vsweep $v; done
chk q2-d128-br-gqa CUTE_RS_ATTENTION=q2 -- --batch 2 --heads 6 --heads-kv 2 --seqlen-q 1000 --seqlen-k 777 --head-dim 128 --causal bottom-right
chk q2-d128-tl CUTE_RS_ATTENTION=q2 -- --batch 3 --heads 4 --seqlen-q 555 --seqlen-k 1999 --head-dim 128 --causal top-left
chk q2-d64-gqa CUTE_RS_ATTENTION=q2 -- --batch 2 --heads 8 --heads-kv 2 --seqlen-q 333 --seqlen-k 1001 --head-dim 64
chk xs-d64-keyless CUTE_RS_ATTENTION=xs -- --batch 1 --heads 8 --heads-kv 1 --seqlen-q 777 --seqlen-k 131 --head-dim 64 --causal bottom-right
chk xs-d64-p59 CUTE_RS_ATTENTION=xs -- --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk xs-d64-tl CUTE_RS_ATTENTION=xs -- --batch 3 --heads 6 --heads-kv 3 --seqlen-q 999 --seqlen-k 1500 --head-dim 64 --causal top-left
chk d256-f16-tl X=1 -- --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 256 --causal top-left --dtype f16
chk d64-f16-gqa X=1 -- --batch 3 --heads 8 --heads-kv 2 --seqlen-q 1111 --seqlen-k 333 --head-dim 64 --dtype f16
# D
b=$(budget 30); [ "$b" -gt 0 ] && { timeout "$b" python3 "$T/sdpa_bench.py" --backends cudnn --head-dims 64,128,256 --seqlens 512,1024,2048 --rounds 2 --json > "$L/sdpa.json" 2> "$L/sdpa.err"; t "D sdpa cudnn rc=$?"; }
# E
export CUTE_RS_ATTENTION_SEQLENS=512,1024,2048
bench() { # label, env...
  local label=$1; shift; local b; b=$(budget 15); [ "$b" -gt 0 ] || { t "E bench-$label SKIP (time)"; return; }
  env "$@" timeout "$b" "$H" bench attention --json > "$L/host-$label.json" 2> "$L/host-$label.err"; t "E bench-$label rc=$?"
}
bench default X=1
bench q2 CUTE_RS_ATTENTION=q2
bench xs CUTE_RS_ATTENTION=xs
bench ovl CUTE_RS_ATTENTION=overlap
bench default2 X=1
bench q2b CUTE_RS_ATTENTION=q2
unset CUTE_RS_ATTENTION_SEQLENS
{ echo "== ours / cuDNN (bf16, 16k tokens, seqlen 512/1k/2k; default twice: the run-to-run noise), then q2 over each"
  python3 "$T/ab_compare.py" "$L/sdpa.json" q2="$L/host-q2.json" default="$L/host-default.json" \
    default2="$L/host-default2.json" q2b="$L/host-q2b.json" ovl="$L/host-ovl.json"
  echo; echo "== d64 on the 128x128 tile: xs over q2 and over overlap (the same tile without them)"
  python3 "$T/ab_compare.py" "$L/sdpa.json" xs="$L/host-xs.json:64" q2="$L/host-q2.json:64" ovl="$L/host-ovl.json:64" \
    q2b="$L/host-q2b.json:64"
} > "$L/ab.md" 2>&1
tee -a "$S" < "$L/ab.md"
# F
prof() { # name, want, cmd...
  local name=$1 want=$2; shift 2; local b; b=$(budget "$want"); [ "$b" -gt 10 ] || { t "F ncu-$name SKIP (time)"; return; }
  timeout "$b" "$@" > "$L/ncu-$name.txt" 2>&1; t "F ncu-$name rc=$?"
}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  prof ours 30 "$NCU" --set full -k regex:attention_fwd -c 1 -o "$OUT/ncu-ours-d128-s512" "$H" attention --batch 32 --heads 16 --seqlen-q 512 --head-dim 128
  prof cudnn 35 "$NCU" --set full -k regex:sdpa -c 1 -o "$OUT/ncu-cudnn-d128-s512" python3 "$T/sdpa_one.py"
  prof q2 30 env CUTE_RS_ATTENTION=q2 "$NCU" --set full -k regex:attention_fwd -c 1 -o "$OUT/ncu-q2-d128-s512" "$H" attention --batch 32 --heads 16 --seqlen-q 512 --head-dim 128
  for r in "$OUT"/ncu-*.ncu-rep; do
    [ -f "$r" ] && "$NCU" -i "$r" --page details --print-units base > "${r%.ncu-rep}.txt" 2>&1
  done
  { for r in "$OUT"/ncu-*-d128-s512.txt; do echo "== $(basename "$r")"
      grep -E '^\s+(Duration|Elapsed Cycles|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued Instruction)\b' "$r" | head -14
    done; } >> "$S" 2>&1
else
  t "F ncu: not found"
fi
t end
