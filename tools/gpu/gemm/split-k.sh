#!/usr/bin/env bash
# (session 28, lead) The 16-bit cooperative entries with the fast FP8 entries' split-K (`Scheduler` with SPLIT_K,
# `config::SCHEDULER` = STREAM_K_SPLIT_K; branch s28-bf16-splitk): checks, sanitizers, small M against the same PTX with
# `CUTE_RS_HGEMM_STREAMK=0` (one cluster per tile: main's launch there), and the large shapes against main's PTX (the
# same host: no split where tiles outnumber clusters). Package: $D/host.xz, $D/hgemm.ptx.xz (the branch's 16-bit TN/NN
# entries, fused GELU), $D/old-hgemm.xz (main's same entries).      D=.gpu/s28e bash tools/gpu/gemm/split-k.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s28e}
mkdir -p /tmp/pold && x $D/old-hgemm.xz /tmp/pold/hgemm.ptx
c() { timeout 100 $H "$@" --check > $R/c.txt 2>&1 < /dev/null; t "check $* rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; }
c gemm --ta --dtype bf16 --m 384 --n 4096 --k 4096
CUTE_RS_PTX_DIR=/tmp/pold timeout 100 $H gemm --ta --dtype bf16 --m 4096 --n 4096 --k 512 --check > $R/c.txt 2>&1 < /dev/null; t "jit old rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
c gemm --ta --dtype bf16 --m 128 --n 7168 --k 8192; c gemm --dtype bf16 --m 200 --n 1000 --k 3000; c gemm --ta --dtype f16 --m 77 --n 3000 --k 5000
c gemm --ta --dtype bf16 --m 256 --n 4096 --k 4096 --beta 0.5; c gemm --ta --dtype bf16 --m 256 --n 4096 --k 4096 --bias m --act gelu
c gemm --ta --dtype bf16 --m 130 --n 2000 --k 4104 --bias n --act gelu --out f32
timeout 100 compute-sanitizer --tool memcheck $H gemm --ta --dtype bf16 --m 200 --n 4096 --k 4096 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
timeout 100 compute-sanitizer --tool racecheck $H gemm --ta --dtype bf16 --m 200 --n 4096 --k 4096 --check > $R/m.txt 2>&1 < /dev/null; t "racecheck rc=$? $(grep 'RACECHECK SUMMARY' $R/m.txt)"
for i in 1 2; do for s in "384 4096 4096" "256 7168 8192" "128 7168 8192" "128 4096 4096" "256 4096 8192" "512 4096 4096" "128 8192 16384" "640 7168 8192"; do
  [ $(left) -gt 90 ] || break; set -- $s; GARGS="--ta --dtype bf16 --m $1 --n $2 --k $3"; g split X=1; g nosplit CUTE_RS_HGEMM_STREAMK=0; done; done
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--dtype bf16 --m 2048" "--ta --dtype bf16 --m 512 --n 8192 --k 8192" "--ta --dtype f16 --m 4096"; do
  [ $(left) -gt 20 ] || break; GARGS="$s"; g new X=1; g main CUTE_RS_PTX_DIR=/tmp/pold; done; done
t end
