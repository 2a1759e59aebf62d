#!/usr/bin/env bash
# (session 51, prepared for the next; issue #37; branch `s51-wide-bglobal`) The 128 × 192 block entry
# (`gemm_fp8_e4m3_tn_promoted_staged_n192tma`, `GmmaFp8AccumulationStagedWide`) with B's block scales read by the
# consumers from global memory two k-tiles ahead of their promotion, no B boxes with the stages (A's box alone): session
# 36 measured those boxes at 1.5–3 % of the block kernels at large shapes, where block / per-tensor is 0.85 (4096³) and
# 0.87 (4096×7168×16384) against the 0.90 (run s51a). 0 spills, 168 registers, 5,896 SASS instructions against
# 5,960 (ptxas 13.0). First `host run --only hgemm` (the 16-bit sweep: no FP8 entry; run s52b), `--check`s on the entry (forced by
# CUTE_RS_FP8_BLOCK=stagedn192tma: N off 128 and 192, M off 128, short K, the second N-block past N), the three
# sanitizers; then main's module ($D/old) against the branch's ($D/new), cut to the promoted entries, alternated, three
# rounds, with the per-tensor entry beside them.
# Package $D: host.xz (main's), stub.ptx + stub-families.txt, {old,new}/hgemm_fp8.ptx.xz (cut to the promoted entries),
# new-whole/hgemm_fp8.ptx.xz (main's whole module with the branch's `_staged_n192tma` in place, the only entry it changes).
#   D=.gpu/s52b NAME=s52b bash tools/gpu/fp8/block-n192-b-scales-global.sh   (~420 s: the sweep JITs both whole GEMM modules)
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s52b}
# the sweep and checks on the whole module (main's with the branch's block entry in place; `host run --only hgemm` runs the 16-bit entries only)
x $D/new-whole/hgemm_fp8.ptx.xz $P/hgemm_fp8.ptx
timeout 300 $H run --only hgemm --seed 5201 --sweep-hgemm 40 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 5201 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
B="gemm --dtype e4m3 --block-scales"
for s in "2048 2112 2048" "1000 1030 1040" "1024 1000 4096" "4096 200 2048" "512 7168 2000" "2048 7168 528"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedn192tma timeout 60 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "C check $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=stagedn192tma timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 1024 --n 1000 --k 1040 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for m in old new; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx; done
for i in 1 2 3; do for s in "4096 7168 16384" "4096 4096 4096" "8192 8192 8192" "4096 2112 7168"; do [ $(left) -gt 15 ] || break 2
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt CUTE_RS_PTX_DIR=/tmp/pold
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  if [ $(( i % 2 )) = 1 ]; then g old CUTE_RS_PTX_DIR=/tmp/pold; g new CUTE_RS_PTX_DIR=/tmp/pnew; else g new CUTE_RS_PTX_DIR=/tmp/pnew; g old CUTE_RS_PTX_DIR=/tmp/pold; fi
done; done
t end
