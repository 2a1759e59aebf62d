#!/usr/bin/env bash
# (session 16, lead) Second A/B call (after suspend-hint-peel-ab.sh): vA main (a0af54f's PTX), vC the suspend hint + the
# peeled first k-tile, vD vC with the per-tensor FP8 128x128 entry on one temporary (n128tma6s under n128tma6's
# name); hgemm modules cut to the measured entries (with gemm_fp8_e4m3_tn_promoted, which the FP8 plan looks up).
# Sections: K FP8 --check of vD's entry; F FP8 e4m3 (4096^3, 8192^3, 4096x7168x16384; n192tma vA/vC, n128tma6 vC/vD),
# two rounds; G bf16/f16 4096^3 vA/vC (bf16 TN three rounds, f16 TN and bf16 NN two), bf16 2048^3 vC default /
# cooperative4, two rounds. Package (D, default .gpu/s16c): host.xz, v{A,C,D}/hgemm.ptx.xz, stub.ptx +
# stub-families.txt.   D=.gpu/s16c bash tools/gpu/gemm/peel-fp8-bf16-ab.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh s16c
for v in A C D; do mkdir -p /tmp/p16$v; cp $P/*.ptx /tmp/p16$v/ 2>/dev/null
  for f in $D/v$v/*.ptx.xz; do x $f /tmp/p16$v/$(basename $f .xz); done; done
g() { # variant, then host args; the bench rows (ours, cuBLAS, ratio)
  local v=$1; shift
  CUTE_RS_PTX_DIR=/tmp/p16$v timeout 60 $H "$@" --bench > $R/g.txt 2>&1
  t "G $v ${CUTE_RS_FP8_PROMOTED:-}${CUTE_RS_HGEMM_SCHEDULE:-} rc=$? | $* | $(grep -E 'TFLOP' $R/g.txt | sed -E 's/ +/ /g' | cut -d' ' -f4- | cut -c1-120 | tr '\n' '|')"; }
for v in A C D; do CUTE_RS_PTX_DIR=/tmp/p16$v timeout 90 $H gemm --ta --dtype bf16 --m 1000 --n 1030 --k 999 --check > $R/w.txt 2>&1; t "W $v rc=$? $(grep -E 'PASS|FAIL' $R/w.txt | tail -1 | cut -c1-80)"; done
for s in "--m 1000 --n 1030 --k 1024" "--m 2048 --n 1700 --k 1008" "--m 300 --n 260 --k 4000"; do
  CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_PTX_DIR=/tmp/p16D timeout 60 $H gemm --dtype e4m3 $s --check > $R/k.txt 2>&1; t "K fp8 n128tma6s rc=$? $s $(grep -E 'PASS|FAIL' $R/k.txt | tail -1 | cut -c1-100)"; done
for i in 1 2; do for s in "--m 4096" "--m 8192" "--m 4096 --n 7168 --k 16384"; do
  for v in A C; do CUTE_RS_FP8_PROMOTED=n192tma g $v gemm --dtype e4m3 $s; done
  for v in C D; do CUTE_RS_FP8_PROMOTED=n128tma6 g $v gemm --dtype e4m3 $s; done
done; done
for i in 1 2 3; do for v in A C; do g $v gemm --ta --dtype bf16 --m 4096; done; done
for i in 1 2; do for v in A C; do g $v gemm --ta --dtype f16 --m 4096; g $v gemm --dtype bf16 --m 4096; done; done
for i in 1 2; do g C gemm --ta --dtype bf16 --m 2048; CUTE_RS_HGEMM_SCHEDULE=cooperative4 g C gemm --ta --dtype bf16 --m 2048; done
t end
