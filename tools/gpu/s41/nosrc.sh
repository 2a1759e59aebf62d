#!/usr/bin/env bash
# (prepared in session 40 for the next) Branch s40-nosrc: the FP8 entries' epilogue without a source (SOURCE false:
# beta taken as 0, the code that reads C not compiled; hgemm_fp8.ptx 15.7 -> 7.0 MB, the 16-bit family's PTX
# unchanged). Its FP8 rows against main's in the same call: checks, the FP8 sweep, then the bench's FP8 shapes on
# both hosts in alternation (`host gemm --bench`, two rounds).
# $D/host.xz: the branch's host; $D0/host.xz: main's.
#   D=.gpu/s41a D0=.gpu/s40b NAME=s41a bash tools/gpu/s41/nosrc.sh
BUDGET=${BUDGET:-580}; . tools/gpu/lib.sh ${NAME:-s41a}
unset CUTE_RS_PTX_DIR
H1=$H; x ${D0:-.gpu/s40b}/host.xz /tmp/h0 && chmod +x /tmp/h0
# both hosts' FP8 and bf16 modules JIT in parallel
timeout 300 /tmp/h0 gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w0.txt 2>&1 < /dev/null &
timeout 300 /tmp/h0 gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0b.txt 2>&1 < /dev/null &
timeout 300 $H1 gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w1b.txt 2>&1 < /dev/null &
timeout 300 $H1 gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w1.txt 2>&1 < /dev/null
wait; t "warm main $(grep -Eo 'PASS|FAIL' $R/w0.txt | head -1) branch $(grep -Eo 'PASS|FAIL' $R/w1.txt | head -1)"
c() { timeout 120 $H1 gemm "$@" --check > $R/c.txt 2>&1 < /dev/null; t "C rc=$? $* | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; }
c --dtype e4m3 --m 126 --n 1030 --k 1664
c --dtype e4m3 --m 126 --n 1030 --k 1664 --block-scales
c --dtype e4m3 --m 4098 --n 1030 --k 1536 --block-scales
c --dtype e4m3 --m 1022 --n 1030 --k 1024 --out f32
c --dtype e4m3 --m 126 --n 1030 --k 1024 --bias n --act gelu --row-scales
c --dtype e5m2 --m 1024 --n 1024 --k 1024 --fast-accum
timeout 200 $H1 run --only hgemm --seed 4101 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 4101 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
# both builds in the same rounds: TAG (the branch), main-TAG
gg() { H=$H1; g "$@"; H=/tmp/h0; g main-"$@"; H=$H1; }
for i in 1 2; do [ $(left) -gt 80 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"; gg pt4096
  GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192"; gg pt8192
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; gg pt4096x7168
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; gg pt128
  GARGS="--dtype e4m3 --m 4096 --n 2112 --k 7168"; gg pt4096x2112
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"; gg blk4096
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales"; gg blk4096x7168
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --fast-accum"; gg fast4096
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384 --bias m --act gelu"; gg gelu4096x7168
done
t end
