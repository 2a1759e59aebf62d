#!/usr/bin/env bash
# (session 18, lead) main, the scheduler branch (new) and the branch with device::shared::to_shared_addr from the
# dynamic region's symbol (sa1), one call. C: the branch's --check on the scheduler's paths (as
# tools/gpu/gemm/scheduler-params-ab.sh), racecheck on a stream-K shape, attention's --check and host run --only attention;
# G bf16 TN 2048^3 / 4096^3 / 8192^3 main / new / sa1 alternated, two rounds; F FP8 e4m3 4096^3 /
# 8192^3, three rounds; A attention d128 2k and d64 1k --bench, two rounds. The checks run sa1. Package: bash tools/gpu/gemm/scheduler-params-shared-addr-pack.sh.
#      D=.gpu/s18a bash tools/gpu/gemm/scheduler-params-shared-addr-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh s18a
for v in main new sa1; do x $D/$v/host.xz /tmp/h18$v && chmod +x /tmp/h18$v; mkdir -p /tmp/p18$v; cp $P/*.ptx /tmp/p18$v/
  x $D/$v/hgemm.ptx.xz /tmp/p18$v/hgemm.ptx; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p18$v timeout 90 /tmp/h18$v "$@"; }
c() { run sa1 gemm "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
for v in main new sa1; do run $v gemm --ta --dtype bf16 --m 256 --check > $R/w.txt 2>&1; t "W $v rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
c --ta --dtype bf16 --m 600 --n 520 --k 700
c --dtype bf16 --m 1000 --n 1030 --k 999 --beta 1
c --tb --dtype bf16 --m 700 --n 520 --k 1300
c --ta --tb --dtype bf16 --m 520 --n 700 --k 1333
c --ta --dtype f16 --m 2048 --n 1700 --k 1008
c --ta --dtype bf16 --m 17152 --n 256 --k 2112
CUTE_RS_HGEMM_SWIZZLE=hilbert c --ta --dtype bf16 --m 1000 --n 1500 --k 1024
c --ta --dtype bf16 --m 1000 --n 1000 --k 512
c --ta --dtype bf16 --m 300 --n 260 --k 0 --beta 1
c --ta --dtype bf16 --m 1000 --n 1030 --k 999 --bias n --act gelu
c --dtype e4m3 --m 128 --n 2048 --k 8192
c --dtype e4m3 --m 1000 --n 1030 --k 1024
c --dtype e4m3 --m 2048 --n 4096 --k 256
c --dtype e4m3 --m 4096 --n 4000 --k 2048
c --dtype e4m3 --fast-accum --m 128 --n 2048 --k 8192
timeout 120 compute-sanitizer --tool racecheck env CUTE_RS_PTX_DIR=/tmp/p18sa1 /tmp/h18sa1 gemm --ta --dtype bf16 --m 17152 --n 256 --k 2112 --check > $R/rc.txt 2>&1
t "C racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASS|FAIL' $R/rc.txt | tr '\n' ' ' | cut -c1-120)"
for s in "--seqlen-q 300 --seqlen-k 1000 --head-dim 128" "--seqlen-q 777 --seqlen-k 4097 --head-dim 128 --heads-kv 1 --causal bottom-right" "--seqlen-q 333 --head-dim 64" "--seqlen-q 1000 --head-dim 256 --causal top-left"; do
  run sa1 attention --batch 1 --heads 2 $s --check > $R/w.txt 2>&1; t "C attention rc=$? | $s | $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
CUTE_RS_PTX_DIR=/tmp/p18sa1 timeout 150 /tmp/h18sa1 run --only attention > $R/at.txt 2>&1; t "C host run --only attention rc=$? $(grep -E 'passed|failed' $R/at.txt | tail -1)"
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "G $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do for m in 2048 4096 8192; do [ $(left) -gt 80 ] || break; for v in main new sa1; do g $v --ta --dtype bf16 --m $m; done; done; done
for i in 1 2 3; do for m in 4096 8192; do [ $(left) -gt 40 ] || break; for v in main new sa1; do g $v --dtype e4m3 --m $m; done; done; done
a() { local v=$1; shift; run $v attention --batch 8 "$@" --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $* | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do [ $(left) -gt 20 ] || break; for v in main new sa1; do a $v --heads 16 --seqlen-q 2048 --head-dim 128; a $v --heads 32 --seqlen-q 1024 --head-dim 64; done; done
t end
