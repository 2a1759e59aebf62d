#!/usr/bin/env bash
# (session 17, lead; for the next device call) The tile scheduler's parameters built on the host (this branch) against
# main, one call. C: the branch's --check on the paths the parameters drive (clusters of 2 with edges, every majority,
# the stream-K tail of 67 cluster tiles on 66 clusters, a Hilbert table, the 128x128 ping-pong, K = 0, the fused
# entry, FP8 fast / split-K / the per-tensor tile rule) and racecheck on a stream-K shape; G bf16 TN 2048^3 / 4096^3 /
# 8192^3 main / branch alternated, three rounds (sustained and burst, ratios to cuBLAS in each process); F FP8 e4m3
# 4096^3 / 8192^3 main / branch, two rounds; A attention (its Params::sched moved: FastDivmod is 16 bytes on the branch):
# the branch's host run --only attention, and d128 2k bf16 --bench main / branch, two rounds. Package: bash
# tools/gpu/gemm/scheduler-params-pack.sh (D=.gpu/s17b: main/ and new/, each host.xz + hgemm.ptx.xz; stub.ptx + stub-families.txt,
# attention not stubbed).      D=.gpu/s17b bash tools/gpu/gemm/scheduler-params-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s17b
for v in main new; do x $D/$v/host.xz /tmp/h17$v && chmod +x /tmp/h17$v; mkdir -p /tmp/p17$v; cp $P/*.ptx /tmp/p17$v/
  x $D/$v/hgemm.ptx.xz /tmp/p17$v/hgemm.ptx; done
run() { local v=$1; shift; CUTE_RS_PTX_DIR=/tmp/p17$v timeout 90 /tmp/h17$v "$@"; }
c() { run new gemm "$@" --check > $R/c.txt 2>&1; t "C rc=$? | $* | $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'error|mismatch' $R/c.txt | head -1 | cut -c1-100)"; }
for v in main new; do run $v gemm --ta --dtype bf16 --m 256 --check > $R/w.txt 2>&1; t "W $v rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
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
c --dtype e4m3 --fast-accum --m 128 --n 2048 --k 8192
timeout 120 compute-sanitizer --tool racecheck env CUTE_RS_PTX_DIR=/tmp/p17new /tmp/h17new gemm --ta --dtype bf16 --m 17152 --n 256 --k 2112 --check > $R/rc.txt 2>&1
t "C racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASS|FAIL' $R/rc.txt | tr '\n' ' ' | cut -c1-120)"
g() { local v=$1; shift; run $v gemm "$@" --bench > $R/g.txt 2>&1
  t "G $v rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2 3; do for m in 2048 4096 8192; do [ $(left) -gt 40 ] || break; for v in main new; do g $v --ta --dtype bf16 --m $m; done; done; done
for i in 1 2; do for m in 4096 8192; do [ $(left) -gt 30 ] || break; for v in main new; do g $v --dtype e4m3 --m $m; done; done; done
for v in main new; do run $v attention --batch 1 --heads 2 --seqlen-q 300 --seqlen-k 1000 --head-dim 128 --check > $R/w.txt 2>&1; t "W attention $v rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"; done
CUTE_RS_PTX_DIR=/tmp/p17new timeout 150 /tmp/h17new run --only attention > $R/at.txt 2>&1; t "A host run --only attention rc=$? $(grep -E 'passed|failed' $R/at.txt | tail -1)"
a() { local v=$1; run $v attention --batch 8 --heads 16 --seqlen-q 2048 --head-dim 128 --bench > $R/a.txt 2>&1
  t "A $v rc=$? | $(grep -E 'TFLOP' $R/a.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do [ $(left) -gt 20 ] || break; for v in main new; do a $v; done; done
t end
