#!/usr/bin/env bash
# (session 31) `host run --only attention` with the fixed cases of the final tree (d64's 192-row tile under a causal
# mask from 4097 queries, a fixed case since the sweep stops at 4096) at seed 3112, and that case alone under
# memcheck. Package: $D/host.xz, attention.ptx.xz, stub.ptx + stub-families.txt.
#          D=.gpu/s31i NAME=s31i bash tools/gpu/attention/fixed-cases-check.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s31i}
timeout 150 $H run --only attention --seed 3112 > $R/ra.txt 2>&1 < /dev/null
t "C host run --only attention --seed 3112 rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
grep -E 'FAIL|sq4200' $R/ra.txt | cut -c1-200 | tee -a $S
timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $H attention --batch 1 --heads 2 --seqlen-q 4200 --seqlen-k 4300 \
  --head-dim 64 --causal bottom-right --dtype f16 --check > $R/san.txt 2>&1 < /dev/null
t "S memcheck rc=$? | d64 f16 4200 × 4300 bottom-right | $(grep -E 'ERROR SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1) $(grep -o 'kernel: [^ ]*' $R/san.txt | head -1)"
t end
