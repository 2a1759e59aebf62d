#!/usr/bin/env bash
# (session 15, lead) The merged tree's check: the block-scaled FP8 default on 128 x 192 (helper fp8block192's entry, its
# epilogue now HgemmEpilogue<EpilogueStorage3>: 48 KiB, the warpgroups 24 KiB apart), the 16-bit sweep after the
# chunk-buffer change, and block / per-tensor on the issue's shapes. Package (D, default .gpu/s15e): host.xz (the
# default release host), stub.ptx + stub-families.txt (the hgemm module is the embedded one). Run from the repo root:
#   D=.gpu/s15e bash tools/gpu/closing/fp8-block-n192.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh s15e
G="$H gemm --dtype e4m3"
timeout 150 $G --block-scales --m 512 --n 384 --k 2048 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + block check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1) $(grep -Eo 'gemm_fp8_[a-z0-9_]*' $R/jit.txt | head -1)"
while read -r a; do
  timeout 30 $G --block-scales $a --check > $R/c.txt 2>&1 < /dev/null
  t "C block rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) | $a | $(grep -Eo 'gemm_fp8_[a-z0-9_]*' $R/c.txt | head -1) $(grep -i error $R/c.txt | head -1 | cut -c1-100)"
done <<'EOF2'
--m 300 --n 200 --k 528
--m 512 --n 384 --k 2048 --out f32
--m 132 --n 257 --k 384
--m 1000 --n 1000 --k 1024
--m 1024 --n 1000 --k 512 --out f32
--m 2048 --n 1700 --k 1008
--m 2048 --n 1700 --k 1008 --out f32
--m 260 --n 520 --k 6160
--m 128 --n 7168 --k 2048
--m 4 --n 130 --k 16
--m 64 --n 192 --k 128
--m 1024 --n 1024 --k 4096
--m 129 --n 257 --k 384
EOF2
timeout 120 $G > $R/sweep.txt 2>&1 < /dev/null
t "W FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
grep FAIL $R/sweep.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck; do
  timeout 40 compute-sanitizer --tool $tool $G --block-scales --m 300 --n 200 --k 528 --check > $R/s.txt 2>&1 < /dev/null
  t "S $tool block rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1)"
done
timeout 40 compute-sanitizer --tool memcheck $G --block-scales --m 2048 --n 1700 --k 1008 --check > $R/s.txt 2>&1 < /dev/null
t "S memcheck block 2048x1700x1008 rc=$? $(grep -E 'ERROR SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1)"
timeout 90 $H run --only hgemm --sweep-hgemm 60 > $R/hg.txt 2>&1 < /dev/null
t "R host run --only hgemm rc=$? $(grep -E 'passed|failed' $R/hg.txt | tail -1)"
bench() { local v=$1 r=$2; shift 2
  [ $(left) -gt 12 ] || { t "P SKIP $v $* (time)"; return; }
  local b=""; [ $v = block ] && b="--block-scales"
  timeout 20 $G $b "$@" --bench --csv > $R/b.txt 2>&1 < /dev/null; local rc=$?
  local row=$(grep ',' $R/b.txt | grep -v '^family' | tail -1)
  echo "$r,$v,$*,$(echo "$row" | cut -d, -f9,10,11),rc=$rc" | tee -a $S; }
for r in 1 2; do
  for shape in "--m 4096 --n 7168 --k 16384" "--m 8192 --n 8192 --k 8192" "--m 4096 --n 4096 --k 4096" "--m 4096 --n 2112 --k 7168"; do
    bench block $r $shape; bench pt $r $shape
  done
done
t end
