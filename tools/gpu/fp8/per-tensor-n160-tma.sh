#!/usr/bin/env bash
# (session 69; issue #37) The 128 × 160 per-tensor entry with the TMA epilogue (`_n160tma`: two 64-column buffers a
# warpgroup, the tile's three 16-bit chunks in turn, the last from column 96; 5 stages): `--check`s forced onto it
# (N edges, the last tile-column of N = 7168, K tails, split-K, the stream-K tail, f32 and f16 D, `beta`, an M edge),
# memcheck and racecheck, then two rounds alternated of `host gemm --dtype e4m3 --bench` (sustained and burst) against
# the rule's 128 × 128 and 128 × 192 at 4096×7168×16384 and 4096×7168×8192.
# Package $D: host.xz (the branch's release host: `CUTE_RS_FP8_PROMOTED=n160tma`), hgemm_fp8.ptx.xz (a build with the
# entry, cut to it and the per-tensor entries), hgemm.ptx.xz (`hgemm_bf16_tn` alone).
#   BUDGET=250 D=.gpu/s69e NAME=s69e bash tools/gpu/fp8/per-tensor-n160-tma.sh
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s69e}
F=CUTE_RS_FP8_PROMOTED=n160tma
for a in "--m 512 --n 384 --k 2048" "--m 1024 --n 7168 --k 1024" "--m 300 --n 200 --k 528" "--m 1000 --n 1000 --k 1024" \
  "--m 17 --n 520 --k 6160" "--m 2048 --n 1700 --k 1008" "--m 129 --n 257 --k 384 --out f32" \
  "--m 640 --n 1120 --k 512 --out f16" "--m 1000 --n 1030 --k 1008 --beta 0.5" "--m 1003 --n 960 --k 256"; do
  env $F timeout 90 $H gemm --dtype e4m3 $a --check > $R/c.txt 2>&1 < /dev/null
  t "C rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*|^host [a-z]+: .*' $R/c.txt | head -1 | cut -c1-160) $(grep -E '^gemm_fp8' $R/c.txt | head -1 | tr -s ' ' | cut -c1-90)"
done
for tool in memcheck racecheck; do
  env $F timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 1000 --n 1000 --k 1024 \
    --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
for i in 1 2; do
  for a in "--m 4096 --n 7168 --k 16384" "--m 4096 --n 7168 --k 8192"; do
    GARGS="--dtype e4m3 $a"
    for v in n128tma6 n160tma n192tma; do [ $(left) -gt 15 ] || break 3; g "$v$i" CUTE_RS_FP8_PROMOTED=$v; done
  done
done
t end
