#!/usr/bin/env bash
# (session 40) C's loads under the tile's last k-tile's wgmmas (`CollectiveEpilogue::load`, branch s40-pre) against
# main's loads at the epilogue's start (run s40b: NN 4096^3 beta 1 0.957 / 0.967 of cuBLAS), both builds in the same
# rounds; checks (stream-K split units keep the epilogue's own loads), the sweep, racecheck/synccheck.
# $D/host.xz: the branch's host; $D0/host.xz: main's (3a4d245).
#   D=.gpu/s40c D0=.gpu/s40b NAME=s40c bash tools/gpu/gemm/beta-early-c-loads.sh
BUDGET=${BUDGET:-500}; . tools/gpu/lib.sh ${NAME:-s40c}
unset CUTE_RS_PTX_DIR
H1=$H; x ${D0:-.gpu/s40b}/host.xz /tmp/h0 && chmod +x /tmp/h0
# both modules' JIT in parallel
timeout 300 /tmp/h0 gemm --dtype bf16 --ta --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null &
timeout 300 $H1 gemm --dtype bf16 --ta --m 4096 --n 4096 --k 1024 --beta 1 --check > $R/w1.txt 2>&1 < /dev/null
t "C rc=$? --dtype bf16 --ta --m 4096 --n 4096 --k 1024 --beta 1 (JIT) | $(grep -Eo 'PASS|FAIL|rror.*' $R/w1.txt | head -1)"
wait; t "warm main $(grep -Eo 'PASS|FAIL' $R/w0.txt | head -1)"
c() { timeout 120 $H1 gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1
c --dtype f16 --tb --m 2048 --n 1032 --k 1024 --beta 0.25
c --dtype bf16 --ta --tb --m 1032 --n 2048 --k 512 --beta -1
c --dtype bf16 --ta --m 2048 --n 2048 --k 256 --beta 1
c --dtype f16 --m 128 --n 7168 --k 2048 --beta 2
c --dtype bf16 --ta --m 1000 --n 1030 --k 1040 --beta 0.5 --bias n --act gelu --ldc 1008
c --dtype bf16 --ta --m 126 --n 1030 --k 512 --beta 1 --ldc 128
c --dtype f16 --out f32 --m 512 --n 520 --k 256 --beta 1
c --dtype bf16 --ta --m 4096 --n 4096 --k 1024
timeout 200 $H1 run --only hgemm --seed 4002 --sweep-hgemm 300 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 4002 --sweep-hgemm 300 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
for a in "--dtype bf16 --ta --m 300 --n 520 --k 256 --beta 1 --ldc 304" "--dtype bf16 --m 1032 --n 1024 --k 512 --beta -1"; do
  for tool in racecheck synccheck; do [ $(left) -gt 220 ] || break
    timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H1 gemm $a --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
gg() { H=$H1; g "$@"; H=/tmp/h0; g main-"$@"; H=$H1; }
for i in 1 2; do [ $(left) -gt 70 ] || break
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"; gg bf4096nn-beta1
  GARGS="--dtype f16 --m 4096 --n 4096 --k 4096 --beta 1"; gg f16-4096nn-beta1
  GARGS="--dtype bf16 --m 8192 --n 8192 --k 8192 --beta 1"; gg bf8192nn-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 512 --beta 1"; gg bf4096k512-beta1
  GARGS="--dtype bf16 --ta --m 128 --n 7168 --k 8192 --beta 1"; gg bf128-beta1
  GARGS="--dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1 --bias m --act gelu"; gg gelu4096-beta1
  GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096"; gg bf4096nn-beta0
done
t end
