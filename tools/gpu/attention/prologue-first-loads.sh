#!/usr/bin/env bash
# (session 22, lead) Attention's first loads from the prologue (the CTA's first tile's Q and first ST key blocks issued
# before the roles split, as the GEMMs'): the new attention module (every entry, through CUTE_RS_PTX_DIR) for the checks (--check on
# GQA / MQA / causal / varlen-like edges / f16 / the 192-row d64 tile, host run --only attention at an unseen seed,
# memcheck / racecheck / synccheck), then main / new attention modules (cut to the bf16 entries) alternated through
# CUTE_RS_PTX_DIR: `attention --bench` at 16k tokens, short sequences first.
# Package: $D/host.xz, $D/{main,new}/attention.ptx.xz (whole modules), stub.ptx + stub-families.txt.   D=.gpu/s22e bash tools/gpu/attention/prologue-first-loads.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh s22e
for v in main new; do mkdir -p /tmp/pa$v; cp $P/*.ptx /tmp/pa$v/; x $D/$v/attention.ptx.xz /tmp/pa$v/attention.ptx; done
export CUTE_RS_PTX_DIR=/tmp/panew  # the new attention module, every entry
full() { timeout 200 $H "$@" < /dev/null; }
c() { full attention "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c --batch 2 --heads 4 --seqlen-q 1000 --seqlen-k 2100 --head-dim 128 --heads-kv 2
c --batch 1 --heads 2 --seqlen-q 3000 --head-dim 256 --causal bottom-right
c --batch 2 --heads 2 --seqlen-q 1000 --head-dim 64 --dtype f16
c --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 8200 --head-dim 128 --heads-kv 1
c --batch 8 --heads 32 --seqlen-q 2048 --head-dim 64
c --batch 3 --heads 2 --seqlen-q 1 --seqlen-k 1 --head-dim 128
c --batch 1 --heads 1 --seqlen-q 70 --seqlen-k 5 --head-dim 256 --causal top-left
full run --only attention --seed 2202 > $R/ra.txt 2>&1; t "C host run --only attention --seed 2202 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 700 --seqlen-k 900 --head-dim 128 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/pa$v timeout 150 $H "$@" < /dev/null; }
a() { local v=$1; shift; run $v attention "$@" --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--batch 32 --heads 16 --seqlen-q 512 --head-dim 128" "--batch 32 --heads 32 --seqlen-q 512 --head-dim 64" \
  "--batch 32 --heads 8 --seqlen-q 512 --head-dim 256" "--batch 16 --heads 16 --seqlen-q 1024 --head-dim 128" \
  "--batch 16 --heads 16 --seqlen-q 1024 --head-dim 128 --causal top-left" "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128" \
  "--batch 16 --heads 32 --seqlen-q 1024 --head-dim 64"; do
  for v in main new; do [ $(left) -gt 20 ] || break; a $v $s; done; done; done
t end
