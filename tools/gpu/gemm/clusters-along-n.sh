#!/usr/bin/env bash
# (session 28, lead; prepared for session 29, not yet run; branch `s28-bf16-cn`) The 16-bit cooperative kernel with
# clusters along N (`hgemm_{bf16,f16}_tn_cn`, A's tile shared, `CUTE_RS_HGEMM_SCHEDULE=cooperativecn`, feature `pingpong`)
# at odd counts of M-tiles, where clusters along M leave a half-empty cluster row and cluster 1 loses B's multicast
# (run s28c: bf16 640×7168×8192 0.72 with clusters along M, 0.59 with none; 1152×7168×4096 0.86 / 0.99): checks,
# memcheck, then default / cluster 1 / clusters along N, two rounds. Package (built by session 28): $D/host.xz (the
# branch's release host), $D/hgemm.ptx.xz (bf16 TN, NN, f16 TN and the two `_cn` entries of a `hgemm/pingpong` build).
#          D=.gpu/s29c bash tools/gpu/gemm/clusters-along-n.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s29c}
CN=CUTE_RS_HGEMM_SCHEDULE=cooperativecn
c() { env "$@" timeout 100 $H gemm $CARGS --check > $R/c.txt 2>&1 < /dev/null; t "check $* $CARGS rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; }
for s in "--ta --dtype bf16 --m 640 --n 7168 --k 2048" "--ta --dtype bf16 --m 384 --n 1000 --k 1024" "--ta --dtype f16 --m 640 --n 520 --k 1032" "--ta --dtype bf16 --m 100 --n 3000 --k 5000 --beta 0.5"; do
  CARGS="$s"; c $CN; done
CUTE_RS_HGEMM_SCHEDULE=cooperativecn timeout 100 compute-sanitizer --tool memcheck $H gemm --ta --dtype bf16 --m 640 --n 1000 --k 1024 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck cn rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
for i in 1 2; do for s in "640 7168 8192" "384 7168 8192" "1152 7168 4096" "896 4096 8192" "512 7168 8192" "4096 4096 4096"; do
  [ $(left) -gt 20 ] || break; set -- $s; GARGS="--ta --dtype bf16 --m $1 --n $2 --k $3"; g default X=1; g c1 CUTE_RS_HGEMM_CLUSTER=1; g cn $CN; done; done
t end
