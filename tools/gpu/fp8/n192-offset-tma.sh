#!/usr/bin/env bash
# (session 69; issue #37) The per-tensor 128 × 192 kernel (`_n192tma`, the TMA epilogue) with consumer warpgroup 1's
# promotion windows shifted by half a k-tile (`GmmaFp8Accumulation<…, 96, true>`, session 13's `OFFSET`, measured then
# only on the direct epilogue, level, when the kernel ran 0.78 of cuBLASLt): variant `off` is the module whose
# `gemm_fp8_e4m3_tn_promoted_n192tma` is `_n192tmaoff`'s code (`tools/gpu/cut_ptx.py ENTRY=ALIAS`), `main` main's.
# `--check`s of the variant (edges, K tails, split-K, the stream-K tail, f32 D, `beta`), then two rounds alternated of
# `host gemm --dtype e4m3 --bench` (sustained and burst) at 8192³ and 6144³ (the rule's 128 × 192) and, forced to
# 128 × 192, 4096×7168×16384 and 4096³, with the rule's 128 × 128 beside them.
# Package $D: host.xz (main's release host); main/hgemm_fp8.ptx.xz and off/hgemm_fp8.ptx.xz (the module cut to the
# per-tensor entries, main's or the variant's code as `_n192tma`); hgemm.ptx.xz (`hgemm_bf16_tn` alone).
# (Its last `--check` asks for K = 1008 since run s69c, whose K = 1000 the host refused: FP8 K a multiple of 16.)
#   BUDGET=420 D=.gpu/s69c NAME=s69c bash tools/gpu/fp8/n192-offset-tma.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s69c}
variants "main off" hgemm_fp8 --dtype e4m3 --m 512 --n 384 --k 2048
F=CUTE_RS_FP8_PROMOTED=n192tma
for a in "--m 300 --n 200 --k 528" "--m 1000 --n 1000 --k 1024" "--m 17 --n 520 --k 6160" "--m 2048 --n 1700 --k 1008" \
  "--m 129 --n 257 --k 384 --out f32" "--m 1000 --n 1030 --k 1008 --beta 0.5"; do
  env $F CUTE_RS_PTX_DIR=/tmp/pvoff timeout 60 $H gemm --dtype e4m3 $a --check > $R/c.txt 2>&1 < /dev/null
  t "C off rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1) $(grep -E '^kernel' $R/c.txt | head -1)"
done
env $F CUTE_RS_PTX_DIR=/tmp/pvoff timeout 100 compute-sanitizer --tool racecheck --print-limit 5 $H gemm --dtype e4m3 \
  --m 1000 --n 1000 --k 1024 --check > $R/san.txt 2>&1 < /dev/null
t "S racecheck rc=$? | $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
for i in 1 2; do
  for a in "--m 8192 --n 8192 --k 8192" "--m 6144 --n 6144 --k 6144"; do
    for v in main off; do [ $(left) -gt 25 ] || break 3; GARGS="--dtype e4m3 $a"; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v; done
  done
  for a in "--m 4096 --n 7168 --k 16384" "--m 4096 --n 4096 --k 4096"; do
    GARGS="--dtype e4m3 $a"; [ $(left) -gt 25 ] || break 2; g "rule$i" CUTE_RS_PTX_DIR=/tmp/pvmain
    for v in main off; do [ $(left) -gt 25 ] || break 3; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v $F; done
  done
done
t end
