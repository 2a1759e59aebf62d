#!/bin/bash
# Attention (#33), one part of the lead's final call: at most 60 s of GPU time (each step's
# timeout is cut to what is left of 60 s; a step with under 4 s left is skipped). Needs:
#   H       the merged tree's release host, built with
#           CUTE_RS_ARCH=sm_90a CUTE_RS_KERNEL_FEATURES=attention/measure cargo build --release -p host
#   PTXDIR  a folder holding attention.ptx cut to what this script runs, so the driver JITs 10
#           entries, not the measure build's 38 (that takes longer than these timeouts):
#           python3 tools/attention/cut_ptx.py target/ptx/attention.ptx .gpu/<name>/ptx tile
#           (the 8 default entries + tile_bf16_d128/d256)
#   OUT     where the logs go; sdpa_bench.py and compare.py are taken from tools/attention/.
# Prints (and appends to $OUT/attn-summary.txt), each line after "[t s]" since the start:
#   warm-up rc=R            `host run --only attention --sweep-attention 0` (the 14 fixed
#                           cases: every default entry's first launch, so the driver's JIT —
#                           lazy, per entry — is not inside the sweep's timeout)
#   sweep90: rc=R, problems started P, last: <line>
#                           `host run --only attention --sweep-attention 90` (seed 12: it has
#                           #59 and #85, where the lead's call of 2026-11-29 stalled; d64
#                           problems now on the tile AttentionKernel::for_problem picks);
#                           rc=124: a launch that did not finish, the last line names it;
#                           then the sweep's summary row and "N passed, M failed"
#   sdpa, bench-default rc=R, bench-tile rc=R
#   then compare.py's tables (TFLOP/s, ours/cuDNN per shape, d64 and d128, causal and not) of
#   the default build (each d64 row names its tile, 128×128 or 192×128) and of
#   CUTE_RS_ATTENTION=tile (d128 at 128×176: FlashAttention-3's non-causal d128 tile with the
#   intra-warpgroup overlap, the one d128 candidate).
set -u
: "${H:?set H to the release host}" "${OUT:?}"
T=$(cd "$(dirname "$0")/../../attention" && pwd)
[ -n "${PTXDIR:-}" ] && export CUTE_RS_PTX_DIR=$PTXDIR
export CUDA_CACHE_MAXSIZE=4294967296
J=$OUT/attn; mkdir -p "$J"
S=$OUT/attn-summary.txt
T0=$(date +%s)
t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
# the timeout for a step that wants $1 seconds: what is left of 60 s, or 0 (skip)
budget() { local l=$(( 60 - ($(date +%s) - T0) )); [ "$l" -lt 4 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
b=$(budget 25); [ "$b" -gt 0 ] && { timeout "$b" "$H" run --only attention --sweep-attention 0 > "$J/warm.txt" 2>&1; t "warm-up rc=$? $(tail -1 "$J/warm.txt")"; }
b=$(budget 12); if [ "$b" -gt 0 ]; then
  timeout "$b" "$H" run --only attention --sweep-attention 90 > "$J/run.txt" 2>&1; rc=$?
  t "sweep90: rc=$rc, problems started $(grep -c '^\[run\]' "$J/run.txt"), last: $(grep '^\[run\]' "$J/run.txt" | tail -1 | cut -c1-150)"
  grep -E '^attention sweep +90|passed, .* failed' "$J/run.txt" | cut -c1-160 | tee -a "$S"
fi
b=$(budget 15); [ "$b" -gt 0 ] && { timeout "$b" python3 "$T/sdpa_bench.py" --backends cudnn --head-dims 64,128 --rounds 1 --json > "$J/sdpa.json" 2> "$J/sdpa.err"; t "sdpa rc=$?"; }
for v in default tile; do
  b=$(budget 10); [ "$b" -gt 0 ] || { t "skip bench-$v (time)"; continue; }
  if [ $v = default ]; then unset CUTE_RS_ATTENTION; else export CUTE_RS_ATTENTION=$v; fi
  timeout "$b" "$H" bench attention --json > "$J/host-$v.json" 2> "$J/host-$v.err"; t "bench-$v rc=$?"
done
unset CUTE_RS_ATTENTION
for v in default tile; do
  [ -s "$J/host-$v.json" ] && { echo "== $v"; python3 "$T/compare.py" "$J/host-$v.json" "$J/sdpa.json"; }
done 2>&1 | grep -v '^| 256 ' | tee "$J/compare.md" | tee -a "$S"
t end
