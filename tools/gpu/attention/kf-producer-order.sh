#!/bin/bash
# Attention (#33): FlashAttention-3's producer order (`kf`: K_n loaded before V_{n-1}) and, with
# it, the softmax pinned above P·V's wait (`pinkf`), against the default overlapped mainloop on
# the same 128x128 tiles (`overlap`), bf16 d64 and d128. From helper fa3sass's SASS reading
# (/work/wt/fa3sass/FINDINGS.md, 2026-11-29): ptxas waits for P·V before the softmax unless a
# block it cannot remove sits between (the pin); the pin alone repeats `split` (slower: the V
# release then holds back the next K loads in our K_n, V_n order), so pin and order go together.
# At most 60 s of GPU time (each step's timeout cut to what is left; under 4 s: skipped).
# Needs:
#   H       a release host built with the attention family's measuring entries:
#           CUTE_RS_ARCH=sm_90a CUTE_RS_KERNEL_FEATURES=attention/measure cargo build --release -p host
#   PTXDIR  attention.ptx cut to the default entries + kf + pinkf (the measure module's 40+
#           entries take longer to JIT than these timeouts):
#           python3 tools/attention/cut_ptx.py target/ptx/attention.ptx $PTXDIR kf pinkf
#   OUT     where the logs go; ab_compare.py is taken from tools/attention/.
# Prints (and appends to $OUT/kf-summary.txt): the warm-up, a 40-problem sweep under each variant
# (its bf16 d64/d128 problems; the others fail naming the missing entry and are not counted as
# real failures), --check of two odd shapes each,
# then `host bench attention` under overlap, kf, pinkf and the TFLOP/s tables kf/overlap and
# pinkf/overlap (d64, d128).
set -u
: "${H:?set H to the measure-build release host}" "${OUT:?}"
T=$(cd "$(dirname "$0")/../../attention" && pwd)
[ -n "${PTXDIR:-}" ] && export CUTE_RS_PTX_DIR=$PTXDIR
export CUDA_CACHE_MAXSIZE=4294967296
J=$OUT/kf; mkdir -p "$J"
S=$OUT/kf-summary.txt
T0=$(date +%s)
t() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
budget() { local l=$(( 60 - ($(date +%s) - T0) )); [ "$l" -lt 4 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
unset CUTE_RS_ATTENTION
b=$(budget 30); [ "$b" -gt 0 ] && { timeout "$b" "$H" run --only attention --sweep-attention 0 > "$J/warm.txt" 2>&1; t "warm-up rc=$? $(tail -1 "$J/warm.txt" | cut -c1-120)"; }
for v in kf pinkf; do
  b=$(budget 8); [ "$b" -gt 0 ] || { t "skip sweep-$v (time)"; continue; }
  CUTE_RS_ATTENTION=$v timeout "$b" "$H" run --only attention --sweep-attention 40 > "$J/run-$v.txt" 2>&1
  # problems the variant has no entry for (f16, d256) are listed as failures naming that: not counted
  t "sweep40 $v rc=$? $(grep -E 'passed, .* failed' "$J/run-$v.txt" | tail -1 | cut -c1-60); real failures: $(grep -E 'FAIL' "$J/run-$v.txt" | grep -vcE 'no entry at head dim|not in this build|^attention sweep')"
  for shape in "--batch 2 --heads 6 --heads-kv 2 --seqlen-q 1000 --seqlen-k 777 --head-dim 128 --causal bottom-right" \
               "--batch 3 --heads 4 --seqlen-q 333 --seqlen-k 1999 --head-dim 64"; do
    b=$(budget 5); [ "$b" -gt 0 ] || continue
    CUTE_RS_ATTENTION=$v timeout "$b" "$H" attention $shape --check > "$J/c.txt" 2>&1
    t "check $v rc=$? $(grep -m1 kernel: "$J/c.txt" | cut -c9-60) $(tail -1 "$J/c.txt" | cut -c1-120)"
  done
done
for v in overlap kf pinkf; do
  b=$(budget 12); [ "$b" -gt 0 ] || { t "skip bench-$v (time)"; continue; }
  CUTE_RS_ATTENTION=$v timeout "$b" "$H" bench attention --json > "$J/host-$v.json" 2> "$J/host-$v.err"; t "bench-$v rc=$?"
done
for v in kf pinkf; do
  echo "== $v over overlap (128x128 tiles, bf16)"
  python3 "$T/ab_compare.py" "$J/none.json" "$v=$J/host-$v.json:64,128" "overlap=$J/host-overlap.json:64,128"
done 2>&1 | tee "$J/compare.md" | tee -a "$S"
t end
