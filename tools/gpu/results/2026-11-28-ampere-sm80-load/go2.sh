#!/bin/bash
# helper "ampere", call 2: sm_80 build without the NN/TT 2cta twins (they spill on sm_80).
cd "$(dirname "$0")"
H=./host
chmod +x $H
echo '== host --arch sm_80 run'
( time timeout 100 $H --arch sm_80 run ) > $OUT/run-sm80.txt 2>&1; echo "rc=$?" >> $OUT/run-sm80.txt
grep -v '^\[run\]' $OUT/run-sm80.txt | grep -E "^ptx|sweep|passed|FAIL|real|rc="
echo '== host run (default)'
( time timeout 60 $H run ) > $OUT/run-default.txt 2>&1; echo "rc=$?" >> $OUT/run-default.txt
grep -v '^\[run\]' $OUT/run-default.txt | grep -E "^ptx|sweep|passed|FAIL|real|rc="
echo '== host --arch sm_80 bench copy'
( time timeout 60 $H --arch sm_80 bench copy ) > $OUT/bench-copy-sm80.txt 2>&1; echo "rc=$?" >> $OUT/bench-copy-sm80.txt
grep -v '^\[' $OUT/bench-copy-sm80.txt | tail -22
echo '== compute-sanitizer memcheck: host --arch sm_80 run (short sweeps)'
( time timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --sweep-gemm 12 --sweep-copy 34 --sweep-hgemm 0 ) > $OUT/sanitize-sm80.txt 2>&1; echo "rc=$?" >> $OUT/sanitize-sm80.txt
grep -v '^\[run\]' $OUT/sanitize-sm80.txt | grep -E "ERROR SUMMARY|passed|FAIL|real|rc="
