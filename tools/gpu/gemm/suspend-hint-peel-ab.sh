#!/usr/bin/env bash
# (session 16, lead) A/B of three PTX changes, alternated in one call (one release host; the variants' PTX through
# CUTE_RS_PTX_DIR): vA main (a0af54f's PTX); vB the pipeline's waits with cuBLAS's suspend hint (mbarrier.try_wait
# ... 50000: NANOSLEEP.SYNCS); vC vB + the first k-tile peeled (immediate scale-d 0: the zeros a tile 64 CS2R, not 128);
# vD vC with the per-tensor FP8 128x128 entry on one temporary (n128tma6s under
# n128tma6's name). hgemm modules cut to the measured entries. Sections: K --check (vC: every majority, K = 0, edges,
# the stream-K tail); G bf16 TN 2048^3/4096^3/8192^3 vA/vB/vC, two rounds; F FP8 e4m3 4096^3/8192^3 (n192tma: vA/vC;
# n128tma6: vC paired / vD single), two rounds; A attention (bench_attention.py ours vs cuDNN) vA/vB, two rounds.
# Package (D, default .gpu/s16b): host.xz, native.xz, v{A,B,C,D}/{hgemm,attention}.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s16b bash tools/gpu/gemm/suspend-hint-peel-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh s16b
mkdir -p /tmp/py16b/cute_rs && cp python/cute_rs/*.py /tmp/py16b/cute_rs/ && cp python/bench_attention.py /tmp/py16b/
x $D/native.xz /tmp/py16b/cute_rs/_native.abi3.so
for v in A B C D; do mkdir -p /tmp/p16$v; cp $P/*.ptx /tmp/p16$v/ 2>/dev/null
  for f in $D/v$v/*.ptx.xz; do x $f /tmp/p16$v/$(basename $f .xz); done; done
g() { # variant, then host args; prints the ratio line
  local v=$1; shift
  CUTE_RS_PTX_DIR=/tmp/p16$v timeout 60 $H "$@" --bench > $R/g.txt 2>&1
  t "G $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -d' ' -f1-3,5-8,11- | tr '\n' '|' | cut -c1-230)"; }
# warm the JIT of each variant's hgemm cut
for v in A B C D; do CUTE_RS_PTX_DIR=/tmp/p16$v timeout 90 $H gemm --ta --dtype bf16 --m 256 --check > $R/w.txt 2>&1; t "W $v rc=$? $(grep -E 'PASS|FAIL' $R/w.txt | tail -1 | cut -c1-80)"; done
for v in A B; do CUTE_RS_PTX_DIR=/tmp/p16$v timeout 150 $H attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128 --check > $R/w.txt 2>&1; t "W attention $v rc=$? $(grep -E 'PASS|FAIL' $R/w.txt | tail -1 | cut -c1-80)"; done
k() { CUTE_RS_PTX_DIR=/tmp/p16C timeout 60 $H gemm "$@" --check > $R/k.txt 2>&1; t "K rc=$? | $* | $(grep -E 'PASS|FAIL|rror' $R/k.txt | tail -1 | cut -c1-90)"; }
k --ta --dtype bf16 --m 300 --n 260 --k 0
k --dtype bf16 --m 300 --n 260 --k 0 --beta 1
k --ta --dtype bf16 --m 1000 --n 1030 --k 999 --beta 1
k --dtype bf16 --m 1000 --n 1030 --k 999
k --tb --dtype bf16 --m 700 --n 520 --k 300
k --ta --tb --dtype bf16 --m 520 --n 700 --k 333
k --ta --dtype f16 --m 2048 --n 1700 --k 1008
k --ta --dtype bf16 --m 4096 --n 4096 --k 512
CUTE_RS_HGEMM_SCHEDULE=cooperative4 k --ta --dtype bf16 --m 1000 --n 1030 --k 999
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 env CUTE_RS_PTX_DIR=/tmp/p16C $H gemm --ta --dtype bf16 --m 600 --n 520 --k 300 --check > $R/rc.txt 2>&1
t "K racecheck vC rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL' $R/rc.txt | tr '\n' ' ' | cut -c1-120)"
for i in 1 2; do for m in 2048 4096 8192; do for v in A B C; do g $v gemm --ta --dtype bf16 --m $m; done; done; done
for i in 1 2; do for m in 4096 8192; do
  for v in A C; do CUTE_RS_FP8_PROMOTED=n192tma g $v gemm --dtype e4m3 --m $m; done
  for v in C D; do CUTE_RS_FP8_PROMOTED=n128tma6 g $v gemm --dtype e4m3 --m $m; done
done; done
for v in C D; do CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_PTX_DIR=/tmp/p16$v timeout 60 $H gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --check > $R/k.txt 2>&1; t "K fp8 n128tma6 $v rc=$? $(grep -E 'PASS|FAIL' $R/k.txt | tail -1 | cut -c1-80)"; done
ab() { local v=$1 i=$2; b=$(( $(left) - 15 )); [ $b -gt 20 ] || { t "A SKIP $v $i (time)"; return 1; }; [ $b -gt 60 ] && b=60
  (cd /tmp/py16b && CUTE_RS_PTX_DIR=/tmp/p16$v PYTHONPATH=/tmp/py16b timeout $b python3 bench_attention.py --head-dims 64,128,256 \
    --seqlens 1024,2048,8192 --masks none,causal --backends ours,cudnn --rounds 3 > $R/a-$v-$i.txt 2>&1); t "A $v round $i rc=$?"
  grep -E "^ +(64|128|256) " $R/a-$v-$i.txt | tee -a $S; }
for i in 1 2; do ab A $i && ab B $i; done
t end
