#!/usr/bin/env bash
# (session 20, lead) The branch's FP8 small-M launch (split-K by whole tiles; 128x128 for split-K problems from 65
# rows): the FP8 sweep, --check on the shapes that changed path, sanitizers on a split-K 128x128 launch, then main's
# host ($D/old.xz) and the branch's alternated on the FP8 shapes and the small-M ones, two rounds (both hosts
# embed byte-identical PTX; the full hgemm module: its JIT comes first).
#      D=.gpu/s20g bash tools/gpu/fp8/small-m-launch-check-ab.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh s20g
x $D/old.xz /tmp/old-s20g && chmod +x /tmp/old-s20g; OLD=/tmp/old-s20g
timeout 200 $H gemm --dtype e4m3 --m 300 --n 200 --k 520 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout 150 $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null
t "FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"; grep FAIL $R/f8.txt | head -3 | cut -c1-250 | tee -a $S
for s in "100 1000 8192" "128 2112 7168" "200 2112 7168" "256 1000 4096" "65 3000 4096" "1 7168 4096" "129 520 9000"; do
  set -- $s; timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo 'gemm_fp8_[a-z0-9_]+' $R/c.txt | head -1)"; done
san() { local tool=$1; shift; timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H "$@" > $R/san-$tool.txt 2>&1 < /dev/null
  t "san $tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/san-$tool.txt | tail -1)"; }
for tool in memcheck racecheck synccheck; do san $tool gemm --dtype e4m3 --m 128 --n 2048 --k 8192 --check; done
g() { local tag=$1 h=$2; timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "128 7168 16384" "64 7168 16384" "256 7168 16384" "128 4096 8192" "128 7168 4096" "4096 7168 16384" "4096 2112 7168" "4096 4096 4096"; do
    [ $(left) -gt 30 ] || break
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g main $OLD; g new $H; done
done
t end
