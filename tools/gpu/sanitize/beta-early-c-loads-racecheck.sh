#!/usr/bin/env bash
# (session 40) racecheck in full on the shape where branch s40-pre's build showed one hazard (run s40c:
# bf16 NN 1032x1024x512 --beta -1, the 128 x 128 ping-pong), on main's build (3a4d245) and the branch's.
#   D=.gpu/s40c D0=.gpu/s40b NAME=s40d [BRANCH=1] bash tools/gpu/sanitize/beta-early-c-loads-racecheck.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s40d}
unset CUTE_RS_PTX_DIR
H1=$H; x ${D0:-.gpu/s40b}/host.xz /tmp/h0 && chmod +x /tmp/h0
A="--dtype bf16 --m 1032 --n 1024 --k 512 --beta -1"
timeout 200 /tmp/h0 gemm $A --check > $R/w0.txt 2>&1 < /dev/null
t "warm main $(grep -Eo 'PASS|FAIL' $R/w0.txt | head -1)"
# the branch's build only with BRANCH=1 (its own JIT: another two minutes)
for h in main:/tmp/h0 ${BRANCH:+branch:$H1}; do n=${h%%:*}; b=${h#*:}
  for a in "$A" "--dtype bf16 --ta --m 1032 --n 1024 --k 4096 --beta 1"; do [ $(left) -gt 25 ] || break
    timeout $(( $(left) - 10 )) compute-sanitizer --tool racecheck --racecheck-report all --print-limit 20 $b gemm $a --check > $R/race-$n.txt 2>&1 < /dev/null
    t "S racecheck $n rc=$? | $a | $(grep -E 'RACECHECK SUMMARY' $R/race-$n.txt | tail -1)"
    grep -E "Error|Warning|hazard|Write|Read|at 0x|in " $R/race-$n.txt | head -12 | cut -c1-220 | tee -a $S; done; done
t end
