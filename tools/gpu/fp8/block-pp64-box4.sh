#!/usr/bin/env bash
# (session 56; issue #37) Small M with block scales: A's row scales in boxes of four k-tiles, one with the first of
# each four stages (`gemm_fp8_e4m3_tn_promoted_staged4_pp64`, `StagedScales64x4`, `CUTE_RS_FP8_BLOCK=stagedpp64x4`)
# against main's box of one k-tile with every stage (`stagedpp64`) and per-tensor scales; checks (several tiles a CTA,
# N and M edges, f32 D, k-tiles not in whole fours: the empty stages that complete a tile's last four) and the three
# sanitizers first.
# Package $D: host.xz — this tree's release host with its modules embedded, built after
#   `CUTE_RS_KERNEL_FEATURES=hgemm_fp8/fp8-variants cargo xtask build-kernels --arch sm_90a` (the entry is a measuring
#   variant), then the same variable set for `cargo build --release -p host-cli` (its build script rebuilds what it
#   embeds); xz of target/release/host.
#   D=.gpu/s57a NAME=s57a bash tools/gpu/fp8/block-pp64-box4.sh   (~500 s; ncu of both at the end if 100 s are left)
BUDGET=${BUDGET:-580}; . tools/gpu/lib.sh ${NAME:-s57a}
warm
export CUTE_RS_FP8_BLOCK=stagedpp64x4
# (k-tiles: 128, 32, 64, 4, 8, 32; then not in whole fours — 5, 9 and 65 — where the mainloop ends each tile with
# 3, 3 and 3 empty stages, the last two with two tiles on many CTAs; and boxes larger than A's scales — 60 and 4
# rows of 2 and 1 k-tiles: the box's rows and k-blocks past them zero-filled, its bytes still counted whole)
for a in "--m 128 --n 7168 --k 16384" "--m 64 --n 7168 --k 4096" "--m 256 --n 7168 --k 8192" \
         "--m 124 --n 1000 --k 512" "--m 1000 --n 2000 --k 1024" "--m 200 --n 3000 --k 4096 --out f32" \
         "--m 128 --n 1024 --k 640" "--m 1000 --n 2000 --k 1152" "--m 256 --n 7168 --k 8320" \
         "--m 60 --n 256 --k 256" "--m 4 --n 128 --k 128"; do
  c gemm --dtype e4m3 $a --block-scales
done
for a in "--m 640 --n 2048 --k 1024" "--m 640 --n 2048 --k 1152"; do for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 $a \
    --block-scales --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done; done
unset CUTE_RS_FP8_BLOCK
# (session 57) the block-scaled launch split over D's columns, its rest's entry and B-scale offset now made once
# (`Fp8BlockEntry::split_at`): 3840 + 256 and 6144 + 1024 columns, and a forced split
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales
c gemm --dtype e4m3 --m 1024 --n 7168 --k 16384 --block-scales
CUTE_RS_FP8_BLOCK=stagedn192tma CUTE_RS_FP8_BLOCK_SPLIT=384 c gemm --dtype e4m3 --m 1000 --n 1000 --k 1024 --block-scales
for i in 1 2 3; do [ $(left) -gt 40 ] || break
  for a in "--m 128 --n 7168 --k 16384" "--m 128 --n 7168 --k 8192" "--m 64 --n 7168 --k 16384" \
           "--m 128 --n 4096 --k 16384" "--m 256 --n 7168 --k 16384"; do
    [ $(left) -gt 30 ] || break
    GARGS="--dtype e4m3 $a"; g "pt$i"
    GARGS="--dtype e4m3 $a --block-scales"; g "box1-$i" CUTE_RS_FP8_BLOCK=stagedpp64; g "box4-$i" CUTE_RS_FP8_BLOCK=stagedpp64x4
  done
done
# where each waits, if time is left: one launch of each under ncu at 128×7168×16384 (read det-*.csv: stall reasons,
# DRAM throughput; `python3 tools/ncu_source.py --stall long_sb src-box4.csv.xz src-box1.csv.xz`)
B="gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --block-scales --bench"
if [ $(left) -gt 100 ]; then
  export SEC="--section SourceCounters --section WarpStateStats --section SpeedOfLight"
  export CUTE_RS_FP8_BLOCK=stagedpp64x4; ncu_src box4 -k regex:gemm_fp8_e4m3_tn_promoted_staged4_pp64 $H $B
  export CUTE_RS_FP8_BLOCK=stagedpp64; ncu_src box1 -k regex:gemm_fp8_e4m3_tn_promoted_staged_pp64 $H $B
fi
t end
