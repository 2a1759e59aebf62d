#!/usr/bin/env bash
# (session 40) `beta != 0` on the TMA epilogue: a 16-bit C read into the chunk buffers by cp.async, each chunk
# staged through ldmatrix.x4.trans + stmatrix.x4.trans, stored by TMA. Checks, the sweep, sanitizers, and an A/B
# against main's register path (run s39d: 4096^3 --beta 1 0.50-0.51 of cuBLAS, 8192^3 0.67) in the same rounds.
# $D/host.xz: the branch's host; $D0/host.xz: main's (63b8185 = eef21aa's kernels).
#   D=.gpu/s40a D0=.gpu/s39d NAME=s40a bash tools/gpu/gemm/beta-tma-epilogue.sh
BUDGET=${BUDGET:-450}; . tools/gpu/lib.sh ${NAME:-s40a}
H1=$H; x ${D0:-.gpu/s39d}/host.xz /tmp/h0 && chmod +x /tmp/h0
c() { timeout 120 $H1 gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype bf16 --ta --m 4096 --n 4096 --k 1024 --beta 1
c --dtype bf16 --m 1000 --n 1030 --k 1040 --beta 0.5 --ldc 1008
c --dtype f16 --ta --tb --m 333 --n 517 --k 96 --beta -2 --ldc 344
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5 --bias n --act gelu --ldc 1008
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta -1 --bias m --act silu
c --dtype bf16 --ta --m 126 --n 1030 --k 512 --beta 1 --ldc 128
c --dtype bf16 --ta --m 128 --n 7168 --k 2048 --beta 1
c --dtype f16 --m 4096 --n 1032 --k 256 --beta 1
c --dtype f16 --out f32 --m 512 --n 520 --k 256 --beta 1
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5 --ldc 1001
timeout 300 $H1 run --only hgemm --seed 4001 --sweep-hgemm 300 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 4001 --sweep-hgemm 300 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
for a in "--dtype bf16 --ta --m 300 --n 520 --k 256 --beta 1 --ldc 304" "--dtype f16 --m 4096 --n 256 --k 128 --beta -1"; do
  for tool in memcheck racecheck synccheck; do [ $(left) -gt 200 ] || break
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H1 gemm $a --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
# both builds in the same rounds: TAG (the branch), main-TAG (main's register path)
gg() { H=$H1; g "$@"; H=/tmp/h0; g main-"$@"; H=$H1; }
for i in 1 2; do [ $(left) -gt 60 ] || break
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1"; gg bf4096-beta1
  GARGS="--dtype bf16 --m 8192 --n 8192 --k 8192 --beta 1"; gg bf8192nn-beta1
  GARGS="--dtype f16 --ta --m 4096 --n 4096 --k 4096 --beta -1"; gg f16-4096-beta
  GARGS="--dtype bf16 --ta --m 128 --n 7168 --k 8192 --beta 1"; gg bf128-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 512 --beta 1"; gg bf4096k512-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1 --bias n --act gelu"; gg gelu4096-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096"; gg bf4096-beta0
done
t end
