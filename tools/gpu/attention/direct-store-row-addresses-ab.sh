#!/usr/bin/env bash
# (session 19, lead) The attention epilogue's direct stores from two row addresses (each store a constant offset; were
# three 64-bit products a store) beside device::hint::opaque_index — the 176-key d128 tile (>= 8k keys, non-causal)
# and d256's 128 x 80 (>= 2k keys) store O this way. main / new PTX alternated in one process each (one host, the
# new release host, every module embedded; main's and new's attention and cut hgemm modules through CUTE_RS_PTX_DIR).
#  C attention --check on the direct path's edges; host run --only attention and --only hgemm at an unseen seed and
#    the FP8 sweep, on the new host's embedded modules; memcheck / racecheck on the direct path;
#  A attention --bench: d256 2k / 4k / 8k, d128 8k / 16k (176 keys), d128 2k, d64 2k, d256 causal 4k; two rounds.
# Package: NEW_PTX=... MAIN_PTX=... HOST=... bash tools/gpu/attention/opaque-index-pack.sh (D=.gpu/s19c).   D=.gpu/s19c bash tools/gpu/attention/direct-store-row-addresses-ab.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh s19c
mkdir -p /tmp/p19full; cp $P/*.ptx /tmp/p19full/
for v in main new; do mkdir -p /tmp/p19$v; cp $P/*.ptx /tmp/p19$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p19$v/$f.ptx; done; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p19$v timeout 150 $H "$@" < /dev/null; }
c() { run full "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo '(gemm|attention)_[a-z0-9_]*' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c attention --batch 1 --heads 2 --seqlen-q 1000 --seqlen-k 2100 --head-dim 256
c attention --batch 2 --heads 4 --seqlen-q 2049 --head-dim 256 --heads-kv 2
c attention --batch 1 --heads 2 --seqlen-q 9001 --head-dim 128
c attention --batch 1 --heads 4 --seqlen-q 333 --seqlen-k 8200 --head-dim 128 --heads-kv 1
c attention --batch 1 --heads 2 --seqlen-q 3000 --seqlen-k 2500 --head-dim 256 --causal bottom-right --dtype f16
c attention --batch 2 --heads 2 --seqlen-q 1000 --head-dim 64
run full run --only attention --seed 1931 > $R/ra.txt 2>&1; t "C host run --only attention --seed 1931 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E "FAIL" $R/ra.txt | head -3 | cut -c1-200 | tee -a $S
timeout 60 compute-sanitizer --tool memcheck env CUTE_RS_PTX_DIR=/tmp/p19full $H attention --batch 1 --heads 2 --seqlen-q 1000 --seqlen-k 2100 --head-dim 256 --check > $R/m1.txt 2>&1
t "S memcheck d256 direct rc=$? $(grep -E 'ERROR SUMMARY' $R/m1.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/m1.txt | head -1)"
timeout 60 compute-sanitizer --tool racecheck env CUTE_RS_PTX_DIR=/tmp/p19full $H attention --batch 1 --heads 2 --seqlen-q 1000 --seqlen-k 2100 --head-dim 256 --check > $R/r1.txt 2>&1
t "S racecheck d256 direct rc=$? $(grep -E 'RACECHECK SUMMARY' $R/r1.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/r1.txt | head -1)"
a() { local v=$1; shift; run $v attention "$@" --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do for s in "--batch 8 --heads 8 --seqlen-q 2048 --head-dim 256" "--batch 4 --heads 8 --seqlen-q 4096 --head-dim 256" \
  "--batch 2 --heads 8 --seqlen-q 8192 --head-dim 256" "--batch 2 --heads 16 --seqlen-q 8192 --head-dim 128" \
  "--batch 1 --heads 16 --seqlen-q 16384 --head-dim 128" "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128" \
  "--batch 8 --heads 32 --seqlen-q 2048 --head-dim 64" "--batch 4 --heads 8 --seqlen-q 4096 --head-dim 256 --causal top-left"; do
  [ $(left) -gt 200 ] || break; for v in main new; do a $v $s; done; done; done
run full run --only hgemm --seed 1931 > $R/rh.txt 2>&1; t "C host run --only hgemm --seed 1931 rc=$? $(grep -E 'passed|failed' $R/rh.txt | tail -1)"
grep -E "FAIL" $R/rh.txt | head -3 | cut -c1-200 | tee -a $S
[ $(left) -gt 70 ] && { run full gemm --dtype e4m3 > $R/f.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f.txt | tail -1)"; }
t end
