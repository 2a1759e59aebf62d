#!/usr/bin/env bash
# (session 32) The GEMM kernel's register split, CUTLASS's 40 / 232 against FlashAttention-3's 24 / 240 (the change
# that moved attention 2-5 %): `host gemm --bench` (ours and cuBLAS / cuBLASLt in one process, sustained and burst)
# on two cut modules, $D/old and $D/new (hgemm.ptx.xz, hgemm_fp8.ptx.xz: tools/gpu/cut_ptx.py), alternated, two
# rounds; the FP8 entries forced to the 128 x 192 tiles (the per-tensor 128 x 128 one spills at 24 / 240). Then
# --check of the new module's entries.   Package: $D/host.xz, $D/{old,new}/*.ptx.xz, stub.ptx + stub-families.txt.
#   D=.gpu/s32f NAME=s32f bash tools/gpu/gemm/register-split-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s32f}
for v in old new; do mkdir -p /tmp/p$v; cp $P/*.ptx /tmp/p$v/; for z in $D/$v/*.ptx.xz; do x $z /tmp/p$v/$(basename $z .xz); done; done
F8="CUTE_RS_FP8_PROMOTED=n192tma CUTE_RS_FP8_BLOCK=stagedn192tma"
for v in old new; do CUTE_RS_PTX_DIR=/tmp/p$v timeout 200 $H gemm --ta --dtype bf16 --m 512 --check > $R/c.txt 2>&1 < /dev/null
  t "jit $v rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
  env $F8 CUTE_RS_PTX_DIR=/tmp/p$v timeout 200 $H gemm --dtype e4m3 --block-scales --m 512 --n 1024 --k 1024 --check > $R/c.txt 2>&1 < /dev/null
  t "jit fp8 $v rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2; do for s in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192" "--dtype bf16 --m 4096" "--dtype bf16 --m 8192" \
    "--ta --dtype bf16 --m 8192 --bias n --act gelu" "--dtype e4m3 --m 8192" "--dtype e4m3 --block-scales --m 8192" \
    "--dtype e4m3 --block-scales --m 4096 --n 7168 --k 16384"; do
  for v in old new; do [ $(left) -gt 40 ] || break; GARGS="$s"; g $v CUTE_RS_PTX_DIR=/tmp/p$v $F8; done; done; done
for s in "--ta --dtype bf16 --m 1000 --n 1030 --k 1024" "--dtype f16 --m 2048 --n 1700 --k 1008" "--ta --dtype bf16 --m 777 --n 3000 --k 520 --bias n --act gelu" \
  "--dtype e4m3 --m 1000 --n 1030 --k 1024" "--dtype e4m3 --block-scales --m 1000 --n 1030 --k 1024"; do [ $(left) -gt 20 ] || break
  env $F8 CUTE_RS_PTX_DIR=/tmp/pnew timeout 60 $H gemm $s --check > $R/c.txt 2>&1 < /dev/null; t "C new rc=$? | $s | $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done
t end
