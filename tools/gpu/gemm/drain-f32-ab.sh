#!/usr/bin/env bash
# (session 48, issue #34) Two things in one call. (1) fast.cu's `wait_group 0` a k-tile with the stage released at once
# (`PlainAccumulation<0>`) against ours (`PlainAccumulation<1>`: one k-tile's `wgmma`s left in flight), remeasured:
# run s47b's `dr` module had been cut from a module without the builder's grid-constant alignment (`.align 16` tensor
# maps: TMA faulted), so nothing of the schedule was measured. `dr`: `hgemm_bf16_tn_drain` (3 stages, 4 chunk buffers)
# renamed `hgemm_bf16_tn`; `s4`: `hgemm_bf16_tn_s4drain` (4 stages, 2 chunk buffers) renamed `hgemm_bf16_tn_s4`,
# launched through CUTE_RS_HGEMM_SCHEDULE=cooperative4 (branch s48-measure, built by `cargo xtask build-kernels`).
# (2) an f32 C with `beta ≠ 0` through the chunk buffers (`store_staged`) instead of the registers' path: the new whole
# module's checks, sweep and sanitizers, then main's and the new f16 / bf16 TN entries alternated at --out f32 --beta 1.
# Run s48a: (1) +0.4–0.5 % burst (8192³ 801–802 → 805–806 TFLOP/s); (2) 14–16 % slower (not landed).
# Package $D: host.xz, hgemm.ptx.xz (new, whole, without the measuring entries), {main,new,dr,s4}/hgemm.ptx.xz (cut),
# stub.ptx + stub-families.txt.   D=.gpu/s48a NAME=s48a bash tools/gpu/gemm/drain-f32-ab.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s48a}
ROUNDS=${ROUNDS:-3}
c gemm --dtype f16 --m 1000 --n 1000 --k 1000 --out f32 --beta 1
c gemm --dtype bf16 --ta --m 777 --n 1024 --k 384 --out f32 --ldc 781 --beta 1
c gemm --dtype bf16 --ta --m 100 --n 2000 --k 4096 --out f32 --ldc 101 --beta -0.5
c gemm --dtype f16 --tb --m 1003 --n 517 --k 1000 --out f32 --beta 2
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096 --out f32 --beta 1
c gemm --dtype bf16 --m 126 --n 300 --k 256 --out f32 --beta 1
CUTE_RS_HGEMM_EPILOGUE=direct c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --out f32 --beta 1
CUTE_RS_HGEMM_EPILOGUE=direct c gemm --dtype f16 --ta --m 1000 --n 1030 --k 2056 --beta 1
timeout 200 $H run --only hgemm --seed 4848 > $R/run.txt 2>&1 < /dev/null; t "host run --only hgemm --seed 4848 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep -E 'FAIL' $R/run.txt | head -3 | cut -c1-200 | tee -a $S
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype f16 --m 1000 --n 1030 --k 520 --out f32 --beta 1 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for v in main new dr s4; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
sch() { [ $1 = s4 ] && echo cooperative4 || echo default; }
for v in dr s4; do
  for a in "--m 1000 --n 1030 --k 2056" "--m 4096 --n 4096 --k 4096 --beta 1" "--m 8192 --n 8192 --k 1024 --ldc 8200 --beta 1"; do
    env CUTE_RS_PTX_DIR=/tmp/pv$v $([ $v = s4 ] && echo CUTE_RS_HGEMM_SCHEDULE=cooperative4) \
      timeout 120 $H gemm --ta --dtype bf16 $a --check > $R/c.txt 2>&1 < /dev/null
    t "C $v rc=$? $a | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ') $(grep -Eo 'kernel: .*' $R/c.txt | head -1)"
  done
done
for i in $(seq $ROUNDS); do
  for n in 4096 8192; do for v in main dr s4; do
    [ $(left) -gt 25 ] || break 3
    GARGS="--ta --dtype bf16 --m $n"
    if [ $v = s4 ]; then g "$v$i-$n" CUTE_RS_PTX_DIR=/tmp/pv$v CUTE_RS_HGEMM_SCHEDULE=cooperative4; else g "$v$i-$n" CUTE_RS_PTX_DIR=/tmp/pv$v; fi
  done; done
  for a in "--ta --dtype f16 --m 4096 --out f32 --beta 1" "--ta --dtype bf16 --m 8192 --out f32 --beta 1"; do for v in main new; do
    [ $(left) -gt 25 ] || break 3
    GARGS="$a"; g "$v$i" CUTE_RS_PTX_DIR=/tmp/pv$v
  done; done
done
t end
