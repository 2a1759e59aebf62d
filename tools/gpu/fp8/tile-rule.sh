#!/usr/bin/env bash
# (session 16, lead) The per-tensor FP8 tile by shape (Fp8PromotedTile::for_problem: 128x128 `n128tma6` where 128x192
# wastes a third of its last N-tile and round, e.g. 4096^3; else 128x192 `n192tma`), on the default release host
# (n128tma6 now in the default build). C --check where the rule picks each tile; W the FP8 sweep (219); S memcheck
# on a 128x128-rule shape; P host gemm --dtype e4m3 --bench, the rule (default) against CUTE_RS_FP8_PROMOTED=n192tma
# alternated at 4096^3 (two rounds), the default at the other shapes. Package (D, default .gpu/s16e):
# host.xz, stub.ptx + stub-families.txt.   D=.gpu/s16e bash tools/gpu/fp8/tile-rule.sh
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh s16e
G="$H gemm --dtype e4m3"
timeout 150 $G --m 4096 --n 4096 --k 1024 --check > $R/c.txt 2>&1; t "C jit rc=$? $(grep -E 'PASS|FAIL' $R/c.txt | tail -1 | cut -c1-120)"
for s in "--m 4096 --n 4096 --k 2048" "--m 2048 --n 4096 --k 1000 --out f32" "--m 8192 --n 2048 --k 512" "--m 1000 --n 1030 --k 1024"; do
  timeout 60 $G $s --check > $R/c.txt 2>&1; t "C rc=$? | $s | $(grep -E 'PASS|FAIL' $R/c.txt | tail -1 | cut -c1-120)"; done
timeout 90 $G > $R/w.txt 2>&1 < /dev/null; t "W FP8 sweep rc=$? $(grep -E 'passed|failed' $R/w.txt | tail -1)"; grep FAIL $R/w.txt | head -3 | cut -c1-200 | tee -a $S
timeout 60 compute-sanitizer --tool memcheck $G --m 2048 --n 4096 --k 1000 --check > $R/s.txt 2>&1; t "S memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1)"
b() { timeout 30 $G "$@" --bench > $R/b.txt 2>&1; t "P ${CUTE_RS_FP8_PROMOTED:-rule} rc=$? | $* | $(grep -E 'TFLOP' $R/b.txt | sed -E 's/ +/ /g' | cut -d' ' -f4- | cut -c1-110 | tr '\n' '|')"; }
for i in 1 2; do b --m 4096; CUTE_RS_FP8_PROMOTED=n192tma b --m 4096; done
for s in "--m 8192" "--m 4096 --n 7168 --k 16384" "--m 4096 --n 2112 --k 7168" "--m 128 --n 7168 --k 16384"; do b $s; done
t end
