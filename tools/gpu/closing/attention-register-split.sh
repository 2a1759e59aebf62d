#!/usr/bin/env bash
# (session 32) The closing call on the final tree's attention (FlashAttention-3's register split, 24 / 240, on d64's and
# d128's tiles): `host run --only attention` at two unseen seeds, --check on the 240-register tiles (d128's 176-key tile
# with GQA and f16, d64's 128-row tile under a bottom-right mask), memcheck / racecheck / synccheck on each of them,
# python/bench_attention.py's whole table, two rounds. The attention module from $D/attention.ptx.xz, the other families
# stubs (so the driver JITs one module).
# (Run s32e ran the same commands inline, before `san` and `attn_table` moved into tools/gpu/lib.sh.)
#          D=.gpu/s32e NAME=s32e bash tools/gpu/closing/attention-register-split.sh   Package: host.xz, native.xz, attention.ptx.xz, stub.ptx + stub-families.txt.
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s32e}
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
for seed in 3201 3202; do
  full run --only attention --seed $seed > $R/ra.txt 2>&1; t "C host run --only attention --seed $seed rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
  grep -E 'FAIL|sweep' $R/ra.txt | head -3 | cut -c1-200 | tee -a $S; done
for s in "--batch 1 --heads 2 --seqlen-q 333 --seqlen-k 9000 --head-dim 128" \
  "--batch 1 --heads 2 --seqlen-q 333 --seqlen-k 9000 --head-dim 128 --dtype f16" \
  "--batch 2 --heads 4 --heads-kv 2 --seqlen-q 1000 --seqlen-k 8200 --head-dim 128 --dtype f16" \
  "--batch 1 --heads 4 --heads-kv 1 --seqlen-q 900 --seqlen-k 700 --head-dim 64 --causal bottom-right --dtype f16"; do
  full attention $s --check > $R/c.txt 2>&1; t "C rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -E 'kernel|tile' $R/c.txt | head -1 | cut -c1-80)"; done
san "--batch 2 --heads 2 --seqlen-q 1000 --seqlen-k 1000 --head-dim 128 --causal top-left" \
  "--batch 2 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 64 --causal top-left" \
  "--batch 1 --heads 2 --seqlen-q 1000 --seqlen-k 1000 --head-dim 64 --dtype f16" \
  "--batch 1 --heads 2 --heads-kv 1 --seqlen-q 300 --seqlen-k 8200 --head-dim 128"
attn_table 2
t end
