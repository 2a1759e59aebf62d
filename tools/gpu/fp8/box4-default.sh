#!/usr/bin/env bash
# (session 58; issue #37) The box of four as the small-M block-scaled entry (`Fp8BlockEntry::StagedPp64x4`, where K
# is whole fours of k-tiles; the empty stages that completed a four cut short are gone: under memcheck they hung where a
# CTA took two tiles, runs s58a–s58b). Checks where the rule takes it (two tiles a CTA, an M edge, f32 D) and where it
# falls back (K not whole fours, M no multiple of 4), the three sanitizers with several tiles a CTA, the rule's least
# K against the global-scale entry, the FP8 sweep, then `host bench gemm --json` in both timing modes.
# Package $D: host.xz — this tree's release host (default kernel build: `cargo xtask build-kernels --arch sm_90a`,
#   `cargo build --release -p host-cli`, xz).
#   D=.gpu/s58d NAME=s58d bash tools/gpu/fp8/box4-default.sh   (~450 s)
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s58d}
warm
for a in "--m 128 --n 7168 --k 8192" "--m 192 --n 7168 --k 6144" "--m 252 --n 4096 --k 8192" \
         "--m 64 --n 7168 --k 6144" "--m 128 --n 2048 --k 8192 --out f32" "--m 128 --n 1000 --k 16384" \
         "--m 128 --n 7168 --k 6272" "--m 126 --n 7168 --k 8192"; do
  c gemm --dtype e4m3 $a --block-scales
done
for a in "--m 192 --n 7168 --k 6144" "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_SMS=38 --m 256 --n 2048 --k 2048" \
         "CUTE_RS_FP8_BLOCK=stagedpp64x4 --m 640 --n 2048 --k 1024"; do
  v=$(echo "$a" | grep -oE 'CUTE_RS_[A-Z0-9_]+=[a-z0-9]+' | tr '\n' ' '); g=$(echo "$a" | sed -E 's/CUTE_RS_[A-Z0-9_]+=[a-z0-9]+ //g')
  for tool in memcheck racecheck synccheck; do
    env $v timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 $g \
      --block-scales --check > $R/san.txt 2>&1 < /dev/null
    t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
  done
done
# the rule's least K (6144 FP8 elements) and the next: the box of four against the global-scale small-M entry
for i in 1 2; do for a in "--m 128 --n 7168 --k 6144" "--m 128 --n 7168 --k 8192"; do
  GARGS="--dtype e4m3 $a --block-scales"; g "x4-$i"; g "pp64-$i" CUTE_RS_FP8_BLOCK=pp64
done; done
timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "FP8 sweep rc=$? $(tail -1 $R/sweep.txt)"
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $R/sweep.txt $OUT/ 2>/dev/null
t end
