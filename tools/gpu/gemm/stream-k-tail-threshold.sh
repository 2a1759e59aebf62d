#!/usr/bin/env bash
# (session 27, lead; branch `s27-tail`, not for main) The stream-K tail's threshold (`CUTE_RS_HGEMM_TAIL`, the fullest last wave that takes it): FP8
# per-tensor (its kind's 1/4) with any part-empty wave (`1`), and the 16-bit entries (their kind's `1`) with none (`0`);
# `--check` with each, then the rows alternated, two rounds. The release host with every module embedded.
# Package: $D/host.xz.   D=.gpu/s27d bash tools/gpu/gemm/stream-k-tail-threshold.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s27d}
unset CUTE_RS_PTX_DIR
timeout 200 $H gemm --dtype e4m3 --m 2048 --n 2944 --k 1024 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check fp8 rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for tl in 1 1/2; do for s in "2048 2944 1024" "1000 4000 1008" "2048 2944 1024 --block-scales"; do
  CUTE_RS_HGEMM_TAIL=$tl timeout 100 $H gemm --dtype e4m3 $(echo $s | awk '{print "--m",$1,"--n",$2,"--k",$3,$4}') --check > $R/c.txt 2>&1 < /dev/null
  t "check fp8 tail=$tl $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done; done
for l in "" --ta; do CUTE_RS_HGEMM_TAIL=0 timeout 200 $H gemm --dtype bf16 $l --m 2048 --n 2944 --k 1024 --check > $R/c.txt 2>&1 < /dev/null
  t "check bf16 $l tail=0 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done
CUTE_RS_HGEMM_TAIL=1 timeout 100 compute-sanitizer --tool memcheck $H gemm --dtype e4m3 --m 2048 --n 2944 --k 1024 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck fp8 tail=1 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
for i in 1 2; do
  for s in "8192 8192 8192" "4096 7168 16384" "6144 6144 6144" "4096 4096 4096"; do [ $(left) -gt 20 ] || break
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g default X=1; g tail1 CUTE_RS_HGEMM_TAIL=1; g tail12 CUTE_RS_HGEMM_TAIL=1/2; done
  for s in "4096 4096 4096" "8192 8192 8192"; do for l in "" --ta; do [ $(left) -gt 20 ] || break
    set -- $s; GARGS="--dtype bf16 $l --m $1 --n $2 --k $3"; g default X=1; g tail0 CUTE_RS_HGEMM_TAIL=0; done; done
done
t end
