#!/usr/bin/env bash
# (session 28) The cluster rule (`HgemmPlan::pairs`: no pair of clusters over an odd count of M-tiles below 17) and
# the block entry's rule (`Fp8BlockEntry::STAGED_SK_MAX_FILL`: `_staged1_tma5sk` where the 128 × 192 tiles' waves are
# at most 0.6 full), measured against what main launched before them, forced by the overrides in the same process:
# per-tensor FP8, block-scaled FP8 and bf16 at odd M-tile counts, two rounds; then checks and memcheck of the new
# launches. Package: $D/host.xz (branch s28-odd-m's release host), $D/hgemm.ptx.xz (the default build's entries
# that run here: tools/gpu/cut_ptx.py).       D=.gpu/s28c bash tools/gpu/gemm/cluster-pairs-rule.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s28c}
timeout 200 $H gemm --dtype e4m3 --block-scales --m 384 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
timeout 100 $H gemm --ta --dtype bf16 --m 384 --n 1000 --k 520 --check > $R/c.txt 2>&1 < /dev/null; t "jit bf16 + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
C2=CUTE_RS_HGEMM_CLUSTER=2
for i in 1 2; do
  for s in "384 7168 8192 n128tma6" "640 7168 8192 n128tma6" "896 4096 8192 n128tma6" "384 4096 8192 n128tma6" "1152 7168 4096 n192tma"; do
    [ $(left) -gt 60 ] || break; set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt-new X=1; g pt-old CUTE_RS_FP8_PROMOTED=$4 $C2; done
  for s in "384 7168 8192 stagedn192tma" "512 7168 8192 stagedn192tma" "896 4096 8192 stagedn192tma" "640 7168 8192 stagedn192tma" "256 7168 8192 stagedn192tma" "1152 7168 4096 stagedn192tma"; do
    [ $(left) -gt 60 ] || break; set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g bl-new X=1; g bl-old CUTE_RS_FP8_BLOCK=$4 $C2; done
  for s in "384 7168 8192" "640 7168 8192" "896 4096 8192" "1152 7168 4096" "384 4096 4096"; do
    [ $(left) -gt 60 ] || break; set -- $s; GARGS="--ta --dtype bf16 --m $1 --n $2 --k $3"; g bf16-new X=1; g bf16-old $C2; done
done
c() { timeout 60 $H "$@" --check > $R/c.txt 2>&1 < /dev/null; t "check $* rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; }
c gemm --dtype e4m3 --m 384 --n 7168 --k 2048; c gemm --dtype e4m3 --m 1152 --n 1000 --k 1024; c gemm --dtype e4m3 --m 640 --n 4096 --k 1040
c gemm --dtype e4m3 --block-scales --m 384 --n 7168 --k 2048; c gemm --dtype e4m3 --block-scales --m 512 --n 7168 --k 2048
c gemm --dtype e4m3 --block-scales --m 896 --n 4096 --k 1024; c gemm --dtype e4m3 --block-scales --m 260 --n 7000 --k 1000
c gemm --ta --dtype bf16 --m 384 --n 7168 --k 2048; c gemm --dtype bf16 --m 1152 --n 1000 --k 1000; c gemm --ta --dtype f16 --m 640 --n 520 --k 1032
timeout 100 compute-sanitizer --tool memcheck $H gemm --dtype e4m3 --block-scales --m 896 --n 4096 --k 1024 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck block 896 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
timeout 100 compute-sanitizer --tool memcheck $H gemm --dtype e4m3 --m 384 --n 7168 --k 2048 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck pt 384 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
[ $(left) -gt 100 ] && { timeout $(( $(left) - 15 )) $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null; t "FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"; }
t end
