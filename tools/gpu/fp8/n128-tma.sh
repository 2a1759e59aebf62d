#!/usr/bin/env bash
# (session 15, lead; issue #37) The per-tensor promoted FP8 kernel on cuBLASLt's 4096^3 configuration (ncu, session
# 15: nvjet_sm90_qqtst_128x128_128x6_2x1, 128 x 128 tiles, 6 stages, cooperative, clusters of 2): 128 x 128 with paired
# temporaries, the TMA epilogue's two buffers a warpgroup (TwoBuffers, 32 KiB) and 6 or 5 stages
# (gemm_fp8_e4m3_tn_promoted_n128tma6 / _n128tma5, fp8-variants; CUTE_RS_FP8_PROMOTED=n128tma6|n128tma5) against the
# default 128 x 192 (n192tma). Package (D, default .gpu/s15c): host.xz (fp8-variants release host), hgemm.ptx.xz (cut:
# the FP8 entries), stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/s15c bash tools/gpu/fp8/n128-tma.sh
# Sections: C --check of both new entries (odd shapes, split-K, tails, f32 D, scales); W the FP8 sweep with n128tma6 as
# the per-tensor tile (its fused problems have no entry on it: counted apart); S memcheck; P host gemm --bench, the
# three alternated (two rounds; n128tma5 in the first only), ours / cuBLASLt in the same process.
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh s15c
G="$H gemm --dtype e4m3"
timeout 150 $G --m 512 --n 384 --k 2048 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check default rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for v in n128tma6 n128tma5; do while read -r args; do
  [ $(left) -gt 200 ] || { t "checks cut (time)"; break; }
  CUTE_RS_FP8_PROMOTED=$v timeout 30 $G $args --check > $R/c.txt 2>&1 < /dev/null
  t "C $v rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) | $args | $(grep -Eo 'gemm_fp8_e4m3_tn_promoted_n128tma[56]' $R/c.txt | head -1) $(grep -i error $R/c.txt | head -1 | cut -c1-120)"
done <<'EOF2'
--m 300 --n 200 --k 528
--m 129 --n 257 --k 384 --out f32
--m 17 --n 520 --k 6160
--m 1000 --n 1000 --k 1024
--m 1 --n 1 --k 16
--m 1100 --n 2000 --k 1040 --scale-a 0.5 --scale-b 1.25
--m 2048 --n 1700 --k 1008 --out f32
--m 128 --n 1024 --k 8192
--m 1024 --n 1000 --k 512 --out f32
EOF2
done
timeout 100 env CUTE_RS_FP8_PROMOTED=n128tma6 $G > $R/sweep.txt 2>&1 < /dev/null
t "W FP8 sweep (n128tma6) rc=$? PASS $(grep -c PASS $R/sweep.txt) FAIL $(grep -c FAIL $R/sweep.txt) of which no-entry $(grep FAIL $R/sweep.txt | grep -ci 'entry\|fused') | $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
grep FAIL $R/sweep.txt | grep -vi 'entry\|fused' | head -3 | cut -c1-200 | tee -a $S
for a in "--m 300 --n 200 --k 528" "--m 17 --n 520 --k 6160"; do
  CUTE_RS_FP8_PROMOTED=n128tma6 timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G $a --check > $R/m.txt 2>&1 < /dev/null
  t "S memcheck n128tma6 $a rc=$? $(grep -E 'ERROR SUMMARY' $R/m.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
done
bench() { local v=$1 r=$2; shift 2
  [ $(left) -gt 12 ] || { t "P SKIP $v $* (time)"; return; }
  CUTE_RS_FP8_PROMOTED=$v timeout 20 $G "$@" --bench --csv > $R/b.txt 2>&1 < /dev/null; local rc=$?
  local row=$(grep ',' $R/b.txt | grep -v '^family' | tail -1)
  echo "$r,$v,$*,$(echo "$row" | cut -d, -f9,10,11),rc=$rc" | tee -a $S
  { echo "== $r $v $*"; cat $R/b.txt; } >> $R/bench.txt; }
for r in 1 2; do
  for shape in "--m 4096 --n 4096 --k 4096" "--m 8192 --n 8192 --k 8192" "--m 4096 --n 7168 --k 16384" "--m 4096 --n 2112 --k 7168" "--m 128 --n 7168 --k 16384"; do
    bench n192tma $r $shape; bench n128tma6 $r $shape; [ $r = 1 ] && bench n128tma5 $r $shape
  done
done
t end
