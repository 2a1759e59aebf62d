#!/usr/bin/env bash
# (session 79; issue #34) The TMA epilogue's chunk hand-off: each staged chunk handed to warp 0 at a barrier of its own
# (warps 1-3 arrive and go on, warp 0 waits; thread 0 stores the chunk at once; kernels/hgemm_kernel/src/epilogue.rs
# `chunk_handoff`), against one meeting after every chunk's staging (main 3af34f7: +1 % at 4096³, but run s79a: -6 % at
# 8192²×512, -2 % at 2048³) and the per-chunk meetings before it (the package host's own modules, main e63842a). Checks
# of the hand-off modules (beta ≠ 0, edges, f16, f32 out, fused, e4m3 per-tensor and block, `host run --only hgemm`,
# the FP8 sweep), racecheck and synccheck (and memcheck) with several tiles a CTA (`CUTE_RS_HGEMM_SMS=38`), then base,
# new and hf alternated on the rows either form moved.
# Package: .gpu/A as tools/gpu/gemm/s78-one-tile-rows-ab.sh's, plus hf/{hgemm,hgemm_fp8}.ptx.xz and their cubins:
#   cargo xtask build-kernels --arch sm_90a && mkdir -p .gpu/A/hf && for m in hgemm hgemm_fp8; do
#     xz -c target/ptx/$m.ptx > .gpu/A/hf/$m.ptx.xz; done && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm hgemm_fp8
#   BUDGET=540 D=.gpu/A NAME=s79b bash tools/gpu/gemm/s79-handoff-ab.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s79b}
for v in new hf; do mkdir -p /tmp/pv$v; for m in hgemm hgemm_fp8; do x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done; done
mkdir -p /tmp/pvbase
export CUTE_RS_PTX_DIR=/tmp/pvhf
for a in "gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "gemm --dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
  "gemm --dtype bf16 --m 4096 --n 4096 --k 512 --beta 1 --out f32" "gemm --dtype bf16 --m 8192 --n 8192 --k 512 --tb" \
  "gemm --dtype bf16 --ta --m 1000 --n 3000 --k 700 --bias m --act gelu" "gemm --dtype bf16 --ta --m 2048 --n 1000 --k 512 --bias n --act silu --beta 1" \
  "gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --scale-a 0.5" "gemm --dtype e4m3 --block-scales --m 1000 --n 2000 --k 1024" "gemm --dtype e4m3 --m 1000 --n 2000 --k 1024 --bias n --act relu"; do
  c $a; done
sweeps
i=0
for s in "racecheck --dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" "synccheck --dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" \
  "racecheck --dtype bf16 --ta --m 2048 --n 2048 --k 256 --bias n --act gelu" "synccheck --dtype f16 --m 2048 --n 2048 --k 192" \
  "memcheck --dtype bf16 --m 2048 --n 2048 --k 192" "racecheck --dtype e4m3 --m 2048 --n 2048 --k 512 --bias m --act relu"; do
  i=$((i + 1)); set -- $s; tool=$1; shift
  CUTE_RS_HGEMM_SMS=38 timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm "$@" --check > $R/san$i.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $* | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san$i.txt | head -1)"
done
ROUNDS=${ROUNDS:-2} ab "base new hf" "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype bf16 --m 4096 --n 4096 --k 4096" \
  "--dtype bf16 --m 2048 --n 2048 --k 2048" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" \
  "--dtype f16 --ta --m 4096 --n 4096 --k 4096" "--dtype bf16 --ta --m 8192 --n 8192 --k 8192 --bias m --act gelu" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096"
t end
