#!/usr/bin/env bash
# (session 15, lead; issue #34) The cooperative 16-bit GEMM with 4 stages beside two epilogue chunk buffers a warpgroup
# (hgemm_{bf16,f16}_tn_s4, feature pingpong; CUTE_RS_HGEMM_SCHEDULE=cooperative4) against the default 3 stages + 4
# buffers: cuBLAS's 2048^3 kernel (ncu, session 15) has 4 stages and a small epilogue buffer, 1.17x our speed there.
# Also the FP8 per-tensor rule of session 15 (M <= 128 on _n128tma6) at two more skinny shapes and the FP8 sweep under it.
# Package (D, default .gpu/s15d): host.xz (fp8-variants + pingpong release host), hgemm.ptx.xz (cut), stub.ptx +
# stub-families.txt. Run from the repo root with $OUT set:  D=.gpu/s15d bash tools/gpu/gemm/cooperative-4-stages.sh
BUDGET=${BUDGET:-270}; . tools/gpu/lib.sh s15d
timeout 150 $H gemm --ta --dtype bf16 --m 300 --n 200 --k 520 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check default rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
while read -r args; do
  CUTE_RS_HGEMM_SCHEDULE=cooperative4 timeout 30 $H gemm --ta $args --check > $R/c.txt 2>&1 < /dev/null
  t "C s4 rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) | $args | $(grep -Eo 'hgemm_[a-z0-9_]*' $R/c.txt | head -1) $(grep -i error $R/c.txt | head -1 | cut -c1-120)"
done <<'EOF2'
--dtype bf16 --m 300 --n 200 --k 520
--dtype bf16 --m 2048 --n 2048 --k 2048
--dtype f16 --m 1000 --n 1030 --k 777
--dtype bf16 --m 129 --n 257 --k 384 --out f32
--dtype bf16 --m 1024 --n 1000 --k 512 --out f32
--dtype f16 --m 2100 --n 2300 --k 2700 --beta 0.5
--dtype bf16 --m 4096 --n 4096 --k 4096
--dtype bf16 --m 8 --n 8 --k 8
EOF2
CUTE_RS_HGEMM_SCHEDULE=cooperative4 timeout 40 compute-sanitizer --tool memcheck $H gemm --ta --dtype bf16 --m 1024 --n 1000 --k 520 --check > $R/m.txt 2>&1 < /dev/null
t "S memcheck s4 rc=$? $(grep -E 'ERROR SUMMARY' $R/m.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
CUTE_RS_HGEMM_SCHEDULE=cooperative4 timeout 40 compute-sanitizer --tool racecheck $H gemm --ta --dtype bf16 --m 600 --n 520 --k 300 --check > $R/rc.txt 2>&1 < /dev/null
t "S racecheck s4 rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/rc.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/rc.txt | head -1)"
timeout 100 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "W FP8 sweep (the default rule) rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
grep FAIL $R/sweep.txt | head -3 | cut -c1-200 | tee -a $S
bench() { local v=$1 r=$2; shift 2
  [ $(left) -gt 12 ] || { t "P SKIP $v $* (time)"; return; }
  local e=""; [ $v = s4 ] && e="CUTE_RS_HGEMM_SCHEDULE=cooperative4"; [ $v = n192tma ] && e="CUTE_RS_FP8_PROMOTED=n192tma"
  env $e timeout 20 $H gemm "$@" --bench --csv > $R/b.txt 2>&1 < /dev/null; local rc=$?
  grep ',' $R/b.txt | grep -v '^family' | while read -r row; do echo "$r,$v,$*,$row,rc=$rc" | tee -a $S; done
  { echo "== $r $v $*"; cat $R/b.txt; } >> $R/bench.txt; }
for r in 1 2; do
  for shape in "--m 2048" "--m 4096" "--m 8192"; do
    bench default $r --ta --dtype bf16 $shape; bench s4 $r --ta --dtype bf16 $shape
  done
  bench default $r --ta --dtype f16 --m 2048; bench s4 $r --ta --dtype f16 --m 2048
  for shape in "--m 64 --n 4096 --k 8192" "--m 128 --n 2112 --k 7168"; do
    bench default $r --dtype e4m3 $shape; bench n192tma $r --dtype e4m3 $shape
  done
done
t end
