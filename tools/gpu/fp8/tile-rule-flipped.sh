#!/usr/bin/env bash
# (session 21, lead) The FP8 tile rule flipped (128 x 128 unless 128 x 192 fills the machine over 5 % better): the FP8
# sweep and --check on the branch's host, then main's host ($D/old.xz, the rule before) and the branch's alternated
# on the default path (same PTX: the hgemm module cut to the FP8 entries), three rounds.
#      D=.gpu/s21g bash tools/gpu/fp8/tile-rule-flipped.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s21g
x $D/old.xz /tmp/old-s21g && chmod +x /tmp/old-s21g; OLD=/tmp/old-s21g
timeout 120 $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null
t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"; grep FAIL $R/f8.txt | head -3 | cut -c1-250 | tee -a $S
for s in "2000 3000 1024" "1500 8192 512" "8192 1000 256"; do set -- $s
  timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "C $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -Eo 'gemm_fp8_[a-z0-9_]+' $R/c.txt | head -1)"; done
g() { local tag=$1 h=$2; shift 2; timeout 60 $h gemm --dtype e4m3 "$@" --bench > $R/g.txt 2>&1 < /dev/null
  t "B $tag rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-160 | tr '\n' '|')"; }
for i in 1 2 3; do for s in "--m 8192" "--m 6144" "--m 8192 --n 4096 --k 8192" "--m 3072" "--m 4096 --n 2112 --k 7168"; do
  [ $(left) -gt 12 ] || break; g main $OLD $s; g new $H $s; done; done
t end
