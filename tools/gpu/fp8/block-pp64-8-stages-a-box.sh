#!/usr/bin/env bash
# (session 37) The small-M block entry `_staged_pp64` with 8 stages (A's box of the tile's 64 row scales, no B box: its
# paired consumers read B's scales from global memory since session 36) against main's 7 (run s37a's `new` host, the
# previous commit): the FP8 sweep and `host run --only attention` (session 36's host refactor) on the new host,
# `--check`s and the three sanitizers on the new entry, then three rounds per-tensor / old / new (alternated) at the
# small-M shapes. $D/host.xz is the new host, $D/host-old.xz the old one (both with their embedded PTX).
#   D=.gpu/s37c NAME=s37c bash tools/gpu/fp8/block-pp64-8-stages-a-box.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s37c}
x $D/host-old.xz /tmp/hold && chmod +x /tmp/hold; HN=$H; HO=/tmp/hold
timeout 300 $H run --only hgemm --seed 3702 --sweep-hgemm 40 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 3702 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
timeout 200 $H run --only attention --seed 3702 > $R/attn.txt 2>&1 < /dev/null
t "C host run --only attention rc=$? $(grep -E 'passed|failed' $R/attn.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/attn.txt | head -5 | cut -c1-200 | tee -a $S
B="gemm --dtype e4m3 --block-scales"
for s in "128 7168 8192" "132 7200 8192" "64 4104 8192" "4 1000 6160" "200 520 6144" "128 7168 16384 --out f32"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedpp64 timeout 60 $H $B --m $1 --n $2 --k $3 ${4:-} ${5:-} --check > $R/c.txt 2>&1 < /dev/null
  t "C check stagedpp64 $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for s in "128 7168 8192" "300 200 528" "1000 1030 1040"; do set -- $s
  timeout 60 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "C check default $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=stagedpp64 timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 132 --n 2048 --k 6160 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool stagedpp64 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for i in 1 2 3; do for s in "128 7168 16384" "128 7168 8192" "64 7168 16384" "128 4096 16384" "128 7168 6144"; do [ $(left) -gt 12 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  if [ $(( i % 2 )) = 1 ]; then H=$HO g old; H=$HN g new; else H=$HN g new; H=$HO g old; fi
done; done
t end
