#!/usr/bin/env bash
# (sessions 59–60; issues #37 and #34) What sessions 59–60 changed, run: the FP8 sweep with its fixed block-scaled
# small-M problems (`check::gemm_fp8::SMALL_M_BLOCK`), `--check`s either side of the rule's least K (8192 FP8
# elements: the box of four from there, `Pp64` below), then the promoted per-tensor entry at 8192³ (#37: 0.988 of
# cuBLASLt in run s58d, ≥ 1.00 asked) against the default in alternation, each `--bench` now sustained and burst (no
# build: `CUTE_RS_HGEMM_SWIZZLE` bands of 4 and 16 N-tiles and the Hilbert curve, `CUTE_RS_HGEMM_CLUSTER=1`, 128 SMs
# — 32 whole waves of 128 × 128 tiles without the stream-K tail —, and the 128 × 192 tile), then
# `host bench gemm --json` (its new block row at 4096×2112×7168, its new FP8 burst rows).
# Package $D: host.xz — this tree's release host (default kernel build: `cargo xtask build-kernels --arch sm_90a`,
#   `cargo build --release -p host-cli`, xz).
#   BUDGET=570 D=.gpu/s60a NAME=s60a bash tools/gpu/fp8/per-tensor-order.sh   (~500 s)
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s60a}
warm
timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "FP8 sweep rc=$? $(tail -1 $R/sweep.txt) | $(grep -E '128x4096x8(192|272)|126x4096x8192' $R/sweep.txt | tr -s ' ' | cut -c1-90 | tr '\n' '/')"
for a in "--m 128 --n 7168 --k 8192" "--m 128 --n 7168 --k 7680" "--m 128 --n 7168 --k 6144"; do
  c gemm --dtype e4m3 $a --block-scales
done
GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192"
for i in 1 2; do [ $(left) -gt 330 ] || break
  g "default-$i"; g "band4-$i" CUTE_RS_HGEMM_SWIZZLE=4; g "band16-$i" CUTE_RS_HGEMM_SWIZZLE=16
  g "hilbert-$i" CUTE_RS_HGEMM_SWIZZLE=hilbert; g "c1-$i" CUTE_RS_HGEMM_CLUSTER=1; g "sms128-$i" CUTE_RS_HGEMM_SMS=128
  g "n192-$i" CUTE_RS_FP8_PROMOTED=n192tma
done
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $R/sweep.txt $OUT/ 2>/dev/null
t end
