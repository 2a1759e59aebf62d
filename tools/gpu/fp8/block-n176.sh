#!/usr/bin/env bash
# (session 52; issue #37; branch `s52-n176`) The block-scaled FP8 entry on 128 × 176 tiles
# (`gemm_fp8_e4m3_tn_promoted_staged_n176tma`: one m64n176k32 temporary, B's scales of up to three N-blocks a stage,
# the promotion in one of eight forms by the tile's offset in its first N-block, the TMA epilogue's third chunk moved
# back to the tile's last 64 columns), whose waves are whole at N = 4096 and 7168 where 128 × 192's leave one
# part-empty (run s52c: 128 × 192 at whole waves ran 0.90–0.99 of per-tensor). First the FP8 sweep on the branch's
# whole module (its block-scaled problems on the entry), `--check`s with the entry forced
# (CUTE_RS_FP8_BLOCK=staged${V}tma: every offset of the tile, N edges, M edges, K tails, bf16 and f32 D), the
# three sanitizers; then per-tensor, 128 × 192 forced (n192), 128 × 176 forced (n176) and the default alternated,
# ROUNDS rounds at 4096³, 4096×7168×16384, 8192³, 4096×2112×7168, 4096×3840×4096.
# Package $D: host.xz (the branch's), stub.ptx + stub-families.txt, hgemm_fp8.ptx.xz (the branch's whole FP8 module).
#   D=.gpu/s52d NAME=s52d bash tools/gpu/fp8/block-n176.sh   (~300 s)
# V=n160 runs the same for the branch's 128 × 160 entry (tools/gpu/fp8/block-n160.sh).
V=${V:-n176}
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s52d}
ROUNDS=${ROUNDS:-3}
# the FP8 sweep (`host gemm --dtype e4m3`: its block-scaled problems on the entry forced where it takes them)
CUTE_RS_FP8_BLOCK=staged${V}tma timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C FP8 sweep $V rc=$? PASS $(grep -c PASS $R/sweep.txt) FAIL $(grep -c FAIL $R/sweep.txt) $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
grep -E 'FAIL|rror' $R/sweep.txt | head -5 | cut -c1-220 | tee -a $S
B="gemm --dtype e4m3 --block-scales"
for s in "2048 4096 1024" "2048 2112 2048" "1000 1030 1040" "1024 1000 4096" "4096 200 2048" "512 7168 2000" \
         "2048 7168 528" "1024 1500 1024" "2048 4096 1024 --out f32" "1000 1030 1040 --out f32" "256 4096 8192"; do
  set -- $s
  CUTE_RS_FP8_BLOCK=staged${V}tma timeout 60 $H $B --m $1 --n $2 --k $3 ${4:-} ${5:-} --check > $R/c.txt 2>&1 < /dev/null
  t "C check $V $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=staged${V}tma timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 1024 --n 1000 --k 1040 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for i in $(seq $ROUNDS); do
  for s in "4096 4096 4096" "4096 7168 16384" "8192 8192 8192" "4096 2112 7168" "4096 3840 4096"; do
    [ $(left) -gt 12 ] || break 2
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g "pt$i"
    GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
    if [ $(( i % 2 )) = 1 ]; then g "n192-$i" CUTE_RS_FP8_BLOCK=stagedn192tma; g "$V-$i" CUTE_RS_FP8_BLOCK=staged${V}tma
    else g "$V-$i" CUTE_RS_FP8_BLOCK=staged${V}tma; g "n192-$i" CUTE_RS_FP8_BLOCK=stagedn192tma; fi
    g "default$i"
  done
done
t end
