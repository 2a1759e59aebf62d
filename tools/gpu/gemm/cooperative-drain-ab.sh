#!/usr/bin/env bash
# (session 48, issue #34) `CooperativeAccumulation` = `PlainAccumulation<0>` on every cooperative 128×256 entry (the
# 16-bit, fused and FP8 fast-accumulation ones): each k-tile's `wgmma`s waited for and its stage released at once
# (fast.cu's kernel 12; run s48a measured it on bf16 TN: +0.4–0.5 % burst). The new whole modules (hgemm, hgemm_fp8) for
# the checks, the sweep and the sanitizers (with the full racecheck report of the direct path through the buffers, kept
# per case); then main's and the new entries, cut to the A/B's, alternated in ROUNDS rounds.
# Package $D: host.xz, hgemm.ptx.xz + hgemm_fp8.ptx.xz (new, whole), {main,new}/{hgemm,hgemm_fp8}.ptx.xz (cut),
# stub.ptx + stub-families.txt.   D=.gpu/s48b NAME=s48b bash tools/gpu/gemm/cooperative-drain-ab.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s48b}
ROUNDS=${ROUNDS:-2}
c gemm --dtype bf16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1
c gemm --dtype f16 --ta --m 126 --n 300 --k 256 --beta -0.5
c gemm --dtype bf16 --tb --m 1003 --n 517 --k 1000 --ldc 1005 --beta 2
c gemm --dtype f16 --ta --tb --m 4096 --n 4096 --k 4096 --beta 1
c gemm --dtype bf16 --ta --m 128 --n 7168 --k 8192
c gemm --dtype bf16 --ta --m 4000 --n 4000 --k 4000 --out f32
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --ldc 1001 --beta 1 --bias m --act gelu
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --beta -1 --bias n --act silu
c gemm --dtype e4m3 --fast-accum --m 1000 --n 1030 --k 2048
c gemm --dtype e5m2 --fast-accum --m 4096 --n 4096 --k 4096
c gemm --dtype e4m3 --m 126 --n 7168 --k 1024
timeout 200 $H run --only hgemm --seed 4849 > $R/run.txt 2>&1 < /dev/null; t "host run --only hgemm --seed 4849 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep -E 'FAIL' $R/run.txt | head -3 | cut -c1-200 | tee -a $S
i=0; for a in "--dtype bf16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1" "--dtype f16 --m 1000 --n 1030 --k 520 --ldc 1001 --beta 1" \
    "--dtype f16 --m 1000 --n 1030 --k 520 --out f32 --beta 1" "--dtype bf16 --ta --m 1000 --n 1030 --k 2056"; do i=$((i+1))
  for tool in memcheck racecheck synccheck; do
    timeout 90 compute-sanitizer --tool $tool --print-limit 20 $H gemm $a --check > $R/san-$tool-$i.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool-$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool-$i.txt | head -1)"; done; done
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; for f in hgemm hgemm_fp8; do x $D/$v/$f.ptx.xz /tmp/pv$v/$f.ptx; done; done
ab "main new" "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192" "--dtype bf16 --m 4096" "--dtype bf16 --m 8192" \
  "--ta --tb --dtype f16 --m 4096" "--tb --dtype f16 --m 8192" "--ta --dtype bf16 --m 4096 --beta 1" \
  "--ta --dtype bf16 --m 4096 --bias m --act gelu" "--dtype e4m3 --fast-accum --m 4096" "--dtype e4m3 --fast-accum --m 8192"
t end
