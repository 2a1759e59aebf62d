#!/usr/bin/env bash
# (sessions 67–68, branch `s67-n192-mn`; issue #34) 128×192 with B MN-major: `hgemm_bf16_{nt,tt}_n192`
# (B's three 64-row boxes multicast 2 + 1, `mn_major_operand!(interleaved _192, _192)`), forced with
# `CUTE_RS_HGEMM_SCHEDULE=cooperative192`: `--check`s (edges, beta 1, split-K, alpha/beta, f32 D), racecheck and
# memcheck, then "NT"/"TT" shapes where 128×256 and the 128×128 ping-pong fill the machine badly, against the rule's
# launch (no 128×192 for B MN-major on main), two rounds (each `--bench`: sustained and burst).
# Package $D: host.xz (the branch's release host built with CUTE_RS_KERNEL_FEATURES=hgemm/pingpong) and hgemm.ptx.xz,
# its module cut to the entries these launches take (the whole module's JIT takes 90 s and more; it must keep
# `hgemm_bf16_tn`, which tells the context the Hopper kernels are there).
#   BUDGET=330 D=.gpu/s68a NAME=s68a bash tools/gpu/gemm/n192-mn.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s68a}
F=CUTE_RS_HGEMM_SCHEDULE=cooperative192
env $F timeout 200 $H gemm --dtype bf16 --tb --m 256 --n 384 --k 256 --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/w.txt | head -2 | tr '\n' ' ') $(grep -Eo 'hgemm_[a-z0-9_]+' $R/w.txt | sort -u | tr '\n' ' ')"
for a in "--tb --m 3072 --n 3072 --k 3072" "--ta --tb --m 1000 --n 1030 --k 1000 --beta 1" \
  "--tb --m 130 --n 2112 --k 4096" "--ta --tb --m 999 --n 577 --k 520 --alpha 0.5 --beta 1" \
  "--tb --m 640 --n 200 --k 8192" "--ta --tb --m 384 --n 1000 --k 2000 --out f32" "--tb --m 4096 --n 2112 --k 7168"; do
  env $F timeout 120 $H gemm --dtype bf16 $a --check > $R/c.txt 2>&1 < /dev/null
  t "C forced rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*|max.*' $R/c.txt | head -3 | cut -c1-120 | tr '\n' ' ')"
  [ "$(grep -c PASS $R/c.txt)" -gt 0 ] || { cp $R/c.txt $OUT/c-fail-$(echo $a | tr -dc 'a-z0-9').txt; tail -20 $R/c.txt; }
done
for tool in racecheck memcheck; do
  [ $(left) -gt 150 ] || break
  env $F timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype bf16 --tb --m 300 --n 1030 --k 1000 --beta 1 \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
for i in 1 2; do
  for s in "--tb --m 3072 --n 3072 --k 3072" "--ta --tb --m 6144 --n 2112 --k 4096" "--tb --m 4096 --n 2112 --k 7168" \
    "--ta --tb --m 8192 --n 2112 --k 4096"; do
    [ $(left) -gt 20 ] || break 2; GARGS="--dtype bf16 $s"; g n192$i $F; g rule$i
  done
done
t end
