#!/usr/bin/env bash
# (session 36, prepared for the next; branch `s36-scale-bgp`) B's block scales from global memory for the paired
# (ping-pong) staged entry alone (`GmmaFp8AccumulationStaged<true>`: each consumer loads B's scale of the pair ahead; the
# one-temporary 128 × 128 entry keeps B's box with each stage, as main): `host run --only hgemm` (the FP8 sweep),
# `--check`s, the three sanitizers on the small-M entry, then main's staged entries ($D/old) against the branch's
# ($D/new), cut modules, alternated, three rounds at the small-M shapes.
#   D=.gpu/s37a NAME=s37a bash tools/gpu/fp8/block-b-scales-global-paired.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s37a}
timeout 300 $H run --only hgemm --seed 3701 --sweep-hgemm 40 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 3701 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
B="gemm --dtype e4m3 --block-scales"
for s in "128 7168 8192" "128 1000 6160" "132 7200 8192" "64 4104 8192" "300 200 528" "512 7168 2000"; do set -- $s
  timeout 60 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "C check $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
CUTE_RS_FP8_BLOCK=stagedpp64 timeout 60 $H $B --m 1000 --n 1030 --k 1040 --check > $R/c.txt 2>&1 < /dev/null; t "C check stagedpp64 1000x1030x1040 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"
for tool in memcheck racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=stagedpp64 timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 132 --n 2048 --k 2064 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool stagedpp64 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for m in old new; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx
  CUTE_RS_PTX_DIR=/tmp/p$m timeout 100 $H $B --m 128 --n 1024 --k 8192 --check > $R/c.txt 2>&1 < /dev/null; t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2 3; do for s in "128 7168 16384" "128 7168 8192" "64 7168 16384" "128 4096 16384" "256 7168 8192"; do [ $(left) -gt 12 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt CUTE_RS_PTX_DIR=/tmp/pold
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  if [ $(( i % 2 )) = 1 ]; then g old CUTE_RS_PTX_DIR=/tmp/pold; g new CUTE_RS_PTX_DIR=/tmp/pnew; else g new CUTE_RS_PTX_DIR=/tmp/pnew; g old CUTE_RS_PTX_DIR=/tmp/pold; fi
done; done
t end
