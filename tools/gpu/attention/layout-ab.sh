#!/usr/bin/env bash
# Attention (#33), helper attn's follow-up (the lead's 10:15 call, 2026-11-29 s8): at most ~90 s of
# GPU time including the JIT. Is part of cuDNN's lead at 512-2k tokens the memory layout the bench
# gives it? tools/attention/sdpa_bench.py hands cuDNN torch's contiguous (b, h, s, d); `host bench
# attention` gives ours (b, s, h, d) (FlashAttention's layout, a head's rows 2048 elements apart).
# Both kernels on both layouts, seqlen 512/1k/2k, bf16, 16k tokens, same call:
#   W  warm-up: one d128 launch (the JIT of the 5 bf16 default entries: ptx/attention.ptx, cut)
#   D  sdpa_bench.py --backends cudnn --layout bhsd, then --layout bshd
#   E  host bench attention (CUTE_RS_ATTENTION_SEQLENS=512,1024,2048): bshd (default), then
#      CUTE_RS_ATTENTION_LAYOUT=bhsd, then bshd again (noise)
#   T  ab_compare.py tables: ours(bshd) and ours(bhsd) over cuDNN(bhsd) and over cuDNN(bshd)
#   D=.gpu/attn8b OUT=... bash .gpu/attn8b/go.sh
set -u
D=${D:-.gpu/attn8b}
: "${OUT:?}"
S=$OUT/summary.txt; L=$OUT/logs; mkdir -p "$L"
BUDGET=${BUDGET:-88}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-attn8}
export CUTE_RS_PTX_DIR=$PWD/$D/ptx
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/h_attn8b','wb'))"
  chmod +x /tmp/h_attn8b; H=/tmp/h_attn8b
fi
T=$D/tools/attention
T0=$(date +%s)
t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE CUTE_RS_ATTENTION_LAYOUT
b=$(budget 60); timeout "$b" "$H" attention --batch 32 --heads 16 --seqlen-q 512 --head-dim 128 > "$L/warm.txt" 2>&1
t "W warm-up rc=$? $(tail -1 "$L/warm.txt" | cut -c1-100)"
for lay in bhsd bshd; do
  b=$(budget 20); [ "$b" -gt 0 ] || { t "D sdpa-$lay SKIP (time)"; continue; }
  timeout "$b" python3 "$T/sdpa_bench.py" --backends cudnn --head-dims 64,128,256 --seqlens 512,1024,2048 --rounds 2 --layout $lay --json > "$L/sdpa-$lay.json" 2> "$L/sdpa-$lay.err"
  t "D sdpa cudnn $lay rc=$? $(grep -c tflops "$L/sdpa-$lay.json") rows, errors $(grep -c '"error"' "$L/sdpa-$lay.json")"
done
export CUTE_RS_ATTENTION_SEQLENS=512,1024,2048
bench() { # label, env...
  local label=$1; shift; local b; b=$(budget 12); [ "$b" -gt 0 ] || { t "E bench-$label SKIP (time)"; return; }
  env "$@" timeout "$b" "$H" bench attention --json > "$L/host-$label.json" 2> "$L/host-$label.err"; t "E bench-$label rc=$?"
}
bench bshd X=1
bench bhsd CUTE_RS_ATTENTION_LAYOUT=bhsd
bench bshd2 X=1
{ echo "== cuDNN on torch's (b,h,s,d): ours on (b,s,h,d) [bshd, bshd2] and on (b,h,s,d) [bhsd]"
  python3 "$T/ab_compare.py" "$L/sdpa-bhsd.json" bhsd="$L/host-bhsd.json" bshd="$L/host-bshd.json" bshd2="$L/host-bshd2.json"
  echo; echo "== cuDNN on (b,s,h,d) (a transposed view): the same runs of ours"
  python3 "$T/ab_compare.py" "$L/sdpa-bshd.json" bhsd="$L/host-bhsd.json" bshd="$L/host-bshd.json" bshd2="$L/host-bshd2.json"
} > "$L/ab.md" 2>&1
tee -a "$S" < "$L/ab.md"
t end
