#!/usr/bin/env bash
# (session 47, issue #34) fast.cu's kernel 12 waits for each k-tile's `wgmma`s (`wait_group 0`) and releases the stage at
# once; ours keeps one k-tile in flight (`PlainAccumulation<1>`, CUTLASS's K_PIPE_MMAS = 1), so with 3 stages a consumer
# holds two and the producer runs one ahead. Variants of `hgemm_bf16_tn` (branch s47-drain, cut and renamed by
# tools/gpu/cut_ptx.py, `.maxntid 384` / `.minnctapersm 1` as the builder writes them): `dr` PlainAccumulation<0>, 3
# stages, 4 chunk buffers a warpgroup; `s4` PlainAccumulation<0>, 4 stages, 2 chunk buffers (renamed `hgemm_bf16_tn_s4`,
# launched through CUTE_RS_HGEMM_SCHEDULE=cooperative4 with its shared memory); against main's entry,
# alternated in ROUNDS rounds, `host gemm --ta --dtype bf16 --bench` (sustained, burst) at 4096³ and 8192³, then a
# `--check` of each variant on edge shapes. Run s47b: `dr` faults at its first launch (the context is lost: every later
# call of that process fails); the `s4` arm's module holds `hgemm_bf16_tn_s4` alone, so the host took the family's sm_80
# build (`hgemm_sm80`, 395 TFLOP/s): keep `hgemm_bf16_tn` in such a cut for the sm_90a module to be chosen. (Session 48:
# the fault was the package's — `dr`'s module came from a PTX without the builder's grid-constant pass, its tensor maps
# `.align 16`; cut from `cargo xtask build-kernels`' module the variant runs: tools/gpu/gemm/drain-f32-ab.sh, run s48a.)
# Package $D: host.xz, {main,dr,s4}/hgemm.ptx.xz, stub.ptx + stub-families.txt.   D=.gpu/s47b NAME=s47b bash tools/gpu/gemm/drain-ab.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s47b}
ROUNDS=${ROUNDS:-3}
for v in main dr s4; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
sch() { [ $1 = s4 ] && echo cooperative4 || echo default; }
for v in main dr s4; do
  export CUTE_RS_HGEMM_SCHEDULE=$(sch $v); [ $v = s4 ] || unset CUTE_RS_HGEMM_SCHEDULE
  CUTE_RS_PTX_DIR=/tmp/pv$v timeout 120 $H gemm --ta --dtype bf16 --m 1000 --n 1030 --k 2056 --check > $R/c.txt 2>&1 < /dev/null
  t "C $v rc=$? 1000x1030x2056 $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
  CUTE_RS_PTX_DIR=/tmp/pv$v timeout 120 $H gemm --ta --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1 --check > $R/c.txt 2>&1 < /dev/null
  t "C $v rc=$? 4096^3 beta 1 $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
done
unset CUTE_RS_HGEMM_SCHEDULE
for i in $(seq $ROUNDS); do
  for n in 4096 8192; do for v in main dr s4; do
    [ $(left) -gt 25 ] || break 3
    GARGS="--ta --dtype bf16 --m $n"; if [ $v = s4 ]; then g "$v$i-$n" CUTE_RS_PTX_DIR=/tmp/pv$v CUTE_RS_HGEMM_SCHEDULE=cooperative4; else g "$v$i-$n" CUTE_RS_PTX_DIR=/tmp/pv$v; fi
  done; done
done
t end
