#!/usr/bin/env bash
# (session 16, lead) Confirmations: N ncu source counters of attention d128 2k non-causal (ours only) after the suspend
# hint: the producer's retry loop and the instruction total against run s16-source's 3.88 M retries and 163.6 M;
# S memcheck / racecheck on a shape the FP8 tile rule runs on 128x128 (2048x4096x256); P FP8 e4m3 4096^3 the rule
# (128x128) / CUTE_RS_FP8_PROMOTED=n192tma alternated, three more rounds. Package (D, default .gpu/s16f): host.xz
# (d9511e5's), native.xz (275f860's: the same attention PTX), stub.ptx + stub-families.txt.
#   D=.gpu/s16f bash tools/gpu/profile/confirm-hint-fp8-tile-rule.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh s16f
mkdir -p /tmp/py16f/cute_rs && cp python/cute_rs/*.py /tmp/py16f/cute_rs/ && x $D/native.xz /tmp/py16f/cute_rs/_native.abi3.so
G="$H gemm --dtype e4m3"
for tool in memcheck racecheck; do timeout 90 compute-sanitizer --tool $tool $G --m 2048 --n 4096 --k 256 --check > $R/s.txt 2>&1
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/s.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/s.txt | head -1) $(grep -Eo 'gemm_fp8_[a-z0-9_]*' $R/s.txt | head -1)"; done
b() { timeout 30 $G "$@" --bench > $R/b.txt 2>&1; t "P ${CUTE_RS_FP8_PROMOTED:-rule} rc=$? | $* | $(grep -E 'TFLOP' $R/b.txt | sed -E 's/ +/ /g' | cut -d' ' -f4- | cut -c1-110 | tr '\n' '|')"; }
for i in 1 2 3; do b --m 4096; CUTE_RS_FP8_PROMOTED=n192tma b --m 4096; done
timeout 100 env PYTHONPATH=/tmp/py16f ncu --profile-from-start off --clock-control none -k regex:attention --section SourceCounters --section SpeedOfLight -o $R/at python3 tools/attention/ncu_pair.py 128:2048 --ours-only > $R/n.txt 2>&1
t "N rc=$?"; ncu -i $R/at.ncu-rep --page source --csv --print-source sass > $R/src-at.csv 2>/dev/null
python3 - $R/src-at.csv <<'PY' | tee -a $S
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
h = [r for r in rows if r and r[0] == "Address"][0]; i = rows.index(h)
d = [dict(zip(h, r)) for r in rows[i + 1:] if len(r) > 5]
num = lambda x: float(x.replace(",", "")) if x not in ("", "-") else 0.0
tot = sum(num(r["Instructions Executed"]) for r in d)
c = collections.Counter(num(r["Instructions Executed"]) for r in d)
spin = sum(num(r["Instructions Executed"]) for r in d if any(k in r["Source"] for k in ("TRYWAIT", "NANOSLEEP", "YIELD")))
print(f"attention d128 2k: {tot/1e6:.1f} M warp instructions; try_wait/nanosleep/yield {spin/1e6:.2f} M; most common counts {c.most_common(4)}")
PY
ncu -i $R/at.ncu-rep --page details --csv 2>/dev/null | grep -E '"Duration"|"SM Frequency"' | cut -d, -f13-15 | tee -a $S
t end
