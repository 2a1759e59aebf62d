#!/usr/bin/env bash
# Session 83: the fused epilogue's GELU from x/2 (`ActivationFn::apply_half`, `EpilogueOp::apply_acc_half`: the
# halving folded into the bias multiply-adds, one FMUL an element fewer, the same values bit for bit) and GELU-erf's
# Abramowitz–Stegun polynomial as FMAs (about 9 instructions an element fewer) — main's
# hgemm and hgemm_fp8 modules (base: $D/base/*.ptx.xz) against this tree's ($D/*.ptx.xz), the cubins of both in
# $D/cubin. Checks on the new modules, then alternated `host gemm --bench` rounds (sustained and burst).
# Package (this VM): `bash tools/gpu/gemm/s83-package.sh [D] [BASE]` (below by hand: the base modules kept from main's build, then
#   cargo xtask build-kernels --arch sm_90a && cargo build --release -p host-cli
#   xz -T2 -c target/release/host > $D/host.xz; bash tools/gpu/pack-cubins.sh $D; xz the modules into $D (new) and
#   $D/base (main's), cubins of main's into $D/cubin too)
# Run: BUDGET=420 D=.gpu/s83 NAME=s83a bash tools/gpu/gemm/s83-gelu-half-ab.sh (SKIP_WARM=1: no warm-up checks)
set -u
. tools/gpu/lib.sh ${NAME:-s83a}
mkdir -p /tmp/pvbase /tmp/pvnew; cp $P/*.ptx /tmp/pvbase/; cp $P/*.ptx /tmp/pvnew/
for m in hgemm hgemm_fp8; do x $D/base/$m.ptx.xz /tmp/pvbase/$m.ptx; done
t "base differs: $(for m in hgemm hgemm_fp8; do cmp -s /tmp/pvbase/$m.ptx /tmp/pvnew/$m.ptx && echo "$m same" || echo "$m differs"; done | tr '\n' ' ')"
[ -n "${SKIP_WARM:-}" ] || warm
B="--ta --dtype bf16"
for a in "--m 4096 --n 4096 --k 4096 --bias m --act gelu" "--m 1000 --n 1030 --k 512 --bias n --act gelu" \
  "--m 777 --n 1234 --k 320 --bias m --act gelu-erf" "--m 512 --n 768 --k 256 --bias n --act gelu-erf --beta 1" \
  "--m 4096 --n 4096 --k 1024 --bias m --act gelu --beta 0.5" "--m 640 --n 640 --k 640 --bias n --act silu" \
  "--m 640 --n 648 --k 640 --bias m --act relu --alpha -0.75"; do c gemm $B $a; done
for a in "--m 4096 --n 4096 --k 4096 --bias m --act gelu" "--m 1000 --n 1030 --k 512 --bias n --act gelu-erf --row-scales --col-scales" \
  "--m 256 --n 7168 --k 2048 --bias m --act gelu --row-scales"; do c gemm --dtype e4m3 $a; done
ROUNDS=3 ab "base new" "$B --m 4096 --n 4096 --k 4096 --bias m --act gelu" "$B --m 4096 --n 4096 --k 4096" \
  "$B --m 8192 --n 8192 --k 8192 --bias m --act gelu"
ROUNDS=2 ab "base new" "$B --m 4096 --n 4096 --k 4096 --bias m --act gelu-erf" "--dtype e4m3 --m 4096 --n 7168 --k 16384 --bias m --act gelu"
# the 16-bit sweep last, where the budget leaves time for it
if [ $(left) -gt 70 ]; then timeout $(( $(left) - 15 )) $H run --only hgemm > $R/run.txt 2>&1 < /dev/null
  t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"; fi
t done
