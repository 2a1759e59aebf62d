#!/usr/bin/env bash
# (session 19, lead) device::hint::opaque_index (the epilogue's per-tile addresses from a thread index whose range the
# optimizer knows again) — main / new alternated in one process each, one host (new's release host) and two PTX
# directories: main's and new's hgemm (cut to the entries below) and attention modules.
#  C --check: FP8 per-tensor on 128 x 128 (n128tma6) and 128 x 192, attention at every head dim (TMA and direct O
#    paths, causal, GQA, varlen edges), racecheck of one attention and one FP8 128 x 128 problem;
#  F FP8 e4m3 per-tensor 4096^3 (128 x 128 by the rule) three rounds, 8192^3 (128 x 192: unchanged PTX) one;
#  A attention --bench, non-causal d128 1k / 2k, d64 1k / 2k, d256 1k / 2k, causal d128 2k; two rounds.
# Package: bash tools/gpu/attention/opaque-index-pack.sh.      D=.gpu/s19b bash tools/gpu/attention/opaque-index-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh s19b
for v in main new; do mkdir -p /tmp/p19$v; cp $P/*.ptx /tmp/p19$v/; for f in hgemm attention; do x $D/$v/$f.ptx.xz /tmp/p19$v/$f.ptx; done; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p19$v timeout 90 $H "$@" < /dev/null; }
for v in main new; do run $v gemm --dtype e4m3 --m 256 --n 256 --k 512 --check > $R/w.txt 2>&1; t "W $v rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
  run $v attention --batch 1 --heads 2 --seqlen-q 300 --head-dim 128 --check > $R/w.txt 2>&1; t "W $v attention rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
c() { run new "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo '(gemm|attention)_[a-z0-9_]*' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
c gemm --dtype e4m3 --m 4096 --n 4096 --k 1024
c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024
c gemm --dtype e4m3 --m 4096 --n 4000 --k 2048
CUTE_RS_FP8_PROMOTED=n128tma6 c gemm --dtype e4m3 --m 600 --n 520 --k 640 --out f16
CUTE_RS_FP8_PROMOTED=n128tma6 c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024
CUTE_RS_FP8_PROMOTED=n128tma6 c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --out f32
c attention --batch 2 --heads 4 --seqlen-q 1000 --head-dim 128
c attention --batch 1 --heads 4 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --heads-kv 1 --causal bottom-right
c attention --batch 2 --heads 4 --seqlen-q 1000 --head-dim 64
c attention --batch 1 --heads 6 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --heads-kv 3 --causal bottom-right
c attention --batch 2 --heads 2 --seqlen-q 1000 --head-dim 256 --causal top-left
c attention --batch 1 --heads 2 --seqlen-q 2048 --head-dim 256
c attention --batch 1 --heads 2 --seqlen-q 9000 --head-dim 128
c attention --batch 2 --heads 2 --seqlen-q 2500 --head-dim 64 --dtype f16
timeout 60 compute-sanitizer --tool racecheck env CUTE_RS_PTX_DIR=/tmp/p19new $H attention --batch 1 --heads 2 --seqlen-q 700 --head-dim 128 --check > $R/rc1.txt 2>&1
t "S racecheck attention rc=$? $(grep -E 'RACECHECK SUMMARY|PASS|FAIL' $R/rc1.txt | tr '\n' ' ' | cut -c1-120)"
timeout 60 compute-sanitizer --tool racecheck env CUTE_RS_PTX_DIR=/tmp/p19new $H gemm --dtype e4m3 --m 4096 --n 1030 --k 512 --check > $R/rc2.txt 2>&1
t "S racecheck fp8 rc=$? $(grep -E 'RACECHECK SUMMARY|PASS|FAIL' $R/rc2.txt | tr '\n' ' ' | cut -c1-120)"
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "F $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2 3; do [ $(left) -gt 200 ] || break; for v in main new; do g $v --dtype e4m3 --m 4096; done; done
for v in main new; do g $v --dtype e4m3 --m 8192; done
a() { local v=$1; shift; run $v attention "$@" --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do for s in "--batch 16 --heads 16 --seqlen-q 1024 --head-dim 128" "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128" \
  "--batch 16 --heads 32 --seqlen-q 1024 --head-dim 64" "--batch 8 --heads 32 --seqlen-q 2048 --head-dim 64" \
  "--batch 16 --heads 8 --seqlen-q 1024 --head-dim 256" "--batch 8 --heads 8 --seqlen-q 2048 --head-dim 256" \
  "--batch 8 --heads 16 --seqlen-q 2048 --head-dim 128 --causal top-left"; do
  [ $(left) -gt 20 ] || break; for v in main new; do a $v $s; done; done; done
t end
