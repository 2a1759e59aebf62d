#!/usr/bin/env bash
# (session 79; issues #34, #37) Run s79b: the chunk hand-off (hf) took back 8192²×512's 6 % (one meeting, main 3af34f7:
# new) but lost 3 % at e4m3 4096³. Two variants of it, to tell why: hfi, the hand-off's barrier ids as immediates (a match
# on (warpgroup, chunk) in `chunk_handoff`, in place of the id in a register); hfl, the hand-off for every chunk but the
# last, the warpgroup's meeting after the last one's staging (every warp leaves the epilogue together, as with one
# meeting). Checks and racecheck / synccheck of each (several tiles a CTA), then new, hf, hfi, hfl alternated.
# Package: .gpu/A as tools/gpu/gemm/s79-handoff-ab.sh's (hf/: doc/patches/s79-handoff-register-ids.patch on main
# 3af34f7), plus hfl/ (doc/patches/s79-handoff-last-meeting.patch on 3af34f7) and hfi/ (hf with the ids as immediates:
# the form main keeps for the 16-bit entries, `ChunkHandoff`), each built and packed as s79-handoff-ab.sh's header says.
#   BUDGET=380 D=.gpu/A NAME=s79c bash tools/gpu/gemm/s79-handoff-variants.sh
BUDGET=${BUDGET:-380}; . tools/gpu/lib.sh ${NAME:-s79c}
VS="new hf"; for v in hfi hfl; do [ -e $D/$v/hgemm.ptx.xz ] && VS="$VS $v"; done
for v in $VS; do mkdir -p /tmp/pv$v; for m in hgemm hgemm_fp8; do x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done; done
for v in $VS; do [ $v = new ] && continue
  for a in "--dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" "--dtype e4m3 --m 2048 --n 2048 --k 512 --bias m --act relu"; do
    CUTE_RS_PTX_DIR=/tmp/pv$v c gemm $a
    for tool in racecheck synccheck; do
      CUTE_RS_PTX_DIR=/tmp/pv$v CUTE_RS_HGEMM_SMS=38 timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm $a --check > $R/san.txt 2>&1 < /dev/null
      t "S $v $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done; done
ROUNDS=${ROUNDS:-3} ab "$VS" "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 8192 --n 8192 --k 512" \
  "--dtype bf16 --m 4096 --n 4096 --k 4096"
t end
